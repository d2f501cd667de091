"""buildds.text.lines: whitespace runs, page numbers and wrapped-line joining (moved here from
tests/extract/test_pdf.py with the functions)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from buildds.text import is_page_number, join_wrapped, normalise_spaces


def test_wrapped_japanese_line_joins_without_a_space_and_english_with_one() -> None:
    assert join_wrapped(["民法第百条の規定に", "よれば、"]) == "民法第百条の規定によれば、"
    assert join_wrapped(["The contract is", "void."]) == "The contract is void."


@pytest.mark.parametrize(
    ("parts", "joined"),
    [
        # Japanese: the line break is not a word break
        (["民法第５条の規定に", "よれば、未成年者は"], "民法第５条の規定によれば、未成年者は"),
        (["〔第１問〕（配点：２）", "次のアからウまで"], "〔第１問〕（配点：２）次のアからウまで"),
        (["平成", "27", "年"], "平成27年"),
        # English words get one space
        (["The quick brown", "fox jumps"], "The quick brown fox jumps"),
        (["see Article", "5"], "see Article 5"),
        (["as amended,", "the Act"], "as amended, the Act"),
        (["(see above)", "and below"], "(see above) and below"),
        # hyphenated English re-joined; a hyphen before a capital or digit stays
        (["inter-", "national law"], "international law"),
        (["a well-", "known rule"], "a wellknown rule"),
        (["COVID-", "19 measures"], "COVID-19 measures"),
        (["Anglo-", "Saxon"], "Anglo-Saxon"),
        (["-", "lower"], "-lower"),
        # empty and blank parts are skipped, parts are stripped
        (["", "  ", "word", "", "\u3000", "next"], "word next"),
        (["  padded  ", "\tline\t"], "padded line"),
        ([], ""),
        (["", ""], ""),
        (["単独"], "単独"),
    ],
)
def test_join_wrapped(parts: list[str], joined: str) -> None:
    assert join_wrapped(parts) == joined


def test_join_wrapped_accepts_an_iterator() -> None:
    assert join_wrapped(iter(["甲は", "乙に"])) == "甲は乙に"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a\u3000b", "a b"),
        ("a\u3000\u3000\u3000b", "a b"),
        ("a\tb\t\tc", "a b c"),
        ("a \t\u3000 b", "a b"),
        ("\u3000\u3000全角で始まる\u3000", "全角で始まる"),
        ("  lead and trail  ", "lead and trail"),
        ("no\u00a0break\u2003em", "no break em"),
        ("備\u3000考", "備 考"),
        ("", ""),
        ("\t\u3000 ", ""),
        ("unchanged", "unchanged"),
    ],
)
def test_normalise_spaces(text: str, expected: str) -> None:
    assert normalise_spaces(text) == expected


@pytest.mark.parametrize(
    "text",
    ["- 3 -", "-3-", "－ ３ －", "— 12 —", "3", "１２", " 7 ", "3/10", "3 / 10", "Page 3",
     "page 3 of 10", "PAGE 12", "(3)", "（３）", "第3頁", "第 12 頁"],
)
def test_is_page_number_yes(text: str) -> None:
    assert is_page_number(text)


@pytest.mark.parametrize(
    "text",
    ["", "〔第４問〕", "〔第４問〕（配点：２）", "第3条", "2024年", "- a -", "Page", "page three",
     "3.", "1-2", "12 34", "Confidential draft", "［No.３］", "（配点：２）", "No. 3", "- 3"],
)
def test_is_page_number_no(text: str) -> None:
    assert not is_page_number(text)


_SPACE_CHARS = " \t\u3000\u00a0"


@given(st.text(alphabet=st.sampled_from("ab漢字。" + _SPACE_CHARS), max_size=40))
def test_normalise_spaces_properties(text: str) -> None:
    out = normalise_spaces(text)
    assert normalise_spaces(out) == out  # idempotent
    assert "  " not in out and out == out.strip()
    assert not any(ch in out for ch in "\t\u3000\u00a0")
    assert out.replace(" ", "") == "".join(ch for ch in text if ch not in _SPACE_CHARS)


@given(st.lists(st.text(alphabet="民法第条の規定によれ、。０１２", min_size=0, max_size=8), max_size=6))
def test_join_wrapped_japanese_is_plain_concatenation(parts: list[str]) -> None:
    assert join_wrapped(parts) == "".join(parts)
