"""Benchmark: grounding JBE items in statute articles (buildds.laws.grounding).

On a built JBE dataset (2015–2024) and the 民法 (2023-06-14) and 刑法 (2023-07-13) article
files in ../shared/realdata/laws, prints per subject:

* explicit coverage — the share of items with at least one explicit ground, and the share
  left ``unknown``;
* retrieval recall@1/5/10 on gold links we trust without hand-labelling: the articles an item
  cites explicitly. The retriever is asked the production query (theme + lead-in +
  statement with every 第N条 reference masked, 参照条文 blocks left out), so it never sees
  the reference it must find. Counted per (item, cited article) link;
* the same recall for a few retrieval variants (tokenizer form, split mode, content words,
  stop words, caption in the index, theme/lead-in in the query), to show what helped;
* time: index build per code, and grounding per 1,000 items.

Usage:

    python3 benchmarks/bench_laws_grounding.py [--dataset /tmp/l4_jbe] [--raw ../shared/jbe/pdf]
        [--laws ../shared/realdata/laws]

Without ``--dataset`` the dataset is built into a temporary folder from ``--raw`` first.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path

import pandas as pd

from buildds.laws.grounding import (
    CIVIL_CODE,
    PENAL_CODE,
    SUBJECT_LAWS,
    explicit_grounds,
    ground_items,
    item_references,
    mask_references,
    retrieval_query,
)
from buildds.laws.readers import read_law
from buildds.laws.retrieval import Analyzer, ArticleIndex, article_index
from buildds.schema.core import JbeItem
from buildds.schema.laws import LawArticle

REPO = Path(__file__).resolve().parent.parent
FILES = {CIVIL_CODE: "jp-civil-code/articles_2023-06-14.jsonl",
         PENAL_CODE: "jp-penal-code/articles_2023-07-13.jsonl"}
KS = (1, 5, 10)


def load_articles(path: Path) -> list[LawArticle]:
    """The provider's per-article JSONL as LawArticle records, through buildds' own
    article-JSONL reader (text_hash = sha256(flat))."""
    return list(read_law(path).articles)


def load_items(dataset: Path) -> list[JbeItem]:
    frames = [pd.read_parquet(p) for p in sorted((dataset / "data").glob("*.parquet"))]
    rows = pd.concat(frames).sort_values("id").to_dict("records")
    fields = set(JbeItem.model_fields)
    items = []
    for row in rows:
        clean = {k: (None if isinstance(v, float) and pd.isna(v) else v)
                 for k, v in row.items() if k in fields}
        corrections = clean.get("corrections")
        clean["corrections"] = () if corrections is None else tuple(corrections)
        items.append(JbeItem.model_validate(clean))
    return items


def cited(item: JbeItem, law: str) -> set[str]:
    """The articles of ``law`` an item cites — from any subject (a 憲法 statement citing
    民法第九十条 is a gold link for the 民法 index too)."""
    own = SUBJECT_LAWS[item.subject_jp]
    if law == own:
        return {g.article for g in explicit_grounds(item)}
    return {r.article for r in item_references(item) if r.law == law}


def recall(items: Sequence[JbeItem], index: ArticleIndex,
           query: Callable[[JbeItem], str]) -> tuple[dict[int, float], int]:
    """recall@k per link over the items that cite an article of the index's law."""
    hits: Counter[int] = Counter()
    links = 0
    for item in items:
        gold = cited(item, index.law_id) & set(index.keys)
        if not gold:
            continue
        ranked = [key for key, _ in index.search(query(item), max(KS))]
        for article in gold:
            links += 1
            for k in KS:
                hits[k] += article in ranked[:k]
    return {k: hits[k] / links if links else 0.0 for k in KS}, links


def _query_statement_only(item: JbeItem) -> str:
    return mask_references(item.question)


def _query_without_theme(item: JbeItem) -> str:
    return retrieval_query(item.model_copy(update={"theme": None}))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dataset", type=Path)
    ap.add_argument("--raw", type=Path, default=REPO.parent / "shared" / "jbe" / "pdf")
    ap.add_argument("--laws", type=Path, default=REPO.parent / "shared" / "realdata" / "laws")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        dataset = args.dataset
        if dataset is None:
            dataset = Path(tmp) / "jbe"
            subprocess.run([sys.executable, "-m", "buildds", "jbe", "--years", "2015-2024",
                            "--raw", str(args.raw), "--out", str(dataset), "-q"], check=True)
        items = load_items(dataset)
    codes = {law: load_articles(args.laws / rel) for law, rel in FILES.items()}
    print(f"{len(items)} items; " + ", ".join(f"{law}: {len(a)} articles"
                                               for law, a in codes.items()))

    for law, articles in codes.items():
        t = time.perf_counter()
        article_index(articles)
        print(f"index {law}: built in {time.perf_counter() - t:.2f}s")
    t = time.perf_counter()
    grounds = list(ground_items(items, codes))
    took = time.perf_counter() - t
    print(f"grounding: {took:.2f}s for {len(items)} items = "
          f"{1000 * took / len(items):.2f}s per 1,000 items (indexes built)")

    by_subject: dict[str, list[int]] = defaultdict(list)
    for i, item in enumerate(items):
        by_subject[item.subject_jp].append(i)
    print("\nsubject  items  explicit  retrieved  unknown  (share with >=1 explicit ground)")
    for subject, idx in sorted(by_subject.items()):
        status = Counter(grounds[i].status for i in idx)
        n = len(idx)
        print(f"{subject}  {n:5d}  {status['explicit'] / n:8.1%}  {status['retrieved'] / n:9.1%}"
              f"  {status['unknown'] / n:7.1%}")

    variants: list[tuple[str, Analyzer, bool, Callable[[JbeItem], str]]] = [
        ("default: normalized form, split mode A, content words, stop words, caption; "
         + "theme+lead-in+statement", Analyzer(), True, retrieval_query),
        ("query: statement only", Analyzer(), True, _query_statement_only),
        ("query: no theme", Analyzer(), True, _query_without_theme),
        ("index: no caption", Analyzer(), False, retrieval_query),
        ("surface form", Analyzer(form="surface"), True, retrieval_query),
        ("dictionary form", Analyzer(form="dictionary"), True, retrieval_query),
        ("split mode C", Analyzer(mode="C"), True, retrieval_query),
        ("all words (no POS filter)", Analyzer(content_only=False), True, retrieval_query),
        ("no stop words", Analyzer(stop_words=False), True, retrieval_query),
    ]
    print("\nrecall of explicitly cited articles with the reference masked (per link)")
    print("(own: items of the code's subject; all: items of any subject citing the code)")
    for name, analyzer, caption, query in variants:
        cells = []
        for law, articles in codes.items():
            subject = next(s for s, code in SUBJECT_LAWS.items() if code == law)
            index = article_index(articles, analyzer, with_caption=caption)
            for scope, sub in (("own", [items[i] for i in by_subject[subject]]),
                               ("all", items)):
                r, links = recall(sub, index, query)
                cells.append(f"{subject} {scope} n={links}: "
                             + " ".join(f"@{k} {r[k]:.3f}" for k in KS))
        print(f"- {name}\n    " + "\n    ".join(cells))


if __name__ == "__main__":
    main()
