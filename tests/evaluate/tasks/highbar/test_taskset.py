"""highbar: loading and validating task folders, the sample task set, documents."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import pytest
import yaml

from buildds.errors import BuildError
from buildds.evaluate.tasks.highbar import load_taskset
from buildds.evaluate.tasks.highbar.task import build_requests, task_prompt
from tests.conftest import shared_path
from tests.evaluate.tasks.highbar.helpers import SAMPLE, write_task


def test_sample_task_set_loads():
    ts = load_taskset(SAMPLE)
    assert [t.id for t in ts.tasks] == ["lease-extraction", "nda-review", "termination-notice"]
    assert {d.format for t in ts.tasks for d in t.documents} == {"md", "docx", "txt"}
    assert all(4 <= len(t.criteria) <= 8 for t in ts.tasks)
    kinds = {c.kind for t in ts.tasks for c in t.criteria}
    assert kinds == {"must_include", "must_avoid"}
    assert [r.id for r in ts.rubrics.rubrics] == ["clarity", "length", "structure"]
    nda = ts.items_by_id["nda-review#run1"]["spec"]
    assert "unaided memory" in nda.documents[0].text  # the .docx read by the extract stage
    assert ts.fingerprint["kind"] == "highbar" and len(ts.fingerprint["test_sha256"]) == 64


def test_sample_docx_is_what_the_script_writes():
    spec = importlib.util.spec_from_file_location("make_documents", SAMPLE / "make_documents.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    assert module.build() == (SAMPLE / "nda-review" / "documents" / "nda.docx").read_bytes()


def test_two_attempts_per_task_with_attachments(tmp_path):
    write_task(tmp_path, "t1")
    write_task(tmp_path, "t2")
    items, requests = build_requests(load_taskset(tmp_path))
    assert [i["id"] for i in items] == ["t1#run1", "t1#run2", "t2#run1", "t2#run2"]
    assert [r.attempt for r in requests] == [1, 2, 1, 2]
    assert requests[0].messages == requests[1].messages  # the same prompt, sent twice
    att = requests[0].attachments[0]
    assert att.name == "contract.md" and att.media_type == "text/markdown"
    dumped = requests[0].model_dump(mode="json")
    assert "path" not in dumped["attachments"][0]  # the hash is in the cache key, not the path
    assert dumped["attempt"] == 1
    items, requests = build_requests(load_taskset(tmp_path), limit=1)
    assert [i["id"] for i in items] == ["t1#run1", "t1#run2"]


def test_prompt_holds_instructions_and_document_text(tmp_path):
    write_task(tmp_path, "t1", instructions="Summarise {{ 7 * 7 }}.")
    prompt = task_prompt(load_taskset(tmp_path).tasks[0])
    assert prompt.startswith("Summarise {{ 7 * 7 }}.")  # data is not template code
    assert "=== Document 1: contract.md ===\n1. Either party" in prompt


def test_kind_spellings_are_normalised(tmp_path):
    write_task(tmp_path, criteria={"criteria": [
        {"id": "a", "kind": "Must include", "text": "x"},
        {"id": "b", "kind": "must-avoid", "text": "y"}]})
    assert [c.kind for c in load_taskset(tmp_path).tasks[0].criteria] == ["must_include",
                                                                          "must_avoid"]


@pytest.mark.parametrize("criteria,file,message", [
    ("criteria: [id: a\n", "criteria.yaml", "invalid YAML (line"),
    ({"criteria": [{"id": "a", "kind": "should_include", "text": "x"}]}, "criteria.yaml",
     "criteria.0.kind"),
    ({"criteria": [{"id": "a", "kind": "must_include", "text": "x"},
                   {"id": "a", "kind": "must_avoid", "text": "y"}]}, "criteria.yaml",
     "duplicate criterion id 'a'"),
    ({"criteria": []}, "criteria.yaml", "criteria"),
    ({"criteria": [{"id": "a", "kind": "must_include", "text": "x", "weight": 2}]},
     "criteria.yaml", "weight"),
    ({"criteria": [{"id": "a b", "kind": "must_include", "text": "x"}]}, "criteria.yaml",
     "criteria.0.id"),
    ("- just a list\n", "criteria.yaml", "expected a YAML mapping"),
])
def test_bad_criteria_name_the_file(tmp_path, criteria, file, message):
    folder = write_task(tmp_path, criteria=criteria)
    with pytest.raises(BuildError) as err:
        load_taskset(tmp_path)
    assert str(folder / file) in str(err.value)
    assert message in str(err.value)


def test_missing_document_names_the_file(tmp_path):
    folder = write_task(tmp_path, task={"title": "T", "documents": ["lease.docx"]})
    with pytest.raises(BuildError, match="missing document") as err:
        load_taskset(tmp_path)
    assert str(folder / "documents" / "lease.docx") in str(err.value)


def test_no_documents_names_task_yaml(tmp_path):
    folder = write_task(tmp_path, document=None)
    with pytest.raises(BuildError, match="no documents") as err:
        load_taskset(tmp_path)
    assert str(folder / "task.yaml") in str(err.value)


@pytest.mark.parametrize("breakage,file,message", [
    ("instructions", "instructions.md", "missing file"),
    ("task_yaml", "task.yaml", "missing file"),
    ("unsupported", "documents/notes.rtf", "unsupported document type"),
    ("bad_docx", "documents/fake.docx", "fake.docx"),
])
def test_broken_task_folders(tmp_path, breakage, file, message):
    folder = write_task(tmp_path, instructions=None if breakage == "instructions" else "Do.")
    if breakage == "task_yaml":
        (folder / "task.yaml").unlink()
    if breakage == "unsupported":
        (folder / "documents" / "notes.rtf").write_text("{\\rtf1}", encoding="utf-8")
    if breakage == "bad_docx":
        (folder / "documents" / "fake.docx").write_text("not a zip", encoding="utf-8")
    with pytest.raises(BuildError) as err:
        load_taskset(tmp_path)
    assert str(folder / file) in str(err.value) and message in str(err.value)


def test_empty_folder_and_non_folder(tmp_path):
    with pytest.raises(BuildError, match="no task folders"):
        load_taskset(tmp_path)
    with pytest.raises(BuildError, match="folder of task folders"):
        load_taskset(tmp_path / "nope")


REVIEW = {"task": "t1", "criterion": "c1", "answer_sha256": "a" * 64, "verdict": "pass"}


@pytest.mark.parametrize("review,message", [
    ({**REVIEW, "task": "t9"}, "unknown task 't9'"),
    ({**REVIEW, "criterion": "c9"}, "has no criterion 'c9'"),
    ({**REVIEW, "verdict": "maybe"}, "reviews.0.verdict"),
    ({**REVIEW, "answer_sha256": "abc"}, "answer_sha256"),
    ({"task": "t1", "rubric": "clarity", "answer_sha256": "a" * 64, "verdict": "pass"},
     "a form review gives 'score'"),
    ({"task": "t1", "rubric": "tone", "answer_sha256": "a" * 64, "score": 2},
     "unknown form rubric 'tone'"),
])
def test_bad_reviews_name_the_file(tmp_path, review, message):
    write_task(tmp_path)
    (tmp_path / "reviews.yaml").write_text(yaml.safe_dump({"reviews": [review]}), "utf-8")
    with pytest.raises(BuildError) as err:
        load_taskset(tmp_path)
    assert str(tmp_path / "reviews.yaml") in str(err.value) and message in str(err.value)


def test_reviews_do_not_change_the_task_set_key(tmp_path):
    write_task(tmp_path)
    before = load_taskset(tmp_path).fingerprint
    (tmp_path / "reviews.yaml").write_text(yaml.safe_dump({"reviews": [REVIEW]}), "utf-8")
    after = load_taskset(tmp_path)
    assert after.fingerprint["test_sha256"] == before["test_sha256"]
    assert "reviews_sha256" in after.fingerprint
    assert list(after.reviews) == [("t1", "c1", "a" * 64)]


def test_form_rubrics_can_be_replaced(tmp_path):
    write_task(tmp_path)
    (tmp_path / "form_rubrics.yaml").write_text(yaml.safe_dump({"rubrics": [
        {"id": "clarity", "title": "Clarity", "question": "Clear?",
         "levels": {1: "no", 2: "partly", 3: "yes"}}]}), "utf-8")
    assert [r.id for r in load_taskset(tmp_path).rubrics.rubrics] == ["clarity"]
    (tmp_path / "form_rubrics.yaml").write_text(yaml.safe_dump({"rubrics": [
        {"id": "clarity", "title": "C", "question": "?", "levels": {1: "a", 5: "b"}}]}), "utf-8")
    with pytest.raises(BuildError, match="levels must be exactly 1, 2 and 3"):
        load_taskset(tmp_path)


@pytest.mark.shared
def test_a_real_contract_as_a_task_document(tmp_path):
    source = shared_path("realdata", "contracts")
    docx = sorted(p for p in source.rglob("*.docx") if p.stat().st_size < 2_000_000)
    if not docx:
        pytest.skip("no .docx under realdata/contracts")
    folder = write_task(tmp_path, document=None,
                        task={"title": "Real", "documents": [docx[0].name]})
    # a copy: a link leading out of the task folder is refused (test_highbar_limits.py)
    shutil.copyfile(docx[0], folder / "documents" / docx[0].name)
    try:
        spec = load_taskset(tmp_path).tasks[0]
    except BuildError as exc:  # a real file the extract stage rejects: still named
        assert docx[0].name in str(exc)
        return
    assert spec.documents[0].format == "docx" and spec.documents[0].text
    assert Path(spec.documents[0].path).name == docx[0].name
