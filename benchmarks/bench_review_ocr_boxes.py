"""Benchmark: the highlight boxes ``buildds review`` draws on scanned JBE pages, against the
boxes of the same statements on the text-layer PDFs.

The two scanned booklets of ``../shared/jbe/scanned`` (2019 憲法, 2024 民法) are built with
``buildds jbe`` (through OCR), and so are their text-layer originals. Every item of the
scanned build is put in the review queue (``spot_check`` large); its box is found in its
page's OCR lines (:mod:`buildds.review.ocr_boxes`) and compared, by item key, with the box the
text layer gives the same statement (:func:`buildds.review.pages.locate_text`). Printed:
items, items boxed, items whose box overlaps the text layer's with IoU ≥ 0.5 / ≥ 0.8, the
median IoU, and the seconds of the first look at a page (tesseract) and of a cached one.

Usage (from the repository root; ``PYTHONPATH=.`` when another checkout is installed)::

    python3 benchmarks/bench_review_ocr_boxes.py [--shared ../shared] [--keep DIR]

Measured 2026-12-02 (2 shared cores): 246 items, 246 boxed; against the text layer 240 with
IoU ≥ 0.5, 230 with IoU ≥ 0.8, median IoU 0.931; first look at a page 5.0 s on average
(26 pages, at most 8.4 s), then cached.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from pathlib import Path

SCANS = {(2024, "minpo"): "2024-minpo-mondai-scan.pdf",
         (2019, "kenpo"): "2019-kenpo-mondai-scan.pdf"}


def iou(a: list[float], b: list[float]) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    inter = max(0.0, w) * max(0.0, h)
    area = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / area if area > 0 else 0.0


def build(shared: Path, root: Path) -> tuple[Path, Path, Path]:
    """The scanned and the text-layer builds; their raw folders."""
    from buildds.jobs.jbe import build_jbe

    pdf_dir, raw = shared / "jbe" / "pdf", root / "raw"
    for (year, subject), scan in SCANS.items():
        (raw / str(year)).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(shared / "jbe" / "scanned" / scan, raw / str(year) / f"{subject}-mondai.pdf")
        shutil.copyfile(pdf_dir / str(year) / f"{subject}-seito.pdf",
                        raw / str(year) / f"{subject}-seito.pdf")
    years, subjects = [y for y, _ in SCANS], [s for _, s in SCANS]
    build_jbe(years=years, raw=raw, out=root / "scan", subjects=subjects, progress=False,
              corrections=root / "c")
    build_jbe(years=years, raw=pdf_dir, out=root / "text", subjects=subjects, progress=False,
              corrections=root / "c")
    return raw, root / "scan", root / "text"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, default=Path("../shared"))
    parser.add_argument("--keep", type=Path, default=None, help="build here and keep it")
    args = parser.parse_args()
    from buildds.review.sources.jbe import JbeSource

    root = args.keep or Path(tempfile.mkdtemp(prefix="bench-review-ocr-"))
    t0 = time.perf_counter()
    raw, scan, text = build(args.shared.resolve(), root)
    print(f"builds: {time.perf_counter() - t0:.1f}s")
    text_boxes = {i.key: i.evidence.get("bbox") for i in
                  JbeSource(text, raw=args.shared.resolve() / "jbe" / "pdf",
                            corrections=root / "c", spot_check=10_000).items()}
    items = JbeSource(scan, raw=raw, corrections=root / "c", spot_check=10_000).items()
    first: list[float] = []
    pages_seen: set[tuple[str, int]] = set()
    scores, boxed = [], 0
    for item in items:
        page = (item.evidence["source"], item.evidence["page"])
        t = time.perf_counter()
        box = item.evidence["bbox"]
        if page not in pages_seen:
            first.append(time.perf_counter() - t)
            pages_seen.add(page)
        boxed += box is not None
        want = text_boxes.get(item.key)
        if box is not None and want is not None:
            scores.append(iou(box, want))
    t = time.perf_counter()
    again = JbeSource(scan, raw=raw, corrections=root / "c", spot_check=10_000).items()
    _ = [i.evidence["bbox"] for i in again]
    cached = time.perf_counter() - t
    print(f"items {len(items)}, boxed {boxed}, compared with the text layer {len(scores)}: "
          f"IoU>=0.5 {sum(s >= 0.5 for s in scores)}, IoU>=0.8 {sum(s >= 0.8 for s in scores)}, "
          f"median IoU {statistics.median(scores):.3f}" if scores else "nothing compared")
    print(f"first look per page: {len(first)} pages, mean {statistics.mean(first):.2f}s, "
          f"max {max(first):.2f}s; every box again from the cache: {cached:.2f}s")
    if args.keep is None:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
