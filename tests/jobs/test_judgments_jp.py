"""``buildds judgments --profile jp`` end to end: self-written Japanese judgments against a
self-written 刑法 law folder, and the four real courts.go.jp precedents (needs ../shared)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from buildds.commands.judgments import judgments
from tests.conftest import shared_path
from tests.extract.judgments.jp_texts import write_cases

ARTICLES = [
    ("204", "（傷害）", "人の身体を傷害した者は、十五年以下の拘禁刑又は五十万円以下の罰金に処する。"),
    ("235", "（窃盗）", "他人の財物を窃取した者は、窃盗の罪とし、十年以下の拘禁刑又は五十万円以下の罰金に処する。"),
]


def _law(folder: Path) -> Path:
    from buildds.text import int_to_ja

    folder.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps({"file": f"art_{n}.md", "article_num": n, "heading": head,
                         "title": f"第{int_to_ja(int(n))}条 {head}",
                         "paragraphs": [{"paragraph": "1", "text": text}]}, ensure_ascii=False)
             for n, head, text in ARTICLES]
    (folder / "penal_code_articles.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def _report(out: Path) -> dict:  # type: ignore[type-arg]
    return json.loads((out / "report.json").read_text("utf-8"))


def _outcomes(out: Path) -> dict[str, dict[str, str]]:
    """Per judgment id and error type: ``injected`` or the skip reason (E3/E5)."""
    got: dict[str, dict[str, str]] = {}
    for line in (out / "rejects.jsonl").read_text("utf-8").splitlines():
        r = json.loads(line)
        if r["stage"] == "inject" and r["error_type"] in ("E3", "E5"):
            got.setdefault(r["id"], {})[r["error_type"]] = r["reason"]
        elif r["stage"] == "extract":
            got[r["id"]] = {"read": r["reason"]}
    import pandas as pd

    frame = pd.read_parquet(out / "data" / "detection.parquet")
    for rid, source, etype in zip(frame["id"], frame["source_id"], frame["error_type"],
                                  strict=True):
        if etype != "none":
            got.setdefault(source, {})[etype] = "injected"
    return got


def test_jp_profile_on_self_written_judgments(tmp_path: Path) -> None:
    import pandas as pd

    write_cases(tmp_path / "cases")
    law, out = _law(tmp_path / "law"), tmp_path / "out"
    args = [str(tmp_path / "cases"), "--profile", "jp", "--law", str(law), "--out", str(out),
            "-q", "--strict", "--review-sample", "3"]
    res = CliRunner().invoke(judgments, args)
    assert res.exit_code == 0, res.output
    report = _report(out)
    assert report["parsed"] == {"cases": 4} and report["inputs"][0]["format"] == "jp_precedent"
    assert report["validation"]["ok"] and report["exported"]
    assert _outcomes(out) == {
        "jp-90001": {"E3": "no_room_outside_range", "E5": "no_fine"},
        "jp-90002": {"E3": "injected", "E5": "no_fine"},
        "jp-90003": {"E3": "no_term", "E5": "injected"},
        "jp-90004": {"E3": "law_not_in_profile", "E5": "no_fine"},
    }
    for etype in ("E1", "E2", "E4", "E6"):
        assert report["injections"][etype]["skipped:not_applicable_jp"] == 4
    frame = pd.read_parquet(out / "data" / "detection.parquet")
    assert set(frame["dataset"]) == {"jp"}
    row = frame[frame["error_type"] == "E3"].iloc[0]
    assert row["input_s1"].startswith("【罪となるべき事実】") and "【主文】" in row["input_s1"]
    assert row["cited_articles"].tolist() == ["第二百三十五条", "第二十一条"]
    assert "窃盗の罪とし" in row["articles_text"]
    card = (out / "README.md").read_text("utf-8")
    assert "- ja" in card and "not_applicable_jp" in card and "## Build notes" in card
    html = (out / "review" / "review_sample.html").read_text("utf-8")
    assert '<html lang="ja">' in html and "刑法235条" in html

    again = CliRunner().invoke(judgments, args)
    assert again.exit_code == 0 and "unchanged" in again.output


def test_jp_profile_usage_errors(tmp_path: Path) -> None:
    write_cases(tmp_path / "cases", ("theft_prison",))
    runner = CliRunner()
    no_law = runner.invoke(judgments, [str(tmp_path / "cases"), "--profile", "jp", "--law",
                                       str(tmp_path), "--out", str(tmp_path / "o")])
    assert no_law.exit_code == 2 and "penal_code_articles.jsonl" in no_law.output
    store = runner.invoke(judgments, [str(tmp_path / "cases"), "--profile", "jp", "--law",
                                      str(_law(tmp_path / "law")), "--law-store", str(tmp_path),
                                      "--out", str(tmp_path / "o")])
    assert store.exit_code == 2 and "--law-store" in store.output
    folder_cn = runner.invoke(judgments, [str(tmp_path / "cases"), "--out", str(tmp_path / "o")])
    assert folder_cn.exit_code == 2
    other = tmp_path / "other.json"
    other.write_text('{"text_id": "a"}', encoding="utf-8")
    bad = runner.invoke(judgments, [str(other), "--profile", "jp", "--law",
                                    str(tmp_path / "law"), "--out", str(tmp_path / "o2"), "-q"])
    assert bad.exit_code == 1 and "courts.go.jp precedent" in bad.output


#: the four real precedents: what happens to each (PROVENANCE.md summarises them)
REAL = {
    "jp-89302": {"read": "multi_defendant"},  # 公職選挙法, four defendants
    "jp-89448": {"E3": "law_not_in_profile", "E5": "law_not_in_profile"},  # 著作権法
    "jp-89878": {"E3": "law_not_in_profile", "E5": "no_fine"},  # 放射線障害防止法 / 毒劇法
    "jp-89617": {"E3": "law_not_in_profile", "E5": "no_fine"},  # 刑法 ×3 + 廃棄物処理法
}


def test_jp_profile_on_the_real_precedents(tmp_path: Path) -> None:
    folder = shared_path("realdata", "judgments", "jp-precedents-sample")
    law = shared_path("realdata", "judgments", "jp-penal-code")
    write_cases(tmp_path / "cases")
    out = tmp_path / "out"
    res = CliRunner().invoke(judgments, [str(folder), str(tmp_path / "cases"), "--profile", "jp",
                                         "--law", str(law), "--out", str(out), "-q"])
    assert res.exit_code == 0, res.output
    report = _report(out)
    assert report["parsed"] == {"jp-precedents-sample": 3, "cases": 4}
    assert report["validation"]["ok"] and report["exported"]
    got = _outcomes(out)
    assert {k: got[k] for k in REAL} == REAL
    assert got["jp-90002"]["E3"] == "injected" and got["jp-90003"]["E5"] == "injected"
