"""AR-Bench appellate review (seed 003): detection, classification and correction.

Modules: :mod:`.task` (:class:`~.task.AppellateReviewTask`), :mod:`.parse` (answers),
:mod:`.score`, :mod:`.metrics`, :mod:`.report`.
"""

from buildds.evaluate.tasks.appellate_review.task import AppellateReviewTask

__all__ = ["AppellateReviewTask"]
