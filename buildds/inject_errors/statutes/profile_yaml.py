"""Statute profiles as YAML data: :func:`write_profile_yaml` / :func:`load_profile_yaml`.

Profiles are generated from the law text by :mod:`buildds.inject_errors.statutes` at build or
test time (the text lives in ../shared); no generated YAML is committed, so it cannot go stale.
The YAML is the pydantic JSON dump, so a loaded profile equals the written one.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from buildds.safeio import load_yaml_strict, read_side_file
from buildds.schema.statutes import StatuteProfile

__all__ = ["load_profile_yaml", "write_profile_yaml"]


def write_profile_yaml(profile: StatuteProfile, path: Path | str) -> Path:
    """Write ``profile`` as UTF-8 YAML (keys in schema order, CJK unescaped); returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = profile.model_dump(mode="json")
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=120), encoding="utf-8")
    return path


def load_profile_yaml(path: Path | str) -> StatuteProfile:
    """Read a profile written by :func:`write_profile_yaml` (validated on load)."""
    data = load_yaml_strict(read_side_file(path))
    return StatuteProfile.model_validate(data)
