"""Read many contract files: :func:`read_documents` never stops on a bad one.

Each file is read by :func:`~buildds.extract.contracts.document.read_document`; ``jobs > 1`` hands the whole batch to one process pool
(:mod:`~buildds.extract.contracts.ocr_pool`).

The reader is split by input kind: :mod:`~buildds.extract.contracts.document` (one file:
dispatch on what its bytes are), :mod:`~buildds.extract.contracts.filetype` (supported
suffixes, bytes checked against the name), :mod:`~buildds.extract.contracts.pdf` (text and
scanned PDFs), :mod:`~buildds.extract.contracts.image` (images → OCR blocks),
:mod:`~buildds.extract.contracts.odt` (LibreOffice conversion),
:mod:`~buildds.extract.contracts.ocr_pool` (the pool of ``read_documents(jobs > 1)``),
:mod:`~buildds.extract.contracts.outline` (PDF bookmarks → heading blocks),
:mod:`~buildds.extract.contracts.confidence` and :mod:`~buildds.extract.contracts.errors`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from buildds.extract.contracts.document import file_options, read_one
from buildds.extract.contracts.ocr_pool import read_batch
from buildds.schema import Problem
from buildds.schema.contracts import ContractDocument

if TYPE_CHECKING:
    from buildds.executors import Executor

__all__ = ["read_documents"]


def read_documents(
    paths: Iterable[str | Path],
    *,
    root: str | Path | None = None,
    jobs: int = 1,
    executor: Executor | None = None,
    **kwargs: object,
) -> Iterator[tuple[Path, ContractDocument | None, list[Problem]]]:
    """Read many files; yield ``(path, document or None, problems)`` for each, in order.

    Never stops on a bad file: an :class:`ExtractError` (or a missing OCR dependency, or an
    unexpected exception — a bug — reported as ``internal_error``) becomes one error
    :class:`Problem` with the file and page, and the batch goes on. For a file that was read,
    ``problems`` are the document's own warnings. ``root`` makes the recorded source paths
    relative to it; other keyword arguments go to :func:`read_document` (``source_path`` is
    set per file); ``ocr_lang`` may also be a function of the recorded name returning the
    language for that file (a batch of Japanese and Chinese scans).

    ``jobs > 1`` uses one pool of that many worker processes (``fork``) for the whole batch:
    the pages to OCR of all the scans and images (and of text PDFs' textless pages) are read
    one page per task, largest first, so the workers stay busy however unevenly the pages are
    spread over the files; .docx/.odt files are read whole by a worker; text-layer PDFs are
    read in this process (``processes`` is not used). The documents are the same as with
    ``jobs=1``. An option :func:`read_document` does not know raises ``TypeError``.

    ``executor`` (a :class:`buildds.executors.Executor`: a local pool or Ray) runs the same
    page and document tasks instead, streamed with a bounded number in flight
    (:mod:`~buildds.extract.contracts.executor_read`); ``jobs`` is then not used."""
    kwargs.pop("source_path", None)

    def named(item: str | Path) -> tuple[Path, str]:
        path = Path(item)
        if root is not None:
            try:
                return path, path.relative_to(root).as_posix()
            except ValueError:
                pass
        return path, str(path)

    if executor is not None:
        from buildds.extract.contracts.executor_read import read_on_executor

        yield from read_on_executor([named(item) for item in paths], executor, kwargs)
        return
    if jobs <= 1:
        for item in paths:
            path, name = named(item)
            yield (path, *read_one(path, name, file_options(kwargs, name)))
        return

    yield from read_batch([named(item) for item in paths], jobs, kwargs)
