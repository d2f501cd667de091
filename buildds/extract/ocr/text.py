"""Text of an OCR reading: Japanese tidying and character accuracy.

Part of :mod:`buildds.extract.ocr` (the engine); nothing here runs tesseract.
"""

from __future__ import annotations

import re
import unicodedata

from buildds.text import normalise_spaces

__all__ = ["char_accuracy", "tidy_japanese"]

_FULLWIDTH_PUNCT = {
    "(": "（",
    ")": "）",
    "[": "［",
    "]": "］",
    ":": "：",
    ";": "；",
    ".": "．",
    ",": "，",
    "!": "！",
    "?": "？",
}
_OPENERS = {"（": "）", "［": "］"}
_WIDE_AMBIGUOUS = set("○×△□◎●■◆◇※…‥①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳⑴⑵⑶⑷⑸")
# "- 3 -" as tesseract reads it in Japanese mode: ー 3 -, 一 3 ニー …
_FOOTER = re.compile(r"^[ー－—―‐\-一ニ二=]{1,3}\s*(\d+)\s*[ー－—―‐\-一ニ二=]{1,3}$")
# a one-letter label "a." / "b." opening a line or following another label ("ア．a．…")
_LETTER_LABEL = re.compile(r"(?:^|(?<=[．.]))\s*([A-Za-z])\s*\.\s*(?=\S)")
_KANJI_NUMERALS = set("〇一二三四五六七八九十百千万億")
# "［No. 33］": tesseract's space after "No." when the number follows a Japanese bracket
_NO_SPACE = re.compile(r"(?<=[［（〔【]No\.) (?=[0-9０-９])")
_UPPER_RUN = re.compile(r"(?<![A-Za-z0-9])[A-Z]{1,3}(?![A-Za-z0-9])")


def _is_wide(ch: str | None) -> bool:
    """A Japanese (full-width) character: Han, kana, CJK punctuation, full-width forms."""
    if not ch:
        return False
    return unicodedata.east_asian_width(ch) in ("W", "F") or ch in _WIDE_AMBIGUOUS


def _is_ascii_letter(ch: str | None) -> bool:
    return bool(ch) and ch.isascii() and ch.isalpha()  # type: ignore[union-attr]


def _is_digit(ch: str | None) -> bool:
    return bool(ch) and ch.isdigit()  # type: ignore[union-attr]


def _neighbour(chars: list[str], i: int, step: int) -> str | None:
    j = i + step
    while 0 <= j < len(chars):
        if chars[j] != " ":
            return chars[j]
        j += step
    return None


def _at(chars: list[str], i: int) -> str | None:
    return chars[i] if 0 <= i < len(chars) else None


def _in_number(chars: list[str], i: int) -> bool:
    """True when chars[i] is part of a longer number: a digit next to another digit or to a
    separator followed by a digit (10, 1.5, 1,000), or a ``.``/``,`` between two digits."""
    prev, nxt = _at(chars, i - 1), _at(chars, i + 1)
    if not chars[i].isdigit():
        return _is_digit(prev) and _is_digit(nxt)
    if _is_digit(prev) or _is_digit(nxt):
        return True
    seps = (".", ",", "．", "，")
    return (prev in seps and _is_digit(_at(chars, i - 2))) or (
        nxt in seps and _is_digit(_at(chars, i + 2))
    )


def tidy_japanese(text: str, *, fullwidth: bool = True) -> str:
    """Undo tesseract's Latin habits in Japanese text.

    * ASCII brackets and punctuation next to Japanese characters become full-width
      (``ア.`` → ``ア．``, ``(配点 : 2)`` → ``（配点：２）``); a ``.`` after a Latin letter stays
      (``No.``), as do ``.``/``,`` inside numbers;
    * a single digit next to Japanese characters becomes full-width (``後記 1 から`` →
      ``後記１から``), the convention of Japanese typesetting; numbers of two or more digits
      stay half-width (``〔第10問〕``);
    * likewise one to three capital letters standing alone next to Japanese characters
      (party names: ``AB間`` → ``ＡＢ間``, ``Ａ説``); ``fullwidth=False`` keeps digits and
      letters as read;
    * spaces next to a Japanese character are removed, unless the other side is a Latin
      letter (``民法 Civil Code`` keeps its spaces, ``Civil Code`` too);
    * a one-letter label before Japanese text becomes full-width (``a. 当該`` → ``ａ．当該``);
    * ``〇`` (the kanji zero) away from kanji numerals becomes the mark ``○``;
    * ``［No. 33］`` loses the space tesseract puts after ``No.``;
    * a page-number footer read as ``ー 2 -`` becomes ``- 2 -``.
    """
    text = normalise_spaces(text)
    footer = _FOOTER.match(text)
    if footer:
        return f"- {footer.group(1)} -"
    if fullwidth:
        text = _widen_letter_labels(text)
    chars = list(text)
    _mark_lone_zeros(chars)
    _widen_punctuation_and_digits(chars, fullwidth)
    if fullwidth:
        _widen_capitals(chars)
    chars = list(_NO_SPACE.sub("", "".join(chars)))
    return _drop_spaces_by_japanese(chars)


