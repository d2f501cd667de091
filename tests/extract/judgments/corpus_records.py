"""LeCaRD-like, Caseformer-like and JuDGE-like records written here (never copied from
../shared): one single-defendant theft judgment in each corpus's layout."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FACTS = "经审理查明，2017年4月28日，被告人甲某在某超市盗窃手机一部，价值人民币三千元。"
REASON = ("本院认为，被告人甲某以非法占有为目的，秘密窃取他人财物，数额较大，其行为已构成盗窃罪。"
          "被告人甲某到案后如实供述自己的罪行，可以从轻处罚。")
BASIS = "依照《中华人民共和国刑法》第二百六十四条、第六十七条第三款之规定，判决如下："
SENTENCE = ("被告人甲某犯盗窃罪，判处有期徒刑六个月，并处罚金人民币二千元。 （刑期从判决执行之日起计算。"
            "判决执行以前先行羁押的，羁押一日折抵刑期一日，即自2017年5月1日起至2017年10月31日止。）")
APPEAL = "如不服本判决，可在接到判决书的第二日起十日内提出上诉。"
HEADER = "某某县人民法院 刑事判决书 （2017）某0101刑初{n}号 公诉机关某某县人民检察院。 被告人甲某，男。 "
SIGN = " 审判员乙某 二○一七年十一月二十日 书记员丙某"


def qw(n: int = 1, sentence: str = SENTENCE) -> str:
    """A LeCaRD 全文: paragraphs separated by single spaces, the date with ○."""
    return (HEADER.format(n=n) + FACTS + " " + REASON + BASIS + " " + sentence + " " + APPEAL
            + SIGN)


def lecard(wid: str = "w1", aj: str = "a1", n: int = 1, *, sentence: str = SENTENCE,
           title: str = "甲某盗窃罪一审刑事判决书", **change: Any) -> str:
    record: dict[str, Any] = {
        "ajId": aj, "ajName": "甲某盗窃罪一案", "ajjbqk": " " + FACTS,
        "cpfxgc": REASON + BASIS, "pjjg": " " + sentence + " " + APPEAL, "qw": qw(n, sentence),
        "writId": wid, "writName": title, "cid": 1, "crime": ["盗窃罪"]}
    record.update(change)
    return json.dumps(record, ensure_ascii=False)


def caseformer(cid: str = "（2018）某0102刑初7号", **change: Any) -> str:
    """Caseformer: ``reason`` without the statutory basis, ``result`` without 判决如下, and
    ``content`` with the section joins' punctuation missing (判决如下被告人…)."""
    content = ("某某区人民法院刑事判决书" + cid + "：公诉机关指控被告人甲某犯盗窃罪。现已审理终结"
               + FACTS + REASON + BASIS.rstrip("：") + SENTENCE + APPEAL
               + "审判员乙某二〇一八年十二月十五日书记员丙某")
    record: dict[str, Any] = {"id": cid, "type": "判决书", "program": "刑事一审",
                              "claim": "被告人甲某的行为构成盗窃罪", "fact": FACTS,
                              "reason": REASON, "result": SENTENCE, "content": content}
    record.update(change)
    return json.dumps(record, ensure_ascii=False)


def judge(rid: str = "a1", n: int = 1) -> str:
    full = (HEADER.format(n=n) + FACTS + " " + REASON + BASIS + " " + SENTENCE + " " + APPEAL
            + SIGN)
    return json.dumps({"text_id": rid, "text": FACTS, "la": [264], "fd": full},
                      ensure_ascii=False)


def write(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path
