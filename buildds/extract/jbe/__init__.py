"""Japanese bar-exam booklets and answer keys (PDF) → structured questions and answer rows.

Modules: :mod:`.raw` (find and check the files of a year), :mod:`.header` (what a booklet says
it is), :mod:`.booklet` (questions, statements, options), :mod:`.answers` (the answer key).
"""
