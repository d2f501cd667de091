"""Japanese criminal judgments in the courts.go.jp precedent JSON (as the
japanese-law-analysis/data_set repository stores them): one JSON object per file,
``{trial_type, date{era,year,month,day}, case_number, case_name, court_name, [gist],
lawsuit_id, detail_page_link, full_pdf_link, contents}``, ``contents`` the full text.

- :func:`is_jp_precedent` / :func:`probe_jp_precedent`: the format, told by content (a JSON
  object with ``contents`` and ``case_number``), not by the file name;
- :func:`jp_precedent_files`: the files of an input (a file, or a folder's ``*.json``);
- :func:`read_jp_precedents`: per file a :class:`~buildds.schema.judgments.Judgment`
  (dataset ``jp``) or a :class:`~buildds.schema.judgments.JudgmentReject` with its reason —
  never silently dropped; a file is read as one record, so its ``line`` is 1.

The text is split by :func:`~buildds.extract.judgments.jp_sections.split_jp_sections`:
``judgment`` is the 主文, ``facts`` the 罪となるべき事実, ``reasoning`` the 法令の適用 and
量刑の理由 (one stretch of text, from the first to the end of the last). The penalty is read
by :func:`~buildds.extract.judgments.jp_sentence.parse_jp_sentence`, the applied statutes by
:func:`~buildds.extract.judgments.jp_sections.parse_jp_citations` (a judgment without a
法令の適用 takes the special laws its case name names, ``…法違反``). A 主文 that sentences
several defendants (被告人Ａ…, 被告人Ｂ…, 被告人４名) is rejected (``multi_defendant``), as
for the Chinese judgments.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from datetime import date
from pathlib import Path
from typing import Any

from buildds.errors import ExtractError
from buildds.extract.judgments.jp_sections import (
    jp_case_laws,
    parse_jp_citations,
    split_jp_sections,
)
from buildds.extract.judgments.jp_sentence import parse_jp_sentence
from buildds.extract.judgments.spans import make_span
from buildds.schema.core import Source
from buildds.schema.judgments import JpDetails, Judgment, JudgmentReject, Span

__all__ = ["is_jp_precedent", "jp_precedent_files", "probe_jp_precedent", "read_jp_precedents"]

_ERAS = {"Meiji": 1867, "Taisho": 1911, "Showa": 1925, "Heisei": 1988, "Reiwa": 2018}
_DEFENDANT_RE = re.compile(r"被告人(?P<n>[Ａ-ＺA-Z])(?![Ａ-ＺA-Za-zａ-ｚ])")
_MANY_RE = re.compile(r"被告人(?:[0-9０-９]+|[二三四五六七八九十]+|両)名|被告人ら")


def is_jp_precedent(record: object) -> bool:
    """Whether ``record`` is a courts.go.jp precedent object."""
    return isinstance(record, dict) and "contents" in record and "case_number" in record


def jp_precedent_files(path: str | Path) -> list[Path]:
    """``path`` itself, or the ``*.json`` files of a folder (sorted by name)."""
    path = Path(path)
    return sorted(p for p in path.glob("*.json") if p.is_file()) if path.is_dir() else [path]


def _load(path: Path, max_bytes: int | None) -> tuple[Any, str, bytes]:
    """The JSON value of a file, its printable name and its bytes (ExtractError: unreadable,
    not UTF-8, not JSON)."""
    from buildds.safeio.files import read_bytes_limited
    from buildds.safeio.json_strict import loads_strict
    from buildds.safeio.limits import LIMITS
    from buildds.safeio.names import printable_name

    name = printable_name(path.name)
    limit = LIMITS["line_bytes"]
    try:
        data = read_bytes_limited(path, max_bytes=max_bytes or limit.default,
                                  option=limit.how_to_raise)
    except OSError as exc:
        raise ExtractError(f"cannot read ({exc.strerror or exc})", source=str(path)) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ExtractError(f"encoding: not UTF-8 (byte {exc.start})", source=str(path)) from None
    try:
        return loads_strict(text), name, data
    except ValueError as exc:
        raise ExtractError(f"malformed_json: not one JSON object ({exc})", source=str(path)) from None


def probe_jp_precedent(path: str | Path, *, max_bytes: int | None = None) -> str | None:
    """Why ``path`` is not a courts.go.jp precedent file, or None when it is."""
    try:
        value, _, _ = _load(Path(path), max_bytes)
    except ExtractError as exc:
        return exc.message
    if not is_jp_precedent(value):
        return ("not a courts.go.jp precedent: expected one JSON object with contents and "
                "case_number")
    return None


def read_jp_precedents(paths: Sequence[str | Path], *, seen: dict[str, str] | None = None,
                       max_bytes: int | None = None) -> Iterator[Judgment | JudgmentReject]:
    """A :class:`Judgment` or a :class:`JudgmentReject` per file (see the module docstring);
    ``seen`` shares ids across inputs (``duplicate_id``)."""
    from buildds.safeio.hashing import sha256_bytes

    seen = {} if seen is None else seen
    for path in map(Path, paths):
        try:
            value, name, data = _load(path, max_bytes)
        except ExtractError as exc:
            reason = exc.message.split(":", 1)[0]
            yield JudgmentReject(dataset="jp", source=str(path), line=1,
                                 reason=reason if reason in ("encoding", "malformed_json")  # type: ignore[arg-type]
                                 else "bad_value", message=exc.message)
            continue
        yield parse_jp_precedent(value, source=Source(path=name, sha256=sha256_bytes(data)),
                                 seen=seen)


def _reject(source: Source, reason: str, message: str, rid: str | None = None) -> JudgmentReject:
    return JudgmentReject(dataset="jp", source=source.path, line=1, id=rid,
                          reason=reason, message=message)  # type: ignore[arg-type]


def _date(value: object) -> date | None:
    if not isinstance(value, dict) or value.get("era") not in _ERAS:
        return None
    try:
        return date(_ERAS[value["era"]] + int(value["year"]), int(value["month"]), int(value["day"]))
    except (TypeError, ValueError, KeyError):
        return None


def _part(text: str, bounds: tuple[int, int] | None) -> Span | None:
    if bounds is None:
        return None
    start, end = bounds
    body = text[start:end]
    lead = len(body) - len(body.lstrip())
    end = start + len(body.rstrip())
    return make_span(text, start + lead, end, 0) if end > start + lead else None


def _charges(case_name: str) -> tuple[str, ...]:
    name = re.sub(r"[（(][^）)]*[）)]", "", case_name).replace("被告事件", "")
    return tuple(dict.fromkeys(p.strip() for p in re.split(r"[，、,]", name) if p.strip()))


def parse_jp_precedent(record: object, *, source: Source,
                       seen: dict[str, str] | None = None) -> Judgment | JudgmentReject:
    """One precedent object as a :class:`Judgment`, or why it cannot be one."""
    if not is_jp_precedent(record):
        return _reject(source, "missing_field", "not a courts.go.jp precedent: no contents "
                       "or case_number field")
    assert isinstance(record, dict)
    for key in ("contents", "case_number", "case_name", "court_name"):
        if key in record and not isinstance(record[key], str):
            return _reject(source, "wrong_type", f"{key} is not a string")
    text: str = record["contents"]
    rid = f"jp-{record.get('lawsuit_id') or record['case_number']}"
    if not text.strip():
        return _reject(source, "empty_field", "contents is empty (the PDF was not converted)", rid)
    seen = {} if seen is None else seen
    if rid in seen:
        return _reject(source, "duplicate_id", f"id {rid} already read from {seen[rid]}", rid)
    sections = split_jp_sections(text)
    main, facts = _part(text, sections.get("main")), _part(text, sections.get("facts"))
    if main is None:
        return _reject(source, "missing_field", "no 主文 section", rid)
    if facts is None:
        return _reject(source, "missing_field", "no 罪となるべき事実 section", rid)
    names = set(_DEFENDANT_RE.findall(main.text))
    if len(names) > 1 or _MANY_RE.search(main.text):
        return _reject(source, "multi_defendant", f"the 主文 sentences several defendants "
                       f"({', '.join(sorted(names)) or '被告人ら'})", rid)
    if "被告人" not in main.text:
        return _reject(source, "no_defendant", "the 主文 names no 被告人", rid)
    return _judgment(record, text, rid, source, sections, main, facts, seen)


def _judgment(record: dict[str, Any], text: str, rid: str, source: Source,
              sections: dict[str, tuple[int, int]], main: Span, facts: Span,
              seen: dict[str, str]) -> Judgment | JudgmentReject:
    parts = [sections[k] for k in ("law", "sentencing") if k in sections]
    reasoning = _part(text, (min(p[0] for p in parts), max(p[1] for p in parts))) if parts else None
    law = sections.get("law")
    cites = parse_jp_citations(text[law[0]:law[1]], law[0]) if law else None
    case_name = record.get("case_name") or ""
    other = cites.other_laws if cites else jp_case_laws(case_name)
    sentence, orders = parse_jp_sentence(main.text, main.start)
    names = _DEFENDANT_RE.findall(main.text)
    seen[rid] = source.path
    try:
        return Judgment(
            id=rid, source=source, dataset="jp", line=1, facts=facts.text,
            reasoning=reasoning.text if reasoning else "", judgment=main.text, full_text=text,
            facts_span=facts, reasoning_span=reasoning, judgment_span=main,
            charges=_charges(case_name),
            articles=tuple(dict.fromkeys(r.number for r in cites.refs)) if cites else (),
            article_refs=tuple(cites.refs) if cites else (), sentence=sentence,
            defendants=(f"被告人{names[0]}" if names else "被告人",),
            judgment_date=_date(record.get("date")),
            jp=JpDetails(case_number=record["case_number"], case_name=case_name,
                         court_name=record.get("court_name") or "",
                         trial_type=str(record.get("trial_type") or ""),
                         detention_credit_days=orders.detention_credit_days,
                         confiscation=orders.confiscation, suspended=orders.suspended,
                         penal_articles=tuple(cites.penal) if cites else (),
                         general_articles=tuple(cites.general) if cites else (),
                         other_laws=tuple(other)))
    except ValueError as exc:  # a span that does not fit: a parser bug, named
        seen.pop(rid, None)
        return _reject(source, "bad_value", f"cannot be parsed: {exc}", rid)
