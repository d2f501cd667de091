"""Stage 2, transform: extracted documents → the records a dataset is made of.

* :mod:`.jbe_items` — exam questions → JBE-QA true/false items, exclusions with reasons;
  :mod:`.corrections` — corrections as data (``corrections/*.yaml``), applied on every
  build; :mod:`.jbe_summary` — counts per subject and year;
* :mod:`.clauses` — a contract's blocks → clauses (Japanese and English headings);
* :mod:`.rikai` — clauses → LegalRikai-style clause tables, annotations, items and splits.

Text utilities every stage shares live below this stage in :mod:`buildds.text`. This
package itself exports nothing: import from its modules.
"""

__all__: list[str] = []
