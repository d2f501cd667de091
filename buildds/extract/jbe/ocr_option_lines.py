"""Option lines and ○× stems of an OCR'd booklet, rebuilt in the typeset form.

Part of the structure-driven repair (:mod:`buildds.extract.jbe.ocr_repair` walks the booklet
and calls these where the structure expects options or a ○× stem): a line of numbered options
whose every option is a run of labels (``アイ``, ``アエエ``, ``アとイ``) or a ○× row becomes
``１．ア イ ２．ア エ`` / ``１．ア○ イ× ウ○``; anything with prose is left as read.
"""

from __future__ import annotations

import re
import unicodedata

from buildds.extract.jbe.ocr_alphabet import (
    HW,
    LABEL_CHARS,
    LABELS,
    MARK_O,
    MARK_X,
    canon_label,
    printed,
)

__all__ = ["repair_options", "stem_criterion", "stem_marks", "truth_row"]

#: what is dropped from an option before it is read as labels: whitespace and specks
_DUST = re.compile(r"[\s・･.,，、。'\"`|_~ー\-—:：;；”“]+")

#: the stem's "正しいものには○，誤っているものには×を" with the marks misread
_STEM_MARKS = ((re.compile(r"(?<=ものには)[XxＸｘ✕╳メベ<＜※ミ]{1,3}(?=を|，|、|$)"), "×"),
               (re.compile(r"(?<=ものには)[OoＯｏ0０〇◯]{1,2}(?=を|，|、|$)"), "○"))
#: an option number: 1–9 (either width) or 10–19 half-width, followed by a dot-like mark
_OPTION = re.compile(r"(?:^|(?<=[^0-9０-９]))(?P<n>[１-９]|1[0-9]|[1-9])\s*"
                     r"(?:[ユ］\]|｜」』]?\s*[．.，,。、・]\s*|(?=[アイウエオ工才]))")  # ``１ユ．``, ``１］．``

def _option_body(body: str) -> str | None:
    """One option's text in the typeset form when it is a label run or a ○× row, else None."""
    # whitespace and scanner dust read as punctuation (``アウ．。``, ``、アエ``) go
    compact = _DUST.sub("", unicodedata.normalize("NFKC", body))
    if not compact:
        return None
    cells = re.fullmatch(rf"(?:[{LABEL_CHARS}][{re.escape(MARK_O + MARK_X)}])+", compact)
    if cells:
        pairs = re.findall(rf"([{LABEL_CHARS}])([{re.escape(MARK_O + MARK_X)}])", compact)
        return " ".join(canon_label(lab) + ("○" if mark in MARK_O else "×")
                        for lab, mark in pairs)
    joined = re.fullmatch(rf"([{LABEL_CHARS}]+)と([{LABEL_CHARS}]+)", compact)
    if joined:
        a, b = (_dedupe(g) for g in joined.groups())
        return f"{''.join(a)}と{''.join(b)}" if len(a) == len(b) == 1 else None
    if re.fullmatch(rf"[{LABEL_CHARS}]+", compact):
        labels = _dedupe(compact)
        return " ".join(labels) if len(labels) >= 2 else None
    return None


def _dedupe(run: str) -> list[str]:
    """Labels of a run, a label read twice in a row (``エエ``) counted once."""
    out: list[str] = []
    for ch in run:
        lab = canon_label(ch)
        if lab not in LABELS:
            return []
        if not out or out[-1] != lab:
            out.append(lab)
    return out


def stem_marks(before: str, text: str) -> str:
    """``text``, a line of a stem that follows ``before``, with the marks of
    "正しいものには○，誤っているものには×を" repaired (``Ｘメ`` → ``×``), also when the
    phrase is broken across lines (``…ものに`` / ``はＸメを``)."""
    joined = before + text
    for pattern, mark in _STEM_MARKS:
        cuts = [m.span() for m in pattern.finditer(joined) if m.start() >= len(before)]
        for a, b in reversed(cuts):
            joined = joined[:a] + mark + joined[b:]
    return joined[len(before):]


