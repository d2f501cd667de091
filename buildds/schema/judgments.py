"""Criminal judgments, statute profiles and injected errors (AR-Bench, seed 003).

Records are added here by the judgments and error-injection stages.

Offsets: every :class:`Span` of a :class:`Judgment` indexes ``Judgment.full_text`` (Python
string indices, end exclusive) and carries the text it covers, so an injector can edit by
span and anyone can check (or undo) the edit: ``full_text[s.start:s.end] == s.text``. The
``Judgment`` validator enforces that for every span it holds. For CAIL records
``full_text`` is the fact text (CAIL has no reasoning or judgment part).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from typing import Literal

from pydantic import Field, model_validator

from buildds.schema.core import Frozen, Problem, Source

__all__ = [
    "CUSTODIAL_KINDS",
    "FACTOR_KINDS",
    "ArticleRef",
    "ChargeRef",
    "ErrorClass",
    "ErrorType",
    "FactorKind",
    "InjectedJudgment",
    "InjectionSkip",
    "JpDetails",
    "Judgment",
    "JudgmentReject",
    "JudgmentRejectReason",
    "Sentence",
    "SentenceKind",
    "SentencingFactor",
    "Span",
    "SpanEdit",
]


class Span(Frozen):
    """A stretch of ``Judgment.full_text``: ``full_text[start:end] == text``."""

    start: int
    end: int
    text: str

    @model_validator(mode="after")
    def _consistent(self) -> Span:
        if not 0 <= self.start <= self.end or self.end - self.start != len(self.text):
            raise ValueError(f"span [{self.start}, {self.end}) does not fit its text {self.text!r}")
        return self

    def shifted(self, offset: int) -> Span:
        return Span(start=self.start + offset, end=self.end + offset, text=self.text)


FactorKind = Literal["自首", "坦白", "立功", "累犯", "从犯", "胁从犯", "未遂", "中止", "预备",
                     "认罪认罚", "谅解", "退赃退赔", "初犯偶犯", "未成年", "其他"]
FACTOR_KINDS: tuple[str, ...] = FactorKind.__args__  # type: ignore[attr-defined]


class SentencingFactor(Frozen):
    """A sentencing circumstance found in the text.

    ``span`` covers the keyword (``自首``, ``如实供述`` …); ``clause`` the clause around it
    (between ，。； marks), which is what an E4 injector deletes to hide the factor."""

    kind: FactorKind
    mitigating: bool
    span: Span
    clause: Span | None = None


SentenceKind = Literal["有期徒刑", "拘役", "管制", "无期徒刑", "死刑", "免予刑事处罚", "单处罚金",
                       "none",
                       # Japan (courts.go.jp precedents): 罰金 alone is kind 罰金
                       "懲役", "禁錮", "拘禁刑", "無期懲役", "無期禁錮", "無期拘禁刑", "罰金", "科料"]
#: kinds that carry a term in months
CUSTODIAL_KINDS: frozenset[str] = frozenset({"有期徒刑", "拘役", "管制"})


class Sentence(Frozen):
    """The main penalty of the judgment (the 决定执行 one when sentences are combined).

    ``span`` covers the whole penalty clause (``有期徒刑三年，缓刑四年，并处罚金人民币二万元``);
    ``kind_span`` the penalty word, ``term_span`` the term (``三年``), ``probation_span``
    the probation term, ``fine_span`` the fine amount (``二万元``, without 人民币).
    ``fine_kind`` is the statute's fine regime (E5 fixed / E6 proportional); the parser only
    sees the amount, so it writes ``"unknown"`` when there is a fine and ``None`` otherwise —
    the statute profiles decide. CAIL sentences come from its meta (no spans); CAIL does
    not separate 拘役 from 有期徒刑, so a CAIL term is recorded as 有期徒刑."""

    kind: SentenceKind
    months: int | None = None
    probation_months: int | None = None
    fine_yuan: int | None = None
    fine_kind: Literal["fixed", "proportional", "unknown"] | None = None
    span: Span | None = None
    kind_span: Span | None = None
    term_span: Span | None = None
    probation_span: Span | None = None
    fine_span: Span | None = None

    def spans(self) -> Iterator[Span]:
        for s in (self.span, self.kind_span, self.term_span, self.probation_span, self.fine_span):
            if s is not None:
                yield s


class ArticleRef(Frozen):
    """One cited article of the Criminal Law: ``第六十七条第三款`` → 67 with its span."""

    number: int
    span: Span


class ChargeRef(Frozen):
    """One mention of a charge in the judgment part; ``span`` covers the name without 罪
    (``诈骗`` in ``犯诈骗罪``), so replacing it keeps the sentence grammatical."""

    name: str
    span: Span


class JpDetails(Frozen):
    """What a Japanese judgment (courts.go.jp precedent, dataset ``jp``) states besides the
    fields every judgment has: the case, the 主文's other orders and the 法令の適用.

    ``penal_articles``: 刑法 Book II articles the 罰条 apply ((article, のN or None), in order)
    — the offences; ``general_articles``: 刑法 Book I articles cited (60 共同正犯, 45 併合罪,
    66 酌量減軽 …); ``other_laws``: other statutes the 罰条 apply (公職選挙法 …; procedure,
    刑事訴訟法, is not counted)."""

    case_number: str = ""
    case_name: str = ""
    court_name: str = ""
    trial_type: str = ""
    #: 未決勾留日数中N日をその刑に算入する
    detention_credit_days: int | None = None
    #: 没収する
    confiscation: bool = False
    #: the 主文 suspends the sentence (執行を猶予する), also when the years are not read
    suspended: bool = False
    penal_articles: tuple[tuple[int, int | None], ...] = ()
    general_articles: tuple[int, ...] = ()
    other_laws: tuple[str, ...] = ()


class Judgment(Frozen):
    """One single-defendant criminal judgment (JuDGE full text or CAIL facts + meta, a corpus
    read by a field mapping: ``dataset`` is the mapping's name, e.g. ``lecard``, or a Japanese
    courts.go.jp precedent: dataset ``jp``, with :class:`JpDetails`)."""

    id: str
    source: Source
    dataset: str
    #: 1-based line number in the source file
    line: int
    facts: str
    reasoning: str
    #: the 判决如下 part (up to the appeal notice / signatures)
    judgment: str
    full_text: str
    facts_span: Span | None = None
    reasoning_span: Span | None = None
    judgment_span: Span | None = None
    #: charge names without 罪, in order of first mention
    charges: tuple[str, ...] = ()
    charge_refs: tuple[ChargeRef, ...] = ()
    #: Criminal Law article numbers, in order of first citation
    articles: tuple[int, ...] = ()
    article_refs: tuple[ArticleRef, ...] = ()
    sentence: Sentence
    sentence_from: Literal["text", "meta"] = "text"
    amount_involved_yuan: int | None = None
    amount_span: Span | None = None
    factors: tuple[SentencingFactor, ...] = ()
    defendants: tuple[str, ...] = ()
    problems: tuple[Problem, ...] = ()
    #: the day the judgment was given (the Chinese-numeral date before the annex of cited
    #: articles; None for CAIL, which has no judgment text, or when the text has none)
    judgment_date: date | None = None
    #: the earliest date of the facts (the start of the conduct: a heuristic, see
    #: :func:`buildds.extract.judgments.offence_date`); None when the facts name no date
    offence_date: date | None = None
    #: a Japanese judgment's own fields (dataset ``jp``), else None
    jp: JpDetails | None = None

    def spans(self) -> Iterator[Span]:
        for s in (self.facts_span, self.reasoning_span, self.judgment_span, self.amount_span):
            if s is not None:
                yield s
        for c in self.charge_refs:
            yield c.span
        for a in self.article_refs:
            yield a.span
        yield from self.sentence.spans()
        for f in self.factors:
            yield f.span
            if f.clause is not None:
                yield f.clause

    @model_validator(mode="after")
    def _spans_match_text(self) -> Judgment:
        for s in self.spans():
            if self.full_text[s.start:s.end] != s.text:
                raise ValueError(f"{self.id}: span [{s.start}, {s.end}) is not {s.text!r}")
        return self


#: why an input record is not a judgment: the line (encoding … not_an_object, see
#: :mod:`buildds.extract.json_lines`), its fields (missing_field … duplicate_id), or the case
#: (multi_defendant, no_defendant, not_first_instance: an appeal or retrial judgment,
#: duplicate_case: a case already read from another document or corpus; part_not_in_text:
#: a mapped part is not found in the mapped full text)
JudgmentRejectReason = Literal["encoding", "line_too_long", "control_character",
                               "malformed_json", "json_limit", "not_an_object", "missing_field",
                               "empty_field", "wrong_type", "bad_value", "duplicate_id",
                               "part_not_in_text", "multi_defendant", "no_defendant",
                               "not_first_instance", "duplicate_case"]


class JudgmentReject(Frozen):
    """A source record that did not become a :class:`Judgment`, and why."""

    dataset: str
    source: str
    line: int
    id: str | None = None
    reason: JudgmentRejectReason
    message: str


# --------------------------------------------------------------------------- injected errors
ErrorType = Literal["E1", "E2", "E3", "E4", "E5", "E6"]
ErrorClass = Literal["charge", "prison_term", "fine"]
#: AR-Bench's grouping of the six error types (seed 003, Figure 2)
ERROR_CLASS: dict[str, str] = {"E1": "charge", "E2": "charge", "E3": "prison_term",
                               "E4": "prison_term", "E5": "fine", "E6": "fine"}


class SpanEdit(Frozen):
    """Replace ``full_text[start:end]`` (which is ``old``) by ``new``. Offsets index the
    ORIGINAL full text; edits of one injection never overlap."""

    start: int
    end: int
    old: str
    new: str


class InjectedJudgment(Frozen):
    """An anomalous judgment: the original, the edits that made it, and the gold correction.

    ``apply(original.full_text, edits) == anomalous_text`` and undoing the edits gives the
    original back exactly (the property tests check both)."""

    id: str
    source_id: str
    error_type: ErrorType
    error_class: ErrorClass
    seed: int
    original: Judgment
    edits: tuple[SpanEdit, ...]
    anomalous_text: str
    #: the anomalous facts / reasoning / judgment parts (spans shifted by the edits)
    facts: str
    reasoning: str
    judgment: str
    #: what a reviewer should restore: e.g. {"charge": "盗窃"}, {"months": 42},
    #: {"fine_yuan": 5000}, {"factor": "自首", "article": 67}
    gold_correction: dict[str, object]
    #: why the injected value is wrong: the tier/range it violates, the confusable pair …
    rationale: dict[str, object] = Field(default_factory=dict)


class InjectionSkip(Frozen):
    """An injection that could not be made validly, and why (never forced)."""

    source_id: str
    error_type: ErrorType
    reason: str
    message: str
