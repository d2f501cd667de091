"""The corpus summary (buildds.inject_errors.corpus_summary) injects as the whole corpus
does: same priors, same E1 donors below the cap, whatever order the judgments are counted
in (needs ../shared)."""

from __future__ import annotations

from typing import Any

import pytest

from buildds.extract.judgments import detect_format, load_input
from buildds.inject_errors import injectors, lazy_random
from buildds.inject_errors.corpus_summary import DONORS_PER_GROUP, CorpusSummary, donor_group
from buildds.inject_errors.registry import inject_all
from tests.conftest import shared_path


@pytest.fixture(scope="module")
def setting() -> tuple[list[Any], Any]:
    from buildds.inject_errors.statutes import build_cn_profile

    shared = shared_path("realdata", "judgments")
    path = shared / "judge-benchmark" / "test.json"
    found = detect_format(path)
    assert found.field_map is not None
    judgments = list(load_input(path, found.field_map, []))[:120]
    profile = build_cn_profile(shared / "cn-criminal-law", shared / "cn-confusable-charges"
                               / "legalattack_sheet1_similar_charges.csv")
    return judgments, profile


def _dump(done: list[Any], skipped: list[Any]) -> list[str]:
    return [d.model_dump_json() for d in done] + [s.model_dump_json() for s in skipped]


def test_a_summary_injects_as_the_whole_corpus(setting: tuple[list[Any], Any]) -> None:
    judgments, profile = setting
    whole = inject_all(judgments, profile=profile, seed=0, corpus=judgments)
    summary = CorpusSummary(seed=0)
    for j in reversed(judgments):  # counted in another order
        summary.add(j)
    assert summary.donors_dropped == 0
    with pytest.raises(ValueError, match="settle"):
        summary.to_json()  # the E1 plan is not made yet
    summary.settle(profile)
    with pytest.raises(ValueError, match="settled"):
        summary.add(judgments[0])
    ctx = CorpusSummary.from_json(summary.to_json()).context(profile)
    table = injectors(0)
    done: list[Any] = []
    skipped: list[Any] = []
    for j in judgments:
        for etype in table:
            result = table[etype].inject(j, lazy_random(f"0:{j.id}:{etype}"), ctx)
            (skipped if hasattr(result, "reason") else done).append(result)
    assert _dump(done, skipped) == _dump(*whole)
    assert any(d.error_type == "E1" and d.rationale.get("donor") for d in done)


def test_donors_are_capped_per_group_by_a_seeded_rank(setting: tuple[list[Any], Any]) -> None:
    judgments, _ = setting
    donor = next(j for j in judgments if len(j.charges) == 1 and j.sentence.months is not None)
    copies = [donor.model_copy(update={"id": f"{donor.id}-{k}"}) for k in range(12)]
    forward, backward = CorpusSummary(seed=0), CorpusSummary(seed=0)
    for j in copies:
        forward.add(j)
    half = CorpusSummary(seed=0)
    for j in reversed(copies[6:]):
        backward.add(j)
    for j in copies[:6]:
        half.add(j)
    backward.merge(half)
    group = donor_group(donor)
    kept = sorted(j.id for _, j in forward.donors[group])
    assert len(kept) == DONORS_PER_GROUP and forward.donors_dropped == 12 - DONORS_PER_GROUP
    assert kept == sorted(j.id for _, j in backward.donors[group])
    assert all(j.facts == "" and j.judgment == "" for _, j in forward.donors[group])
