"""The samples of report.html as data: statuses, groups, prompts, clipping, counts."""

from __future__ import annotations

from buildds.evaluate.report_samples import (
    RunSamples,
    clip,
    group_field,
    page_data,
    prompt_parts,
    prompt_text,
    sample_status,
)
from buildds.schema.evaluation import Attachment, ChatMessage, ChatRequest


def test_status_of_a_sample():
    assert sample_status({"raw_output": "1", "score": 1.0}) == "correct"
    assert sample_status({"raw_output": "garbage", "score": 0.0}) == "wrong"
    assert sample_status({"raw_output": "x", "score": 0.5}) == "wrong"
    # a failed request (issue 16: no parsed answer, no score): failed, whatever score an
    # older run wrote
    assert sample_status({"raw_output": None, "parsed": None, "score": None,
                          "error": "http 500"}) == "failed"
    assert sample_status({"raw_output": None, "score": 0.0, "error": "http 500"}) == "failed"
    # answered, not scored (a judge erred)
    assert sample_status({"raw_output": "1", "score": None}) == "unscored"


def test_group_field_is_the_first_field_some_item_has():
    assert group_field([{"id": 1, "subject": "Civil Code"}]) == ("subject", "Subject")
    assert group_field([{"id": 1, "error_class": "charge", "task_id": "t"}]) == \
        ("error_class", "Error class")
    assert group_field([{"id": 1, "subject": ""}, {"id": 2}]) is None


def test_prompt_text_names_the_roles_and_attachments():
    one = ChatRequest(messages=(ChatMessage(role="user", content="Q?"),))
    assert prompt_parts(one) == (("user", "Q?"),)
    assert prompt_text(prompt_parts(one)) == "Q?"
    two = ChatRequest(messages=(ChatMessage(role="system", content="S"),
                                ChatMessage(role="user", content="Q")),
                      attachments=(Attachment(name="a.docx", sha256="0" * 64,
                                              media_type="application/x"),))
    assert prompt_text(prompt_parts(two)) == \
        "[system]\nS\n\n[user]\nQ\n\n[attachments]\na.docx"


def test_clip_says_how_much_is_left_out():
    assert clip("abc", 5) == "abc"
    assert clip(None) is None
    assert clip("abcdefgh", 3) == "abc\n… [5 more characters not shown]"


def test_page_data_counts_and_shares_prompts_and_their_parts():
    recs = [{"id": "a", "raw_output": "1", "parsed": 1, "gold": True, "score": 1.0,
             "error": None},
            {"id": "b", "raw_output": None, "parsed": None, "gold": False, "score": None,
             "error": "http 500"},
            {"id": "c", "raw_output": "zz", "parsed": None, "gold": {"k": [1]}, "score": 0.0,
             "error": None}]
    shared = ("system", "S")
    prompts = {"a": (shared, ("user", "P1")), "b": (shared, ("user", "P2"))}
    runs = [RunSamples("m1", 0, recs, prompts, {"a": "Civil", "b": "Penal"}),
            RunSamples("m2", 4, recs[:1], prompts)]
    data = page_data(runs, group_title="Subject")
    # one copy of prompt a for both runs, one of the system message for both prompts
    assert data["prompts"] == [[0, 1], [0, 2]]
    assert data["parts"] == [["system", "S"], ["user", "P1"], ["user", "P2"]]
    assert [s["p"] for s in data["samples"]] == [0, 1, -1, 0]
    assert [s["c"] for s in data["samples"]] == ["correct", "failed", "wrong", "correct"]
    assert [s["g"] for s in data["samples"]] == ["Civil", "Penal", "", ""]
    assert data["samples"][2]["y"] == '{"k": [1]}'
    assert data["samples"][0]["a"] == "1" and data["samples"][0]["y"] == "true"
    assert data["summary"][0] == {"label": "m1 — Zero-shot", "items": 3, "correct": 1,
                                  "wrong": 1, "unscored": 0, "failed": 1, "errors": 1}
    assert data["samples"][1]["e"] == "http 500" and data["samples"][1]["s"] is None
    assert data["summary"][1]["label"] == "m2 — Four-shot"
    assert data["group"] == "Subject" and data["runs"][1] == {"label": "m2 — Four-shot",
                                                              "model": "m2", "shots": 4}
