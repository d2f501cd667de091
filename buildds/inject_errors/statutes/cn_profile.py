"""The PRC 刑法 statute profile: :func:`build_cn_profile`.

:func:`parse_cn_criminal_law` turns the law text into charge profiles, named from the charge
table (:mod:`~buildds.inject_errors.statutes.charge_tables`) or, without one, one per 分则 article
(``第X条``); :func:`build_cn_profile` adds the interpretations' amount thresholds, the confusable
charges and the coverage counts.
"""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

from buildds.inject_errors.statutes.charge_tables import (
    load_charge_articles,
    load_confusable,
    symmetric_confusable,
)
from buildds.inject_errors.statutes.cn_charge_tiers import charge_tiers
from buildds.inject_errors.statutes.cn_law_text import split_cn_articles
from buildds.inject_errors.statutes.cn_penalty_clauses import PUNISH_RE
from buildds.inject_errors.statutes.cn_penalty_references import (
    article_tiers,
    punishing_provisions,
)
from buildds.inject_errors.statutes.cn_thresholds import (
    in_force_date,
    parse_cn_fine_rules,
    parse_cn_thresholds,
    with_fine_rule,
    with_thresholds,
)
from buildds.safeio.files import read_side_file
from buildds.schema.statutes import ChargeProfile, FineRule, SentencingTier, StatuteProfile

__all__ = ["build_cn_profile", "parse_cn_criminal_law"]


def _charge_fine(tiers: list[SentencingTier]) -> FineRule:
    """One rule for the charge: the strictest kind any tier has; a fixed range spans all tiers'."""
    order = ["none", "optional", "mandatory_unspecified", "fixed_range", "proportional"]
    fines = [t.fine for t in tiers]
    if not fines:
        return FineRule()
    kind = max((f.kind for f in fines), key=order.index)
    chosen = [f for f in fines if f.kind == kind]
    if kind == "fixed_range":
        return FineRule(kind=kind, min_yuan=min(f.min_yuan for f in chosen if f.min_yuan is not None),
                        max_yuan=max(f.max_yuan for f in chosen if f.max_yuan is not None),
                        text="；".join(dict.fromkeys(f.text for f in chosen)))
    return chosen[0]


def parse_cn_criminal_law(
    text: str, *, effective_date: date | None = None,
    charges: dict[str, list[tuple[int, int | None, int | None]]] | None = None,
) -> list[ChargeProfile]:
    """Charge profiles from the 刑法 text. ``charges`` maps a charge to its (article, 之N, 款)
    references (see :func:`load_charge_articles`); without it each 分则 article with a tier
    becomes one profile named ``第X条``. ``effective_date`` is recorded by the caller's profile."""
    articles = split_cn_articles(text)
    out: list[ChargeProfile] = []
    if charges is None:
        for (num, sub), paras in sorted(articles.items(), key=lambda kv: (kv[0][0], kv[0][1] or 0)):
            tiers = article_tiers(paras)
            if num >= 102 and tiers:
                label = f"第{num}条" + (f"之{sub}" if sub else "")
                out.append(ChargeProfile(charge=label, article=num, article_sub=sub, tiers=tuple(tiers),
                                         fine=_charge_fine(tiers), text="\n".join(paras)))
        return out
    punishing = punishing_provisions(articles)
    for charge, refs in charges.items():
        tiers, texts, (num, sub, para) = charge_tiers(articles, charge, refs, punishing)
        if not tiers:
            continue
        out.append(ChargeProfile(charge=charge, article=num, article_sub=sub, paragraph=para,
                                 tiers=tuple(tiers), fine=_charge_fine(tiers), text="\n".join(texts)))
    return out


def build_cn_profile(
    law_dir: Path, confusable_path: Path, *, effective_date: date = date(2024, 3, 1),
    version: str = "amendment-12", text: str | None = None,
) -> StatuteProfile:
    """The PRC 刑法 profile (Amendment XII, in force 2024-03-01) from ``law_dir`` (the law text
    and ``interp_*.md``: amount thresholds, and fine rules of the interpretations in force at
    ``effective_date``) and the LegalAttack table ``confusable_path`` (sheet 1 CSV; JUREX's
    ``jurex_crime2article.json`` beside it is used when present; confusable pairs made mutual by
    :func:`~buildds.inject_errors.statutes.charge_tables.symmetric_confusable`). ``text``: the law text of
    another version (as :func:`~buildds.inject_errors.statutes.cn_versions.store_law_text`
    renders it), read instead of the file in ``law_dir``, which then gives only the
    interpretations."""
    law_dir = Path(law_dir)
    if text is None:
        text = read_side_file(law_dir / "criminal_law_PRC_2023_amendment12.md")
    mapping = load_charge_articles(Path(confusable_path), Path(confusable_path).parent / "jurex_crime2article.json")
    charges = parse_cn_criminal_law(text, effective_date=effective_date, charges=mapping)
    thresholds: dict[int, dict[str, tuple[int, int]]] = {}
    fine_rules: dict[str, FineRule] = {}
    for interp in sorted(law_dir.glob("interp_*.md")):
        interp_text = read_side_file(interp)
        thresholds.update(parse_cn_thresholds(interp_text))
        in_force = in_force_date(interp_text)
        if in_force is None or in_force <= effective_date:  # a version before it has no such rule
            fine_rules.update(parse_cn_fine_rules(interp_text))
    thresholded = [with_fine_rule(with_thresholds(c, thresholds.get(c.article)) if c.article_sub is None else c,
                                  fine_rules.get(c.charge)) for c in charges]
    articles = split_cn_articles(text)
    penal = {k for k, paras in articles.items() if k[0] >= 102 and any(PUNISH_RE.search(p) for p in paras)
             and any(_punish_has_penalty(p) for p in paras)}
    tiered = {k for k in penal if article_tiers(articles[k])}
    mapped_articles = {(c.article, c.article_sub) for c in charges}
    return StatuteProfile(
        id="cn-criminal-law", jurisdiction="cn", law="中华人民共和国刑法", version=version,
        effective_date=effective_date, charges=tuple(thresholded),
        confusable=symmetric_confusable(load_confusable(Path(confusable_path))),
        coverage={
            "articles_with_penalty": len(penal), "articles_with_tiers": len(tiered),
            "article_coverage": round(len(tiered) / len(penal), 4) if penal else 0.0,
            "charges_in_table": len(mapping), "charges_mapped": len(charges),
            "articles_mapped": len(mapped_articles & tiered),
            "charges_with_thresholds": sum(1 for c in thresholded
                                           if any(t.condition.amount_min_yuan is not None for t in c.tiers)),
        },
    )


def _punish_has_penalty(paragraph: str) -> bool:
    return any(re.search(r"有期徒刑|拘役|管制|死刑", m.group("seg")) for m in PUNISH_RE.finditer(paragraph))
