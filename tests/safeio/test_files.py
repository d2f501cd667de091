"""open_regular / check_regular_file refuse what is not a regular file inside its root."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from buildds.errors import ExtractError, LimitExceeded
from buildds.safeio import check_regular_file, open_regular, read_bytes_limited


def test_regular_file_is_read(tmp_path: Path) -> None:
    f = tmp_path / "a.pdf"
    f.write_bytes(b"%PDF-1.7 hello")
    with open_regular(f, root=tmp_path) as fh:
        assert fh.read() == b"%PDF-1.7 hello"
    assert check_regular_file(f) == f.resolve()


def test_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "x.pdf"
    os.mkfifo(fifo)
    with pytest.raises(ExtractError, match=r"x\.pdf: is a named pipe \(FIFO\), not a regular file"):
        open_regular(fifo)
    with pytest.raises(ExtractError, match="named pipe"):
        check_regular_file(fifo)


def test_link_to_dev_zero_is_refused(tmp_path: Path) -> None:
    link = tmp_path / "zero.docx"
    link.symlink_to("/dev/zero")
    with pytest.raises(ExtractError, match="zero.docx: is a character device"):
        open_regular(link)


def test_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "d.pdf").mkdir()
    with pytest.raises(ExtractError, match="d.pdf: is a folder"):
        open_regular(tmp_path / "d.pdf")


def test_link_leaving_root_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "task"
    root.mkdir()
    outside = tmp_path / "secret.txt"
    outside.write_text("secret")
    (root / "doc.txt").symlink_to(outside)
    with pytest.raises(ExtractError, match=r"doc\.txt: is a link to .*secret\.txt, outside"):
        open_regular(root / "doc.txt", root=root)
    # without a root the same link is an ordinary file
    with open_regular(root / "doc.txt") as fh:
        assert fh.read() == b"secret"


def test_link_inside_root_is_followed(tmp_path: Path) -> None:
    (tmp_path / "real.txt").write_text("x")
    (tmp_path / "alias.txt").symlink_to(tmp_path / "real.txt")
    assert check_regular_file(tmp_path / "alias.txt", root=tmp_path) == (tmp_path / "real.txt").resolve()


def test_missing_file_names_it(tmp_path: Path) -> None:
    with pytest.raises(ExtractError, match="nope.pdf: no such file"):
        open_regular(tmp_path / "nope.pdf")


def test_symlink_loop_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    with pytest.raises(ExtractError, match="cannot resolve"):
        open_regular(tmp_path / "a")


def test_read_bytes_limited(tmp_path: Path) -> None:
    f = tmp_path / "big.json"
    f.write_bytes(b"x" * 1000)
    assert read_bytes_limited(f, max_bytes=1000) == b"x" * 1000
    with pytest.raises(LimitExceeded, match=r"big\.json: file size 1,000 bytes exceeds the limit "
                                            r"of 999 bytes \(raise it with --max-bytes\)"):
        read_bytes_limited(f, max_bytes=999, option="--max-bytes")
