"""Benchmark: scanned JBE booklets → items, against the items of their text-layer PDFs.

For each scanned booklet in ``../shared/jbe/scanned`` (2024 民法, 2019 憲法):

1. every page is OCR'd through buildds (:func:`buildds.extract.pdf.ocr_pdf_pages`, the path
   ``buildds jbe`` takes) with 1 process and with 2 (``--processes``): pages/s and CPU
   seconds for each. The 1-process run also keeps tesseract's word tables (``--cache``
   stores them as JSON, ``--reuse`` skips the OCR and reads them back);
2. the booklet is built into items twice from those same word tables — **before** repair
   (no split-glyph merge, no structure repair: the build as it was) and **after** — and
   each is compared with the items built from the text-layer PDF
   (:func:`buildds.transform.jbe_ocr_accuracy.compare_items`): items and questions on each
   side, labels identical, texts identical, character accuracy (1 − CER) over all aligned
   statements, the worst items, and the items flagged for low OCR confidence. With
   ``--per-item`` every item's accuracy and confidence is printed.

``--simulate 2021/minpo 2022/keiho`` also makes held-out scans of those text booklets
(:func:`simulate_scan`, seeded by the year) and measures them the same way.

Usage::

    python3 benchmarks/bench_jbe_ocr.py [--shared ../shared] [--processes 1 2]
        [--cache /tmp/jbe-ocr] [--reuse] [--per-item] [--simulate 2021/minpo ...]
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from buildds.extract.ocr import one_image, tesseract_lines
from buildds.extract.ocr.job import OcrJob
from buildds.extract.pdf import ocr_pages
from buildds.jobs import jbe
from buildds.transform.jbe_ocr_accuracy import compare_items

REPO = Path(__file__).resolve().parent.parent
BOOKLETS = [(2024, "minpo", "2024-minpo-mondai-scan.pdf"),
            (2019, "kenpo", "2019-kenpo-mondai-scan.pdf")]
DPI, PSM = 300, 6


def cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def read_pages(scan: Path, processes: int, capture: bool) -> tuple[dict[int, Any], float, float]:
    """OCR every page; with ``capture`` (1 process: in this process) tesseract's tables."""
    import pypdfium2 as pdfium

    pages = list(range(1, len(pdfium.PdfDocument(str(scan))) + 1))
    tables: dict[int, Any] = {}
    real = one_image.build_page

    def keep(data: dict[str, list[Any]], job: OcrJob, page: int, rotation: int) -> Any:
        tables[page] = data
        return real(data, job, page, rotation)

    if capture:
        one_image.build_page = keep  # type: ignore[assignment]
    wall, cpu = time.perf_counter(), cpu_seconds()
    try:
        ocr_pages.ocr_pdf_pages(scan, pages, processes=processes, dpi=DPI, psm=PSM)
    finally:
        one_image.build_page = real  # type: ignore[assignment]
    return tables, time.perf_counter() - wall, cpu_seconds() - cpu


def from_tables(tables: dict[int, Any]) -> Any:
    """An ``ocr_pdf_pages`` that answers from kept tables (the build reads them again)."""
    def ocr(path: Any, pages: Any, *, lang: str = "jpn", dpi: int = DPI, psm: int = PSM,
            **_: Any) -> dict[int, Any]:
        job = OcrJob(lang=lang, psm=psm, dpi=float(dpi), detect_orientation=False,
                     osd_available=False, source=str(path))
        return {n: tesseract_lines.build_page(tables[n], job, n, 0) for n in pages}
    return ocr


def build_items(raw: Path, year: int, subject: str, work: Path) -> Any:
    out = work / "out"
    shutil.rmtree(out, ignore_errors=True)
    return jbe.build_jbe(years=[year], raw=raw, out=out, subjects=[subject], processes=1,
                         progress=False, replace=True, use_cache=False)


def statement_accuracy(report: Any, reference_xml: str) -> float:
    """Character accuracy of every statement of the booklet's XML against the text-layer
    XML, aligned by (question, position); a statement missing on the OCR side counts as all
    wrong."""
    from buildds.export.xml import parse_exam_xml
    from buildds.extract.ocr import char_accuracy

    def statements(xml: str) -> dict[tuple[int, int], str]:
        booklet, _ = parse_exam_xml(xml.encode("utf-8"), source="xml")
        return {(q.number, i): s.text + "".join(p.text for p in s.parts)
                for q in booklet.questions for i, s in enumerate(q.statements)}

    want = statements(reference_xml)
    got = statements(report.pairs[0].xml) if report.pairs and report.pairs[0].xml else {}
    chars = sum(len("".join(t.split())) for t in want.values())
    right = sum(char_accuracy(got.get(k, ""), t) * len("".join(t.split()))
                for k, t in want.items())
    return right / chars if chars else 1.0


