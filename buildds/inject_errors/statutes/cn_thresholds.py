"""Amount thresholds (数额较大/巨大/特别巨大) from PRC judicial interpretations.

:func:`parse_cn_thresholds` reads an interpretation's 价值…元至…元以上…的，应当分别认定为刑法第X条
规定的“数额较大”… sentence; :func:`with_thresholds` sets them on a charge's amount tiers. A
threshold the provided interpretations do not state stays None: nothing is invented.
"""

from __future__ import annotations

import re

from buildds.schema.statutes import ChargeProfile
from buildds.text import NUMERAL, cn_numeral

__all__ = ["parse_cn_thresholds", "with_thresholds"]


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
