"""Statutes in versions: read statute files into articles (:mod:`buildds.schema.laws`), keep
them in a store keyed by enforcement date, compare versions, and ground items in articles.

* :mod:`.readers` — one statute file → :class:`~buildds.schema.laws.LawText`: e-Gov XML (API
  v1 ``lawdata``, a bare ``<Law>`` from API v2 or the bulk download), e-Gov HTML, the
  pre-2017 法令データ提供システム text, the PRC Markdown, article JSONL (the store's own
  format); chosen by content (``read_law``);
* :mod:`.articles` — e-Gov article keys (第三条の二 → ``3_2``, 之一 → ``133_1``), ``flat``
  text and its hash;
* :mod:`.revisions` — revisions from the e-Gov API v2 ``law_revisions`` answer or the curated
  table ``data/revisions.yaml`` (each date with its source; a fetch date is never one);
* :mod:`.store` — the law store: versions keyed by enforcement date, ``version_at``,
  ``article_at``, text not yet in force reported as such; :mod:`.egov_client` — e-Gov API v2;
* :mod:`.diff` — two versions → per-article changes (added, 削除, removed, moved, terminology
  only, substantive; similarity; paragraphs), :mod:`.terminology` (pluggable maps such as
  懲役・禁錮 → 拘禁刑, ``data/terminology_*.yaml``), :mod:`.diff_report`;
* :mod:`.grounding` — the articles a JBE item concerns (explicit references, or retrieved by
  BM25 over the articles: :mod:`.retrieval`), or ``unknown``;
* :mod:`.impact` — which items' grounds changed between the law their exam assumed
  (:mod:`.exam_dates`, ``data/exam_dates.yaml``) and an as-of date, with the revision and its
  transitional 附則 (:mod:`.impact_suppl`), the work a run's items share memoised
  (:mod:`.impact_memo`); :mod:`.impact_report` writes the report.

Sits above ``transform`` and below ``inject_errors`` (tests/import_graph.py). This package
itself exports nothing, so importing one module does not load the others (lxml, rapidfuzz,
the tokenizer): import from the modules.
"""

__all__: list[str] = []
