"""The real LeCaRD candidate subset and Caseformer demo (../shared, read in place): every
line is a judgment or a reject with a reason, the de-duplication and the procedure filter
hold against the raw records, and the kept judgments are single-defendant first-instance
judgments with consistent spans and dates."""

from __future__ import annotations

import json
import re
from collections import Counter
from datetime import date
from pathlib import Path

import pytest

from buildds.extract.judgments import BUILTIN_MAPS, CaseRegistry, load_input
from buildds.schema.judgments import Judgment, JudgmentReject
from tests.conftest import shared_path

_ROOT = ("realdata", "judgments")


def _raw(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines()]


@pytest.fixture(scope="module")
def corpora() -> dict[str, tuple[Path, list[Judgment], list[JudgmentReject]]]:
    files = {"judge": shared_path(*_ROOT, "judge-benchmark", "test.json"),
             "lecard": shared_path(*_ROOT, "lecard-candidates-subset", "candidates.jsonl"),
             "caseformer": shared_path(*_ROOT, "caseformer-demo", "legal_documents.jsonl")}
    seen: dict[str, str] = {}
    cases = CaseRegistry()
    out = {}
    for name, path in files.items():
        rejects: list[JudgmentReject] = []
        kept = list(load_input(path, BUILTIN_MAPS[name], rejects, seen=seen, cases=cases))
        out[name] = (path, kept, rejects)
    return out


def test_every_line_is_accounted_for(corpora: dict) -> None:  # type: ignore[type-arg]
    for path, kept, rejects in corpora.values():
        lines = len(path.read_text("utf-8").splitlines())
        assert len(kept) + len(rejects) == lines
        assert sorted([j.line for j in kept] + [r.line for r in rejects]) == list(
            range(1, lines + 1))


def test_lecard_duplicates_and_overlap_with_judge(corpora: dict) -> None:  # type: ignore[type-arg]
    path, kept, rejects = corpora["lecard"]
    raw = _raw(path)
    reasons = Counter(r.reason for r in rejects)
    # PROVENANCE: 30 writIds occur twice
    assert reasons["duplicate_id"] == 30
    assert reasons["duplicate_id"] == len(raw) - len({r["writId"] for r in raw})
    judge_ids = {r["text_id"] for r in _raw(corpora["judge"][0])}
    overlap = {r["ajId"] for r in raw} & judge_ids
    assert 0 < reasons["duplicate_case"] <= len(overlap) + 3  # + repeated ajIds
    for r in rejects:
        if r.reason == "duplicate_case":
            assert ("test.json line" in r.message) == (raw[r.line - 1]["ajId"] in judge_ids)
    assert not {j.id for j in kept} & judge_ids
    assert {raw[j.line - 1]["ajId"] for j in kept}.isdisjoint(judge_ids)


def test_lecard_keeps_first_instance_only(corpora: dict) -> None:  # type: ignore[type-arg]
    path, kept, rejects = corpora["lecard"]
    raw = _raw(path)
    appellate = re.compile(r"二审|再审")
    for j in kept:
        assert not appellate.search(str(raw[j.line - 1]["writName"]))
    for r in rejects:
        if r.reason == "not_first_instance":
            assert appellate.search(str(raw[r.line - 1]["writName"])) or re.search(
                r"刑[终再监申]", r.message)


def test_kept_judgments_are_single_defendant_with_their_parts(corpora: dict) -> None:  # type: ignore[type-arg]
    for name in ("lecard", "caseformer"):
        _, kept, rejects = corpora[name]
        headless: Counter[bool] = Counter()
        assert kept and any(r.reason == "multi_defendant" for r in rejects)
        for j in kept:
            named = set(re.findall(r"(?:被告人|[一二三四五]、)([^\s，、。；]{1,4}?)犯(?!罪)", j.judgment))
            assert len(j.defendants) <= 1 and len(named) <= 1, (j.id, named)
            assert j.judgment_span is not None
            headless.update([not j.judgment.startswith(("判决如下", "判处如下"))])
            assert "如不服" not in j.judgment
            assert j.facts_span is None or j.full_text[j.facts_span.start:j.facts_span.end] == j.facts
        assert headless[True] <= 0.05 * len(kept), headless  # the court's 判决如下 is found
        dated = [j.judgment_date for j in kept if j.judgment_date]
        assert len(dated) >= 0.95 * len(kept)
        if name == "lecard":  # PROVENANCE: 2010-03-07 … 2020-01-17
            assert date(2010, 1, 1) <= min(dated) and max(dated) <= date(2020, 12, 31)
        else:  # PROVENANCE: 2018-12-15 … 2018-12-17
            assert set(dated) <= {date(2018, 12, d) for d in (15, 16, 17)}


def test_caseformer_shares_no_case_with_the_others(corpora: dict) -> None:  # type: ignore[type-arg]
    _, kept, rejects = corpora["caseformer"]
    assert not [r for r in rejects if r.reason in ("duplicate_case", "duplicate_id")]
    assert all("刑初" in j.id for j in kept)
