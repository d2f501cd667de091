"""The clause-classification leaderboard and plots (seed 000, 条文分類).

* leaderboard: the seed's table — Model | F1 | 適合率 | 再現率 | ハルシネーション数, in % with
  one decimal — per setting, and a details table with the intervals;
* plots: items by number of labels (gold vs predicted) per run; micro P/R/F1 with intervals
  and the hallucination counts over runs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from buildds.evaluate.tables import SAMPLES_HEAD, leaderboard_head, md_cell, samples_cell, shot_name

__all__ = ["plot_label_counts", "plot_summary", "render_leaderboard"]


def _pct(value: Any) -> str:
    return "–" if value is None else f"{100 * float(value):.1f}"


def _pct_ci(value: Any, ci: Sequence[float] | None) -> str:
    if not ci:
        return _pct(value)
    return f"{_pct(value)} [{_pct(ci[0])}, {_pct(ci[1])}]"


def _ranked(entries: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    return sorted(entries, key=lambda e: (-float(e.get("f1") or 0.0), str(e["model"]),
                                          int(e["shots"])))


def render_leaderboard(entries: Sequence[Mapping[str, Any]], *,
                       title: str = "LegalRikai clause classification leaderboard",
                       dataset: Mapping[str, Any] | None = None) -> str:
    """The seed's table (in %, one decimal; hallucinations as a count) per setting, then a
    details table with the 95% intervals and the unparsed/error counts."""
    lines = leaderboard_head(title, dataset)
    ns = sorted({int(e["n"]) for e in entries})
    inv = sorted({int(e.get("inventory_size") or 0) for e in entries})
    lines += [(f"Scored items: {', '.join(map(str, ns))} (the `evaluation` split); label "
              f"inventory: {', '.join(map(str, inv))} labels, all listed in the prompt. A "
              "label counts only on an exact match. ハルシネーション数 (hallucinations) = "
              "predicted labels outside the inventory (false positives too). An answer with "
              "neither a `**Legal Clauses:**` list nor \"No valid legal clauses found.\" is "
              "unparsed (unfaithful) and predicts no label. Samples: answered / failed (no answer, "
              "not scored) / unfaithful."), ""]
    for shots in sorted({int(e["shots"]) for e in entries}):
        lines += [f"## {shot_name(shots)}", "",
                  ("| Model | F1 | 適合率 (precision) | 再現率 (recall) | "
                  f"ハルシネーション数 (hallucinations) | {SAMPLES_HEAD} |"),
                  "|---|---:|---:|---:|---:|---:|"]
        for e in _ranked([e for e in entries if int(e["shots"]) == shots]):
            lines.append(f"| {md_cell(e['model'])} | {_pct(e.get('f1'))} | "
                         f"{_pct(e.get('precision'))} | {_pct(e.get('recall'))} | "
                         f"{e.get('hallucinations', '–')} | {samples_cell(e)} |")
        lines.append("")
    lines += ["## Details (%, 95% percentile-bootstrap intervals over items)", "",
              ("| Model | Setting | n | F1 | Precision | Recall | Exact match | Unparsed | "
              "Errors | Labels per item (predicted / gold) |"),
              "|---|---|---:|---|---|---|---|---:|---:|---|"]
    for e in _ranked(entries):
        ci = e.get("ci", {})
        per = e.get("labels_per_item", {})
        lines.append(
            f"| {md_cell(e['model'])} | {shot_name(int(e['shots']))} | {e['n']} | "
            f"{_pct_ci(e.get('f1'), ci.get('f1'))} | "
            f"{_pct_ci(e.get('precision'), ci.get('precision'))} | "
            f"{_pct_ci(e.get('recall'), ci.get('recall'))} | "
            f"{_pct_ci(e.get('exact_match'), ci.get('exact_match'))} | "
            f"{e.get('unparsed', 0)} | {e.get('errors', 0)} | "
            f"{float(per.get('predicted', 0)):.2f} / {float(per.get('gold', 0)):.2f} |")
    lines.append("")
    return "\n".join(lines)


def plot_label_counts(metrics: Mapping[str, Any], title: str) -> bytes:
    """Items by number of labels: gold vs predicted (over-labelling shows on the right)."""
    from buildds.evaluate.report import new_figure, png_bytes

    dist = metrics.get("label_count_distribution", {})
    gold, pred = dist.get("gold", {}), dist.get("predicted", {})
    ks = sorted({int(k) for k in [*gold, *pred]})
    fig, ax = new_figure(6.0, 3.6)
    ax.bar([k - 0.2 for k in ks], [gold.get(str(k), 0) for k in ks], width=0.4, label="gold")
    ax.bar([k + 0.2 for k in ks], [pred.get(str(k), 0) for k in ks], width=0.4,
           label="predicted")
    ax.set_xticks(ks, [str(k) for k in ks])
    ax.set_xlabel("labels per clause")
    ax.set_ylabel("clauses")
    ax.set_title(title, fontsize="small")
    ax.legend(fontsize="small")
    fig.tight_layout()
    return png_bytes(fig)


def plot_summary(entries: Sequence[Mapping[str, Any]]) -> bytes:
    """Micro P/R/F1 with 95% intervals per run, and the hallucination counts."""
    from buildds.evaluate.report import agg_figure, grouped_bars, png_bytes

    runs = _ranked(entries)
    names = [f"{e['model']} ({shot_name(int(e['shots'])).lower()})" for e in runs]
    fig = agg_figure(min(14.0, 7.0 + 0.6 * len(runs)), 4.0)
    ax, bx = fig.add_subplot(1, 2, 1), fig.add_subplot(1, 2, 2)
    keys = ("f1", "precision", "recall")
    grouped_bars(ax, len(runs), [(k, [float(e.get(k) or 0.0) for e in runs]) for k in keys],
                 cis=[[e.get("ci", {}).get(k) for e in runs] for k in keys], capsize=2)
    ax.set_xticks(range(len(runs)), names, rotation=30, ha="right", fontsize="small")
    ax.set_ylim(0, 1)
    ax.set_title("micro P/R/F1 (95% CI)")
    ax.legend(fontsize="small")
    bx.bar(range(len(runs)), [int(e.get("hallucinations") or 0) for e in runs], color="tab:red")
    bx.set_xticks(range(len(runs)), names, rotation=30, ha="right", fontsize="small")
    bx.set_title("hallucinated labels (count)")
    fig.tight_layout()
    return png_bytes(fig)
