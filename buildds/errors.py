"""The exception tree of buildds.

Errors *per document* are data (:class:`buildds.schema.Problem` on a result, with the
file and page); errors *per run* are exceptions::

    BuildError                      anything buildds raises on purpose
    ├── ExtractError                a file could not be read (names the file, page)
    │   └── PdfError                not a PDF, truncated, encrypted, empty, no text
    ├── TransformError              records could not be built from what was read
    │   └── KeyMismatchError        booklet and answer key disagree (names both files)
    ├── InjectionError              an error could not be injected (reserved)
    ├── ValidationFailed            a dataset failed its schema or checks
    ├── ExportError                 an output could not be written or validated
    ├── FetchError                  a download failed (network, checksum)
    └── MissingDependency           an optional extra is not installed (gives the pip line)

Every exception carries ``source`` (a path) and ``page`` (1-based) where they apply, and
its ``str()`` names them, so a person can open the file at that page and look.
"""

from __future__ import annotations

__all__ = [
    "BuildError",
    "ExportError",
    "ExtractError",
    "FetchError",
    "InjectionError",
    "KeyMismatchError",
    "MissingDependency",
    "PdfError",
    "TransformError",
    "ValidationFailed",
]


class BuildError(Exception):
    """Base class: a message, and optionally the file and page it is about."""

    def __init__(self, message: str, *, source: str | None = None, page: int | None = None):
        self.message = message
        self.source = source
        self.page = page
        super().__init__(str(self))

    def __str__(self) -> str:
        where = ""
        if self.source:
            where = f"{self.source}"
            if self.page is not None:
                where += f", page {self.page}"
            where += ": "
        return f"{where}{self.message}"


class ExtractError(BuildError):
    """A file could not be read."""


class PdfError(ExtractError):
    """A PDF is not a PDF, is truncated/corrupt, encrypted, empty, or has no usable text."""


class TransformError(BuildError):
    """Records could not be built from what was read."""


class KeyMismatchError(TransformError):
    """A question booklet and its answer key disagree on slots."""


class InjectionError(BuildError):
    """An error could not be injected validly."""


class ValidationFailed(BuildError):
    """A dataset failed its schema or its checks."""


class ExportError(BuildError):
    """An output could not be written, or failed its own schema."""


class FetchError(BuildError):
    """A download failed, or a downloaded file did not match its checksum."""


class MissingDependency(BuildError):
    """An optional extra is not installed."""

    def __init__(self, what: str, extra: str, *, hint: str | None = None):
        msg = f"{what} is not installed: run  pip install 'buildds[{extra}]'"
        if hint:
            msg += f"  ({hint})"
        super().__init__(msg)
