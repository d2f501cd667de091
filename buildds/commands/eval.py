"""``buildds eval``: evaluate models on an exported dataset (see :mod:`buildds.evaluate.runner`)."""

from __future__ import annotations

from pathlib import Path

import click

from buildds.errors import BuildError

__all__ = ["eval_cmd"]


@click.command("eval", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("dataset", type=click.Path(exists=True, path_type=Path))
@click.option("--task", default="jbe", show_default=True, metavar="TASK",
              help="Evaluation task: jbe, clause-classification, clause-revision, "
                   "appellate-review[:detection|classification|correction], highbar.")
@click.option("--model", "models", multiple=True, required=True, metavar="SPEC",
              help="Backend spec, repeatable: openai:<model>, mock, majority, random:<seed>, "
                   "tfidf, replay:<file>, hf:<path>, oracle (the references).")
@click.option("--judge", "judges", multiple=True, metavar="SPEC",
              help="Judge backend for judged tasks (clause-revision: one or more; highbar: "
                   "two different models), repeatable.")
@click.option("--shots", type=click.IntRange(min=0), multiple=True, default=(0,),
              show_default=True,
              help="Demonstrations (jbe: 0 or 4; clause-revision: 0 or 8); repeatable.")
@click.option("--limit", type=click.IntRange(min=1), default=None,
              help="Evaluate only the first N scored items (a smoke test).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Output folder (samples, metrics, leaderboard, plots, manifest).")
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
def eval_cmd(dataset: Path, task: str, models: tuple[str, ...], judges: tuple[str, ...],
             shots: tuple[int, ...],
             limit: int | None, out: Path, base_url: str | None, api_key_env: str,
             concurrency: int, rpm: float | None, tpm: float | None, send_files: bool,
             seed: int, no_cache: bool, quiet: bool) -> None:
    """Evaluate models on an exported dataset and write a leaderboard.

    DATASET is the export of the task's build: a `buildds jbe` output folder, its
    dataset/ (save_to_disk) folder or a .parquet file; a `buildds contracts` export for the
    clause tasks; a `buildds judgments` export for appellate-review; a folder of task
    folders for highbar. Writes <out>/<model>/<N>shot/{samples.jsonl,metrics.json,*.png},
    leaderboard.md/.json in the seed's layout, summary plots and manifest.json. Runs into
    the same --out add up (e.g. --shots 0 now, --shots 4 later). Answers are cached in
    <out>/cache/, so an interrupted run resumes.

    \b
    Example:
      buildds eval build/jbe --task jbe --model majority --model tfidf --out build/eval
      buildds eval build/jbe --model openai:gpt-4o --shots 0 --shots 4 --rpm 500 \\
          --out build/eval
      buildds eval build/jbe --model openai:qwen2.5-72b --base-url http://localhost:8000/v1 \\
          --limit 50 --out build/eval-smoke
      buildds eval tasks/ --task highbar --model openai:gpt-4o --judge openai:gpt-4.1 \\
          --judge openai:o3 --send-files --out build/highbar
    """
    from buildds.evaluate.runner import run_eval

    options = {"base_url": base_url, "api_key_env": api_key_env, "concurrency": concurrency,
               "rpm": rpm, "tpm": tpm, "send_files": send_files or None}
    try:
        report = run_eval(dataset, task=task, models=list(models), judges=list(judges),
                          shots=sorted(set(shots)), limit=limit, out=out,
                          backend_options=options, use_cache=not no_cache, seed=seed,
                          quiet=quiet)
    except BuildError as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(report.summary_line())
