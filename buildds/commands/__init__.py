"""click commands of buildds, one module per command; :mod:`buildds.cli` registers them.

Each command parses its options, calls one function of :mod:`buildds.jobs` (or of
:mod:`buildds.evaluate.runner`, :mod:`buildds.fetch`) and maps errors to exit codes.
This package itself exports nothing: :mod:`buildds.cli` imports the modules.
"""

__all__: list[str] = []
