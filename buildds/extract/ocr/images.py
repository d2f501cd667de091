"""OCR of image files (PNG, JPEG, TIFF …, one page per frame) and of PIL images.

Frames are loaded in greyscale (transparency flattened onto white) and boxes use the file's
own dpi (300 when it has none). Only a regular file is opened; a frame of more than
:data:`~buildds.extract.ocr.job.MAX_PAGE_PIXELS` pixels (checked from the header, before it
is decoded) and a file of more than ``max_frames`` frames (``--max-pages``) raise
:class:`LimitExceeded`. Part of :mod:`buildds.extract.ocr`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from buildds.errors import ExtractError, LimitExceeded
from buildds.extract.ocr.dependencies import check_tesseract
from buildds.extract.ocr.job import DEFAULT_DPI, DEFAULT_PSM, MAX_PAGE_PIXELS, OcrPage, make_job
from buildds.extract.ocr.one_image import ocr_one_image
from buildds.extract.ocr.worker_pool import run_pages, single_thread_tesseract
from buildds.extract.page_limit import MAX_PAGES, check_page_count
from buildds.safeio import LIMITS, open_regular

__all__ = [
    "image_frame",
    "image_frames",
    "ocr_image",
    "ocr_image_pages",
    "ocr_pil_image",
    "to_grey",
]


def _check_pixels(frame: Any, name: str, number: int) -> None:
    width, height = frame.size
    if width * height > MAX_PAGE_PIXELS:
        raise LimitExceeded(f"image frame of {width:,} × {height:,} pixels has",
                            f"{width * height:,} pixels",
                            f"{MAX_PAGE_PIXELS:,} pixels",
                            option=LIMITS["page_pixels"].how_to_raise, source=name, page=number)


@contextlib.contextmanager
def _open_image(path: Path, name: str) -> Iterator[Any]:
    """A PIL image over the regular file ``path`` (its header read, no pixel decoded)."""
    from PIL import Image

    try:
        fh = open_regular(path)
    except ExtractError as exc:
        if "no such file" in exc.message:
            raise ExtractError("file not found", source=name) from None
        raise ExtractError(f"cannot read file ({exc.message})", source=name) from None
    with fh:
        try:
            img = Image.open(fh)
        except Image.DecompressionBombError as exc:
            raise LimitExceeded("image", "of more pixels than PIL decodes",
                                f"{MAX_PAGE_PIXELS:,} pixels",
                                option=LIMITS["page_pixels"].how_to_raise,
                                source=name) from exc
        with img:
            yield img


def image_frames(path: Path, name: str, max_frames: int | None = MAX_PAGES
                 ) -> tuple[list[Any], float]:
    """Every frame of an image file in greyscale, and the file's dpi (300 when it has none)."""
    from PIL import ImageSequence, UnidentifiedImageError

    try:
        with _open_image(path, name) as img:
            dpi_info = img.info.get("dpi")
            check_page_count(getattr(img, "n_frames", 1), max_frames, name, "image frames")
            frames = []
            for number, frame in enumerate(ImageSequence.Iterator(img), start=1):
                _check_pixels(frame, name, number)
                frames.append(to_grey(frame))
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


def to_grey(frame: Any) -> Any:
    """A PIL image in mode ``L``, transparent parts flattened onto white."""
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
    job = make_job(lang, psm, dpi, detect_orientation, source, timeout)
    with single_thread_tesseract():
        return ocr_one_image((job, page, to_grey(image)))


def ocr_image_pages(
    path: str | Path,
    *,
    lang: str = "jpn+eng",
    processes: int | None = None,
    source_path: str | None = None,
    psm: int = DEFAULT_PSM,
    detect_orientation: bool = True,
    timeout: int = 0,
    max_pages: int | None = MAX_PAGES,
) -> list[OcrPage]:
    """OCR an image file (PNG, JPEG, TIFF, …), one :class:`OcrPage` per frame (a multi-page
    TIFF gives several, numbered from 1). Boxes use the file's own dpi (300 when it has
    none). Raises :class:`ExtractError` naming the file when it cannot be read, and
    :class:`LimitExceeded` for more than ``max_pages`` frames or a frame too large."""
    name = source_path or str(path)
    check_tesseract(lang)
    frames, dpi = image_frames(Path(path), name, max_pages)
    job = make_job(lang, psm, dpi, detect_orientation, name, timeout)
    results = run_pages(job, iter(enumerate(frames, start=1)), len(frames), processes)
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
    frames, dpi = image_frames(Path(path), name)
    if len(frames) != 1:
        raise ExtractError(
            f"image has {len(frames)} frames; use ocr_image_pages() to read them all", source=name
        )
    job = make_job(lang, psm, dpi, detect_orientation, name, timeout)
    with single_thread_tesseract():
        return ocr_one_image((job, 1, frames[0]))


def image_frame(path: Path, frame: int, name: str) -> Any:
    """Frame ``frame`` (1-based) of an image file, greyscale, as :func:`image_frames` gives
    it."""
    try:
        with _open_image(path, name) as img:
            img.seek(frame - 1)
            _check_pixels(img, name, frame)
            return to_grey(img)
    except (OSError, ValueError, SyntaxError, EOFError) as exc:
        raise ExtractError(f"cannot read image ({exc})", source=name, page=frame) from exc
