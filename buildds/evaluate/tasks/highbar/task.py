"""The ``highbar`` task object the runner uses (seed 002, "The High Bar").

* ``load``: a task-set folder (:func:`load_taskset`);
* ``build_requests``: two attempts per task (``<task>#run1``, ``<task>#run2``): the same
  prompt — ``highbar_task.md.j2``: the instructions and every document's normalised text —
  with ``ChatRequest.attempt`` 1 / 2 (so each is really sent, and cached apart) and the
  original files as ``ChatRequest.attachments`` (name, sha256, media type; the path is not
  part of the cache key). ``--limit N`` keeps the first N tasks (sorted by id);
* ``judge_requests`` / ``apply_judgments``: see :mod:`.judging`; writes
  ``disagreements.jsonl`` and ``escalations.jsonl`` into the run folder;
* ``score``: see :mod:`.scoring`; ``render_leaderboard`` / ``leaderboard_json``: see
  :mod:`.report` (the High Bar subset needs every application, so it is computed there).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from buildds.errors import BuildError
from buildds.evaluate.prompts import render_template, template_sha256
from buildds.evaluate.tasks.base import TaskBase
from buildds.evaluate.tasks.highbar import escalations, judging, report, scoring
from buildds.evaluate.tasks.highbar.formats import Review, answer_sha256
from buildds.evaluate.tasks.highbar.taskset import HighBarTaskSpec, TaskSet, load_taskset
from buildds.pipeline import canonical_json
from buildds.safeio import loads_strict
from buildds.safeio.hashing import sha256_bytes
from buildds.schema.evaluation import (
    Attachment,
    ChatMessage,
    ChatRequest,
    ChatResult,
    SampleRecord,
)

__all__ = ["TASK_TEMPLATE", "HighBarTask", "build_requests", "sample_id"]

TASK_TEMPLATE = "highbar_task.md.j2"
TEMPLATES = (TASK_TEMPLATE, judging.CRITERION_TEMPLATE, judging.FORM_TEMPLATE)


def sample_id(task_id: str, run: int) -> str:
    return f"{task_id}#run{run}"


def _attachments(spec: HighBarTaskSpec) -> tuple[Attachment, ...]:
    return tuple(Attachment(name=d.name, sha256=d.sha256, media_type=d.media_type,
                            path=str(d.path.resolve())) for d in spec.documents)


def task_prompt(spec: HighBarTaskSpec) -> str:
    """The user turn of a task: instructions, then each document's normalised text."""
    return render_template(TASK_TEMPLATE, instructions=spec.instructions,
                           documents=[{"name": d.name, "text": d.text} for d in spec.documents])


def _reviews_of(taskset: TaskSet, task_id: str) -> dict[tuple[str, str], Review]:
    """(target, answer sha256) → Review, for one task."""
    return {(target, sha): rv for (tid, target, sha), rv in taskset.reviews.items()
            if tid == task_id}


def build_requests(taskset: TaskSet, limit: int | None = None
                   ) -> tuple[list[dict[str, Any]], list[ChatRequest]]:
    """Two attempts per task (see the module doc); items carry what judging needs."""
    specs = sorted(taskset.tasks, key=lambda t: t.id)
    if limit is not None:
        specs = specs[:max(0, limit)]
    items: list[dict[str, Any]] = []
    requests: list[ChatRequest] = []
    for spec in specs:
        prompt = task_prompt(spec)
        for run in scoring.RUNS:
            sid = sample_id(spec.id, run)
            items.append({"id": sid, "task_id": spec.id, "run": run, "spec": spec,
                          "rubrics": taskset.rubrics, "reviews": _reviews_of(taskset, spec.id),
                          "meta": taskset.meta})
            requests.append(ChatRequest(
                messages=(ChatMessage(role="user", content=prompt),), temperature=0.0,
                max_tokens=spec.max_tokens, sample_id=sid, attempt=run,
                attachments=_attachments(spec)))
    return items, requests


def prompt_sha256(request: ChatRequest) -> str:
    """sha256 of what was sent: the messages and the attachments' hashes."""
    payload = {"messages": [m.model_dump() for m in request.messages],
               "attachments": [a.model_dump() for a in request.attachments]}
    return sha256_bytes(canonical_json(payload).encode("utf-8"))


