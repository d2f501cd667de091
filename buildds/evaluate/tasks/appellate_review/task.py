"""The appellate-review task (seed 003, AR-Bench): error detection, classification, correction.

``buildds eval EXPORT --task appellate-review[:VARIANT]`` on a ``buildds judgments`` export.
The variant names the subtask, the input settings and (correction only) the targets, in any
order, separated by ``:`` (or ``/``, ``,``, ``+``)::

    appellate-review                       detection, setting S4
    appellate-review:classification:s1     classification on the S1 input
    appellate-review:detection:s1:s3       detection on S1 and S3 (each item asked twice)
    appellate-review:correction:all        correction on S1–S5 (Table 5 of the seed)
    appellate-review:correction:term       prison-term corrections only (also charge, fine)

One task object evaluates one subtask. The default subtask is ``detection`` (the first of the
seed's three sequential subtasks) and the default setting **S4** — "case facts + anomalous
reasoning process + anomalous judgment", which the seed calls "the most realistic setting"
(section 4.2/4.4). With several settings every item is asked once per setting (item id
``<row id>@S3``); the metrics are pooled over the settings and given per setting too.

* data: the export's ``data/<subtask>.parquet`` (or its ``dataset/`` folder, or one
  ``.parquet``): detection = every row (target ``label``), classification and correction =
  the anomalous rows (targets ``error_class`` and ``gold_correction``). The model input is
  the row's ``input_s1`` … ``input_s5`` column, verbatim;
* prompts: ``prompts/appellate_review_<subtask>.md.j2`` (correction: one per target:
  ``…_correction_charge``, ``…_correction_prison_term``, ``…_correction_fine``, as the seed
  adjusts its correction prompt "based on the three target variables"), rendered sandboxed.
  The seed's own prompts are figures (5–8) whose text is not in the seed: ours are written
  in Chinese after the seed's task definitions, with a strict one-line answer;
* requests: one user turn, temperature 0, at most 2,048 output tokens (seed, Table 13);
* parsers: :mod:`~buildds.evaluate.tasks.appellate_review.parse`; metrics:
  :mod:`~buildds.evaluate.tasks.appellate_review.metrics` (definitions) and
  :mod:`~buildds.evaluate.tasks.appellate_review.score` (metrics.json); leaderboard and
  plots: :mod:`~buildds.evaluate.tasks.appellate_review.report`;
* baselines (majority, random, tfidf) learn the reference answer from the setting's input
  text, cross-fitted over folds of source judgments (every version of one judgment — normal
  and injected — in the same fold), for correction one per target (``baseline_stratum``);
  ``oracle`` answers the reference.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from buildds.errors import BuildError, ExportError
from buildds.evaluate.prompts import render_template, template_sha256
from buildds.evaluate.tasks.appellate_review import parse as arp
from buildds.evaluate.tasks.appellate_review import score as ars
from buildds.evaluate.tasks.base import TaskBase
from buildds.evaluate.tasks.export_io import (
    load_saved,
    plain_records,
    read_parquet_rows,
    state_fingerprint,
    with_data_fingerprint,
)
from buildds.evaluate.tasks.jbe import prompt_sha256
from buildds.export.split_parts import split_files
from buildds.inject_errors.arbench_rows import SETTINGS, TASKS
from buildds.safeio import loads_strict
from buildds.safeio.hashing import sha256_file
from buildds.schema.evaluation import ChatMessage, ChatRequest, ChatResult, SampleRecord

__all__ = [
    "DEFAULT_SETTING",
    "DEFAULT_SUBTASK",
    "AppellateReviewTask",
    "ArData",
    "Variant",
    "build_items",
    "load_rows",
    "parse_variant",
    "render_prompt_for",
]

NAME = "appellate-review"
DEFAULT_SUBTASK = "detection"
DEFAULT_SETTING = "S4"
TEMPERATURE = 0.0
MAX_TOKENS = 2048
_TARGET_ALIASES = {"charge": "charge", "term": "prison_term", "prison-term": "prison_term",
                   "prison_term": "prison_term", "fine": "fine"}
_SETTING_TITLES = {
    "S1": "case facts + anomalous judgment",
    "S2": "S1 + normal reasoning",
    "S3": "S2 + relevant law articles",
    "S4": "case facts + anomalous reasoning + anomalous judgment",
    "S5": "S4 + law articles the anomalous reasoning cites",
}
_SUBTASK_TITLES = {"detection": "Error Detection", "classification": "Error Classification",
                   "correction": "Error Correction"}


# --------------------------------------------------------------------------- variant
@dataclass(frozen=True)
class Variant:
    subtask: str = DEFAULT_SUBTASK
    settings: tuple[str, ...] = (DEFAULT_SETTING,)
    #: correction targets evaluated (error classes); all three by default
    targets: tuple[str, ...] = arp.TARGETS

    @property
    def name(self) -> str:
        settings = "all" if self.settings == SETTINGS else "+".join(self.settings)
        parts = [NAME, self.subtask, settings.lower()]
        if self.subtask == "correction" and self.targets != arp.TARGETS:
            parts.append("+".join(self.targets))
        return ":".join(parts)


def parse_variant(variant: str | None) -> Variant:
    """``"correction:s1:term"`` → Variant("correction", ("S1",), ("prison_term",))."""
    subtask: str | None = None
    settings: list[str] = []
    targets: list[str] = []
    for token in re.split(r"[:/,+\s]+", (variant or "").strip().lower()):
        if not token:
            continue
        if token in TASKS:
            if subtask is not None and subtask != token:
                raise BuildError(f"appellate-review: two subtasks in {variant!r}")
            subtask = token
        elif token == "all":
            settings.extend(SETTINGS)
        elif token.upper() in SETTINGS:
            settings.append(token.upper())
        elif token in _TARGET_ALIASES:
            targets.append(_TARGET_ALIASES[token])
        else:
            raise BuildError(f"appellate-review: unknown variant part {token!r} (expected "
                             f"{', '.join(TASKS)}, s1…s5 or all, and for correction charge, "
                             "term or fine)")
    subtask = subtask or DEFAULT_SUBTASK
    if targets and subtask != "correction":
        raise BuildError("appellate-review: charge/term/fine select correction targets; "
                         f"they do not apply to {subtask}")
    ordered_settings = tuple(s for s in SETTINGS if s in settings) or (DEFAULT_SETTING,)
    ordered_targets = tuple(t for t in arp.TARGETS if t in targets) or arp.TARGETS
    return Variant(subtask, ordered_settings, ordered_targets)


# --------------------------------------------------------------------------- prompts
def _template_name(subtask: str, target: str | None = None) -> str:
    suffix = f"_{target}" if subtask == "correction" else ""
    return f"appellate_review_{subtask}{suffix}.md.j2"


def render_prompt_for(subtask: str, document: str, target: str | None = None) -> str:
    """The user turn for one input text (sandboxed, strict undefined)."""
    return render_template(_template_name(subtask, target), document=document.strip()).strip()


def _template_names(variant: Variant) -> list[str]:
    if variant.subtask == "correction":
        return [_template_name("correction", t) for t in variant.targets]
    return [_template_name(variant.subtask)]


# --------------------------------------------------------------------------- data
@dataclass
class ArData:
    """The scored items (one per row × setting) of one subtask, in export order."""

    items: list[dict[str, Any]]
    fingerprint: dict[str, Any] = field(default_factory=dict)
    #: rows left out (e.g. a correction row without a usable gold value), by reason
    skipped: dict[str, int] = field(default_factory=dict)

    @property
    def items_by_id(self) -> dict[str, dict[str, Any]]:
        return {str(it["id"]): it for it in self.items}

    @property
    def fewshot_ids(self) -> set[str]:
        return set()


def _from_saved(saved: Path, split: str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    dd = load_saved(saved)
    if split not in dd:
        raise ExportError(f"the saved dataset has no {split!r} split", source=str(saved))
    rows = plain_records(dd[split].to_pandas())
    return rows, with_data_fingerprint({"kind": "dataset", "split": split,
                                        "splits": {"test": state_fingerprint(saved / split)}},
                                       saved.parent)


def load_rows(path: str | Path, subtask: str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The rows of ``subtask`` and a fingerprint. ``path``: the export folder (``data/
    <subtask>.parquet`` or its parts, :mod:`buildds.export.split_parts`), its ``dataset/``
    folder, or one ``.parquet`` file (taken as the subtask's rows)."""
    path = Path(path)
    if path.is_file():
        fp = {"kind": "parquet", "split": subtask, "test_sha256": sha256_file(path)}
        if path.parent.name == "data":
            with_data_fingerprint(fp, path.parent.parent)
        return read_parquet_rows(path), fp
    files = split_files(path / "data", subtask)  # none when there is no data/ folder
    if len(files) == 1:
        return read_parquet_rows(files[0]), with_data_fingerprint(
            {"kind": "export", "split": subtask, "test_sha256": sha256_file(files[0])}, path)
    if files:  # a large split's parts (buildds.export.split_parts), in row order
        rows = [r for f in files for r in read_parquet_rows(f)]
        return rows, with_data_fingerprint(
            {"kind": "export", "split": subtask, "parts_sha256": [sha256_file(f) for f in files]},
            path)
    saved = path / "dataset" if (path / "dataset" / "dataset_dict.json").is_file() else path
    if (saved / "dataset_dict.json").is_file():
        return _from_saved(saved, subtask)
    raise ExportError(f"no AR-Bench export here (expected data/{subtask}.parquet, a "
                      "save_to_disk folder or a .parquet file); run `buildds judgments` first",
                      source=str(path))


