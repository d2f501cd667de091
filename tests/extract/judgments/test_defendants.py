"""The multi-defendant leak: JuDGE judgments that name a second defendant without 被告人
(二、李某犯…) or a unit defendant with a long name (被告单位…有限公司犯…) were read as
single-defendant (JuDGE test.json lines 418 and 490 gave AR-Bench rows)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from buildds.extract.judgments import judge_defendants, read_judge
from buildds.schema.judgments import JudgmentReject
from tests.conftest import shared_path
from tests.extract.judgments.corpus_records import BASIS, FACTS, HEADER, REASON


@pytest.mark.parametrize(("part", "names"), [
    ("判决如下： 一、被告人李甲犯贷款诈骗罪，判处有期徒刑一年； 二、李乙犯贷款诈骗罪，判处有期徒刑六个月；",
     ["李甲", "李乙"]),
    (("判决如下： 一、被告单位扬州某某超细粉股份有限公司犯单位行贿罪，判处罚金人民币十万元； "
     "二、被告人李某犯单位行贿罪，判处拘役四个月"), ["扬州某某超细粉股份有限公司", "李某"]),
    ("判决如下： 一、被告人张方犯协助组织卖淫罪，判处有期徒刑三年。 二、被告人张方的犯罪所得予以追缴。", ["张方"]),
    ("判决如下： 一、撤销本院（2017）冀0921刑初329号刑事判决； 二、被告人岳乐犯妨害公务罪，判处有期徒刑一年。",
     ["岳乐"]),
    ("判决如下： 三、上诉人（原审被告人）曹某犯聚众斗殴罪，判处有期徒刑三年。", ["曹某"]),
])
def test_every_defendant_of_a_judgment_part(part: str, names: list[str]) -> None:
    assert judge_defendants(part) == names


def test_a_second_defendant_without_the_word_rejects_the_judgment(tmp_path: Path) -> None:
    ruling = ("判决如下： 一、被告人甲某犯盗窃罪，判处有期徒刑六个月； 二、乙某犯盗窃罪，判处拘役三个月。 "
              "如不服本判决，可提出上诉。")
    full = HEADER.format(n=3) + FACTS + " " + REASON + BASIS.removesuffix("判决如下：") + ruling
    path = tmp_path / "test.json"
    path.write_text(json.dumps({"text_id": "t", "text": FACTS, "la": [264], "fd": full},
                               ensure_ascii=False) + "\n", encoding="utf-8")
    (got,) = read_judge(path)
    assert isinstance(got, JudgmentReject)
    assert (got.reason, got.line) == ("multi_defendant", 1)
    assert "2 defendants (甲某、乙某)" in got.message


def test_the_judge_leak_is_closed() -> None:
    path = shared_path("realdata", "judgments", "judge-benchmark", "test.json")
    got = {r.line: r for r in read_judge(path)}
    for line in (418, 481, 490):
        assert isinstance(got[line], JudgmentReject) and got[line].reason == "multi_defendant"
