"""The reviewer's sample of an AR-Bench build (``buildds judgments --review-sample N``), and
the validity rate of a reviewer's verdicts (``--review-verdicts``).

:func:`review_sample` picks up to N rows per error type, seeded (the same rows for the same
rows and seed, whatever their order); :func:`review_files` renders them under ``review/``:

- ``review_sample.md`` — per row its id, error type, why the injected value is wrong (the
  rationale: charge, statute tier, range, fine rule …), the gold correction, and original vs
  injected as ``diff`` blocks (only the changed regions, with context:
  :mod:`buildds.export.review_diff`);
- ``review_sample.html`` — the same, side by side with ``<del>``/``<ins>`` (jinja2 with
  autoescaping: a judgment's text can hold anything);
- ``verdicts_template.csv`` — ``id,valid,note``, one line per sampled row, to fill in.

:func:`validity_rates` turns verdicts into valid / judged per error type and overall with a
Wilson 95% interval (:func:`wilson_interval`), for ``report.md`` and the card.
"""

from __future__ import annotations

import csv
import io
import json
import math
import random
import re
from collections.abc import Mapping, Sequence
from typing import Any

from jinja2 import PackageLoader, StrictUndefined
from jinja2.sandbox import SandboxedEnvironment

from buildds.export.review_diff import diff_hunks, hunk_markdown
from buildds.schema.arbench import ArbenchRow
from buildds.schema.review import ReviewVerdict, ValidityRate

__all__ = ["ERROR_ABOUT", "REVIEW_DIR", "review_files", "review_sample", "validity_rates",
           "why_wrong", "wilson_interval"]

REVIEW_DIR = "review"
ERROR_ABOUT = {"E1": "erroneous charge", "E2": "omission of charges",
               "E3": "term outside statutory limits", "E4": "ignored sentencing factor",
               "E5": "fixed fine outside limits", "E6": "proportional fine outside limits"}
#: rationale keys shown first, in this order, with their labels
_WHY = (("charge", "charge"), ("confusable_pair", "confusable pair (gold → injected)"),
        ("omitted", "omitted"), ("law", "statute text"), ("rule", "rule from"),
        ("tier", "statute tier"), ("kind", "penalty kind"), ("range_months", "range (months)"),
        ("adjacent_tier", "adjacent tier"), ("adjacent_range_months", "adjacent range (months)"),
        ("range_yuan", "fine range"), ("amount_yuan", "amount involved"),
        ("factor", "factor"), ("article", "article"), ("direction", "direction"),
        ("statute_version", "statute version"))
_Z = 1.959963984540054  # the 97.5% normal quantile


def review_sample(rows: Sequence[ArbenchRow], n: int, seed: int) -> dict[str, list[ArbenchRow]]:
    """Up to ``n`` injected rows per error type (all of them when fewer), drawn with
    ``random.Random(f"{seed}:review:{type}")`` from the type's rows in id order, listed in id
    order; only the types that have rows."""
    by_type: dict[str, list[ArbenchRow]] = {}
    for row in sorted(rows, key=lambda r: r.id):
        if row.label == 1:
            by_type.setdefault(row.error_type, []).append(row)
    out: dict[str, list[ArbenchRow]] = {}
    for etype in sorted(by_type):
        mine = by_type[etype]
        picked = random.Random(f"{seed}:review:{etype}").sample(mine, min(n, len(mine)))
        out[etype] = sorted(picked, key=lambda r: r.id)
    return out


def _value(value: object) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def why_wrong(rationale: Mapping[str, object]) -> list[tuple[str, str]]:
    """(label, value) pairs of a rationale: the statute's terms first (charge, tier, range,
    fine rule …), then every other key in name order — nothing is hidden."""
    known = dict(_WHY)
    out = [(label, _value(rationale[key])) for key, label in _WHY if key in rationale]
    out += [(key, _value(v)) for key, v in sorted(rationale.items()) if key not in known]
    return out


def _parts(row: ArbenchRow) -> list[dict[str, Any]]:
    pairs = (("judgment", row.original_judgment, row.judgment),
             ("reasoning", row.reasoning, row.anomalous_reasoning),
             ("cited articles", "、".join(row.cited_articles),
              "、".join(row.anomalous_cited_articles)))
    return [{"name": name, "hunks": hunks} for name, a, b in pairs
            if (hunks := diff_hunks(a, b))]


