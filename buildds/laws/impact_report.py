"""Write what :func:`buildds.laws.impact.assess_items` found: ``impact.jsonl`` (one
:class:`~buildds.schema.laws.ItemImpact` per item, canonical JSON), ``impact.md`` (counts per
status × subject × year and per revision; the items to review with their grounds, change,
similarity, revision and transitional 附則; low-confidence and terminology-only items apart;
unknown items with their reasons) and ``impact.png`` (items per exam year by status; skipped with a note in
``impact.md`` when matplotlib — the optional ``eval`` extra — is missing). Deterministic:
the same impacts give the same bytes.
"""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Mapping, Sequence
from datetime import date
from pathlib import Path

from buildds.laws.exam_dates import western_year
from buildds.pipeline import atomic_write_bytes, atomic_write_text, canonical_json
from buildds.schema.core import JbeItem
from buildds.schema.laws import GroundImpact, ItemImpact

__all__ = ["STATUSES", "impact_markdown", "impact_plot", "write_impact"]

STATUSES = ("needs_review", "low_confidence", "unknown", "terminology_only",
            "unaffected")
_COLOURS = {"needs_review": "#c0392b", "low_confidence": "#e67e22",
            "unknown": "#7f8c8d", "terminology_only": "#f1c40f",
            "unaffected": "#27ae60"}


def _cell(text: object) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _year(item: JbeItem | None) -> str:
    year = western_year(item.year) if item else None
    return str(year) if year else (item.year if item else "?")


def _revision(gi: GroundImpact) -> str:
    if gi.revision_id:
        return gi.revision_id
    return f"undetermined (one of {len(gi.candidates)})" if gi.candidates else "undetermined"


def _change(gi: GroundImpact) -> str:
    c = gi.change
    moved = f"{c.old_article}→{c.new_article}" if c.old_article != c.new_article else (
        c.old_article or c.new_article or "")
    paras = f" ¶{','.join(map(str, c.paragraphs))}" if c.paragraphs else ""
    return f"{c.kind} {moved}{paras}"


def _grounds(impact: ItemImpact) -> str:
    return ", ".join(f"{g.article}{f'({g.paragraph})' if g.paragraph else ''}"
                     f"{'' if g.how == 'explicit' else f' r{g.rank}'}"
                     for g in impact.grounds.grounds) or "—"


def _counts_table(impacts: Sequence[ItemImpact], by_id: Mapping[str, JbeItem]) -> list[str]:
    rows: Counter[tuple[str, str, str]] = Counter((by_id[i.item_id].subject_jp if i.item_id in by_id else "?",
                    _year(by_id.get(i.item_id)), i.status) for i in impacts)
    keys = sorted({(s, y) for s, y, _ in rows})
    out = ["| subject | year | " + " | ".join(STATUSES) + " | total |",
           "|---|---|" + "---:|" * (len(STATUSES) + 1)]
    for s, y in keys:
        n = [rows[(s, y, st)] for st in STATUSES]
        out.append(f"| {s} | {y} | " + " | ".join(map(str, n)) + f" | {sum(n)} |")
    tot: Counter[str] = Counter(i.status for i in impacts)
    out.append("| **all** | | " + " | ".join(str(tot[st]) for st in STATUSES)
               + f" | {len(impacts)} |")
    return out


def _revision_table(impacts: Sequence[ItemImpact]) -> list[str]:
    per: Counter[tuple[str, str]] = Counter()
    for i in impacts:
        for rev in sorted({_revision(gi) for gi in i.impacts}):
            per[(rev, i.status)] += 1
    out = ["| revision | " + " | ".join(STATUSES[:4]) + " |", "|---|" + "---:|" * 4]
    for rev in sorted({r for r, _ in per}):
        out.append(f"| {rev} | " + " | ".join(str(per[(rev, st)]) for st in STATUSES[:4])
                   + " |")
    return out