# --------------------------------------------------------------------------- judging
def _grades(requests: Sequence[ChatRequest],
            judgments: Mapping[str, Sequence[ChatResult | None]],
            items_by_id: Mapping[str, Mapping[str, Any]]
            ) -> dict[str, dict[str, dict[str, judging.Grade]]]:
    """sample id → target → judge → Grade, every judge output parsed strictly (a judge's
    ``None`` results — requests of the other role — are not its grades)."""
    out: dict[str, dict[str, dict[str, judging.Grade]]] = {}
    for judge, results in judgments.items():
        if len(results) != len(requests):
            raise BuildError(f"judge {judge}: {len(results)} results for {len(requests)} "
                             "requests")
        for rq, rs in zip(requests, results, strict=True):
            if rs is None:  # not this judge's role (substance vs form)
                continue
            sid, target = judging.split_judge_id(rq.sample_id or "")
            if target.startswith("form:"):
                grade = judging.parse_form_score(rs.text, error=rs.error)
            else:
                criterion = items_by_id[sid]["spec"].criterion(target)
                grade = judging.parse_criterion_verdict(
                    rs.text, conditional=criterion.applies_when is not None, error=rs.error)
            out.setdefault(sid, {}).setdefault(target, {})[judge] = grade
    return out


def _no_answer(item: Mapping[str, Any]) -> dict[str, Any]:
    spec: HighBarTaskSpec = item["spec"]
    return {"answered": False, "pass": False, "met": 0, "applicable": len(spec.criteria),
            "criteria": {}, "form": {}}


def _judged(item: Mapping[str, Any], answer: str,
            grades: Mapping[str, Mapping[str, judging.Grade]]
            ) -> tuple[dict[str, Any], escalations.SampleLogs]:
    """The parsed verdicts of one answer and its log lines."""
    spec: HighBarTaskSpec = item["spec"]
    sha = answer_sha256(answer)
    reviews = {target: rv for (target, s), rv in item["reviews"].items() if s == sha}
    crit = judging.resolve_criteria(spec.criteria, grades, reviews)
    form = judging.resolve_form(item["rubrics"].rubrics,
                                {k.removeprefix("form:"): v for k, v in grades.items()
                                 if k.startswith("form:")},
                                {k.removeprefix("form:"): v for k, v in reviews.items()
                                 if k.startswith("form:")})
    applicable = [o for o in crit if o.verdict != "not_applicable"]
    parsed = {
        "answered": True, "answer_sha256": sha, "pass": judging.task_passes(crit),
        "met": sum(1 for o in applicable if o.verdict == "pass"),
        "applicable": len(applicable),
        "criteria": {o.criterion.id: {
            "kind": o.criterion.kind, "verdict": o.verdict, "source": o.source,
            "escalated": o.escalate, "judges": {j: g.as_dict() for j, g in o.judges.items()}}
            for o in crit},
        "form": {f.rubric.id: {
            "score": f.score, "source": f.source, "escalated": f.escalate,
            "judges": {j: g.as_dict() for j, g in f.judges.items()}} for f in form},
    }
    return parsed, escalations.sample_logs(str(item["id"]), spec, answer, sha, crit, form)


def _jsonl(rows: Sequence[Mapping[str, Any]]) -> str:
    return "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in rows)


def apply_judgments(items: Sequence[Mapping[str, Any]], records: Sequence[SampleRecord],
                    requests: Sequence[ChatRequest],
                    judgments: Mapping[str, Sequence[ChatResult | None]]
                    ) -> tuple[list[SampleRecord], dict[str, str]]:
    """Records with their verdicts (``parsed``; ``score`` 1.0 for a passed task) and the
    run folder's ``disagreements.jsonl`` and ``escalations.jsonl``. An attempt without an
    answer (its request failed) keeps ``parsed`` and ``score`` None: it is not scored."""
    by_id = {str(it["id"]): it for it in items}
    grades = _grades(requests, judgments, by_id)
    out: list[SampleRecord] = []
    disagreements: list[dict[str, Any]] = []
    escalations: dict[str, dict[str, Any]] = {}
    for item, rec in zip(items, records, strict=True):
        if rec.raw_output is None:
            out.append(rec.model_copy(update={"parsed": None, "score": None}))
            continue
        parsed, logs = _judged(item, rec.raw_output, grades.get(rec.id, {}))
        disagreements += logs.disagreements
        for e in logs.escalations:
            escalations.setdefault(e["escalation_id"], e)
        out.append(rec.model_copy(update={"parsed": parsed,
                                          "score": 1.0 if parsed["pass"] else 0.0}))
    files = {"disagreements.jsonl": _jsonl(disagreements),
             "escalations.jsonl": _jsonl([escalations[k] for k in sorted(escalations)])}
    return out, files


