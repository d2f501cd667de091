"""LegalRikai clause revision (seed 000, 条文修正): revise a clause as an AI alert asks,
graded by LLM judges against a lawyer's reference revision.

* data: a ``buildds contracts --task revision --annotations …`` export
  (:mod:`.rikai_data`): ``evaluation`` is scored, ``development`` holds the demonstrations;
* prompt: the seed's Jinja template verbatim (``prompts/clause_revision.md.j2``) with
  ``text``, ``ai_alert``, ``guidelines``, ``n_demonstrations`` and ``demonstrations``, one
  user turn, rendered sandboxed; temperature 0, at most 2,000 output tokens (a clause can be
  long; the seed gives no limit);
* zero-shot, or eight-shot: the first 8 development items in id order, the same for every
  scored item (as in the seed); an item is never its own demonstration (a development item
  with the scored item's id, or its clause and alert, is skipped for the next one);
* the model's answer, stripped, is the revision (``parsed.revision``); an empty answer or a
  backend error is not judged (``error`` says why) and is left out of the means — the
  leaderboard's details show how many items were judged;
* judges (``--judge``, one or more): each answers the judge prompt
  (``prompts/clause_revision_judge.md.j2``: the seed's five aspects, judged against the
  reference, step by step, one JSON object with integer scores 0–100). :func:`parse_judgment`
  reads a JSON object (a ```json block, or the first object in prose) with all five aspects
  as numbers in 0–100; anything else is an error recorded for that judge and item — no score
  is ever made up. Every judge's raw answer is in ``judgments.jsonl`` of the run folder;
* scorer (:func:`score_revision`): per judge, the mean of each aspect over the items it
  judged; the headline scores are the per-item mean over the judges that judged it, then
  averaged over items; ``overall`` is the mean of the five aspects; seeded percentile-bootstrap
  95% intervals (items resampled);
* ``--model oracle`` answers each item's reference revision: the judge's ceiling, the seed's
  **Oracle** row, printed last in every table;
* leaderboard: the seed's tables — Model | アラートへの対応 | 意味の保持 | 文法 | 自然さ |
  論理の流れ, two decimals — one per setting (zero-shot, eight-shot), for the judges' mean and,
  with several judges, for each judge; then the details with the intervals.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from buildds.errors import BuildError
from buildds.evaluate.metrics import bootstrap_mean
from buildds.evaluate.prompts import render_prompt, render_template, template_sha256
from buildds.evaluate.tasks.base import TaskBase, leaderboard_head, md_cell, shot_name
from buildds.evaluate.tasks.jbe import prompt_sha256
from buildds.evaluate.tasks.rikai_data import RikaiData, load_rikai_data
from buildds.schema.evaluation import ChatMessage, ChatRequest, ChatResult, SampleRecord

__all__ = [
    "ASPECTS",
    "ASPECT_TITLES",
    "JUDGE_TEMPLATE",
    "NAME",
    "ClauseRevisionTask",
    "Judgment",
    "build_judge_request",
    "build_messages",
    "build_requests",
    "demonstrations_for",
    "parse_judgment",
    "render_judge_prompt",
    "render_leaderboard",
    "sample_record",
    "score_revision",
]

NAME = "clause-revision"
SHOTS = (0, 8)
TEMPERATURE = 0.0
MAX_TOKENS = 2000
JUDGE_MAX_TOKENS = 1000
TEMPLATE = "clause_revision"
JUDGE_TEMPLATE = "clause_revision_judge.md.j2"
ORACLE = "oracle"
#: the seed's five aspects, in its column order
ASPECTS = ("alert_handling", "meaning_preservation", "grammar", "naturalness", "logical_flow")
#: aspect → (the seed's column title, English)
ASPECT_TITLES = {"alert_handling": ("アラートへの対応", "alert handling"),
                 "meaning_preservation": ("意味の保持", "meaning preservation"),
                 "grammar": ("文法", "grammar"), "naturalness": ("自然さ", "naturalness"),
                 "logical_flow": ("論理の流れ", "logical flow")}
_ALIASES = {**{a: a for a in ASPECTS}, **{ja: a for a, (ja, _) in ASPECT_TITLES.items()},
            **{en.replace(" ", "_"): a for a, (_, en) in ASPECT_TITLES.items()}}
_FENCE = re.compile(r"```(?:json|JSON)?\s*\n(.*?)```", re.DOTALL)


# --------------------------------------------------------------------------- prompts
def _required(item: Mapping[str, Any], key: str) -> str:
    value = item.get(key)
    if not isinstance(value, str) or not value.strip():
        raise BuildError(f"item {item.get('id')!r}: no {key}")
    return value


def _demo(item: Mapping[str, Any]) -> dict[str, str]:
    return {k: _required(item, k) for k in ("ai_alert", "guidelines", "text",
                                             "reference_revision")}


def demonstrations_for(item: Mapping[str, Any], pool: Sequence[Mapping[str, Any]], k: int
                       ) -> list[Mapping[str, Any]]:
    """The first ``k`` items of ``pool`` (the development split, id order) that are not
    ``item`` itself (same id, or same clause and alert)."""
    if k == 0:
        return []

    def same(d: Mapping[str, Any]) -> bool:
        return str(d["id"]) == str(item["id"]) or (
            d.get("text") == item.get("text") and d.get("ai_alert") == item.get("ai_alert"))

    chosen = [d for d in pool if not same(d)][:k]
    if len(chosen) < k:
        raise BuildError(f"{k}-shot needs {k} demonstrations from the development split; "
                         f"it has {len(chosen)} usable for item {item.get('id')!r}")
    return chosen


def build_messages(item: Mapping[str, Any], demonstrations: Sequence[Mapping[str, Any]] = ()
                   ) -> tuple[ChatMessage, ...]:
    """The seed's template for one item (and its demonstrations), as one user turn."""
    demos = [_demo(d) for d in demonstrations]
    prompt = render_prompt(TEMPLATE, text=_required(item, "text"),
                           ai_alert=_required(item, "ai_alert"),
                           guidelines=_required(item, "guidelines"),
                           n_demonstrations=len(demos), demonstrations=demos)
    return (ChatMessage(role="user", content=prompt),)


