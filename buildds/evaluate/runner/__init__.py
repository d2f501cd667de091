"""Run an evaluation: dataset × task × backends → samples, metrics, leaderboard, plots.

:func:`run_eval` loads the export, builds the task's requests, runs each backend (asyncio,
bounded concurrency inside the backend, a rich progress bar unless ``quiet``) and writes::

    <out>/manifest.json                    dataset fingerprint, template hashes, backend
                                           settings (no secrets), package versions, seed …
    <out>/leaderboard.md, leaderboard.json the task's tables (for jbe: Tables 2/3 of seed
                                           001) over every run in <out> on the same dataset
                                           and limit
    <out>/*.png                            the task's summary plots (jbe: subject_f1.png)
    <out>/report.html                      one self-contained page: the leaderboard, the
                                           plots and every sample, filterable
                                           (:mod:`.report_page`)
    <out>/<model-slug>/<N>shot/samples.jsonl   one SampleRecord per scored item
    <out>/<model-slug>/<N>shot/metrics.json    the task's metrics with bootstrap CIs
    <out>/<model-slug>/<N>shot/*.png           the task's run plots (confusion.png …)
    <out>/<model-slug>/<N>shot/…               judged tasks: the judges' logs (disagreements …)

Zero- and four-shot runs of the same model live side by side (``0shot/``, ``4shot/``), so
running ``--shots 0`` and later ``--shots 4`` into the same ``<out>`` fills both columns of
the leaderboard. Every file is written atomically and holds no timestamps: the same outputs
give the same bytes.

Baselines (backends with ``fit``: majority, random, tfidf) are cross-fitted when the task
has no training split of its own (``task.cross_fit``): the scored items are split into 5
folds by ``task.group_of`` (for jbe: statements of one question stay together) and each fold
is answered by a baseline fitted on the other folds and ``task.training_items``, so a
baseline never sees the gold answer of an item it is scored on. Otherwise a baseline is
fitted on ``task.training_items`` (e.g. the development split) alone. A task with a
``baseline_stratum(item)`` method gets one baseline per stratum (appellate-review: one per
correction target). The ``oracle``
backend answers each item's reference (``task.reference_answer``): a judge's ceiling.

Judged tasks (``task.judged``: clause-revision, highbar) send ``task.judge_requests`` to
the judges after the model has answered — each judge only the requests of its role
(``task.judge_role``: ``judges`` substance, ``form_judges`` form; highbar needs two of
each); ``task.apply_judgments`` folds the verdicts into the records and may add log files
to the run folder.

A failed request is not an answer (:mod:`.answered`): its record has no parsed value and no
score, the task scores the answered samples only, and ``metrics.json`` carries the counts
(``samples``: items, answered, failed, refused, unfaithful) that every leaderboard shows.
Each model and judge may have its own endpoint and key variable (``endpoints``, from
``buildds eval --models``; :mod:`buildds.evaluate.models_file`).

Responses are cached (SQLite, ``<out>/cache/responses.sqlite`` unless
``backend_options["cache_path"]``) for backends whose answers depend only on the request;
``use_cache=False`` skips the cache.

Limits of a run:

* ``deadline_s`` bounds the whole run's wall-clock time (from the call of :func:`run_eval`):
  when it is reached, the requests still out are abandoned — each becomes a per-sample
  error saying so (:data:`DEADLINE_ERROR`), requests not yet sent too, judges included —
  and everything answered so far is written as usual (it is in the cache already, so a
  re-run sends only what is missing);
* an item the task refuses (``task.item_error(item)``: a High Bar task whose documents
  were refused) is never sent to any backend: its result is that error;
* failed requests: each run (:class:`ModelRun`) keeps the model's and each judge's failed
  requests (:class:`FailedRequests`: sample id and error) for the console;
  :meth:`EvalReport.nothing_evaluated` names the runs in which nothing was evaluated (every
  item failed or was refused, or every judge failed every request) and
  :meth:`EvalReport.with_failures` those with any failed sample — the command exits 1 for
  them (the latter unless ``--allow-failures``), after everything is written;
* an endpoint refusing the key or the model (HTTP 401/403/404) raises
  :class:`~buildds.evaluate.backends.base.EndpointRefused`: the run stops at once;
* bad options (an unknown task or backend spec, a base URL that is not http(s), too few
  judges, shots the task does not take) raise :class:`OptionError` naming the option,
  before anything is loaded;
* secrets: every file is written through the run's
  :class:`~buildds.evaluate.redact.Redactor` (the values of the backends' key variables
  become ``***``), and the cache redacts what it stores.
"""

from buildds.evaluate.answering import DEADLINE_ERROR
from buildds.evaluate.runner.outcome import EvalReport, FailedRequests, ModelRun
from buildds.evaluate.runner.plan import OptionError, model_slug
from buildds.evaluate.runner.run import run_eval

__all__ = ["DEADLINE_ERROR", "EvalReport", "FailedRequests", "ModelRun", "OptionError",
           "model_slug", "run_eval"]
