"""One dataset fingerprint for the AR-Bench (``buildds judgments``) and LegalRikai
(``buildds contracts``) exports too (issue 19, point 4): the fingerprint in the card equals
the build's ``report.json``/``report.md``, ``buildds validate``'s output and report, and the
eval leaderboard's / manifest's dataset key — whichever form of the export is loaded."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from buildds.cli import main
from buildds.export.data_fingerprint import data_fingerprint
from tests.conftest import shared_path


def _run(args: list[str], code: int = 0) -> str:
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    assert result.exit_code == code, result.output
    return result.output


def _card_fp(export: Path) -> str:
    card = (export / "README.md").read_text(encoding="utf-8")
    match = re.search(r"data fingerprint: `([0-9a-f]{16})`", card)
    assert match, "the card names no data fingerprint"
    return match.group(1)


def _validate_fp(target: Path, out: Path) -> str:
    line = _run(["validate", str(target), "--out", str(out)])
    match = re.search(r"\(data fingerprint ([0-9a-f]{16})\)", line)
    assert match, line
    assert json.loads((out / "report.json").read_text("utf-8"))["data_fingerprint"] \
        == match.group(1)
    return match.group(1)


def _eval_keys(export: Path, task: str, model: str, out: Path) -> set[str]:
    _run(["eval", str(export), "--task", task, "--model", model, "--out", str(out), "-q"])
    keys = {json.loads((out / n).read_text("utf-8"))["dataset"]["key"]
            for n in ("leaderboard.json", "manifest.json")}
    keys |= {json.loads(p.read_text("utf-8"))["dataset_key"] for p in out.rglob("metrics.json")}
    return keys


# --------------------------------------------------------------------------- contracts
@pytest.fixture(scope="module")
def rikai(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from buildds.jobs.contracts import build_contracts
    from tests.jobs.test_contracts_job import make_docx

    tmp = tmp_path_factory.mktemp("rikai")
    docs = [make_docx(tmp / f"契約{i}.docx") for i in range(3)]
    ann = tmp / "labels.csv"
    ann.write_text("document_id,number,labels\n" + "".join(
        f"契約{i},{n},{label}\n" for i in range(3)
        for n, label in ((1, "目的"), (2, "再委託"), (3, "秘密保持"), (4, "完全合意"))),
        encoding="utf-8")
    out = tmp / "export"
    build_contracts(docs, out=out, annotations=ann, seed=0, eval_share=0.25, progress=False)
    return out


def test_contracts_fingerprint_card_report_validate_leaderboard(rikai: Path,
                                                               tmp_path: Path) -> None:
    fp = data_fingerprint(rikai)
    assert fp and _card_fp(rikai) == fp
    assert json.loads((rikai / "report.json").read_text("utf-8"))["data_fingerprint"] == fp
    assert f"data fingerprint: `{fp}`" in (rikai / "report.md").read_text("utf-8")
    assert _validate_fp(rikai, tmp_path / "v1") == fp
    assert _validate_fp(rikai / "data" / "evaluation.parquet", tmp_path / "v2") == fp
    assert _validate_fp(rikai / "dataset", tmp_path / "v3") == fp
    assert _eval_keys(rikai, "clause-classification", "majority", tmp_path / "ev") == {fp}
    assert _eval_keys(rikai / "dataset", "clause-classification", "majority",
                      tmp_path / "ev2") == {fp}


def test_validate_names_the_broken_contracts_rows(rikai: Path, tmp_path: Path) -> None:
    import pandas as pd

    export = tmp_path / "copy"
    (export / "data").mkdir(parents=True)
    for p in (rikai / "data").glob("*.parquet"):
        frame = pd.read_parquet(p)
        if p.stem == "development":
            frame.loc[0, "text"] = " "
            frame.loc[1, "id"] = frame.loc[2, "id"]
        frame.to_parquet(export / "data" / p.name)
    result = CliRunner().invoke(main, ["validate", str(export)])
    assert result.exit_code == 1, result.output
    assert "text_present [development]: empty text" in result.output
    assert "id_unique [development]" in result.output
    report = json.loads((export / "validation" / "report.json").read_text("utf-8"))
    assert report["kind"] == "contracts-classification" and not report["ok"]
    assert report["data_fingerprint"] == data_fingerprint(export) != data_fingerprint(rikai)


# --------------------------------------------------------------------------- AR-Bench
@pytest.fixture(scope="module")
def arbench(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from buildds.export.arbench import export_arbench
    from tests.evaluate.tasks.appellate_review.test_task import _synthetic_rows

    out = tmp_path_factory.mktemp("arbench") / "export"
    result = export_arbench(_synthetic_rows(), out=out, fingerprint="a" * 32, provenance={},
                            seed=0)
    assert result.data_fingerprint == data_fingerprint(out)
    return out


def test_arbench_fingerprint_card_validate_leaderboard(arbench: Path, tmp_path: Path) -> None:
    fp = data_fingerprint(arbench)
    assert fp and _card_fp(arbench) == fp
    assert _validate_fp(arbench, tmp_path / "v1") == fp
    assert _validate_fp(arbench / "data" / "detection.parquet", tmp_path / "v2") == fp
    import pyarrow.parquet as pq

    n = {t: pq.read_metadata(arbench / "data" / f"{t}.parquet").num_rows
         for t in ("classification", "correction", "detection")}
    assert (f"validated {sum(n.values())} AR-Bench rows (classification {n['classification']}, "
            f"correction {n['correction']}, detection {n['detection']}): 0 errors"
            ) in _run(["validate", str(arbench), "--out", str(tmp_path / "v3")])
    for task in ("appellate-review:detection", "appellate-review:classification"):
        assert _eval_keys(arbench, task, "majority", tmp_path / task.replace(":", "_")) == {fp}
    assert _eval_keys(arbench / "dataset", "appellate-review:detection", "majority",
                      tmp_path / "saved") == {fp}


def test_validate_names_a_bad_arbench_label(arbench: Path, tmp_path: Path) -> None:
    import pandas as pd

    export = tmp_path / "copy"
    (export / "data").mkdir(parents=True)
    frame = pd.read_parquet(arbench / "data" / "detection.parquet")
    bad = frame.index[frame["error_type"] != "none"][0]
    frame.loc[bad, "label"] = 0
    frame.to_parquet(export / "data" / "detection.parquet")
    result = CliRunner().invoke(main, ["validate", str(export)])
    assert result.exit_code == 1
    assert "label_matches_error_type [detection]" in result.output
    assert str(frame.loc[bad, "id"]) in result.output


def test_judgments_build_fingerprint_card_report_validate_leaderboard(tmp_path: Path) -> None:
    """The real build (first 40 JuDGE judgments; needs ../shared): report.json == card."""
    shared = shared_path("realdata", "judgments")
    out = tmp_path / "arbench"
    _run(["judgments", str(shared / "judge-benchmark" / "test.json"), "--out", str(out),
          "--law", str(shared / "cn-criminal-law"), "--confusable",
          str(shared / "cn-confusable-charges" / "legalattack_sheet1_similar_charges.csv"),
          "--limit", "40", "--no-audit", "-q"])
    fp = data_fingerprint(out)
    report = json.loads((out / "report.json").read_text("utf-8"))
    assert fp and report["data_fingerprint"] == fp == _card_fp(out)
    assert f"data fingerprint: `{fp}`" in (out / "report.md").read_text("utf-8")
    assert _validate_fp(out, tmp_path / "val") == fp
    assert _eval_keys(out, "appellate-review:detection", "majority", tmp_path / "ev") == {fp}
