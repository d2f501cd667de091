"""AR-Bench rows (seed 003) from parsed judgments and injected errors: the step after injection,
read by validation (:mod:`buildds.validate.arbench`) and the export (:mod:`buildds.export.arbench`).

One row (an :class:`~buildds.schema.arbench.ArbenchRow`) per judgment *version*: every
:class:`InjectedJudgment` is an anomalous row
(``label`` 1, ``error_type`` E1…E6), and a seeded share of the source judgments is included
unaltered as normal rows (``label`` 0, ``error_type``/``error_class`` ``none``), each drawn
for one error type to match its injected rows on corpus, charge, penalty kind, term and fine
(:mod:`buildds.inject_errors.normal_matching`; the type is in the row's ``rationale``
``matched_for``), so neither which judgments a type applies to nor the values it writes
tell the rows apart (:func:`select_normals`: the earlier draw from the injected rows' own
judgments, kept for ``--profile jp``). The three
tasks read the same rows (:func:`task_rows`):

* ``detection`` — every row; target ``label`` (0 normal / 1 anomalous);
* ``classification`` — anomalous rows; target ``error_class`` (charge / prison_term / fine);
* ``correction`` — anomalous rows; target ``gold_correction`` (JSON: the values to restore,
  e.g. ``{"months": 42}``), with ``original_judgment`` as the corrected text.

The five input settings of the paper (section 4.2) are **columns** holding the exact model
input text, so one row serves every setting (``input_s1`` … ``input_s5``):

* S1 — case facts + (anomalous) judgment;
* S2 — S1 + the normal reasoning (sentencing factors and cited article numbers intact);
* S3 — S2 + the text of the articles the normal reasoning cites (``articles_text``);
* S4 — case facts + anomalous reasoning + anomalous judgment (the realistic setting);
* S5 — S4 + the text of the articles the *anomalous* reasoning cites
  (``anomalous_articles_text``: e.g. E4 drops the factor's article).

Parts are laid out in document order (facts, reasoning, judgment, articles), each under a
Chinese heading (:data:`HEADINGS`). For a normal row the anomalous parts equal the normal
ones, so S2 == S4 and S3 == S5 there.

Article texts come from the law text by article number (:func:`load_article_texts`, 第X条
and 第X条之N), falling back to a charge's ``ChargeProfile.text`` for an article the law
text does not hold.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Literal

from buildds.extract.judgments import parse_articles
from buildds.schema.arbench import ArbenchRow, FactorGroup
from buildds.schema.judgments import (
    ArticleRef,
    ErrorClass,
    ErrorType,
    InjectedJudgment,
    Judgment,
    SpanEdit,
)
from buildds.schema.statutes import StatuteProfile
from buildds.text import cn_number, int_to_cn

__all__ = [
    "HEADINGS",
    "LAW_FILE",
    "SETTINGS",
    "TASKS",
    "ArticleKey",
    "arbench_rows",
    "article_keys",
    "article_texts",
    "articles_text",
    "factor_group",
    "injected_row",
    "load_article_texts",
    "matched_normals",
    "normal_row",
    "select_normals",
    "setting_inputs",
    "task_rows",
]

SETTINGS: tuple[str, ...] = ("S1", "S2", "S3", "S4", "S5")
TASKS: tuple[str, ...] = ("detection", "classification", "correction")
LAW_FILE = "criminal_law_PRC_2023_amendment12.md"
HEADINGS = {"facts": "【案件事实】", "reasoning": "【裁判理由】", "judgment": "【判决结果】",
            "articles": "【相关法条】"}

#: (article, 之N or None)
ArticleKey = tuple[int, int | None]

_SUB_RE = re.compile(r"条之([一二三四五六七八九十]+)")


def load_article_texts(law_dir: str | Path) -> dict[ArticleKey, str]:
    """(article, 之N) → ``第X条[之N]　`` + its paragraphs (one a line), from the law text."""
    from buildds.safeio.files import read_side_file

    return article_texts(read_side_file(Path(law_dir) / LAW_FILE))


def article_texts(text: str) -> dict[ArticleKey, str]:
    """(article, 之N) → ``第X条[之N]　`` + its paragraphs (one a line), from a law text (the
    Markdown file, or a store version rendered by
    :func:`~buildds.inject_errors.statutes.store_law_text`)."""
    from buildds.inject_errors.statutes import split_cn_articles

    out: dict[ArticleKey, str] = {}
    for (number, sub), paragraphs in split_cn_articles(text).items():
        out[(number, sub)] = _label((number, sub)) + "　" + "\n".join(paragraphs)
    return out


def article_keys(refs: Iterable[ArticleRef]) -> list[ArticleKey]:
    """Distinct (article, 之N) of article references, in order of first citation."""
    keys: list[ArticleKey] = []
    for ref in refs:
        m = _SUB_RE.search(ref.span.text)
        key = (ref.number, int(cn_number(m[1]) or 0) if m else None)
        if key not in keys:
            keys.append(key)
    return keys


def _label(key: ArticleKey) -> str:
    number, sub = key
    return f"第{int_to_cn(number)}条" + (f"之{int_to_cn(sub)}" if sub else "")


def articles_text(keys: Sequence[ArticleKey], texts: Mapping[ArticleKey, str],
                  profile: StatuteProfile | None = None) -> str:
    """The cited articles' text, one article a block (blank line between), in citation order;
    an article neither the law text nor the profile holds is named with ``（条文缺失）``."""
    blocks: list[str] = []
    for key in keys:
        text = texts.get(key)
        if text is None and profile is not None:
            cp = next((c for c in profile.charges
                       if (c.article, c.article_sub) == key and c.text), None)
            text = f"{_label(key)}　{cp.text}" if cp is not None else None
        blocks.append(text if text is not None else f"{_label(key)}（条文缺失）")
    return "\n\n".join(blocks)


def factor_group(judgment: Judgment) -> FactorGroup:
    """AR-Bench's factor category (Figure 3): none / mitigating / aggravating / mixed."""
    kinds = {f.mitigating for f in judgment.factors if f.kind != "其他"}
    if not kinds:
        return "none"
    if kinds == {True}:
        return "mitigating"
    if kinds == {False}:
        return "aggravating"
    return "mixed"