#: where a stem states its criterion: just before "ものを組み合わせ", "ものはどれか" …
_CRITERION = re.compile(r"(?P<w>[^\s，、,。]{2,7})(?=もの(?:を組み|の組合|はどれ|を[２2]個|には))")
_CRITERIA = ("誤っている", "正しい")
#: dust inside "正しい場合には１を、誤っている場合には２を" (``場合ーーには１を``)
_CASE_DUST = re.compile(r"(?<=場合)[ー\-_・･.,'`\s]+(?=には[１1２2]を)")
#: what tesseract reads for the 正 of 正しい
_LIKE_SEI = "止疋王五缶"


def _edits(a: str, b: str) -> int:
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, cb in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (ca != cb))
    return row[-1]


def stem_criterion(text: str) -> str:
    """The criterion of a stem line read one character wrong (``癌っている``, ``誤っつている``,
    ``止しい``) restored, where the stem states it: right before ``ものを組み合わせ``,
    ``ものはどれか``, ``ものを２個``, ``ものには``; dust in ``場合ーーには１を`` goes. Other wordings (成立しない, 当てはまる,
    新しい) are more than one edit away from 誤っている, or are not a look-alike of 正しい, and
    stay."""
    def fix(m: re.Match[str]) -> str:
        w = m.group("w")
        if w.endswith(_CRITERIA):
            return w
        word = "誤っている"  # one edit: a substitution, then an insertion, then a deletion
        for size in (len(word), len(word) + 1, len(word) - 1):
            tail = w[-size:]
            if len(tail) == size and tail[-1] == word[-1] and _edits(tail, word) == 1:
                return w[:-size] + word
        if w.endswith("しい") and w[-3:-2] in _LIKE_SEI:
            return w[:-3] + "正しい"
        return w
    return _CASE_DUST.sub("", _CRITERION.sub(fix, text))


def _mark(noise: str) -> str | None:
    """○ or × for what was read after a label in a ○× row, None when it is neither."""
    has_o = any(c in MARK_O for c in noise)
    has_x = any(c in MARK_X for c in noise)
    return "○" if has_o and not has_x else "×" if has_x and not has_o else None


def truth_row(body: str, labels: int, number: int) -> str | None:
    """Option ``number`` of a ○× table over the first ``labels`` statements, from a noisy
    reading (``アメイ○ウＯ``, ``ア○イウ x``): each label's mark is what follows it; a mark
    that cannot be read takes the value of the table's fixed order (option 1 ○○○, 2 ○○×,
    … the binary count the booklets print), but only when every mark that was read agrees
    with that order. None when the labels are not all there in order."""
    cells: list[str] = []
    for ch in body:
        lab = canon_label(ch)
        if len(cells) < labels and lab == LABELS[len(cells)]:
            cells.append("")
        elif cells:
            cells[-1] += ch
    if len(cells) != labels or not 1 <= number <= 2 ** labels:
        return None
    marks = [_mark(c) for c in cells]
    order = ["×" if (number - 1) >> (labels - 1 - i) & 1 else "○" for i in range(labels)]
    if None in marks:
        if any(m is not None and m != o for m, o in zip(marks, order)):
            return None
        marks = order  # type: ignore[assignment]
    return " ".join(f"{LABELS[i]}{m}" for i, m in enumerate(marks))


def repair_options(text: str, first: int = 1, truth_labels: int = 0) -> str | None:
    """An option line rebuilt in the typeset form, or None when ``text`` is not a line of
    label-run / ○× options numbered ``first``, ``first + 1`` … (at least half of its options
    must read as labels; one that does not is kept as read). ``truth_labels``: the question
    is a ○× table over that many statements (:func:`truth_row`)."""
    cuts: list[tuple[int, int, int]] = []
    for m in _OPTION.finditer(text):
        n = int(m.group("n").translate(HW))
        if (not cuts and m.start() == 0 and n == first) or (cuts and n == cuts[-1][2] + 1):
            cuts.append((m.start(), m.end(), n))
    if not cuts:
        return None
    parts = []
    read = 0
    for i, (_, end, n) in enumerate(cuts):
        stop = cuts[i + 1][0] if i + 1 < len(cuts) else len(text)
        body = (truth_row(text[end:stop], truth_labels, n) if truth_labels
                else _option_body(text[end:stop]))
        read += body is not None
        # an option that does not read as labels (``ウ`` alone: a label lost) stays as read
        parts.append(f"{printed(n)}．{body if body is not None else text[end:stop].strip()}")
    # a line of options when most of them read as labels; prose is never one
    return " ".join(parts) if read and 2 * read >= len(cuts) else None
