"""Evaluation backends: every model, baseline and mock behind one interface.

See :mod:`buildds.evaluate.backends.base` for the protocol and
:mod:`buildds.evaluate.backends.registry` for the spec syntax of :func:`make_backend`.
"""

from buildds.evaluate.backends.base import (
    Backend,
    BackendBase,
    OnResult,
    complete_bounded,
    report_result,
)
from buildds.evaluate.backends.registry import BACKEND_KINDS, check_spec, make_backend

__all__ = ["BACKEND_KINDS", "Backend", "BackendBase", "OnResult", "check_spec", "complete_bounded",
           "make_backend", "report_result"]
