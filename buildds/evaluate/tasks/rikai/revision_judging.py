"""Judging clause revisions (seed 000, 条文修正): the judge prompt, strict parsing of the
judges' answers, and the scorer.

* each judge answers ``prompts/clause_revision_judge.md.j2`` (the seed's five aspects, judged
  against the reference, one JSON object with integer scores 0–100); :func:`parse_judgment`
  reads a JSON object (a ```json block, or the first object in prose) with all five aspects as
  numbers in 0–100; anything else is an error recorded for that judge and item — no score is
  ever made up;
* :func:`apply_judgments` puts the verdicts on the records and writes ``judgments.jsonl``;
* :func:`score_revision`: per judge, the mean of each aspect over the items it judged; the
  headline scores are the per-item mean over the judges that judged it, then averaged over
  items; ``overall`` is the mean of the five aspects; seeded percentile-bootstrap intervals.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from buildds.errors import BuildError
from buildds.evaluate.metrics import bootstrap_mean
from buildds.evaluate.prompts import render_template
from buildds.evaluate.tasks.jbe import prompt_sha256
from buildds.schema.evaluation import ChatMessage, ChatRequest, ChatResult, SampleRecord

__all__ = [
    "ASPECTS",
    "ASPECT_TITLES",
    "JUDGE_TEMPLATE",
    "Judgment",
    "apply_judgments",
    "build_judge_request",
    "parse_judgment",
    "render_judge_prompt",
    "required_text",
    "revision_of",
    "score_revision",
]

JUDGE_MAX_TOKENS = 1000
JUDGE_TEMPLATE = "clause_revision_judge.md.j2"
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


def required_text(item: Mapping[str, Any], key: str) -> str:
    """``item[key]``, which must be a non-blank string."""
    value = item.get(key)
    if not isinstance(value, str) or not value.strip():
        raise BuildError(f"item {item.get('id')!r}: no {key}")
    return value


def revision_of(record: SampleRecord) -> str | None:
    """The model's revision in ``record`` (None when it gave none)."""
    parsed = record.parsed if isinstance(record.parsed, Mapping) else {}
    value = parsed.get("revision")
    return value if isinstance(value, str) and value else None


def render_judge_prompt(item: Mapping[str, Any], candidate: str) -> str:
    """The judge prompt for one item and one candidate revision (sandboxed)."""
    return render_template(
        JUDGE_TEMPLATE, ai_alert=required_text(item, "ai_alert"),
        guidelines=required_text(item, "guidelines"), text=required_text(item, "text"),
        reference_revision=required_text(item, "reference_revision"),
        candidate=candidate)


def build_judge_request(item: Mapping[str, Any], candidate: str) -> ChatRequest:
    return ChatRequest(messages=(ChatMessage(role="user",
                                             content=render_judge_prompt(item, candidate)),),
                       temperature=0.0, max_tokens=JUDGE_MAX_TOKENS, sample_id=str(item["id"]))


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
        "parsed": {"revision": revision_of(record), "judges": judges, "aspects": aspects},
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