def build_requests(data: RikaiData, shots: int = 0, *, limit: int | None = None
                   ) -> tuple[list[dict[str, Any]], list[ChatRequest]]:
    """The evaluation items (the first ``limit`` in id order) and one request per item.
    With demonstrations, their ids are recorded in ``data.fewshot_ids`` (the manifest)."""
    if shots not in SHOTS:
        raise BuildError(f"clause revision is evaluated with 0 or 8 demonstrations (the "
                         f"seed's settings); got shots={shots}")
    items = list(data.evaluation)
    if limit is not None:
        items = items[:max(0, limit)]
    requests = []
    for it in items:
        demos = demonstrations_for(it, data.development, shots)
        data.fewshot_ids.update(str(d["id"]) for d in demos)
        requests.append(ChatRequest(messages=build_messages(it, demos), temperature=TEMPERATURE,
                                    max_tokens=MAX_TOKENS, sample_id=str(it["id"])))
    return items, requests


def render_judge_prompt(item: Mapping[str, Any], candidate: str) -> str:
    """The judge prompt for one item and one candidate revision (sandboxed)."""
    return render_template(
        JUDGE_TEMPLATE, ai_alert=_required(item, "ai_alert"), guidelines=_required(item, "guidelines"),
        text=_required(item, "text"), reference_revision=_required(item, "reference_revision"),
        candidate=candidate)


def build_judge_request(item: Mapping[str, Any], candidate: str) -> ChatRequest:
    return ChatRequest(messages=(ChatMessage(role="user",
                                             content=render_judge_prompt(item, candidate)),),
                       temperature=0.0, max_tokens=JUDGE_MAX_TOKENS, sample_id=str(item["id"]))


# --------------------------------------------------------------------------- answers
def _revision(record: SampleRecord) -> str | None:
    parsed = record.parsed if isinstance(record.parsed, Mapping) else {}
    value = parsed.get("revision")
    return value if isinstance(value, str) and value else None


