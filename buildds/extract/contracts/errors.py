"""Errors of the contract reader and the :class:`Problem` each becomes.

:func:`contract_error` raises an :class:`ExtractError` carrying a problem ``code``;
:func:`failure_problem` turns any exception met while reading one file into the error Problem
that stands for that file in a batch (:func:`_code` picks the code when the exception has none).
"""

from __future__ import annotations

from buildds.errors import BuildError, ExtractError, LimitExceeded, MissingDependency
from buildds.schema import Problem


def contract_error(message: str, name: str, code: str, page: int | None = None) -> ExtractError:
    exc = ExtractError(message, source=name, page=page)
    exc.code = code  # type: ignore[attr-defined]
    return exc


def _code(exc: BaseException) -> str:
    code = getattr(exc, "code", None)
    if isinstance(code, str):
        return code
    if isinstance(exc, MissingDependency):
        return "missing_dependency"
    if isinstance(exc, LimitExceeded):
        return "limit_exceeded"
    message = str(exc).lower()
    if "password" in message or "encrypted" in message:
        return "encrypted"
    if isinstance(exc, BuildError):
        return "unreadable"
    return "internal_error"


def failure_problem(exc: BaseException, name: str) -> Problem:
    """The error Problem for a file that could not be read."""
    if isinstance(exc, BuildError):
        message, code = exc.message, _code(exc)
    else:
        message, code = f"unexpected {type(exc).__name__}: {exc}", "internal_error"
    source = getattr(exc, "source", None) or name
    return Problem(stage="extract", code=code, message=message, source=source,
                   page=getattr(exc, "page", None))
