"""Benchmark: OCR of the two scanned JBE booklets (buildds.extract.pdf.ocr_pages, which reads
the rendered pages with buildds.extract.ocr).

For each scanned variant in ``../shared/jbe/scanned`` every page is read with 1 process and
with 2 (or the counts given), and the script prints

* pages/s for each process count and the speed-up (target ≥ 1.8× for 2 processes on 2 cores),
  with the CPU time used, so that a machine busy with other work shows as fewer cores busy;
* the character accuracy (:func:`buildds.extract.ocr.char_accuracy`) of each page and of the
  whole booklet against the text layer of the original PDF (its lines and footers, as
  ``extract_pdf(..., ocr="never")`` gives them).

It also checks that every process count gives the same text. Usage:

    python3 benchmarks/bench_ocr.py [--shared ../shared] [--processes 1 2] [--pages 2-5] [--repeat 2]
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

from buildds.extract.ocr import DEFAULT_DPI, DEFAULT_PSM, char_accuracy
from buildds.extract.pdf import extract_pdf, ocr_pdf_pages, open_pdf

REPO = Path(__file__).resolve().parent.parent
BOOKLETS = [
    ("2024 民法", "scanned/2024-minpo-mondai-scan.pdf", "pdf/2024/minpo-mondai.pdf"),
    ("2019 憲法", "scanned/2019-kenpo-mondai-scan.pdf", "pdf/2019/kenpo-mondai.pdf"),
]


def cpu_seconds() -> float:
    """CPU time of this process and of every finished child (workers, tesseracts)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def page_range(spec: str | None, count: int) -> list[int]:
    if not spec:
        return list(range(1, count + 1))
    first, _, last = spec.partition("-")
    return list(range(int(first), int(last or first) + 1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--pages", help="a page range such as 2-5 (default: every page)")
    parser.add_argument(
        "--repeat", type=int, default=1, help="runs per process count; the fastest counts"
    )
    args = parser.parse_args()
    root = args.shared / "jbe"
    if not root.exists():
        print(f"{root} not found", file=sys.stderr)
        return 2

    print(f"tesseract psm {DEFAULT_PSM}, {DEFAULT_DPI} dpi, lang jpn")
    all_hyp: list[str] = []
    all_ref: list[str] = []
    totals: dict[int, tuple[int, float]] = {}
    for label, scan_rel, text_rel in BOOKLETS:
        scan, original = root / scan_rel, root / text_rel
        doc, _ = open_pdf(scan)
        pages = page_range(args.pages, len(doc))
        doc.close()
        reference = extract_pdf(original, ocr="never")

        print(f"\n== {label}: {scan_rel} ({len(pages)} pages) vs the text layer of {text_rel}")
        texts: dict[int, dict[int, str]] = {}
        rates: dict[int, float] = {}
        confidences: dict[int, float] = {}
        for n in args.processes:
            took, cpu = float("inf"), 0.0
            for _ in range(max(1, args.repeat)):
                t, c = time.perf_counter(), cpu_seconds()
                result = ocr_pdf_pages(scan, pages, processes=n)
                if time.perf_counter() - t < took:
                    took, cpu = time.perf_counter() - t, cpu_seconds() - c
            texts[n] = {p: r.text for p, r in result.items()}
            confidences = {p: r.confidence for p, r in result.items()}
            rates[n] = len(pages) / took
            done, secs = totals.get(n, (0, 0.0))
            totals[n] = (done + len(pages), secs + took)
            print(
                f"processes={n}: {took:6.1f} s  {rates[n]:5.2f} pages/s"
                f"  (CPU {cpu:6.1f} s, {cpu / took:4.2f} cores busy)"
            )
        base = args.processes[0]
        for n in args.processes[1:]:
            same = "same text" if texts[n] == texts[base] else "TEXT DIFFERS"
            print(f"speed-up {n} vs {base} process(es): {rates[n] / rates[base]:4.2f}×  ({same})")

        hyp_pages, ref_pages = [], []
        print(" page  accuracy  confidence")
        for p in pages:
            ref_page = reference.pages[p - 1]
            ref = "\n".join(ln.text for ln in ref_page.lines + ref_page.furniture)
            hyp = texts[base][p]
            hyp_pages.append(hyp)
            ref_pages.append(ref)
            print(f" {p:4d}  {char_accuracy(hyp, ref):8.4f}  {confidences[p]:10.1f}")
        booklet = char_accuracy("\n".join(hyp_pages), "\n".join(ref_pages))
        print(f" all   {booklet:8.4f}")
        all_hyp.extend(hyp_pages)
        all_ref.extend(ref_pages)

    print("\n== overall")
    base = args.processes[0]
    base_rate = totals[base][0] / totals[base][1]
    for n in args.processes:
        done, secs = totals[n]
        rate = done / secs
        print(
            f"processes={n}: {done} pages in {secs:6.1f} s = {rate:5.2f} pages/s"
            f"  speed-up {rate / base_rate:4.2f}×"
        )
    overall = char_accuracy("\n".join(all_hyp), "\n".join(all_ref))
    print(f"character accuracy, both booklets: {overall:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
