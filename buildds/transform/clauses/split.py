"""Clause starts → :class:`Clause` records: :func:`split_clauses` (the rules are in the
package docstring, :mod:`buildds.transform.clauses`).

Each clause's body lines are grouped into 項 ("para") and 号 ("item") units, wrapped PDF/OCR
lines re-joined with :func:`join_wrapped`; in the last numbered clause the first signature
line starts the ``signature`` clause.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from buildds.schema.contracts import Clause, DocBlock
from buildds.text import join_wrapped, normalize_text
from buildds.transform.clauses.english import en_para_item, en_starts, is_en_signature
from buildds.transform.clauses.japanese import is_ja_date, is_ja_signature, ja_para_item, ja_starts
from buildds.transform.clauses.lines import (
    ClauseStart,
    Line,
    block_spans,
    body_blocks,
    detect_language,
    make_lines,
)
from buildds.transform.clauses.roles import cover_end, definitions_role, recitals_start
from buildds.transform.clauses.structure import ends_paragraph, larger_font, toc_lines

__all__ = ["Language", "split_clauses"]

Language = Literal["auto", "ja", "en"]


def _is_signature(det: str, lang: str) -> bool:
    return is_en_signature(det) if lang == "en" else is_ja_signature(det)


def _add_signature(starts: list[ClauseStart], lines: Sequence[Line], lang: str) -> None:
    numbered = [k for k, s in enumerate(starts) if s.kind in ("article", "section", "supplementary")]
    if not numbered:
        return
    # an execution block after the schedules ("Signed by … for and on behalf of …")
    for k in range(numbered[-1] + 1, len(starts)):
        if starts[k].kind != "appendix":
            continue
        end = starts[k + 1].line if k + 1 < len(starts) else len(lines)
        for i in range(starts[k].line + 1, end):
            if _is_signature(lines[i].det, lang) and (lang == "en" or not is_ja_date(lines[i].det)):
                starts.insert(k + 1, ClauseStart(i, "signature"))
                break
        else:
            continue
        break
    k = numbered[-1]
    begin = starts[k].line + 1
    end = starts[k + 1].line if k + 1 < len(starts) else len(lines)
    for i in range(begin, end):
        if _is_signature(lines[i].det, lang):
            starts.insert(k + 1, ClauseStart(i, "signature"))
            return


def _add_preamble(starts: list[ClauseStart], first_line: list[int], lines: Sequence[Line],
                  lang: str) -> None:
    """Lines before the first clause are the preamble (``other`` without clauses); an
    English preamble's recitals and cover page are their own clauses."""
    if not starts or first_line[0] > 0:
        starts.insert(0, ClauseStart(0, "preamble" if starts else "other"))
        first_line.insert(0, 0)
    if lang == "en" and starts[0].kind == "preamble":
        _add_recitals(starts, first_line, lines)
        end = first_line[1] if len(first_line) > 1 else len(lines)
        cover = cover_end(lines, end, toc_lines(lines)) if starts[0].kind == "preamble" else None
        if cover is not None:
            starts[0] = ClauseStart(0, "cover")
            starts.insert(1, ClauseStart(cover, "preamble"))
            first_line.insert(1, cover)


def _add_recitals(starts: list[ClauseStart], first_line: list[int],
                  lines: Sequence[Line]) -> None:
    """Cut the English preamble's recitals (:func:`recitals_start`) into their own clause."""
    end = first_line[1] if len(first_line) > 1 else len(lines)
    found = recitals_start(lines, first_line[0], end)
    if found is None:
        return
    i, bare = found
    start = ClauseStart(i, "recitals", heading=lines[i].text if bare else None,
                        heading_line=i if bare else None)
    if i == first_line[0]:
        starts[0] = start
    else:
        starts.insert(1, start)
        first_line.insert(1, i)


def _units(body_lines: Sequence[tuple[Line, str]], lang: str,
           ends: dict[int, bool] | None = None) -> list[tuple[str, list[str]]]:
    """Group body lines into 項 ("para") and 号 ("item") units; a PDF line after one that
    ends its paragraph (``ends``, by ``id`` of the line) starts a new unit."""
    units: list[tuple[str, list[str]]] = []
    para_x: float | None = None
    para_level: int | None = None
    prev_ends = False
    for ln, text in body_lines:
        after_end, prev_ends = prev_ends, (ends or {}).get(id(ln), False)
        det = normalize_text(text, digits="halfwidth")
        x = ln.block.bbox[0] if ln.block.bbox else None
        if lang == "ja":
            is_para, is_item = ja_para_item(det)
        else:
            is_para, is_item = en_para_item(det)
        if is_para:
            if para_x is None and para_level is None:
                para_x, para_level = x, ln.block.level
            deeper = (x is not None and para_x is not None and x > para_x + 6) or (
                ln.block.level is not None and para_level is not None and ln.block.level > para_level
            )
            units.append(("item" if deeper else "para", [text]))
        elif is_item:
            units.append(("item", [text]))
        elif units and ln.is_line and not after_end:
            units[-1][1].append(text)
        else:
            units.append(("para", [text]))
    return units


