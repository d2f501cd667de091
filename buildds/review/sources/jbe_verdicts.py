"""A reviewer's verdicts on JBE items, written as data into the corrections folder the build
reads (``buildds jbe --corrections``, default ``corrections/jbe``).

* A change — a label that is wrong (``reject``: the label flips), an edit of the label, the
  text (``question``, ``theme``, ``lead_in``, ``remark``) or the instruction, an ``exclude`` —
  becomes entries of ``<year>-<subject>.yaml`` in the format
  :mod:`buildds.transform.corrections` loads: ``label`` entries say which label they
  ``expect``, ``text`` entries find the smallest span of the current text that changed (made
  unique in the text), every entry carries the reviewer's ``reason`` and, when the change
  follows a law change, the ``revision``. Entries are appended to the file's text, so its
  comments and older entries stay as they were; the whole file is written atomically.
* Every verdict, ``accept`` included, is also a line of ``reviewed.jsonl`` in the same folder
  (which the build does not read: it loads ``*.yaml`` only), so the queue knows what is done.

A verdict is checked against the item's *version*: a digest of its log lines and of every
YAML entry targeting the item or its question. A write against another version raises
:class:`~.base.StaleVerdict`; the check and the write hold an exclusive lock on the folder.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from buildds.pipeline import atomic_write_text
from buildds.review.sources.base import StaleVerdict, Verdict

__all__ = ["LOG_NAME", "TEXT_FIELDS", "CorrectionsFolder", "entries_for", "text_change"]

LOG_NAME = "reviewed.jsonl"
TEXT_FIELDS = ("question", "theme", "lead_in", "remark")
_HEADER = ("# Corrections written by `buildds review` (format: corrections/jbe/README.md).\n"
           "# Each entry is data the next `buildds jbe` applies; edit or delete by hand freely.\n")
_LOCK = threading.Lock()


def text_change(old: str, new: str) -> tuple[str, str]:
    """The smallest ``(find, replace)`` with ``old.replace(find, replace) == new`` and
    ``find`` occurring once in ``old`` (the common start and end are left out)."""
    p = 0
    while p < min(len(old), len(new)) and old[p] == new[p]:
        p += 1
    s = 0
    while s < min(len(old), len(new)) - p and old[-1 - s] == new[-1 - s]:
        s += 1
    a, b = p, len(old) - s

    def unique(a: int, b: int) -> bool:  # the span occurs at a and nowhere else, overlaps too
        return a < b and old.find(old[a:b]) == a and old.find(old[a:b], a + 1) == -1

    while (a > 0 or b < len(old)) and not unique(a, b):
        if a > 0:
            a -= 1
        if b < len(old) and not unique(a, b):
            b += 1
    return old[a:b], new[a:len(new) - (len(old) - b)]


def entries_for(verdict: Verdict, row: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The corrections entries ``verdict`` makes for the item ``row`` (none for
    ``accept``). Raises ``ValueError`` for a verdict without a reason or that changes
    nothing."""
    if verdict.action == "accept":
        return []
    note = verdict.note.strip()
    if not note:
        raise ValueError(f"a '{verdict.action}' needs a reason (the note)")
    item = str(row["id"])
    entries: list[dict[str, Any]] = []
    if verdict.action == "exclude":
        entries.append({"id": item, "action": "exclude"})
    elif verdict.action == "reject":
        entries.append({"id": item, "action": "label", "expect": row["label"],
                        "label": "N" if row["label"] == "Y" else "Y"})
    elif verdict.action == "edit":
        entries += _edits(item, verdict.changes, row)
        if not entries:
            raise ValueError("the edit changes nothing")
    else:
        raise ValueError(f"unknown action {verdict.action!r}")
    for entry in entries:
        entry["reason"] = note
        if verdict.revision:
            entry["revision"] = verdict.revision
    _validate(entries)
    return entries


