"""Stage 1, extract: raw files → text with provenance (file, page, bounding box).

Every file a build reads is read here (through :mod:`buildds.safeio`); nothing above this
stage opens an input document. A sub-package per input kind, each with its own ``__all__``:

* :mod:`.pdf` — PDF pages → lines in reading order (pypdfium2), OCR for pages without text;
* :mod:`.ocr` — tesseract OCR of images (cleaning, worker pool, Japanese tidying);
* :mod:`.docx` — Word files with tracked changes, comments and numbering (raw OOXML);
* :mod:`.contracts` — a contract in any format (.docx, .pdf, scans, images, .odt);
* :mod:`.jbe` — bar-exam booklets and answer keys → questions and answer rows;
* :mod:`.judgments` — JuDGE/CAIL criminal judgments (JSON lines) → parsed judgments;
* :mod:`.json_lines` (strict JSON lines), :mod:`.page_limit` (the page limit of a document).

This package itself exports nothing: import from the sub-package.
"""

__all__: list[str] = []