def _original_text(blocks: Sequence[DocBlock]) -> str:
    texts = [normalize_text(t) for b in blocks if (t := b.in_view("original")) is not None]
    if all(b.bbox is not None for b in blocks):
        return join_wrapped(texts)
    return "\n".join(texts)


def _find_starts(lines: Sequence[Line], lang: str, ends: Sequence[bool]) -> list[ClauseStart]:
    """Structure first: TOC lines are left out, paragraph ends and heading styles / fonts
    are handed to the language's rules."""
    toc = toc_lines(lines)
    if lang == "ja":
        return ja_starts(lines, toc=toc, ends=ends)
    fonts = larger_font(lines)
    # Word heading styles and PDF outline entries are "heading" blocks; PDF fonts too
    headings = [i not in toc and (ln.block.kind == "heading" or fonts[i])
                for i, ln in enumerate(lines)]
    return en_starts(lines, toc=toc, headings=headings)


def split_clauses(
    blocks: Sequence[DocBlock], *, source: str, language: Language = "auto"
) -> list[Clause]:
    """Cut ``blocks`` into clauses (see the module docstring for the rules)."""
    body = body_blocks(blocks)
    if not body:
        return []
    _, spans = block_spans(body)
    lines = make_lines(body)
    if not lines:
        return []
    lang = detect_language(lines) if language == "auto" else language
    ends = ends_paragraph(lines, lang)
    starts = _find_starts(lines, lang, ends)
    end_of = {id(ln): e for ln, e in zip(lines, ends, strict=True)}
    _add_signature(starts, lines, lang)
    first_line = [int(s.extra.get("start", s.line)) for s in starts]  # type: ignore[call-overload]
    _add_preamble(starts, first_line, lines, lang)

    clauses: list[Clause] = []
    for k, s in enumerate(starts):
        begin = first_line[k]
        end = first_line[k + 1] if k + 1 < len(starts) else len(lines)
        if begin >= end:
            continue
        seg = lines[begin:end]
        # Blocks absent from the accepted view (deleted paragraphs) belong to the clause
        # before them; a clause starting inside a block (after a <w:br/>) shares that block.
        pos_start = 0 if k == 0 else seg[0].pos
        if end < len(lines):
            pos_end = lines[end].pos - 1 if lines[end].first else lines[end].pos
        else:
            pos_end = len(body) - 1
        pos_end = max(pos_end, seg[-1].pos)
        seg_blocks = body[pos_start : pos_end + 1]

        body_lines: list[tuple[Line, str]] = []
        for j, ln in enumerate(seg):
            idx = begin + j
            if idx == s.heading_line:
                continue
            if idx == s.line and s.kind in ("article", "section", "other"):
                if s.body:
                    body_lines.append((ln, s.body))
                continue
            if idx == s.line and s.kind in ("supplementary", "appendix"):
                continue
            body_lines.append((ln, ln.text))
        heading = s.heading
        if (lang == "en" and s.kind == "article" and heading is None and body_lines
                and not s.body and len(body_lines[0][1]) <= 80
                and body_lines[0][1].upper() == body_lines[0][1]):
            heading = body_lines.pop(0)[1]
        if s.kind in ("signature", "cover"):  # names, addresses, dates: one unit per line
            units = [("para", [text]) for _, text in body_lines]
        else:
            units = _units(body_lines, lang, end_of)
        joined = [join_wrapped(u) if len(u) > 1 else u[0] for _, u in units]
        changed = any(b.changed for b in seg_blocks)
        clauses.append(
            Clause(
                source=source,
                kind=s.kind,
                number=s.number,
                number_text=s.number_text,
                heading=heading,
                text="\n".join(joined),
                paragraphs=tuple(t for (kind, _), t in zip(units, joined) if kind == "para"),
                items=tuple(t for (kind, _), t in zip(units, joined) if kind == "item"),
                page=next((b.page for b in seg_blocks if b.page is not None), None),
                block_start=seg_blocks[0].index,
                block_end=seg_blocks[-1].index,
                char_span=(spans[pos_start][0], spans[pos_end][1]),
                original_text=_original_text(seg_blocks) if changed else None,
                changed=changed,
                role=definitions_role(s.kind, heading, joined),
            )
        )
    return clauses