def _edits(item: str, changes: Mapping[str, str], row: Mapping[str, Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    unknown = set(changes) - {"label", "instruction", *TEXT_FIELDS}
    if unknown:
        raise ValueError(f"fields that cannot be edited: {', '.join(sorted(unknown))}")
    label = (changes.get("label") or row["label"]).strip()
    if label not in ("Y", "N"):
        raise ValueError(f"label must be Y or N, not {label!r}")
    if label != row["label"]:
        out.append({"id": item, "action": "label", "expect": row["label"], "label": label})
    for name in TEXT_FIELDS:
        if name not in changes:
            continue
        old = row.get(name) or ""
        new = changes[name].replace("\r\n", "\n")
        if new == old:
            continue
        if not old:
            raise ValueError(f"{name} is empty in the build: a correction can only change "
                             "existing text")
        find, replace = text_change(old, new)
        entry = {"id": item, "action": "text", "find": find, "replace": replace}
        out.append(entry if name == "question" else {**entry, "field": name})
    instruction = changes.get("instruction", "").strip()
    if instruction and instruction != row.get("instruction"):
        out.append({"id": item, "action": "instruction", "instruction": instruction})
    return out


def _validate(entries: list[dict[str, Any]]) -> None:
    from pydantic import ValidationError

    from buildds.transform.corrections import Correction

    for entry in entries:
        try:
            Correction(**entry)
        except ValidationError as exc:
            first = exc.errors()[0]
            raise ValueError(f"{'.'.join(str(x) for x in first['loc'])}: {first['msg']}") \
                from exc


class CorrectionsFolder:
    """The corrections folder seen by the review: what is stored per item, and writes."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)

    def _yaml_entries(self) -> list[tuple[str, Any]]:
        """(file name, entry or the file's text when it cannot be parsed) of every file."""
        import yaml

        from buildds.safeio import load_yaml_strict, read_side_file

        found: list[tuple[str, Any]] = []
        for path in sorted(self.folder.glob("*.y*ml")):
            text = read_side_file(path)
            try:
                data = load_yaml_strict(text) or []
            except (yaml.YAMLError, ValueError):  # a broken file: any change to it changes every version
                found.append((path.name, text))
                continue
            found += [(path.name, e) for e in (data if isinstance(data, list) else [data])]
        return found

    def _log(self) -> list[dict[str, Any]]:
        path = self.folder / LOG_NAME
        if not path.is_file():
            return []
        lines = path.read_text(encoding="utf-8").splitlines()
        return [json.loads(line) for line in lines if line.strip()]

    def version(self, key: str, item: str) -> str:
        h = hashlib.sha256()
        for line in self._log():
            if line.get("key") == key:
                h.update(json.dumps(line, sort_keys=True, ensure_ascii=False).encode("utf-8"))
        for name, entry in self._yaml_entries():
            target = entry.get("id") if isinstance(entry, dict) else None
            if not isinstance(entry, dict) or (
                    isinstance(target, str) and (item == target or item.startswith(target + "-"))):
                h.update(name.encode("utf-8"))
                h.update(json.dumps(entry, sort_keys=True, ensure_ascii=False,
                                    default=str).encode("utf-8"))
        return h.hexdigest()[:16]

    def verdict_for(self, key: str) -> Verdict | None:
        last = next((line for line in reversed(self._log()) if line.get("key") == key), None)
        if last is None:
            return None
        return Verdict(key=key, action=last["action"], changes=last.get("changes") or {},
                       note=last.get("note", ""), reviewer=last.get("reviewer", ""),
                       revision=last.get("revision", ""))

    @contextmanager
    def _locked(self) -> Iterator[None]:
        self.folder.mkdir(parents=True, exist_ok=True)
        with _LOCK:
            fd = os.open(self.folder, os.O_RDONLY)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
                yield
            finally:
                os.close(fd)

    def record(self, verdict: Verdict, item: str, entries: list[dict[str, Any]], file_name: str,
               expected_version: str) -> str:
        """Append ``entries`` to ``file_name`` and the verdict to the log, unless the item's
        version is no longer ``expected_version``; return the new version."""
        with self._locked():
            if self.version(verdict.key, item) != expected_version:
                raise StaleVerdict(f"{verdict.key}: changed since you opened it (another tab "
                                   "or person wrote a verdict, or a corrections file changed)")
            origins = self._append_entries(file_name, entries) if entries else []
            line = {"key": verdict.key, "id": item, "action": verdict.action,
                    "changes": dict(verdict.changes), "note": verdict.note.strip(),
                    "reviewer": verdict.reviewer, "revision": verdict.revision,
                    "entries": origins}
            log = self.folder / LOG_NAME
            old = log.read_text(encoding="utf-8") if log.is_file() else ""
            atomic_write_text(log, old + json.dumps(line, ensure_ascii=False, sort_keys=True)
                              + "\n")
            return self.version(verdict.key, item)

    def _append_entries(self, file_name: str, entries: list[dict[str, Any]]) -> list[str]:
        import yaml

        from buildds.safeio import load_yaml_strict

        path = self.folder / file_name
        text = path.read_text(encoding="utf-8") if path.is_file() else _HEADER
        before = load_yaml_strict(text) or []
        if not isinstance(before, list):
            raise ValueError(  # noqa: TRY004 (shown to the reviewer as a 400)
                f"{path}: not a YAML list of entries; fix it by hand first")
        if text and not text.endswith("\n"):
            text += "\n"
        text += "\n" + yaml.safe_dump(entries, allow_unicode=True, sort_keys=False, width=1000)
        atomic_write_text(path, text)
        return [f"{file_name}#{len(before) + n}" for n in range(1, len(entries) + 1)]
