"""The ``contracts`` report's OCR section: every OCR'd page, the language it was read with
(chosen per page with ``--ocr-lang auto``, :mod:`buildds.extract.ocr.language`) and its
confidence, so a page read in the wrong language or badly is found without opening the
documents."""

from __future__ import annotations

from collections.abc import Sequence

from buildds.schema.contracts import ContractFileEntry

__all__ = ["ocr_pages_markdown"]


def ocr_pages_markdown(files: Sequence[ContractFileEntry]) -> list[str]:
    """The ``## OCR pages`` section of report.md (no lines when no page was OCR'd): one row
    per OCR'd page — file, page, language, confidence — low confidence marked."""
    from buildds.extract.contracts import LOW_CONFIDENCE

    rows = []
    for f in files:
        langs = f.ocr_page_lang
        for page in sorted(set(f.ocr_page_confidence) | set(langs)):
            conf = f.ocr_page_confidence.get(page)
            low = " (low)" if conf is not None and conf < LOW_CONFIDENCE else ""
            name = f.file.replace("|", "\\|")
            shown = "–" if conf is None else f"{conf:.1f}{low}"
            rows.append(f"| {name} | {page} | {langs.get(page, '–')} | {shown} |")
    if not rows:
        return []
    return ["", "## OCR pages", "", "| file | page | language | confidence |",
            "|---|---:|---|---:|", *rows]
