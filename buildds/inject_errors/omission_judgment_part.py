"""The judgment-part edits of E2 (omission of charges), as (start, end, new) ops on
``Judgment.full_text``:

- :func:`judgment_ops` — the omitted charges' clauses and the combined sentence go; the
  combined sentence's probation moves to the kept clause; its fine notes too when the kept
  charge has a fine; else the note's 罚金 sentence goes;
- :func:`item_ops` — an item (``二、本案所涉枪支…予以没收``) about only the omitted offence's
  objects goes, the later items are renumbered, a lone remaining ``一、`` is dropped.
"""

from __future__ import annotations

import re

from buildds.inject_errors.base import SkipInjection
from buildds.inject_errors.combined_sentence import Block
from buildds.text import int_to_cn, to_int_number

__all__ = ["item_ops", "judgment_ops", "objects_of"]

Op = tuple[int, int, str]

_ITEM_RE = re.compile(r"(?:(?<=[\s。；;：:])|^)(?P<n>[一二三四五六七八九十]+)、")
#: objects an offence is about, by a word of the charge name (an item confiscating them is
#: about that offence)
_OBJECTS: dict[str, tuple[str, ...]] = {
    "枪": ("枪支", "枪", "弹药", "子弹"),
    "弹药": ("枪支", "枪", "弹药", "子弹"),
    "毒": ("毒品", "海洛因", "甲基苯丙胺", "冰毒", "氯胺酮", "吸毒", "麻古", "大麻"),
    "赌": ("赌资", "赌具", "赌博", "赌场"),
    "淫秽": ("淫秽",),
    "假币": ("假币",),
    "发票": ("发票",),
    "爆炸": ("爆炸物", "炸药", "雷管"),
    "身份证": ("身份证",),
    "证件": ("证件", "印章"),
}
#: an item that disposes of objects (and passes no sentence)
_DISPOSAL_RE = re.compile(r"没收|收缴|追缴|销毁|上缴|依法处理")
_SENTENCE_RE = re.compile(r"犯[^，。；]{1,40}罪|判处|执行")
_GENERIC_RE = re.compile(r"违法所得|退赔|赃|责令|赔偿|发还|作案工具|犯罪工具")


def objects_of(charge: str) -> set[str]:
    """The object words of a charge (非法持有枪支 → 枪支, 枪, 弹药 …)."""
    return {w for key, words in _OBJECTS.items() if key in charge for w in words}


def judgment_ops(text: str, block: Block, k: int, end: int) -> list[Op]:
    """Ops dropping every clause but ``block.clauses[k]`` and the combined sentence."""
    clauses = block.clauses
    kept = clauses[k]
    later = [c.has_prefix for c in clauses[1:]]
    if any(later) and not all(later):
        raise SkipInjection("mixed_prefixes", "some clauses repeat the defendant, some do not")
    ops: list[Op] = []
    for i, c in enumerate(clauses):
        if i < k:
            nxt = clauses[i + 1]
            ops.append((c.prefix_start if nxt.has_prefix else c.start,
                        nxt.prefix_start if nxt.has_prefix else nxt.start, ""))
        elif i > k:
            ops.append((clauses[i - 1].end, c.end, ""))
    combined = block.combined
    ops.append((block.combined_start, combined.end, ""))
    at = kept.penalty.main[1]
    if combined.probation is not None:
        ops.append((at, at, text[slice(*combined.probation)]))
    if kept.penalty.fine is not None:
        if combined.fine_notes and not kept.penalty.fine_notes:
            at = kept.penalty.fine[1]
            ops.append((at, at, "".join(text[s:e] for s, e in combined.fine_notes)))
    elif combined.fine is not None:
        ops += _fine_sentence_ops(text, combined.end, end)
    return ops


def _fine_sentence_ops(text: str, start: int, limit: int) -> list[Op]:
    """Drop the sentences about the 罚金 in the notes after ``start`` (up to the end of the
    item: the next ``。 二、`` or ``limit``, the end of the judgment part); a sentence runs
    between 。；，（ and 。；）."""
    item = _ITEM_RE.search(text, start, limit)
    end = item.start() if item else limit
    ops: list[Op] = []
    pos = start
    while (at := text.find("罚金", pos, end)) >= 0:
        s = max(text.rfind(c, start, at) for c in "。；;，,（(") + 1
        stops = [i for i in (text.find(c, at, end) for c in "。；;）)") if i >= 0]
        e = min(stops) if stops else end
        before, after = text[s - 1], text[e:e + 1]
        if s <= start:
            raise SkipInjection("fine_note_not_isolable", f"cannot drop {text[at:e]!r}")
        if before in "（(" and after in ")）":
            ops.append((s - 1, e + 1, ""))
        elif before in "；;，,":
            ops.append((s - 1, e, ""))
        else:
            ops.append((s, e + 1 if after in "。；;" else e, ""))
        pos = max(e, at + 2)
    return ops


def item_ops(text: str, start: int, end: int, block: Block, kept: str,
             omitted: list[str]) -> list[Op]:  # long: find, drop, renumber
    """Ops removing the items about only the omitted offences' objects, renumbering the rest."""
    labels = list(_ITEM_RE.finditer(text, start, end))
    if [to_int_number(m["n"]) for m in labels] != list(range(1, len(labels) + 1)):
        return []  # no numbered items (or numbers inside the text): nothing to renumber
    bounds = [(m.start(), labels[i + 1].start() if i + 1 < len(labels) else end)
              for i, m in enumerate(labels)]
    om_words = set().union(*(objects_of(n) for n in omitted)) - objects_of(kept)
    drop = []
    for (s, e), label in zip(bounds, labels):
        body = text[label.end():e]
        if s <= block.clauses[0].start < e or not any(w in body for w in om_words) \
                or not _DISPOSAL_RE.search(body) or _SENTENCE_RE.search(body):
            drop.append(False)
            continue
        if any(w in body for w in objects_of(kept)) or _GENERIC_RE.search(body):
            raise SkipInjection("item_mixed", f"item {label['n']} is about the omitted offence and more")
        drop.append(True)
    if not any(drop):
        return []
    ops: list[Op] = []
    for i, ((s, e), flag) in enumerate(zip(bounds, drop)):
        if not flag:
            continue
        if i == 0:
            raise SkipInjection("item_mixed", "the first item is about the omitted offence")
        prev_end = len(text[:bounds[i - 1][1]].rstrip())
        ops.append((prev_end, len(text[:e].rstrip()), ""))
    last = max(i for i, d in enumerate(drop) if not d)
    last_end = len(text[:bounds[last][1]].rstrip())
    if last < len(drop) - 1 and text[last_end - 1] in "；;":
        ops.append((last_end - 1, last_end, "。"))  # the new last item ends the judgment
    kept_labels = [m for m, d in zip(labels, drop) if not d]
    if len(kept_labels) == 1:
        m = kept_labels[0]
        ops.append((m.start(), m.end(), ""))
    else:
        for n, m in enumerate(kept_labels, 1):
            if to_int_number(m["n"]) != n:
                ops.append((m.start("n"), m.end("n"), int_to_cn(n)))
    return ops