def _block(part: str, text: str) -> str:
    return f"{HEADINGS[part]}\n{text.strip()}"


def setting_inputs(*, facts: str, judgment: str, reasoning: str, anomalous_reasoning: str,
                   articles: str, anomalous_articles: str) -> dict[str, str]:
    """The exact model input of each setting (see the module docstring)."""
    f, j = _block("facts", facts), _block("judgment", judgment)
    r, ar = _block("reasoning", reasoning), _block("reasoning", anomalous_reasoning)
    a, aa = _block("articles", articles), _block("articles", anomalous_articles)
    return {
        "input_s1": f"{f}\n\n{j}",
        "input_s2": f"{f}\n\n{r}\n\n{j}",
        "input_s3": f"{f}\n\n{r}\n\n{j}\n\n{a}",
        "input_s4": f"{f}\n\n{ar}\n\n{j}",
        "input_s5": f"{f}\n\n{ar}\n\n{j}\n\n{aa}",
    }


def _row(*, id: str, judgment: Judgment, error_type: ErrorType | Literal["none"],
         error_class: ErrorClass | Literal["none"], facts: str, text: str,
         anomalous_reasoning: str, anomalous_keys: list[ArticleKey],
         gold: Mapping[str, object], rationale: Mapping[str, object],
         edits: tuple[SpanEdit, ...], seed: int, texts: Mapping[ArticleKey, str],
         profile: StatuteProfile | None) -> ArbenchRow:
    keys = article_keys(judgment.article_refs)
    if not keys:  # CAIL: article numbers from the meta
        keys = [(a, None) for a in judgment.articles]
    arts = articles_text(keys, texts, profile)
    anomalous_arts = articles_text(anomalous_keys, texts, profile)
    inputs = setting_inputs(facts=facts, judgment=text, reasoning=judgment.reasoning,
                            anomalous_reasoning=anomalous_reasoning, articles=arts,
                            anomalous_articles=anomalous_arts)
    return ArbenchRow(
        id=id, source_id=judgment.id, dataset=judgment.dataset,
        error_type=error_type, error_class=error_class,
        label=0 if error_type == "none" else 1, factor=factor_group(judgment),
        charges=tuple(judgment.charges), facts=facts, judgment=text,
        original_judgment=judgment.judgment, reasoning=judgment.reasoning,
        anomalous_reasoning=anomalous_reasoning,
        cited_articles=tuple(_label(k) for k in keys),
        anomalous_cited_articles=tuple(_label(k) for k in anomalous_keys),
        articles_text=arts, anomalous_articles_text=anomalous_arts,
        gold_correction=dict(gold), rationale=dict(rationale), edits=edits, seed=seed,
        **inputs)


def _anomalous_keys(judgment: Judgment, reasoning: str) -> list[ArticleKey]:
    """The articles the (anomalous) ``reasoning`` cites — one function for normal and
    injected rows, so untouched and injected S5 inputs are made alike (the shortcut audit,
    issue 13); a judgment whose article numbers come from the meta (CAIL: no reasoning)
    keeps them."""
    if not judgment.article_refs and judgment.articles:
        return [(a, None) for a in judgment.articles]
    return article_keys(parse_articles(reasoning))


