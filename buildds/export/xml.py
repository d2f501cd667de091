"""ExamBooklet + AnswerKey → one XML document per booklet, validated against the shipped XSD.

The XML is the hand-over between JBE stage 1 (PDFs → XML) and stage 2 (XML → items), and
the place a person reviews extraction. It is serialised deterministically (attribute order
fixed, UTF-8, LF), so the same inputs give the same bytes.

All XML *parsing* here goes through :func:`buildds.safeio.xml.safe_parser`: no DTD loading,
no entity resolution, no network — an input XML file can never make buildds read another
file or fetch a URL.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

from lxml import etree

from buildds import __version__
from buildds.errors import ExportError
from buildds.safeio.xml import safe_parser
from buildds.schema import (
    SUBJECTS,
    AnswerKey,
    AnswerSlot,
    ExamBooklet,
    ExamQuestion,
    LeadIn,
    Option,
    Source,
    Statement,
)

__all__ = [
    "XSD_NAME",
    "booklet_to_xml",
    "parse_exam_xml",
    "parse_xml",
    "validate_exam_xml",
]

XSD_NAME = "jbe_exam.xsd"


def parse_xml(data: bytes, *, source: str) -> etree._Element:
    """Parse untrusted XML safely; errors name the source and line."""
    try:
        return etree.fromstring(data, parser=safe_parser())
    except etree.XMLSyntaxError as exc:
        raise ExportError(f"not well-formed XML: {exc.msg} (line {exc.lineno})",
                          source=source) from exc


@lru_cache(maxsize=1)
def _schema() -> etree.XMLSchema:
    xsd = resources.files("buildds.export").joinpath("schemas", XSD_NAME).read_bytes()
    return etree.XMLSchema(etree.fromstring(xsd, parser=safe_parser()))


def validate_exam_xml(data: bytes, *, source: str) -> None:
    """Raise :class:`ExportError` listing the first schema violations, with line numbers."""
    doc = parse_xml(data, source=source)
    schema = _schema()
    if not schema.validate(doc):
        errors = "; ".join(f"line {e.line}: {e.message}" for e in list(schema.error_log)[:5])
        raise ExportError(f"XML does not match {XSD_NAME}: {errors}", source=source)


def _statement(parent: etree._Element, st: Statement) -> None:
    el = etree.SubElement(parent, "statement", label=st.label)
    if st.slot is not None:
        el.set("slot", str(st.slot))
    el.set("page", str(st.page))
    el.text = st.text or None
    for part in st.parts:
        _statement(el, part)


def booklet_to_xml(booklet: ExamBooklet, key: AnswerKey, *, era: str) -> bytes:
    """Serialise a booklet with its key's answers merged into each ``<slot>``."""
    root = etree.Element("exam")
    root.set("year", str(booklet.year))
    root.set("era", era)
    root.set("subject", booklet.subject.jp)
    root.set("subject_en", booklet.subject.en)
    root.set("source", booklet.source.path)
    root.set("sha256", booklet.source.sha256)
    root.set("key_source", key.source.path)
    root.set("key_sha256", key.source.sha256)
    if key.full_marks is not None:
        root.set("full_marks", str(key.full_marks))
    root.set("generator", f"buildds {__version__}")
    answers = key.by_no()
    for q in booklet.questions:
        qe = etree.SubElement(root, "question", number=str(q.number), points=str(q.points))
        qe.set("pages", str(q.page_first) if q.page_first == q.page_last
               else f"{q.page_first}-{q.page_last}")
        qe.set("slot_mode", q.slot_mode)
        etree.SubElement(qe, "stem").text = q.stem
        if q.remark:
            etree.SubElement(qe, "remark").text = q.remark
        for lead in q.lead_ins:
            le = etree.SubElement(qe, "lead_in", kind=lead.kind)
            if lead.before:
                le.set("before", lead.before)
            le.text = lead.text
        for st in q.statements:
            _statement(qe, st)
        for opt in q.options:
            etree.SubElement(qe, "option", number=str(opt.number)).text = opt.text
        for no in q.slots:
            se = etree.SubElement(qe, "slot", no=str(no))
            a = answers.get(no)
            if a is not None:
                if a.answer is not None:
                    se.set("answer", a.answer)
                if a.points is not None:
                    se.set("points", str(a.points))
                if a.note:
                    se.set("note", a.note)
                if a.unordered:
                    se.set("unordered", "true")
                if a.all_correct:
                    se.set("all_correct", "true")
        for text in q.other:
            etree.SubElement(qe, "other").text = text
    etree.indent(root, space=" ")
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True)


def _int_attr(el: etree._Element, name: str) -> int | None:
    value = el.get(name)
    return int(value) if value is not None else None


def _read_statement(el: etree._Element) -> Statement:
    return Statement(label=el.get("label", ""), text=(el.text or "").strip(),
                     slot=_int_attr(el, "slot"), page=_int_attr(el, "page") or 1,
                     parts=tuple(_read_statement(p) for p in el.findall("statement")))


def parse_exam_xml(data: bytes, *, source: str) -> tuple[ExamBooklet, AnswerKey]:
    """The inverse of :func:`booklet_to_xml`: validate, then read the booklet and its key.

    ``ExamBooklet.era`` is the XML's ``era`` attribute (full-width digits, ``令和６年``)."""
    validate_exam_xml(data, source=source)
    root = parse_xml(data, source=source)
    subject = next(s for s in SUBJECTS.values() if s.jp == root.get("subject"))
    year = int(root.get("year", "0"))
    questions: list[ExamQuestion] = []
    slots: list[AnswerSlot] = []
    for q in root.findall("question"):
        number = int(q.get("number", "0"))
        first, _, last = q.get("pages", "1").partition("-")
        q_slots = q.findall("slot")
        for s in q_slots:
            slots.append(AnswerSlot(
                no=int(s.get("no", "0")), question=number, answer=s.get("answer"),
                points=_int_attr(s, "points"), note=s.get("note"),
                unordered=s.get("unordered") == "true", all_correct=s.get("all_correct") == "true"))
        questions.append(ExamQuestion(
            number=number, points=int(q.get("points", "0")), page_first=int(first),
            page_last=int(last or first), stem=(q.findtext("stem") or "").strip(),
            remark=(q.findtext("remark") or "").strip() or None,
            lead_ins=tuple(LeadIn(kind=e.get("kind", ""), text=(e.text or "").strip(),
                                  before=e.get("before")) for e in q.findall("lead_in")),
            statements=tuple(_read_statement(e) for e in q.findall("statement")),
            options=tuple(Option(number=int(e.get("number", "0")), text=(e.text or "").strip())
                          for e in q.findall("option")),
            slots=tuple(int(s.get("no", "0")) for s in q_slots),
            slot_mode=q.get("slot_mode", "single"),  # type: ignore[arg-type]
            other=tuple((e.text or "").strip() for e in q.findall("other"))))
    booklet = ExamBooklet(year=year, era=root.get("era", ""), subject=subject,
                          source=Source(path=root.get("source", source),
                                        sha256=root.get("sha256", "")),
                          questions=tuple(questions))
    key = AnswerKey(year=year, subject=subject,
                    source=Source(path=root.get("key_source", ""),
                                  sha256=root.get("key_sha256", "")),
                    full_marks=_int_attr(root, "full_marks"), slots=tuple(slots))
    return booklet, key
