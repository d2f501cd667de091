"""Task files for the evaluation runners people already use, shipped with every export:
``inspect/<task>.py`` (inspect_ai) and ``lm_eval/<task>.yaml`` with ``lm_eval/utils.py``
(lm-eval), each evaluating the export as ``buildds eval`` does — the same prompts (rendered
from buildds' own templates, embedded), the same exemplars, the same answer parser and the
same metrics — with nothing of buildds imported, so that they run where only the peer is
installed. :func:`peer_task_files` renders them from the templates in ``templates/``; the
jobs hand them to the export writers, which write them beside ``data/`` (the files read the
export's ``data/*.parquet`` relative to themselves).

Tasks with task files: ``jbe`` (zero- and four-shot). The tests run both peers against a
local OpenAI-compatible server and check that their per-sample answers and scores equal
buildds' (tests/evaluate/peers/).
"""

from buildds.evaluate.peers.render import PEER_TASKS, peer_task_files

__all__ = ["PEER_TASKS", "peer_task_files"]
