"""Untouched rows pass through the same formatting code as injected ones (issue 13): an
injection that changes nothing, made the way the injectors make their records (the parts cut
from the anomalous text by their spans, :class:`~buildds.inject_errors.base.BaseInjector`),
gives a row equal to the normal row in every text column — whitespace, punctuation, part
splitting, headings and the cited-article blocks of S1–S5."""

from __future__ import annotations

from pathlib import Path

import pytest

from buildds.inject_errors.arbench_rows import injected_row, normal_row
from buildds.inject_errors.base import BaseInjector
from buildds.schema.arbench import COLUMNS
from buildds.schema.judgments import InjectedJudgment, Judgment
from tests.conftest import shared_path
from tests.inject_errors.test_injectors import PROFILE, theft

TEXTS = {(264, None): "第二百六十四条　盗窃公私财物，数额较大的，处三年以下有期徒刑。"}
#: the columns that say what the row is, not how its text is made
IDENTITY = {"id", "error_type", "error_class", "label", "gold_correction", "rationale",
            "edits", "seed"}


def _unchanged(j: Judgment) -> InjectedJudgment:
    """A record of the injection path with no edit: each part cut from the anomalous text."""
    part = BaseInjector._part
    return InjectedJudgment(
        id=f"{j.id}-E3-0", source_id=j.id, error_type="E3", error_class="prison_term", seed=0,
        original=j, edits=(), anomalous_text=j.full_text,
        facts=part(j.full_text, j.facts_span, j.facts, ()),
        reasoning=part(j.full_text, j.reasoning_span, j.reasoning, ()),
        judgment=part(j.full_text, j.judgment_span, j.judgment, ()), gold_correction={})


def _assert_same_text(j: Judgment, texts: dict, profile: object = None) -> None:  # type: ignore[type-arg]
    normal, injected = normal_row(j, texts, profile), injected_row(_unchanged(j), texts, profile)  # type: ignore[arg-type]
    a, b = normal.as_dict(), injected.as_dict()
    differ = [c for c in COLUMNS if c not in IDENTITY and a[c] != b[c]]
    assert not differ, f"{j.id}: {differ}"


def test_hand_made_judgments() -> None:
    for i in range(3):
        _assert_same_text(theft(rid=f"j{i}", amount=str(2000 + i)), TEXTS, PROFILE)


def test_article_numbers_from_the_meta_are_kept_alike() -> None:
    """A judgment whose article numbers come from the record's meta (CAIL: no reasoning to
    parse): the injected row's S5 articles must not go missing where the normal row's are
    there."""
    j = theft(rid="meta")
    meta = j.model_copy(update={"article_refs": (), "articles": [264]})
    _assert_same_text(meta, TEXTS, PROFILE)
    row = injected_row(_unchanged(meta), TEXTS, PROFILE)
    assert row.anomalous_cited_articles == ("第二百六十四条",)


@pytest.mark.parametrize("name", ["judge-benchmark/test.json", "cail2018-sample/data_train.json"])
def test_real_judgments(name: str) -> None:
    from buildds.extract.judgments import load_cail, load_judge
    from buildds.inject_errors.arbench_rows import load_article_texts

    root = shared_path("realdata", "judgments")
    loader = load_judge if name.startswith("judge") else load_cail
    judgments = [j for _, j in zip(range(80), loader(Path(root / name), []))]
    texts = load_article_texts(root / "cn-criminal-law")
    assert judgments
    for j in judgments:
        _assert_same_text(j, texts)
