"""The base amount a proportional fine is reckoned on, as the judgment states it.

A proportional fine is a multiple of the base the article names — 非法经营 (art. 225) of the
违法所得, 生产、销售伪劣产品 (art. 140) of the 销售金额, 逃税 of the 偷逃应缴税额 … — not of
whatever amount the facts mention most (a 经营额 is no 违法所得). :func:`base_amount` finds
the amount the text gives for the base the rule names (:attr:`FineRule.base
<buildds.schema.statutes.FineRule.base>`), looking in the reasoning, the judgment part (追缴
违法所得…) and the facts; None when the judgment does not state it (the injector then skips).
"""

from __future__ import annotations

import re

from buildds.extract.judgments.amounts import money_matches, money_value
from buildds.schema.judgments import Judgment

__all__ = ["BASE_WORDS", "base_amount"]

#: the words that introduce each base amount in a judgment (the rule's base name first)
BASE_WORDS: dict[str, tuple[str, ...]] = {
    "违法所得": ("违法所得", "非法获利", "非法所得", "获利", "非法牟利", "违法收入"),
    "销售金额": ("销售金额", "销售额", "销售收入", "销售价款", "销售货款", "货值金额", "销售总额"),
    "票证价额": ("票证价额", "票面价额", "票面金额", "票面价值", "票面额"),
    "偷逃应缴税额": ("偷逃应缴税额", "偷逃税款", "偷逃应缴税款", "逃避缴纳税款", "偷逃关税", "逃税款"),
    "非法募集资金金额": ("非法募集资金金额", "募集资金", "集资款", "非法集资"),
    "骗取税款": ("骗取税款", "骗取出口退税款", "骗取国家出口退税款", "骗取国家税款"),
    "拒缴税款": ("拒缴税款", "拒不缴纳税款", "拒缴的税款"),
    "欠缴税款": ("欠缴税款", "欠缴的税款"),
    "倒卖土地使用权价额": ("倒卖土地使用权价额", "转让价款", "土地使用权转让价"),
    "虚报注册资本金额": ("虚报注册资本金额", "虚报注册资本"),
    "出资金额或者抽逃出资金额": ("虚假出资", "抽逃出资", "出资金额"),
    "盗窃数额": ("盗窃数额", "盗窃金额", "价值", "窃得", "窃取", "盗得", "盗走", "盗窃"),
}
_GAP = 14  # characters between the base word and its amount, within one clause
#: an amount that is a statutory threshold (数额五万元以上), not the case's
_THRESHOLD_AFTER = re.compile(r"\s*(?:以上|以下|不满|至|到)")
_THRESHOLD_BEFORE = re.compile(r"(?:不满|不足|以上|以下|超过|至)\s*(?:人民币)?\s*$")


def _words(base: str) -> tuple[str, ...]:
    return BASE_WORDS.get(base, (base,))


def base_amount(judgment: Judgment, base: str | None) -> tuple[int, str] | None:
    """The largest amount the judgment states for ``base`` (a total beats its parts), and the
    text it was read from (``违法所得人民币二万元``); None when none is stated."""
    if not base:
        return None
    words = re.compile("|".join(re.escape(w) for w in _words(base)))
    found: list[tuple[int, str]] = []
    for part in (judgment.reasoning, judgment.judgment, judgment.facts):
        for m in money_matches(part):
            value = money_value(m["num"])
            if not value or _THRESHOLD_AFTER.match(part, m.end()) \
                    or _THRESHOLD_BEFORE.search(part, max(0, m.start() - 8), m.start()):
                continue
            before = re.split(r"[，。；;,：:]", part[max(0, m.start() - _GAP):m.start()])[-1]
            hit = None
            for hit in words.finditer(before):
                pass
            if hit is not None:
                found.append((value, before[hit.start():] + m.group()))
    return max(found, key=lambda t: t[0]) if found else None
