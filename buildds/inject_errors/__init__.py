"""inject_errors stage."""
