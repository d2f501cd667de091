"""``buildds validate --help``'s examples name paths a ``buildds jbe`` run writes (issue 19):
its default ``--out`` folder and that folder's ``data/test.parquet``."""

from __future__ import annotations

import re

from click.testing import CliRunner

from buildds.cli import main


def test_validate_examples_name_what_buildds_jbe_writes() -> None:
    jbe_out = next(p.default for p in main.commands["jbe"].params if p.name == "out")
    text = CliRunner().invoke(main, ["validate", "--help"]).output
    paths = re.findall(r"buildds validate (\S+)", text)
    assert paths, text
    allowed = {str(jbe_out), f"{jbe_out}/data/test.parquet"}
    assert set(paths) <= allowed, paths
