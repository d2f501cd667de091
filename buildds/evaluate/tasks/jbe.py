"""The JBE-QA task (seed 001, section 3): true/false judgments on bar-exam statements.

* prompt: the seed's system prompt verbatim (``prompts/jbe_system.txt``) and a user turn
  (``prompts/jbe_user.j2``)::

      科目：{subject_jp}
      {theme}について            (when there is a theme)
      {lead_in}                  (when there is one)
      {instruction}を答えよ。     (the instruction sentence)
      {question}
      なお、{remark}              (when there is one)

  rendered in jinja2's ``SandboxedEnvironment`` with ``StrictUndefined``;
* zero-shot, or four-shot with the export's ``fewshot`` split (2 true + 2 false) as earlier
  user/assistant turns answered ``1``/``0``. The exemplars (``is_fewshot``) are left out of
  scoring in *both* settings, so both are scored on the same items (3,464 − 4 = 3,460);
* requests use temperature 0 and at most 1,000 output tokens;
* parser: exactly ``1`` or ``0`` after stripping whitespace is a faithful answer; anything
  else (an explanation, an empty answer, no answer) is unfaithful and counts as 0 (False);
* scorer: F1 (positive = True), precision, recall, accuracy, faithfulness, per-subject F1
  (Cvl/Cst/Pen) and seeded percentile-bootstrap 95% intervals.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from buildds.errors import BuildError, ExportError
from buildds.evaluate.metrics import (
    accuracy,
    binary_counts,
    binary_prf,
    bootstrap_binary,
    faithfulness,
)
from buildds.evaluate.prompts import packaged_template, template_sha256, template_text
from buildds.evaluate.tasks.base import TaskBase
from buildds.evaluate.tasks.export_io import (
    load_saved,
    plain_records,
    read_parquet_rows,
    state_fingerprint,
)
from buildds.pipeline import canonical_json, sha256_bytes, sha256_file
from buildds.schema.evaluation import ChatMessage, ChatRequest, ChatResult, SampleRecord

__all__ = [
    "NAME",
    "SHOTS",
    "SUBJECT_ABBR",
    "JbeData",
    "JbeTask",
    "Parsed",
    "build_messages",
    "build_requests",
    "instruction_sentence",
    "load_jbe_data",
    "parse_output",
    "prompt_sha256",
    "render_user",
    "sample_record",
    "score_jbe",
    "system_prompt",
    "template_hashes",
]

NAME = "jbe"
SHOTS = (0, 4)
TEMPERATURE = 0.0
MAX_TOKENS = 1000
SYSTEM_TEMPLATE = "jbe_system.txt"
USER_TEMPLATE = "jbe_user.j2"
#: Table 3's column names, by the ``subject`` field (English) and ``subject_jp``
SUBJECT_ABBR = {"Civil Code": "Cvl", "Constitution": "Cst", "Penal Code": "Pen",
                "民法": "Cvl", "憲法": "Cst", "刑法": "Pen"}
SUBJECT_ORDER = ("Cvl", "Cst", "Pen")
_REMARK_PREFIX = re.compile(r"^\s*なお[、，,]\s*")


# --------------------------------------------------------------------------- templates
def system_prompt() -> str:
    """The seed's system prompt, verbatim (no trailing newline)."""
    return template_text(SYSTEM_TEMPLATE).strip()


def template_hashes() -> dict[str, str]:
    """sha256 of each template file, for the run manifest."""
    return {name: template_sha256(name) for name in (SYSTEM_TEMPLATE, USER_TEMPLATE)}


def _text(value: Any) -> str | None:
    """A field's text, or None for a missing value (None, NaN, empty or blank)."""
    if value is None:
        return None
    if isinstance(value, float) and math.isnan(value):
        return None
    text = str(value).strip()
    return text or None


def instruction_sentence(instruction: str) -> str:
    """``最高裁判所の判例の趣旨に照らし記述が正しいか`` → ``…正しいかを答えよ。``; an instruction
    that already is a sentence (ends with 。) is kept as it is."""
    text = instruction.strip()
    return text if text.endswith(("。", "．")) else f"{text}を答えよ。"


