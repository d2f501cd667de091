"""The parts of a Japanese criminal judgment's text (courts.go.jp precedents) and what its
法令の適用 applies.

- :func:`split_jp_sections`: 主文 (up to 理由), and the headed sections of the 理由 —
  ``（罪となるべき事実）``, ``（法令の適用）``, ``（量刑の理由）`` … (a heading is a line
  starting with （…） or 【…】; the 求刑 note and the date line end the last one);
- :func:`parse_jp_citations`: the statutes a text cites — 刑法 Book II articles (the
  offences: 刑法２３５条, 刑法２５４条), 刑法 Book I articles (60 共同正犯, 45 併合罪, 66
  酌量減軽 …) and the other laws (公職選挙法２２１条１項１号 …); a bare ``２３条１項``
  after a law belongs to that law. Procedure (刑事訴訟法: costs) is not an applied law.
- :func:`jp_case_laws`: the special laws a case name names (``著作権法違反`` …), for a
  judgment without a 法令の適用 section.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from buildds.extract.judgments.spans import make_span
from buildds.schema.judgments import ArticleRef

__all__ = ["BOOK_II_FIRST", "JpCitations", "jp_case_laws", "parse_jp_citations",
           "split_jp_sections"]

#: 刑法 第二編 罪 starts at 第七十七条
BOOK_II_FIRST = 77
#: a heading: a whole line （…） or 【…】 (証拠の標目 may be followed by （省略）); an unknown
#: name longer than 14 characters is a parenthetical that starts a line, not a heading
_HEAD_RE = re.compile(r"^[ \t\u3000]*[（【(](?P<h>[^）】)\n]{2,30})[）】)]"
                      r"[ \t\u3000]*(?:[（(]省略[）)])?[ \t\u3000]*$", re.MULTILINE)
_MAIN_RE = re.compile(r"^[ \t\u3000]*主[ \t\u3000]*文[ \t\u3000]*$", re.MULTILINE)
_REASONS_RE = re.compile(r"^[ \t\u3000]*理[ \t\u3000]*由[ \t\u3000]*$", re.MULTILINE)
_DATE_RE = re.compile(r"^[ \t\u3000]*(?:令和|平成|昭和)[^\n]{1,12}年[^\n]{1,4}月[^\n]{1,4}日[ \t\u3000]*$",
                      re.MULTILINE)
#: section names by a word their heading holds
_NAMES = (("罪となるべき事実", "facts"), ("法令の適用", "law"), ("量刑の理由", "sentencing"),
          ("求刑", "demand"))
_PROCEDURE = ("刑事訴訟法",)
_LAW_RE = re.compile(r"(?P<law>[一-龥ぁ-んァ-ヶー・]{0,40}?(?:法律|法|条例|政令|規則))"
                     r"(?=第?[0-9]+条)")
_ART_RE = re.compile(r"第?(?P<n>[0-9]+)条(?:の(?P<sub>[0-9]+))?")
#: words before a law's name in 罰条 lines (いずれも包括して刑法…, 所為は刑法…)
_LEAD_RE = re.compile(r"して|いずれも|それぞれ|は|も")


def split_jp_sections(text: str) -> dict[str, tuple[int, int]]:
    """Name → (start, end) of the body of each part in ``text``: ``main`` (主文), ``facts``,
    ``law``, ``sentencing`` and ``demand`` (求刑), and ``other:<heading>`` for the rest; a
    part missing from the text is missing here. Bodies exclude their heading line."""
    out: dict[str, tuple[int, int]] = {}
    main, reasons = _MAIN_RE.search(text), _REASONS_RE.search(text)
    if main is not None:
        end = reasons.start() if reasons is not None and reasons.start() > main.end() else None
        out["main"] = (main.end(), end if end is not None else len(text))
    starts = [m for m in _HEAD_RE.finditer(text)
              if (reasons is None or m.start() > reasons.start())
              and (any(w in m["h"] for w, _ in _NAMES) or len(re.sub(r"\s", "", m["h"])) <= 14)]
    date = next((m for m in _DATE_RE.finditer(text)
                 if reasons is not None and m.start() > reasons.start()), None)
    stop = date.start() if date is not None else len(text)
    for i, m in enumerate(starts):
        if m.start() >= stop:
            break
        heading = re.sub(r"\s", "", m["h"])
        name = next((n for word, n in _NAMES if word in heading), f"other:{heading}")
        body_start = m.end() if name != "demand" else m.start()
        end = starts[i + 1].start() if i + 1 < len(starts) else stop
        out.setdefault(name, (body_start, min(end, stop)))
    return out


@dataclass
class JpCitations:
    """What a text cites: 刑法 Book II articles ((article, のN)), Book I article numbers,
    other laws (names, in order), and an :class:`ArticleRef` per 刑法 article cited."""

    penal: list[tuple[int, int | None]] = field(default_factory=list)
    general: list[int] = field(default_factory=list)
    other_laws: list[str] = field(default_factory=list)
    refs: list[ArticleRef] = field(default_factory=list)


_KANJI_RE = re.compile(r"[一-龥]")
_HALF = str.maketrans("０１２３４５６７８９", "0123456789")


def _citation_view(text: str) -> tuple[str, list[int]]:
    """``text`` with ASCII digits, a line break inside a number dropped (２５⏎４条) and every
    other line break or space turned into a separator no law name runs across (a heading
    line 併合罪の処理 then 刑法４５条 is not the law 理刑法); and the index in ``text`` of each
    character."""
    out: list[str] = []
    keep: list[int] = []
    prev_digit = broken = False
    for i, ch in enumerate(text):
        if ch in "\r\n":
            broken = True
            continue
        c = ch.translate(_HALF)
        if broken and not (prev_digit and c.isdigit()):
            out.append("\u0001")
            keep.append(i - 1)
        broken = False
        out.append("\u0001" if c in " \t\u3000" else c)
        keep.append(i)
        prev_digit = c.isdigit()
    return "".join(out), keep


def _law_name(raw: str) -> str:
    pieces = [p for p in _LEAD_RE.split(raw) if len(p) >= 2]
    return pieces[-1] if pieces else raw


def parse_jp_citations(text: str, offset: int = 0) -> JpCitations:
    """The statutes ``text`` cites (see the module docstring); spans shifted by ``offset``."""
    view, where = _citation_view(text)
    out = JpCitations()
    law: str | None = None
    laws = {m.end("law"): _law_name(m["law"]) for m in _LAW_RE.finditer(view)}
    for m in _ART_RE.finditer(view):
        if m.start() in laws and not laws[m.start()].endswith("同法"):  # 同法: the same law
            law = laws[m.start()]
        if law is None or law in _PROCEDURE:
            continue
        number = int(m["n"])
        sub = int(m["sub"]) if m["sub"] else None
        if law == "刑法" or (law.endswith("刑法") and not _KANJI_RE.match(law[-3])):
            out.refs.append(ArticleRef(number=number, span=make_span(
                text, where[m.start()], where[m.end() - 1] + 1, offset)))
            if number >= BOOK_II_FIRST:
                if (number, sub) not in out.penal:
                    out.penal.append((number, sub))
            elif number not in out.general:
                out.general.append(number)
        elif law not in out.other_laws:
            out.other_laws.append(law)
    return out


def jp_case_laws(case_name: str) -> list[str]:
    """Laws a case name says were violated: ``…法違反`` / ``…法律違反`` (in order)."""
    names = re.split(r"[，、,（）()\s]+", case_name.replace("被告事件", ""))
    return [n.removesuffix("違反") for n in names
            if n.endswith("違反") and re.search(r"(?:法律|法|条例)違反$", n)]

