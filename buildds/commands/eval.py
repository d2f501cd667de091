"""``buildds eval``: evaluate models on an exported dataset (see :mod:`buildds.evaluate.runner`)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, ClassVar

import click

from buildds.cli_types import Utf8Path
from buildds.errors import BuildError
from buildds.evaluate.request_defaults import (
    DEFAULT_MAX_ATTEMPTS,
    DEFAULT_MAX_RETRY_AFTER_S,
    DEFAULT_TIMEOUT_S,
)
from buildds.safeio.limits import LIMITS

__all__ = ["Seconds", "eval_cmd"]



class Seconds(click.ParamType):
    """A duration: seconds (``90``, ``0.5``) or with a unit (``90s``, ``30m``, ``2h``)."""

    name = "seconds"
    _UNITS: ClassVar[dict[str, float]] = {"": 1.0, "s": 1.0, "m": 60.0, "min": 60.0, "h": 3600.0}

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> float:
        if isinstance(value, (int, float)):
            seconds = float(value)
        else:
            m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*", str(value).lower())
            if m is None or m.group(2) not in self._UNITS:
                self.fail(f"{value!r} is not a duration (e.g. 30, 0.5, 90s, 30m, 2h)",
                          param, ctx)
            seconds = float(m.group(1)) * self._UNITS[m.group(2)]
        if seconds <= 0:
            self.fail(f"{value!r}: a duration must be more than 0 seconds", param, ctx)
        return seconds


@click.command("eval", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("dataset", type=Utf8Path(exists=True, path_type=Path))
@click.option("--task", default="jbe", show_default=True, metavar="TASK",
              help="Evaluation task: jbe, clause-classification, clause-revision, "
                   "appellate-review[:detection|classification|correction], highbar.")
@click.option("--model", "models", multiple=True, required=True, metavar="SPEC",
              help="Backend spec, repeatable: openai:<model>, mock, majority, random:<seed>, "
                   "tfidf, replay:<file>, hf:<path>, oracle (the references).")
@click.option("--judge", "judges", multiple=True, metavar="SPEC",
              help="Judge backend for judged tasks (clause-revision: one or more; highbar: "
                   "the substance judges, two different models at least), repeatable.")
@click.option("--form-judge", "form_judges", multiple=True, metavar="SPEC",
              help="highbar: a form judge, repeatable; two at least (seed 002 grades form "
                   "by a different pair from the substance judges).")
@click.option("--models", "models_file", type=Utf8Path(exists=True, dir_okay=False,
                                                        path_type=Path),
              default=None, metavar="FILE.yaml",
              help="Each model's and judge's own endpoint: a YAML file with 'models:', a "
                   "list of {name: <spec>, base_url, api_key_env, and optionally rpm, tpm, "
                   "concurrency, timeout}. A spec without an entry uses --base-url, "
                   "--api-key-env and the limits given here.")
@click.option("--allow-failures", is_flag=True,
              help="Exit 0 even when some samples failed (their requests got no answer: "
                   "they are left out of the metrics and counted as failed).")
@click.option("--shots", type=click.IntRange(min=0), multiple=True, default=(0,),
              show_default=True,
              help="Demonstrations (jbe: 0 or 4; clause-revision: 0 or 8); repeatable.")
@click.option("--scoring", "scorings", type=click.Choice(["generate", "logprob"]),
              multiple=True, default=("generate",), show_default=True,
              help="How answers are scored, repeatable: generate (parse the written answer) "
                   "or logprob (the most probable allowed answer by the model's "
                   "log-probabilities; jbe and appellate-review detection/classification, "
                   "openai: and hf: models), reported as its own row '<model> (logprob)'.")
@click.option("--limit", type=click.IntRange(min=1), default=None,
              help="Evaluate only the first N scored items (a smoke test).")
@click.option("--out", type=Utf8Path(file_okay=False, path_type=Path), required=True,
              help="Output folder (samples, metrics, leaderboard, plots, manifest, report.html).")
@click.option("--base-url", default=None,
              help="OpenAI-compatible endpoint, e.g. http://localhost:8000/v1 (vLLM).")
@click.option("--api-key-env", default="OPENAI_API_KEY", show_default=True,
              help="Name of the environment variable holding the API key (never the key).")
@click.option("--concurrency", type=click.IntRange(min=1), default=32, show_default=True,
              help="Requests in flight per backend.")
@click.option("--rpm", type=click.FloatRange(min=0, min_open=True), default=None,
              help="Requests per minute limit.")
@click.option("--tpm", type=click.FloatRange(min=0, min_open=True), default=None,
              help="Tokens per minute limit.")
@click.option("--timeout", type=Seconds(), default=DEFAULT_TIMEOUT_S, show_default=True,
              help="Seconds one try of a request may take as a whole (connecting, sending, "
                   "reading the answer); then it is abandoned and retried.")
@click.option("--max-attempts", type=click.IntRange(min=1), default=DEFAULT_MAX_ATTEMPTS,
              show_default=True,
              help="Tries per request (the first included) on timeouts, connection errors, "
                   "429 and 5xx; then the sample fails with the last error.")
@click.option("--max-retry-after", type=Seconds(), default=DEFAULT_MAX_RETRY_AFTER_S,
              show_default=True,
              help="Longest Retry-After (429/503) waited for. A server asking for longer "
                   "fails that sample at once, its error saying so; it is not waited for.")
@click.option("--deadline", type=Seconds(), default=None,
              help="Wall-clock bound for the whole run (e.g. 3600, 90m, 2h). When it is "
                   "reached, requests still out are abandoned as per-sample errors, the "
                   "results so far are written, and the same command run again resumes "
                   "from the cache. Default: none.")
@click.option("--max-response-bytes", type=click.IntRange(min=1),
              default=LIMITS["response_bytes"].default, show_default=True,
              help="Bytes read of one response from an endpoint (before and after "
                   "gzip); a longer one is a per-sample error.")
@click.option("--max-document-bytes", type=click.IntRange(min=1),
              default=LIMITS["document_bytes"].default, show_default=True,
              help="highbar: bytes of one task-set file (documents, YAML). A larger "
                   "document, like one that is not a regular file inside its task folder "
                   "(a symlink leading out, a FIFO, a device), fails its task, which is "
                   "then not sent; the other tasks go on.")
@click.option("--send-files", is_flag=True,
              help="Also send the original documents (highbar) to openai: backends, in the "
                   "last user message: PDFs as file parts, PNG/JPEG/GIF/WebP as image parts "
                   "(base64; checked against their sha256; at most 32 MiB a request). Only "
                   "for endpoints that accept PDF/image inputs; other types (.docx, .txt …) "
                   "are not sent, their text is in the prompt either way. Answers are cached "
                   "apart from those without files.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the bootstrap confidence intervals.")
@click.option("--no-cache", is_flag=True, help="Do not read or write the response cache.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@click.pass_context
def eval_cmd(ctx: click.Context, dataset: Path, task: str, models: tuple[str, ...],
             judges: tuple[str, ...], form_judges: tuple[str, ...],
             models_file: Path | None, allow_failures: bool, shots: tuple[int, ...],
             scorings: tuple[str, ...],
             limit: int | None, out: Path, base_url: str | None, api_key_env: str,
             concurrency: int, rpm: float | None, tpm: float | None, timeout: float,
             max_attempts: int, max_retry_after: float, deadline: float | None,
             max_response_bytes: int, max_document_bytes: int, send_files: bool,
             seed: int, no_cache: bool, quiet: bool) -> None:
    """Evaluate models on an exported dataset and write a leaderboard.

    DATASET is the export of the task's build: a `buildds jbe` output folder, its
    dataset/ (save_to_disk) folder or a .parquet file; a `buildds contracts` export for the
    clause tasks; a `buildds judgments` export for appellate-review; a folder of task
    folders for highbar. Writes <out>/<model>/<N>shot/{samples.jsonl,metrics.json,*.png},
    leaderboard.md/.json in the seed's layout, summary plots, manifest.json and
    report.html (one self-contained page: leaderboard, plots, every sample with filters).
    Runs into the same --out add up (e.g. --shots 0 now, --shots 4 later). Answers are cached in
    <out>/cache/, so an interrupted run resumes. The API key never reaches a stored text:
    a server echoing it finds it replaced by *** in samples, logs, metrics and the cache;
    so does a secret in --base-url (?api-key=…, user:password@).

    A sample whose request failed has no answer and no score: metrics are computed over
    the answered samples, and every leaderboard lists answered / failed / unfaithful
    counts. Failed requests are named on stderr per model/setting: "N of M requests
    failed", the first distinct reasons, and samples.jsonl for the rest. A re-run into the
    same --out sends only the failed and missing requests. HTTP 401/403 (the key) and 404
    (the model or URL) stop the run at once, naming the model and endpoint.

    Exit codes: 0 every sample answered (and judged); 1 some samples failed (unless
    --allow-failures), nothing evaluated in some model/setting, an endpoint refusing the
    key or the model, or a response cache that cannot be used — after writing what there
    is; 2 a bad option (unknown --model/--task, too few --judge/--form-judge, a --base-url
    that is not http(s)://, a bad --models file, a path that is not UTF-8).

    \b
    Example:
      buildds eval build/jbe --task jbe --model majority --model tfidf --out build/eval
      buildds eval build/jbe --model openai:gpt-4o --shots 0 --shots 4 --rpm 500 \\
          --out build/eval
      buildds eval build/jbe --model openai:qwen2.5-72b --base-url http://localhost:8000/v1 \\
          --limit 50 --out build/eval-smoke
      buildds eval tasks/ --task highbar --model openai:gpt-4o --judge openai:gpt-4.1 \\
          --judge openai:o3 --form-judge openai:gpt-4o-mini \\
          --form-judge openai:claude --models models.yaml --send-files --out build/highbar
      buildds eval build/jbe --model openai:qwen --base-url http://localhost:8000/v1 \\
          --timeout 30 --max-attempts 3 --deadline 2h --out build/eval
    """
    from buildds.evaluate.runner import OptionError, run_eval

    endpoints = _endpoints(ctx, models_file)

    options = {"base_url": base_url, "api_key_env": api_key_env, "concurrency": concurrency,
               "rpm": rpm, "tpm": tpm, "send_files": send_files or None,
               "timeout_s": timeout, "max_attempts": max_attempts,
               "max_retry_after_s": max_retry_after, "max_response_bytes": max_response_bytes}
    task_options = {}
    if task.strip().lower() == "highbar":
        task_options["max_document_bytes"] = max_document_bytes
    elif ctx.get_parameter_source("max_document_bytes") is click.core.ParameterSource.COMMANDLINE:
        raise click.UsageError("--max-document-bytes applies to --task highbar only")
    try:
        report = run_eval(dataset, task=task, models=list(models), judges=list(judges),
                          shots=sorted(set(shots)), limit=limit, out=out,
                          backend_options=options, use_cache=not no_cache, seed=seed,
                          quiet=quiet, deadline_s=deadline, task_options=task_options,
                          form_judges=list(form_judges), endpoints=endpoints,
                          scorings=scorings)
    except OptionError as exc:
        raise click.BadParameter(exc.message, ctx=ctx, param_hint=f"'{exc.option}'") from exc
    except BuildError as exc:
        raise click.ClickException(str(exc)) from exc
    for warning in report.warnings:
        click.echo(f"warning: {warning}", err=True)
    _echo_failed_requests(report)
    click.echo(report.summary_line())
    _exit_for(report, out, allow_failures=allow_failures)


def _endpoints(ctx: click.Context, models_file: Path | None) -> dict[str, Any] | None:
    """The ``--models`` file's entries by spec (None without one); a bad file is a usage
    error naming it."""
    if models_file is None:
        return None
    from buildds.evaluate.models_file import load_models_file

    try:
        return dict(load_models_file(models_file))
    except BuildError as exc:
        raise click.BadParameter(exc.message, ctx=ctx, param_hint="'--models'") from exc


def _exit_for(report: Any, out: Path, *, allow_failures: bool) -> None:
    """Exit 1 (after everything is written) when nothing was evaluated in some run, or when
    samples failed and ``--allow-failures`` is not given."""
    nothing = report.nothing_evaluated()
    if nothing:
        raise click.ClickException(
            "nothing was evaluated in " + "; ".join(nothing)
            + f" (the reasons are above and in samples.jsonl; what there is, is in {out})")
    failures = report.with_failures()
    if failures and not allow_failures:
        raise click.ClickException(
            "some samples failed — " + "; ".join(failures) + ". They have no score and are "
            "left out of the metrics; run the same command again to resend only them, or "
            "pass --allow-failures to accept the run as it is")


def _echo_failed_requests(report: Any) -> None:
    """Per model/setting (and judge): ``N of M requests failed``, then the first distinct
    reasons, each naming a failed sample."""
    from buildds.commands.failures import echo_failures

    for run in report.runs:
        for failed in run.failed:
            if not failed.failures:
                continue
            on = f" on {run.model}" if failed.who != run.model else ""
            click.echo(f"warning: {failed.who}{on} {run.shots}-shot: {len(failed.failures)} "
                       f"of {failed.sent} requests failed (see {run.samples})", err=True)
            echo_failures(failed.reason_lines(), report=run.samples)
