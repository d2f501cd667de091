"""Build every kind of output from one source tree and compare two such builds file by file.

Used to show that a refactoring leaves every output byte-identical:

    python scripts/compare_outputs.py build SRC_TREE OUT_DIR [--pin-code-version]
    python scripts/compare_outputs.py compare OUT_A OUT_B

``build`` runs the CLI of the buildds in ``SRC_TREE`` (``python -m buildds`` with
``PYTHONPATH=SRC_TREE``) on the bundled sample (jbe + the offline baselines' eval + validate)
and, where ``../shared`` exists, on the real inputs: JBE 2015–2024, one scanned booklet
(OCR), a set of real contracts (Word with tracked changes, PDF, scan, image, .odt), the JuDGE
judgments (AR-Bench) with an appellate-review eval, and the High Bar sample with mock judges;
then runs that must fail (a missing year, a booklet that is not a PDF, another year's key,
contracts that are not what their names say, bad JSON lines, an unknown model, a missing
path) and every command's ``--help``. Each run's exit status, stdout and stderr are kept in
``console/<run>.txt`` and compared like the files.

``compare`` lists every file of both trees (caches excluded) and reports each one that is
missing or differs. Differences that two runs of the same code show (the output folder's
absolute path, timings) are masked and listed apart. The code version — the hash of a job's source files, which any edit
changes by design — is written into reports, cards and manifests, as are the fingerprints and
cache keys derived from it; a differing text file whose differences all lie in such hex digests
is reported apart as "differs only in code-version hashes", with its count of masked digests,
so that nothing else can hide there, and the distinct digests that changed are listed.
``build --pin-code-version`` takes even that away: every job's code version is the same
constant (a ``sitecustomize`` on the build's ``PYTHONPATH`` replaces
``buildds.pipeline.package_code_version`` before any job imports it), so two trees that make
the same outputs give byte-identical files, fingerprints included. Exit 0 when nothing
differs beyond paths and timings (and code-version hashes, when not pinned).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
CONTRACTS = [
    "jp_moriyoshi-freelance-kit/秘密保持契約書.docx",
    "jp_moriyoshi-freelance-kit/業務委託基本契約書.docx",
    "jp_moriyoshi-freelance-kit/basic-contract.odt",
    "jp_agrilive/利用規約.docx",
    "jp_coachtech/契約書.pdf",
    "jp_flatup/契約書.pdf",
    "jp_hanbai-keiyakusho/sales-contract-template.jpg",
    "en_superdoc-redlines/SG.docx",
    "tc_pandoc/track_changes_move.docx",
    "scan_zh-tw_hualien/契約書.pdf",
]
SKIP_DIRS = {".cache", "cache", "__pycache__"}
HEX = re.compile(rb"\b[0-9a-f]{12,64}\b")
# what differs between two runs of the same code: the output folder's own path and timings
# (a report's "seconds" per file, its column in report.md, "… in 0.9s")
TIMINGS = [re.compile(rb'"seconds": [0-9.]+'), re.compile(rb"\| [0-9]+\.[0-9]+ \|$", re.MULTILINE),
           re.compile(rb"in [0-9]+\.[0-9]+ ?s\b")]


def _runs(out: Path) -> list[tuple[str, list[str]]]:
    runs = [
        ("sample", ["jbe", "--years", "2025", "--raw", "buildds/sample/pdf",
                    "--out", str(out / "sample")]),
        ("sample-eval", ["eval", str(out / "sample"), "--task", "jbe", "--model", "majority",
                         "--model", "tfidf", "--model", "random:0", "--shots", "0",
                         "--shots", "4", "--out", str(out / "sample-eval")]),
        ("sample-validate", ["validate", str(out / "sample"), "--out",
                             str(out / "sample-validate")]),
        ("highbar", ["eval", "buildds/sample/highbar", "--task", "highbar", "--model",
                     "mock:echo", "--judge", "mock:ones", "--judge", "mock:zeros",
                     "--form-judge", "mock:ones", "--form-judge", "mock:zeros",
                     "--out", str(out / "highbar")]),
    ]
    if not SHARED.is_dir():
        return runs
    scan_raw = out / "_scan_raw" / "2019"
    scan_raw.mkdir(parents=True, exist_ok=True)
    for name, src in (("kenpo-mondai.pdf", SHARED / "jbe/scanned/2019-kenpo-mondai-scan.pdf"),
                      ("kenpo-seito.pdf", SHARED / "jbe/pdf/2019/kenpo-seito.pdf")):
        if not (scan_raw / name).exists():
            (scan_raw / name).write_bytes(src.read_bytes())
    runs += [
        ("jbe", ["jbe", "--years", "2015-2024", "--raw", str(SHARED / "jbe/pdf"),
                 "--out", str(out / "jbe")]),
        ("jbe-scan", ["jbe", "--years", "2019", "--subjects", "kenpo", "--raw",
                      str(out / "_scan_raw"), "--out", str(out / "jbe-scan")]),
        ("contracts", ["contracts", *(str(SHARED / "realdata/contracts" / c) for c in CONTRACTS),
                       "--out", str(out / "contracts")]),
        ("judgments", ["judgments", str(SHARED / "realdata/judgments/judge-benchmark/test.json"),
                       "--law", str(SHARED / "realdata/judgments/cn-criminal-law"),
                       "--confusable", str(SHARED / "realdata/judgments/cn-confusable-charges"
                                           / "legalattack_sheet1_similar_charges.csv"),
                       "--out", str(out / "judgments"), "--seed", "0"]),
        ("judgments-eval", ["eval", str(out / "judgments"), "--task", "appellate-review",
                            "--model", "majority", "--model", "random:0", "--limit", "300",
                            "--out", str(out / "judgments-eval")]),
    ]
    return runs


PIN = """import buildds.pipeline
buildds.pipeline.package_code_version = lambda names: "pinned-code-ver"
"""


def _bad_inputs(out: Path) -> list[tuple[str, list[str]]]:
    """Runs that must fail, and say so the same way: their console output is compared too."""
    bad = out / "_bad"
    (bad / "jbe" / "2019").mkdir(parents=True, exist_ok=True)
    (bad / "jbe" / "2019" / "kenpo-mondai.pdf").write_bytes(b"<html>not a pdf</html>\n")
    (bad / "contracts").mkdir(exist_ok=True)
    (bad / "contracts" / "text.docx").write_text("just text\n", encoding="utf-8")
    (bad / "contracts" / "zip.pdf").write_bytes(b"PK\x03\x04" + b"\0" * 40)
    (bad / "judgments.jsonl").write_text('{"text_id": "x"}\n{not json\n', encoding="utf-8")
    sample = "buildds/sample/pdf/2025"
    if not (bad / "jbe" / "2019" / "kenpo-seito.pdf").exists():
        (bad / "jbe" / "2019" / "kenpo-seito.pdf").write_bytes(
            (Path(sample) / "kenpo-seito.pdf").read_bytes())  # another year's key
    runs = [
        ("bad-jbe-no-year", ["jbe", "--years", "2014", "--raw", "buildds/sample/pdf",
                             "--out", str(out / "bad-jbe-no-year")]),
        ("bad-jbe-files", ["jbe", "--years", "2019", "--subjects", "kenpo", "--raw",
                           str(bad / "jbe"), "--out", str(out / "bad-jbe-files")]),
        ("bad-contracts", ["contracts", str(bad / "contracts" / "text.docx"),
                           str(bad / "contracts" / "zip.pdf"), "--out",
                           str(out / "bad-contracts")]),
        ("bad-judgments", ["judgments", str(bad / "judgments.jsonl"), "--law", str(bad),
                           "--confusable", str(bad / "judgments.jsonl"), "--out",
                           str(out / "bad-judgments")]),
        ("bad-eval-model", ["eval", str(out / "sample"), "--model", "nonsense:x", "--out",
                            str(out / "bad-eval")]),
        ("bad-validate", ["validate", str(bad / "missing"), "--out", str(out / "bad-val")]),
        ("limits", ["limits"]),
    ]
    return runs + [(f"help-{c}", [c, "--help"]) for c in
                   ("jbe", "contracts", "judgments", "eval", "validate", "fetch", "limits")]


def build(src: Path, out: Path, pin: bool = False) -> int:
    out = out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    path = [str(src.resolve())]
    if pin:
        (out / "_pin").mkdir(exist_ok=True)
        (out / "_pin" / "sitecustomize.py").write_text(PIN, encoding="utf-8")
        path.insert(0, str(out / "_pin"))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(path), PYTHONHASHSEED="0")
    log = out / "_runs.log"
    console = out / "console"
    console.mkdir(exist_ok=True)
    with log.open("w", encoding="utf-8") as fh:
        for name, args in _runs(out) + _bad_inputs(out):
            proc = subprocess.run([sys.executable, "-m", "buildds", *args], cwd=src, env=env,
                                  capture_output=True, text=True, check=False)
            text = f"exit {proc.returncode}\n## stdout\n{proc.stdout}## stderr\n{proc.stderr}"
            fh.write(f"## {name}: {text}\n")
            # what a user sees is an output too (progress bars aside: they draw on a terminal)
            (console / f"{name}.txt").write_text(text, encoding="utf-8")
            print(f"{name}: exit {proc.returncode}", flush=True)
    return 0


def _files(root: Path) -> dict[str, Path]:
    found = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if path.is_file() and not (set(rel.parts) & SKIP_DIRS) and not rel.parts[0].startswith("_"):
            found[rel.as_posix()] = path
    return found


def _volatile(data: bytes, root: Path) -> bytes:
    data = data.replace(str(root.resolve()).encode(), b"<out>")
    for pattern in TIMINGS:
        data = pattern.sub(b"<time>", data)
    return data


def _masked(data: bytes) -> tuple[bytes, int]:
    return HEX.subn(b"<hex>", data)


def compare(a: Path, b: Path) -> int:
    fa, fb = _files(a), _files(b)
    same, volatile, masked, differ = [], [], [], []
    pairs: set[tuple[bytes, bytes]] = set()
    for rel in sorted(set(fa) | set(fb)):
        if rel not in fa or rel not in fb:
            differ.append(f"only in {'B' if rel not in fa else 'A'}: {rel}")
            continue
        da, db = fa[rel].read_bytes(), fb[rel].read_bytes()
        if da == db:
            same.append(rel)
            continue
        da, db = _volatile(da, a), _volatile(db, b)
        if da == db:
            volatile.append(rel)
            continue
        (ma, na), (mb, _) = _masked(da), _masked(db)
        if ma == mb:
            changed = [(x, y) for x, y in zip(HEX.findall(da), HEX.findall(db)) if x != y]
            pairs.update(changed)
            masked.append(f"{rel} ({len(changed)} of {na} digests)")
        else:
            differ.append(f"differs: {rel}")
    print(f"{len(same)} files byte-identical")
    print(f"{len(volatile)} files differ only in the output folder's path and timings:")
    for line in volatile:
        print(f"  {line}")
    print(f"{len(masked)} files differ only in code-version hashes (after paths and timings):")
    for line in masked:
        print(f"  {line}")
    print(f"the {len(pairs)} distinct digests that changed (A → B):")
    for x, y in sorted(pairs):
        print(f"  {x.decode()} → {y.decode()}")
    print(f"{len(differ)} files differ otherwise:")
    for line in differ:
        print(f"  {line}")
    return 1 if differ else 0


def main(argv: list[str]) -> int:
    if len(argv) in (3, 4) and argv[0] == "build" and argv[3:] in ([], ["--pin-code-version"]):
        return build(Path(argv[1]), Path(argv[2]), pin=len(argv) == 4)
    if len(argv) == 3 and argv[0] == "compare":
        return compare(Path(argv[1]), Path(argv[2]))
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
