"""Leaderboards and plots of an evaluation run (seed 001, Tables 2 and 3).

* :func:`render_leaderboard_md` — Table 2 (F1 and faithfulness, zero- and four-shot), Table 3
  (per-subject F1: Cvl/Cst/Pen) and a details table (n, F1 and accuracy with 95% intervals);
* :func:`leaderboard_json` — the same numbers as data;
* :func:`plot_subject_f1` / :func:`plot_confusion` — PNG bytes (matplotlib's Agg canvas, no
  global pyplot state, no timestamps or version in the metadata, so the same numbers give the
  same bytes with the same matplotlib).

Everything here is a pure function of the per-model ``metrics.json`` dicts.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import Any

from buildds.evaluate.tables import SAMPLES_HEAD, leaderboard_head, md_cell, samples_cell, shot_name

__all__ = [
    "SUBJECT_COLUMNS",
    "agg_figure",
    "grouped_bars",
    "leaderboard_json",
    "leaderboard_models",
    "new_figure",
    "plot_confusion",
    "plot_subject_f1",
    "png_bytes",
    "render_leaderboard_md",
]

SUBJECT_COLUMNS = ("Cvl", "Cst", "Pen")


def leaderboard_models(entries: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Group metrics by model: ``[{model, slug, shots: {0: metrics, 4: metrics}}]``, sorted
    like the seed's tables: by zero-shot F1 (else the first setting's F1), best first, then
    by name."""
    by_model: dict[str, dict[str, Any]] = {}
    for e in entries:
        row = by_model.setdefault(e["model"], {"model": e["model"], "slug": e.get("slug"),
                                               "shots": {}})
        row["shots"][int(e["shots"])] = e

    def key(row: dict[str, Any]) -> tuple[float, str]:
        shots = row["shots"]
        first = shots.get(0) or shots[min(shots)]
        return (-float(first["f1"]), row["model"])

    return sorted(by_model.values(), key=key)


def _settings(entries: Sequence[Mapping[str, Any]]) -> list[int]:
    return sorted({int(e["shots"]) for e in entries})


def _num(value: Any) -> str:
    return "–" if value is None else f"{float(value):.3f}"


def _ci(ci: Sequence[float] | None) -> str:
    return "" if not ci else f" [{float(ci[0]):.3f}, {float(ci[1]):.3f}]"


