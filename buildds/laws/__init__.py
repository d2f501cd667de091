"""Statutes in versions: read statute files into articles (:mod:`buildds.schema.laws`), keep
them in a store keyed by enforcement date, and compare versions.

Sits above ``transform`` and below ``inject_errors`` (tests/import_graph.py): the JBE jobs
and the statute profiles of ``inject_errors`` may use it; it uses only the floors below.
"""

__all__: list[str] = []
