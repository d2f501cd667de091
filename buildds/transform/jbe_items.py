"""JBE stage 2: one booklet XML (stage 1's output) → JBE-QA true/false items.

Each question of the tantō-shiki test is decomposed into one binary item per statement
(JBE-QA, sections 2.2–2.4): the statement's truth follows from the answer key and the
question type. A question that asks for the statements with some property — 正しい,
誤っている, 甲に殺人罪が成立しない, 使用貸借にのみ当てはまる, 明らかに誤っている, 論拠として
適切 … — is read by meaning (:mod:`buildds.transform.jbe_criterion`): its items' label says
whether the statement has the property's positive form, and the instruction states that
property (``正しいか`` worded as before for correctness; ``判例の立場に従って検討し甲に殺人罪が
成立するか`` otherwise). Questions that truly do not decompose (fill-in blanks, counting,
ordering, options that assign statements to one another, answers scored correct for
everyone …) are *excluded with a reason*, never guessed.

Pure functions: bytes in, records out. XML parsing goes through the hardened
:func:`buildds.export.xml.parse_xml`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from buildds.schema import (
    AnswerKey,
    AnswerSlot,
    ExamBooklet,
    ExamQuestion,
    JbeExclusion,
    JbeExclusionReason,
    JbeItem,
    JbeQuestionType,
    LeadIn,
    Option,
    Statement,
)
from buildds.text import normalize_text
from buildds.transform.jbe_criterion import parse_criterion

__all__ = ["decompose", "decompose_question", "question_id"]

QuestionType = JbeQuestionType
ExclusionReason = JbeExclusionReason


@dataclass(frozen=True)
class _Q:
    """A question with its answer-key rows, in slot order."""

    q: ExamQuestion
    slots: tuple[AnswerSlot, ...]

    def __getattr__(self, name: str):  # type: ignore[no-untyped-def]
        # stem, statements, options, lead_ins, remark, points, slot_mode … of the question
        return getattr(self.q, name)


def _int(value: str | None) -> int | None:
    try:
        return int(unicodedata.normalize("NFKC", value or "").strip())
    except ValueError:
        return None


# --------------------------------------------------------------------------- stem rules
def _norm(text: str) -> str:
    """Stem text for matching: NFKC (full-width digits/letters → ASCII, ､ → 、) and the
    two comma styles unified."""
    t = unicodedata.normalize("NFKC", text)
    return t.replace(",", "、").replace("，", "、").replace("｡", "。").replace("〇", "○")


_FILL_IN = re.compile(r"\(\s*\)内(?:から|に)|語句群|適切な語句|空欄|【発言】から|【事例群】")
_COUNTING = re.compile(r"個数|いくつ|何個")
_ORDERING = re.compile(r"順序|順番|並べ")
_PER_STATEMENT = re.compile(r"(?:、|検討し)(?:それぞれ)?正しい場合には1を、誤っている場合には2を選びなさい")
_BINARY_CONDITION = re.compile(
    r"(?:、|検討し)(?P<cond>[^、。]+?)場合には1を、[^、。]+?場合には2を選びなさい")
_VIEW_RELATION = re.compile(r"bの見解がaの見解の(批判|根拠)となっている場合には1を、そうでない場合には2を選びなさい")
#: an assignment option: Ａ－ア Ｂ－ウ (students to views), アⅠ－イⅡ (statements to conclusions)
_MATCHING = re.compile(r"^(?:\s*[A-Zア-ン]\s*(?:-\s*[ア-ン]|[IVX]+)\s*-?)+\s*$")
#: the view a ○× question's property refers back to (…と解する見解があるが、)
_VIEW_PREAMBLE = re.compile(r"^(?P<view>.*?見解がある)が[、，,]")
_THEME = re.compile(r"^(?!次の)(.+?)に関する(?:次の|後記)")
_KATAKANA_LABEL = re.compile(r"[ア-ン]")
_TT_CELL = re.compile(r"([ア-ン])\s*([○〇×])")


def _instruction(stem: str) -> str:
    """The JBE-QA instruction for a 'is the statement true' question, from the stem."""
    s = _norm(stem)
    if "教授と学生の対話" in s:
        return "教授の質問に対する学生の回答が正しいか"
    if "判例の立場に従って" in s:
        if "【事例】" in s:
            return "【事例】に対して判例の立場に従って検討し記述が正しいか"
        return "判例の立場に従って検討し記述が正しいか"
    m = re.search(r"(最高裁判所の判決\([^)]*\))の趣旨に照らし", s)
    if m:
        return f"{unicodedata.normalize('NFKC', m.group(1))}の趣旨に照らし記述が正しいか"
    if "最高裁判所の判例の趣旨に照らし" in s:
        return "最高裁判所の判例の趣旨に照らし記述が正しいか"
    if "判例の趣旨に照らし" in s:
        return "判例の趣旨に照らし記述が正しいか"
    if "【見解】" in s:
        return "【見解】に照らし記述が正しいか"
    if "見解" in s and "記述として正しいもの" in s:
        return "見解からの記述として正しいか"
    if "【事例】" in s:
        return "【事例】に対して記述が正しいか"
    return "正しいか"


def _theme(stem: str) -> str | None:
    m = _THEME.match(stem.strip())
    return m.group(1).strip() if m else None


def _lead_in(q: _Q, label: str | None) -> str | None:
    def fmt(le: LeadIn) -> str:
        if le.kind and not le.text.startswith(f"【{le.kind}】"):
            return f"【{le.kind}】\n{le.text}"
        return le.text

    blocks = [fmt(le) for le in q.lead_ins if le.before is None]
    if label is not None:
        blocks += [fmt(le) for le in q.lead_ins if le.before == label]
    blocks = [b for b in blocks if b]
    return "\n".join(blocks) if blocks else None


def _statement_text(st: Statement) -> str:
    if st.parts:
        body = "\n".join(f"{p.label}．{p.text}" for p in st.parts)
        return f"{st.text}\n{body}".strip() if st.text else body
    return st.text


def _label_key(label: str) -> str:
    return unicodedata.normalize("NFKC", label).strip()


# --------------------------------------------------------------------------- decomposition
class _Skip(Exception):
    def __init__(self, reason: ExclusionReason, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message


def _single_answer(q: _Q) -> str:
    if len(q.slots) != 1:
        raise _Skip("ambiguous", f"expected one answer slot, found {len(q.slots)}")
    return unicodedata.normalize("NFKC", q.slots[0].answer or "").strip()


def _option(q: _Q, answer: str) -> Option:
    number = _int(answer)
    for opt in q.options:
        if opt.number == number:
            return opt
    raise _Skip("answer_not_in_options", f"answer {answer!r} is not one of the options")


def _combination(q: _Q, chosen: bool) -> dict[str, bool]:
    opt = _option(q, _single_answer(q))
    labels = {_label_key(s.label) for s in q.statements}
    tokens = [t for t in re.split(r"[\s、，,・と]+", unicodedata.normalize("NFKC", opt.text)) if t]
    if not tokens:
        raise _Skip("ambiguous", f"chosen option {opt.number} is empty")
    unknown = [t for t in tokens if t not in labels]
    if unknown:
        raise _Skip("unknown_statement",
                    f"chosen option {opt.number} ({opt.text!r}) names {''.join(unknown)!r}, "
                    f"not a statement of the question")
    return {lab: (chosen if lab in tokens else not chosen) for lab in labels}


def _truth_table(q: _Q) -> dict[str, bool]:
    opt = _option(q, _single_answer(q))
    labels = {_label_key(s.label) for s in q.statements}
    text = opt.text.replace("〇", "○")
    cells = _TT_CELL.findall(text)
    rest = _TT_CELL.sub("", text).strip()
    if not cells or rest:
        raise _Skip("ambiguous", f"chosen option {opt.number} ({opt.text!r}) is not a ○× row")
    table = {lab: mark == "○" for lab, mark in cells}
    if set(table) != labels:
        raise _Skip("unknown_statement",
                    f"chosen option {opt.number} ({opt.text!r}) does not match statements "
                    f"{''.join(sorted(labels))}")
    return table


def _per_statement(q: _Q) -> dict[str, bool]:
    by_no = {s.no: s for s in q.slots}
    ordered = [s.no for s in q.slots]
    if len(q.statements) != len(ordered):
        raise _Skip("ambiguous", f"{len(q.statements)} statements but {len(ordered)} slots")
    out = {}
    for st, default_no in zip(q.statements, ordered):
        slot = by_no.get(st.slot if st.slot is not None else default_no)
        if slot is None:
            raise _Skip("ambiguous", f"statement {st.label} has no answer slot")
        ans = unicodedata.normalize("NFKC", slot.answer or "").strip()
        if ans not in ("1", "2"):
            raise _Skip("non_binary", f"slot {slot.no} answer {ans!r} is not 1 or 2")
        out[_label_key(st.label)] = ans == "1"
    return out


def _choose(q: _Q, answers: Iterable[str], truth: bool) -> dict[str, bool]:
    labels = {_label_key(s.label) for s in q.statements}
    chosen = {unicodedata.normalize("NFKC", a).strip() for a in answers}
    unknown = chosen - labels
    if unknown:
        raise _Skip("unknown_statement",
                    f"answer {''.join(sorted(unknown))!r} is not a statement of the question")
    return {lab: (truth if lab in chosen else not truth) for lab in labels}


def _classify(q: _Q) -> tuple[QuestionType, dict[str, bool], str]:
    """(question type, truth per statement label, instruction) or raise :class:`_Skip`."""
    s = _norm(q.stem)
    if _FILL_IN.search(s):
        raise _Skip("fill_in", "fill-in-the-blank / word-list question")
    if _COUNTING.search(s):
        raise _Skip("counting", "asks how many statements are correct/incorrect")
    if _ORDERING.search(s):
        raise _Skip("ordering", "asks for an ordering")
    if any(x.all_correct for x in q.slots):
        raise _Skip("all_correct", "every examinee was scored correct (受験者全員を正答)")
    if not q.slots or any(not (x.answer or "").strip() for x in q.slots):
        raise _Skip("missing_answer", "an answer slot has no answer")
    if not q.statements:
        raise _Skip("no_statements", "the question has no statements to decompose")

    if m := _VIEW_RELATION.search(s):
        if q.slot_mode != "per_statement":
            raise _Skip("ambiguous", "a/b view question without per-statement slots")
        return "view_relation", _per_statement(q), f"bの見解がaの見解の{m.group(1)}となっているか"
    if _PER_STATEMENT.search(s):
        if q.slot_mode != "per_statement":
            raise _Skip("ambiguous", "per-statement stem without per-statement slots")
        return "per_statement", _per_statement(q), _instruction(q.stem)
    if (m := _BINARY_CONDITION.search(s)) and not re.search(r"場合には3を", s):
        # "甲に横領罪が成立する場合には１を、成立しない場合には２を": a yes/no judgement per
        # statement; the item asks whether the condition holds.
        if q.slot_mode != "per_statement":
            raise _Skip("ambiguous", "1/2 stem without per-statement slots")
        prefix = "判例の立場に従って検討し" if "判例の立場に従って" in s else ""
        return "per_statement", _per_statement(q), f"{prefix}{m.group('cond')}か"
    if re.search(r"場合には[123]を", s):
        raise _Skip("non_binary" if re.search(r"場合には3を", s) else "ambiguous",
                    "per-statement question that does not ask a yes/no judgement")
    return _by_criterion(q, s)


def _by_criterion(q: _Q, s: str) -> tuple[QuestionType, dict[str, bool], str]:
    """A question that asks for the statements with a property (:mod:`.jbe_criterion`):
    one, two, a combination or a ○× row of them. The label says whether a statement has the
    property's positive form, which the instruction states."""
    crit = parse_criterion(q.stem)
    if crit is None:
        raise _Skip("ambiguous", "stem does not ask for statements by a property")
    if q.options and all(_MATCHING.match(unicodedata.normalize("NFKC", o.text))
                         for o in q.options):
        raise _Skip("matching", "options assign statements to one another (Ａ－ア, アⅠ): "
                                "no truth value per statement")
    instruction = _instruction(q.stem) if crit.is_truth else f"{crit.basis}{crit.prop}か"
    if crit.form == "count":
        raise _Skip("counting", "asks how many statements have the property")
    if crit.form == "marks":
        table = _truth_table(q)
        return "truth_table", {k: v == crit.positive for k, v in table.items()}, instruction
    if crit.form == "choose_two":
        if q.slot_mode != "unordered" or len(q.slots) != 2:
            raise _Skip("ambiguous", "choose-two stem without two unordered slots")
        return "choose_two", _choose(q, [x.answer or "" for x in q.slots], crit.positive), \
            instruction
    if q.slot_mode != "single":
        raise _Skip("ambiguous", f"unrecognised stem for slot mode {q.slot_mode}")
    if crit.form == "combination":
        if not all(_KATAKANA_LABEL.fullmatch(_label_key(st.label)) for st in q.statements):
            raise _Skip("ambiguous", "combination question without ア/イ/… statements")
        return "combination", _combination(q, crit.positive), instruction
    if q.options:
        raise _Skip("ambiguous", "single-choice stem with separate options")
    return "single_choice", _choose(q, [_single_answer(q)], crit.positive), instruction