def _gold_json(row: Mapping[str, Any]) -> dict[str, Any]:
    raw = row.get("gold_correction") or "{}"
    try:
        gold = loads_strict(raw) if isinstance(raw, str) else dict(raw)
    except ValueError:
        return {}
    return gold if isinstance(gold, dict) else {}


def _targets(row: Mapping[str, Any], variant: Variant) -> tuple[Any, Any, str, str | None]:
    """(gold, label, reference answer, target) of one row, or a reason string as gold=None
    and the reason in place of the answer."""
    if variant.subtask == "detection":
        flag = int(row["label"])
        return flag, flag, "是" if flag else "否", None
    cls = str(row["error_class"])
    if variant.subtask == "classification":
        return cls, cls, arp.CLASS_ANSWER.get(cls, cls), None
    gold = arp.correction_gold(cls, _gold_json(row)) if cls in arp.TARGETS else None
    if gold is None:
        return None, None, "no_gold", cls
    return gold, ars.correction_label(cls, gold), arp.correction_answer(cls, gold), cls


def build_items(rows: Sequence[Mapping[str, Any]], variant: Variant
                ) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """One item per row × setting (rows of other correction targets left out), and the
    rows skipped for lack of a usable gold value."""
    items: list[dict[str, Any]] = []
    skipped: dict[str, int] = {}
    multi = len(variant.settings) > 1
    for row in rows:
        gold, label, answer, target = _targets(row, variant)
        if variant.subtask == "correction" and target not in variant.targets:
            continue
        if gold is None:
            skipped[answer] = skipped.get(answer, 0) + 1
            continue
        for setting in variant.settings:
            items.append({
                "id": f"{row['id']}@{setting}" if multi else str(row["id"]),
                "row_id": str(row["id"]), "source_id": str(row["source_id"]),
                "setting": setting, "error_type": str(row["error_type"]),
                "error_class": str(row["error_class"]), "target": target,
                "input": str(row[f"input_{setting.lower()}"]), "gold": gold, "label": label,
                "answer": answer})
    return items, skipped


