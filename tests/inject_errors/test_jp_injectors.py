"""The jp injectors (:mod:`buildds.inject_errors.jp_injectors`) on self-written Japanese
judgments, against a 刑法 profile built from self-written article text."""

from __future__ import annotations

from datetime import date

import pytest

from buildds.extract.judgments.jp_precedent import parse_jp_precedent
from buildds.extract.judgments.jp_sentence import parse_jp_sentence
from buildds.inject_errors import undo_edits
from buildds.inject_errors.jp_format import format_ja_term, format_ja_yen
from buildds.inject_errors.jp_injectors import inject_jp
from buildds.inject_errors.statutes import build_jp_profile
from buildds.schema.core import Source
from buildds.schema.judgments import InjectedJudgment, Judgment
from tests.extract.judgments.jp_texts import CASES, THEFT_PRISON, THEFT_SUSPENDED, record

LAW = """（傷害）
第二百四条　人の身体を傷害した者は、十五年以下の拘禁刑又は五十万円以下の罰金に処する。
（窃盗）
第二百三十五条　他人の財物を窃取した者は、窃盗の罪とし、十年以下の拘禁刑又は五十万円以下の罰金に処する。
（強盗）
第二百三十六条　暴行又は脅迫を用いて他人の財物を強取した者は、強盗の罪とし、五年以上の有期拘禁刑に処する。
（遺失物等横領）
第二百五十四条　遺失物、漂流物その他占有を離れた他人の物を横領した者は、一年以下の拘禁刑又は十万円以下の罰金若しくは科料に処する。
"""
PROFILE = build_jp_profile(LAW, version="test", effective_date=date(2025, 6, 1))


def _judgment(contents: str, case_name: str = "窃盗被告事件", lid: str = "1") -> Judgment:
    got = parse_jp_precedent(record(contents, lawsuit_id=lid, case_name=case_name),
                             source=Source(path="t.json", sha256="0" * 64))
    assert isinstance(got, Judgment), got
    return got


def _case(name: str) -> Judgment:
    got = parse_jp_precedent(CASES[name], source=Source(path=f"{name}.json", sha256="0" * 64))
    assert isinstance(got, Judgment)
    return got


def _one(judgment: Judgment, etype: str, seed: int = 0) -> InjectedJudgment | str:
    done, skipped = inject_jp([judgment], errors=[etype], profile=PROFILE, seed=seed)
    return done[0] if done else skipped[0].reason


def _check_undo(rec: InjectedJudgment) -> None:
    assert undo_edits(rec.anomalous_text, rec.edits) == rec.original.full_text
    assert rec.judgment != rec.original.judgment and rec.facts == rec.original.facts
    assert rec.reasoning == rec.original.reasoning  # the jp injectors edit only the 主文


@pytest.mark.parametrize("seed", range(12))
def test_e3_moves_the_term_outside_the_article_range(seed: int) -> None:
    rec = _one(_case("theft_prison"), "E3", seed)
    assert isinstance(rec, InjectedJudgment)
    _check_undo(rec)
    months = parse_jp_sentence(rec.judgment)[0].months
    assert months is not None and months > 120 and rec.gold_correction == {"months": 18}
    assert rec.rationale["range_months"] == [1, 120] and rec.rationale["kind"] == "拘禁刑"
    assert rec.rationale["sentence_kind"] == "懲役" and rec.rationale["article"] == "刑法235条"
    assert months // 12 * 12 == months or months % 6 == 0  # 1年6月: half years kept


def test_e3_below_a_minimum_and_suspended_terms() -> None:
    robbery = _judgment(THEFT_PRISON.replace("懲役１年６月", "懲役６年").replace(
        "刑法２３５条", "刑法２３６条"), "強盗被告事件")
    sides = set()
    for seed in range(10):
        rec = _one(robbery, "E3", seed)
        assert isinstance(rec, InjectedJudgment)
        months = parse_jp_sentence(rec.judgment)[0].months
        assert months is not None and not 60 <= months <= 240
        sides.add(rec.rationale["direction"])
        assert months >= 1  # and never below the 30 credited days
    assert "below" in sides
    # 窃盗 suspended: above 10 years the suspension (at most 3 years) would be a second error
    assert _one(_case("theft_suspended"), "E3") == "no_room_outside_range"
    lost = _judgment(THEFT_SUSPENDED.replace("懲役２年", "懲役６月").replace(
        "刑法２３５条", "刑法２５４条"), "占有離脱物横領被告事件")
    for seed in range(10):
        rec = _one(lost, "E3", seed)
        assert isinstance(rec, InjectedJudgment)
        months = parse_jp_sentence(rec.judgment)[0].months
        assert months is not None and 12 < months <= 36


@pytest.mark.parametrize("seed", range(12))
def test_e5_moves_the_fine_outside_the_range(seed: int) -> None:
    rec = _one(_case("injury_fine"), "E5", seed)
    assert isinstance(rec, InjectedJudgment)
    _check_undo(rec)
    fine = parse_jp_sentence(rec.judgment)[0].fine_yuan
    assert fine is not None and not 10_000 <= fine <= 500_000
    assert rec.gold_correction == {"fine_yuan": 300_000} and rec.rationale["currency"] == "JPY"


def test_skips_with_reasons() -> None:
    special = _case("special_law")
    assert _one(special, "E3") == "law_not_in_profile"
    assert _one(_case("theft_prison"), "E5") == "no_fine"
    assert _one(_case("injury_fine"), "E3") == "no_term"
    mitigated = _judgment(THEFT_PRISON.replace(
        "未決勾留日数の算入　刑法２１条", "酌量減軽　刑法６６条，７１条，６８条３号"))
    assert _one(mitigated, "E3") == "sentencing_factor"
    two = _judgment(THEFT_PRISON.replace("罰条　　　刑法２３５条",
                                         "罰条　　　判示第１の所為は刑法２３５条に，判示第２の所為は刑法２５４条に"))
    assert _one(two, "E3") == "multi_charge"
    unknown = _judgment(THEFT_PRISON.replace("刑法２３５条", "刑法２４６条"), "詐欺被告事件")
    assert _one(unknown, "E3") == "article_not_in_profile"
    for etype in ("E1", "E2", "E4", "E6"):
        assert _one(_case("theft_prison"), etype) == "not_applicable_jp"


def test_numbers_in_the_judgment_style() -> None:
    assert format_ja_term(22, "１年６月") == "１年１０月" and format_ja_term(30, "二年") == "二年六月"
    assert format_ja_term(132, "1年") == "11年" and format_ja_term(7, "８か月") == "７か月"
    assert format_ja_yen(1_500_000, "１００万円") == "１５０万円" and format_ja_yen(5000, "３０万円") == "５０００円"
    assert format_ja_yen(300_000, "三十万円") == "三十万円"
