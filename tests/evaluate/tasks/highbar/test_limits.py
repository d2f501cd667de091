"""High Bar task folders as hostile input: a document that is a symlink leading out of its
task folder, a FIFO, or too large fails its own task — named, nothing of it read, sent or
cached — while the other tasks are evaluated; replay files are read as strictly."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
import yaml

from buildds.errors import BuildError, ExtractError
from buildds.evaluate.backends import make_backend
from buildds.evaluate.backends.replay import ReplayBackend
from buildds.evaluate.runner import run_eval
from buildds.evaluate.tasks.highbar import load_taskset
from tests.evaluate.openai_server import OpenAITestServer
from tests.evaluate.tasks.highbar.helpers import KeywordJudge, write_task

SECRET_TEXT = "TOPSECRET-shadow-line"


@pytest.fixture
def hostile_taskset(tmp_path: Path) -> Path:
    """good (t1), a link out (t2), a FIFO (t3), too large (t4), a link inside its task
    folder (t5, allowed)."""
    outside = tmp_path / "outside" / "shadow.txt"
    outside.parent.mkdir()
    outside.write_text(f"root:{SECRET_TEXT}\n", encoding="utf-8")
    root = tmp_path / "tasks"
    write_task(root, "t1")
    t2 = write_task(root, "t2")
    (t2 / "documents" / "passwd.txt").symlink_to(outside)
    t3 = write_task(root, "t3")
    os.mkfifo(t3 / "documents" / "pipe.md")
    t4 = write_task(root, "t4")
    (t4 / "documents" / "big.md").write_text("clause. " * 1000, encoding="utf-8")
    t5 = write_task(root, "t5", task={"title": "T5", "documents": ["alias.md"]})
    (t5 / "documents" / "alias.md").symlink_to(t5 / "documents" / "contract.md")
    return root


def test_refused_documents_fail_only_their_task(hostile_taskset, tmp_path):
    out = tmp_path / "out"
    with OpenAITestServer() as server:
        def factory(spec: str, **options: Any) -> Any:
            if spec.startswith("judge:"):
                return KeywordJudge(spec)
            return make_backend(spec, base_url=server.base_url, timeout_s=5.0)

        report = run_eval(hostile_taskset, task="highbar", models=["openai:m"],
                          judges=["judge:a", "judge:b"], form_judges=["judge:a", "judge:b"],
                          out=out, backend_factory=factory,
                          task_options={"max_document_bytes": 4000})
        # the FIFO was not opened for reading (the run would block): its task was refused
        bodies = json.dumps(server.bodies)
        assert server.total == 4  # t1 and t5, two attempts each
    assert SECRET_TEXT not in bodies and "TOPSECRET" not in bodies

    samples = {s["id"]: s for s in map(json.loads, (out / "openai_m" / "0shot" /
                                                     "samples.jsonl").read_text().splitlines())}
    for run in (1, 2):
        assert samples[f"t1#run{run}"]["raw_output"] == "1"
        assert samples[f"t5#run{run}"]["raw_output"] == "1"
        t2, t3, t4 = (samples[f"{t}#run{run}"] for t in ("t2", "t3", "t4"))
        assert t2["raw_output"] is None and "documents/passwd.txt: is a link to " in t2["error"]
        assert "outside" in t2["error"] and "refusing to read it" in t2["error"]
        assert "documents/pipe.md: is a named pipe (FIFO)" in t3["error"]
        assert "documents/big.md" in t4["error"] and "--max-document-bytes" in t4["error"]
        for s in (t2, t3, t4):
            assert s["error"].startswith(f"task {s['id'][:2]}: document refused")
    metrics = report.runs[0].metrics
    assert metrics["samples"] == {"items": 10, "answered": 4, "failed": 6, "refused": 6,
                                  "unfaithful": 0}
    assert metrics["n"] == 4  # the refused attempts are not scored
    assert len(report.warnings) == 3 and all("document refused" in w for w in report.warnings)
    for path in out.rglob("*"):
        if path.is_file():
            assert SECRET_TEXT.encode() not in path.read_bytes(), path


def test_refused_documents_on_the_command_line(hostile_taskset, tmp_path):
    from click.testing import CliRunner

    from buildds.commands.eval import eval_cmd

    # judges whose every request is answered (a judge failing every request would mean
    # nothing was graded: exit 1, tested in test_eval_failures.py)
    res = CliRunner().invoke(eval_cmd, [
        str(hostile_taskset), "--task", "highbar", "--model", "mock:echo",
        "--judge", "mock:ones", "--judge", "mock:zeros", "--form-judge", "mock:ones",
        "--form-judge", "mock:zeros", "--max-document-bytes", "4000", "--allow-failures",
        "--out", str(tmp_path / "out"), "-q"])
    assert res.exit_code == 0, res.output  # refused tasks are failed samples: allowed here
    warnings = [line for line in res.stderr.splitlines() if line.startswith("warning: ")]
    assert len(warnings) == 3
    assert any("t2/documents/passwd.txt: is a link to" in w for w in warnings)
    assert SECRET_TEXT not in (tmp_path / "out" / "mock_echo" / "0shot" /
                               "samples.jsonl").read_text(encoding="utf-8")


def test_the_key_of_a_set_with_a_refused_task_does_not_depend_on_where_it_lies(tmp_path):
    outside = tmp_path / "secret.txt"
    outside.write_text(SECRET_TEXT, encoding="utf-8")
    keys = []
    for where in ("a", "b/c"):
        write_task(tmp_path / where, "t1")
        t2 = write_task(tmp_path / where, "t2")
        (t2 / "documents" / "passwd.txt").symlink_to(outside)
        ts = load_taskset(tmp_path / where)
        assert [t.error is None for t in ts.tasks] == [True, False]
        assert ts.tasks[1].documents == ()
        keys.append(ts.fingerprint["test_sha256"])
    assert keys[0] == keys[1]


def test_a_yaml_file_leading_out_stops_the_load(tmp_path):
    outside = tmp_path / "criteria.yaml"
    outside.write_text(yaml.safe_dump({"criteria": [
        {"id": "c1", "kind": "must_include", "text": "x"}]}), encoding="utf-8")
    folder = write_task(tmp_path / "tasks", "t1")
    (folder / "criteria.yaml").unlink()
    (folder / "criteria.yaml").symlink_to(outside)
    with pytest.raises(ExtractError, match="outside") as err:
        load_taskset(tmp_path / "tasks")
    assert str(folder / "criteria.yaml") in str(err.value)


@pytest.mark.parametrize("name", ["instructions.md", "task.yaml", "criteria.yaml"])
def test_a_fifo_task_file_is_refused_not_read(tmp_path, name):
    folder = write_task(tmp_path, "t1", instructions=None)
    (folder / name).unlink(missing_ok=True)
    os.mkfifo(folder / name)
    with pytest.raises(BuildError, match="named pipe") as err:  # opened, it would block
        load_taskset(tmp_path)
    assert str(folder / name) in str(err.value)


# --------------------------------------------------------------------------- replay files
def test_replay_file_must_be_a_regular_file(tmp_path):
    os.mkfifo(tmp_path / "answers.jsonl")
    with pytest.raises(ExtractError, match="named pipe"):  # opened, it would block
        ReplayBackend(tmp_path / "answers.jsonl")


@pytest.mark.parametrize("line,message", [
    ("[" * 5000 + "]" * 5000, "nesting"),
    ('{"id": 1, "raw_output": NaN}', "NaN is not a JSON number"),
    ('{"id": ' + "9" * 5000 + "}", "digits"),
    ("[1, 2]", "expected a JSON object"),
])
def test_replay_lines_are_strict_json(tmp_path, line, message):
    path = tmp_path / "answers.jsonl"
    path.write_text('{"id": "a", "raw_output": "1"}\n' + line + "\n", encoding="utf-8")
    with pytest.raises(BuildError, match=message) as err:
        ReplayBackend(path)
    assert "line 2" in str(err.value)


def test_replay_file_not_utf8(tmp_path):
    path = tmp_path / "answers.jsonl"
    path.write_bytes(b'{"id": "a", "raw_output": "\xff"}\n')
    with pytest.raises(BuildError, match="not UTF-8"):
        ReplayBackend(path)