def render_user(item: Mapping[str, Any]) -> str:
    """The user turn for one item (a mapping with the JBE-QA fields)."""
    subject_jp, instruction, question = (_text(item.get(k)) for k in
                                         ("subject_jp", "instruction", "question"))
    if subject_jp is None or instruction is None or question is None:
        raise BuildError(f"item {item.get('id')!r}: subject_jp, instruction and question "
                         "are required")
    remark = _text(item.get("remark"))
    if remark is not None:
        remark = _text(_REMARK_PREFIX.sub("", remark))
    return packaged_template(USER_TEMPLATE, keep_trailing_newline=False).render(
        subject_jp=subject_jp, theme=_text(item.get("theme")), lead_in=_text(item.get("lead_in")),
        instruction_sentence=instruction_sentence(instruction), question=question, remark=remark)


def _gold(item: Mapping[str, Any]) -> bool:
    return bool(item["answer"])


def build_messages(item: Mapping[str, Any], fewshot: Sequence[Mapping[str, Any]] = ()
                   ) -> tuple[ChatMessage, ...]:
    """System prompt, the exemplars as user/assistant turns (answered 1/0), then the item."""
    msgs = [ChatMessage(role="system", content=system_prompt())]
    for ex in fewshot:
        msgs.append(ChatMessage(role="user", content=render_user(ex)))
        msgs.append(ChatMessage(role="assistant", content="1" if _gold(ex) else "0"))
    msgs.append(ChatMessage(role="user", content=render_user(item)))
    return tuple(msgs)


def prompt_sha256(request: ChatRequest) -> str:
    """sha256 of the rendered prompt (the messages as canonical JSON)."""
    payload = [m.model_dump() for m in request.messages]
    return sha256_bytes(canonical_json(payload).encode("utf-8"))


# --------------------------------------------------------------------------- data
@dataclass
class JbeData:
    """The export's items as plain dicts, in the export's order."""

    test: list[dict[str, Any]]
    fewshot: list[dict[str, Any]]
    #: where the data came from and its fingerprint (for the manifest)
    fingerprint: dict[str, Any] = field(default_factory=dict)

    @property
    def fewshot_ids(self) -> set[str]:
        ids = {str(r["id"]) for r in self.fewshot}
        return ids | {str(r["id"]) for r in self.test if bool(r.get("is_fewshot"))}

    def scored(self) -> list[dict[str, Any]]:
        """The items that are scored: every test item except the few-shot exemplars."""
        few = self.fewshot_ids
        return [r for r in self.test if str(r["id"]) not in few]

    @property
    def items_by_id(self) -> dict[str, dict[str, Any]]:
        return {str(r["id"]): r for r in self.test}


def _card_fingerprints(card: Path) -> dict[str, str]:
    out: dict[str, str] = {}
    if not card.is_file():
        return out
    text = card.read_text(encoding="utf-8")
    for key, pat in (("build", r"build fingerprint: `([0-9a-f]+)`"),
                     ("test", r"`test` split fingerprint: `([0-9a-f]+)`"),
                     ("fewshot", r"`fewshot` split fingerprint: `([0-9a-f]+)`")):
        m = re.search(pat, text)
        if m:
            out[key] = m.group(1)
    return out


def _with_card(fp: dict[str, Any], card: Path) -> dict[str, Any]:
    """``fp`` with the README's fingerprints under ``card`` (when it states any)."""
    card_fp = _card_fingerprints(card)
    if card_fp:
        fp["card"] = card_fp
    return fp


def _from_parquet(test_file: Path, kind: str, card: Path) -> JbeData:
    """``test_file`` and its ``fewshot.parquet`` sibling (else its ``is_fewshot`` rows)."""
    few_file = test_file.with_name("fewshot.parquet")
    has_few = few_file.is_file() and few_file != test_file
    test = read_parquet_rows(test_file)
    fewshot = read_parquet_rows(few_file) if has_few else [r for r in test
                                                            if r.get("is_fewshot")]
    fp: dict[str, Any] = {"kind": kind, "test_sha256": sha256_file(test_file)}
    if has_few:
        fp["fewshot_sha256"] = sha256_file(few_file)
    return JbeData(test, fewshot, _with_card(fp, card))