def _item_rows(impacts: Sequence[ItemImpact], status: str) -> list[str]:
    out = ["| item | grounds | change | similarity | revision (enforced) | transitional 附則 |",
           "|---|---|---|---:|---|---|"]
    for i in impacts:
        if i.status != status:
            continue
        for gi in i.impacts:
            when = f" ({gi.enforced.isoformat()})" if gi.enforced else ""
            trans = gi.transitional[0] if gi.transitional else ""
            out.append(f"| {i.item_id} | {_cell(_grounds(i))} | {_cell(_change(gi))} | "
                       f"{gi.change.similarity:.3f} | {_cell(_revision(gi) + when)} | "
                       f"{_cell(trans)} |")
    return out


def impact_markdown(impacts: Sequence[ItemImpact], items: Sequence[JbeItem], *,
                    as_of: date, notes: Sequence[str] = ()) -> str:
    """The report (see the module docstring)."""
    by_id = {i.id: i for i in items}
    lines = [f"# Law revisions and the dataset: as of {as_of.isoformat()}", "",
             (f"{len(impacts)} items; the law each exam assumed is the law in force on its "
              "exam day (buildds/laws/data/exam_dates.yaml unless overridden). "
              "Terminology-only changes are listed apart and do not put an item up for "
              "review."), "",
             "## Items per status", "", *_counts_table(impacts, by_id), "",
             "## Items per revision", "",
             ("An item counts once per revision among its changed grounds; `undetermined`: "
              "several revisions lie in the span where the article changed and no 附則 names "
              "it."),
             "", *_revision_table(impacts), "",
             "## Needs review", "", *_item_rows(impacts, "needs_review"), "",
             "## Low confidence", "",
             ("A changed article grounds these items only as a weak retrieval (scored well "
              "below the item's best ground): most are not about it; review after the above."),
             "", *_item_rows(impacts, "low_confidence"), "",
             "## Terminology only", "", *_item_rows(impacts, "terminology_only"), "",
             "## Unknown", ""]
    reasons = Counter(i.reason or "" for i in impacts if i.status == "unknown")
    lines += ["| reason | items |", "|---|---:|"]
    lines += [f"| {_cell(r)} | {n} |" for r, n in sorted(reasons.items(), key=lambda x: (-x[1],
                                                                                     x[0]))]
    lines += ["", "| item | reason |", "|---|---|"]
    lines += [f"| {i.item_id} | {_cell(i.reason or '')} |" for i in impacts
              if i.status == "unknown"]
    if notes:
        lines += ["", "## Notes", "", *(f"- {n}" for n in notes)]
    return "\n".join(lines) + "\n"


def impact_plot(impacts: Sequence[ItemImpact], items: Sequence[JbeItem]) -> bytes:
    """Items per exam year, stacked by status (PNG; needs matplotlib)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    by_id = {i.id: i for i in items}
    counts: Counter[tuple[str, str]] = Counter((_year(by_id.get(i.item_id)), i.status)
                                               for i in impacts)
    years = sorted({y for y, _ in counts})
    fig = Figure(figsize=(8, 4), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(1, 1, 1)
    bottom = [0] * len(years)
    for st in STATUSES:
        values = [counts[(y, st)] for y in years]
        ax.bar(years, values, bottom=bottom, label=st, color=_COLOURS[st])
        bottom = [b + v for b, v in zip(bottom, values, strict=True)]
    ax.set_ylabel("items")
    ax.set_xlabel("exam year")
    ax.legend(fontsize=8)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", metadata={"Software": None})
    return buf.getvalue()


def write_impact(out: str | Path, impacts: Sequence[ItemImpact], items: Sequence[JbeItem], *,
                 as_of: date, notes: Sequence[str] = ()) -> list[Path]:
    """Write impact.jsonl, impact.md and (with matplotlib) impact.png into ``out``; the
    paths written."""
    out = Path(out)
    notes = list(notes)
    png: bytes | None = None
    try:
        png = impact_plot(impacts, items)
    except ImportError:
        notes.append("impact.png not written: matplotlib is not installed "
                     "(pip install 'buildds[eval]')")
    written = [out / "impact.jsonl", out / "impact.md"]
    atomic_write_text(written[0], "".join(canonical_json(i.model_dump(mode="json")) + "\n"
                                          for i in impacts))
    atomic_write_text(written[1], impact_markdown(impacts, items, as_of=as_of, notes=notes))
    if png is not None:
        atomic_write_bytes(out / "impact.png", png)
        written.append(out / "impact.png")
    return written
