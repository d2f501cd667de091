"""The tiers of one PRC charge from the provisions the charge table places it at.

:func:`charge_tiers` collects, per (article, 之N, 款) reference, the provision's tiers (own or by
reference); a cited 款 without a penalty falls back to the paragraph the charge name describes
(:func:`named_paragraph`, for 款 numbers amendments shifted), and a charge still without tiers
takes them from the paragraph that punishes it by name.
"""

from __future__ import annotations

import re

from buildds.inject_errors.statutes.cn_penalty_clauses import classify_condition
from buildds.inject_errors.statutes.cn_penalty_references import (
    Provision,
    provision_tiers,
)
from buildds.schema.statutes import SentencingTier

__all__ = ["charge_tiers", "named_paragraph"]


_NAME_MATCH_MIN = 0.8


def _lcs(a: str, b: str) -> int:
    """Length of the longest common subsequence of ``a`` and ``b``."""
    row = [0] * (len(b) + 1)
    for ch in a:
        prev = 0
        for j, other in enumerate(b, start=1):
            prev, row[j] = row[j], prev + 1 if ch == other else max(row[j], row[j - 1])
    return row[-1]


def named_paragraph(paragraphs: list[str], charge: str) -> int | None:
    """The 1-based paragraph of an article that describes ``charge`` best: the characters of the
    name (、 and brackets ignored) found in order in it, at least 80% of them, and strictly more
    than in any other paragraph; None otherwise. For 款 numbers that amendments shifted
    (the LegalAttack table's 协助组织卖淫 = 第三百五十八条第三款 is the fourth paragraph now)."""
    name = re.sub(r"[、\[\]（）]", "", charge)
    if not name:
        return None
    scores = [_lcs(name, p) for p in paragraphs]
    best = max(scores, default=0)
    if best < _NAME_MATCH_MIN * len(name) or scores.count(best) > 1:
        return None
    return scores.index(best) + 1


def charge_tiers(articles: dict[tuple[int, int | None], list[str]], charge: str,
                 refs: list[Provision], punishing: dict[str, Provision] | None = None,
                 ) -> tuple[list[SentencingTier], list[str], Provision]:
    """The tiers of ``charge`` placed at ``refs``, the provision texts they come from, and the
    charge's own provision (the first reference, its 款 corrected by the name when needed).

    Per reference: the provision's own clauses, else the provisions it refers to for its penalty
    (:func:`provision_tiers`), else — for a cited 款 that states no penalty — the paragraph of the
    same article the charge name describes (:func:`named_paragraph`). A charge still without
    tiers takes them from the paragraph that punishes it by name (:func:`punishing_provisions`:
    贪污 is defined in 第三百八十二条 and punished in 第三百八十三条)."""
    tiers: list[SentencingTier] = []
    texts: list[str] = []
    placed = list(refs)
    for k, (num, sub, para) in enumerate(refs):
        paras = articles.get((num, sub))
        if not paras:
            continue
        found = provision_tiers(articles, (num, sub, para))
        if not found and para is not None and (named := named_paragraph(paras, charge)) is not None:
            found, para = provision_tiers(articles, (num, sub, named)), named
            placed[k] = (num, sub, named)
        if tiers:  # a later article's opening clause is a graver tier of this charge, not its base
            found = [_not_base(t) for t in found]
        tiers.extend(found)
        texts.append(paras[para - 1] if para and para <= len(paras) else "\n".join(paras))
    if not tiers and punishing and (where := punishing.get(charge)) is not None:
        tiers = provision_tiers(articles, where)
        texts.append(articles[where[:2]][where[2] - 1] if where[2] else "")
    return tiers, texts, placed[0]


def _not_base(tier: SentencingTier) -> SentencingTier:
    if tier.condition.kind != "base":
        return tier
    kind = classify_condition(tier.condition.text, first=False)
    return tier.model_copy(update={"condition": tier.condition.model_copy(update={"kind": kind})})