def load_jbe_data(path: str | Path) -> JbeData:
    """Load a JBE-QA export. ``path`` is the build/export folder (``data/test.parquet`` and
    ``data/fewshot.parquet``), a ``save_to_disk`` folder (``dataset/``, splits ``test`` and
    ``fewshot``), or one ``.parquet`` file (its ``fewshot.parquet`` sibling is used when
    there is one; otherwise the ``is_fewshot`` rows, in file order)."""
    path = Path(path)
    if path.is_dir() and not (path / "data" / "test.parquet").is_file() \
            and (path / "export" / "data" / "test.parquet").is_file():
        path = path / "export"
    if path.is_file():
        return _from_parquet(path, "parquet", path.parent.parent / "README.md")
    if (path / "data" / "test.parquet").is_file():
        return _from_parquet(path / "data" / "test.parquet", "export", path / "README.md")
    saved = path / "dataset" if (path / "dataset" / "dataset_dict.json").is_file() else path
    if (saved / "dataset_dict.json").is_file():
        dd = load_saved(saved)
        if "test" not in dd:
            raise ExportError("the saved dataset has no 'test' split", source=str(saved))
        test = plain_records(dd["test"].to_pandas())
        fewshot = (plain_records(dd["fewshot"].to_pandas()) if "fewshot" in dd
                   else [r for r in test if r.get("is_fewshot")])
        fp = {"kind": "dataset",
              "splits": {s: state_fingerprint(saved / s) for s in sorted(dd.keys())}}
        return JbeData(test, fewshot, _with_card(fp, saved.parent / "README.md"))
    raise ExportError("no JBE-QA export here (expected data/test.parquet, a save_to_disk "
                      "folder or a .parquet file); run `buildds jbe` first", source=str(path))


# --------------------------------------------------------------------------- requests
def build_requests(data: JbeData, shots: int = 0, *, limit: int | None = None
                   ) -> tuple[list[dict[str, Any]], list[ChatRequest]]:
    """The scored items (few-shot exemplars left out, then the first ``limit``) and one
    request per item."""
    if shots not in SHOTS:
        raise BuildError(f"JBE-QA is evaluated zero-shot or four-shot; got shots={shots}")
    exemplars: list[dict[str, Any]] = []
    if shots:
        exemplars = list(data.fewshot)
        if len(exemplars) != shots:
            raise BuildError(f"four-shot needs {shots} exemplars in the fewshot split; the "
                             f"export has {len(exemplars)}")
    items = data.scored()
    if limit is not None:
        items = items[:max(0, limit)]
    requests = [ChatRequest(messages=build_messages(it, exemplars), temperature=TEMPERATURE,
                            max_tokens=MAX_TOKENS, sample_id=str(it["id"])) for it in items]
    return items, requests


# --------------------------------------------------------------------------- parse/score
@dataclass(frozen=True)
class Parsed:
    #: the prediction used for scoring (an unfaithful output counts as False)
    prediction: bool
    #: the output was exactly 1 or 0
    faithful: bool

    @property
    def value(self) -> int | None:
        """1/0 for a faithful output, None otherwise (what samples.jsonl stores)."""
        return int(self.prediction) if self.faithful else None


def parse_output(text: str | None) -> Parsed:
    """``"1"``/``"0"`` after stripping whitespace → a faithful answer; anything else → not
    faithful, counted as 0 (seed 001, section 3)."""
    answer = text.strip() if isinstance(text, str) else None
    if answer == "1":
        return Parsed(True, True)
    if answer == "0":
        return Parsed(False, True)
    return Parsed(False, False)


def sample_record(item: Mapping[str, Any], request: ChatRequest, result: ChatResult
                  ) -> SampleRecord:
    parsed = parse_output(result.text)
    gold = _gold(item)
    return SampleRecord(id=str(item["id"]), prompt_sha256=prompt_sha256(request),
                        raw_output=result.text, parsed=parsed.value,
                        score=1.0 if parsed.prediction == gold else 0.0, error=result.error,
                        gold=gold, cached=result.cached)


def _round(x: float) -> float:
    return round(float(x), 6)


def _block(gold: Sequence[bool], pred: Sequence[bool], faithful: Sequence[bool], *,
           seed: int, n_resamples: int, confidence: float) -> dict[str, Any]:
    prf = binary_prf(gold, pred)
    c = binary_counts(gold, pred)
    ci = bootstrap_binary(gold, pred, n_resamples=n_resamples, seed=seed, confidence=confidence)
    # the share of faithful outputs is the accuracy of "always True" against the flags
    ci_faith = bootstrap_binary(list(faithful), [True] * len(faithful), n_resamples=n_resamples,
                                seed=seed, confidence=confidence)["accuracy"]
    return {
        "n": len(gold),
        "f1": _round(prf.f1), "precision": _round(prf.precision), "recall": _round(prf.recall),
        "accuracy": _round(accuracy(gold, pred)), "faithfulness": _round(faithfulness(faithful)),
        "confusion": {"tp": c.tp, "fp": c.fp, "fn": c.fn, "tn": c.tn},
        "ci": {"f1": [_round(v) for v in ci["f1"]],
               "accuracy": [_round(v) for v in ci["accuracy"]],
               "faithfulness": [_round(v) for v in ci_faith]},
    }


