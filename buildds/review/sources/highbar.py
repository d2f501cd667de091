"""Review source for a High Bar eval run (``buildds eval --task highbar``): a lawyer settles
each escalated judge disagreement, blind to which application answered.

Recognised by the run's ``manifest.json`` (``"task": "highbar"``). The queue is the run's
merged ``escalations.jsonl`` (one line per escalation, all applications and attempts; the
runner writes it blind). The lawyer-verdicts file is the task set's ``reviews.yaml``
(:mod:`buildds.evaluate.tasks.highbar.formats`; the task set is the manifest's
``dataset.path``), which every later run applies ahead of the judges.

Kind ``highbar``; key the escalation id; reasons ``judge_disagreement``; facets ``task``,
``axis`` (substance / form), ``criterion`` (the criterion or rubric id); fields ``verdict``
(substance) or ``score`` (form). Evidence — built from a fixed list of the escalation's
fields and with every application, judge and backend name the manifest knows replaced by
``[redacted]``, so the template never learns who answered or who judged: ``task``,
``task_title``, ``instructions``, ``documents``, ``axis``, ``criterion`` (``id``, ``kind``,
``text``, ``applies_when``) or ``rubric`` (``id``, ``title``, ``question``, ``levels``),
``answer``, ``answer_sha256``, ``verdicts`` (``{"A": {"verdict"|"score", "reason",
"error"}, "B": …}``), ``why``, ``choices`` (the values a verdict may take) and ``actions``
(the verdicts the item takes: ``edit`` for a form score, else also ``accept`` / ``reject``).

Verdicts: substance — ``accept`` = the answer meets the criterion (``pass``), ``reject`` =
it does not (``fail``), ``edit`` with ``changes={"verdict": "pass"|"fail"|
"not_applicable"}``; form — ``edit`` with ``changes={"score": "1"|"2"|"3"}``. Each becomes
one entry of ``reviews.yaml`` (replacing the entry for the same task, target and answer),
with the reviewer and the note.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from buildds.review.sources.base import ReviewItem, Verdict
from buildds.review.sources.store import (
    check_verdict,
    digest,
    expect_version,
    file_stamp,
    locked,
    write_text,
)

__all__ = ["KIND", "HighBarSource", "blind_names", "probe"]

KIND = "highbar"
REDACTED = "[redacted]"
SUBSTANCE = ("pass", "fail", "not_applicable")
FORM = ("1", "2", "3")


def _json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def probe(out: Path) -> HighBarSource | None:
    """A :class:`HighBarSource` when ``out`` is a High Bar run with its task set at hand."""
    manifest = _json(Path(out) / "manifest.json")
    if not isinstance(manifest, dict) or manifest.get("task") != "highbar":
        return None
    taskset = (manifest.get("dataset") or {}).get("path")
    if not taskset or not Path(taskset).is_dir():
        return None
    return HighBarSource(Path(out), reviews=Path(taskset) / "reviews.yaml",
                         names=blind_names(manifest))


def blind_names(manifest: Mapping[str, Any]) -> tuple[str, ...]:
    """Every application, judge and backend name of a run's manifest (longest first)."""
    names: set[str] = set()
    for m in manifest.get("models") or []:
        names.update(str(m.get(k)) for k in ("model", "slug") if m.get(k))
        names.update(str(v) for k, v in (m.get("settings") or {}).items()
                     if k in ("model", "name") and v)
    for j in manifest.get("judges") or []:
        names.add(str(j.get("judge", "")))
        names.update(str(v) for k, v in (j.get("settings") or {}).items()
                     if k in ("model", "name") and v)
    names.update(str(j) for j in manifest.get("form_judges") or [])
    return tuple(sorted((n for n in names if len(n) >= 3), key=lambda n: (-len(n), n)))


def _blind(value: Any, names: Iterable[str]) -> Any:
    if isinstance(value, str):
        for name in names:
            value = value.replace(name, REDACTED)
        return value
    if isinstance(value, Mapping):
        return {str(k): _blind(v, names) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_blind(v, names) for v in value]
    return value


