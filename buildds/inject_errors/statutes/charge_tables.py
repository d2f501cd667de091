"""The LegalAttack / JUREX charge tables: where each PRC charge is, and its look-alikes.

:func:`load_charge_articles` maps a charge (without 罪) to its 刑法第X条[之N][第N款] references
(LegalAttack sheet 1, with JUREX's crime→article map for the charges it does not place);
:func:`load_confusable` maps a charge to its similar / confusable charges (相似罪名).

The tables are read as regular UTF-8 files within a size limit
(:func:`buildds.safeio.read_side_file`); a file that is not UTF-8, not CSV or not the
expected JSON is an :class:`~buildds.errors.ExtractError` naming it.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from pathlib import Path

from buildds.errors import ExtractError
from buildds.inject_errors.statutes.charge_aliases import expand_charge_name
from buildds.safeio.files import read_side_file
from buildds.safeio.json_strict import loads_strict
from buildds.text import cn_numeral

__all__ = ["load_charge_articles", "load_confusable", "single_names", "symmetric_confusable"]


def _csv_rows(path: Path) -> Iterator[list[str]]:
    """The rows of a UTF-8 CSV file (regular file, size limit); a bad file is an
    :class:`ExtractError` naming it and the line."""
    reader = csv.reader(io.StringIO(read_side_file(path), newline=""))
    try:
        yield from reader
    except csv.Error as exc:
        raise ExtractError(f"is not a readable CSV table (line {reader.line_num}: {exc})",
                           source=str(path)) from None


def _json_object(path: Path) -> dict[str, object]:
    try:
        value = loads_strict(read_side_file(path))
    except ValueError as exc:  # bad JSON or a JSON limit
        raise ExtractError(f"is not valid JSON ({exc})", source=str(path)) from None
    if not isinstance(value, dict):
        raise ExtractError("is not a JSON object (charge → article numbers)", source=str(path))
    return value


_REF_RE = re.compile(r"第(\d+)条(?:之([一二三四五六七八九十]+))?((?:第\d+款)?)")


def load_charge_articles(sheet_csv: Path, crime2article_json: Path | None = None,
                         ) -> dict[str, list[tuple[int, int | None, int | None]]]:
    """Charge (without 罪) → [(article, 之N, 款)] from the LegalAttack charge table, with
    JUREX's crime→article map for charges the table does not place."""
    out: dict[str, list[tuple[int, int | None, int | None]]] = {}
    for row in _csv_rows(sheet_csv):
        if len(row) < 3 or not row[0].strip().isdigit():
            continue
        refs = [(int(a), cn_numeral(s) if s else None, int(p[1:-1]) if p else None)
                for a, s, p in _REF_RE.findall(row[2])]
        if refs and "刑法" in row[2] or refs and row[2].startswith("第"):
            out.setdefault(_norm_charge(row[1]), refs)
    if crime2article_json is not None and crime2article_json.exists():
        for charge, arts in _json_object(crime2article_json).items():
            if not charge or not arts or _norm_charge(charge) in out:
                continue
            if not isinstance(arts, list) or not all(
                    isinstance(a, (int, str)) and str(a).isdigit() for a in arts):
                raise ExtractError(f"{charge}: {arts!r} is not a list of article numbers",
                                   source=str(crime2article_json))
            out[_norm_charge(charge)] = [(int(a), None, None) for a in arts]
    return out


def _norm_charge(name: str) -> str:
    return name.strip().removesuffix("罪")


def load_confusable(path: Path) -> dict[str, tuple[str, ...]]:
    """Charge → its similar/confusable charges from the LegalAttack 相似罪名 sheet (CSV)."""
    out: dict[str, tuple[str, ...]] = {}
    for row in _csv_rows(Path(path)):
        if len(row) < 4 or not row[0].strip().isdigit():
            continue
        similar = tuple(dict.fromkeys(_norm_charge(c) for c in row[3:] if c.strip()))
        if similar:
            out[_norm_charge(row[1])] = similar
    return out


def symmetric_confusable(table: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    """``table`` with every pair both ways: confusability is mutual, but the LegalAttack sheet
    lists a pair on one row only (抢劫 names 盗窃, 盗窃's row does not name 抢劫). A charge keeps
    its own row's order; the charges that name it follow, in table order."""
    out = {k: list(v) for k, v in table.items()}
    for charge, similar in table.items():
        for other in similar:
            if other != charge and charge not in out.setdefault(other, []):
                out[other].append(charge)
    return _with_aliases({k: tuple(v) for k, v in out.items() if v})


def single_names(name: str) -> list[str]:
    """The plain names a bracketed charge name stands for, one alternative per group
    (``[走私、贩卖、运输、制造]毒品`` → 走私毒品, 贩卖毒品, 运输毒品, 制造毒品); [] for a plain name."""
    if "[" not in name:
        return []
    literal = re.sub(r"\[[^\]]*\]", "", name)
    return [n for n in expand_charge_name(name)[1:] if n.count("、") == literal.count("、")]


def _with_aliases(table: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    """Judgments name one alternative of a bracketed charge (贩卖毒品), so each plain name of a
    bracketed key gets the key's confusable charges, and each bracketed value is followed by
    its plain names (after the row's own entries: a row's own order is kept)."""
    out: dict[str, list[str]] = {k: list(v) for k, v in table.items()}
    for key, own in table.items():
        for alias in single_names(key):
            out.setdefault(alias, list(own))
    for key, names in out.items():
        for value in list(names):
            names.extend(n for n in single_names(value) if n not in names and n != key)
    return {k: tuple(v) for k, v in out.items()}
