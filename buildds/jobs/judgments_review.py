"""The reviewer's side of ``buildds judgments``: ``--review-sample N`` writes N seeded rows
per error type under ``review/`` (:func:`buildds.export.review_sample.review_files`), and
``--review-verdicts FILE.csv`` — a reviewer's verdicts, data applied on every build — gives
the validity rate per error type in ``report.md`` and the dataset card.

:func:`review_options` reads the verdicts before any work (a bad file fails the run at once)
and records both options, with the verdicts file's hash, in the run's options (so in the
build fingerprint: new verdicts rebuild the card); :func:`apply_review` checks the verdicts'
ids against the rows, computes the rates into the report and stages the sample files.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from buildds.errors import BuildError, ExtractError

if TYPE_CHECKING:
    from buildds.jobs.judgments_inputs import JudgmentsRun
    from buildds.schema.arbench import ArbenchRow
    from buildds.schema.review import ReviewVerdict
    from buildds.staging import OutputStaging

__all__ = ["apply_review", "review_options"]


def review_options(options: dict[str, Any], sample: int | None, verdicts: Path | None
                   ) -> list[ReviewVerdict] | None:
    """The verdicts of ``verdicts`` (None without one); both options go into ``options``
    only when given, so a build without them keeps its fingerprint. :class:`BuildError`
    naming the file and line for a bad verdicts file."""
    from buildds.extract.review_verdicts import read_verdicts
    from buildds.jobs.judgments_inputs import sha256_regular
    from buildds.safeio.names import printable_name

    if sample is not None:
        if sample < 1:
            raise BuildError(f"--review-sample must be at least 1 (got {sample})")
        options["review_sample"] = sample
    if verdicts is None:
        return None
    try:
        found = read_verdicts(verdicts)
        digest = sha256_regular(verdicts)
    except OSError as exc:
        raise BuildError(f"cannot read the verdicts file ({exc.strerror or exc})",
                         source=str(verdicts)) from None
    except ExtractError as exc:
        raise BuildError(exc.message, source=exc.source or str(verdicts)) from exc
    options["review_verdicts"] = {"file": printable_name(Path(verdicts).name), "sha256": digest}
    return found


def apply_review(run: JudgmentsRun, rows: Sequence[ArbenchRow], staging: OutputStaging, *,
                 sample: int | None, verdicts: list[ReviewVerdict] | None,
                 verdicts_path: Path | None, lang: str = "zh") -> None:
    """Step "review": the validity rates of ``verdicts`` into ``run.report.review`` (every id
    must be an injected row of ``rows``: :class:`BuildError` naming the file and line), and
    the sample files under ``review/`` when ``sample`` is given."""
    from buildds.export.review_sample import (
        REVIEW_DIR,
        review_files,
        review_sample,
        validity_rates,
    )
    from buildds.extract.review_verdicts import check_verdict_ids

    if verdicts is not None:
        types = {r.id: r.error_type for r in rows if r.label == 1}
        try:
            check_verdict_ids(verdicts, types, source=verdicts_path)
        except ExtractError as exc:
            raise BuildError(exc.message, source=exc.source) from exc
        run.report.review = [r.model_dump() for r in validity_rates(verdicts, types)]
    if sample is None:  # a sample an earlier build wrote is not this build's
        for name in ("review_sample.md", "review_sample.html", "verdicts_template.csv"):
            staging.remove(run.out / REVIEW_DIR / name)
    else:
        available: dict[str, int] = dict(Counter(r.error_type for r in rows if r.label == 1))
        files = review_files(review_sample(rows, sample, run.seed), seed=run.seed, n=sample,
                             available=available, lang=lang)
        for name, text in files.items():
            staging.write_text(run.out / REVIEW_DIR / name, text)
