"""A run whose answers and errors are hostile HTML, for the report.html tests: the backend
answers by a hash of the sample id (right, wrong, unparseable markup, or a failed request
whose error is markup), and the expected counts are read back from samples.jsonl."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

from buildds.evaluate.backends.base import report_result
from buildds.evaluate.runner import run_eval
from buildds.schema.evaluation import ChatRequest, ChatResult

#: texts that would run script if the page put them in as HTML
HOSTILE = ('</script><script>window.__pwned = 1</script>',
           '<img src=x onerror="window.__pwned = 1">')
#: a model whose name is hostile too (its folder name is sanitised; the leaderboard shows it)
HOSTILE_MODEL = 'fake:<img src=x onerror=window.__pwned=1>'


class HostileBackend:
    """Answers ``1``/``0`` (right or wrong), hostile unparseable text, or fails with a
    hostile error, by a hash of the sample id."""

    cacheable = False

    def __init__(self, spec: str, **options: Any):
        self.name = spec

    def settings(self) -> dict[str, Any]:
        return {"backend": "hostile", "model": self.name}

    async def complete(self, request: ChatRequest) -> ChatResult:
        pick = int(hashlib.sha256(str(request.sample_id).encode()).hexdigest(), 16) % 6
        if pick == 0:
            return ChatResult(text=HOSTILE[0])
        if pick == 1:
            return ChatResult(text=None, error=f"http 500: {HOSTILE[1]}")
        return ChatResult(text="1" if pick % 2 else "0")

    async def complete_many(self, requests, on_result=None):
        out = []
        for i, r in enumerate(requests):
            res = await self.complete(r)
            await report_result(on_result, i, res)
            out.append(res)
        return out


def hostile_run(export: Path, out: Path, *, shots: tuple[int, ...] = (0, 4)) -> Any:
    """The hostile model and a plain one evaluated on ``export`` into ``out``."""
    return run_eval(export, task="jbe", models=[HOSTILE_MODEL, "fake:plain"], shots=list(shots),
                    out=out, use_cache=False, backend_factory=lambda spec, **o:
                    HostileBackend(spec, **o))


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def expected_status(record: dict[str, Any]) -> str:
    """The status the page should give: no answer → failed; an answer without a score →
    unscored; score 1 → correct; else wrong."""
    if record["raw_output"] is None:
        return "failed"
    if record["score"] is None:
        return "unscored"
    return "correct" if record["score"] == 1 else "wrong"


def page_json(html: str) -> dict[str, Any]:
    """The samples data block of a report.html."""
    m = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', html,
                  re.DOTALL)
    assert m is not None, "no data block"
    return json.loads(m.group(1))
