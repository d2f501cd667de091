"""Statute profiles as data (AR-Bench, seed 003): per article/charge, sentencing tiers with
their conditions and fine rules, versioned with the law's effective date.

Records are added here by the statute-profile stage (buildds/inject_errors/statutes.py)."""

from __future__ import annotations

__all__: list[str] = []
