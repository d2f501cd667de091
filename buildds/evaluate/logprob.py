"""Log-probability scoring (``buildds eval --scoring logprob``) of binary and closed-label
tasks: instead of parsing a generated answer, the probability of each allowed answer
(``task.answer_choices(item)``: JBE ``1``/``0``, AR-Bench ``是``/``否`` …) is read from the
model, and the prediction is the most probable one.

* OpenAI-compatible endpoints (vLLM, llama.cpp server, OpenAI): the request asks for
  ``logprobs: true, top_logprobs: 20`` and a few output tokens; :func:`read_positions` reads
  the answer's tokens and their top alternatives from the chat format
  (``choices[0].logprobs.content[i].top_logprobs``) or the completions format
  (``choices[0].logprobs.top_logprobs[i]``, a token → logprob map), and
  :func:`choice_logprobs` scores each allowed answer along them: it follows the generated
  tokens while they spell the answer, then takes the best alternative at the first position
  where they part (the rest of a multi-token answer is taken as certain — an endpoint gives
  no more than that). An answer none of whose first tokens is among the alternatives gets
  ``None`` (probability 0 after normalising). Leading whitespace of the answer's first
  token is ignored (`` 1`` spells ``1``);
* ``hf:`` models score each allowed answer's tokens exactly after the chat-templated prompt
  (:mod:`buildds.evaluate.backends.hf`);
* :func:`choice_probs` normalises the log-probabilities over the allowed answers;
  :func:`scored_result` turns a backend's result into the answer the task's own parser
  reads (the most probable choice; ties go to the first choice), so the metrics are computed
  exactly as under generative scoring, and the runs are reported as separate rows
  (model ``<spec> (logprob)``, folder ``<slug>.logprob``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from buildds.schema.evaluation import ChatRequest, ChatResult

__all__ = ["LOGPROB_MAX_TOKENS", "NO_CHOICE_ERROR", "SCORINGS", "TOP_LOGPROBS", "Position",
           "choice_logprobs", "choice_probs", "logprob_request", "read_positions",
           "scored_result"]

#: ``--scoring`` values
SCORINGS = ("generate", "logprob")
#: alternatives asked for per output token (OpenAI's maximum is 20)
TOP_LOGPROBS = 20
#: output tokens asked for: enough to spell a short label
LOGPROB_MAX_TOKENS = 8
NO_CHOICE_ERROR = "none of the allowed answers is among the top log-probabilities"

#: one output position: the token generated there and its alternatives (token → logprob)
Position = tuple[str, dict[str, float]]


def logprob_request(request: ChatRequest, choices: Sequence[str]) -> ChatRequest:
    """``request`` asking for the log-probabilities of ``choices`` (greedy, a few tokens)."""
    extra = {**request.extra, "logprobs": True, "top_logprobs": TOP_LOGPROBS}
    return request.model_copy(update={"choices": tuple(choices), "extra": extra,
                                      "temperature": 0.0, "max_tokens": LOGPROB_MAX_TOKENS})


def _float(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) \
        else None


def read_positions(choice: Mapping[str, Any]) -> list[Position] | None:
    """The output positions of one response choice (``choices[0]``), or None when it has no
    log-probabilities. Reads the chat format and the completions format."""
    logprobs = choice.get("logprobs")
    if not isinstance(logprobs, Mapping):
        return None
    out: list[Position] = []
    content = logprobs.get("content")
    if isinstance(content, list):  # chat completions
        for entry in content:
            if not isinstance(entry, Mapping):
                continue
            token, lp = str(entry.get("token", "")), _float(entry.get("logprob"))
            top = {str(t.get("token", "")): v for t in entry.get("top_logprobs") or []
                   if isinstance(t, Mapping) and (v := _float(t.get("logprob"))) is not None}
            if lp is not None:
                top.setdefault(token, lp)
            out.append((token, top))
        return out
    tokens, tops = logprobs.get("tokens"), logprobs.get("top_logprobs")
    if isinstance(tokens, list) and isinstance(tops, list):  # (legacy) completions
        lps = logprobs.get("token_logprobs") or [None] * len(tokens)
        for token, lp, top in zip(tokens, lps, tops, strict=False):
            alts = {str(k): f for k, raw in (top or {}).items()
                    if (f := _float(raw)) is not None} if isinstance(top, Mapping) else {}
            if (value := _float(lp)) is not None:
                alts.setdefault(str(token), value)
            out.append((str(token), alts))
        return out
    return None


def _spells(token: str, rest: str, first: bool) -> str | None:
    """What of ``rest`` the token spells (a non-empty prefix), or None. The answer's first
    token may carry leading whitespace; a token may end with whitespace after the answer."""
    piece = token.lstrip() if first else token
    if not piece:
        return None
    if rest.startswith(piece):
        return piece
    if piece.startswith(rest) and not piece[len(rest):].strip():
        return rest
    return None


def _score_choice(positions: Sequence[Position], choice: str) -> float | None:
    done, total = "", 0.0
    for generated, top in positions:
        rest = choice[len(done):]
        if not rest:
            break
        first = not done
        spelled = _spells(generated, rest, first)
        if spelled is not None and generated in top:
            done, total = done + spelled, total + top[generated]
            continue
        best = max(((lp, s) for tok, lp in top.items()
                    if (s := _spells(tok, rest, first)) is not None), default=None)
        if best is None:
            return None
        return total + best[0]
    return total if done else None


def choice_logprobs(positions: Sequence[Position], choices: Sequence[str]
                    ) -> dict[str, float | None]:
    """Each choice's log-probability along ``positions`` (see the module's docstring)."""
    return {c: _score_choice(positions, c) for c in choices}


def choice_probs(logprobs: Mapping[str, float | None]) -> dict[str, float] | None:
    """The choices' probabilities normalised over them (rounded to 6 places), or None when
    no choice has a log-probability."""
    known = {c: lp for c, lp in logprobs.items() if lp is not None and math.isfinite(lp)}
    if not known:
        return None
    top = max(known.values())
    weights = {c: math.exp(known[c] - top) if c in known else 0.0 for c in logprobs}
    total = sum(weights.values())
    return {c: round(w / total, 6) for c, w in weights.items()}


def scored_result(result: ChatResult) -> tuple[ChatResult, dict[str, float] | None]:
    """The result as the task's parser reads it — its text the most probable choice — and
    the choices' probabilities. A failed request stays failed; a result without any choice's
    log-probability becomes an error saying so."""
    if result.error is not None or result.choice_logprobs is None:
        if result.error is None:
            return result.model_copy(update={"text": None, "error": "the backend gave no "
                                             "log-probabilities for the answers"}), None
        return result, None
    probs = choice_probs(result.choice_logprobs)
    if probs is None:
        return result.model_copy(update={"text": None, "error": NO_CHOICE_ERROR}), None
    best = max(probs, key=lambda c: (probs[c], -list(probs).index(c)))
    return result.model_copy(update={"text": best}), probs
