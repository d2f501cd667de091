"""Evaluation backends: every model, baseline and mock behind one interface.

See :mod:`buildds.evaluate.backends.base` for the protocol and the spec syntax of
:func:`make_backend`.
"""

from buildds.evaluate.backends.base import (
    BACKEND_KINDS,
    Backend,
    BackendBase,
    OnResult,
    check_spec,
    complete_bounded,
    make_backend,
)

__all__ = ["BACKEND_KINDS", "Backend", "BackendBase", "OnResult", "check_spec", "complete_bounded",
           "make_backend"]
