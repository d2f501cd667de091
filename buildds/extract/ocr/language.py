"""OCR language chosen per page (``lang="auto"``): a quick probe of the page, then the model.

Why: one language for every page is wrong for some page. ``jpn+eng`` on a Japanese contract
lets the English model win on short Latin-looking glyph runs — a 200-dpi scan of
``jp_decrypt-pdf/契約書.pdf`` reads ``第５条`` as ``BOR`` with ``jpn+eng`` and the article falls
into the one before it, while ``jpn`` alone reads all six headings (and 1 point less CER,
see ``benchmarks/bench_contracts.py``); an English agreement read with ``jpn`` loses its
spaces; a Traditional Chinese contract read with ``jpn`` reads at ~55 confidence, at ~88 with
``chi_tra``.

How (:func:`choose_language`, in the OCR worker, on the cleaned page):

1. **probe**: the middle half of the page, downscaled to :data:`PROBE_DPI` (150 dpi, a
   sixteenth of the pixels of a 300-dpi page), is read with ``jpn`` (whose model reads kana,
   kanji and Latin letters alike) — about a fifth of the time of the full read;
2. **script** from the characters read: mostly Latin letters → ``eng``; CJK with at least
   :data:`KANA_SHARE` kana among the CJK characters → ``jpn`` (``jpn+eng`` when Latin letters
   are as many as the CJK ones: a mixed page); CJK with fewer kana (Chinese, or a Japanese
   page of names and addresses), or a Japanese-looking probe read below
   :data:`UNSURE_BELOW` with fewer than :data:`SURE_KANA_SHARE` kana (a seal-covered Chinese
   page read with ``jpn`` shows spurious kana) → the probe is read again with ``chi_tra`` and
   the language with the better mean word confidence kept;
3. too little text on the probe (under :data:`MIN_PROBE_CHARS` letters) → the fallback
   ``jpn+eng`` (it reads both scripts).

Only installed languages are candidates (:func:`auto_candidates`); ``auto`` needs ``jpn``.
The chosen language of every page is kept (``OcrPage.lang``) and reported. An explicit
language (``--ocr-lang jpn``) skips all this. Part of :mod:`buildds.extract.ocr`.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from buildds.extract.ocr.dependencies import AUTO_LANG

__all__ = [
    "AUTO_LANG",
    "FALLBACK_LANG",
    "KANA_SHARE",
    "MIN_PROBE_CHARS",
    "PROBE_DPI",
    "SURE_KANA_SHARE",
    "UNSURE_BELOW",
    "LanguageChoice",
    "auto_candidates",
    "choose_language",
    "kana_share",
    "script_of",
]

#: resolution the probe reads at (10-point Japanese is ~20 px high: enough for tesseract)
PROBE_DPI = 150
#: kana among the CJK characters of a page at or above which it is Japanese (legal Japanese
#: runs at 40–50 %; Chinese read with ``jpn`` shows 5–17 % spurious kana)
KANA_SHARE = 0.3
#: letters (kana, kanji, Latin) the probe must find to decide
MIN_PROBE_CHARS = 20
#: a page that looks Japanese but whose probe reads below this is also probed with chi_tra
#: (Chinese read with ``jpn`` can show many spurious kana, at low confidence)
UNSURE_BELOW = 70.0
#: kana among the CJK characters at or above which a page is Japanese however low its probe
#: reads (a poor Japanese form shows 50–80 %; Chinese seal pages read with ``jpn`` up to 45 %)
SURE_KANA_SHARE = 0.6
#: what a page is read with when the probe cannot tell
FALLBACK_LANG = "jpn+eng"

_KANA = re.compile(r"[\u3041-\u309f\u30a1-\u30ff\uff66-\uff9d]")
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LATIN = re.compile(r"[A-Za-z]")


@dataclass(frozen=True)
class LanguageChoice:
    """The language a page is read with, the script the probe saw, and the probe's mean
    word confidence in that language (``None`` when no probe was read)."""

    lang: str
    script: str
    probe_confidence: float | None = None


def auto_candidates(installed: Iterable[str]) -> tuple[str, ...]:
    """The languages ``auto`` may choose among, of those installed (``jpn`` first)."""
    have = set(installed)
    return tuple(lang for lang in ("jpn", "chi_tra", "eng") if lang in have)


def kana_share(text: str) -> float:
    """Kana among the CJK characters of ``text`` (0 when it has none)."""
    kana = len(_KANA.findall(text))
    cjk = kana + len(_HAN.findall(text))
    return kana / cjk if cjk else 0.0


def script_of(text: str) -> tuple[str, int]:
    """``("japanese" | "han" | "latin" | "mixed" | "unknown", letters)`` from what a probe
    read (see the module docstring)."""
    kana = len(_KANA.findall(text))
    cjk = kana + len(_HAN.findall(text))
    latin = len(_LATIN.findall(text))
    letters = cjk + latin
    if letters < MIN_PROBE_CHARS:
        return "unknown", letters
    if latin > 2 * cjk:
        return "latin", letters
    if kana >= KANA_SHARE * cjk:
        return ("mixed" if latin >= cjk else "japanese"), letters
    return "han", letters


def _probe_image(clean: Any, dpi: float) -> Any:
    """The middle half of the page, at :data:`PROBE_DPI` at most."""
    width, height = clean.size
    band = clean.crop((0, height // 4, width, height - height // 4))
    if dpi <= PROBE_DPI:
        return band
    factor = PROBE_DPI / dpi
    return band.resize((max(1, round(band.width * factor)), max(1, round(band.height * factor))))


def _probe(image: Any, lang: str, dpi: float, timeout: int) -> tuple[str, float]:
    """Read the probe image with ``lang``: its text and mean word confidence."""
    import pytesseract

    data = pytesseract.image_to_data(image, lang=lang, config=f"--psm 6 --dpi {round(dpi)}",
                                     output_type=pytesseract.Output.DICT, timeout=timeout)
    words = [(str(t), float(c)) for t, c in zip(data["text"], data["conf"], strict=False)
             if str(t).strip() and float(c) >= 0]
    conf = statistics.fmean(c for _, c in words) if words else 0.0
    return "".join(t for t, _ in words), round(conf, 1)


def choose_language(clean: Any, dpi: float, candidates: tuple[str, ...], timeout: int = 0
                    ) -> LanguageChoice:
    """The language to read the cleaned greyscale page ``clean`` (rendered at ``dpi``) with,
    among ``candidates`` (see the module docstring)."""
    if "jpn" not in candidates:
        return LanguageChoice(FALLBACK_LANG, "unknown")
    image = _probe_image(clean, dpi)
    at = min(dpi, PROBE_DPI)
    text, conf = _probe(image, "jpn", at, timeout)
    script, _ = script_of(text)
    if script == "latin":
        return LanguageChoice("eng" if "eng" in candidates else "jpn", script, conf)
    sure = conf >= UNSURE_BELOW or kana_share(text) >= SURE_KANA_SHARE
    if script == "japanese" and (sure or "chi_tra" not in candidates):
        return LanguageChoice("jpn", script, conf)
    if script == "mixed":
        return LanguageChoice("jpn+eng" if "eng" in candidates else "jpn", script, conf)
    if script in ("han", "japanese"):
        if "chi_tra" not in candidates:
            return LanguageChoice("jpn", script, conf)
        _, zh_conf = _probe(image, "chi_tra", at, timeout)
        return (LanguageChoice("chi_tra", script, zh_conf) if zh_conf > conf
                else LanguageChoice("jpn", script, conf))
    fallback = FALLBACK_LANG if "eng" in candidates else "jpn"
    return LanguageChoice(fallback, script, conf)