def normal_row(judgment: Judgment, texts: Mapping[ArticleKey, str],
               profile: StatuteProfile | None = None, *, seed: int = 0,
               matched: tuple[str, int] | None = None) -> ArbenchRow:
    """The unaltered judgment as a normal row (id ``<source id>-none``); ``matched``: the
    (error type, level) it was drawn for (:mod:`buildds.inject_errors.normal_matching`),
    recorded in its rationale."""
    from buildds.inject_errors.normal_matching import matched_rationale

    keys = _anomalous_keys(judgment, judgment.reasoning)
    return _row(id=f"{judgment.id}-none", judgment=judgment, error_type="none",
                error_class="none", facts=judgment.facts, text=judgment.judgment,
                anomalous_reasoning=judgment.reasoning, anomalous_keys=keys, gold={},
                rationale=matched_rationale(*matched) if matched else {}, edits=(),
                seed=seed, texts=texts, profile=profile)


def injected_row(record: InjectedJudgment, texts: Mapping[ArticleKey, str],
                 profile: StatuteProfile | None = None) -> ArbenchRow:
    """An anomalous row: the injected judgment/reasoning, the original reasoning (S2/S3)."""
    anomalous_keys = _anomalous_keys(record.original, record.reasoning)
    return _row(id=record.id, judgment=record.original, error_type=record.error_type,
                error_class=record.error_class, facts=record.facts, text=record.judgment,
                anomalous_reasoning=record.reasoning, anomalous_keys=anomalous_keys,
                gold=record.gold_correction, rationale=record.rationale,
                edits=record.edits, seed=record.seed, texts=texts,
                profile=profile)


def select_normals(judgments: Iterable[Judgment], share: float, seed: int,
                   injected: Iterable[InjectedJudgment] | None = None) -> list[Judgment]:
    """The judgments kept as normal rows, among those that have a judgment part (CAIL records
    have none); each draw is ``random.Random(f"{seed}:normal:{id}")``, so it does not depend
    on order or on the other judgments (a shard sees the same draws as the whole corpus).

    With the ``injected`` judgments (the build): untouched rows come from the **same
    population as the injected rows** (issue 13) — a judgment no error type applies to is
    never a normal row (its text would mark "untouched"), and a judgment with ``k`` injected
    versions is kept with probability ``min(1, share · k)``, so the untouched rows follow the
    injected rows' judgments (a judgment that is E1, E4 and E6 eligible weighs three times
    one that only E1 applies to) and, per error type, the untouched rows of that type's
    judgments are a random sample of them (:func:`matched_normals`). Without them (no
    injections known): each judgment independently with probability ``share``."""
    if injected is None:
        return [j for j in judgments if j.judgment.strip()
                and random.Random(f"{seed}:normal:{j.id}").random() < share]
    versions = Counter(r.source_id for r in injected)
    return [j for j in judgments if j.judgment.strip() and versions[j.id]
            and random.Random(f"{seed}:normal:{j.id}").random() < min(1.0, share * versions[j.id])]


def matched_normals(rows: Sequence[ArbenchRow], error_type: str) -> list[ArbenchRow]:
    """The normal rows drawn for ``error_type``'s comparison (their rationale's
    ``matched_for``, :mod:`buildds.inject_errors.normal_matching`) — what the shortcut audit
    compares the type with; rows without it (a build of unmatched normals: ``--profile jp``)
    are those of the judgments that have an injected row of that type."""
    if any(r.label == 0 and "matched_for" in r.rationale for r in rows):
        return [r for r in rows if r.label == 0 and r.rationale.get("matched_for") == error_type]
    sources = {r.source_id for r in rows if r.error_type == error_type}
    return [r for r in rows if r.label == 0 and r.source_id in sources]


def arbench_rows(judgments: Iterable[Judgment], injected: Iterable[InjectedJudgment], *,
                 texts: Mapping[ArticleKey, str], profile: StatuteProfile | None = None,
                 seed: int = 0, normal_share: float = 0.5,
                 normals: Mapping[str, tuple[str, int]] | None = None) -> list[ArbenchRow]:
    """Normal rows + one row per injection, sorted by id. The normal rows: ``normals``
    (judgment id → the error type and level it was drawn for), by default matched to the
    injections over ``judgments``
    (:func:`~buildds.inject_errors.normal_matching.match_judgments`; the build also leaves
    out the injected rows the corpus has no match for:
    :mod:`buildds.jobs.judgments_matched_normals`)."""
    from buildds.inject_errors.normal_matching import match_judgments

    done, pool = list(injected), list(judgments)
    if normals is None:
        normals = match_judgments(pool, done, share=normal_share, seed=seed,
                                  profile=profile)[0].chosen
    rows = [normal_row(j, texts, profile, seed=seed, matched=normals[j.id])
            for j in pool if j.id in normals]
    rows += [injected_row(r, texts, profile) for r in done]
    return sorted(rows, key=lambda r: r.id)


def task_rows(rows: Sequence[ArbenchRow]) -> dict[str, list[ArbenchRow]]:
    """Rows per task: detection all, classification and correction the anomalous ones."""
    anomalous = [r for r in rows if r.label == 1]
    return {"detection": list(rows), "classification": anomalous, "correction": list(anomalous)}
