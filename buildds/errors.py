"""The exception tree of buildds.

Errors *per document* are data (:class:`buildds.schema.Problem` on a result, with the
file and page); errors *per run* are exceptions::

    BuildError                      anything buildds raises on purpose
    ├── ExtractError                a file could not be read (names the file, page)
    │   ├── PdfError                not a PDF, truncated, encrypted, empty, no text
    │   └── LimitExceeded           an input would multiply work past a limit (names the
    │                               limit and the option that raises it)
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
    "LimitExceeded",
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
        # a name that is not UTF-8 is shown with \xNN escapes (imported here: safeio
        # imports this module)
        from buildds.safeio.names import printable_name

        where = ""
        if self.source:
            where = printable_name(self.source)
            if self.page is not None:
                where += f", page {self.page}"
            where += ": "
        return f"{where}{self.message}"


class ExtractError(BuildError):
    """A file could not be read."""


class PdfError(ExtractError):
    """A PDF is not a PDF, is truncated/corrupt, encrypted, empty, or has no usable text."""


class LimitExceeded(ExtractError):
    """An input would make buildds do more work than a limit allows (archive member bytes,
    pages, pixels, numbering values, JSON depth …). The message names the limit, the value
    that hit it and the option that raises it."""

    def __init__(self, what: str, value: object, limit: object, *, option: str | None = None,
                 source: str | None = None, page: int | None = None):
        self.what = what
        self.value = value
        self.limit = limit
        self.option = option
        msg = f"{what} {value} exceeds the limit of {limit}"
        if option:
            msg += f" (raise it with {option})"
        super().__init__(msg, source=source, page=page)


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
    """Something buildds needs is not installed: an optional extra (``extra`` names it, and
    the message gives the pip line), a core package of a broken install (``extra=None``,
    ``core=True``), or a system package (``extra=None``; ``hint`` gives the apt line)."""

    def __init__(self, what: str, extra: str | None = None, *, hint: str | None = None,
                 core: bool = False):
        self.extra = extra
        if extra:
            msg = f"{what} is not installed: run  pip install 'buildds[{extra}]'"
        elif core:
            msg = (f"{what} is not installed, though buildds depends on it: reinstall with  "
                   "pip install --force-reinstall buildds")
        else:
            msg = f"{what} is not installed"
        if hint:
            msg += f"  ({hint})"
        super().__init__(msg)