# --------------------------------------------------------------------------- answers
def parse_answer(item: Mapping[str, Any], text: str | None, subtask: str) -> arp.Parsed:
    if subtask == "detection":
        return arp.parse_detection(text)
    if subtask == "classification":
        return arp.parse_classification(text)
    return arp.parse_correction(str(item["target"]), text)


def _json_value(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


# --------------------------------------------------------------------------- task object
class AppellateReviewTask(TaskBase):
    """AR-Bench as the runner uses it (one subtask per object; see the module doc)."""

    shots = (0,)
    headline = "macro_f1"
    group_name = "source_id"

    #: correction: the runner fits one baseline per target (see :meth:`_target_of`)
    baseline_stratum: Any = None
    #: ``--scoring logprob`` (detection, classification): an item's allowed answers
    answer_choices: Any = None

    def __init__(self, variant: str | None = None) -> None:
        self.variant = parse_variant(variant)
        self.name = self.variant.name
        if self.variant.subtask == "correction":
            self.baseline_stratum = self._target_of
        else:
            self.answer_choices = self._answer_choices

    def _answer_choices(self, item: Mapping[str, Any]) -> tuple[str, ...]:
        """Detection ``是``/``否``; classification ``罪名``/``刑期``/``罚金``."""
        if self.variant.subtask == "detection":
            return ("是", "否")
        return tuple(arp.CLASS_ANSWER.values())

    @staticmethod
    def _target_of(item: Mapping[str, Any]) -> str:
        """The correction target of an item: baselines learn charges, terms and fines apart."""
        return str(item["target"])

    # -- data
    def load(self, path: str | Path) -> ArData:
        rows, fp = load_rows(path, self.variant.subtask)
        items, skipped = build_items(rows, self.variant)
        fp = {**fp, "variant": self.name}
        return ArData(items, fp, skipped)

    def build_requests(self, data: ArData, shots: int, limit: int | None = None
                       ) -> tuple[list[dict[str, Any]], list[ChatRequest]]:
        """Every item (``limit``: the items of the first ``limit`` rows), one request each."""
        self.check_shots(shots)
        items = data.items
        if limit is not None:
            rows = list(dict.fromkeys(it["row_id"] for it in items))[:max(0, limit)]
            keep = set(rows)
            items = [it for it in items if it["row_id"] in keep]
        requests = [self._request(it) for it in items]
        return items, requests

    def _request(self, item: Mapping[str, Any]) -> ChatRequest:
        text = render_prompt_for(self.variant.subtask, str(item["input"]), item.get("target"))
        return ChatRequest(messages=(ChatMessage(role="user", content=text),),
                           temperature=TEMPERATURE, max_tokens=MAX_TOKENS,
                           sample_id=str(item["id"]))

    def baseline_options(self) -> dict[str, Any]:
        return {"label_field": "answer", "text_field": "input"}

    def group_of(self, item: Mapping[str, Any]) -> str:
        return str(item["source_id"])

    def reference_answer(self, item: Mapping[str, Any]) -> str:
        return str(item["answer"])

    def template_hashes(self) -> dict[str, str]:
        return {n: template_sha256(n) for n in _template_names(self.variant)}

    # -- answers
    def sample_record(self, item: Mapping[str, Any], request: ChatRequest,
                      result: ChatResult) -> SampleRecord:
        parsed = parse_answer(item, result.text, self.variant.subtask).value
        pred = ars.predicted_label(item, parsed, self.variant.subtask)
        return SampleRecord(id=str(item["id"]), prompt_sha256=prompt_sha256(request),
                            raw_output=result.text, parsed=_json_value(parsed),
                            score=1.0 if pred is not None and pred == item["label"] else 0.0,
                            error=result.error, gold=_json_value(item["gold"]),
                            cached=result.cached)

    def score(self, items: Sequence[Mapping[str, Any]], records: Sequence[SampleRecord], *,
              seed: int = 0) -> dict[str, Any]:
        return ars.score_items(items, records, subtask=self.variant.subtask,
                               settings=self.variant.settings, seed=seed)

    # -- reports
    def title(self) -> str:
        return f"AR-Bench — {_SUBTASK_TITLES[self.variant.subtask]} (`{self.name}`)"

    def render_leaderboard(self, entries: Sequence[Mapping[str, Any]], *,
                           dataset: Mapping[str, Any] | None = None) -> str:
        from buildds.evaluate.tasks.appellate_review.report import render_leaderboard

        return render_leaderboard(entries, title=self.title(),
                                  heading=_SUBTASK_TITLES[self.variant.subtask],
                                  variant=self.variant, setting_titles=_SETTING_TITLES,
                                  dataset=dataset)

    def run_plots(self, metrics: Mapping[str, Any], title: str) -> dict[str, bytes]:
        from buildds.evaluate.tasks.appellate_review.report import plot_confusion_matrix

        cm = metrics.get("confusion_matrix")
        if not isinstance(cm, Mapping):
            return {}
        return {"confusion.png": plot_confusion_matrix(cm, title)}

    def summary_plots(self, entries: Sequence[Mapping[str, Any]]) -> dict[str, bytes]:
        from buildds.evaluate.tasks.appellate_review.report import plot_macro_f1

        return {"macro_f1.png": plot_macro_f1(entries, self.variant.settings)} if entries else {}