def sample_record(item: Mapping[str, Any], request: ChatRequest, result: ChatResult
                  ) -> SampleRecord:
    """The model's answer, stripped, is the revision; scores come with the judges."""
    text = result.text.strip() if isinstance(result.text, str) else None
    error = result.error or (None if text else "empty output")
    return SampleRecord(id=str(item["id"]), prompt_sha256=prompt_sha256(request),
                        raw_output=result.text, parsed={"revision": text or None}, score=None,
                        error=error, gold=item.get("reference_revision"), cached=result.cached)


# --------------------------------------------------------------------------- judge parser
@dataclass(frozen=True)
class Judgment:
    #: aspect → score (0–100), None when the judge's answer could not be read
    scores: dict[str, float] | None
    error: str | None = None


def _json_objects(text: str) -> list[dict[str, Any]]:
    """Every JSON object in the fenced blocks of ``text``, else in the text itself."""
    decoder = json.JSONDecoder()
    found: list[dict[str, Any]] = []
    for chunk in [*_FENCE.findall(text)] or [text]:
        pos = chunk.find("{")
        while pos != -1:
            try:
                obj, end = decoder.raw_decode(chunk, pos)
            except ValueError:
                pos = chunk.find("{", pos + 1)
                continue
            if isinstance(obj, dict):
                found.append(obj)
            pos = chunk.find("{", end)
    return found


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    numeric = isinstance(value, (int, float)) or (
        isinstance(value, str) and re.fullmatch(r"\s*\d+(?:\.\d+)?\s*", value) is not None)
    if not numeric:
        return None
    number = float(value)
    return number if math.isfinite(number) else None


def _scores_of(obj: Mapping[str, Any]) -> tuple[dict[str, float] | None, str | None]:
    keys = {_ALIASES.get(re.sub(r"[\s-]+", "_", str(k).strip()).lower(),
                         _ALIASES.get(str(k).strip())): v for k, v in obj.items()}
    missing = [a for a in ASPECTS if a not in keys]
    if missing:
        return None, f"missing aspect(s) {', '.join(missing)}"
    scores: dict[str, float] = {}
    for a in ASPECTS:
        number = _number(keys[a])
        if number is None:
            return None, f"{a} is not a number ({keys[a]!r})"
        if not 0.0 <= number <= 100.0:
            return None, f"{a} = {number:g} is outside 0–100"
        scores[a] = number
    return scores, None


def parse_judgment(text: str | None) -> Judgment:
    """The five aspect scores of a judge's answer, or why there are none (module doc).
    Several complete objects that disagree are an error, not a choice."""
    if text is None or not text.strip():
        return Judgment(None, "judge: empty output")
    objects = _json_objects(text)
    if not objects:
        return Judgment(None, "judge: no JSON object in the output")
    complete, errors = [], []
    for obj in objects:
        scores, error = _scores_of(obj)
        if scores is not None:
            complete.append(scores)
        else:
            errors.append(error)
    if not complete:
        return Judgment(None, f"judge: {errors[0]}")
    if any(s != complete[0] for s in complete[1:]):
        return Judgment(None, f"judge: {len(complete)} different score objects")
    return Judgment(complete[0])


def _judgment_of(result: ChatResult) -> Judgment:
    if result.text is None:
        return Judgment(None, f"judge: {result.error or 'no output'}")
    return parse_judgment(result.text)


def _mean_scores(per_judge: Mapping[str, Judgment]) -> dict[str, float] | None:
    valid = [j.scores for j in per_judge.values() if j.scores is not None]
    if not valid:
        return None
    return {a: round(sum(s[a] for s in valid) / len(valid), 6) for a in ASPECTS}


def _judged_record(record: SampleRecord, per_judge: Mapping[str, Judgment]) -> SampleRecord:
    """``parsed`` = revision, each judge's scores (or error) and their mean; ``score`` = the
    mean of the five aspects (0–100), None when no judge gave scores."""
    aspects = _mean_scores(per_judge)
    judges = {j: (dict(v.scores) if v.scores is not None else {"error": v.error})
              for j, v in sorted(per_judge.items())}
    error = record.error
    if error is None and aspects is None and per_judge:
        error = "no valid judgment (" + "; ".join(
            f"{j}: {v.error}" for j, v in sorted(per_judge.items())) + ")"
    score = round(sum(aspects.values()) / len(ASPECTS), 6) if aspects else None
    return record.model_copy(update={
        "parsed": {"revision": _revision(record), "judges": judges, "aspects": aspects},
        "score": score, "error": error})


