"""--exam-date YEAR=DATE: read the same way by `buildds jbe --as-of` and `buildds laws impact`;
a year that is not one, or a day outside the year it is given for, is a usage error."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from click.testing import CliRunner

from buildds.cli import main
from buildds.laws.exam_dates import parse_exam_date

BAD = ["99999999999999999999=2023-05-01", "2023=2019-05-01", "23=2023-05-01",
       "2023=2023-13-01", "2023-05-01"]


def test_parse_exam_date() -> None:
    assert parse_exam_date("2019=2019-05-20") == (2019, date(2019, 5, 20))
    with pytest.raises(ValueError, match="must be in 2023"):
        parse_exam_date("2023=2019-05-01")
    for text in BAD:
        with pytest.raises(ValueError):
            parse_exam_date(text)


@pytest.mark.parametrize("text", BAD)
def test_both_commands_refuse_a_bad_exam_date(tmp_path: Path, text: str) -> None:
    (tmp_path / "data").mkdir()
    for args in (["jbe", "--years", "2023", "--raw", str(tmp_path), "--out",
                  str(tmp_path / "o"), "--as-of", "2026-01-01", "--law-store", str(tmp_path)],
                 ["laws", "impact", str(tmp_path), "--store", str(tmp_path), "--as-of",
                  "2026-01-01", "--out", str(tmp_path / "i")]):
        result = CliRunner().invoke(main, [*args, "--exam-date", text])
        assert result.exit_code == 2, (args, result.output)
        assert "--exam-date" in result.output and "Traceback" not in result.output
        assert not (tmp_path / "o").exists() and not (tmp_path / "i").exists()
