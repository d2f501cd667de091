"""The error injectors by error type (E1…E6), and :func:`inject_all`, which runs them.

This is the one module that imports the implementations (``e1_…py`` … ``e6_…py``); their
base, :mod:`buildds.inject_errors.base`, imports none of them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from buildds.inject_errors.base import BaseInjector, InjectionContext, lazy_random
from buildds.inject_errors.e1_erroneous_charge import ErroneousCharge
from buildds.inject_errors.e2_omission_of_charges import OmissionOfCharges
from buildds.inject_errors.e3_term_outside_limits import TermOutsideLimits
from buildds.inject_errors.e4_ignored_factor import IgnoredFactor
from buildds.inject_errors.e5_fixed_fine import FixedFineOutsideLimits
from buildds.inject_errors.e6_proportional_fine import ProportionalFineOutsideLimits
from buildds.schema.judgments import InjectedJudgment, InjectionSkip, Judgment
from buildds.schema.statutes import StatuteProfile

__all__ = ["ALL_ERRORS", "INJECTOR_CLASSES", "inject_all", "injectors"]

ALL_ERRORS: tuple[str, ...] = ("E1", "E2", "E3", "E4", "E5", "E6")

#: the injector classes, in error-type order
INJECTOR_CLASSES: tuple[type[BaseInjector], ...] = (
    ErroneousCharge, OmissionOfCharges, TermOutsideLimits, IgnoredFactor,
    FixedFineOutsideLimits, ProportionalFineOutsideLimits,
)


def injectors(seed: int = 0) -> dict[str, BaseInjector]:
    """One injector per error type."""
    return {cls.error_type: cls(seed) for cls in INJECTOR_CLASSES}


def inject_all(
    judgments: Iterable[Judgment], *, errors: Sequence[str] = ALL_ERRORS,
    profile: StatuteProfile, seed: int = 0, corpus: Sequence[Judgment] | None = None,
) -> tuple[list[InjectedJudgment], list[InjectionSkip]]:
    """Every (judgment, error type) injection; each gets its own
    ``random.Random(f"{seed}:{judgment.id}:{etype}")`` so results do not depend on order
    (seeded lazily: :func:`lazy_random`)."""
    ctx = InjectionContext(profile=profile, corpus=corpus)
    table = injectors(seed)
    unknown = [e for e in errors if e not in table]
    if unknown:
        raise ValueError(f"unknown error types: {unknown}")
    done: list[InjectedJudgment] = []
    skipped: list[InjectionSkip] = []
    for judgment in judgments:
        for etype in errors:
            rng = lazy_random(f"{seed}:{judgment.id}:{etype}")
            result = table[etype].inject(judgment, rng, ctx)
            (done if isinstance(result, InjectedJudgment) else skipped).append(result)  # type: ignore[arg-type]
    return done, skipped
