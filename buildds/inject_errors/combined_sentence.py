"""The 数罪并罚 block of a 判决如下 part: the per-charge penalty clauses (犯X罪，判处…) and the
combined sentence that follows them (数罪并罚，决定执行… / 合并执行…), read into offsets so
that an injector can drop charges and the combined sentence consistently (E2).

- :func:`parse_block` finds the block: the consecutive clauses ``[被告人X]犯A罪，判处P1；
  [被告人X]犯B罪，判处P2`` and the combined sentence right after them, each penalty split into
  its main part (kind and term), probation, fine, other additional penalties (剥夺政治权利,
  没收财产) and fine notes (``（已缴纳）``);
- :func:`severity` orders penalties (the heaviest per-charge sentence is the one E2 keeps);
- :func:`term_note` / :func:`note_end_edit` read and recompute the 刑期 date note
  (``即自2013年12月2日起至2015年6月1日止``) for another term, with the same start and the
  same offset of credited days, written in the note's own style.

Offsets index the text given (``Judgment.full_text``); everything here is pure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

from buildds.extract.judgments.amounts import MONEY_RE, TERM_RE, money_value, term_months
from buildds.extract.judgments.dates import DATE_RE, add_months
from buildds.extract.judgments.sentence import mask_parentheses
from buildds.text import int_to_cn, to_int_number

__all__ = ["Block", "ChargeClause", "Penalty", "TermNote", "format_date_like",
           "note_end_edit", "parse_block", "parse_penalty", "severity", "term_note"]

_RANK = {"免予刑事处罚": 0, "单处罚金": 1, "管制": 2, "拘役": 3, "有期徒刑": 4, "无期徒刑": 5, "死刑": 6}
_MAIN_RE = re.compile(r"有期徒刑|拘役|管制|无期徒刑|死刑|免[予于除]刑事处罚")
_SEP_RE = re.compile(r"\s*[，,]\s*")
_PROBATION_RE = re.compile(r"缓刑(?:考验期(?:限)?为?)?")
_FINE_RE = re.compile(r"(?:并处|并|单处)?罚金(?:人民币)?\s*")
_OTHER_RE = re.compile(
    rf"(?:并处)?(?:剥夺政治权利(?:终身|{TERM_RE.pattern})"
    rf"|没收(?:个人)?(?:全部|部分)?财产(?:人民币)?(?:{MONEY_RE.pattern})?)")
_NOTE_RE = re.compile(r"[（(][^（）()]{0,40}[)）]")
_CLAUSE_RE = re.compile(
    r"犯(?!罪)(?P<name>(?:(?!罪、)[^\s，,。；;：:（）()“”\"]){2,40}?)罪[，,]?\s*(?P<lead>判处|免[予于除]刑事处罚|单处)")
_PREFIX_RE = re.compile(r"(?:被告人|上诉人|原审被告人)(?:（原审被告人）)?[^\s，,。；;：:、（）()]{1,20}$")
_BETWEEN_RE = re.compile(r"\s*[，,；;。]\s*")
_COMBINED_RE = re.compile(
    r"\s*[，,；;。]\s*(?:(?:实行|按|依法|对其|予以|应当)?(?:数罪|[二两三四五六七八九十]罪)并罚(?:的?原则)?[，,]\s*)?"
    r"(?:决定)?(?:合并)?执行")


@dataclass(frozen=True)
class Penalty:
    """One penalty (``有期徒刑十个月，并处罚金人民币二万元``) by parts; every span is
    ``(start, end)`` in the text. ``probation`` / ``fine`` / ``others`` spans include the
    separator before them (``，缓刑三年``); ``fine_notes`` are parenthesised notes right
    after the fine (``（已缴纳）``)."""

    kind: str
    months: int | None
    main: tuple[int, int]
    probation_months: int | None = None
    probation: tuple[int, int] | None = None
    fine_yuan: int | None = None
    fine: tuple[int, int] | None = None
    fine_notes: tuple[tuple[int, int], ...] = ()
    others: tuple[tuple[int, int], ...] = ()
    end: int = 0


@dataclass(frozen=True)
class ChargeClause:
    """``[被告人X]犯A罪，判处P``: ``start`` at 犯, ``prefix_start`` at 被告人 when the clause
    repeats the defendant (else ``start``), ``end`` at the end of the penalty."""

    name: str
    prefix_start: int
    start: int
    penalty: Penalty

    @property
    def end(self) -> int:
        return self.penalty.end

    @property
    def has_prefix(self) -> bool:
        return self.prefix_start < self.start


@dataclass(frozen=True)
class Block:
    """The per-charge clauses and the combined sentence (``combined_start`` at the separator
    before it, ``combined`` its penalty)."""

    clauses: tuple[ChargeClause, ...]
    combined_start: int
    combined: Penalty


def parse_penalty(text: str, pos: int, limit: int) -> Penalty | None:
    """The penalty starting at ``pos`` (its main part must start there, after blanks)."""
    while pos < limit and text[pos].isspace():
        pos += 1
    main = _MAIN_RE.match(text, pos, limit)
    months = None
    if main is not None:
        kind = main.group()
        end = main.end()
        if kind in ("有期徒刑", "拘役", "管制"):
            term = TERM_RE.match(text, end, limit)
            if term is None:
                return None
            months, end = term_months(term), term.end()
            if months is None:
                return None
        elif kind.startswith("免"):
            kind = "免予刑事处罚"
        start_main = (main.start(), end)
    else:
        fine = _FINE_RE.match(text, pos, limit)
        if fine is None or not MONEY_RE.match(text, fine.end(), limit):
            return None
        kind, start_main, end = "单处罚金", (pos, pos), pos
    return _additions(text, kind, months, start_main, end, limit)


def _additions(text: str, kind: str, months: int | None, main: tuple[int, int], end: int,
               limit: int) -> Penalty | None:  # long: one loop over the optional parts
    probation_months = probation = fine_yuan = fine = None
    fine_notes: list[tuple[int, int]] = []
    others: list[tuple[int, int]] = []
    first = kind == "单处罚金"
    while True:
        sep = None if first else _SEP_RE.match(text, end, limit)
        at = end if first else (sep.end() if sep else -1)
        if at < 0:
            break
        first = False
        prob = _PROBATION_RE.match(text, at, limit)
        fine_m = _FINE_RE.match(text, at, limit)
        other = _OTHER_RE.match(text, at, limit)
        if prob and probation is None and (term := TERM_RE.match(text, prob.end(), limit)):
            probation_months = term_months(term)
            probation, end = (sep.start() if sep else at, term.end()), term.end()
        elif fine_m and fine is None and (money := MONEY_RE.match(text, fine_m.end(), limit)):
            fine_yuan = money_value(money["num"])
            if fine_yuan is None:
                return None
            fine, end = (sep.start() if sep else at, money.end()), money.end()
            while (note := _NOTE_RE.match(text, end, limit)) and re.search(r"缴|罚金", note.group()) \
                    and "刑期" not in note.group():
                fine_notes.append(note.span())
                end = note.end()
        elif other:
            others.append((sep.start() if sep else at, other.end()))
            end = other.end()
        else:
            break
    return Penalty(kind=kind, months=months, main=main, probation_months=probation_months,
                   probation=probation, fine_yuan=fine_yuan, fine=fine,
                   fine_notes=tuple(fine_notes), others=tuple(others), end=end)


def parse_block(text: str, start: int, end: int) -> Block | str:
    """The 数罪并罚 block of ``text[start:end]`` (a 判决如下 part), or why there is none:
    ``per_charge_sentence_missing`` (no run of two or more 犯X罪，判处… clauses with a
    readable penalty), ``no_combined_sentence`` (no 决定执行 / 合并执行 right after them),
    ``combined_unparsed`` (its penalty cannot be read)."""
    masked = mask_parentheses(text)
    clauses: list[ChargeClause] = []
    for m in _CLAUSE_RE.finditer(masked, start, end):
        penalty = parse_penalty(text, m.end("lead") if m["lead"] in ("判处", "单处") else m.start("lead"), end)
        if penalty is None:
            continue
        prefix = _PREFIX_RE.search(text, max(start, m.start() - 40), m.start())
        clause = ChargeClause(name=m["name"], prefix_start=prefix.start() if prefix else m.start(),
                              start=m.start(), penalty=penalty)
        if clauses and not _BETWEEN_RE.fullmatch(text, clauses[-1].end, clause.prefix_start):
            if len(clauses) >= 2:
                break
            clauses = []
        clauses.append(clause)
    if len(clauses) < 2:
        return "per_charge_sentence_missing"
    combined = _COMBINED_RE.match(text, clauses[-1].end, end)
    if combined is None:
        return "no_combined_sentence"
    penalty = parse_penalty(text, combined.end(), end)
    if penalty is None:
        return "combined_unparsed"
    return Block(clauses=tuple(clauses), combined_start=clauses[-1].end, combined=penalty)


def severity(p: Penalty) -> tuple[int, int, int]:
    """Penalties ordered by kind (免予刑事处罚 < 单处罚金 < 管制 < 拘役 < 有期徒刑 < 无期徒刑
    < 死刑), then term, then fine."""
    return _RANK.get(p.kind, -1), p.months or 0, p.fine_yuan or 0


# --------------------------------------------------------------------------- the date note
_NOTE_SPAN_RE = re.compile(r"自(?P<s>[^，,。；;自至]{6,20}?)起?至(?P<e>[^，,。；;自至]{4,20}?)止")


@dataclass(frozen=True)
class TermNote:
    """The 刑期 note's start and end dates and the span of the end date."""

    start: date
    end: date
    end_span: tuple[int, int]
    end_text: str


