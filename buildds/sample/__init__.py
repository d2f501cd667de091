"""A small sample exam written by the project, typeset to PDF (booklets + answer keys)."""
