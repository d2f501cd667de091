"""Write a diff between two versions of a law (:func:`buildds.laws.diff.diff_versions`):
``changes.jsonl`` (one :class:`ArticleChange` a line, canonical JSON) and ``summary.md``
(counts per kind and every article that is not unchanged, with its similarity). Both files
are written atomically; the same changes give byte-identical files."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import get_args

from buildds.pipeline import atomic_write_text, canonical_json
from buildds.schema.laws import ArticleChange, ChangeKind

__all__ = ["count_kinds", "render_summary", "write_diff"]

KINDS: tuple[str, ...] = get_args(ChangeKind)


def count_kinds(changes: Sequence[ArticleChange]) -> dict[str, int]:
    """How many changes of each kind, every kind listed (in the schema's order)."""
    counts: Counter[str] = Counter(c.kind for c in changes)
    return {k: counts.get(k, 0) for k in KINDS}


def _article(key: str | None) -> str:
    return "—" if key is None else key


def render_summary(changes: Sequence[ArticleChange], *, law_id: str, from_label: str,
                   to_label: str, notes: Sequence[str] = ()) -> str:
    """The markdown summary: counts per kind, one row per article that changed, then the
    ``notes`` (e.g. articles a version holds as amended by a law not yet in force)."""
    lines = [f"# {law_id}: {from_label} → {to_label}", "",
             f"{len(changes)} articles compared.", "", "| kind | articles |", "|---|---:|"]
    lines += [f"| {k} | {n} |" for k, n in count_kinds(changes).items()]
    changed = [c for c in changes if c.kind != "unchanged"]
    lines += ["", "## Changed articles", ""]
    if not changed:
        lines.append("None.")
    else:
        lines += ["| kind | old | new | similarity | paragraphs |", "|---|---|---|---:|---|"]
        for c in changed:
            paras = ", ".join(map(str, c.paragraphs)) or "—"
            lines.append(f"| {c.kind} | {_article(c.old_article)} | {_article(c.new_article)} "
                         f"| {c.similarity:.4f} | {paras} |")
    if notes:
        lines += ["", "## Notes", "", *(f"- {n}" for n in notes)]
    return "\n".join(lines) + "\n"


def write_diff(changes: Sequence[ArticleChange], out_dir: str | Path, *, law_id: str,
               from_label: str, to_label: str, notes: Sequence[str] = ()) -> tuple[Path, Path]:
    """Write ``changes.jsonl`` and ``summary.md`` (with ``notes`` at its end) under
    ``out_dir`` (created if missing); returns their paths."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    jsonl, summary = out / "changes.jsonl", out / "summary.md"
    atomic_write_text(jsonl, "".join(canonical_json(c.model_dump(mode="json")) + "\n"
                                     for c in changes))
    atomic_write_text(summary, render_summary(changes, law_id=law_id, from_label=from_label,
                                              to_label=to_label, notes=notes))
    return jsonl, summary
