"""BM25 retrieval over the articles of one code: which articles a statement is most likely
about.

* :class:`Analyzer` — how Japanese text becomes terms: SudachiPy (``sudachidict_core``)
  morphemes in a split mode, as surface, dictionary or normalised form (取消す → 取り消す),
  optionally only content words (nouns, verbs, adjectives…) and without stop words.
* :class:`ArticleIndex` — a BM25 (Okapi) index over one code's articles (deleted ones left
  out), each indexed as caption + flat text; :meth:`ArticleIndex.search` ranks them for a query,
  ties broken by article order (``"3"`` < ``"3_2"`` < ``"4"``), so a ranking is the same on
  every run.
* :func:`article_index` — the index of a code, built once per process and kept (keyed by the
  law and its articles' text hashes).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

import numpy as np
from rank_bm25 import BM25Okapi
from sudachipy import Dictionary, SplitMode

from buildds.laws.articles import article_sort_key
from buildds.schema.laws import LawArticle

__all__ = ["DEFAULT_ANALYZER", "Analyzer", "ArticleIndex", "article_index", "cached_terms"]

Form = Literal["surface", "dictionary", "normalized"]

#: parts of speech that carry the meaning of a legal sentence; particles, auxiliaries,
#: symbols and 非自立 verbs (する, ある, できる) are noise for matching
_CONTENT_POS = frozenset({"名詞", "動詞", "形容詞", "形状詞", "副詞", "接尾辞", "接頭辞"})
_FUNCTION_SUBPOS = frozenset({"非自立可能"})
#: words in nearly every article or statement, which only dilute BM25
STOP_WORDS = frozenset({
    "こと", "もの", "者", "場合", "規定", "とき", "ため", "前項", "同項", "次", "各号", "号",
    "条", "項", "第", "この", "その", "これ", "それ", "法律", "定める", "当該",
})


@dataclass(frozen=True)
class Analyzer:
    """How text becomes terms (see the module docstring)."""

    mode: Literal["A", "B", "C"] = "A"
    form: Form = "normalized"
    content_only: bool = True
    stop_words: bool = True

    def terms(self, text: str) -> list[str]:
        """The terms of ``text`` in order, repeated as often as they occur (each text analysed
        once per process: :func:`cached_terms`)."""
        return list(cached_terms(self, text))

    def analyse(self, text: str) -> tuple[str, ...]:
        """:meth:`terms`, not cached."""
        out = []
        for m in _tokenizer(self.mode).tokenize(text):
            pos = m.part_of_speech()
            if self.content_only and (pos[0] not in _CONTENT_POS
                                      or pos[1] in _FUNCTION_SUBPOS):
                continue
            term = (m.surface() if self.form == "surface" else m.dictionary_form()
                    if self.form == "dictionary" else m.normalized_form())
            if self.stop_words and term in STOP_WORDS:
                continue
            out.append(term)
        return tuple(out)


DEFAULT_ANALYZER = Analyzer()


@lru_cache(maxsize=1 << 16)
def cached_terms(analyzer: Analyzer, text: str) -> tuple[str, ...]:
    """Tokenising is most of a query's cost; a rerun over the same items (another as-of
    date, a benchmark's warm pass) asks the same texts again."""
    return analyzer.analyse(text)


@lru_cache(maxsize=4)
def _tokenizer(mode: str):  # type: ignore[no-untyped-def]
    split = {"A": SplitMode.A, "B": SplitMode.B, "C": SplitMode.C}[mode]
    return Dictionary(dict="core").tokenizer(mode=split)


class ArticleIndex:
    """A BM25 index over the (not deleted) articles of one law."""

    def __init__(self, articles: Sequence[LawArticle], analyzer: Analyzer = DEFAULT_ANALYZER,
                 *, with_caption: bool = True) -> None:
        live = sorted((a for a in articles if not a.deleted), key=lambda a: article_sort_key(a.article))
        if not live:
            raise ValueError("an article index needs at least one article that is not deleted")
        self.law_id = live[0].law_id
        self.analyzer = analyzer
        self.keys: tuple[str, ...] = tuple(a.article for a in live)
        corpus = [analyzer.terms(((a.caption or "") if with_caption else "") + a.flat)
                  for a in live]
        # rank_bm25 divides by the mean length: an all-empty corpus must not reach it
        self._bm25 = BM25Okapi([terms or ["\u3000"] for terms in corpus])
        # rank_bm25 scores by walking every document for every query term (3 s per 1,000
        # statements on 民法); postings per term give the same sums at a fraction of that
        bm = self._bm25
        self._norm = bm.k1 * (1 - bm.b + bm.b * np.array(bm.doc_len, dtype=float) / bm.avgdl)
        docs: dict[str, list[int]] = {}
        for i, freqs in enumerate(bm.doc_freqs):
            for term in freqs:
                docs.setdefault(term, []).append(i)
        # each term's share of the score of each article holding it, computed once: the same
        # floating-point operations in the same order as per query, so the same numbers
        self._postings: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        for term, ids in docs.items():
            at = np.array(ids)
            tf = np.array([bm.doc_freqs[i][term] for i in ids], dtype=float)
            self._postings[term] = (at, bm.idf[term] * (tf * (bm.k1 + 1) / (tf + self._norm[at])))

    def search(self, query: str, k: int = 5) -> list[tuple[str, float]]:
        """The ``k`` best articles for ``query`` as ``(article key, score)``, best first; only
        articles with a positive score; ties in article order."""
        return self.search_terms(self.analyzer.terms(query), k)

    def scores(self, terms: Sequence[str]) -> np.ndarray:
        """BM25 (Okapi, rank_bm25's parameters and idf floor) of every article, in ``keys``
        order — the numbers ``BM25Okapi.get_scores`` gives."""
        out = np.zeros(len(self.keys))
        for term in terms:
            posting = self._postings.get(term)
            if posting is not None:
                out[posting[0]] += posting[1]
        return out

    def search_terms(self, terms: Sequence[str], k: int = 5) -> list[tuple[str, float]]:
        """:meth:`search` for a query already analysed into terms."""
        if not terms or k <= 0:
            return []
        scores = self.scores(terms)
        positive = np.flatnonzero(scores > 0)
        if len(positive) > k:
            # only articles within 1e-8 of the k-th best score can be among the k best once
            # scores are rounded to 1e-9: sort those few, not all ~1,200
            kth = np.partition(scores[positive], len(positive) - k)[len(positive) - k]
            positive = positive[scores[positive] >= kth - 1e-8]
        # keys are in article order (and so is ``positive``): a stable sort on the rounded
        # score alone breaks ties by it
        order = sorted(positive.tolist(), key=lambda i: -round(float(scores[i]), 9))
        return [(self.keys[i], round(float(scores[i]), 6)) for i in order[:k]]


_INDEXES: dict[tuple[str, Analyzer, bool], ArticleIndex] = {}


def article_index(articles: Sequence[LawArticle], analyzer: Analyzer = DEFAULT_ANALYZER,
                  *, with_caption: bool = True) -> ArticleIndex:
    """The index of ``articles``, built on the first call and reused for the same articles
    (same keys and text hashes) for the rest of the process."""
    digest = hashlib.sha256("\n".join(f"{a.law_id}\t{a.article}\t{a.text_hash}\t{a.caption}"
                                      for a in articles).encode()).hexdigest()
    key = (digest, analyzer, with_caption)
    if key not in _INDEXES:
        _INDEXES[key] = ArticleIndex(articles, analyzer, with_caption=with_caption)
    return _INDEXES[key]
