"""OCR for pages without a text layer: scanned PDFs and image files.

Engine: tesseract (through pytesseract), Japanese model ``jpn`` by default; ``lang="auto"``
chooses the model per page (:mod:`buildds.extract.ocr.language`). Every page is

1. rendered with pypdfium2 at ``dpi`` (default 300) in greyscale, in the calling process
   (:mod:`buildds.extract.pdf.ocr_pages`; an image file's frames are loaded in greyscale);
2. cleaned in a worker: a 3×3 median filter (takes out scanner dust and JPEG noise; skipped
   when it would erase thin strokes, see
   :func:`~buildds.extract.ocr.image_cleaning.binarise`) and a global Otsu threshold
   (a pure black-on-white image);
3. read by tesseract with ``--psm 6`` (one uniform block of text), ``image_to_data`` giving
   words with boxes and confidences, which are grouped into lines by
   (block_num, par_num, line_num); for Japanese, a glyph read twice (``エエ`` in one glyph's
   width, or ``有`` ``有`` in two half-width boxes) is read once
   (:func:`~buildds.extract.ocr.tesseract_lines.merge_split_glyphs`), and every line keeps the
   mean and the least confidence of its words (``PdfLine.confidence``/``min_confidence``);
4. tidied for Japanese (:func:`tidy_japanese`): no spaces between Japanese characters, ASCII
   punctuation and single digits in Japanese context turned full-width (``ア.`` → ``ア．``,
   ``(配点 : 2)`` → ``（配点：２）``, ``[No. 1 ]`` → ``［No.１］``), as typeset Japanese prints them.

Why these settings, measured on ``../shared/jbe/scanned`` (200-dpi greyscale JPEG scans with
noise, dust and blur) against the text layer of the original PDFs:

* cleaning matters most. Pages 2–3 of the 2024 民法 booklet, psm 4, accuracy after NFKC (so that
  only recognition counts): no cleaning 0.952, Otsu alone 0.988, median + Otsu 0.991. Without
  it tesseract turns the widely spaced option lines ``１．ア イ  ２．ア エ`` into noise;
* page segmentation mode, with cleaning and the Japanese tidying, 4 pages of each booklet
  (2024 民法 pp. 2, 3, 10, 11 / 2019 憲法 pp. 2, 3, 6, 7): psm 3 0.9885 / 0.9527, psm 4
  0.9885 / 0.9537, psm 6 0.9895 / 0.9556, psm 6 also the fastest (about 10 % less time than
  psm 3). The booklets are single-column, which is what psm 6 assumes; for multi-column
  layouts pass ``psm=3``;
* resolution (psm 6, NFKC): 200 dpi 0.974, 300 dpi 0.989, 400 dpi 0.984; 300 dpi also takes about
  two thirds of the time of 400.

Parallelism: pages go to a :class:`concurrent.futures.ProcessPoolExecutor` (``fork`` start
method on POSIX, so no ``__main__`` guard is needed) with one process per usable core
(``processes=None``: ``os.sched_getaffinity``, else ``os.cpu_count()``); each worker sets
``OMP_THREAD_LIMIT=1`` before pytesseract starts tesseract, so N workers run N
single-threaded tesseracts (a serial run sets it too, for the duration of the call). The pool workers are ordinary
(non-daemonic) processes, so calling this from inside another ``ProcessPoolExecutor`` worker
works. A ``multiprocessing.Pool`` worker is daemonic and may not start processes: there the
pages run serially by default (the outer pool already uses the cores), or, when ``processes``
is given explicitly as more than 1, on threads — each thread drives its own tesseract process,
so the OCR still runs in parallel.

Orientation (``detect_orientation=True``): a page that reads with a mean word confidence below
60 (an upright Japanese page reads at 85–95, a rotated one at about 25) is given to tesseract's
OSD (``image_to_osd``); when OSD says it is 90, 180 or 270 degrees off, the page is rotated and
read again, and the better reading kept. Upright pages never pay for OSD (about 3 s a page).
Without ``osd.traineddata`` the check is skipped with a warning. Boxes of a rotated page are
in the upright page's frame.

Missing pieces raise :class:`~buildds.errors.MissingDependency` before any work starts: no
pytesseract, no tesseract binary, or no language data, with the apt line to install them.

The PDF side lives in :mod:`buildds.extract.pdf`, which imports this package and never the
reverse: :mod:`buildds.extract.pdf.ocr_pages` renders the pages (``ocr_pdf_pages``) and
:mod:`buildds.extract.pdf.page_task` is the task for a caller's own pool (``ocr_page_task``).
This package reads images only.

Modules (the names in ``__all__`` are importable from this one; the rest from their module):

- :mod:`buildds.extract.ocr.dependencies` — :func:`check_tesseract`, :data:`APT_LINE`;
- :mod:`buildds.extract.ocr.job` — the settings a worker gets (``OcrJob``, :func:`make_job`)
  and :class:`OcrPage`;
- :mod:`buildds.extract.ocr.image_cleaning` — median filter + Otsu threshold;
- :mod:`buildds.extract.ocr.tesseract_lines` — tesseract's words → lines with boxes, confidence;
- :mod:`buildds.extract.ocr.language` — the language chosen per page for ``lang="auto"``
  (a quick probe: Japanese → ``jpn``, Traditional Chinese → ``chi_tra``, Latin → ``eng``);
- :mod:`buildds.extract.ocr.one_image` — clean, read and orientation-check one image;
- :mod:`buildds.extract.ocr.worker_pool` — one single-threaded tesseract per core
  (:func:`run_pages`, :func:`worker_init` for a caller's own pool);
- :mod:`buildds.extract.ocr.images` — :func:`ocr_image`, :func:`ocr_image_pages`,
  :func:`ocr_pil_image`, :func:`image_frames`;
- :mod:`buildds.extract.ocr.text` — :func:`tidy_japanese`, :func:`char_accuracy`.
"""

from __future__ import annotations

from buildds.extract.ocr.dependencies import APT_LINE, check_tesseract
from buildds.extract.ocr.images import ocr_image, ocr_image_pages, ocr_pil_image
from buildds.extract.ocr.job import DEFAULT_DPI, DEFAULT_PSM, OcrPage
from buildds.extract.ocr.text import char_accuracy, tidy_japanese

__all__ = [
    "APT_LINE",
    "DEFAULT_DPI",
    "DEFAULT_PSM",
    "OcrPage",
    "char_accuracy",
    "check_tesseract",
    "ocr_image",
    "ocr_image_pages",
    "ocr_pil_image",
    "tidy_japanese",
]