def term_note(text: str, start: int, end: int) -> TermNote | None | str:
    """The one ``自…起至…止`` note of ``text[start:end]``: None when there is none, a reason
    string when it cannot be read (``note_unparsed``, ``several_notes``)."""
    found = list(_NOTE_SPAN_RE.finditer(text, start, end))
    if not found:
        return None
    if len(found) > 1:
        return "several_notes"
    m = found[0]
    s = DATE_RE.fullmatch(m["s"].strip().replace("○", "〇"))
    e = DATE_RE.fullmatch(m["e"].strip().replace("○", "〇"))
    if s is None or e is None:
        return "note_unparsed"
    sd, ed = _date_of(s), _date_of(e)
    if sd is None or ed is None:
        return "note_unparsed"
    lead = len(m["e"]) - len(m["e"].lstrip())
    e_start = m.start("e") + lead
    end_text = text[e_start:e_start + len(e.group())]
    return TermNote(start=sd, end=ed, end_span=(e_start, e_start + len(end_text)), end_text=end_text)


def _date_of(m: re.Match[str]) -> date | None:
    y, mo, d = (to_int_number(m.group(k)) for k in ("y", "m", "d"))
    try:
        return date(y, mo, d) if y and mo and d else None
    except ValueError:
        return None


def note_end_edit(note: TermNote, old_months: int, new_months: int) -> tuple[int, int, str]:
    """The edit that writes the end of the note for ``new_months``: the old note's offset
    (credited days: end = start + term − 1 day − offset) kept, in the old end date's style."""
    offset = add_months(note.start, old_months) - timedelta(days=1) - note.end
    new_end = add_months(note.start, new_months) - timedelta(days=1) - offset
    return note.end_span[0], note.end_span[1], format_date_like(new_end, note.end_text)