def apply_judgments(records: Sequence[SampleRecord], requests: Sequence[ChatRequest],
                    judgments: Mapping[str, Sequence[ChatResult]]
                    ) -> tuple[list[SampleRecord], dict[str, str]]:
    """Records with the judges' verdicts, and ``judgments.jsonl`` (every judge's answer)."""
    by_id: dict[str, dict[str, Judgment]] = {}
    lines: list[dict[str, Any]] = []
    for judge, results in sorted(judgments.items()):
        if len(results) != len(requests):
            raise BuildError(f"judge {judge}: {len(results)} answers for {len(requests)} "
                             "requests")
        for request, result in zip(requests, results, strict=True):
            sid = str(request.sample_id)
            verdict = _judgment_of(result)
            by_id.setdefault(sid, {})[judge] = verdict
            lines.append({"id": sid, "judge": judge, "prompt_sha256": prompt_sha256(request),
                          "raw_output": result.text, "scores": verdict.scores,
                          "error": verdict.error, "cached": result.cached})
    out = [_judged_record(r, by_id[r.id]) if r.id in by_id else _judged_record(r, {})
           for r in records]
    lines.sort(key=lambda x: (x["id"], x["judge"]))
    text = "".join(json.dumps(x, ensure_ascii=False, sort_keys=True) + "\n" for x in lines)
    return out, {"judgments.jsonl": text}


# --------------------------------------------------------------------------- scorer
def _block(rows: Sequence[Mapping[str, float]], *, seed: int, n_resamples: int,
           confidence: float) -> dict[str, Any]:
    """Aspect means (and ``overall``) with intervals over per-item score dicts."""
    out: dict[str, Any] = {"judged": len(rows)}
    ci: dict[str, list[float]] = {}
    series = {a: [float(r[a]) for r in rows] for a in ASPECTS}
    series["overall"] = [sum(float(r[a]) for a in ASPECTS) / len(ASPECTS) for r in rows]
    for key, values in series.items():
        out[key] = round(sum(values) / len(values), 6) if values else None
        lo, hi = bootstrap_mean(values, n_resamples=n_resamples, seed=seed,
                                 confidence=confidence)
        ci[key] = [round(lo, 6), round(hi, 6)]
    out["ci"] = ci
    return out


def score_revision(items: Sequence[Mapping[str, Any]], records: Sequence[SampleRecord], *,
                   seed: int = 0, n_resamples: int = 1000, confidence: float = 0.95
                   ) -> dict[str, Any]:
    """The judges' mean and each judge's aspect scores over the judged items."""
    if len(items) != len(records):
        raise ValueError(f"{len(items)} items but {len(records)} records")
    parsed = [r.parsed if isinstance(r.parsed, Mapping) else {} for r in records]
    judges = sorted({j for p in parsed for j in (p.get("judges") or {})})
    opts: dict[str, Any] = {"seed": seed, "n_resamples": n_resamples, "confidence": confidence}
    mean_rows = [p["aspects"] for p in parsed if p.get("aspects")]
    out: dict[str, Any] = {"n": len(items), **_block(mean_rows, **opts)}
    out["errors"] = sum(1 for p in parsed if not p.get("revision"))
    per_judge: dict[str, Any] = {}
    for judge in judges:
        verdicts = [(p.get("judges") or {}).get(judge) for p in parsed]
        rows = [v for v in verdicts if isinstance(v, Mapping) and "error" not in v]
        per_judge[judge] = {**_block(rows, **opts),
                            "judge_errors": sum(1 for v in verdicts
                                                if isinstance(v, Mapping) and "error" in v)}
    out["judge_errors"] = sum(v["judge_errors"] for v in per_judge.values())
    out["per_judge"] = per_judge
    out["bootstrap"] = {"resamples": n_resamples, "confidence": confidence, "seed": seed,
                        "method": "percentile", "unit": "judged item"}
    return out


