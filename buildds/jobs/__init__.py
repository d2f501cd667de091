"""Whole builds: one function per CLI command, composing the stages."""
