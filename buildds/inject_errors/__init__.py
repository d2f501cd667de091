"""The inject_errors stage: AR-Bench errors (E1…E6) injected into parsed judgments.

Modules, lowest first (each imports only those above it in this list, and none imports an
injector except :mod:`.registry`):

- :mod:`.statutes` — statute profiles parsed from the law text (and as YAML:
  :mod:`.statutes.profile_yaml`);
- :mod:`.edits` — span edits on a judgment's text: apply, undo, make deletions;
- :mod:`.cn_format` — terms and amounts written in the style of the text they replace;
- :mod:`.base` — the :class:`Injector` protocol, :class:`BaseInjector`, :class:`SkipInjection`,
  :class:`InjectionContext` and the seeded rng (:func:`lazy_random`);
- :mod:`.tiers` — a charge's profile and the sentencing tier a judgment falls in;
- :mod:`.sentence_edits` — the charge, term and fine helpers the injectors share;
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
    "inject_all",
    "injectors",
    "lazy_random",
    "undo_edits",
]
