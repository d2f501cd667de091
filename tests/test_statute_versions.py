"""Versioned statute profiles (issue 12): judgment/offence dates, the PRC version a judgment is
judged under (judgment date, PRC art. 12), ``buildds judgments --law-store``, and the JP
2025-06-01 拘禁刑 change leaving months and fines as they were."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from buildds.extract.judgments import offence_date, parse_judgment_date, parse_offence_dates
from buildds.inject_errors.statutes import lighter
from buildds.schema.statutes import (
    ChargeProfile,
    FineRule,
    PenaltyRange,
    SentencingTier,
    StatuteProfile,
    TierCondition,
)
from tests.conftest import shared_path


def test_judgment_date_is_the_chinese_date_before_the_annex():
    text = ("公诉机关指控：2017年4月28日15时许，被告人张3…… 审判员李某 二〇一七年六月二十八日 "
            "书记员唐某 附：相关法律条文 第二条 二〇一九年一月一日")
    assert parse_judgment_date(text) == date(2017, 6, 28)
    assert parse_judgment_date("二零一八年三月十二日") == date(2018, 3, 12)
    assert parse_judgment_date("2018年3月12日") is None  # Arabic dates are the facts'
    assert parse_judgment_date("二〇一八年二月三十日") is None  # no such day


def test_offence_dates_skip_birth_dates():
    facts = ("被告人王某（1975年4月16日出生）于2017年4月28日15时许盗窃，"
             "后于２０１７年５月２日被抓获。户籍证明证实被告人出生于1980年1月1日。")
    assert parse_offence_dates(facts) == (date(2017, 4, 28), date(2017, 5, 2))
    assert offence_date(facts) == date(2017, 4, 28)
    assert offence_date(facts, date(2017, 4, 1)) is None


def test_real_judge_file_dates():
    from buildds.extract.judgments import load_judge

    path = shared_path("realdata", "judgments", "judge-benchmark", "test.json")
    judgments = list(load_judge(path, []))
    # 3 multi-defendant judgments (lines 418, 481, 490) are rejected; dates written with ○
    # (二○一七年…) are read
    assert len(judgments) == 448
    assert sum(j.judgment_date is not None for j in judgments) == 443
    assert sum(j.offence_date is not None for j in judgments) == 418
    assert all(j.offence_date <= j.judgment_date for j in judgments
               if j.offence_date and j.judgment_date)
    assert max(j.judgment_date for j in judgments if j.judgment_date).year == 2019


def _profile(version: str, max_months: int) -> StatuteProfile:
    tier = SentencingTier(condition=TierCondition(kind="base", text=""), text="",
                          penalties=(PenaltyRange(kind="有期徒刑", min_months=6,
                                                  max_months=max_months),))
    charge = ChargeProfile(charge="测试罪", article=300, tiers=(tier,), fine=FineRule(), text="")
    return StatuteProfile(id="cn", jurisdiction="cn", law="刑法", version=version,
                          effective_date=date(2020, 1, 1), charges=(charge,))


def test_lighter_law_compares_the_statutory_range():
    old, new = _profile("old", 120), _profile("new", 84)
    assert lighter(new, old, ["测试"]) and not lighter(old, new, ["测试"])
    assert not lighter(old, old, ["测试"])
    assert not lighter(new, old, ["测试", "不存在"])  # a charge one version lacks


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> Path:
    from buildds.laws.store import import_files

    root = tmp_path_factory.mktemp("store")
    import_files(root, [
        shared_path("realdata", "laws", "cn-criminal-law", "criminal_law_PRC_after_amendment11.md"),
        shared_path("realdata", "judgments", "cn-criminal-law", "criminal_law_PRC_2023_amendment12.md")])
    return root


def _law() -> tuple[Path, Path]:
    return (shared_path("realdata", "judgments", "cn-criminal-law"),
            shared_path("realdata", "judgments", "cn-confusable-charges",
                        "legalattack_sheet1_similar_charges.csv"))


def test_versions_from_the_store(store):
    from buildds.inject_errors.statutes import VersionedProfiles, build_cn_profile
    from buildds.schema.core import Source
    from buildds.schema.judgments import Judgment, Sentence

    law, conf = _law()
    vp = VersionedProfiles(store, law, conf)
    xi, xii = (v.revision_id for v in vp.versions)
    assert vp.profile(xii).charges == build_cn_profile(law, conf).charges  # XII as today
    changed = {c.charge for c in vp.profile(xii).charges
               if c.tiers != vp.profile(xi).charge(c.charge).tiers}
    assert changed == {"非法经营同类营业", "为亲友非法牟利", "单位受贿", "行贿", "对单位行贿", "单位行贿"}

    def judgment(judged: date | None, done: date | None, charge: str = "盗窃") -> Judgment:
        return Judgment(id="x", source=Source(path="t", sha256="0"), dataset="judge", line=1,
                        facts="", reasoning="", judgment="", full_text="", charges=(charge,),
                        sentence=Sentence(kind="none"), judgment_date=judged, offence_date=done)

    assert vp.choose(judgment(date(2024, 6, 1), None)).revision_id == xii
    assert vp.choose(judgment(date(2022, 6, 1), None)).revision_id == xi
    assert vp.choose(judgment(date(2020, 6, 1), None)).basis == "earliest_before_store"
    assert vp.choose(judgment(None, None)).basis == "latest_no_date"
    # art. 12: 行贿 (art. 390) was made heavier by XII → the law at the offence date stays
    briber = judgment(date(2024, 6, 1), date(2023, 6, 1), "行贿")
    assert vp.choose(briber, "offence").revision_id == xi
    assert vp.choose(briber, "offence").basis == "offence_date"
    assert vp.choose(judgment(date(2024, 6, 1), date(2023, 6, 1)), "offence").basis == "offence_date"


def test_judgments_with_a_law_store(store, tmp_path):
    import pandas as pd

    from buildds.jobs.judgments import build_judgments

    law, conf = _law()
    src = shared_path("realdata", "judgments", "judge-benchmark", "test.json")
    report = build_judgments([src], out=tmp_path / "o", law_dir=law, confusable=conf,
                             law_store=store, limit=60, progress=False)
    assert report.ok and report.exported and not report.dropped
    lines = [json.loads(x) for x in (tmp_path / "o" / "statute_versions.jsonl").read_text().splitlines()]
    assert len(lines) == 60 and {x["statute_version_basis"] for x in lines} <= {
        "earliest_before_store", "latest_no_date"}
    rows = pd.read_parquet(tmp_path / "o" / "data" / "detection.parquet")
    assert "statute_version" not in rows.columns  # the columns stay those of the default
    # the injected rows' rationales (an untouched row's names what it was matched for)
    rats = [json.loads(r) for r, label in zip(rows["rationale"], rows["label"], strict=True) if label == 1]
    assert rats and all(r["statute_version"].startswith("CN-CRIMINAL-LAW_") for r in rats)


def test_validation_checks_the_rows_version(store, tmp_path):
    from buildds.schema.arbench import ArbenchRow
    from buildds.validate.arbench import validate_arbench

    row = ArbenchRow(id="a-E3-0", source_id="a", dataset="judge", error_type="E3",
                     error_class="sentencing", label=1, factor="none", charges=("盗窃",),
                     facts="f", judgment="j", original_judgment="o", reasoning="r",
                     anomalous_reasoning="r", cited_articles=(), anomalous_cited_articles=(),
                     articles_text="t", anomalous_articles_text="t", gold_correction={},
                     rationale={"statute_version": "CN-CRIMINAL-LAW_20171104_AMENDMENT-X"},
                     edits=(), seed=0, input_s1="1", input_s2="2", input_s3="3",
                     input_s4="4", input_s5="5")
    report = validate_arbench([row], profile=_profile("p", 10), versions={})
    assert any(e["check"] == "statute_version" for e in report.errors)


def test_jp_kokinkei_keeps_months_and_fines():
    from buildds.inject_errors.statutes import build_jp_profile, jp_text_from_html

    old = shared_path("realdata", "statutes", "kei.html").read_text("utf-8")
    new = shared_path("realdata", "laws", "jp-penal-code",
                      "keiho_egov_api_v1_2026-01-01.xml").read_text("utf-8")
    p23 = build_jp_profile(jp_text_from_html(old), version="2023", effective_date=date(2023, 7, 13))
    p26 = build_jp_profile(jp_text_from_html(new), version="2026", effective_date=date(2025, 6, 1))

    def ranges(p: StatuteProfile) -> dict[tuple[int, int | None], list[set[tuple]]]:
        return {(c.article, c.article_sub): [
            {(r.min_months, r.max_months, r.min_amount, r.max_amount) for r in t.penalties}
            for t in c.tiers] for c in p.charges}

    r23, r26 = ranges(p23), ranges(p26)
    common = set(r23) & set(r26)
    assert len(common) == 158
    # 懲役 and 禁錮 become one 拘禁刑: the months and fines of every tier are those of 2023
    assert [a for a in sorted(common, key=str) if r23[a] != r26[a]] == []
    assert "懲役" not in {r.kind for c in p26.charges for t in c.tiers for r in t.penalties}
