"""Review sources: one per kind of build output.

:mod:`.base` holds the records every source yields (:class:`.base.ReviewItem`,
:class:`.base.Verdict`), the protocol a source implements and :func:`.base.detect_source`,
which picks the source that recognises an output folder.

This package itself exports nothing: import from its modules.
"""

__all__: list[str] = []
