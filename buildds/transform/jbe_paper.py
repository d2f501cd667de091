"""A JBE-QA build's counts next to the paper's (seed 001), with the known causes of the
difference — the "Compared with the paper" section of the JBE card and ``report.md``.

The paper's figures live in ``jbe_paper_figures.yaml`` beside this module, each with where in
the paper it is stated. The paper covers 2015–2024 as a whole and gives no per-year figures, so
its totals are compared only when a build covers exactly those years; otherwise the section
says why there is nothing to compare. Per year, only the build's own counts are shown."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from buildds.schema import JbeExclusion, JbeItem
from buildds.text import year_of_era

__all__ = ["paper_comparison_markdown", "paper_figures"]

FIGURES = Path(__file__).with_name("jbe_paper_figures.yaml")


@cache
def paper_figures() -> dict[str, Any]:
    """The paper's figures with their citations (``jbe_paper_figures.yaml``)."""
    return dict(yaml.safe_load(FIGURES.read_text(encoding="utf-8")))


def _item_year(item: JbeItem) -> int | None:
    return year_of_era(item.year)


def _exclusion_year(ex: JbeExclusion) -> int | None:
    return year_of_era(ex.id.split("-")[0])  # ids start with the era year (令和６年-民法-18)


def _signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


def _reasons(exclusions: list[JbeExclusion]) -> str:
    c = Counter(e.reason for e in exclusions)
    return ", ".join(f"`{r}` {n}" for r, n in sorted(c.items(), key=lambda kv: (-kv[1], kv[0])))


def _subject_rows(items: list[JbeItem], exclusions: list[JbeExclusion],
                  fig: dict[str, Any]) -> tuple[list[str], list[str]]:
    """Table rows per subject and total, and the causes the counts themselves show."""
    n_items = Counter(i.subject for i in items)
    rows, causes = [], []
    for subject, ref in fig["subjects"].items():
        ex = [e for e in exclusions if e.subject == subject]
        d_items, d_ex = n_items.get(subject, 0) - ref["items"], len(ex) - ref["excluded"]
        rows.append(f"| {subject} | {n_items.get(subject, 0)} | {ref['items']} | "
                    f"{_signed(d_items)} | {len(ex)} | {ref['excluded']} | {_signed(d_ex)} | "
                    f"{_reasons(ex) or '—'} | items: {ref['items_cite']}; excluded: "
                    f"{ref['excluded_cite']} |")
        if d_ex > 0:
            causes.append(f"{subject}: this build excludes {d_ex} more question(s) than the "
                          f"paper ({_reasons(ex)}): the paper kept at least {d_ex} question(s) "
                          "that this build excludes for one of these reasons.")
        # fewer items are explained (in direction) only by more exclusions here, more
        # items only by more exclusions in the paper; equal exclusions explain nothing
        if d_items and not (d_items < 0 < d_ex or d_ex < 0 < d_items):
            causes.append(f"{subject}: {abs(d_items)} {'more' if d_items > 0 else 'fewer'} "
                          "items than the paper, which its excluded questions do not explain: "
                          "the kept questions give a different number of statements (the "
                          "paper gives no items per question, so which ones is not known).")
        if d_ex < 0:
            causes.append(f"{subject}: the paper excludes {-d_ex} more question(s) than this "
                          "build and does not say which; this build turns them into items.")
    total_items, total_ex = fig["items"]["value"], fig["excluded"]["value"]
    rows.append(f"| **total** | {len(items)} | {total_items} | "
                f"{_signed(len(items) - total_items)} | {len(exclusions)} | {total_ex} | "
                f"{_signed(len(exclusions) - total_ex)} | {_reasons(exclusions) or '—'} | "
                f"items: {fig['items']['cite']}; excluded: {fig['excluded']['cite']} |")
    return rows, causes


def paper_comparison_markdown(items: Iterable[JbeItem], exclusions: Iterable[JbeExclusion],
                              *, level: int = 2) -> list[str]:
    """Markdown lines: per subject the build's items and excluded questions (by reason) next
    to the paper's, per year the build's counts, and the known causes of the difference."""
    items, exclusions = list(items), list(exclusions)
    fig = paper_figures()
    out = [f"{'#' * level} Compared with the paper", ""]
    paper_years = set(fig["years"]["value"])
    years = ({y for y in map(_item_year, items) if y is not None}
             | {y for y in map(_exclusion_year, exclusions) if y is not None})
    shown = ", ".join(str(y) for y in sorted(years)) or "none"
    if years != paper_years:
        outside = sorted(years - paper_years)
        why = (f"the paper gives no figures for {', '.join(map(str, outside))}" if outside
               else "the paper gives totals over all of 2015–2024 only, not per year")
        return [*out, (f"This build covers the years {shown}; {why} "
                       f"({fig['years']['cite']}), so there is nothing to compare its counts "
                       "with."), ""]
    rows, causes = _subject_rows(items, exclusions, fig)
    n_true = sum(1 for i in items if i.answer)
    pct = round(100 * n_true / len(items), 1) if items else 0.0
    out += [f"Paper: *{fig['paper']}*. Build years: {shown} (paper: {fig['years']['cite']}).",
            "",
            ("| subject | items | paper items | difference | excluded questions | "
             "paper excluded | difference | our exclusion reasons | paper's figures from |"),
            "|---|---:|---:|---:|---:|---:|---:|---|---|", *rows, "",
            (f"True: {pct}% (paper: {fig['percent_true']['value']}%, "
             f"{fig['percent_true']['cite']})."), "",
            "Per year (the paper gives no per-year figures):", "",
            "| year | items | excluded questions |", "|---:|---:|---:|"]
    for y in sorted(years):
        out.append(f"| {y} | {sum(1 for i in items if _item_year(i) == y)} | "
                   f"{sum(1 for e in exclusions if _exclusion_year(e) == y)} |")
    out += ["", "Known causes of the difference:", "", *(f"- {c}" for c in causes),
            *(f"- {c['text']} (paper, {c['cite']})" for c in fig["causes"]), ""]
    return out