def render_leaderboard_md(entries: Sequence[Mapping[str, Any]], *,
                          title: str = "JBE-QA leaderboard",
                          dataset: Mapping[str, Any] | None = None) -> str:
    rows = leaderboard_models(entries)
    shots = _settings(entries)
    lines = leaderboard_head(title, dataset)
    n = sorted({int(e["n"]) for e in entries})
    lines += [(f"Answered items scored: {', '.join(map(str, n))} (few-shot exemplars excluded "
              "in every setting; a failed request has no answer and no score). An output "
              "other than exactly `1` or `0` is unfaithful and counts as 0 (the seed's "
              "convention; *F1 parsed only* below leaves it out). Samples: answered / "
              "failed / unfaithful."), "", "## F1 and faithfulness", ""]
    head = ["Model", *(f"F1 {shot_name(s)}" for s in shots),
            *(f"Faithfulness {shot_name(s)}" for s in shots),
            *(f"Samples {shot_name(s)}" for s in shots)]
    lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        cells = [md_cell(r["model"])]
        cells += [_num(r["shots"][s]["f1"]) if s in r["shots"] else "–" for s in shots]
        cells += [_num(r["shots"][s]["faithfulness"]) if s in r["shots"] else "–" for s in shots]
        cells += [samples_cell(r["shots"][s]) if s in r["shots"] else "–" for s in shots]
        lines.append("| " + " | ".join(cells) + " |")
    lines += ["", "## F1 per subject", "",
              "Cvl = the Civil Code, Cst = the Constitution, Pen = the Penal Code.", ""]
    head = ["Model", *(f"{shot_name(s)} {c}" for s in shots for c in SUBJECT_COLUMNS)]
    lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        cells = [md_cell(r["model"])]
        for s in shots:
            per = r["shots"].get(s, {}).get("per_subject", {})
            cells += [_num(per[c]["f1"]) if c in per else "–" for c in SUBJECT_COLUMNS]
        lines.append("| " + " | ".join(cells) + " |")
    lines += ["", "## Details (95% percentile-bootstrap intervals)", "",
              ("| Model | Setting | n | F1 | Precision | Recall | Accuracy | Faithfulness | "
              f"{SAMPLES_HEAD} | F1 parsed only |"),
              "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        for s in shots:
            m = r["shots"].get(s)
            if m is None:
                continue
            ci = m.get("ci", {})
            lines.append(
                f"| {md_cell(r['model'])} | {shot_name(s)} | {m['n']} | "
                f"{_num(m['f1'])}{_ci(ci.get('f1'))} | {_num(m.get('precision'))} | "
                f"{_num(m.get('recall'))} | {_num(m['accuracy'])}{_ci(ci.get('accuracy'))} | "
                f"{_num(m['faithfulness'])}{_ci(ci.get('faithfulness'))} | "
                f"{samples_cell(m)} | {_num((m.get('parsed_only') or {}).get('f1'))} |")
    lines.append("")
    return "\n".join(lines)


def leaderboard_json(entries: Sequence[Mapping[str, Any]], *, task: str,
                     dataset: Mapping[str, Any] | None = None) -> dict[str, Any]:
    rows = []
    for r in leaderboard_models(entries):
        rows.append({"model": r["model"], "slug": r["slug"], "settings": {
            shot_name(s).lower(): {
                "shots": s, "n": m["n"], "f1": m["f1"], "precision": m.get("precision"),
                "recall": m.get("recall"), "accuracy": m["accuracy"],
                "faithfulness": m["faithfulness"], "ci": m.get("ci", {}),
                "samples": m.get("samples"), "parsed_only": m.get("parsed_only"),
                "per_subject_f1": {c: v["f1"] for c, v in m.get("per_subject", {}).items()},
            } for s, m in sorted(r["shots"].items())}})
    return {"task": task, "dataset": dict(dataset or {}), "models": rows}


# --------------------------------------------------------------------------- plots
def agg_figure(width: float, height: float) -> Any:
    """A matplotlib figure on the Agg canvas (no global pyplot state), without axes."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=100)
    FigureCanvasAgg(fig)
    return fig


def new_figure(width: float, height: float) -> tuple[Any, Any]:
    """A matplotlib figure on the Agg canvas (no global pyplot state) and its one axes."""
    fig = agg_figure(width, height)
    return fig, fig.add_subplot(1, 1, 1)


def grouped_bars(ax: Any, n_groups: int, series: Sequence[tuple[str, Sequence[float]]], *,
                 cis: Sequence[Sequence[Sequence[float] | None]] | None = None,
                 **bar_options: Any) -> None:
    """Bars at x = 0 … ``n_groups``-1, one per series side by side within 0.8 of each x
    (legend entry: the series' label). ``cis``: per series, each bar's [low, high] interval
    (None: no interval), drawn as error bars."""
    width = 0.8 / max(1, len(series))
    for j, (label, values) in enumerate(series):
        xs = [i - 0.4 + width * (j + 0.5) for i in range(n_groups)]
        options = dict(bar_options)
        if cis is not None:
            bounds = [c or [v, v] for v, c in zip(values, cis[j], strict=True)]
            options["yerr"] = [[v - c[0] for v, c in zip(values, bounds, strict=True)],
                               [c[1] - v for v, c in zip(values, bounds, strict=True)]]
        ax.bar(xs, values, width=width, label=label, **options)


def png_bytes(fig: Any) -> bytes:
    """The figure as PNG bytes without software/version metadata (same numbers, same bytes)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", metadata={"Software": None})
    return buf.getvalue()


def plot_subject_f1(entries: Sequence[Mapping[str, Any]]) -> bytes:
    """Grouped bars: F1 per subject (and overall) for every model and setting."""
    rows = leaderboard_models(entries)
    series = [(f"{r['model']} ({shot_name(s).lower()})", m)
              for r in rows for s, m in sorted(r["shots"].items())]
    groups = [*SUBJECT_COLUMNS, "All"]

    def values(m: Mapping[str, Any]) -> list[float]:
        per = m.get("per_subject", {})
        return [*(float(per[c]["f1"]) if c in per else 0.0 for c in SUBJECT_COLUMNS),
                float(m["f1"])]

    fig, ax = new_figure(min(12.0, 6.0 + 0.35 * len(series)), 4.0)
    grouped_bars(ax, len(groups), [(label, values(m)) for label, m in series])
    ax.set_xticks(range(len(groups)), groups)
    ax.set_ylim(0, 1)
    ax.set_ylabel("F1 (positive = True)")
    ax.set_title("F1 per subject")
    if series:
        ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.tight_layout()
    return png_bytes(fig)


def plot_confusion(confusion: Mapping[str, int], title: str) -> bytes:
    """A 2×2 confusion matrix (rows gold, columns predicted; True first)."""
    grid = [[confusion["tp"], confusion["fn"]], [confusion["fp"], confusion["tn"]]]
    fig, ax = new_figure(4.0, 3.6)
    ax.imshow(grid, cmap="Blues")
    top = max(1, max(max(r) for r in grid))
    for i in range(2):
        for j in range(2):
            ax.text(j, i, str(grid[i][j]), ha="center", va="center",
                    color="white" if grid[i][j] > top / 2 else "black")
    ax.set_xticks([0, 1], ["True", "False"])
    ax.set_yticks([0, 1], ["True", "False"])
    ax.set_xlabel("predicted")
    ax.set_ylabel("gold")
    ax.set_title(title, fontsize="small")
    fig.tight_layout()
    return png_bytes(fig)
