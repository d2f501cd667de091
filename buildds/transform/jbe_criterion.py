"""The criterion of a bar-exam question: which property the asked-for statements have.

A tantō-shiki stem asks for the statements that satisfy a stated property — 正しいもの,
誤っているもの, 甲に殺人罪が成立しないもの, 使用貸借にのみ当てはまるもの, 明らかに誤っているもの,
論拠として適切なもの, かかる見解と同じ立場からの記述には○を … — in one of a few *forms* (the
one asked-for statement, a combination of them, two of them, a ○× row, their count).
:func:`parse_criterion` reads the stem by meaning instead of matching a list of whole
phrasings:

1. the question sentence is the one that asks (``…どれか``, ``…を選びなさい``, ``…の組合せ``,
   ``…には○を、…には×を``), not a remark (``なお、…ものとする。``);
2. the *clause* is what stands before ``もの`` (or ``記述には○``) back to the previous
   comma, ``のうち`` or ``について``; a basis (``判例の趣旨に照らし``, ``判例の立場に従って検討し``)
   in front of it is set apart;
3. the clause is put in its *positive form* with a *polarity*: ``誤っている`` / ``誤り`` /
   ``明らかに誤っている`` → (正しい, negative); ``不適切`` / ``適切でない`` → (適切, negative);
   a predicate in the negative is turned positive (``成立しない`` → ``成立する``,
   ``成立していない`` → ``成立している``, ``当てはまらない`` → ``当てはまる``,
   ``なり得ない`` → ``なり得る``, ``認められない`` → ``認められる``, ``正しくない`` → ``正しい``,
   ``消費寄託ではない`` → ``消費寄託である``).

An item's label then says whether its statement has the positive property: the asked-for
statements have it when the polarity is positive and lack it when it is negative.

Pure functions over strings (NFKC-normalised, with the two comma styles unified).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Literal

__all__ = ["TRUTH", "Criterion", "CriterionForm", "normalize_stem", "parse_criterion",
           "positive_form", "question_sentence"]

#: the property of the ordinary question: the statement is correct
TRUTH = "正しい"

CriterionForm = Literal["single", "combination", "choose_two", "count", "marks"]


@dataclass(frozen=True)
class Criterion:
    """What a question asks of its statements.

    ``clause`` is the printed clause (``甲に殺人罪が成立しない``); ``prop`` its positive form
    (``甲に殺人罪が成立する``, or :data:`TRUTH`); ``positive`` whether the asked-for statements
    have that property (False for ``…しないもの``, ``誤っているもの``); ``form`` how they are
    asked for; ``basis`` the standard of judgement printed in front of the clause, if any
    (``判例の趣旨に照らし``)."""

    clause: str
    prop: str
    positive: bool
    form: CriterionForm
    basis: str = ""

    @property
    def is_truth(self) -> bool:
        """The question asks whether statements are correct (正しい/誤っている …)."""
        return self.prop == TRUTH


def normalize_stem(text: str) -> str:
    """NFKC (full-width digits and letters → ASCII), both comma styles → ``、``, ○ unified."""
    t = unicodedata.normalize("NFKC", text)
    return t.replace(",", "、").replace("，", "、").replace("｡", "。").replace("〇", "○")


# ----------------------------------------------------------------------------- positive form
#: antonyms whose positive side is a fixed word (checked on the whole clause, then its end)
_ANTONYMS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"(?:明らかに)?(?:誤っている|誤った|誤りである|誤り|正しくない|正しいとはいえない)$"),
     TRUTH),
    (re.compile(r"(?:不適切な?|適切でない|適切ではない|適切とはいえない)$"), "適切"),
    (re.compile(r"(?:不適当な?|適当でない|適当ではない)$"), "適当"),
    (re.compile(r"(?:不当な?|妥当でない|妥当ではない|妥当とはいえない)$"), "妥当"),
)
_NA_ADJECTIVES = ("適切", "妥当", "適当", "相当", "正当", "可能", "必要", "明らか", "適法", "有効")
#: the a-row kana of a godan verb's negative stem → its dictionary ending
_GODAN = dict(zip("わかがさたなばまら", "うくぐすつぬぶむる"))
_I_E_ROWS = set("いきぎしじちぢにひびぴみりえけげせぜてでねへべぺめれ")


def _positive_predicate(clause: str) -> tuple[str, bool]:
    """(positive form, True) of a clause whose predicate is in the negative, else
    (clause, False)."""
    for neg, pos in (("していない", "している"), ("とはいえない", "といえる"),
                     ("とはならない", "となる"), ("とはなり得ない", "となり得る"),
                     ("得ない", "得る"), ("しない", "する"), ("くない", "い"),
                     ("ではない", None), ("でない", None), ("がない", "がある"),
                     ("はない", "はある"), ("もない", "もある")):
        if clause.endswith(neg):
            stem = clause[: -len(neg)]
            if pos is None:  # 適切でない → 適切; 消費寄託ではない → 消費寄託である
                return (stem if stem.endswith(_NA_ADJECTIVES) else f"{stem}である"), True
            return stem + pos, True
    if clause.endswith("ない") and len(clause) > 2:
        before = clause[-3]
        stem = clause[:-3]
        if before in _GODAN:  # 当てはまらない → 当てはまる
            return stem + _GODAN[before], True
        if before in _I_E_ROWS:  # 認められない → 認められる, できない → できる
            return stem + before + "る", True
    return clause, False


def positive_form(clause: str) -> tuple[str, bool]:
    """``(property, positive)``: the clause's property in the positive and whether the clause
    affirms it. ``誤っている`` → (正しい, False); ``甲に殺人罪が成立しない`` → (甲に殺人罪が成立する,
    False); ``使用貸借にのみ当てはまる`` → (使用貸借にのみ当てはまる, True); ``論拠として適切な``
    → (論拠として適切, True): the attributive な before もの is dropped."""
    clause = clause.strip()
    if clause.endswith("な") and clause[:-1].endswith(_NA_ADJECTIVES + ("不適切", "不当")):
        clause = clause[:-1]
    for pattern, positive in _ANTONYMS:
        m = pattern.search(clause)
        if m and (m.start() == 0 or positive != TRUTH):
            # 明らかに誤っている is 正しい negated; ○○として不適切 keeps its qualifier
            return (clause[: m.start()] + positive if m.start() else positive), False
    prop, negated = _positive_predicate(clause)
    return prop, not negated


# ----------------------------------------------------------------------------- the clause
_SLOT_MARKER = re.compile(r"\(\s*解答欄は.*$", re.DOTALL)
#: a selection: the clause, then how the statements are asked for
_FORMS: tuple[tuple[CriterionForm, re.Pattern[str]], ...] = (
    ("marks", re.compile(r"(?P<clause>[^、。]*?)(?P<noun>もの|記述)には○を?、"
                         r"[^、。]*?(?:もの|記述)には×を")),
    ("count", re.compile(r"(?P<clause>[^、。]*?)ものの個数")),
    ("choose_two", re.compile(r"(?P<clause>[^、。]*?)ものを(?:2|二)(?:個|つ)選びなさい")),
    ("combination", re.compile(r"(?P<clause>[^、。]*?)(?:もの(?:を組み合わせたもの|の組合せ|"
                               r"(?:2|二)つの組合せ|を全て選んだ場合の組合せ)|もの(?:2|二)つの組合せ)")),
    ("single", re.compile(r"(?P<clause>[^、。]*?)もの(?:はどれか|は、?後記[^。]*?どれか|"
                          r"を(?:、?後記[^。]*?から)?選びなさい)")),
)
_CUTS = ("のうち", "について", "に関し")
#: the standard of judgement the question sentence names, as an instruction words it
_SENTENCE_BASIS = (("判例の立場に従って", "判例の立場に従って検討し"),
                   ("最高裁判所の判例の趣旨に照らし", "最高裁判所の判例の趣旨に照らし"),
                   ("判例の趣旨に照らし", "判例の趣旨に照らし"),
                   ("【見解】に従って", "【見解】に従って検討し"))
_BASIS = re.compile(r"^(?P<basis>(?:[^、。]*?の)?(?:趣旨|立場)に(?:照らし|従って検討し|従い)(?:て)?)")
_TRUTH_QUALIFIED = re.compile(r"^[^、。]*?として(?=正しい$|誤っている$)")


def question_sentence(stem: str) -> str:
    """The sentence of the (normalised) stem that asks: the first with a selection, else the
    last sentence before the slot marker."""
    body = _SLOT_MARKER.sub("", normalize_stem(stem))
    sentences = [s for s in re.split(r"(?<=。)", body) if s.strip()]
    for sentence in sentences:
        if any(p.search(sentence) for _, p in _FORMS):
            return sentence
    return sentences[-1] if sentences else ""


def _clause_and_basis(raw: str) -> tuple[str, str]:
    clause = raw
    for cut in _CUTS:
        if cut in clause:
            clause = clause[clause.rindex(cut) + len(cut):]
    clause = clause.strip("、 ")
    basis = ""
    if m := _BASIS.match(clause):
        basis, clause = m.group("basis"), clause[m.end():]
    # かかる見解からの記述として正しい: still the statement's correctness
    clause = _TRUTH_QUALIFIED.sub("", clause)
    return clause.strip(), basis


def parse_criterion(stem: str) -> Criterion | None:
    """The criterion of the stem's question, or None when it asks for no statements by a
    property (a per-statement 1/2 question, a fill-in whose clause is empty …)."""
    sentence = question_sentence(stem)
    # the selection whose もの comes first: 成立しないものの組合せとして正しいもの asks for
    # the statements that do not hold, not for a correct combination
    found = [(m.end("clause"), k, form, m) for k, (form, pattern) in enumerate(_FORMS)
             if (m := pattern.search(sentence))]
    if not found:
        return None
    _, _, form, m = min(found, key=lambda f: (f[0], f[1]))
    clause, basis = _clause_and_basis(m.group("clause"))
    if not clause:
        return None
    if not basis:
        basis = next((words for key, words in _SENTENCE_BASIS if key in sentence), "")
    noun = m.groupdict().get("noun")
    if form == "marks" and noun == "記述":
        # かかる見解と同じ立場からの記述には○を: the property is being such a 記述
        return Criterion(clause=clause + noun, prop=clause + noun, positive=True,
                         form=form, basis=basis)
    prop, positive = positive_form(clause)
    return Criterion(clause=clause, prop=prop, positive=positive, form=form, basis=basis)
