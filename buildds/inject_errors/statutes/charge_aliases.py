"""Charge-name aliases: the charge a judgment's name means, :func:`resolve_charge`.

Bracketed alternatives of the table's names (``[走私、贩卖、运输、制造]毒品`` → 贩卖毒品), optional
characters, a written or omitted 罪 and 、, and names replaced by amendments
(:data:`CN_CHARGE_RENAMES`) all resolve to the profile's charge; an ambiguous name stays
unresolved (:class:`ChargeAliasIndex`, built once per profile by :func:`charge_index`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from buildds.schema.statutes import ChargeProfile, StatuteProfile

__all__ = [
    "CN_CHARGE_RENAMES",
    "ChargeAliasIndex",
    "charge_index",
    "charge_key",
    "expand_charge_name",
    "resolve_charge",
]


# Charge names in judgments differ from the table names in predictable ways: the table writes
# alternatives as bracketed groups (``[走私、贩卖、运输、制造]毒品``) and a judgment names the
# alternatives it convicts of (贩卖毒品, 贩卖、运输毒品); 罪 may or may not be written; optional
# characters are parenthesised (偷越国（边）境 / 偷越国境); some judgments drop the 、
# (销售有毒有害食品); older judgments use names later amendments replaced.
#
# Names replaced by amendments (old → current), each as stated in the SPC/SPP 确定罪名的补充规定
# (charge_names_suppl*.md: "新罪名（取消旧罪名罪名）"); only used when the current name is in the
# profile, and the old name's alternatives map to the current charge.
CN_CHARGE_RENAMES: dict[str, str] = {
    # 《刑法修正案（三）》, 补充规定（一）2002
    "投毒": "投放危险物质",
    "过失投毒": "过失投放危险物质",
    # 《刑法修正案（六）》, 补充规定（三）2007
    "公司、企业人员受贿": "非国家工作人员受贿",
    "对公司、企业人员行贿": "对非国家工作人员行贿",
    "窝藏、转移、收购、销售赃物": "掩饰、隐瞒犯罪所得、犯罪所得收益",
    # 《刑法修正案（七）》, 补充规定（四）2009
    "偷税": "逃税",
    # 《刑法修正案（八）》, 补充规定（五）2011
    "生产、销售不符合卫生标准的食品": "生产、销售不符合安全标准的食品",
    # 《刑法修正案（九）》, 补充规定（六）2015
    "伪造、变造居民身份证": "伪造、变造、买卖身份证件",
    "强制猥亵、侮辱妇女": "强制猥亵、侮辱",
    # 《刑法修正案（十一）》, 补充规定（七）2021
    "强令违章冒险作业": "强令、组织他人违章冒险作业",
    "生产、销售假药": "生产、销售、提供假药",
    "生产、销售劣药": "生产、销售、提供劣药",
}

_GROUP_RE = re.compile(r"\[([^\[\]]+)\]")
_OPTIONAL_RE = re.compile(r"（[^（）]{1,2}）")
_MAX_EXPANSIONS = 5000


def charge_key(name: str) -> str:
    """The lookup key of a charge name: trimmed, without 罪, full-width parentheses, and
    without 1–2-character parenthesised optional parts (国（边）境 → 国境)."""
    key = re.sub(r"\s+", "", name).replace("(", "（").replace(")", "）").removesuffix("罪")
    return _OPTIONAL_RE.sub("", key)


def _subsets(items: list[str]) -> list[str]:
    """The non-empty order-preserving selections of ``items``, 、-joined."""
    out = []
    for mask in range(1, 1 << len(items)):
        out.append("、".join(it for i, it in enumerate(items) if mask >> i & 1))
    return out


def _segments(name: str) -> list[list[str]] | None:
    """``name`` as literal / alternative-group segments: from the brackets when it has them;
    else, for a plain 、-list where exactly one item is longer than the others (all of the
    two characters), that item's head/tail extends the groups before/after it
    (伪造、变造居民身份证 → [伪造、变造]居民身份证). None when no grouping is evident."""
    if "[" in name:
        segs: list[list[str]] = []
        pos = 0
        for m in _GROUP_RE.finditer(name):
            if m.start() > pos:
                segs.append([name[pos:m.start()]])
            segs.append([s for s in m.group(1).split("、") if s])
            pos = m.end()
        if pos < len(name):
            segs.append([name[pos:]])
        return segs
    items = name.split("、")
    if len(items) < 2 or any(not it for it in items):
        return None
    lengths = sorted({len(it) for it in items})
    if len(lengths) != 2 or lengths[0] != 2 or sum(len(it) == lengths[1] for it in items) != 1:
        return None  # only two-character alternatives (verbs/objects) split off safely
    short = lengths[0]
    i = next(k for k, it in enumerate(items) if len(it) == lengths[1])
    long_item = items[i]
    head = long_item[:short] if i > 0 else ""
    tail = long_item[-short:] if i < len(items) - 1 else ""
    core = long_item[len(head):len(long_item) - len(tail)]
    if not core:
        return None
    segs = []
    if head:
        segs.append(items[:i] + [head])
    segs.append([core])
    if tail:
        segs.append([tail] + items[i + 1:])
    return segs


def expand_charge_name(name: str) -> list[str]:
    """Every name a judgment may use for ``name``: itself (brackets removed) and each
    selection of its alternatives (``[走私、贩卖、运输、制造]毒品`` → 贩卖毒品, 贩卖、运输毒品…)."""
    plain = name.replace("[", "").replace("]", "")
    segs = _segments(name)
    out = [plain]
    if segs is None:
        return out
    choices = [seg if len(seg) == 1 else _subsets(seg) for seg in segs]
    total = 1
    for c in choices:
        total *= len(c)
    if total > _MAX_EXPANSIONS:
        return out
    combos = [""]
    for c in choices:
        combos = [a + b for a in combos for b in c]
    return list(dict.fromkeys(out + combos))


def _compatible(targets: list[ChargeProfile]) -> ChargeProfile | None:
    """One profile for targets naming the same provision (article, 之N, and no two different
    款), preferring the one that states its 款; None when they name different provisions."""
    if len({(t.article, t.article_sub) for t in targets}) > 1:
        return None
    if len({t.paragraph for t in targets if t.paragraph is not None}) > 1:
        return None
    return next((t for t in targets if t.paragraph is not None), targets[0])


class ChargeAliasIndex:
    """Charge-name aliases of a profile, derived from its charge names (see
    :func:`expand_charge_name`, :func:`charge_key`) and :data:`CN_CHARGE_RENAMES`.

    Levels, tried in order: the exact name; the alternatives of the profile's names; the old
    names (and their alternatives) of renamed charges; the same with 、 ignored. A level whose
    candidates name different provisions leaves the name unresolved (never a guess)."""

    def __init__(self, charges: Iterable[ChargeProfile], renames: dict[str, str] | None = None) -> None:
        charges = list(charges)
        levels: list[dict[str, list[ChargeProfile]]] = [{}, {}, {}]
        plain_bracketed = {c.charge.replace("[", "").replace("]", "") for c in charges if "[" in c.charge}
        for c in charges:
            levels[0].setdefault(charge_key(c.charge.replace("[", "").replace("]", "")), []).append(c)
        for c in charges:
            if "[" not in c.charge and c.charge in plain_bracketed:
                continue  # the bracketed spelling of the same name gives the grouping
            for alias in expand_charge_name(c.charge):
                levels[1].setdefault(charge_key(alias), []).append(c)
        exact = {k: v for k, v in levels[0].items()}
        for old, new in (renames or {}).items():
            target = exact.get(charge_key(new))
            if not target:
                continue
            for alias in expand_charge_name(old):
                levels[2].setdefault(charge_key(alias), []).extend(target)
        merged: dict[str, list[ChargeProfile]] = {}
        for level in levels:
            for key, targets in level.items():
                merged.setdefault(key.replace("、", ""), []).extend(targets)
        self._levels = [*levels, merged]

    def resolve(self, name: str) -> ChargeProfile | None:
        key = charge_key(name)
        for i, level in enumerate(self._levels):
            targets = level.get(key.replace("、", "") if i == len(self._levels) - 1 else key)
            if targets:
                return _compatible(list({id(t): t for t in targets}.values()))
        return None


_INDEXES: dict[int, tuple[object, ChargeAliasIndex]] = {}


def charge_index(profile: StatuteProfile) -> ChargeAliasIndex:
    """The alias index of ``profile`` (built once per profile object)."""
    hit = _INDEXES.get(id(profile))
    if hit is not None and hit[0] is profile:
        return hit[1]
    index = ChargeAliasIndex(profile.charges, CN_CHARGE_RENAMES if profile.jurisdiction == "cn" else None)
    _INDEXES[id(profile)] = (profile, index)
    return index


def resolve_charge(profile: StatuteProfile, name: str) -> ChargeProfile:
    """``profile.charge(name)``, else the charge ``name`` is an unambiguous alias of; KeyError
    when neither."""
    try:
        return profile.charge(name)
    except KeyError:
        found = charge_index(profile).resolve(name)
        if found is None:
            raise
        return found
