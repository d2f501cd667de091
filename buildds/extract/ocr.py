"""OCR for pages without a text layer: scanned PDFs and image files.

Engine: tesseract (through pytesseract), Japanese model ``jpn`` by default. Every page is

1. rendered with pypdfium2 at ``dpi`` (default 300) in greyscale, in the calling process;
2. cleaned in a worker: a 3×3 median filter (takes out scanner dust and JPEG noise; skipped
   when it would erase thin strokes, see :func:`_binarise`) and a global Otsu threshold
   (a pure black-on-white image);
3. read by tesseract with ``--psm 6`` (one uniform block of text), ``image_to_data`` giving
   words with boxes and confidences, which are grouped into lines by
   (block_num, par_num, line_num);
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
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import math
import multiprocessing
import os
import statistics
import threading
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from buildds.errors import ExtractError, MissingDependency, PdfError
from buildds.extract.ocr_text import char_accuracy, tidy_japanese
from buildds.extract.pdf import normalise_spaces, open_pdf
from buildds.schema import BBox, PdfLine

__all__ = [
    "APT_LINE",
    "DEFAULT_DPI",
    "DEFAULT_PSM",
    "OcrPage",
    "char_accuracy",
    "check_tesseract",
    "ocr_image",
    "ocr_image_pages",
    "ocr_page_task",
    "ocr_pdf_pages",
    "ocr_pil_image",
    "tidy_japanese",
]

APT_LINE = "apt-get install tesseract-ocr tesseract-ocr-jpn"
DEFAULT_DPI = 300
DEFAULT_PSM = 6
#: below this mean word confidence a page is checked for rotation (see module docstring)
ORIENTATION_CHECK_BELOW = 60.0
#: OSD's own confidence needed before a page is rotated
_MIN_OSD_CONFIDENCE = 1.0
# Ink height of a line of Japanese text is about 0.9 em (kanji fill ~90% of the body).
_INK_TO_EM = 0.9
# Otsu classes closer than this (grey levels) mean there is no text to separate
_MIN_CONTRAST = 48
# the median filter is skipped when it would erase this share of the ink (thin strokes)
_MEDIAN_MAX_INK_LOSS = 0.06
# Lines this short whose every word is below this confidence are scanner dust, not text.
_DUST_MAX_CHARS = 2
_DUST_MAX_CONF = 40.0


@dataclass(frozen=True)
class OcrPage:
    """One page as tesseract read it.

    ``lines`` are in tesseract's reading order with boxes in PDF points from the top-left
    corner of the (upright) page; ``confidence`` is the mean word confidence 0–100 (0 when
    no text was found); ``rotation`` is the clockwise rotation in degrees that was applied
    before reading (0 unless orientation detection turned the page)."""

    lines: tuple[PdfLine, ...]
    confidence: float
    page: int = 1
    rotation: int = 0

    @property
    def text(self) -> str:
        return "\n".join(line.text for line in self.lines)


# --------------------------------------------------------------------------- dependencies
_CHECKED: dict[tuple[str, str], frozenset[str]] = {}
_CHECK_LOCK = threading.Lock()


def _apt_line(missing_langs: Sequence[str] = ()) -> str:
    extra = [
        f"tesseract-ocr-{lang.lower().replace('_', '-')}"
        for lang in missing_langs
        if lang not in ("jpn", "eng", "osd")
    ]
    return " ".join([APT_LINE, *extra])


def _import_pytesseract() -> Any:
    try:
        import pytesseract
    except ImportError as exc:  # pragma: no cover - the [ocr] extra is installed in CI
        raise MissingDependency("pytesseract", "ocr", hint=f"and the engine: {APT_LINE}") from exc
    return pytesseract


def check_tesseract(lang: str = "jpn") -> frozenset[str]:
    """Make sure pytesseract, the tesseract binary and the language data for ``lang``
    (``"jpn"``, ``"jpn+eng"`` …) are there; return the installed languages.

    Tesseract is run once per command (``pytesseract.pytesseract.tesseract_cmd``) and
    TESSDATA_PREFIX; it is asked again only when a language seems to be missing (it may have
    been installed since)."""
    pytesseract = _import_pytesseract()
    key = (str(pytesseract.pytesseract.tesseract_cmd), os.environ.get("TESSDATA_PREFIX", ""))
    wanted = [part for part in lang.split("+") if part]
    with _CHECK_LOCK:
        installed = _CHECKED.get(key)
        if installed is None or not all(part in installed for part in wanted):
            installed = _CHECKED[key] = _probe(pytesseract, key[0])
    missing = [part for part in wanted if part not in installed]
    if missing:
        raise MissingDependency(
            f"tesseract language data {'+'.join(missing)!r}",
            "ocr",
            hint=f"install it with: {_apt_line(missing)}",
        )
    return installed


def _probe(pytesseract: Any, cmd: str) -> frozenset[str]:
    try:
        pytesseract.get_tesseract_version()
        return frozenset(pytesseract.get_languages())
    except (pytesseract.TesseractNotFoundError, OSError) as exc:
        raise MissingDependency(
            f"the tesseract OCR engine ({cmd!r})",
            "ocr",
            hint=f"tesseract is a system package: {APT_LINE}",
        ) from exc
    except SystemExit as exc:  # pytesseract exits on a version it cannot parse
        raise MissingDependency(
            f"a usable tesseract (>= 3.05) at {cmd!r}", "ocr", hint=APT_LINE
        ) from exc


# --------------------------------------------------------------------------- Japanese text
def _is_japanese(lang: str) -> bool:
    return any(part.split("_")[0] == "jpn" for part in lang.split("+"))


@dataclass(frozen=True)
class _Job:
    """What a worker needs to read one image (picklable)."""

    lang: str
    psm: int
    dpi: float
    detect_orientation: bool
    osd_available: bool
    source: str
    timeout: int = 0


def _otsu(img: Any) -> tuple[int, float] | None:
    """Otsu's threshold of a greyscale image and the gap between the two class means
    (``None`` for an image of one grey level)."""
    hist = img.histogram()
    total = sum(hist)
    sum_all = sum(i * h for i, h in enumerate(hist))
    weight_b = sum_b = 0.0
    best, found = -1.0, None
    for t in range(256):
        weight_b += hist[t]
        if weight_b == 0:
            continue
        weight_f = total - weight_b
        if weight_f == 0:
            break
        sum_b += t * hist[t]
        mean_b = sum_b / weight_b
        mean_f = (sum_all - sum_b) / weight_f
        between = weight_b * weight_f * (mean_b - mean_f) ** 2
        if between > best:
            best, found = between, (t, mean_f - mean_b)
    return found


def _binarise(img: Any) -> Any:
    """Black text on white for tesseract: a 3×3 median filter, then Otsu's global threshold.

    The median filter takes out scanner dust, JPEG noise and ragged edges (0.986 → 0.990
    character accuracy on the JBE scans) but also erases the 1–2 px horizontal strokes of
    Mincho rendered crisply (三 → ：; 0.985 → 0.904 on a clean 300-dpi rendering). So it is
    used only when it removes little ink (under 6%: about 2% on the scans, 12% on clean
    renderings). An image without real contrast (blank, uniformly grey) is left as it is."""
    from PIL import ImageChops, ImageFilter

    plain = _otsu(img)
    if plain is None or plain[1] < _MIN_CONTRAST:
        return img
    t = plain[0]
    smooth = img.filter(ImageFilter.MedianFilter(3))
    ink = img.point(lambda v: 255 if v <= t else 0)
    erased = ImageChops.multiply(ink, smooth.point(lambda v: 255 if v > t else 0))
    ink_pixels = ink.histogram()[255]
    if ink_pixels and erased.histogram()[255] / ink_pixels < _MEDIAN_MAX_INK_LOSS:
        smoothed = _otsu(smooth)
        if smoothed is not None:
            img, t = smooth, smoothed[0]
    return img.point(lambda v: 255 if v > t else 0)


def _words(
    data: dict[str, list[Any]],
) -> Iterator[tuple[tuple[int, int, int], str, float, tuple[int, int, int, int]]]:
    for i, text in enumerate(data.get("text", [])):
        if data["level"][i] != 5 or not str(text).strip():
            continue
        try:
            conf = float(data["conf"][i])
        except (TypeError, ValueError):
            conf = -1.0
        key = (int(data["block_num"][i]), int(data["par_num"][i]), int(data["line_num"][i]))
        box = (
            int(data["left"][i]),
            int(data["top"][i]),
            int(data["width"][i]),
            int(data["height"][i]),
        )
        yield key, str(text), conf, box


def _build_page(data: dict[str, list[Any]], job: _Job, page: int, rotation: int) -> OcrPage:
    scale = job.dpi / 72.0
    japanese = _is_japanese(job.lang)
    grouped: dict[tuple[int, int, int], list[tuple[str, float, tuple[int, int, int, int]]]] = {}
    for key, text, conf, box in _words(data):
        grouped.setdefault(key, []).append((text, conf, box))
    lines: list[PdfLine] = []
    confidences: list[float] = []
    for words in grouped.values():
        text = normalise_spaces(" ".join(w[0] for w in words))
        if japanese:
            text = tidy_japanese(text)
        confs = [w[1] for w in words if w[1] >= 0]
        if not text:
            continue
        if len(text.replace(" ", "")) <= _DUST_MAX_CHARS and all(c < _DUST_MAX_CONF for c in confs):
            continue  # a speck of dust read as a character
        confidences.extend(confs)
        heights = [w[2][3] for w in words]
        typical = statistics.median(heights)
        # tesseract's LSTM gives some glyphs a box as tall as the whole text row; leave them
        # out of the line box when the others agree
        boxes = [w[2] for w in words if w[2][3] <= typical * 1.5] or [w[2] for w in words]
        x0 = min(b[0] for b in boxes)
        top = min(b[1] for b in boxes)
        x1 = max(b[0] + b[2] for b in boxes)
        bottom = max(b[1] + b[3] for b in boxes)
        bbox: BBox = (
            round(x0 / scale, 2),
            round(top / scale, 2),
            round(x1 / scale, 2),
            round(bottom / scale, 2),
        )
        heights = sorted(b[3] for b in boxes)
        ink = heights[math.ceil(0.75 * (len(heights) - 1))]  # small kana and 、 pull a median down
        font_size = round(ink / scale / _INK_TO_EM, 1)
        lines.append(PdfLine(text=text, bbox=bbox, font_size=font_size, page=page))
    confidence = round(sum(confidences) / len(confidences), 2) if confidences else 0.0
    return OcrPage(lines=tuple(lines), confidence=confidence, page=page, rotation=rotation)


def _read(img: Any, job: _Job, page: int, rotation: int = 0) -> OcrPage:
    import pytesseract

    config = f"--psm {job.psm} --dpi {round(job.dpi)}"
    data = pytesseract.image_to_data(
        img, lang=job.lang, config=config, output_type=pytesseract.Output.DICT, timeout=job.timeout
    )
    return _build_page(data, job, page, rotation)


def _osd_rotation(img: Any, job: _Job) -> int:
    """Clockwise degrees to turn ``img`` upright according to tesseract OSD (0 when unsure)."""
    import pytesseract

    try:
        osd = pytesseract.image_to_osd(
            img,
            config=f"--dpi {round(job.dpi)}",
            output_type=pytesseract.Output.DICT,
            timeout=job.timeout,
        )
    except pytesseract.TesseractError:
        return 0  # too few characters to tell
    rotate = int(osd.get("rotate", 0)) % 360
    if rotate in (90, 180, 270) and float(osd.get("orientation_conf", 0)) >= _MIN_OSD_CONFIDENCE:
        return rotate
    return 0


def _ocr_one(args: tuple[_Job, int, Any]) -> OcrPage:
    """Worker: clean one greyscale image, read it, check its orientation."""
    job, page, image = args
    import pytesseract
    from PIL import Image

    if isinstance(image, tuple):  # (mode, size, bytes) as sent to a process
        image = Image.frombytes(*image)
    try:
        clean = _binarise(image)
        result = _read(clean, job, page)
        if (
            job.detect_orientation
            and job.osd_available
            and result.lines
            and result.confidence < ORIENTATION_CHECK_BELOW
        ):
            rotate = _osd_rotation(clean, job)
            if rotate:
                # PIL rotates counter-clockwise; OSD's "rotate" is clockwise
                turned = _read(clean.rotate(-rotate, expand=True, fillcolor=255), job, page, rotate)
                if turned.confidence > result.confidence:
                    result = turned
        return result
    except pytesseract.TesseractError as exc:
        raise ExtractError(
            f"tesseract failed: {exc.message}", source=job.source, page=page
        ) from None
    except RuntimeError as exc:  # pytesseract's timeout
        raise ExtractError(f"tesseract: {exc}", source=job.source, page=page) from None


# --------------------------------------------------------------------------- running pages
def _worker_init() -> None:
    # Before pytesseract spawns anything: one OpenMP thread per tesseract, one tesseract
    # per worker process.
    os.environ["OMP_THREAD_LIMIT"] = "1"


@contextlib.contextmanager
def _single_thread_tesseract() -> Iterator[None]:
    """OMP_THREAD_LIMIT=1 for tesseracts started from this process, restored afterwards
    (a value the user set is left alone)."""
    if "OMP_THREAD_LIMIT" in os.environ:
        yield
        return
    os.environ["OMP_THREAD_LIMIT"] = "1"
    try:
        yield
    finally:
        os.environ.pop("OMP_THREAD_LIMIT", None)


def _cpu_count() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return os.cpu_count() or 1


@contextlib.contextmanager
def _worker_deaths(source: str) -> Iterator[None]:
    try:
        yield
    except cf.BrokenExecutor as exc:
        raise ExtractError(
            "an OCR worker process died (out of memory?); try fewer processes", source=source
        ) from exc


def _same(image: Any) -> Any:
    return image


def _to_bytes(image: Any) -> tuple[str, tuple[int, int], bytes]:
    return (image.mode, image.size, image.tobytes())


def _run(
    job: _Job, items: Iterator[tuple[int, Any]], count: int, processes: int | None
) -> dict[int, OcrPage]:
    """Read ``count`` (page, PIL image) pairs produced lazily by ``items``."""
    daemonic = multiprocessing.current_process().daemon
    if processes is None:
        workers = 1 if daemonic else _cpu_count()
    else:
        workers = max(1, int(processes))
    workers = min(workers, count)
    results: dict[int, OcrPage] = {}
    if workers <= 1:
        with _single_thread_tesseract():
            for page, image in items:
                results[page] = _ocr_one((job, page, image))
        return results

    executor: cf.Executor
    env: contextlib.AbstractContextManager[None]
    if daemonic:
        # A multiprocessing.Pool worker may not start processes; threads can still each
        # drive a tesseract subprocess.
        executor = cf.ThreadPoolExecutor(workers)
        pack: Callable[[Any], Any] = _same
        env = _single_thread_tesseract()
    else:
        context = multiprocessing.get_context("fork" if os.name == "posix" else None)
        executor = cf.ProcessPoolExecutor(workers, mp_context=context, initializer=_worker_init)
        pack = _to_bytes
        env = contextlib.nullcontext()
    with env, executor, _worker_deaths(job.source):
        pending: dict[cf.Future[OcrPage], int] = {}
        try:
            for page, image in items:
                # keep at most two images per worker in flight (a 300-dpi A4 page is ~9 MB)
                while len(pending) >= 2 * workers:
                    done, _ = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
                    for fut in done:
                        results[pending.pop(fut)] = fut.result()
                pending[executor.submit(_ocr_one, (job, page, pack(image)))] = page
            for fut in cf.as_completed(list(pending)):
                results[pending.pop(fut)] = fut.result()
        except BaseException:
            for fut in pending:
                fut.cancel()
            raise
    return results


def _make_job(
    lang: str, psm: int, dpi: float, detect_orientation: bool, source: str, timeout: int
) -> _Job:
    installed = check_tesseract(lang)
    osd = "osd" in installed
    if detect_orientation and not osd:
        warnings.warn(
            "tesseract's osd.traineddata is not installed, so page orientation is not checked "
            "(apt-get install tesseract-ocr-osd)",
            RuntimeWarning,
            stacklevel=3,
        )
    return _Job(
        lang=lang,
        psm=psm,
        dpi=float(dpi),
        detect_orientation=detect_orientation,
        osd_available=osd,
        source=source,
        timeout=timeout,
    )


def _render_page(doc: Any, number: int, dpi: float, name: str) -> Any:
    """Page ``number`` (1-based) of an open pdfium document as a greyscale PIL image."""
    import pypdfium2 as pdfium

    try:
        page = doc[number - 1]
        try:
            bitmap = page.render(scale=dpi / 72, grayscale=True)
            image = bitmap.to_pil()
        finally:
            page.close()
    except pdfium.PdfiumError as exc:
        raise PdfError(f"cannot render page ({exc})", source=name, page=number) from exc
    return image.convert("L")


def ocr_pdf_pages(
    path: str | Path,
    pages: Sequence[int],
    *,
    lang: str = "jpn",
    processes: int | None = None,
    password: str | None = None,
    source_path: str | None = None,
    dpi: int = DEFAULT_DPI,
    psm: int = DEFAULT_PSM,
    detect_orientation: bool = True,
    timeout: int = 0,
) -> dict[int, OcrPage]:
    """OCR the listed pages (1-based) of a PDF; returns ``{page: OcrPage}``.

    Pages are rendered here (pdfium is not thread-safe and stays in this process) and read
    by ``processes`` workers (default: one per core; see the module docstring for what
    happens inside a pool worker). ``timeout`` (seconds, 0 = none) bounds each tesseract run.
    Raises :class:`MissingDependency` when tesseract or the language data is missing,
    :class:`PdfError` for an unreadable PDF or a page out of range and :class:`ExtractError`
    when tesseract fails on a page."""
    path = Path(path)
    name = source_path or str(path)
    wanted = list(dict.fromkeys(int(p) for p in pages))
    if not wanted:
        return {}
    job = _make_job(lang, psm, dpi, detect_orientation, name, timeout)
    doc, _ = open_pdf(path, password=password, display_name=name)
    try:
        for number in wanted:
            if not 1 <= number <= len(doc):
                raise PdfError(f"no such page (the PDF has {len(doc)})", source=name, page=number)

        def rendered() -> Iterator[tuple[int, Any]]:
            for number in wanted:
                yield number, _render_page(doc, number, dpi, name)

        results = _run(job, rendered(), len(wanted), processes)
    finally:
        doc.close()
    return {number: results[number] for number in wanted}


def _image_frames(path: Path, name: str) -> tuple[list[Any], float]:
    from PIL import Image, ImageSequence, UnidentifiedImageError

    try:
        with Image.open(path) as img:
            dpi_info = img.info.get("dpi")
            frames = []
            for frame in ImageSequence.Iterator(img):
                frames.append(_to_grey(frame))
    except FileNotFoundError as exc:
        raise ExtractError("file not found", source=name) from exc
    except UnidentifiedImageError as exc:
        raise ExtractError("not an image PIL can read (PNG, JPEG, TIFF …)", source=name) from exc
    except (OSError, ValueError, SyntaxError) as exc:
        raise ExtractError(f"cannot read image ({exc})", source=name) from exc
    if not frames:
        raise ExtractError("image has no frames", source=name)
    dpi = DEFAULT_DPI * 1.0
    try:
        if dpi_info and float(dpi_info[0]) >= 50:
            dpi = float(dpi_info[0])
    except (TypeError, ValueError, IndexError):
        pass
    return frames, dpi


def _to_grey(frame: Any) -> Any:
    from PIL import Image

    if frame.mode in ("RGBA", "LA", "PA") or (frame.mode == "P" and "transparency" in frame.info):
        rgba = frame.convert("RGBA")
        background = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        return Image.alpha_composite(background, rgba).convert("L")
    return frame.convert("L")


def ocr_pil_image(
    image: Any,
    *,
    lang: str = "jpn+eng",
    dpi: float = DEFAULT_DPI,
    psm: int = DEFAULT_PSM,
    detect_orientation: bool = True,
    page: int = 1,
    source: str = "<image>",
    timeout: int = 0,
) -> OcrPage:
    """OCR one PIL image (any mode) in this process. ``dpi`` is the image's resolution,
    used to turn pixels into points."""
    job = _make_job(lang, psm, dpi, detect_orientation, source, timeout)
    with _single_thread_tesseract():
        return _ocr_one((job, page, _to_grey(image)))


def ocr_image_pages(
    path: str | Path,
    *,
    lang: str = "jpn+eng",
    processes: int | None = None,
    source_path: str | None = None,
    psm: int = DEFAULT_PSM,
    detect_orientation: bool = True,
    timeout: int = 0,
) -> list[OcrPage]:
    """OCR an image file (PNG, JPEG, TIFF, …), one :class:`OcrPage` per frame (a multi-page
    TIFF gives several, numbered from 1). Boxes use the file's own dpi (300 when it has
    none). Raises :class:`ExtractError` naming the file when it cannot be read."""
    name = source_path or str(path)
    check_tesseract(lang)
    frames, dpi = _image_frames(Path(path), name)
    job = _make_job(lang, psm, dpi, detect_orientation, name, timeout)
    results = _run(job, iter(enumerate(frames, start=1)), len(frames), processes)
    return [results[i] for i in range(1, len(frames) + 1)]


def ocr_image(
    path: str | Path,
    *,
    lang: str = "jpn+eng",
    source_path: str | None = None,
    psm: int = DEFAULT_PSM,
    detect_orientation: bool = True,
    timeout: int = 0,
) -> OcrPage:
    """OCR a single-page image file (.png, .jpg, .tif …) in this process. A multi-frame
    TIFF raises :class:`ExtractError` (use :func:`ocr_image_pages`, which returns every
    frame)."""
    name = source_path or str(path)
    check_tesseract(lang)
    frames, dpi = _image_frames(Path(path), name)
    if len(frames) != 1:
        raise ExtractError(
            f"image has {len(frames)} frames; use ocr_image_pages() to read them all", source=name
        )
    job = _make_job(lang, psm, dpi, detect_orientation, name, timeout)
    with _single_thread_tesseract():
        return _ocr_one((job, 1, frames[0]))


def _image_frame(path: Path, frame: int, name: str) -> Any:
    """Frame ``frame`` (1-based) of an image file, greyscale, as :func:`_image_frames` gives
    it."""
    from PIL import Image

    try:
        with Image.open(path) as img:
            img.seek(frame - 1)
            return _to_grey(img)
    except (OSError, ValueError, SyntaxError, EOFError) as exc:
        raise ExtractError(f"cannot read image ({exc})", source=name, page=frame) from exc


def ocr_page_task(task: tuple[_Job, str, str, int, str | None]) -> OcrPage:
    """Worker: read one page where it lives — ``(job, kind, path, page, password)`` with
    ``kind`` ``"pdf"`` (the worker opens the PDF and renders the page at ``job.dpi``: pdfium
    stays out of threads, each process has its own) or ``"image"`` (frame ``page`` of an
    image file) — and OCR it exactly as :func:`ocr_pdf_pages` / :func:`ocr_image_pages` do.
    Meant for a process pool whose initializer is :func:`_worker_init`."""
    job, kind, path, page, password = task
    if kind == "pdf":
        doc, _ = open_pdf(Path(path), password=password, display_name=job.source)
        try:
            image = _render_page(doc, page, job.dpi, job.source)
        finally:
            doc.close()
    else:
        image = _image_frame(Path(path), page, job.source)
    return _ocr_one((job, page, image))
