"""The ``highbar`` task (seed 002, "The High Bar"): native-format legal tasks defined as data,
graded on lawyer-authored binary criteria by two judges (``--judge``), with escalation to a
lawyer, and on form by a different pair (``--form-judge``).

* :mod:`.taskset` — loading and validating a task-set folder;
* :mod:`.formats` — the task set's files and their YAML schemas (criteria, reviews …);
* :mod:`.files` — reading those files and the source documents safely;
* :mod:`.judging` — judge prompts, strict verdict parsing, disagreements and escalations;
* :mod:`.escalations` — the disagreement log and the blind escalation entries of an answer;
* :mod:`.scoring` — criteria met, pass rate, the High Bar subset, attempt-based pass rate;
* :mod:`.report` — the leaderboard in the seed's layout, and plots;
* :mod:`.task` — :class:`HighBarTask`, what the runner uses.

The file formats are described in :mod:`.formats` (task set, criteria, reviews) and
:mod:`.judging` (verdicts, escalations).
"""

from buildds.evaluate.tasks.highbar.task import HighBarTask
from buildds.evaluate.tasks.highbar.taskset import TaskSet, load_taskset

__all__ = ["HighBarTask", "TaskSet", "load_taskset"]
