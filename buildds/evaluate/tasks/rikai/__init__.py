"""The LegalRikai task family (seed 000): clause classification (条文分類) and clause revision
(条文修正) over a ``buildds contracts`` export.

* :mod:`.data` — loading the export (:func:`load_rikai_data`, :class:`RikaiData`);
* :mod:`.classification` — :class:`ClauseClassificationTask`: prompt, answer parser, scorer;
  :mod:`.classification_report` — its leaderboard and plots;
* :mod:`.revision` — :class:`ClauseRevisionTask`: prompt, demonstrations, answers;
  :mod:`.revision_judging` — the judge prompt, verdict parser and scorer;
  :mod:`.revision_report` — its leaderboard and plots.

Both task modules have functions of the same names (``build_requests``, ``parse_output``,
``render_leaderboard`` …): import those from the task's module.
"""

from buildds.evaluate.tasks.rikai.classification import ClauseClassificationTask
from buildds.evaluate.tasks.rikai.data import RikaiData, load_rikai_data
from buildds.evaluate.tasks.rikai.revision import ClauseRevisionTask

__all__ = ["ClauseClassificationTask", "ClauseRevisionTask", "RikaiData", "load_rikai_data"]
