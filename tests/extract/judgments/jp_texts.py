"""Self-written Japanese criminal judgments in the courts.go.jp precedent JSON, for the jp
reader, injector and job tests (the facts are invented)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

THEFT_SUSPENDED = """主　　　文
被告人を懲役２年に処する。
この裁判確定の日から３年間その刑の執行を猶予する。
理　　　由
（罪となるべき事実）
被告人は，令和元年６月１日午後３時頃，東京都新宿区（住所省略）所在のスーパーマーケットにおいて，同店店長Ａ管理の食料品
等１０点（販売価格合計３０２４円）を窃取したものである。
（証拠の標目）（省略）
（法令の適用）
罰条　　　刑法２３５条
刑種の選択　懲役刑を選択
刑の執行猶予　刑法２５条１項
（量刑の理由）
被告人は，生活費を節約するために本件犯行に及んだもので，動機に酌むべき点はない。他方，被害品は
全て還付されていること，被告人が事実を認めて反省の態度を示していることなどを考慮し，主文の刑に処し
た上，その刑の執行を猶予するのが相当と判断した。
（求刑　懲役２年）
令和２年１月１５日
東京地方裁判所刑事第１部
裁判官　　甲　野　太　郎
"""

THEFT_PRISON = THEFT_SUSPENDED.replace(
    "被告人を懲役２年に処する。\nこの裁判確定の日から３年間その刑の執行を猶予する。",
    "被告人を懲役１年６月に処する。\n未決勾留日数中３０日をその刑に算入する。").replace(
    "刑の執行猶予　刑法２５条１項", "未決勾留日数の算入　刑法２１条").replace(
    "その刑の執行を猶予するのが相当", "主文の刑が相当")

INJURY_FINE = """主　　　文
被告人を罰金３０万円に処する。
その罰金を完納することができないときは，金５０００円を１日に換算した期間被告人を労役場に留置する。
理　　　由
（罪となるべき事実）
被告人は，令和元年８月３日午後１０時頃，大阪市北区（住所省略）路上において，Ｂ（当時３５歳）に
対し，その顔面を手拳で１回殴打する暴行を加え，よって，同人に加療約１週間を要する顔面打撲の傷害を負
わせたものである。
（法令の適用）
罰条　　　刑法２０４条
刑種の選択　罰金刑を選択
労役場留置　刑法１８条
（量刑の理由）
被告人は飲酒の上，些細なことから立腹して本件に及んだものであるが，被害者と示談が成立していること
などを考慮した。
令和２年２月３日
大阪地方裁判所第５刑事部
裁判官　　乙　山　花　子
"""

SPECIAL_LAW = """主　　　文
被告人を懲役１年に処する。
この裁判確定の日から３年間その刑の執行を猶予する。
理　　　由
（罪となるべき事実）
被告人は，法定の除外事由がないのに，令和元年９月１０日，福岡市（住所省略）の被告人方において，覚醒
剤若干量を使用したものである。
（法令の適用）
罰条　　　覚醒剤取締法４１条の３第１項１号，１９条
刑の執行猶予　刑法２５条１項
（量刑の理由）
被告人には前科がなく，事実を認めている。
令和２年３月２日
福岡地方裁判所第３刑事部
裁判官　　丙　川　次　郎
"""


def record(contents: str, *, lawsuit_id: str, case_name: str, day: int = 15) -> dict[str, Any]:
    """A precedent object as courts.go.jp's data set stores it."""
    return {"trial_type": "LowerCourt", "date": {"era": "Reiwa", "year": 2, "month": 1, "day": day},
            "case_number": f"令和1(わ){lawsuit_id}", "case_name": case_name,
            "court_name": "東京地方裁判所", "lawsuit_id": lawsuit_id,
            "detail_page_link": "", "full_pdf_link": "", "contents": contents}


CASES = {
    "theft_suspended": record(THEFT_SUSPENDED, lawsuit_id="90001", case_name="窃盗被告事件"),
    "theft_prison": record(THEFT_PRISON, lawsuit_id="90002", case_name="窃盗被告事件"),
    "injury_fine": record(INJURY_FINE, lawsuit_id="90003", case_name="傷害被告事件"),
    "special_law": record(SPECIAL_LAW, lawsuit_id="90004", case_name="覚醒剤取締法違反被告事件"),
}


def write_cases(folder: Path, names: tuple[str, ...] = tuple(CASES)) -> list[Path]:
    """The cases as pretty-printed JSON files (one object per file) under ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for name in names:
        path = folder / f"{name}.json"
        path.write_text(json.dumps(CASES[name], ensure_ascii=False, indent=2), encoding="utf-8")
        out.append(path)
    return out
