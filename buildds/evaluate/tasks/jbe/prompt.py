"""The JBE-QA prompt (seed 001, section 3): the seed's system prompt and the user turn.

* system prompt: ``prompts/jbe_system.txt`` verbatim;
* user turn: ``prompts/jbe_user.j2``, rendered in jinja2's ``SandboxedEnvironment`` with
  ``StrictUndefined``::

      科目：{subject_jp}
      {theme}について            (when there is a theme)
      {lead_in}                  (when there is one)
      {instruction}を答えよ。     (the instruction sentence)
      {question}
      なお、{remark}              (when there is one)

* few-shot exemplars come before the item as user/assistant turns answered ``1``/``0``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from buildds.errors import BuildError
from buildds.evaluate.prompts import packaged_template, template_sha256, template_text
from buildds.pipeline import canonical_json
from buildds.safeio.hashing import sha256_bytes
from buildds.schema.evaluation import ChatMessage, ChatRequest

__all__ = ["REMARK_PREFIX", "SYSTEM_TEMPLATE", "USER_TEMPLATE", "build_messages", "gold_answer",
           "instruction_sentence", "prompt_sha256", "render_user", "system_prompt",
           "template_hashes"]

SYSTEM_TEMPLATE = "jbe_system.txt"
USER_TEMPLATE = "jbe_user.j2"
#: the "なお、" a remark may start with (the template writes its own)
REMARK_PREFIX = re.compile(r"^\s*なお[、，,]\s*")


# --------------------------------------------------------------------------- templates
def system_prompt() -> str:
    """The seed's system prompt, verbatim (no trailing newline)."""
    return template_text(SYSTEM_TEMPLATE).strip()


def template_hashes() -> dict[str, str]:
    """sha256 of each template file, for the run manifest."""
    return {name: template_sha256(name) for name in (SYSTEM_TEMPLATE, USER_TEMPLATE)}


def _text(value: Any) -> str | None:
    """A field's text, or None for a missing value (None, NaN, empty or blank)."""
    if value is None:
        return None
    if isinstance(value, float) and math.isnan(value):
        return None
    text = str(value).strip()
    return text or None


def instruction_sentence(instruction: str) -> str:
    """``最高裁判所の判例の趣旨に照らし記述が正しいか`` → ``…正しいかを答えよ。``; an instruction
    that already is a sentence (ends with 。) is kept as it is."""
    text = instruction.strip()
    return text if text.endswith(("。", "．")) else f"{text}を答えよ。"


def render_user(item: Mapping[str, Any]) -> str:
    """The user turn for one item (a mapping with the JBE-QA fields)."""
    subject_jp, instruction, question = (_text(item.get(k)) for k in
                                         ("subject_jp", "instruction", "question"))
    if subject_jp is None or instruction is None or question is None:
        raise BuildError(f"item {item.get('id')!r}: subject_jp, instruction and question "
                         "are required")
    remark = _text(item.get("remark"))
    if remark is not None:
        remark = _text(REMARK_PREFIX.sub("", remark))
    return packaged_template(USER_TEMPLATE, keep_trailing_newline=False).render(
        subject_jp=subject_jp, theme=_text(item.get("theme")), lead_in=_text(item.get("lead_in")),
        instruction_sentence=instruction_sentence(instruction), question=question, remark=remark)


def gold_answer(item: Mapping[str, Any]) -> bool:
    return bool(item["answer"])


def build_messages(item: Mapping[str, Any], fewshot: Sequence[Mapping[str, Any]] = ()
                   ) -> tuple[ChatMessage, ...]:
    """System prompt, the exemplars as user/assistant turns (answered 1/0), then the item."""
    msgs = [ChatMessage(role="system", content=system_prompt())]
    for ex in fewshot:
        msgs.append(ChatMessage(role="user", content=render_user(ex)))
        msgs.append(ChatMessage(role="assistant", content="1" if gold_answer(ex) else "0"))
    msgs.append(ChatMessage(role="user", content=render_user(item)))
    return tuple(msgs)


def prompt_sha256(request: ChatRequest) -> str:
    """sha256 of the rendered prompt (the messages as canonical JSON)."""
    payload = [m.model_dump() for m in request.messages]
    return sha256_bytes(canonical_json(payload).encode("utf-8"))

