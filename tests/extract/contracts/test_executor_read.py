"""``read_documents(..., executor=…)``: the documents of a serial read, in input order, and
streamed — a file is yielded once its tasks are back, before later files are even planned."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from buildds.executors import make_executor
from buildds.extract.contracts import executor_read
from buildds.extract.contracts.reader import read_documents
from tests.conftest import simple_pdf_bytes
from tests.extract.contracts.test_reader import make_docx


def _files(tmp_path: Path) -> list[Path]:
    files = [make_docx(tmp_path / f"c{i}.docx", [f"第{i}条（目的）本契約は、委託について定める。"])
             for i in range(1, 7)]
    bad = tmp_path / "bad.docx"
    bad.write_bytes(simple_pdf_bytes("x"))  # a PDF named .docx: wrong_file_type
    text = tmp_path / "t.pdf"
    text.write_bytes(simple_pdf_bytes("ARTICLE 1 - PURPOSE", "The Supplier provides."))
    return [files[0], bad, text, *files[1:]]


@pytest.mark.parametrize("jobs", [1, 2])
def test_same_documents_as_a_serial_read(tmp_path: Path, jobs: int) -> None:
    files = _files(tmp_path)
    serial = list(read_documents(files, root=tmp_path))
    with make_executor("local", jobs=jobs) as ex:  # type: ignore[attr-defined]
        got = list(read_documents(files, root=tmp_path, executor=ex))
    assert [(p, d, pr) for p, d, pr in got] == [(p, d, pr) for p, d, pr in serial]
    assert got[1][1] is None and got[1][2][0].code == "wrong_file_type"
    assert got[1][2][0].source == "bad.docx"


def test_files_are_yielded_as_they_complete(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    files = _files(tmp_path)
    planned: list[str] = []
    real = executor_read._plan_entry

    def counting(entry: Any, *args: Any) -> None:
        planned.append(entry.name)
        real(entry, *args)

    monkeypatch.setattr(executor_read, "_plan_entry", counting)
    with make_executor("local", jobs=1) as ex:  # type: ignore[attr-defined]
        results = read_documents(files, root=tmp_path, executor=ex)
        path, doc, _ = next(results)
        assert path == files[0] and doc is not None
        assert len(planned) < len(files)  # the rest is not even planned yet
        assert len(list(results)) == len(files) - 1
    assert planned == [f.name for f in files]


def test_a_failed_task_fails_only_its_file(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    files = _files(tmp_path)[:3]
    real = executor_read.read_one

    def broken(path: Path, name: str, options: Any) -> Any:
        if name == "c1.docx":
            raise RuntimeError("disk on fire")
        return real(path, name, options)

    monkeypatch.setattr(executor_read, "read_one", broken)
    with make_executor("local", jobs=1) as ex:  # type: ignore[attr-defined]
        got = list(read_documents(files, root=tmp_path, executor=ex))
    assert got[0][1] is None and "disk on fire" in got[0][2][0].message
    assert got[0][2][0].source == "c1.docx"
    assert got[2][1] is not None
