"""click commands of buildds, one module per command; :mod:`buildds.cli` registers them."""
