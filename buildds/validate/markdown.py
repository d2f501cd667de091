"""``report.md``: a :class:`~buildds.validate.report.ValidationReport` for people — the
headline, the counts per subject and per year × subject, exclusions, errors and flags."""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Protocol

from buildds.text import year_of_era
from buildds.validate.balance import subject_order
from buildds.validate.checks import ErrorEntry, FlagEntry
from buildds.validate.schemas import year_sort_key

__all__ = ["MD_ERROR_IDS", "MD_FLAG_IDS", "ValidationReportLike", "ids_text", "plural",
           "render_markdown"]

class ValidationReportLike(Protocol):
    """What the markdown reads of a :class:`~buildds.validate.report.ValidationReport` (a
    protocol, so this module does not import the report's)."""

    errors: list[ErrorEntry]
    flags: list[FlagEntry]
    counts: dict[str, Any]
    exclusions_by_reason: dict[str, int]
    exclusion_ids_by_reason: dict[str, list[str]]
    balance_bounds: tuple[float, float]

    @property
    def ok(self) -> bool: ...

    @property
    def error_count(self) -> int: ...

    @property
    def flag_count(self) -> int: ...


#: how many ids a flag group / an error shows in report.md
MD_FLAG_IDS = 20
MD_ERROR_IDS = 50


def plural(n: int, word: str) -> str:
    return f"{n:,} {word}" + ("" if n == 1 else "s")


def ids_text(ids: list[str], limit: int, whole: str = "whole column") -> str:
    if not ids:
        return whole
    shown = ", ".join(ids[:limit])
    return shown + (f" … (+{len(ids) - limit:,} more)" if len(ids) > limit else "")



def _pct(share: float | None) -> str:
    return "–" if share is None else f"{100 * share:.1f}%"


def _year_label(year: str) -> str:
    g = year_of_era(year)
    return f"{year} ({g})" if g is not None else year


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_markdown(r: ValidationReportLike, title: str) -> str:
    lo, hi = r.balance_bounds
    c = r.counts
    out: list[str] = [f"# {title}", ""]
    status = "**OK**" if r.ok else "**FAILED**"
    bound = f"{_pct(lo)}–{_pct(hi)}"
    headline = (f"{status} — {c.get('total', 0):,} items, {plural(r.error_count, 'error')}, "
                f"{plural(r.flag_count, 'flag')}. Allowed true share per year × subject "
                f"(also per subject and overall): {bound}.")
    out += [headline, ""]

    out += ["## Counts", "", "| subject | items | true | false | true share |",
            "|---|---:|---:|---:|---:|"]
    def warn(share: float | None) -> str:
        return " ⚠" if share is not None and not lo <= share <= hi else ""

    for subject, cell in c.get("per_subject", {}).items():
        out.append(f"| {_md_cell(subject)} | {cell['items']:,} | {cell['true']:,} | "
                   f"{cell['false']:,} | {_pct(cell['true_share'])}{warn(cell['true_share'])} |")
    share = c.get("true_share")
    all_row = (f"| **all** | **{c.get('total', 0):,}** | {c.get('true', 0):,} | "
               f"{c.get('false', 0):,} | {_pct(share)}{warn(share)} |")
    out += [all_row, ""]

    per_ys: dict[str, dict[str, Any]] = c.get("per_year_subject", {})
    subjects = sorted({s for row in per_ys.values() for s in row}, key=subject_order)
    if per_ys:
        out += ["## Label balance by year", "",
                f"True share per year and subject (true/items); ⚠ marks a share outside {bound}.",
                "",
                "| year | " + " | ".join(_md_cell(s) for s in subjects) + " |",
                "|---|" + "---:|" * len(subjects)]
        for year in sorted(per_ys, key=year_sort_key):
            cells = []
            for s in subjects:
                cell = per_ys[year].get(s)
                if cell is None:
                    cells.append("")
                    continue
                share = cell["true_share"]
                cells.append(f"{_pct(share)} ({cell['true']}/{cell['items']}){warn(share)}")
            out.append(f"| {_md_cell(_year_label(year))} | " + " | ".join(cells) + " |")
        out.append("")

    total_ex = sum(r.exclusions_by_reason.values())
    out += [f"## Exclusions ({total_ex:,})", ""]
    if total_ex:
        out += ["| reason | count | ids |", "|---|---:|---|"]
        for reason, n in r.exclusions_by_reason.items():
            ids = r.exclusion_ids_by_reason.get(reason, [])
            out.append(f"| {_md_cell(reason)} | {n:,} | {_md_cell(ids_text(ids, MD_FLAG_IDS))} |")
    else:
        out.append("None given.")
    out.append("")

    out += [f"## Errors ({r.error_count:,})", ""]
    if not r.errors:
        out.append("None.")
    for e in r.errors:
        column = f" `{e['column']}`" if e["column"] else ""
        whole = "whole column" if e["column"] else "whole dataset"
        out.append(f"- **{e['check']}**{column}: {e['message']} — "
                   f"{ids_text(e['ids'], MD_ERROR_IDS, whole)}")
    out.append("")

    out += [f"## Flags ({r.flag_count:,})", ""]
    if not r.flags:
        out.append("None.")
    by_check: dict[str, list[FlagEntry]] = defaultdict(list)
    for f in r.flags:
        by_check[f["check"]].append(f)
    for check in sorted(by_check):
        group = by_check[check]
        out += [f"### {check} ({len(group):,})", ""]
        for f in group[:MD_FLAG_IDS]:
            out.append(f"- `{f['id']}` — {f['message']}")
        if len(group) > MD_FLAG_IDS:
            out.append(f"- … and {len(group) - MD_FLAG_IDS:,} more (all in report.json)")
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"