def merge_escalations(paths: Iterable[Path]) -> str:
    """The escalations of several run files as one JSONL text, one line per escalation id
    (sorted), whatever application or attempt raised it."""
    merged: dict[str, dict[str, Any]] = {}
    for path in paths:
        if not path.is_file():
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                entry = loads_strict(line)
                merged.setdefault(str(entry["escalation_id"]), entry)
    return _jsonl([merged[k] for k in sorted(merged)])


# --------------------------------------------------------------------------- scoring
def _attempt(item: Mapping[str, Any], rec: SampleRecord) -> scoring.Attempt:
    p = rec.parsed if isinstance(rec.parsed, Mapping) else _no_answer(item)
    form = {rid: f.get("score") for rid, f in p.get("form", {}).items()}
    judges = {rid: {j: g["score"] for j, g in f.get("judges", {}).items() if "score" in g}
              for rid, f in p.get("form", {}).items()}
    return scoring.Attempt(task=str(item["task_id"]), run=int(item["run"]),
                           passed=bool(p.get("pass")), met=int(p.get("met", 0)),
                           applicable=int(p.get("applicable", 0)), form=form,
                           form_judges=judges)


def _judging_counts(records: Sequence[SampleRecord]) -> dict[str, int]:
    counts = {"disagreements": 0, "escalations_pending": 0, "lawyer_verdicts": 0,
              "judge_errors": 0, "no_answer": 0}
    pending: set[tuple[str, str, str]] = set()
    for r in records:
        p = r.parsed if isinstance(r.parsed, Mapping) else {}
        if not p.get("answered"):
            counts["no_answer"] += 1
            continue
        for target, g in [*p["criteria"].items(), *((f"form:{k}", v)
                                                    for k, v in p["form"].items())]:
            grades = list(g["judges"].values())
            counts["judge_errors"] += sum(1 for x in grades if "error" in x)
            values = {x.get("verdict", x.get("score")) for x in grades}
            counts["disagreements"] += int(len(values) > 1 or any("error" in x for x in grades))
            counts["lawyer_verdicts"] += int(g["source"] == "lawyer")
            if g["escalated"]:
                pending.add((r.id.partition("#")[0], target, p["answer_sha256"]))
    counts["escalations_pending"] = len(pending)
    return counts


def score(items: Sequence[Mapping[str, Any]], records: Sequence[SampleRecord], *,
          seed: int = 0) -> dict[str, Any]:
    """metrics.json of one application run (see :mod:`.scoring`)."""
    if len(items) != len(records):
        raise ValueError(f"{len(items)} items but {len(records)} records")
    if not items:
        raise BuildError("no attempts to score")
    rubrics = [(r.id, r.title) for r in items[0]["rubrics"].rubrics]
    out = scoring.score_attempts([_attempt(it, r) for it, r in zip(items, records, strict=True)],
                                 rubrics, seed=seed)
    meta = items[0]["meta"]
    specs = {str(it["task_id"]): it["spec"] for it in items}
    out.update(
        judging=_judging_counts(records), rubrics=[list(r) for r in rubrics],
        max_completers=meta.max_completers, categories=dict(sorted(meta.applications.items())),
        task_info={t: {"title": s.title, "jurisdiction": s.jurisdiction, "area": s.area,
                       "criteria": len(s.criteria)} for t, s in sorted(specs.items())})
    return out