def compare(name: str, tables: dict[int, Any], raw: Path, reference: tuple[list[Any], str],
            year: int, subject: str, work: Path, per_item: bool) -> None:
    reference, reference_xml = reference
    real_ocr, real_repair, real_merge = (ocr_pages.ocr_pdf_pages, jbe.repair_booklet,
                                         tesseract_lines.merge_split_glyphs)
    ocr_pages.ocr_pdf_pages = from_tables(tables)  # type: ignore[assignment]
    try:
        for stage in ("before", "after"):
            if stage == "before":
                jbe.repair_booklet = lambda doc: (doc, [])  # type: ignore[assignment]
                tesseract_lines.merge_split_glyphs = lambda words, pitch: words  # type: ignore
            else:
                jbe.repair_booklet, tesseract_lines.merge_split_glyphs = real_repair, real_merge
            report = build_items(raw, year, subject, work)
            items = report.dataset.items if report.dataset else []
            acc = compare_items(items, reference)
            flagged = len(report.dataset.ocr_flagged or []) if report.dataset else 0
            counts = report.pairs[0].counts if report.pairs else None
            print(f"  {stage:6s} {json.dumps(acc.summary(), ensure_ascii=False)}")
            print(f"         statements of the XML (aligned by question and position, items or "
                  f"not): {statement_accuracy(report, reference_xml):.5f}")
            print(f"         flagged for low confidence: {flagged}; repairs: "
                  f"{counts.ocr_repairs if counts else None}")
            if per_item and stage == "after":
                for it in acc.items:
                    print(f"    {it.id}\t{it.accuracy:.4f}\t{it.ocr_confidence}\t"
                          f"{'same' if it.same_label else 'LABEL DIFFERS'}")
    finally:
        ocr_pages.ocr_pdf_pages = real_ocr  # type: ignore[assignment]
        jbe.repair_booklet, tesseract_lines.merge_split_glyphs = real_repair, real_merge


def simulate_scan(src: Path, dst: Path, seed: int) -> None:
    """An image-only copy of a text booklet made like ``../shared/jbe/scanned``: 200 dpi
    greyscale, turned by at most 0.5°, greyed, noise, dust, a slight blur, JPEG, wrapped
    back into a PDF (a held-out scan the repair was not written against)."""
    import io
    import random

    import pypdfium2 as pdfium
    from PIL import Image, ImageDraw, ImageFilter

    rng = random.Random(seed)
    doc = pdfium.PdfDocument(str(src))
    pages = []
    for i in range(len(doc)):
        img = doc[i].render(scale=200 / 72, grayscale=True).to_pil().convert("L")
        img = img.rotate(rng.uniform(-0.5, 0.5), resample=Image.BICUBIC, fillcolor=255)
        img = img.point(lambda v: int(v * 0.85 + 20))
        px, (w, h) = img.load(), img.size
        for _ in range(w * h // 60):
            x, y = rng.randrange(w), rng.randrange(h)
            px[x, y] = max(0, min(255, px[x, y] + rng.randint(-60, 60)))
        draw = ImageDraw.Draw(img)
        for _ in range(40):
            x, y, r = rng.randrange(w), rng.randrange(h), rng.choice([1, 1, 2])
            draw.ellipse((x, y, x + r, y + r), fill=rng.randint(0, 90))
        buf = io.BytesIO()
        img.filter(ImageFilter.GaussianBlur(0.6)).save(buf, "JPEG", quality=70)
        buf.seek(0)
        pages.append(Image.open(buf).convert("L"))
    pages[0].save(dst, "PDF", resolution=200, save_all=True, append_images=pages[1:])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--cache", type=Path, default=None,
                        help="folder for tesseract's word tables (JSON), reused with --reuse")
    parser.add_argument("--reuse", action="store_true", help="read the tables from --cache")
    parser.add_argument("--per-item", action="store_true")
    parser.add_argument("--simulate", nargs="*", default=[], metavar="YEAR/SUBJECT",
                        help="also measure simulated scans of these text booklets (2021/minpo)")
    args = parser.parse_args()
    root = args.shared / "jbe"
    if not root.exists():
        print(f"no {root}: nothing to measure", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        booklets = [(year, subject, root / "scanned" / name) for year, subject, name in BOOKLETS]
        for spec in args.simulate:
            year_text, subject = spec.split("/")
            scan = work / f"sim-{year_text}-{subject}.pdf"
            simulate_scan(root / "pdf" / year_text / f"{subject}-mondai.pdf", scan,
                          int(year_text))
            booklets.append((int(year_text), subject, scan))
        for year, subject, scan in booklets:
            name = f"{year} {subject}"
            kind = "sim-" if scan.name.startswith("sim-") else ""
            cached = args.cache / f"{kind}{year}-{subject}.json" if args.cache else None
            tables: dict[int, Any] = {}
            if args.reuse and cached and cached.exists():
                tables = {int(k): v for k, v in json.loads(cached.read_text("utf-8")).items()}
                print(f"{name}: {len(tables)} pages read back from {cached}")
            else:
                for n in args.processes:
                    got, wall, cpu = read_pages(scan, n, capture=n == 1)
                    tables = got or tables
                    pages = len(got) or len(tables)
                    print(f"{name}: {n} process(es): {pages} pages in {wall:.1f} s = "
                          f"{pages / wall:.3f} pages/s (CPU {cpu:.1f} s)")
                if not tables:  # no 1-process run: read once more to keep the tables
                    tables, _, _ = read_pages(scan, 1, capture=True)
                if cached:
                    cached.parent.mkdir(parents=True, exist_ok=True)
                    cached.write_text(json.dumps(tables, ensure_ascii=False), "utf-8")
            text_build = build_items(root / "pdf", year, subject, work)
            reference = (text_build.dataset.items, text_build.pairs[0].xml)
            raw = work / "raw" / str(year)
            raw.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(scan, raw / f"{subject}-mondai.pdf")
            shutil.copyfile(root / "pdf" / str(year) / f"{subject}-seito.pdf",
                            raw / f"{subject}-seito.pdf")
            print(f"{name}: items against the text-layer PDF")
            compare(name, tables, work / "raw", reference, year, subject, work, args.per_item)
    return 0


if __name__ == "__main__":
    sys.exit(main())
