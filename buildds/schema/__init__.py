"""Every record type buildds passes between stages — one package, one module per domain.

Stages import records from ``buildds.schema``; they never redefine them.

* :mod:`.core` — provenance, problems, PDF text, the JBE exam and its items;
* :mod:`.jbe_build` — what a ``buildds jbe`` run passes between its stages and reports (a
  booklet's build result, missing pairs, rejects, totals, stale corrections);
* :mod:`.contracts` — normalised contract documents (blocks, tracked changes, comments) and
  clauses;
* :mod:`.judgments` — criminal judgments and injected errors; :mod:`.arbench` — the
  AR-Bench row made from them; :mod:`.judgments_report` — what a ``buildds judgments`` run
  reports and rejects (input entries, counts, rejects); :mod:`.judgment_fields` — where a
  judgments corpus keeps each part (a declared field mapping);
  reports and rejects (input entries, counts, rejects); :mod:`.shortcut_audit` — how well
  surface cues alone tell its injected rows from untouched ones;
* :mod:`.laws` — statutes in versions: articles, versions keyed by enforcement date,
  changes between versions;
* :mod:`.statutes` — statute profiles (sentencing tiers, fine rules);
* :mod:`.evaluation` — backend requests/results and scored samples; :mod:`.model_endpoints`
  — each evaluated model's and judge's endpoint and key variable (``buildds eval --models``);
* :mod:`.dataset_diff` — two exports compared item by item (``buildds diff``).
"""

from buildds.schema.arbench import *
from buildds.schema.arbench import __all__ as _arbench_all
from buildds.schema.contracts import *
from buildds.schema.contracts import __all__ as _contracts_all
from buildds.schema.core import *
from buildds.schema.core import __all__ as _core_all
from buildds.schema.dataset_diff import *
from buildds.schema.dataset_diff import __all__ as _dataset_diff_all
from buildds.schema.evaluation import *
from buildds.schema.evaluation import __all__ as _evaluation_all
from buildds.schema.jbe_build import *
from buildds.schema.jbe_build import __all__ as _jbe_build_all
from buildds.schema.judgment_fields import *
from buildds.schema.judgment_fields import __all__ as _judgment_fields_all
from buildds.schema.judgments import *
from buildds.schema.judgments import __all__ as _judgments_all
from buildds.schema.judgments_report import *
from buildds.schema.judgments_report import __all__ as _judgments_report_all
from buildds.schema.laws import *
from buildds.schema.laws import __all__ as _laws_all
from buildds.schema.model_endpoints import *
from buildds.schema.model_endpoints import __all__ as _model_endpoints_all
from buildds.schema.shortcut_audit import *
from buildds.schema.shortcut_audit import __all__ as _shortcut_audit_all
from buildds.schema.statutes import *
from buildds.schema.statutes import __all__ as _statutes_all

__all__ = [  # noqa: PLE0604
    *_core_all, *_jbe_build_all, *_contracts_all, *_judgments_all, *_arbench_all,
    *_judgments_report_all, *_judgment_fields_all, *_laws_all, *_statutes_all, *_evaluation_all,
    *_dataset_diff_all, *_shortcut_audit_all,
    *_model_endpoints_all]
