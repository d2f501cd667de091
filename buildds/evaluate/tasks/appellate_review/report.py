"""Leaderboard and plots of the appellate-review task (seed 003's table layouts).

* the main table is Table 3's block for the subtask — Acc, MaP, MaR, MaF1 — plus the
  instruction-following rate (Table 15), in percent like the seed;
* correction adds a per-target table (charge: Acc/MaF1; prison term and fine: Acc/MaF1 over
  intervals, ImpScore, Acc@0.1, exact match);
* several input settings add Table 5's layout (Acc and MaF1 per setting S1–S5);
* per error type (Figure 4's breakdown): the share answered right per E1–E6 (and none);
* details: the 95% bootstrap intervals and the seed's followed-only figures (appendix B.3).

Everything is a pure function of the runs' ``metrics.json``; PNGs use matplotlib's Agg
canvas without metadata (:func:`buildds.evaluate.report.new_figure`/``png_bytes``), so the same
numbers give the same bytes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from buildds.evaluate.tables import SAMPLES_HEAD, leaderboard_head, md_cell, samples_cell

__all__ = ["plot_confusion_matrix", "plot_macro_f1", "render_leaderboard"]

_TARGET_TITLES = {"charge": "Charge", "prison_term": "Term", "fine": "Fine"}
_ERROR_TYPES = ("none", "E1", "E2", "E3", "E4", "E5", "E6")


def _pct(value: Any) -> str:
    return "–" if value is None else f"{100 * float(value):.2f}"


def _ci(ci: Sequence[float] | None) -> str:
    return "" if not ci else f" [{100 * float(ci[0]):.2f}, {100 * float(ci[1]):.2f}]"


def _row(cells: Sequence[Any]) -> str:
    return "| " + " | ".join(str(c) for c in cells) + " |"


def _table(head: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[str]:
    return [_row(head), "|" + "---|" * len(head), *(_row(r) for r in rows), ""]


def _sorted(entries: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    return sorted(entries, key=lambda e: (-float(e.get("macro_f1") or 0.0), str(e["model"])))


def _main_table(entries: Sequence[Mapping[str, Any]]) -> list[str]:
    head = ["Model", "n", "Acc", "MaP", "MaR", "MaF1", "IF rate", SAMPLES_HEAD]
    return _table(head, [[md_cell(e["model"]), e.get("n", "–"), _pct(e.get("accuracy")),
                          _pct(e.get("macro_precision")), _pct(e.get("macro_recall")),
                          _pct(e.get("macro_f1")), _pct(e.get("if_rate")), samples_cell(e)]
                         for e in entries])


def _target_table(entries: Sequence[Mapping[str, Any]], targets: Sequence[str]) -> list[str]:
    head = ["Model", SAMPLES_HEAD]
    for t in targets:
        head += [f"{_TARGET_TITLES[t]} n", f"{_TARGET_TITLES[t]} Acc", f"{_TARGET_TITLES[t]} MaF1"]
        if t != "charge":
            head += [f"{_TARGET_TITLES[t]} ImpScore", f"{_TARGET_TITLES[t]} Acc@0.1",
                     f"{_TARGET_TITLES[t]} exact"]
    rows = []
    for e in entries:
        per = e.get("per_target", {})
        cells: list[Any] = [md_cell(e["model"]), samples_cell(e)]
        for t in targets:
            m = per.get(t, {})
            cells += [m.get("n", 0), _pct(m.get("accuracy")), _pct(m.get("macro_f1"))]
            if t != "charge":
                cells += [_pct(m.get("impscore")), _pct(m.get("acc_at_0_1")),
                          _pct(m.get("exact"))]
        rows.append(cells)
    return _table(head, rows)


def _settings_table(entries: Sequence[Mapping[str, Any]], settings: Sequence[str]) -> list[str]:
    head = ["Model", SAMPLES_HEAD, *(f"{s} {k}" for s in settings for k in ("Acc", "MaF1"))]
    rows = []
    for e in entries:
        per = e.get("per_setting", {})
        rows.append([md_cell(e["model"]), samples_cell(e), *(_pct(per.get(s, {}).get(k)) for s in settings
                                            for k in ("accuracy", "macro_f1"))])
    return _table(head, rows)


def _error_type_table(entries: Sequence[Mapping[str, Any]]) -> list[str]:
    present = [et for et in _ERROR_TYPES if any(et in e.get("per_error_type", {})
                                                for e in entries)]
    head = ["Model", *present]
    rows = [[md_cell(e["model"]), *(_pct(e.get("per_error_type", {}).get(et, {})
                                         .get("accuracy")) for et in present)]
            for e in entries]
    return _table(head, rows)


def _details_table(entries: Sequence[Mapping[str, Any]]) -> list[str]:
    head = ["Model", "Acc", "MaF1", "IF rate", "Followed-only n", "Followed-only Acc",
            "Followed-only MaF1", "Errors"]
    rows = []
    for e in entries:
        ci, fo = e.get("ci", {}), e.get("followed_only", {})
        rows.append([md_cell(e["model"]), _pct(e.get("accuracy")) + _ci(ci.get("accuracy")),
                     _pct(e.get("macro_f1")) + _ci(ci.get("macro_f1")),
                     _pct(e.get("if_rate")) + _ci(ci.get("if_rate")), fo.get("n", "–"),
                     _pct(fo.get("accuracy")), _pct(fo.get("macro_f1")), e.get("errors", 0)])
    return _table(head, rows)


def render_leaderboard(entries: Sequence[Mapping[str, Any]], *, title: str, heading: str,
                       variant: Any, setting_titles: Mapping[str, str],
                       dataset: Mapping[str, Any] | None = None) -> str:
    """The leaderboard markdown over every run of this task in the output folder."""
    rows = _sorted(entries)
    settings = list(variant.settings)
    lines = leaderboard_head(title, dataset)
    lines += ["Input setting" + ("s" if len(settings) > 1 else "") + ": "
              + "; ".join(f"{s} ({setting_titles[s]})" for s in settings)
              + (" — pooled in the main table" if len(settings) > 1 else "") + ".",
              ("Scores in %. An output the parser cannot read is an instruction-following "
              "failure (IF rate) and counts as wrong; the seed's protocol, which leaves such "
              "outputs out, is in the details (followed-only). Every table gives the samples "
              "behind its figures: answered / failed (no answer, not scored) / unfaithful "
              "(answered, not parsed)."), "",
              f"## {heading} (Table 3 layout)", ""]
    lines += _main_table(rows)
    if variant.subtask == "correction":
        lines += ["## Correction per target", "",
                  ("Charge: exact set of charges. Term (months) and fine (yuan): Acc/MaF1 over "
                  "intervals, ImpScore (CAIL2018 log-distance score), Acc@0.1 (within ±10%), "
                  "exact match."), ""]
        lines += _target_table(rows, list(variant.targets))
    if len(settings) > 1:
        lines += ["## Input settings (Table 5 layout)", ""]
        lines += _settings_table(rows, settings)
    lines += ["## Share answered right per error type (Figure 4 breakdown)", ""]
    lines += _error_type_table(rows)
    lines += ["## Details (95% percentile-bootstrap intervals)", ""]
    lines += _details_table(rows)
    return "\n".join(lines)


# --------------------------------------------------------------------------- plots
def plot_confusion_matrix(cm: Mapping[str, Any], title: str) -> bytes:
    """Rows gold, columns predicted (the last column: format not followed)."""
    from buildds.evaluate.report import new_figure, png_bytes

    labels = [_display(x) for x in cm["labels"]]
    cols = [_display(x) for x in cm["columns"]]
    grid = cm["matrix"]
    fig, ax = new_figure(1.6 + 1.0 * len(cols), 1.4 + 0.8 * len(labels))
    ax.imshow(grid, cmap="Blues", aspect="auto")
    top = max(1, max((max(r) for r in grid), default=1))
    for i, row in enumerate(grid):
        for j, v in enumerate(row):
            ax.text(j, i, str(v), ha="center", va="center",
                    color="white" if v > top / 2 else "black")
    ax.set_xticks(range(len(cols)), cols)
    ax.set_yticks(range(len(labels)), labels)
    ax.set_xlabel("predicted")
    ax.set_ylabel("gold")
    ax.set_title(title, fontsize="small")
    fig.tight_layout()
    return png_bytes(fig)


def _display(label: str) -> str:
    return {"1": "error", "0": "no error"}.get(str(label), str(label))


def plot_macro_f1(entries: Sequence[Mapping[str, Any]], settings: Sequence[str]) -> bytes:
    """Macro-F1 per model (per setting when several)."""
    from buildds.evaluate.report import grouped_bars, new_figure, png_bytes

    rows = _sorted(entries)
    groups = list(settings)
    fig, ax = new_figure(min(12.0, 5.0 + 0.8 * len(groups) + 0.3 * len(rows)), 4.0)
    per_row = [e.get("per_setting") or {groups[0]: e} for e in rows]
    grouped_bars(ax, len(groups), [
        (str(e["model"]), [float(per.get(s, {}).get("macro_f1") or 0.0) for s in groups])
        for e, per in zip(rows, per_row, strict=True)])
    ax.set_xticks(range(len(groups)), groups)
    ax.set_ylim(0, 1)
    ax.set_ylabel("macro-F1")
    ax.set_title("Macro-F1 per input setting")
    if rows:
        ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.tight_layout()
    return png_bytes(fig)
