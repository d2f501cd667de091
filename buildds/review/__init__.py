"""``buildds review``: a local web app where a person checks what a build flagged.

* :mod:`.sources` — what needs review in one build output (JBE, contracts, judgments, a High
  Bar eval run) and where each verdict is written as data (:class:`.sources.base.ReviewSource`);
* the web app serving a queue of those items beside their evidence.

This package itself exports nothing: import from its modules.
"""

__all__: list[str] = []
