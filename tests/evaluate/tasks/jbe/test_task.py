"""The JBE-QA task: prompt rendering, few-shot exclusion, parser, scorer."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from buildds.errors import BuildError
from buildds.evaluate.metrics import binary_prf
from buildds.evaluate.tasks import get_task
from buildds.evaluate.tasks.jbe import (
    JbeData,
    build_messages,
    build_requests,
    load_jbe_data,
    parse_output,
    render_user,
    sample_record,
    score_jbe,
    system_prompt,
    template_hashes,
)
from buildds.schema.evaluation import ChatResult

SEED_SYSTEM = ("以下の法律に関する問題を解答せよ。理由や説明は不要。「正しい」と判断した時に1を、"
               "「誤り」と判断したときに0を出力せよ。出力は必ず1または0のいずれかの整数値のみとせよ。")

BASE = {"id": "令和６年-民法-1-1", "subject": "Civil Code", "subject_jp": "民法",
        "instruction": "判例の趣旨に照らし記述が正しいか", "question": "記述Ａ。", "answer": True}


def item(**kw):
    return {**BASE, **kw}


def test_system_prompt_is_the_seeds_verbatim():
    assert system_prompt() == SEED_SYSTEM
    assert set(template_hashes()) == {"jbe_system.txt", "jbe_user.j2"}


@pytest.mark.parametrize("extra,expected", [
    ({}, "科目：民法\n判例の趣旨に照らし記述が正しいかを答えよ。\n記述Ａ。"),
    ({"theme": "時効"}, "科目：民法\n時効について\n判例の趣旨に照らし記述が正しいかを答えよ。\n記述Ａ。"),
    ({"lead_in": "【事例】\nＡはＢに…"},
     "科目：民法\n【事例】\nＡはＢに…\n判例の趣旨に照らし記述が正しいかを答えよ。\n記述Ａ。"),
    ({"remark": "利息は考慮しない。"},
     "科目：民法\n判例の趣旨に照らし記述が正しいかを答えよ。\n記述Ａ。\nなお、利息は考慮しない。"),
    # the export's remarks already start with なお、: not doubled
    ({"remark": "なお、利息は考慮しない。"},
     "科目：民法\n判例の趣旨に照らし記述が正しいかを答えよ。\n記述Ａ。\nなお、利息は考慮しない。"),
    ({"theme": "時効", "lead_in": "【見解】\n甲説", "remark": "なお、乙は考えない。"},
     ("科目：民法\n時効について\n【見解】\n甲説\n判例の趣旨に照らし記述が正しいかを答えよ。\n記述Ａ。\n"
     "なお、乙は考えない。")),
    # missing values in every spelling: None, NaN (pandas), empty, blank
    ({"theme": None, "lead_in": float("nan"), "remark": "  "},
     "科目：民法\n判例の趣旨に照らし記述が正しいかを答えよ。\n記述Ａ。"),
    ({"theme": ""}, "科目：民法\n判例の趣旨に照らし記述が正しいかを答えよ。\n記述Ａ。"),
    # an instruction that is already a sentence is kept
    ({"instruction": "次の記述の正誤を答えよ。"}, "科目：民法\n次の記述の正誤を答えよ。\n記述Ａ。"),
])
def test_user_turn(extra, expected):
    assert render_user(item(**extra)) == expected


def test_user_turn_needs_the_required_fields():
    with pytest.raises(BuildError):
        render_user(item(question=None))


def test_template_text_is_not_interpreted():
    # jinja syntax in the data is data, not template code
    text = render_user(item(question="{{ 7 * 7 }} {% if x %}"))
    assert "{{ 7 * 7 }} {% if x %}" in text


def _data(n_true=5, n_false=5):
    test = []
    for i in range(n_true + n_false):
        subj = [("Civil Code", "民法"), ("Constitution", "憲法"), ("Penal Code", "刑法")][i % 3]
        test.append({**BASE, "id": f"令和６年-{subj[1]}-{i + 1}-1", "subject": subj[0],
                     "subject_jp": subj[1], "question": f"記述{i}", "answer": i < n_true,
                     "is_fewshot": i in (0, 1, n_true, n_true + 1)})
    fewshot = [test[0], test[n_true], test[1], test[n_true + 1]]
    return JbeData(test=test, fewshot=fewshot)


def test_fewshot_items_are_excluded_in_both_settings():
    data = _data()
    items0, reqs0 = build_requests(data, 0)
    items4, reqs4 = build_requests(data, 4)
    few = {r["id"] for r in data.fewshot}
    assert [i["id"] for i in items0] == [i["id"] for i in items4]
    assert len(items0) == 10 - 4 and not few & {i["id"] for i in items0}
    assert [r.sample_id for r in reqs0] == [i["id"] for i in items0]
    r0, r4 = reqs0[0], reqs4[0]
    assert (r0.temperature, r0.max_tokens) == (0.0, 1000)
    assert [m.role for m in r0.messages] == ["system", "user"]
    assert [m.role for m in r4.messages] == ["system"] + ["user", "assistant"] * 4 + ["user"]
    assert [m.content for m in r4.messages[2:9:2]] == ["1", "0", "1", "0"]
    assert r4.messages[1].content == render_user(data.fewshot[0])
    assert r4.messages[-1].content == r0.messages[-1].content == render_user(items0[0])
    # limit cuts the scored items, never the exclusion
    items, reqs = build_requests(data, 4, limit=2)
    assert [i["id"] for i in items] == [i["id"] for i in items0[:2]] and len(reqs) == 2


def test_fewshot_split_alone_also_excludes():
    data = _data()
    for r in data.test:
        r.pop("is_fewshot")
    assert len(data.scored()) == 6


def test_bad_shots():
    with pytest.raises(BuildError):
        build_requests(_data(), 2)
    data = _data()
    data.fewshot = data.fewshot[:3]
    with pytest.raises(BuildError):
        build_requests(data, 4)


@pytest.mark.parametrize("text,prediction,faithful", [
    ("1", True, True),
    ("0", False, True),
    (" 0\n", False, True),
    ("\n1 ", True, True),
    ("1. Explanation: 判例の立場によれば…", False, False),
    ("1。", False, False),
    ("正しい", False, False),
    ("10", False, False),
    ("１", False, False),   # full-width digit: not exactly 1
    ("", False, False),
    ("   ", False, False),
    (None, False, False),
])
def test_parser(text, prediction, faithful):
    p = parse_output(text)
    assert (p.prediction, p.faithful) == (prediction, faithful)
    assert p.value == (int(prediction) if faithful else None)


def test_sample_record_and_score():
    data = _data()
    items, reqs = build_requests(data, 0)
    outputs = ["1", "0", "1. 説明", None, " 0 ", "1"]
    errors = [None, None, None, "timeout", None, None]
    recs = [sample_record(it, rq, ChatResult(text=o, error=e))
            for it, rq, o, e in zip(items, reqs, outputs, errors, strict=True)]
    assert recs[2].parsed is None and recs[2].score == (0.0 if items[2]["answer"] else 1.0)
    assert recs[3].error == "timeout" and recs[3].raw_output is None
    assert all(len(r.prompt_sha256) == 64 for r in recs)
    m = score_jbe(items, recs, n_resamples=200)
    gold = [bool(it["answer"]) for it in items]
    pred = [o is not None and o.strip() == "1" for o in outputs]
    assert m["n"] == 6 and m["errors"] == 1
    assert m["f1"] == pytest.approx(binary_prf(gold, pred).f1, abs=1e-6)
    assert m["faithfulness"] == pytest.approx(4 / 6, abs=1e-6)
    assert set(m["per_subject"]) <= {"Cvl", "Cst", "Pen"}
    assert sum(v["n"] for v in m["per_subject"].values()) == 6
    lo, hi = m["ci"]["f1"]
    assert lo <= m["f1"] <= hi


def test_get_task():
    assert get_task("jbe").name == "jbe"
    with pytest.raises(BuildError):
        get_task("nope")


def test_load_every_form_of_the_export(sample_export: Path):
    a = load_jbe_data(sample_export)
    b = load_jbe_data(sample_export / "dataset")
    c = load_jbe_data(sample_export / "data" / "test.parquet")
    assert len(a.test) == 74 and len(a.fewshot) == 4 and len(a.scored()) == 70
    for other in (b, c):
        assert [r["id"] for r in other.test] == [r["id"] for r in a.test]
        assert [r["id"] for r in other.fewshot] == [r["id"] for r in a.fewshot]
    assert a.fingerprint["card"]["build"] and a.fingerprint["test_sha256"]
    assert b.fingerprint["splits"]["test"] == a.fingerprint["card"]["test"]
    assert not any(isinstance(v, float) and math.isnan(v) for r in a.test for v in r.values())
    with pytest.raises(BuildError):
        load_jbe_data(sample_export / "xml")
    # the sample renders: every item has its required fields
    for r in a.test:
        assert render_user(r).startswith("科目：")
    assert build_messages(a.test[0])[0].content == SEED_SYSTEM
