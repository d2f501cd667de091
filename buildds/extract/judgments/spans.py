"""Spans of a judgment's text built by the parsers (:func:`make_span`)."""

from __future__ import annotations

from buildds.schema.judgments import Span

__all__ = ["make_span"]


def make_span(text: str, start: int, end: int, offset: int) -> Span:
    """The span of ``text[start:end]`` shifted by ``offset``. Consistent by construction
    (its text is the slice; start ≤ end ≤ len(text) for a match), so it skips the validator:
    thousands are built per file. The Judgment still checks every span against its text."""
    if not 0 <= start <= end <= len(text):
        raise ValueError(f"span [{start}, {end}) outside a text of {len(text)} characters")
    return Span.model_construct(start=start + offset, end=end + offset, text=text[start:end])

