"""Builders shared by the highbar tests: task folders in tmp_path and scripted judges."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from buildds.evaluate.backends.base import BackendBase
from buildds.schema.evaluation import ChatRequest, ChatResult

SAMPLE = Path(__file__).resolve().parents[4] / "buildds" / "sample" / "highbar"

CRITERIA = [
    {"id": "c1", "kind": "must_include", "text": "States the notice period of 30 days."},
    {"id": "c2", "kind": "must_include", "text": "Names the governing law."},
    {"id": "c3", "kind": "must_avoid", "text": "Invents a termination fee."},
]


def write_task(root: Path, task_id: str = "t1", *, criteria: Any = None,
               task: dict[str, Any] | None = None, document: str | None = "contract.md",
               instructions: str | None = "Summarise the contract.") -> Path:
    """A task folder with a markdown document; pieces can be replaced or left out."""
    folder = root / task_id
    (folder / "documents").mkdir(parents=True, exist_ok=True)
    (folder / "task.yaml").write_text(yaml.safe_dump(task or {"title": f"Task {task_id}"}),
                                      encoding="utf-8")
    if instructions is not None:
        (folder / "instructions.md").write_text(instructions, encoding="utf-8")
    crit = {"criteria": CRITERIA} if criteria is None else criteria
    text = crit if isinstance(crit, str) else yaml.safe_dump(crit, sort_keys=False)
    (folder / "criteria.yaml").write_text(text, encoding="utf-8")
    if document:
        (folder / "documents" / document).write_text(
            "1. Either party may terminate on 30 days' notice.\n2. English law governs.\n",
            encoding="utf-8")
    return folder


class KeywordJudge(BackendBase):
    """A judge that passes criterion ``cid`` when the answer holds ``MET:<cid>`` (and, for a
    must_avoid criterion, when it does not hold ``DID:<cid>``); with ``flips``, the verdict
    on ``cid`` is inverted when the answer holds ``FLIP:<cid>`` (a scripted disagreement);
    ``overrides`` {judge sample id → raw output}; form: ``score`` for every rubric."""

    cacheable = True

    def __init__(self, name: str, *, overrides: dict[str, str] | None = None, score: int = 3,
                 flips: bool = False):
        self.name = name
        self.flips = flips
        self.overrides = dict(overrides or {})
        self.score = score
        self.concurrency = 4

    def settings(self) -> dict[str, Any]:
        return {"backend": "keyword-judge", "name": self.name}

    async def complete(self, request: ChatRequest) -> ChatResult:
        sid = request.sample_id or ""
        if sid in self.overrides:
            return ChatResult(text=self.overrides[sid])
        prompt = request.messages[-1].content
        answer = prompt.split("<<<WORK PRODUCT\n", 1)[1].split("\nWORK PRODUCT>>>", 1)[0]
        target = sid.partition("::")[2]
        if target.startswith("form:"):
            return ChatResult(text=json.dumps({"score": self.score}))
        if "must avoid" in prompt.split("## The criterion", 1)[1][:40]:
            ok = f"DID:{target}" not in answer
        else:
            ok = f"MET:{target}" in answer
        if self.flips and f"FLIP:{target}" in answer:
            ok = not ok
        return ChatResult(text=json.dumps({"verdict": "pass" if ok else "fail",
                                           "reason": "by keyword"}))