_CN_DIGITS = "〇一二三四五六七八九"


def format_date_like(day: date, like: str) -> str:
    """``day`` written like ``like`` (``2015年6月1日``, ``2015年06月01日``, full-width digits,
    ``二〇一五年六月一日`` or with 零)."""
    m = DATE_RE.fullmatch(like.replace("○", "〇"))
    if m is None:
        raise ValueError(f"not a date: {like!r}")
    year = like[m.start("y"):m.end("y")]
    if year[0] in _CN_DIGITS + "零○":
        zero = next((z for z in "零○" if z in year), "〇")
        y = "".join(_CN_DIGITS[int(c)] for c in str(day.year)).replace("〇", zero)
        return f"{y}年{int_to_cn(day.month)}月{int_to_cn(day.day)}日"
    wide = year[0] in "０１２３４５６７８９"

    def num(n: int, old: str) -> str:
        s = str(n).zfill(len(old)) if len(old) == 2 and old[0] in "0０" else str(n)
        return s.translate(str.maketrans("0123456789", "０１２３４５６７８９")) if wide else s

    sep = like[m.end("y"):m.start("m")], like[m.end("m"):m.start("d")], like[m.end("d"):]
    return f"{num(day.year, year)}{sep[0]}{num(day.month, m['m'])}{sep[1]}{num(day.day, m['d'])}{sep[2]}"
