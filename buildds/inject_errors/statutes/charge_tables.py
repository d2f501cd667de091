"""The LegalAttack / JUREX charge tables: where each PRC charge is, and its look-alikes.

:func:`load_charge_articles` maps a charge (without 罪) to its 刑法第X条[之N][第N款] references
(LegalAttack sheet 1, with JUREX's crime→article map for the charges it does not place);
:func:`load_confusable` maps a charge to its similar / confusable charges (相似罪名).
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

from buildds.inject_errors.statutes.cjk_numerals import cn_numeral

__all__ = ["load_charge_articles", "load_confusable"]


_REF_RE = re.compile(r"第(\d+)条(?:之([一二三四五六七八九十]+))?((?:第\d+款)?)")


def load_charge_articles(sheet_csv: Path, crime2article_json: Path | None = None,
                         ) -> dict[str, list[tuple[int, int | None, int | None]]]:
    """Charge (without 罪) → [(article, 之N, 款)] from the LegalAttack charge table, with
    JUREX's crime→article map for charges the table does not place."""
    out: dict[str, list[tuple[int, int | None, int | None]]] = {}
    with sheet_csv.open(encoding="utf-8") as fh:
        for row in csv.reader(fh):
            if len(row) < 3 or not row[0].strip().isdigit():
                continue
            refs = [(int(a), cn_numeral(s) if s else None, int(p[1:-1]) if p else None)
                    for a, s, p in _REF_RE.findall(row[2])]
            if refs and "刑法" in row[2] or refs and row[2].startswith("第"):
                out.setdefault(_norm_charge(row[1]), refs)
    if crime2article_json is not None and crime2article_json.exists():
        for charge, arts in json.loads(crime2article_json.read_text(encoding="utf-8")).items():
            if charge and arts and _norm_charge(charge) not in out:
                out[_norm_charge(charge)] = [(int(a), None, None) for a in arts]
    return out


def _norm_charge(name: str) -> str:
    return name.strip().removesuffix("罪")


def load_confusable(path: Path) -> dict[str, tuple[str, ...]]:
    """Charge → its similar/confusable charges from the LegalAttack 相似罪名 sheet (CSV)."""
    out: dict[str, tuple[str, ...]] = {}
    with Path(path).open(encoding="utf-8") as fh:
        for row in csv.reader(fh):
            if len(row) < 4 or not row[0].strip().isdigit():
                continue
            similar = tuple(dict.fromkeys(_norm_charge(c) for c in row[3:] if c.strip()))
            if similar:
                out[_norm_charge(row[1])] = similar
    return out
