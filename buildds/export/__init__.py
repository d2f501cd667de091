"""Stage 5, export: records → files users load (written atomically, with provenance).

* :mod:`.xml` — the exam as XML, validated against ``schemas/jbe_exam.xsd``;
* :mod:`.hf` — the JBE-QA ``DatasetDict``, parquet and dataset card (``cards/*.md.j2``,
  rendered in a Jinja2 sandbox); :mod:`.hf_as_of` — the columns and card section an
  ``--as-of`` build adds (status and grounds);
* :mod:`.rikai`, :mod:`.arbench` — the LegalRikai and AR-Bench exports;
* :mod:`.common` — what every export shares (features, card rendering, staging).

This package itself exports nothing: import from its modules.
"""

__all__: list[str] = []
