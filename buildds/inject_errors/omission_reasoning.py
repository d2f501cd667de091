"""The reasoning edits of E2 (omission of charges): what the reasoning says about the omitted
charges goes, the rest stays.

- :func:`reasoning_deletions` — sentences and ；-segments only about an omitted charge
  (``其行为已构成Y罪``, ``在实施Y犯罪过程中…``), list mentions (``X罪、Y罪`` → ``X罪``, and the
  ``分别`` that went with the list), and the clauses about combining sentences (``一人犯数罪``,
  ``应数罪并罚``, ``总和刑期…``);
- :func:`citation_deletions` — cited 刑法 articles removed from the ``依照…第X条…之规定``
  list (their paragraph continuations ``、第三款`` too), the list kept grammatical (、 and
  和/及/以及 joins), and judicial interpretations named after an omitted charge.

Both return deletion ranges on ``Judgment.full_text``; the injector checks the result.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from buildds.extract.judgments.citations import parse_articles
from buildds.schema.judgments import ArticleRef

__all__ = ["ArticleTarget", "citation_deletions", "mentions", "reasoning_deletions",
           "runs_to_ranges"]

#: (article number, paragraph or None for the whole article, 之N or None)
ArticleTarget = tuple[int, "int | None", "int | None"]

_SENTENCE_END = "。！？"
_UNIT_SEP = "，；,;："
_MARKER_RE = re.compile(r"并罚|一人犯[数二两三四五]罪|[数二两三四五]罪|[数二两三四五]个?犯罪行为|总和刑期|数刑中最高|决定执行的刑罚|附加刑仍须执行")
#: the citation sentence (依照…之规定，判决如下) is edited by :func:`citation_deletions` only
_PROTECTED_RE = re.compile(r"依照|依据")
_CONNECTIVE_RE = re.compile(r"\s*(?:据此|综上所述|综上|因此|故此|为此)[，,：:]?")
_COURT_RE = re.compile(r"\s*本院认为")
_CONT_RE = re.compile(r"\s*[、，,]\s*(?:第?[一二三四五六七八九十0-9]+款|第?[（(][一二三四五六七八九十0-9]+[)）]项)"
                      r"(?:第?[（(]?[一二三四五六七八九十0-9]+[)）]?项)?")
_JOIN_RE = re.compile(r"\s*(?:[、，,和及]|以及)\s*")
_INTERP_ITEMS = r"(?:\s*[、，,]?\s*第[一二三四五六七八九十百零〇0-9（）()]+[条款项](?:之[一二三四五六])?)*"


def mentions(text: str, name: str, others: Iterable[str] = ()) -> list[tuple[int, int]]:
    """Where ``name`` occurs in ``text``, leaving out occurrences inside a longer name of
    ``others`` (受贿 inside 非国家工作人员受贿)."""
    covers = [(m.start(), m.end()) for o in others if name in o and o != name
              for m in re.finditer(re.escape(o), text)]
    return [(m.start(), m.end()) for m in re.finditer(re.escape(name), text)
            if not any(s <= m.start() and m.end() <= e for s, e in covers)]


def runs_to_ranges(units: Sequence[tuple[int, int]], drop: Sequence[bool], whole_end: int
                   ) -> list[tuple[int, int]]:
    """Deletion ranges dropping the flagged ``units`` of a run (units separated by one
    separator each): a run after a kept unit goes with the separator before it, a leading
    run with the separator after it, all units up to ``whole_end``."""
    if all(drop):
        return [(units[0][0], whole_end)]
    out: list[tuple[int, int]] = []
    i = 0
    while i < len(units):
        if not drop[i]:
            i += 1
            continue
        j = i
        while j + 1 < len(units) and drop[j + 1]:
            j += 1
        if i > 0:
            out.append((units[i - 1][1], units[j][1]))
        else:
            out.append((units[0][0], units[j + 1][0]))
        i = j + 1
    return out


def _split(text: str, start: int, end: int, seps: str) -> list[tuple[int, int]]:
    units, pos = [], start
    for i in range(start, end):
        if text[i] in seps:
            units.append((pos, i))
            pos = i + 1
    units.append((pos, end))
    return units


def _has(text: str, span: tuple[int, int], names: Sequence[str], all_names: Sequence[str],
         handled: Sequence[tuple[int, int]] = ()) -> bool:
    s, e = span
    piece = text[s:e]
    for name in names:
        for a, b in mentions(piece, name, all_names):
            if not any(hs <= s + a and s + b <= he for hs, he in handled):
                return True
    return False


def _list_deletions(text: str, start: int, end: int, omitted: Sequence[str],
                    all_names: Sequence[str]) -> list[tuple[int, int]]:
    """Lists of charge names (``A罪、B罪和C罪``, ``A、B``) lose their omitted items, the joins
    kept grammatical (a leading run goes with the join after it, any other run with the join
    before it: ``A罪、B罪和C罪`` − A, B → ``C罪``; − B → ``A罪和C罪``)."""
    names = "|".join(re.escape(n) for n in sorted(all_names, key=len, reverse=True))
    item = rf"(?:{names})罪?"
    out: list[tuple[int, int]] = []
    for run in re.finditer(rf"{item}(?:(?:[、和及与]|以及){item})+", text[start:end]):
        items = [(start + run.start() + m.start(), start + run.start() + m.end())
                 for m in re.finditer(item, run.group())]
        drop = [text[s:e].removesuffix("罪") in omitted for s, e in items]
        if any(drop) and not all(drop):
            out += runs_to_ranges(items, drop, items[-1][1])
    return out


def reasoning_deletions(text: str, start: int, end: int, *, kept: str, omitted: Sequence[str],
                        defendant: str | None) -> list[tuple[int, int]]:  # long: one pass per sentence
    """Deletion ranges on ``text[start:end]`` (the reasoning) that remove what is only about
    the ``omitted`` charges and the 数罪并罚 talk (module docstring)."""
    all_names = [kept, *omitted]
    lists = _list_deletions(text, start, end, omitted, all_names)
    out = list(lists)
    subject = re.compile(rf"\s*(?:(?:被告人|上诉人|原审被告人)(?:（原审被告人）)?{re.escape(defendant)}"
                         rf"|{re.escape(defendant)})") if defendant else None
    for s_start, s_end in _split(text, start, end, _SENTENCE_END):
        full_end = s_end + 1 if s_end < end else s_end
        if s_start >= s_end or _PROTECTED_RE.search(text, s_start, s_end) or s_end == end:
            continue
        units = [u for u in _split(text, s_start, s_end, _UNIT_SEP)]
        drop = [False] * len(units)
        for seg in _split(text, s_start, s_end, "；;"):
            if _has(text, seg, omitted, all_names, lists) and not _has(text, seg, [kept], all_names):
                for i, u in enumerate(units):
                    if seg[0] <= u[0] and u[1] <= seg[1]:
                        drop[i] = True
        for i, u in enumerate(units):
            only_omitted = (_has(text, u, omitted, all_names, lists)
                            and not _has(text, u, [kept], all_names))
            if only_omitted or _MARKER_RE.search(text, u[0], u[1]):
                drop[i] = True
            if drop[i] and any(re.search(rf"构成了?{re.escape(n)}罪", text[u[0]:u[1]]) for n in omitted):
                j = i - 1  # …，又持凶器伤害他人，致一人轻伤，其行为又构成Y罪: the units before go too
                while j >= 0 and not drop[j] and "构成" not in text[units[j][0]:units[j][1]] \
                        and not _COURT_RE.match(text, *units[j]) and not _has(text, units[j], [kept], all_names):
                    drop[j] = True
                    j -= 1
            if _COURT_RE.match(text, u[0], u[1]) and text[u[1]:u[1] + 1] in "，,：:":
                drop[i] = False  # 本院认为， stays
        if not any(drop):
            out += [(u[0] + m.start(), u[0] + m.end()) for u in units
                    if any(u[0] <= a < u[1] for a, _ in lists)
                    for m in re.finditer("分别", text[u[0]:u[1]])]
            continue
        if units and _COURT_RE.match(text, *units[0]) and all(drop[1:]) and len(units) > 1:
            conn = _CONNECTIVE_RE.match(text, full_end, end)
            out.append((units[1][0], conn.end() if conn else full_end))  # 本院认为，<next sentence>
            continue
        if all(drop):
            out.append((s_start, full_end))
            continue
        for a, b in runs_to_ranges(units, drop, full_end):
            first = next(u for u in units if u[0] >= a)
            nxt = next((u for u in units if u[0] >= b), None)
            if (subject is not None and nxt is not None and (m := subject.match(text, *first))
                    and not subject.match(text, *nxt)):
                a, b = m.end(), nxt[0]  # keep 被告人X: 被告人X[…；]<next unit>
            out.append((a, b))
        for u, d in zip(units, drop):
            if not d and text.startswith("均", u[0]):
                out.append((u[0], u[0] + 1))  # 均应予处罚 with one charge left
            if not d and any(u[0] <= a < u[1] for a, _ in lists):
                out += [(u[0] + m.start(), u[0] + m.end()) for m in re.finditer("分别", text[u[0]:u[1]])]
    return out


def _extended_end(text: str, ref: ArticleRef) -> int:
    pos = ref.span.end
    while m := _CONT_RE.match(text, pos):
        pos = m.end()
    return pos


def _paragraphs(text: str, ref: ArticleRef, end: int) -> set[int]:
    from buildds.text import cn_number

    found = set()
    for m in re.finditer(r"第?([一二三四五六七八九十0-9]+)款", text[ref.span.start:end]):
        n = cn_number(m.group(1))
        if n is not None:
            found.add(int(n))
    return found


def _sub(text: str, ref: ArticleRef) -> int | None:
    m = re.search(r"条之([一二三四五六])", ref.span.text)
    return "一二三四五六".index(m.group(1)) + 1 if m else None


def citation_deletions(text: str, start: int, end: int, targets: Iterable[ArticleTarget],
                       interpretation_names: Sequence[str] = (), keep_names: Sequence[str] = ()
                       ) -> tuple[list[tuple[int, int]], list[int]]:
    """Deletion ranges removing the ``targets`` from the 刑法 citation lists of
    ``text[start:end]``, and the article numbers removed. A target with a paragraph removes
    the whole item only when the item cites no other paragraph; an item citing several
    paragraphs including the target is left alone (the caller checks what remains).
    Judicial interpretations (``《…盗窃刑事案件…解释》第一条…``) whose title names one of
    ``interpretation_names`` and none of ``keep_names`` go with their items."""
    refs = parse_articles(text[start:end], start)
    ends = [_extended_end(text, r) for r in refs]
    wanted = list(targets)
    drop = []
    for r, e in zip(refs, ends):
        paras = _paragraphs(text, r, e)
        hit = any(r.number == n and (sub is None or _sub(text, r) == sub)
                  and (para is None or not paras or paras == {para})
                  for n, para, sub in wanted)
        drop.append(hit)
    out: list[tuple[int, int]] = []
    removed: list[int] = []
    i = 0
    while i < len(refs):  # lists: refs joined by 、，和及以及
        j = i
        while j + 1 < len(refs) and _JOIN_RE.fullmatch(text, ends[j], refs[j + 1].span.start):
            j += 1
        units = [(refs[k].span.start, ends[k]) for k in range(i, j + 1)]
        flags = drop[i:j + 1]
        if any(flags) and not all(flags):
            out += runs_to_ranges(units, flags, units[-1][1])
            removed += [refs[k].number for k in range(i, j + 1) if drop[k]]
        i = j + 1
    for m in re.finditer(rf"(?:[、，,和及]|以及)?《(?P<title>[^《》]{{4,80}})》{_INTERP_ITEMS}",
                         text[start:end]):
        title = m["title"]
        if "刑法" not in title and any(n in title for n in interpretation_names) \
                and not any(n in title for n in keep_names):
            s = start + m.start()
            out.append((s, start + m.end()))
    return out, removed
