"""Contract images (.png .jpg .tif …) → one OCR block per line.

Every frame of the image is OCR'd with orientation detection on; each OCR line becomes a
:class:`DocBlock` whose ``page`` is the frame number. :func:`finish_image` assembles the
document from the OCR'd frames (also used by the parallel batch); :func:`read_image` OCRs and
assembles one file.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from buildds.extract.contracts.confidence import (
    low_confidence_problems,
    mean_confidence,
    page_languages,
)
from buildds.extract.contracts.errors import contract_error
from buildds.safeio.hashing import sha256_bytes
from buildds.schema import Problem, Source
from buildds.schema.contracts import ContractDocument, DocBlock

if TYPE_CHECKING:
    from buildds.extract.ocr import OcrPage


def finish_image(name: str, data: bytes, results: list[OcrPage], *, ocr_lang: str,
                  pages: Sequence[int] | None) -> ContractDocument:
    """Assemble an image's document from its OCR'd frames (all of them, in frame order)."""
    problems: list[Problem] = []
    if pages:
        results = [r for n, r in enumerate(results, start=1) if n in set(pages)]
        problems.append(Problem(stage="extract", code="pages_subset", severity="warning",
                                source=name, message=f"only frame(s) {sorted(set(pages))} read"))
    blocks: list[DocBlock] = []
    confidences: dict[int, float] = {}
    for frame in results:
        confidences[frame.page] = frame.confidence
        for line in frame.lines:
            blocks.append(DocBlock(index=len(blocks), text=line.text, page=frame.page,
                                   bbox=line.bbox, source_index=len(blocks)))
    if not blocks:
        raise contract_error(f"no text found (OCR with {ocr_lang} read no text in the image)",
                             name, "no_text")
    langs = page_languages(results, ocr_lang)
    problems += low_confidence_problems(confidences, langs, name)
    read_conf = [c for r in results if r.lines for c in [r.confidence]]
    return ContractDocument(source=Source(path=name, sha256=sha256_bytes(data)),
                            format="image", blocks=tuple(blocks), pages=len(confidences),
                            ocr_confidence=mean_confidence(read_conf),
                            ocr_page_confidence={n: round(c, 1) for n, c in
                                                 sorted(confidences.items())},
                            ocr_page_lang=langs, problems=tuple(problems))


def read_image(path: Path, name: str, data: bytes, *, ocr_lang: str, processes: int | None,
                pages: Sequence[int] | None, max_pages: int | None) -> ContractDocument:
    from buildds.extract.ocr import ocr_image_pages

    results = ocr_image_pages(path, lang=ocr_lang, processes=processes, source_path=name,
                              detect_orientation=True, max_pages=max_pages)
    return finish_image(name, data, results, ocr_lang=ocr_lang, pages=pages)
