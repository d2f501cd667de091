"""buildds: legal-LLM benchmark datasets from the documents lawyers really handle."""

__version__ = "0.1.0"

__all__ = ["__version__"]