def score_jbe(items: Sequence[Mapping[str, Any]], records: Sequence[SampleRecord], *,
              seed: int = 0, n_resamples: int = 1000, confidence: float = 0.95
              ) -> dict[str, Any]:
    """Metrics over the scored samples: overall and per subject (Cvl/Cst/Pen)."""
    if len(items) != len(records):
        raise ValueError(f"{len(items)} items but {len(records)} records")
    gold = [_gold(it) for it in items]
    pred = [r.parsed == 1 for r in records]
    faithful = [r.parsed is not None for r in records]
    out = _block(gold, pred, faithful, seed=seed, n_resamples=n_resamples, confidence=confidence)
    out["errors"] = sum(1 for r in records if r.error)
    per: dict[str, dict[str, Any]] = {}
    subjects = [SUBJECT_ABBR.get(str(it.get("subject")),
                                 SUBJECT_ABBR.get(str(it.get("subject_jp")),
                                                  str(it.get("subject"))))
                for it in items]
    for abbr in [*SUBJECT_ORDER, *sorted(set(subjects) - set(SUBJECT_ORDER))]:
        idx = [i for i, s in enumerate(subjects) if s == abbr]
        if not idx:
            continue
        per[abbr] = _block([gold[i] for i in idx], [pred[i] for i in idx],
                           [faithful[i] for i in idx], seed=seed, n_resamples=n_resamples,
                           confidence=confidence)
        per[abbr].pop("confusion")
    out["per_subject"] = per
    out["bootstrap"] = {"resamples": n_resamples, "confidence": confidence, "seed": seed,
                        "method": "percentile"}
    return out


# --------------------------------------------------------------------------- task object
class JbeTask(TaskBase):
    """The JBE-QA task as the runner uses it."""

    name = NAME
    shots = SHOTS
    headline = "f1"

    def load(self, path: str | Path) -> JbeData:
        return load_jbe_data(path)

    def build_requests(self, data: JbeData, shots: int, limit: int | None = None
                       ) -> tuple[list[dict[str, Any]], list[ChatRequest]]:
        return build_requests(data, shots, limit=limit)

    def sample_record(self, item: Mapping[str, Any], request: ChatRequest,
                      result: ChatResult) -> SampleRecord:
        return sample_record(item, request, result)

    def score(self, items: Sequence[Mapping[str, Any]], records: Sequence[SampleRecord], *,
              seed: int = 0) -> dict[str, Any]:
        return score_jbe(items, records, seed=seed)

    def template_hashes(self) -> dict[str, str]:
        return template_hashes()

    def training_items(self, data: JbeData) -> list[dict[str, Any]]:
        """What a baseline may learn from: the few-shot exemplars only (never scored items)."""
        return list(data.fewshot)

    def baseline_options(self) -> dict[str, Any]:
        return {"label_field": "answer", "text_field": "question"}

    def group_of(self, item: Mapping[str, Any]) -> str:
        """``令和７年-憲法-1-3`` → ``令和７年-憲法-1``: statements of one question share a fold."""
        parts = str(item["id"]).split("-")
        return "-".join(parts[:3]) if len(parts) >= 4 else str(item["id"])

    def reference_answer(self, item: Mapping[str, Any]) -> str:
        return "1" if _gold(item) else "0"

    def title(self) -> str:
        return "JBE-QA leaderboard"

    def render_leaderboard(self, entries: Sequence[Mapping[str, Any]], *,
                           dataset: Mapping[str, Any] | None = None) -> str:
        from buildds.evaluate.report import render_leaderboard_md

        return render_leaderboard_md(entries, title=self.title(), dataset=dataset)

    def leaderboard_json(self, entries: Sequence[Mapping[str, Any]], *,
                         dataset: Mapping[str, Any] | None = None) -> dict[str, Any]:
        from buildds.evaluate.report import leaderboard_json

        return leaderboard_json(entries, task=self.name, dataset=dataset)

    def summary_plots(self, entries: Sequence[Mapping[str, Any]]) -> dict[str, bytes]:
        from buildds.evaluate.report import plot_subject_f1

        return {"subject_f1.png": plot_subject_f1(entries)}
