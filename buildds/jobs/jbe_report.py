"""``report.md`` of a ``buildds jbe`` run: what a person reads after a build.

Deterministic (no timings, no dates), so an unchanged rebuild rewrites nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from buildds.jobs.jbe import JbeReport

__all__ = ["render_markdown"]


def _cell(value: Any) -> str:
    return str(value).replace("|", "\\|").replace("\n", " ")


def _table(header: list[str], rows: list[list[Any]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return lines


def _printed(pair: dict[str, Any]) -> str:
    """``民法 / 民法``: the subject and year each file prints in its header."""
    printed = pair.get("printed")
    if not printed:
        return "—"

    def one(h: dict[str, Any]) -> str:
        from buildds.extract.jbe.raw import era_of

        return " ".join([era_of(y) for y in h["years"]] + h["subjects"]) or "nothing"

    return f"{one(printed['booklet'])} / {one(printed['key'])}"


def _printed_note(pairs: list[dict[str, Any]]) -> str:
    headers = [h for p in pairs if p.get("printed") for h in p["printed"].values()]
    with_subject = sum(1 for h in headers if h["subjects"])
    with_year = sum(1 for h in headers if h["years"])
    note = (f"Headers read on {len(headers)} files: {with_subject} print their subject, "
            f"{with_year} their year; both are checked against the path.")
    if with_year < len(headers):
        note += (" Where no year is printed (as on the official booklets and keys), the key "
                 "is checked by content only: its slots and 配点 against the booklet, its "
                 "bytes and answers against the other keys of the run.")
    return note


def render_markdown(report: JbeReport, data: dict[str, Any] | None = None) -> str:
    """``data`` is ``report.as_json()`` when the caller has it already."""
    j = data if data is not None else report.as_json()
    t = j["totals"]
    out = ["# buildds jbe — build report", ""]
    out += [(f"{t['pairs']} booklet/key pairs: {t['xml']} XML files, {t['failed']} failed, "
            f"{t['missing']} missing; {t['questions']} questions, {t['slots']} answer slots, "
            f"{t['statements']} statements; {t['problems']} problems."), ""]
    out += ["## PDF → XML", ""]
    rows = []
    for p in j["pairs"]:
        c = p["counts"]
        ocr = f"{c.get('ocr_pages', 0)}" + (f" ({c['ocr_confidence_pct']}%)"
                                           if c.get("ocr_pages") else "")
        rows.append([p["year"], p["subject"], p["status"], _printed(p), c.get("pages", ""),
                     ocr, c.get("questions", ""), c.get("slots", ""), len(p["problems"])])
    out += _table(["year", "subject", "status", "printed (booklet / key)", "pages",
                   "OCR pages (conf.)", "questions", "slots", "problems"], rows)
    out += ["", _printed_note(j["pairs"])]
    problems = [(p["year"], p["subject"], x) for p in j["pairs"] for x in p["problems"]]
    problems += [(m["year"], m["subject"], x) for m in j["missing"] for x in m["problems"]]
    if problems:
        out += ["", "### Problems", ""]
        out += [f"- {y} {s} — {x['severity']} `{x['code']}`: {x['source'] or ''}"
                f"{', page ' + str(x['page']) if x['page'] else ''}: {x['message']}"
                for y, s, x in problems]
    d = j.get("dataset")
    if d:
        s, ref = d["summary"], d["seed_reference"]
        out += ["", "## Items (JBE-QA)", ""]
        subjects = ["Civil Code", "Penal Code", "Constitution"]
        rows = [[name, s["per_subject"].get(name, 0), ref["per_subject"].get(name, ""),
                 s["excluded_per_subject"].get(name, 0), ref["excluded_per_subject"].get(name, "")]
                for name in subjects]
        rows.append(["total", s["total"], ref["total"], s["excluded_total"],
                     ref["excluded_total"]])
        out += _table(["subject", "items", "seed items", "excluded questions", "seed excluded"],
                      rows)
        out += ["", f"True: {s['percent_true']}% (seed: {ref['percent_true']}%). "
                f"By question type: " + ", ".join(f"{k} {v}" for k, v in
                                                 s["per_question_type"].items()) + ".", ""]
        out += ["### Excluded questions", ""]
        out += _table(["id", "reason", "why", "source", "page"],
                      [[e["id"], e["reason"], e["message"], e["source"], e["page"] or ""]
                       for e in d["exclusions"]])
        c = d["corrections"]
        out += ["", "### Corrections", "", f"{c['applied']} applied, {len(c['stale'])} stale."]
        if c["stale"]:
            out += [""] + [f"- STALE {x['origin']} ({x['action']} {x['id']}): {x['message']}"
                           for x in c["stale"]]
        out += ["", (f"Few-shot exemplars (excluded from scoring): "
                f"{', '.join(d['fewshot_ids']) or '—'}"), ""]
        out += [f"Dataset fingerprint: `{d['fingerprint']}`", ""]
        if report.dataset is not None and report.dataset.validation_md:
            out += [report.dataset.validation_md.rstrip(), ""]
    return "\n".join(out).rstrip() + "\n"