def _evidence(entry: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    form = entry.get("axis") == "form"
    verdicts = {label: {k: v for k, v in (g or {}).items()
                        if k in ("verdict", "score", "reason", "error")}
                for label, g in sorted((entry.get("verdicts") or {}).items())}
    target = entry.get("rubric" if form else "criterion") or {}
    keep = ("id", "title", "question", "levels") if form else ("id", "kind", "text",
                                                                "applies_when")
    evidence = {
        "task": entry.get("task", ""), "task_title": entry.get("task_title", ""),
        "instructions": entry.get("instructions", ""),
        "documents": list(entry.get("documents") or []), "axis": "form" if form else "substance",
        ("rubric" if form else "criterion"): {k: target[k] for k in keep if k in target},
        "answer": entry.get("answer", ""), "answer_sha256": entry.get("answer_sha256", ""),
        "verdicts": verdicts, "why": entry.get("why", ""),
        "choices": list(FORM if form else SUBSTANCE),
        "actions": ["edit"] if form else ["accept", "reject", "edit"],
    }
    return _blind(evidence, names)


@dataclass
class HighBarSource:
    """A High Bar run as a review queue (see the module docstring); ``reviews`` is the
    task set's lawyer-verdicts file, ``names`` the names to keep from the reviewer."""

    out: Path
    reviews: Path
    names: tuple[str, ...] = ()
    kind: str = KIND
    _entries: dict[str, dict[str, Any]] = field(default_factory=dict, repr=False)
    _stamp: tuple[int, int] | None = field(default=None, repr=False)

    def _load(self) -> dict[str, dict[str, Any]]:
        """The escalations by id; read again when a run rewrote the file."""
        path = Path(self.out) / "escalations.jsonl"
        if file_stamp(path) != self._stamp:
            self._entries, self._stamp = {}, file_stamp(path)
        if not self._entries:
            text = path.read_text(encoding="utf-8") if path.is_file() else ""
            for n, line in enumerate(text.splitlines(), start=1):
                if not line.strip():
                    continue
                try:
                    entry = json.loads(line)
                except ValueError as exc:
                    raise ValueError(f"{path}: line {n}: not JSON ({exc})") from None
                self._entries.setdefault(str(entry["escalation_id"]), entry)
        return self._entries

    def items(self) -> Sequence[ReviewItem]:
        """One item per escalation, in escalation id order (the file's order)."""
        out = []
        for key, e in self._load().items():
            form = e.get("axis") == "form"
            target = (e.get("rubric") if form else e.get("criterion")) or {}
            out.append(ReviewItem(
                key=key, kind=KIND, title=f"{e.get('task_title') or e.get('task')} · "
                f"{'form' if form else 'criterion'} {target.get('id', '')}",
                reasons=("judge_disagreement",),
                facets={"task": str(e.get("task", "")), "axis": "form" if form else "substance",
                        "criterion": str(target.get("id", ""))},
                fields={"score" if form else "verdict": ""},
                evidence=_evidence(e, self.names)))
        return out

    def _stub(self, key: str) -> dict[str, Any]:
        """The escalation's ``review`` stub: task, criterion or rubric, answer_sha256."""
        entries = self._load()
        if key not in entries:
            raise KeyError(key)
        return {k: v for k, v in entries[key]["review"].items()
                if k in ("task", "criterion", "rubric", "answer_sha256")}

    def _read(self) -> list[dict[str, Any]]:
        """The entries of ``reviews.yaml`` (validated as the runner validates them)."""
        import yaml

        from buildds.evaluate.tasks.highbar.formats import ReviewsFile

        if not self.reviews.exists():
            return []
        data = yaml.safe_load(self.reviews.read_text(encoding="utf-8")) or {}
        ReviewsFile.model_validate(data)  # a file the runner refuses is not rewritten
        return [dict(r) for r in data.get("reviews") or []]

    @staticmethod
    def _same(entry: Mapping[str, Any], stub: Mapping[str, Any]) -> bool:
        return all(entry.get(k) == stub.get(k) for k in ("task", "criterion", "rubric",
                                                         "answer_sha256"))

    def _stored(self, key: str) -> dict[str, Any] | None:
        stub = self._stub(key)
        return next((e for e in self._read() if self._same(e, stub)), None)

    def verdict_for(self, key: str) -> Verdict | None:
        """The lawyer's stored verdict, as ``edit`` with the verdict or score."""
        e = self._stored(key)
        if e is None:
            return None
        changes = {"score": str(e["score"])} if "rubric" in e else {"verdict": str(e["verdict"])}
        return Verdict(key=key, action="edit", changes=changes, note=str(e.get("note") or ""),
                       reviewer=str(e.get("reviewer") or ""))

    def version(self, key: str) -> str:
        """Digest of the ``reviews.yaml`` entry for this escalation (None when absent)."""
        return digest(self._stored(key))

    def _entry(self, verdict: Verdict, stub: dict[str, Any]) -> dict[str, Any]:
        form = "rubric" in stub
        if form:
            check_verdict(verdict, ("edit",), what="a form score")
            score = str(verdict.changes.get("score", "")).strip()
            if score not in FORM or set(verdict.changes) - {"score"}:
                raise ValueError(f"a form score is edited as score 1, 2 or 3, got "
                                 f"{dict(verdict.changes)!r}")
            value: dict[str, Any] = {"score": int(score)}
        else:
            check_verdict(verdict, ("accept", "reject", "edit"), what="a criterion verdict")
            choice = {"accept": "pass", "reject": "fail"}.get(
                verdict.action, str(verdict.changes.get("verdict", "")).strip())
            if choice not in SUBSTANCE or set(verdict.changes) - {"verdict"}:
                raise ValueError(f"a criterion verdict is one of {', '.join(SUBSTANCE)}, got "
                                 f"{dict(verdict.changes)!r}")
            value = {"verdict": choice}
        entry = {**stub, **value}
        if verdict.reviewer.strip():
            entry["reviewer"] = verdict.reviewer.strip()
        if verdict.note.strip():
            entry["note"] = verdict.note.strip()
        return entry

    def record(self, verdict: Verdict, expected_version: str) -> str:
        """Write the verdict as the escalation's entry of ``reviews.yaml`` (atomically)."""
        import yaml

        from buildds.evaluate.tasks.highbar.formats import ReviewsFile

        stub = self._stub(verdict.key)
        entry = self._entry(verdict, stub)
        with locked(self.reviews):
            entries = self._read()
            current = next((e for e in entries if self._same(e, stub)), None)
            expect_version(verdict.key, digest(current), expected_version)
            kept = [e for e in entries if not self._same(e, stub)]
            at = next((i for i, e in enumerate(entries) if self._same(e, stub)), len(kept))
            kept.insert(at, entry)
            ReviewsFile.model_validate({"reviews": kept})
            write_text(self.reviews, yaml.safe_dump({"reviews": kept}, allow_unicode=True,
                                                    sort_keys=False))
        return digest(entry)

    def files(self) -> Sequence[Path]:
        """No input files are served: the escalation carries the task's text."""
        return ()
