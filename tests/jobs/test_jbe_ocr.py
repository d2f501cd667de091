"""OCR inside ``buildds jbe``: settings, confidences copied onto items, low-confidence flags
and the command-line options."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from buildds.cli import main
from buildds.jobs.jbe_ocr import (
    DEFAULT_OCR,
    OcrSettings,
    attach_ocr_confidence,
    low_confidence,
    ocr_flag_section,
)
from buildds.schema import JbeItem


def item(q: int, s: int, text: str = "記述", label: str = "Y", **kw) -> JbeItem:
    return JbeItem(id=f"令和６年-民法-{q}-{s}", year="令和６年", subject="Civil Code",
                   subject_jp="民法", instruction="正しいか", question=text, label=label,
                   answer=label == "Y", question_type="combination", points=2,
                   source="2024/minpo-mondai.pdf", sha256="0" * 64, page=2, **kw)


def test_default_settings_keep_the_cache_keys() -> None:
    assert DEFAULT_OCR.cache_options() == {}
    assert OcrSettings(psm=4).cache_options() == {"ocr": ["jpn", 300, 4]}
    assert OcrSettings(dpi=400).extract_kwargs() == {"ocr_lang": "jpn", "ocr_dpi": 400,
                                                    "ocr_psm": 6}


def test_confidence_is_copied_and_low_items_are_flagged() -> None:
    items = [item(1, 1), item(1, 2), item(2, 1)]
    conf = {"1-1": (95.0, 80.0), "1-2": (85.0, 70.0), "2-1": (96.0, 12.0)}
    got = attach_ocr_confidence(items, conf)
    assert [i.ocr_confidence for i in got] == [95.0, 85.0, 96.0]
    assert attach_ocr_confidence(items, None) == items  # a text-layer booklet
    flagged = low_confidence(got, {"2024/minpo-mondai.pdf": conf})
    assert [f["id"] for f in flagged] == ["令和６年-民法-1-2", "令和６年-民法-2-1"]
    strict = low_confidence(got, {"2024/minpo-mondai.pdf": conf},
                            OcrSettings(flag_below=99.0, word_floor=0.0))
    assert len(strict) == 3
    section = "\n".join(ocr_flag_section(got, flagged))
    assert "3 items were read by OCR; 2 are flagged" in section and "| 令和６年-民法-2-1 |" in section


def test_bad_ocr_options_are_usage_errors(tmp_path: Path) -> None:
    runner = CliRunner()
    base = ["jbe", "--years", "2019", "--raw", str(tmp_path), "--out", str(tmp_path / "o"), "-q"]
    for bad in (["--ocr-lang", "jpn; rm"], ["--ocr-psm", "14"], ["--ocr-dpi", "10"],
                ["--ocr-flag-below", "101"]):
        result = runner.invoke(main, [*base, *bad])
        assert result.exit_code == 2, (bad, result.output)
        assert "--ocr-" in result.output