# --------------------------------------------------------------------------- task object
class HighBarTask(TaskBase):
    """The High Bar as the runner uses it (see the module doc)."""

    name = "highbar"
    shots = (0,)
    headline = "pass_rate"
    judged = True
    min_judges = 2
    #: seed 002: form is graded by a different pair of judges (``--form-judge``)
    min_form_judges = 2

    def __init__(self, *, max_document_bytes: int | None = None):
        #: bytes of one task-set file, at most (``--max-document-bytes``; None: the default)
        self.max_document_bytes = max_document_bytes

    def load(self, path: str | Path) -> TaskSet:
        return load_taskset(path, max_document_bytes=self.max_document_bytes)

    def item_error(self, item: Mapping[str, Any]) -> str | None:
        """A task whose documents were refused is not asked (see :mod:`.taskset`)."""
        spec: HighBarTaskSpec = item["spec"]
        return spec.error

    def build_requests(self, data: TaskSet, shots: int, limit: int | None = None
                       ) -> tuple[list[dict[str, Any]], list[ChatRequest]]:
        self.check_shots(shots)
        return build_requests(data, limit)

    def sample_record(self, item: Mapping[str, Any], request: ChatRequest,
                      result: ChatResult) -> SampleRecord:
        spec: HighBarTaskSpec = item["spec"]
        return SampleRecord(id=str(item["id"]), prompt_sha256=prompt_sha256(request),
                            raw_output=result.text, error=result.error, cached=result.cached,
                            gold={"task": spec.id, "run": item["run"],
                                  "criteria": [c.id for c in spec.criteria]})

    def judge_requests(self, items: Sequence[Mapping[str, Any]],
                       records: Sequence[SampleRecord]) -> list[ChatRequest]:
        """Per answered attempt: one request per criterion, then one per form rubric."""
        out: list[ChatRequest] = []
        for item, rec in zip(items, records, strict=True):
            if rec.raw_output is None:
                continue
            spec: HighBarTaskSpec = item["spec"]
            out += [judging.criterion_request(rec.id, spec, c, rec.raw_output)
                    for c in spec.criteria]
            out += [judging.form_request(rec.id, spec, r, rec.raw_output)
                    for r in item["rubrics"].rubrics]
        return out

    def judge_role(self, request: ChatRequest) -> str:
        """Form rubric requests (``…::form:<rubric>``) go to the form judges."""
        return "form" if "::form:" in (request.sample_id or "") else "substance"

    def apply_judgments(self, items: Sequence[Mapping[str, Any]],
                        records: Sequence[SampleRecord], requests: Sequence[ChatRequest],
                        judgments: Mapping[str, Sequence[ChatResult | None]]
                        ) -> tuple[list[SampleRecord], dict[str, str]]:
        for role, need in (("substance", self.min_judges), ("form", self.min_form_judges)):
            asked = [rq for rq in requests if self.judge_role(rq) == role]
            judges = [j for j, rs in judgments.items()
                      if any(r is not None for r, rq in zip(rs, requests, strict=True)
                             if self.judge_role(rq) == role)]
            if asked and len(judges) < need:
                raise BuildError(f"highbar needs {need} different {role} judges; got "
                                 f"{len(judges)}")
        return apply_judgments(items, records, requests, judgments)

    def score(self, items: Sequence[Mapping[str, Any]], records: Sequence[SampleRecord], *,
              seed: int = 0) -> dict[str, Any]:
        return score(items, records, seed=seed)

    def template_hashes(self) -> dict[str, str]:
        return {name: template_sha256(name) for name in TEMPLATES}

    def reference_answer(self, item: Mapping[str, Any]) -> str:
        spec: HighBarTaskSpec = item["spec"]
        if spec.answer_key is None:
            raise BuildError(f"task {spec.id} has no answer_key.md for the oracle backend")
        return spec.answer_key

    def title(self) -> str:
        return "The High Bar — leaderboard"

    def render_leaderboard(self, entries: Sequence[Mapping[str, Any]], *,
                           dataset: Mapping[str, Any] | None = None) -> str:
        return report.render_leaderboard(entries, title=self.title(), dataset=dataset)

    def leaderboard_json(self, entries: Sequence[Mapping[str, Any]], *,
                         dataset: Mapping[str, Any] | None = None) -> dict[str, Any]:
        return report.leaderboard_json(entries, task=self.name, dataset=dataset)

    def run_plots(self, metrics: Mapping[str, Any], title: str) -> dict[str, bytes]:
        return {"per_task.png": report.plot_run(metrics, title)}

    def summary_files(self, entries: Sequence[Mapping[str, Any]], out: Path) -> dict[str, str]:
        """``escalations.jsonl`` for the lawyer: every run's escalations in one blind file —
        the same answer escalated by two applications once, ordered by escalation id (a hash),
        nothing saying which application wrote the answer."""
        return {"escalations.jsonl": merge_escalations(
            out / str(e["slug"]) / f"{int(e['shots'])}shot" / "escalations.jsonl"
            for e in entries)}

    def summary_plots(self, entries: Sequence[Mapping[str, Any]]) -> dict[str, bytes]:
        if not entries:
            return {}
        return {"highbar.png": report.plot_highbar(entries),
                "form.png": report.plot_form(entries)}