def _view_context(stem: str) -> str | None:
    """``…と解する見解がある。``: the view a ○× question's かかる見解 refers to, as a lead-in."""
    m = _VIEW_PREAMBLE.match(stem.strip())
    return f"{m.group('view')}。" if m else None


def question_id(booklet: ExamBooklet, number: int) -> str:
    """``令和６年-民法-18``: the era year as the XML gives it (full-width digits)."""
    return f"{booklet.era}-{booklet.subject.jp}-{number}"


def decompose_question(booklet: ExamBooklet, q: _Q) -> list[JbeItem] | JbeExclusion:
    qid = question_id(booklet, q.number)
    try:
        qtype, truth, instruction = _classify(q)
    except _Skip as skip:
        return JbeExclusion(id=qid, subject=booklet.subject.en, reason=skip.reason,
                            message=skip.message, source=booklet.source.path,
                            page=q.page_first)
    theme = _theme(q.stem)
    items = []
    for i, st in enumerate(q.statements, start=1):
        value = truth[_label_key(st.label)]
        question = _statement_text(st)
        if not question:
            return JbeExclusion(id=qid, subject=booklet.subject.en, reason="ambiguous",
                                message=f"statement {st.label} is empty",
                                source=booklet.source.path, page=st.page)
        lead_in = _lead_in(q, st.label)
        if "かかる見解" in instruction and (view := _view_context(q.stem)):
            lead_in = f"{view}\n{lead_in}" if lead_in else view
        items.append(JbeItem(
            id=f"{qid}-{i}", year=booklet.era, subject=booklet.subject.en,
            subject_jp=booklet.subject.jp, instruction=instruction,
            # the shared normaliser: Kangxi radicals and zero-width characters only
            question=normalize_text(question), label="Y" if value else "N", answer=value,
            theme=normalize_text(theme) if theme else theme,
            lead_in=normalize_text(lead_in) if lead_in else lead_in,
            remark=normalize_text(q.remark) if q.remark else q.remark, question_type=qtype,
            points=q.points, source=booklet.source.path, sha256=booklet.source.sha256,
            page=st.page))
    return items


def decompose(booklet: ExamBooklet, key: AnswerKey) -> tuple[list[JbeItem], list[JbeExclusion]]:
    """All items of a booklet, and the questions left out (with reasons)."""
    answers = key.by_no()
    items: list[JbeItem] = []
    excluded: list[JbeExclusion] = []
    for question in booklet.questions:
        missing = [no for no in question.slots if no not in answers]
        if missing:
            excluded.append(JbeExclusion(
                id=question_id(booklet, question.number), subject=booklet.subject.en,
                reason="missing_answer", message=f"no answer-key row for slot(s) {missing}",
                source=booklet.source.path, page=question.page_first))
            continue
        result = decompose_question(booklet, _Q(question, tuple(answers[no] for no in question.slots)))
        if isinstance(result, JbeExclusion):
            excluded.append(result)
        else:
            items.extend(result)
    return items, excluded
