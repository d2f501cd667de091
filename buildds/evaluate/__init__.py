"""Stage 6, evaluate: an export × models → samples, metrics and a leaderboard.

* :mod:`.runner` — ``buildds eval``: plan, backends, one model × setting, summary;
* :mod:`.tasks` — a package per task family (:func:`~buildds.evaluate.tasks.get_task`);
* :mod:`.backends` — OpenAI-compatible, baselines, replay, mock, hf (a registry by spec);
* :mod:`.cache` (answers cached so a run resumes), :mod:`.answering` (one backend's batch),
  :mod:`.metrics`, :mod:`.report`, :mod:`.tables`, :mod:`.redact` (API keys out of every
  stored text), :mod:`.request_defaults`, ``prompts/`` (the seeds' templates).

This package itself exports nothing: import from its modules.
"""

__all__: list[str] = []
