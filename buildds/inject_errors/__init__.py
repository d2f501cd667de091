"""The inject_errors stage: AR-Bench errors (E1…E6) injected into parsed judgments.

Modules, lowest first (each imports only those above it in this list, and none imports an
injector except :mod:`.registry`):

- :mod:`.statutes` — statute profiles parsed from the law text (and as YAML:
  :mod:`.statutes.profile_yaml`);
- :mod:`.edits` — span edits on a judgment's text: apply, undo, make deletions;
- :mod:`.cn_format` — terms and amounts written in the style of the text they replace;
- :mod:`.date_notes` — the 刑期 date note (即自…起至…止): read, end date for a new term,
  dates in the note's own style; the days a term carries;
- :mod:`.consistency` — :func:`check_consistency`, the text-only contradictions of a
  judgment part (date note vs term, 缓刑, combined term and fine, fine mentions);
- :mod:`.base` — the :class:`Injector` protocol, :class:`BaseInjector`, :class:`SkipInjection`,
  :class:`InjectionContext` and the seeded rng (:func:`lazy_random`);
- :mod:`.tiers` — a charge's profile and the sentencing tier a judgment falls in;
- :mod:`.dependents` — a new term or fine with everything that depends on it (date note,
  days, 缓刑 rules, every mention of the fine), or a skip;
- :mod:`.charge_articles` — a charge's article in the citation list swapped for another's;
- :mod:`.fine_base` — the base amount (违法所得, 销售金额 …) a proportional fine is reckoned on;
- :mod:`.sentence_edits` — the charge, term and fine helpers the injectors share;
- :mod:`.corpus_prior`, :mod:`.charge_balance` — values drawn as the corpus's judgments carry
  them, and E1's target charges planned so the injected names follow the originals (issue 13);
- :mod:`.combined_sentence`, :mod:`.omission_judgment_part`, :mod:`.omission_reasoning` — the
  数罪并罚 block (per-charge clauses, combined sentence, 刑期 note) and the judgment-part and
  reasoning edits that E2 makes with it;
- ``e1_…py`` … ``e6_…py`` — one injector per error type;
- :mod:`.registry` — the injectors by error type, :func:`inject_all`;
- :mod:`.arbench_rows` — the AR-Bench rows and task splits made from the injected judgments.
"""

from __future__ import annotations

from buildds.inject_errors.base import (
    BaseInjector,
    InjectionContext,
    Injector,
    Plan,
    SkipInjection,
    lazy_random,
)
from buildds.inject_errors.consistency import check_consistency
from buildds.inject_errors.edits import SpanEditError, apply_edits, undo_edits
from buildds.inject_errors.registry import ALL_ERRORS, inject_all, injectors

__all__ = [
    "ALL_ERRORS",
    "BaseInjector",
    "InjectionContext",
    "Injector",
    "Plan",
    "SkipInjection",
    "SpanEditError",
    "apply_edits",
    "check_consistency",
    "inject_all",
    "injectors",
    "lazy_random",
    "undo_edits",
]
