"""What the corpora gave a ``buildds judgments`` run, for ``report.md`` / ``report.json``
(:func:`corpus_report`): per input, the judgments parsed and the records rejected by reason
(and which other input a duplicate case came from); per error type, the injected rows of
this build beside AR-Bench's (seed 003); and, when no law store chose the version of the law
in force at each judgment's date, how many judgments are older than the one text applied.

AR-Bench's counts: the paper gives the total (8,700 annotated decisions, normal and
anomalous; plus a supplementary corpus of 34,617 judgments) in its text; its per-type
counts are only drawn in Figure 3 (a chart whose numbers are not in the text), so the table
says so instead of inventing them.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from datetime import date
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from buildds.jobs.judgments_inputs import JudgmentsRun
    from buildds.schema.arbench import ArbenchRow
    from buildds.schema.judgments import Judgment

__all__ = ["ARBENCH_SUPPLEMENT", "ARBENCH_TOTAL", "CN_AMENDMENTS", "ERROR_NAMES", "corpus_report",
           "corpus_step"]

#: AR-Bench (seed 003, abstract and §1): annotated decisions, normal and anomalous
ARBENCH_TOTAL = 8700
#: AR-Bench's supplementary corpus of judgments (seed 003, abstract)
ARBENCH_SUPPLEMENT = 34617
#: AR-Bench's names of the error types (seed 003, Figure 2)
ERROR_NAMES = {"E1": "Erroneous Charge", "E2": "Omission of Charges",
               "E3": "Sentencing Outside Limits", "E4": "Failure to Consider Sentencing Factors",
               "E5": "Fixed-amount Fine Outside Limits",
               "E6": "Percentage-based Fine Outside Limits"}
#: when the PRC Criminal Law's amendments took effect (Amendment VIII … XII): the text in
#: force at a judgment's date, for the report's breakdown
CN_AMENDMENTS: tuple[tuple[str, date], ...] = (
    ("1997 text, Amendments I–VII", date(1997, 10, 1)), ("Amendment VIII", date(2011, 5, 1)),
    ("Amendment IX", date(2015, 11, 1)), ("Amendment X", date(2017, 11, 4)),
    ("Amendment XI", date(2021, 3, 1)), ("Amendment XII", date(2024, 3, 1)))
_FIRST_RE = re.compile(r"is already (.+) line \d+ \(the first is kept\)")


def _inputs_section(parsed: dict[str, int], formats: dict[str, str],
                    rejects: Sequence[dict[str, Any]]) -> tuple[list[str], dict[str, Any]]:
    by_input: dict[str, Counter[str]] = defaultdict(Counter)
    overlap: dict[str, Counter[str]] = defaultdict(Counter)
    for r in rejects:
        if r.get("stage") != "extract":
            continue
        by_input[r["source"]][r["reason"]] += 1
        m = _FIRST_RE.search(r.get("message", ""))
        if m and r["reason"] in ("duplicate_case", "duplicate_id"):
            overlap[r["source"]][f"{r['reason']} of {m[1]}"] += 1
    lines = ["## Inputs: parsed and rejected by reason", "",
             "| input | format | parsed | rejected | rejected by reason | duplicates of |",
             "|---|---|---:|---:|---|---|"]
    data = {}
    for name in dict.fromkeys([*parsed, *by_input]):
        reasons, dups = by_input.get(name, Counter()), overlap.get(name, Counter())
        lines.append(f"| {name} | {formats.get(name, '?')} | {parsed.get(name, 0)} | "
                     f"{sum(reasons.values())} | "
                     + ", ".join(f"{k} {v}" for k, v in sorted(reasons.items()))
                     + " | " + ", ".join(f"{k} {v}" for k, v in sorted(dups.items())) + " |")
        data[name] = {"parsed": parsed.get(name, 0), "rejected": dict(sorted(reasons.items())),
                      "duplicates_of": dict(sorted(dups.items()))}
    return lines, data


def _types_section(errors: Sequence[str], rows: Sequence[ArbenchRow]
                   ) -> tuple[list[str], dict[str, Any]]:
    datasets = sorted({r.dataset for r in rows})
    per: Counter[tuple[str, str]] = Counter(
        (str(r.error_type), r.dataset) for r in rows if r.label == 1)
    normals = sum(1 for r in rows if r.label == 0)
    lines = ["## Injected rows per error type: this build vs AR-Bench (seed 003)", "",
             "| error | AR-Bench name | rows here | " + " | ".join(datasets)
             + " | AR-Bench |", "|---|---|---:|" + "---:|" * len(datasets) + "---|"]
    data: dict[str, Any] = {}
    for e in errors:
        n = sum(per[e, d] for d in datasets)
        lines.append(f"| {e} | {ERROR_NAMES.get(e, '')} | {n} | "
                     + " | ".join(str(per[e, d]) for d in datasets)
                     + " | not in the text (Figure 3 is a chart) |")
        data[e] = {"rows": n, "by_dataset": {d: per[e, d] for d in datasets if per[e, d]}}
    total = sum(1 for r in rows if r.label == 1) + normals
    lines += [f"| all | normal {normals} + injected {total - normals} | {total} | "
              + " | ".join(str(sum(1 for r in rows if r.dataset == d)) for d in datasets)
              + f" | {ARBENCH_TOTAL:,} decisions (normal and anomalous) |", "",
              ("AR-Bench's per-type counts are drawn in its Figure 3 only; the paper's text "
               f"gives the total ({ARBENCH_TOTAL:,}, plus a supplementary corpus of "
               f"{ARBENCH_SUPPLEMENT:,} judgments) and no number per type, so none is "
               "compared here."), ""]
    data["normal"], data["arbench_total"] = normals, ARBENCH_TOTAL
    return lines, data


def _dates_section(judgments: Sequence[Judgment], in_force: date,
                   versions: Sequence[tuple[str, date]]) -> tuple[list[str], dict[str, Any]]:
    counted = Counter(j.judgment_date for j in judgments)  # never a list per judgment
    undated = counted.pop(None, 0)
    days: dict[date, int] = {d: n for d, n in counted.items() if d is not None}
    older = sum(n for d, n in days.items() if d < in_force)
    texts: Counter[str] = Counter()
    for d, n in days.items():
        if d < in_force and versions and d >= versions[0][1]:
            texts[next(name for name, start in reversed(versions) if d >= start)] += n
    lines = ["## Judgment dates vs the law applied", "",
             (f"No --law-store: every judgment is checked against one text of the law, in force "
             f"from {in_force.isoformat()}. {older} of {len(judgments)} judgments are dated "
             f"before it (judged under an earlier text of the law; {undated} "
             "have no date): their statutory ranges may differ from the ones applied. Pass "
             "--law-store (a law store with the PRC versions, `buildds laws import`) to judge "
             "each under the version in force at its date."), ""]
    if texts:
        lines += ["| text in force at the judgment date (PRC) | judgments |", "|---|---:|"]
        lines += [f"| {name} | {texts[name]} |" for name, _ in versions if texts[name]]
        lines.append("")
    return lines, {"text_in_force_from": in_force.isoformat(), "judgments": len(judgments),
                   "dated_before": older, "undated": undated,
                   "by_text_in_force": {n: texts[n] for n, _ in versions if texts[n]}}


def corpus_report(*, parsed: dict[str, int], formats: dict[str, str],
                  rejects: Sequence[dict[str, Any]], errors: Sequence[str],
                  rows: Sequence[ArbenchRow], judgments: Sequence[Judgment],
                  in_force: date | None, versions: Sequence[tuple[str, date]] = ()
                  ) -> tuple[str, dict[str, Any]]:
    """(markdown, JSON) of the corpus sections (module docstring); ``in_force``: the date
    the one text applied took effect, None when a law store chose a version per judgment;
    ``versions``: (name, start) of the law's texts, oldest first (:data:`CN_AMENDMENTS`),
    to count the judgments per text in force at their date."""
    lines, inputs = _inputs_section(parsed, formats, rejects)
    more, types = _types_section(errors, rows)
    lines += [""] + more
    data: dict[str, Any] = {"inputs": inputs, "error_types": types}
    if in_force is not None:
        more, data["law_dates"] = _dates_section(judgments, in_force, versions)
        lines += more
    return "\n".join(lines), data


def corpus_step(run: JudgmentsRun, judgments: list[Judgment], rows: list[ArbenchRow],
                   statutes: Any) -> None:
    """The report's corpus sections (:mod:`buildds.jobs.judgments_corpus`); ``statutes``:
    the one profile applied (None: a law store chose one per judgment)."""
    report = run.report
    report.corpus_md, report.corpus = corpus_report(
        parsed=report.parsed, formats={i.path: i.format for i in report.inputs},
        rejects=run.rejects.rows, errors=run.errors, rows=rows, judgments=judgments,
        in_force=statutes.effective_date if statutes is not None else None,
        versions=CN_AMENDMENTS if getattr(statutes, "jurisdiction", None) == "cn" else ())
