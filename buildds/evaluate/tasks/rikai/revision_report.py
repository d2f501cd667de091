"""The clause-revision leaderboard and plots (seed 000, 条文修正).

* leaderboard: the seed's tables — Model | アラートへの対応 | 意味の保持 | 文法 | 自然さ |
  論理の流れ, two decimals — one per setting (zero-shot, eight-shot), for the judges' mean and,
  with several judges, for each judge; then the details with the intervals. ``--model oracle``
  (the judge's ceiling, the seed's **Oracle** row) is printed last in every table;
* plots: the aspect scores of one run, and the aspects over runs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from buildds.evaluate.tables import SAMPLES_HEAD, leaderboard_head, md_cell, samples_cell, shot_name
from buildds.evaluate.tasks.rikai.revision_judging import ASPECT_TITLES, ASPECTS

__all__ = ["ORACLE", "plot_run", "plot_summary", "render_leaderboard"]

ORACLE = "oracle"


def _num(value: Any) -> str:
    return "–" if value is None else f"{float(value):.2f}"


def _ci(ci: Sequence[float] | None) -> str:
    return f"[{_num(ci[0])}, {_num(ci[1])}]" if ci else ""


def _is_oracle(entry: Mapping[str, Any]) -> bool:
    return str(entry["model"]).strip().lower() == ORACLE


def _display(entry: Mapping[str, Any]) -> str:
    return "Oracle (reference as prediction)" if _is_oracle(entry) else md_cell(entry["model"])


def _ordered(entries: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Best ``overall`` first, the Oracle rows last (as in the seed)."""
    return sorted(entries, key=lambda e: (_is_oracle(e), -float(e.get("overall") or 0.0),
                                          str(e["model"]), int(e["shots"])))


def _aspect_table(rows: Sequence[tuple[str, Mapping[str, Any] | None, Mapping[str, Any]]]
                  ) -> list[str]:
    """Rows ``(name, aspect block, the run's metrics)``: the aspects, then the run's samples."""
    head = " | ".join(ja for ja, _ in ASPECT_TITLES.values())
    lines = [f"| Model | {head} | {SAMPLES_HEAD} |", "|---|" + "---:|" * (len(ASPECTS) + 1)]
    for name, block, run in rows:
        cells = [_num((block or {}).get(a)) for a in ASPECTS]
        lines.append(f"| {name} | " + " | ".join(cells) + f" | {samples_cell(run)} |")
    return lines


def render_leaderboard(entries: Sequence[Mapping[str, Any]], *,
                       title: str = "LegalRikai clause revision leaderboard",
                       dataset: Mapping[str, Any] | None = None) -> str:
    """The seed's aspect tables per setting (judges' mean, then each judge), and details."""
    lines = leaderboard_head(title, dataset)
    judges = sorted({j for e in entries for j in (e.get("per_judge") or {})})
    legend = ", ".join(f"{ja} = {en}" for ja, en in ASPECT_TITLES.values())
    lines += [(f"Scores 0–100 given by the LLM judge(s) {', '.join(f'`{j}`' for j in judges)} "
              f"against the lawyer's reference revision ({legend}). The Oracle row is the "
              "reference itself scored as a prediction: the judge's ceiling. Items without "
              "an answer or a valid judgment are left out of the means (see Details). Samples: "
              "answered / failed (no answer, not judged) / unfaithful."), ""]
    for shots in sorted({int(e["shots"]) for e in entries}):
        runs = _ordered([e for e in entries if int(e["shots"]) == shots])
        label = "mean of the judges" if len(judges) > 1 else \
            (f"judge `{judges[0]}`" if judges else "no judge")
        lines += [f"## {shot_name(shots)} ({label})", ""]
        lines += _aspect_table([(_display(e), e, e) for e in runs]) + [""]
        if len(judges) > 1:
            for judge in judges:
                lines += [f"### {shot_name(shots)}, judge `{judge}`", ""]
                lines += _aspect_table([(_display(e), (e.get("per_judge") or {}).get(judge), e)
                                        for e in runs]) + [""]
    lines += ["## Details (95% percentile-bootstrap intervals over judged items)", "",
              "| Model | Setting | Judge | n | Judged | No answer | Judge errors | "
              + " | ".join(en.capitalize() for _, en in ASPECT_TITLES.values())
              + " | Overall |", "|---|---|---|---:|---:|---:|---:|" + "---|" * 6]
    for e in _ordered(entries):
        per = sorted((e.get("per_judge") or {}).items())
        blocks: list[tuple[str, Mapping[str, Any]]] = [(f"`{j}`", b) for j, b in per]
        if len(per) != 1:  # with one judge, its row is the mean
            blocks.insert(0, ("mean", e))
        for judge, block in blocks:
            ci = block.get("ci", {})
            cells = [f"{_num(block.get(k))} {_ci(ci.get(k))}" for k in (*ASPECTS, "overall")]
            lines.append(f"| {_display(e)} | {shot_name(int(e['shots']))} | {judge} | "
                         f"{e['n']} | {block.get('judged', 0)} | {e.get('errors', 0)} | "
                         f"{block.get('judge_errors', 0)} | " + " | ".join(cells) + " |")
    lines.append("")
    return "\n".join(lines)


def plot_run(metrics: Mapping[str, Any], title: str) -> bytes:
    """Aspect scores with 95% intervals: the judges' mean and each judge."""
    from buildds.evaluate.report import grouped_bars, new_figure, png_bytes

    series = [("mean", metrics), *sorted((metrics.get("per_judge") or {}).items())]
    fig, ax = new_figure(7.0, 3.8)
    keys = (*ASPECTS, "overall")
    grouped_bars(ax, len(keys), [(name, [float(block.get(k) or 0.0) for k in keys])
                                 for name, block in series],
                 cis=[[(block.get("ci") or {}).get(k) for k in keys] for _, block in series],
                 capsize=2)
    ax.set_xticks(range(len(keys)), [k.replace("_", "\n") for k in keys], fontsize="small")
    ax.set_ylim(0, 100)
    ax.set_ylabel("judge score (0-100)")
    ax.set_title(title, fontsize="small")
    ax.legend(fontsize="x-small", loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.tight_layout()
    return png_bytes(fig)


def plot_summary(entries: Sequence[Mapping[str, Any]]) -> bytes:
    """Per setting: the judges' mean of each aspect for every model (Oracle last)."""
    from buildds.evaluate.report import agg_figure, grouped_bars, png_bytes

    settings = sorted({int(e["shots"]) for e in entries})
    fig = agg_figure(7.0 * len(settings), 4.2)
    for k, shots in enumerate(settings, start=1):
        ax = fig.add_subplot(1, len(settings), k)
        runs = _ordered([e for e in entries if int(e["shots"]) == shots])
        grouped_bars(ax, len(ASPECTS), [("Oracle" if _is_oracle(e) else str(e["model"]),
                                         [float(e.get(a) or 0.0) for a in ASPECTS])
                                        for e in runs])
        ax.set_xticks(range(len(ASPECTS)), [a.replace("_", "\n") for a in ASPECTS],
                      fontsize="small")
        ax.set_ylim(0, 100)
        ax.set_title(shot_name(shots))
        ax.legend(fontsize="x-small")
    fig.tight_layout()
    return png_bytes(fig)

