"""The JBE-QA task (seed 001, section 3): true/false judgments on bar-exam statements.

Modules: :mod:`.prompt` (system prompt, user turn), :mod:`.data` (loading the export),
:mod:`.score` (parser, scorer), :mod:`.task` (requests, :class:`JbeTask`).

* prompt: the seed's system prompt verbatim (``prompts/jbe_system.txt``) and a user turn
  (``prompts/jbe_user.j2``)::

      科目：{subject_jp}
      {theme}について            (when there is a theme)
      {lead_in}                  (when there is one)
      {instruction}を答えよ。     (the instruction sentence)
      {question}
      なお、{remark}              (when there is one)

  rendered in jinja2's ``SandboxedEnvironment`` with ``StrictUndefined``;
* zero-shot, or four-shot with the export's ``fewshot`` split (2 true + 2 false) as earlier
  user/assistant turns answered ``1``/``0``. The exemplars (``is_fewshot``) are left out of
  scoring in *both* settings, so both are scored on the same items (3,464 − 4 = 3,460);
* requests use temperature 0 and at most 1,000 output tokens;
* parser: exactly ``1`` or ``0`` after stripping whitespace is a faithful answer; anything
  else (an explanation, an empty answer, no answer) is unfaithful and counts as 0 (False);
* scorer: F1 (positive = True), precision, recall, accuracy, faithfulness, per-subject F1
  (Cvl/Cst/Pen) and seeded percentile-bootstrap 95% intervals.
"""

from buildds.evaluate.tasks.jbe.data import JbeData, load_jbe_data
from buildds.evaluate.tasks.jbe.prompt import (
    build_messages,
    instruction_sentence,
    prompt_sha256,
    render_user,
    system_prompt,
    template_hashes,
)
from buildds.evaluate.tasks.jbe.score import (
    SUBJECT_ABBR,
    Parsed,
    parse_output,
    sample_record,
    score_jbe,
)
from buildds.evaluate.tasks.jbe.task import NAME, SHOTS, JbeTask, build_requests

__all__ = [
    "NAME",
    "SHOTS",
    "SUBJECT_ABBR",
    "JbeData",
    "JbeTask",
    "Parsed",
    "build_messages",
    "build_requests",
    "instruction_sentence",
    "load_jbe_data",
    "parse_output",
    "prompt_sha256",
    "render_user",
    "sample_record",
    "score_jbe",
    "system_prompt",
    "template_hashes",
]