def _widen_letter_labels(text: str) -> str:
    """``a. 当該`` → ``ａ．当該``: a one-letter label before Japanese text."""
    return _LETTER_LABEL.sub(
        lambda m: (
            chr(ord(m.group(1)) + 0xFEE0) + "．"
            if _is_wide(text[m.end()] if m.end() < len(text) else None)
            else m.group(0)
        ),
        text,
    )


def _mark_lone_zeros(chars: list[str]) -> None:
    """``〇`` (the kanji zero) away from kanji numerals becomes the mark ``○``, in place."""
    for i, ch in enumerate(chars):
        if ch == "〇" and not (
            _at(chars, i - 1) in _KANJI_NUMERALS or _at(chars, i + 1) in _KANJI_NUMERALS
        ):
            chars[i] = "○"


def _widen_punctuation_and_digits(chars: list[str], fullwidth: bool) -> None:
    """ASCII punctuation next to Japanese text, and (``fullwidth``) single digits there,
    become full-width, in place; repeated until nothing changes, since a widened character
    makes its neighbours Japanese context."""
    changed = True
    while changed:
        changed = False
        for i, ch in enumerate(chars):
            left, right = _neighbour(chars, i, -1), _neighbour(chars, i, 1)
            if ch in _FULLWIDTH_PUNCT:
                if ch in ".," and (_is_ascii_letter(left) or _in_number(chars, i)):
                    continue
                wide = _is_wide(left) or _is_wide(right)
                if not wide and ch in ")]":
                    opener = _open_bracket(chars, i)
                    wide = opener is not None and _OPENERS.get(opener) == _FULLWIDTH_PUNCT[ch]
                if wide:
                    chars[i] = _FULLWIDTH_PUNCT[ch]
                    changed = True
            elif (
                fullwidth
                and ch.isascii()
                and ch.isdigit()
                and not _in_number(chars, i)
                and (_is_wide(left) or _is_wide(right))
                and not (_is_ascii_letter(_at(chars, i - 1)) or _is_ascii_letter(_at(chars, i + 1)))
            ):
                chars[i] = chr(ord(ch) + 0xFEE0)
                changed = True


def _widen_capitals(chars: list[str]) -> None:
    """One to three capital letters standing alone next to Japanese text (``AB間``) become
    full-width, in place."""
    joined = "".join(chars)
    for m in reversed(list(_UPPER_RUN.finditer(joined))):
        left = _neighbour(chars, m.start(), -1)
        right = _neighbour(chars, m.end() - 1, 1)
        if _is_wide(left) or _is_wide(right):
            chars[m.start() : m.end()] = [chr(ord(c) + 0xFEE0) for c in m.group()]


def _drop_spaces_by_japanese(chars: list[str]) -> str:
    """The text without the spaces next to a Japanese character, unless the other side is a
    Latin letter."""
    out: list[str] = []
    for i, ch in enumerate(chars):
        if ch == " ":
            left, right = _at(chars, i - 1), _at(chars, i + 1)
            if (_is_wide(left) or _is_wide(right)) and not (
                _is_ascii_letter(left) or _is_ascii_letter(right)
            ):
                continue
        out.append(ch)
    return "".join(out)


def _open_bracket(chars: list[str], i: int) -> str | None:
    """The nearest unclosed opening bracket left of position ``i``."""
    depth = 0
    for j in range(i - 1, -1, -1):
        ch = chars[j]
        if ch in ")]）］":
            depth += 1
        elif ch in "([（［":
            if depth == 0:
                return ch
            depth -= 1
    return None


# --------------------------------------------------------------------------- accuracy
def _levenshtein(a: str, b: str) -> int:
    try:
        from rapidfuzz.distance import Levenshtein
    except ImportError:
        pass
    else:
        return int(Levenshtein.distance(a, b))
    if len(a) < len(b):
        a, b = b, a
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        current = [i]
        for j, cb in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


_WHITESPACE = re.compile(r"\s+")


def char_accuracy(hypothesis: str, reference: str) -> float:
    """``1 − Levenshtein(hypothesis, reference) / len(reference)`` after removing all
    whitespace from both, floored at 0 (an empty reference scores 1.0 only against an empty
    hypothesis). Uses rapidfuzz when installed, a pure-Python edit distance otherwise."""
    hyp = _WHITESPACE.sub("", hypothesis)
    ref = _WHITESPACE.sub("", reference)
    if not ref:
        return 1.0 if not hyp else 0.0
    return max(0.0, 1.0 - _levenshtein(hyp, ref) / len(ref))
