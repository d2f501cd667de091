"""Log-probability scoring's pieces: reading an endpoint's logprobs (chat and completions
formats), scoring allowed answers along them, normalising, and the result the parser reads."""

from __future__ import annotations

import math

import pytest

from buildds.evaluate.logprob import (
    NO_CHOICE_ERROR,
    choice_logprobs,
    choice_probs,
    logprob_request,
    read_positions,
    scored_result,
)
from buildds.schema.evaluation import ChatMessage, ChatRequest, ChatResult

CHAT_CHOICE = {"message": {"content": "1"}, "logprobs": {"content": [
    {"token": "1", "logprob": -0.2, "top_logprobs": [
        {"token": "1", "logprob": -0.2}, {"token": " 0", "logprob": -1.9},
        {"token": "x", "logprob": -4.0}]}]}}
COMPLETIONS_CHOICE = {"text": "1", "logprobs": {
    "tokens": ["1"], "token_logprobs": [-0.2], "top_logprobs": [{"1": -0.2, "0": -1.9}]}}


def test_read_positions_both_formats():
    assert read_positions(CHAT_CHOICE) == [("1", {"1": -0.2, " 0": -1.9, "x": -4.0})]
    assert read_positions(COMPLETIONS_CHOICE) == [("1", {"1": -0.2, "0": -1.9})]
    assert read_positions({"message": {"content": "1"}, "logprobs": None}) is None
    assert read_positions({"message": {"content": "1"}}) is None


def test_choices_scored_along_the_tokens():
    positions = read_positions(CHAT_CHOICE)
    assert choice_logprobs(positions, ["1", "0"]) == {"1": -0.2, "0": -1.9}  # " 0" spells 0
    assert choice_logprobs(positions, ["1", "2"])["2"] is None
    # a multi-token answer: follows the generated tokens, then the best alternative
    positions = [("刑", {"刑": -0.1, "罪": -2.5}), ("期", {"期": -0.05})]
    got = choice_logprobs(positions, ["罪名", "刑期", "罚金"])
    assert got["刑期"] == pytest.approx(-0.15)
    assert got["罪名"] == pytest.approx(-2.5)
    assert got["罚金"] is None


def test_choice_probs_normalise_and_result():
    probs = choice_probs({"1": math.log(0.6), "0": math.log(0.2), "2": None})
    assert probs == {"1": 0.75, "0": 0.25, "2": 0.0}
    assert choice_probs({"1": None}) is None
    res, p = scored_result(ChatResult(text="garbage", choice_logprobs={"1": -3.0, "0": -0.1}))
    assert res.text == "0" and p == {"1": pytest.approx(0.052154, abs=1e-6),
                                     "0": pytest.approx(0.947846, abs=1e-6)}
    # a tie goes to the first choice; no known choice is an error; a failure stays one
    assert scored_result(ChatResult(text="", choice_logprobs={"1": -1.0, "0": -1.0}))[0].text \
        == "1"
    res, p = scored_result(ChatResult(text="z", choice_logprobs={"1": None, "0": None}))
    assert res.text is None and res.error == NO_CHOICE_ERROR and p is None
    failed = ChatResult(text=None, error="http 500")
    assert scored_result(failed) == (failed, None)
    res, _ = scored_result(ChatResult(text="1"))
    assert res.text is None and "no log-probabilities" in res.error


def test_logprob_request_is_another_cache_key():
    rq = ChatRequest(messages=(ChatMessage(role="user", content="q"),), max_tokens=1000,
                     sample_id="a")
    lp = logprob_request(rq, ["1", "0"])
    assert lp.choices == ("1", "0") and lp.max_tokens == 8
    assert lp.extra == {"logprobs": True, "top_logprobs": 20}
    assert "choices" not in rq.model_dump() and lp.model_dump()["choices"] == ("1", "0")
