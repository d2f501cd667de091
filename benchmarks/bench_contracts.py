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
  give the same text;
* text-layer PDFs on 1 and 2 processes: :func:`read_documents` ``jobs=1`` / ``jobs=2`` (which
  reads text-layer PDFs in the calling process: no gain expected) and the same files spread
  over a pool of 2 processes, one file per task;
* OCR with the language chosen per page (``ocr_lang="auto"``) on 1 and 2 processes, against
  the per-file languages above: the cost of the probe, and which language each page got;
* the scan of issue 15: ``jp_decrypt-pdf/契約書.pdf`` rendered at 200 dpi, blurred, JPEG q60
  (a scanned Japanese contract; ../shared has none) read with ``jpn+eng``, ``jpn`` and
  ``auto``: articles found and character error rate against the text layer.

Usage::

    python3 benchmarks/bench_contracts.py [--shared ../shared] [--repeat 3] [--zh-lang jpn+eng]
                                          [--no-ocr] [--no-lang]
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
    ap.add_argument("--no-lang", action="store_true",
                    help="skip the per-page language runs (auto, the issue-15 scan)")
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
    bench_text_processes(root, args.repeat)
    if not args.no_ocr:
        bench_ocr(root, zh)
    if not args.no_lang:
        bench_ocr_auto(root)
        bench_scan_languages(root)
    return 0


def _read_one_text_pdf(p: Path) -> int:
    pw = "test" if p.name.endswith("-locked.pdf") else None
    return read_document(p, password=pw, ocr=False).pages or 0


def bench_text_processes(root: Path, repeat: int) -> None:
    """Text-layer PDFs on 1 and 2 processes (see the module docstring)."""
    import concurrent.futures as cf
    import multiprocessing

    files = [p for p in text_pdfs(root) if not p.name.endswith("-locked.pdf")]

    def batch(jobs: int) -> int:
        return sum(doc.pages or 0 for _, doc, _ in read_documents(files, jobs=jobs, ocr=False)
                   if doc is not None)

    def pool() -> int:
        ctx = multiprocessing.get_context("fork")
        with cf.ProcessPoolExecutor(2, mp_context=ctx) as ex:
            return sum(ex.map(_read_one_text_pdf, files))

    print(f"\nText-layer PDFs on 1 and 2 processes ({len(files)} files), best of {repeat}")
    base = None
    for label, run in (("read_documents jobs=1", lambda: batch(1)),
                       ("read_documents jobs=2", lambda: batch(2)),
                       ("2-process pool, a file a task", pool)):
        best, pages = float("inf"), 0
        for _ in range(repeat):
            t0 = time.perf_counter()
            pages = run()
            best = min(best, time.perf_counter() - t0)
        base = base or best
        print(f"  {label:32} {pages:4d} pages {best:6.2f} s {pages / best:7.1f} pages/s "
              f"{base / best:5.2f}×")


def bench_ocr_auto(root: Path) -> None:
    """OCR with ``ocr_lang="auto"`` on 1 and 2 processes: pages/s and each page's language."""
    files = [root / r for r in OCR_FILES if (root / r).exists()]
    print(f"\nOCR, language chosen per page (auto): {len(files)} files")
    for jobs in (1, 2):
        cpu0, t0 = cpu_seconds(), time.perf_counter()
        pages, langs = 0, {}
        for _, doc, probs in read_documents(files, root=root, jobs=jobs, ocr_lang="auto",
                                            processes=1):
            assert doc is not None, probs
            pages += doc.pages or 0
            langs[doc.source.path] = (doc.ocr_page_lang, doc.ocr_page_confidence)
        wall, cpu = time.perf_counter() - t0, cpu_seconds() - cpu0
        print(f"  jobs={jobs}: {pages} pages {wall:6.1f} s (CPU {cpu:5.1f} s) "
              f"{pages / wall:6.3f} pages/s")
    for rel, (lang, conf) in langs.items():
        print(f"    {rel}: {lang} confidence {conf}")


def bench_scan_languages(root: Path) -> None:
    """Issue 15's scan: articles and CER with jpn+eng, jpn and auto."""
    import tempfile

    from buildds.extract.ocr import char_accuracy
    from buildds.transform.clauses import split_clauses

    src = root / "jp_decrypt-pdf" / "契約書.pdf"
    if not src.exists():
        return
    sys.path.insert(0, str(REPO))
    from tests.extract.contracts.test_ocr_language_real import scanned

    reference = "\n".join(b.text for b in read_document(src, ocr=False).blocks)
    print("\nScanned jp_decrypt-pdf/契約書.pdf (200 dpi, blur, JPEG q60; 6 articles)")
    with tempfile.TemporaryDirectory() as tmp:
        scan = scanned(src, Path(tmp) / "scan.pdf")
        for lang in ("jpn+eng", "jpn", "auto"):
            t0 = time.perf_counter()
            doc = read_document(scan, ocr_lang=lang, processes=1)
            wall = time.perf_counter() - t0
            found = [c.number for c in split_clauses(doc.blocks, source="scan")
                     if c.kind == "article"]
            text = "\n".join(b.text for b in doc.blocks)
            cer = 1 - char_accuracy(text, reference)
            print(f"  {lang:8} articles {found} CER {cer:.2%} confidence "
                  f"{doc.ocr_confidence} page languages {doc.ocr_page_lang} {wall:5.1f} s")


if __name__ == "__main__":
    raise SystemExit(main())