def _row_context(row: ArbenchRow) -> dict[str, Any]:
    return {"id": row.id, "error_type": row.error_type, "error_class": row.error_class,
            "why": why_wrong(row.rationale), "parts": _parts(row),
            "gold": _value(dict(row.gold_correction)),
            "edits": _value([[e.old, e.new] for e in row.edits])}


def _markdown(types: list[dict[str, Any]], seed: int, n: int) -> str:
    lines = ["# AR-Bench reviewer's sample", "",
             (f"Seed {seed}; up to {n} rows per error type. For each row: is the injected text "
             "a real, detectable error of its type, and does the gold correction restore a "
             "lawful judgment? Fill in `verdicts_template.csv` (id,valid,note; valid yes/no) "
             "and pass it back with `--review-verdicts`."), "",
             "| error type | rows in the build | sampled |", "|---|---:|---:|"]
    lines += [f"| {t['error_type']} | {t['available']} | {len(t['rows'])} |" for t in types]
    for t in types:
        lines += ["", f"## {t['error_type']} — {t['about']}"]
        for r in t["rows"]:
            lines += ["", f"### `{r['id']}`", "", (f"- error type: {r['error_type']} "
                      f"({r['error_class']})")]
            lines += [f"- {label}: {_inline(value)}" for label, value in r["why"]]
            lines.append(f"- gold correction: {_inline(r['gold'])}")
            for part in r["parts"]:
                lines += ["", f"{part['name']}:", "", hunk_markdown(part["hunks"])]
            if not r["parts"]:
                lines += ["", (f"no change visible in the judgment or reasoning; edits: "
                          f"{_inline(r['edits'])}")]
    return "\n".join(lines) + "\n"


def _inline(text: str) -> str:
    """``text`` as inline code that its own backticks cannot close."""
    one_line = " ".join(text.split())
    mark = "`" * (max((len(m) for m in re.findall(r"`+", one_line)), default=0) + 1)
    return f"{mark} {one_line} {mark}"


def _environment() -> SandboxedEnvironment:
    return SandboxedEnvironment(loader=PackageLoader("buildds.export", "templates"),
                                autoescape=True, undefined=StrictUndefined, trim_blocks=True,
                                lstrip_blocks=True, keep_trailing_newline=True)


def review_files(sample: Mapping[str, Sequence[ArbenchRow]], *, seed: int, n: int,
                 available: Mapping[str, int], lang: str = "zh") -> dict[str, str]:
    """File name (under ``review/``) → content of the three review files (see the module
    docstring); ``available``: injected rows per error type in the build."""
    types = [{"error_type": etype, "about": ERROR_ABOUT.get(etype, etype),
              "available": available.get(etype, len(rows)),
              "rows": [_row_context(r) for r in rows]} for etype, rows in sample.items()]
    html = _environment().get_template("review_sample.html.j2").render(
        types=types, seed=seed, n=n, lang=lang)
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["id", "valid", "note"])
    for rows in sample.values():
        for r in rows:
            writer.writerow([r.id, "", ""])
    return {"review_sample.md": _markdown(types, seed, n), "review_sample.html": html,
            "verdicts_template.csv": buf.getvalue()}


def wilson_interval(k: int, n: int) -> tuple[float, float]:
    """The Wilson score 95% interval of ``k`` successes in ``n`` trials ((0, 0) for n = 0)."""
    if n == 0:
        return 0.0, 0.0
    p = k / n
    denom = 1 + _Z**2 / n
    centre = (p + _Z**2 / (2 * n)) / denom
    half = _Z * math.sqrt(p * (1 - p) / n + _Z**2 / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def validity_rates(verdicts: Sequence[ReviewVerdict], error_types: Mapping[str, str]
                   ) -> list[ValidityRate]:
    """Valid / judged per error type (in type order) and ``all``; ``error_types``: row id →
    its error type (every verdict's id must be in it)."""
    per: dict[str, list[bool]] = {}
    for v in verdicts:
        per.setdefault(error_types[v.id], []).append(v.valid)
    per_all = [ok for etype in sorted(per) for ok in per[etype]]
    out = []
    for etype, oks in [*sorted(per.items()), ("all", per_all)]:
        k, judged = sum(oks), len(oks)
        low, high = wilson_interval(k, judged)
        out.append(ValidityRate(error_type=etype, valid=k, judged=judged,
                                rate=k / judged if judged else 0.0, low=low, high=high))
    return out
