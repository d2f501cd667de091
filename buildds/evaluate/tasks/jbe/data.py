"""Loading a JBE-QA export (``buildds jbe``) for the task: the ``test`` and ``fewshot``
splits as plain dicts, with the fingerprints the run manifest records."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from buildds.errors import ExportError
from buildds.evaluate.tasks.export_io import (
    load_saved,
    plain_records,
    read_parquet_rows,
    state_fingerprint,
)
from buildds.export.data_fingerprint import DATA_DIR, data_fingerprint
from buildds.safeio.hashing import sha256_file

__all__ = ["JbeData", "load_jbe_data"]


@dataclass
class JbeData:
    """The export's items as plain dicts, in the export's order."""

    test: list[dict[str, Any]]
    fewshot: list[dict[str, Any]]
    #: where the data came from and its fingerprint (for the manifest)
    fingerprint: dict[str, Any] = field(default_factory=dict)

    @property
    def fewshot_ids(self) -> set[str]:
        ids = {str(r["id"]) for r in self.fewshot}
        return ids | {str(r["id"]) for r in self.test if bool(r.get("is_fewshot"))}

    def scored(self) -> list[dict[str, Any]]:
        """The items that are scored: every test item except the few-shot exemplars."""
        few = self.fewshot_ids
        return [r for r in self.test if str(r["id"]) not in few]

    @property
    def items_by_id(self) -> dict[str, dict[str, Any]]:
        return {str(r["id"]): r for r in self.test}


def _card_fingerprints(card: Path) -> dict[str, str]:
    out: dict[str, str] = {}
    if not card.is_file():
        return out
    text = card.read_text(encoding="utf-8")
    for key, pat in (("build", r"build fingerprint: `([0-9a-f]+)`"),
                     ("test", r"`test` split fingerprint: `([0-9a-f]+)`"),
                     ("fewshot", r"`fewshot` split fingerprint: `([0-9a-f]+)`")):
        m = re.search(pat, text)
        if m:
            out[key] = m.group(1)
    return out


def _with_card(fp: dict[str, Any], card: Path) -> dict[str, Any]:
    """``fp`` with the README's fingerprints under ``card`` (when it states any)."""
    card_fp = _card_fingerprints(card)
    if card_fp:
        fp["card"] = card_fp
    return fp


def _from_parquet(test_file: Path, kind: str, card: Path) -> JbeData:
    """``test_file`` and its ``fewshot.parquet`` sibling (else its ``is_fewshot`` rows)."""
    few_file = test_file.with_name("fewshot.parquet")
    has_few = few_file.is_file() and few_file != test_file
    test = read_parquet_rows(test_file)
    fewshot = read_parquet_rows(few_file) if has_few else [r for r in test
                                                            if r.get("is_fewshot")]
    fp: dict[str, Any] = {"kind": kind, "test_sha256": sha256_file(test_file)}
    if test_file.parent.name == DATA_DIR and (data_fp := data_fingerprint(test_file.parent.parent)):
        fp["data_fingerprint"] = data_fp
    if has_few:
        fp["fewshot_sha256"] = sha256_file(few_file)
    return JbeData(test, fewshot, _with_card(fp, card))


def load_jbe_data(path: str | Path) -> JbeData:
    """Load a JBE-QA export. ``path`` is the build/export folder (``data/test.parquet`` and
    ``data/fewshot.parquet``), a ``save_to_disk`` folder (``dataset/``, splits ``test`` and
    ``fewshot``), or one ``.parquet`` file (its ``fewshot.parquet`` sibling is used when
    there is one; otherwise the ``is_fewshot`` rows, in file order)."""
    path = Path(path)
    if path.is_dir() and not (path / "data" / "test.parquet").is_file() \
            and (path / "export" / "data" / "test.parquet").is_file():
        path = path / "export"
    if path.is_file():
        return _from_parquet(path, "parquet", path.parent.parent / "README.md")
    if (path / "data" / "test.parquet").is_file():
        return _from_parquet(path / "data" / "test.parquet", "export", path / "README.md")
    saved = path / "dataset" if (path / "dataset" / "dataset_dict.json").is_file() else path
    if (saved / "dataset_dict.json").is_file():
        dd = load_saved(saved)
        if "test" not in dd:
            raise ExportError("the saved dataset has no 'test' split", source=str(saved))
        test = plain_records(dd["test"].to_pandas())
        fewshot = (plain_records(dd["fewshot"].to_pandas()) if "fewshot" in dd
                   else [r for r in test if r.get("is_fewshot")])
        fp = {"kind": "dataset",
              "splits": {s: state_fingerprint(saved / s) for s in sorted(dd.keys())}}
        if data_fp := data_fingerprint(saved.parent):
            fp["data_fingerprint"] = data_fp
        return JbeData(test, fewshot, _with_card(fp, saved.parent / "README.md"))
    raise ExportError("no JBE-QA export here (expected data/test.parquet, a save_to_disk "
                      "folder or a .parquet file); run `buildds jbe` first", source=str(path))