# --------------------------------------------------------------------------- reports
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


def _aspect_table(rows: Sequence[tuple[str, Mapping[str, Any] | None]]) -> list[str]:
    head = " | ".join(ja for ja, _ in ASPECT_TITLES.values())
    lines = [f"| Model | {head} |", "|---|" + "---:|" * len(ASPECTS)]
    for name, block in rows:
        cells = [_num((block or {}).get(a)) for a in ASPECTS]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
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
              "an answer or a valid judgment are left out of the means (see Details)."), ""]
    for shots in sorted({int(e["shots"]) for e in entries}):
        runs = _ordered([e for e in entries if int(e["shots"]) == shots])
        label = "mean of the judges" if len(judges) > 1 else \
            (f"judge `{judges[0]}`" if judges else "no judge")
        lines += [f"## {shot_name(shots)} ({label})", ""]
        lines += _aspect_table([(_display(e), e) for e in runs]) + [""]
        if len(judges) > 1:
            for judge in judges:
                lines += [f"### {shot_name(shots)}, judge `{judge}`", ""]
                lines += _aspect_table([(_display(e), (e.get("per_judge") or {}).get(judge))
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


# --------------------------------------------------------------------------- task object
class ClauseRevisionTask(TaskBase):
    """Clause revision as the runner uses it (see the module doc)."""

    name = NAME
    shots = SHOTS
    headline = "overall"
    judged = True
    min_judges = 1
    cross_fit = False

    def load(self, path: str | Path) -> RikaiData:
        return load_rikai_data(path, "revision")

    def build_requests(self, data: RikaiData, shots: int, limit: int | None = None
                       ) -> tuple[list[dict[str, Any]], list[ChatRequest]]:
        return build_requests(data, shots, limit=limit)

    def training_items(self, data: RikaiData) -> list[dict[str, Any]]:
        """The majority baseline answers the development split's most common revision."""
        return list(data.development)

    def baseline_options(self) -> dict[str, Any]:
        return {"label_field": "reference_revision", "text_field": "text"}

    def reference_answer(self, item: Mapping[str, Any]) -> str:
        return _required(item, "reference_revision")

    def sample_record(self, item: Mapping[str, Any], request: ChatRequest,
                      result: ChatResult) -> SampleRecord:
        return sample_record(item, request, result)

    def judge_requests(self, items: Sequence[Mapping[str, Any]],
                       records: Sequence[SampleRecord]) -> list[ChatRequest]:
        """One request per item that has a revision (an unanswered item is not judged)."""
        out = []
        for item, record in zip(items, records, strict=True):
            revision = _revision(record)
            if revision is not None:
                out.append(build_judge_request(item, revision))
        return out

    def apply_judgments(self, items: Sequence[Mapping[str, Any]],
                        records: Sequence[SampleRecord], requests: Sequence[ChatRequest],
                        judgments: Mapping[str, Sequence[ChatResult]]
                        ) -> tuple[list[SampleRecord], dict[str, str]]:
        return apply_judgments(records, requests, judgments)

    def score(self, items: Sequence[Mapping[str, Any]], records: Sequence[SampleRecord], *,
              seed: int = 0) -> dict[str, Any]:
        return score_revision(items, records, seed=seed)

    def template_hashes(self) -> dict[str, str]:
        return {f"{TEMPLATE}.md.j2": template_sha256(f"{TEMPLATE}.md.j2"),
                JUDGE_TEMPLATE: template_sha256(JUDGE_TEMPLATE)}

    def title(self) -> str:
        return "LegalRikai clause revision leaderboard"

    def render_leaderboard(self, entries: Sequence[Mapping[str, Any]], *,
                           dataset: Mapping[str, Any] | None = None) -> str:
        return render_leaderboard(entries, title=self.title(), dataset=dataset)

    def run_plots(self, metrics: Mapping[str, Any], title: str) -> dict[str, bytes]:
        return {"aspects.png": plot_run(metrics, title)}

    def summary_plots(self, entries: Sequence[Mapping[str, Any]]) -> dict[str, bytes]:
        return {"clause_revision.png": plot_summary(entries)} if entries else {}
