"""loads_strict: JSON with limits on depth and number size, no NaN/Infinity."""

from __future__ import annotations

import json

import pytest

from buildds.safeio.json_strict import JsonLimitError, json_depth, loads_strict


def test_ordinary_json_is_unchanged() -> None:
    text = '{"a": [1, 2.5, -3e2, {"b": null, "c": "文字"}], "d": true}'
    assert loads_strict(text) == json.loads(text)
    assert loads_strict(text.encode()) == json.loads(text)


@pytest.mark.parametrize("text, message", [
    ("NaN", "NaN is not a JSON number"),
    ('{"x": Infinity}', "Infinity is not a JSON number"),
    ("[-Infinity]", "-Infinity is not a JSON number"),
    ("[1e999]", "1e999 is out of the range of a float"),
    ("1" * 5000, "a number of 5000 digits exceeds the limit of 100"),
    ('{"n": -' + "9" * 101 + "}", "101 digits exceeds the limit of 100"),
])
def test_non_numbers_and_huge_numbers_are_refused(text: str, message: str) -> None:
    with pytest.raises(JsonLimitError, match=message):
        loads_strict(text)


def test_depth_limit() -> None:
    ok = "[" * 64 + "]" * 64
    assert json_depth(loads_strict(ok)) == 64
    with pytest.raises(JsonLimitError, match="nesting of 65 levels exceeds the limit of 64"):
        loads_strict("[" * 65 + "]" * 65)
    with pytest.raises(JsonLimitError, match="limit of 10"):
        loads_strict('{"a":' * 11 + "1" + "}" * 11, max_depth=10)


def test_nesting_past_the_interpreter_is_a_limit_error_not_a_crash() -> None:
    with pytest.raises(JsonLimitError, match="nesting"):
        loads_strict("[" * 200_000 + "]" * 200_000)


def test_many_brackets_in_strings_do_not_count() -> None:
    text = json.dumps({"t": "[" * 500})
    assert loads_strict(text) == {"t": "[" * 500}


def test_bad_json_is_a_decode_error() -> None:
    with pytest.raises(json.JSONDecodeError):
        loads_strict("{bad")
