"""Whole builds: one function per CLI command, composing the stages.

* :mod:`.jbe` (stage 1: booklets → XML), :mod:`.jbe_dataset` (stage 2: XML → items →
  export), :mod:`.jbe_as_of` (an ``--as-of`` build: items a revision touched held back),
  :mod:`.jbe_report`, :mod:`.jbe_checks` — ``buildds jbe``;
* :mod:`.contracts` — ``buildds contracts``; :mod:`.judgments` — ``buildds judgments``, with
  :mod:`.judgments_inputs` (its settings, option checks and inputs) and
  :mod:`.judgments_versions` (a statute profile per version, ``--law-store``);
* :mod:`.input_sources` — who published each judgments / contracts input and under which
  licence, from a ``buildds-sources.yaml`` or ``PROVENANCE.md`` beside it (for the card);
* :mod:`.failures` — the one-line failure messages every build prints.

This package itself exports nothing: import from its modules.
"""

__all__: list[str] = []
