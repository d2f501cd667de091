"""Benchmark: reading the real contracts in ``../shared/realdata/contracts``
(buildds.extract.contracts.reader).

Prints two tables:

* text-layer PDFs (every ``jp_*`` and ``en_cuad`` PDF with a text layer; the encrypted one
  opened with its password ``test``): pages/s of :func:`read_document`, best of ``--repeat``;
* OCR of the image-only files (``jp_hanbai-keiyakusho`` JPEG + PDF, ``jp_yomitoku-images``
  JPEGs, the 3-page ``scan_zh-tw_hualien`` scan): pages/s

  - serially (``processes=1``),
  - with ``processes=2`` inside each document (page-level parallelism: only a multi-page
    document gains),
  - with :func:`read_documents` ``jobs=2`` (one batch, language per file: the pages of all
    documents OCR'd in one pool of 2 processes, largest pages first),

  and the speed-up over the serial run (target ≥ 1.8× on 2 cores), with CPU seconds used
  (a machine busy with other work shows as less CPU than cores × wall time). Each mode must
  give the same text.

Usage::

    python3 benchmarks/bench_contracts.py [--shared ../shared] [--repeat 3] [--zh-lang jpn+eng]
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

from buildds.extract.contracts import read_document, read_documents

REPO = Path(__file__).resolve().parent.parent
OCR_FILES = [
    "jp_hanbai-keiyakusho/sales-contract-template.jpg",
    "jp_hanbai-keiyakusho/sales-contract-template.pdf",
    "jp_yomitoku-images/demo.jpg",
    "jp_yomitoku-images/gallery3.jpg",
    "scan_zh-tw_hualien/契約書.pdf",
]


def cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def text_pdfs(root: Path) -> list[Path]:
    out = []
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root).as_posix()
        if (p.is_file() and p.suffix.lower() == ".pdf" and rel.split("/")[0].startswith(("jp_", "en_cuad"))
                and rel not in OCR_FILES):
            out.append(p)
    return out


def bench_text(root: Path, repeat: int) -> None:
    files = text_pdfs(root)
    best, pages, blocks = float("inf"), 0, 0
    for _ in range(repeat):
        start = time.perf_counter()
        pages = blocks = 0
        for p in files:
            pw = "test" if p.name.endswith("-locked.pdf") else None
            doc = read_document(p, password=pw, ocr=False)
            pages += doc.pages or 0
            blocks += len(doc.blocks)
        best = min(best, time.perf_counter() - start)
    print(f"\nText-layer PDFs: {len(files)} files, {pages} pages, {blocks} blocks")
    print(f"  best of {repeat}: {best:.2f} s  →  {pages / best:.0f} pages/s")


def ocr_lang_for(rel: str, zh_lang: str) -> str:
    return zh_lang if rel.startswith("scan_zh-tw") else "jpn+eng"


def bench_ocr(root: Path, zh_lang: str) -> None:
    files = [root / r for r in OCR_FILES if (root / r).exists()]
    rels = [p.relative_to(root).as_posix() for p in files]

    def serial(processes: int) -> tuple[dict[str, str], int, dict[str, float]]:
        texts, pages, times = {}, 0, {}
        for p, rel in zip(files, rels, strict=True):
            t = time.perf_counter()
            doc = read_document(p, source_path=rel, ocr_lang=ocr_lang_for(rel, zh_lang),
                                processes=processes)
            times[rel] = time.perf_counter() - t
            texts[rel] = "\n".join(b.text for b in doc.blocks)
            pages += doc.pages or 0
        return texts, pages, times

    def batched(jobs: int) -> tuple[dict[str, str], int, dict[str, float]]:
        texts, pages = {}, 0
        # one batch, the language chosen per file: all 7 pages share one pool
        for p, doc, probs in read_documents(files, root=root, jobs=jobs,
                                            ocr_lang=lambda rel: ocr_lang_for(rel, zh_lang)):
            assert doc is not None, probs
            texts[doc.source.path] = "\n".join(b.text for b in doc.blocks)
            pages += doc.pages or 0
        return texts, pages, {}

    rows = []
    reference: dict[str, str] | None = None
    per_file: dict[str, float] = {}
    for label, run in (("processes=1 (serial)", lambda: serial(1)),
                       ("processes=2 per document", lambda: serial(2)),
                       ("jobs=2 pages of all docs", lambda: batched(2))):
        cpu0, t0 = cpu_seconds(), time.perf_counter()
        texts, pages, times = run()
        wall, cpu = time.perf_counter() - t0, cpu_seconds() - cpu0
        if reference is None:
            reference, per_file = texts, times
        same = texts == reference
        rows.append((label, pages, wall, cpu, same))
    base = rows[0][2]
    print(f"\nOCR: {len(files)} files (zh scan with {zh_lang})")
    for rel in rels:
        print(f"  {per_file.get(rel, 0):6.1f} s  {rel}")
    print(f"\n  {'mode':28} {'pages':>5} {'wall s':>7} {'CPU s':>7} {'pages/s':>8} "
          f"{'speed-up':>8}  same text")
    for label, pages, wall, cpu, same in rows:
        print(f"  {label:28} {pages:5d} {wall:7.1f} {cpu:7.1f} {pages / wall:8.3f} "
              f"{base / wall:7.2f}×  {'yes' if same else 'NO'}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--zh-lang", default=None,
                    help="tesseract language for the Taiwanese scan (default chi_tra+eng when "
                         "installed, else jpn+eng)")
    ap.add_argument("--no-ocr", action="store_true")
    args = ap.parse_args(argv)
    root = args.shared / "realdata" / "contracts"
    if not root.is_dir():
        print(f"{root} not found", file=sys.stderr)
        return 2
    zh = args.zh_lang
    if zh is None:
        from buildds.extract.ocr import check_tesseract

        try:
            check_tesseract("chi_tra")
            zh = "chi_tra+eng"
        except Exception:  # noqa: BLE001
            zh = "jpn+eng"
    bench_text(root, args.repeat)
    if not args.no_ocr:
        bench_ocr(root, zh)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
