"""Amount thresholds (数额较大/巨大/特别巨大) and fine rules from PRC judicial interpretations.

:func:`parse_cn_thresholds` reads an interpretation's 价值…元至…元以上…的，应当分别认定为刑法第X条
规定的“数额较大”… sentence; :func:`with_thresholds` sets them on a charge's amount tiers. A
threshold the provided interpretations do not state stays None: nothing is invented.

:func:`parse_cn_fine_rules` reads a fine rule an interpretation gives a charge whose article
only says 并处罚金 (盗窃, 2013 interpretation art. 14: 应当在一千元以上盗窃数额的二倍以下判处
罚金) and :func:`with_fine_rule` sets it on the charge's tiers that state no amount.
"""

from __future__ import annotations

import re
from datetime import date

from buildds.schema.statutes import ChargeProfile, FineRule
from buildds.text import NUMERAL, cn_numeral

__all__ = ["in_force_date", "parse_cn_fine_rules", "parse_cn_thresholds", "with_fine_rule",
           "with_thresholds"]


_THRESHOLD_RE = re.compile(
    r"价值(?P<amounts>[^的]*?)的，应当分别认定为刑法第(?P<art>[零一二三四五六七八九十百千]+)条规定的"
    r"“数额较大”、“数额巨大”、“数额特别巨大”")


def parse_cn_thresholds(text: str) -> dict[int, dict[str, tuple[int, int]]]:
    """Article → {数额较大: (low, high), …} from an interpretation's sentence such as
    盗窃公私财物价值一千元至三千元以上、三万元至十万元以上、三十万元至五十万元以上的 …"""
    out: dict[int, dict[str, tuple[int, int]]] = {}
    for m in _THRESHOLD_RE.finditer(text):
        spans: dict[str, tuple[int, int]] = {}
        for kind, part in zip(("数额较大", "数额巨大", "数额特别巨大"), m.group("amounts").split("、")):
            if r := re.fullmatch(rf"({NUMERAL})元至({NUMERAL})元以上", part):
                spans[kind] = (cn_numeral(r.group(1)), cn_numeral(r.group(2)))
            elif r := re.fullmatch(rf"({NUMERAL})元以上", part):
                spans[kind] = (cn_numeral(r.group(1)), cn_numeral(r.group(1)))
        out[cn_numeral(m.group("art"))] = spans
    return out


def with_thresholds(charge: ChargeProfile, spans: dict[str, tuple[int, int]] | None) -> ChargeProfile:
    if not spans:
        return charge
    tiers = []
    for tier in charge.tiers:
        span = spans.get(tier.condition.kind)
        if span:
            cond = tier.condition.model_copy(update={"amount_min_yuan": span[0], "amount_max_yuan": span[1]})
            tier = tier.model_copy(update={"condition": cond})
        tiers.append(tier)
    return charge.model_copy(update={"tiers": tuple(tiers)})


_FINE_RULE_RE = re.compile(
    rf"因犯(?P<charge>[^，。；]{{1,20}}?)罪，依法判处罚金刑的，应当在(?P<min>{NUMERAL})元以上"
    rf"(?P<base>[^，。；]{{1,10}}?)的(?P<ratio>[一二三四五六七八九十]+)倍以下判处罚金")


def parse_cn_fine_rules(text: str) -> dict[str, FineRule]:
    """Charge → the proportional fine rule an interpretation gives it (a fixed minimum and a
    multiple of a base amount as the maximum: 一千元以上盗窃数额的二倍以下 → min 1000 yuan,
    max 2 × 盗窃数额)."""
    out = {}
    for m in _FINE_RULE_RE.finditer(text):
        out[m["charge"]] = FineRule(kind="proportional", min_yuan=cn_numeral(m["min"]),
                                    max_ratio=float(cn_numeral(m["ratio"])), base=m["base"],
                                    text=m.group(0))
    return out


def with_fine_rule(charge: ChargeProfile, rule: FineRule | None) -> ChargeProfile:
    """``charge`` with ``rule`` on every tier whose own rule states no amount (并处罚金)."""
    if rule is None:
        return charge
    tiers = tuple(t.model_copy(update={"fine": rule}) if t.fine.kind in ("mandatory_unspecified", "optional")
                  else t for t in charge.tiers)
    fine = rule if charge.fine.kind in ("mandatory_unspecified", "optional", "none") else charge.fine
    return charge.model_copy(update={"tiers": tiers, "fine": fine})


_IN_FORCE_RE = re.compile(r"(\d{4})年(\d{1,2})月(\d{1,2})日\s*(?:起)?施行")


def in_force_date(text: str) -> date | None:
    """The day an interpretation came into force (its ``2013年4月4日 施行`` line), if stated."""
    m = _IN_FORCE_RE.search(text)
    return date(int(m[1]), int(m[2]), int(m[3])) if m else None
