"""validate stage: pandera models plus checks over exported datasets, and a report.

* :mod:`buildds.validate.schemas` — :class:`JbeItemsModel` (pandera ``DataFrameModel``);
* :mod:`buildds.validate.checks` — artefacts, duplicates, exclusions;
* :mod:`buildds.validate.balance` — label balance (true share per year × subject);
* :mod:`buildds.validate.report` — :func:`validate_jbe` → :class:`ValidationReport`,
  :func:`write_report` (``report.json`` + ``report.md``, rendered by
  :mod:`buildds.validate.markdown`);
* :mod:`buildds.validate.load` — :func:`load_export` reads an export for ``buildds validate``;
* :mod:`buildds.validate.arbench` — the AR-Bench rows' checks (against their statute version);
* :mod:`buildds.validate.other_exports` — ``buildds validate`` on an AR-Bench or contracts
  export (ids, empty texts, the AR-Bench row schema, the data fingerprint);
* :mod:`buildds.validate.export_splits`, :mod:`buildds.validate.dataset_diff`,
  :mod:`buildds.validate.dataset_diff_report` — ``buildds diff``: two exports compared item by
  item.
"""

from buildds.validate.balance import DEFAULT_BALANCE_BOUNDS
from buildds.validate.checks import ErrorEntry, FlagEntry
from buildds.validate.load import LoadedExport, load_export
from buildds.validate.report import ValidationReport, items_frame, validate_jbe, write_report
from buildds.validate.schemas import JbeItemsModel

__all__ = [
    "DEFAULT_BALANCE_BOUNDS",
    "ErrorEntry",
    "FlagEntry",
    "JbeItemsModel",
    "LoadedExport",
    "ValidationReport",
    "items_frame",
    "load_export",
    "validate_jbe",
    "write_report",
]
