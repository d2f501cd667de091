"""transform stage."""
