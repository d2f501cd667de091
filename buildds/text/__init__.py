"""Text utilities every stage needs (the bottom floor: imports nothing from buildds).

* :mod:`.normalize` — conservative normalisation: compatibility ideographs folded, zero-width
  characters removed, letter-spaced titles collapsed (:func:`normalize_text`);
* :mod:`.numerals` — Chinese and Japanese numerals read (:func:`cn_number`, :func:`cn_numeral`,
  :func:`cn_duration_months`, article numbers with :func:`to_int_number`) and written
  (:func:`int_to_cn`, :func:`int_to_ja`);
* :mod:`.era` — Japanese era years of the exam (2024 ↔ 令和６年);
* :mod:`.lines` — whitespace runs collapsed, page numbers told apart, wrapped lines re-joined.
"""

from buildds.text.era import era_fullwidth, era_of, era_year, year_of_era
from buildds.text.lines import is_page_number, join_wrapped, normalise_spaces
from buildds.text.normalize import ZERO_WIDTH, normalize_text
from buildds.text.numerals import (
    NUMERAL,
    cn_duration_months,
    cn_number,
    cn_numeral,
    int_to_cn,
    int_to_ja,
    to_int_number,
)

__all__ = [
    "NUMERAL",
    "ZERO_WIDTH",
    "cn_duration_months",
    "cn_number",
    "cn_numeral",
    "era_fullwidth",
    "era_of",
    "era_year",
    "int_to_cn",
    "int_to_ja",
    "is_page_number",
    "join_wrapped",
    "normalise_spaces",
    "normalize_text",
    "to_int_number",
    "year_of_era",
]
