"""Criminal judgments, statute profiles and injected errors (AR-Bench, seed 003).

Records are added here by the judgments and error-injection stages."""

from __future__ import annotations

__all__: list[str] = []
