"""Manual corrections as data, applied on every build.

A person never edits an output: they add an entry to a YAML file under
``corrections/jbe/`` and every later build applies it. Each entry names its target by stable
id and says why::

    - id: 令和６年-民法-18-5          # an item id, or a question id (令和６年-民法-18)
      action: text                   # text | label | exclude | instruction
      field: question                # text only: question (default), theme, lead_in, remark
      find: "効力を生じな い"          # text only: the exact current text …
      replace: "効力を生じない"        # … and what it becomes
      reason: extraction split a word across a line break

    - id: 令和６年-民法-18-2
      action: label
      expect: Y                      # the label the build currently produces
      label: N
      reason: the key's answer was misread; official key says 2

    - id: 令和６年-刑法-6
      action: exclude
      reason: every examinee was scored correct

    - id: 令和６年-憲法-3
      action: instruction
      instruction: 最高裁判所の判例の趣旨に照らし記述が正しいか
      reason: stem names a specific judgment

A correction may cite a law revision (``revision: 129AC0000000089_20240401_504AC0000000102``):
it is the review of an item that revision affected, and applies only in an as-of build
(``buildds jbe --as-of DATE``, :mod:`buildds.jobs.jbe_as_of`) to an item whose grounds that
revision changed, on or before DATE — a default build, which stands on the law of the exam,
leaves it out. A ``label`` correction citing a revision must say which label it expects.

A correction whose target no longer matches — the id is gone, ``find`` is not in the text,
``expect`` is not the current label — is **stale**: it is reported with its file and entry,
and never applied silently. A malformed file is an error naming the file.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, Literal, TypeVar

import yaml
from pydantic import Field, ValidationError

from buildds.errors import TransformError
from buildds.safeio import load_yaml_strict, read_side_file
from buildds.schema import Frozen, JbeExclusion, JbeItem
from buildds.schema.jbe_build import StaleCorrection

__all__ = [
    "Correction",
    "StaleCorrection",
    "apply_corrections",
    "correction_entries",
    "corrections_digest",
    "corrections_for",
    "load_corrections",
]

M = TypeVar("M", bound=Frozen)

Action = Literal["text", "label", "exclude", "instruction"]
TextField = Literal["question", "theme", "lead_in", "remark"]


class Correction(Frozen):
    id: str
    action: Action
    reason: str = Field(min_length=1)
    field: TextField = "question"
    find: str | None = None
    replace: str | None = None
    expect: Literal["Y", "N"] | None = None
    label: Literal["Y", "N"] | None = None
    instruction: str | None = None
    #: the law revision (e-Gov revision id) this correction reviews the item for: applied in
    #: as-of builds only
    revision: str | None = Field(default=None, pattern=r"^[0-9A-Za-z-]+_\d{8}_[0-9A-Za-z-]+$")
    #: where it was written: ``<file name>#<entry number from 1>``
    origin: str = ""

    def targets(self, item_id: str) -> bool:
        """An item id matches itself; a question id matches all its items."""
        return item_id == self.id or item_id.startswith(self.id + "-")


def _check(c: Correction) -> None:
    missing = {
        "text": [k for k in ("find", "replace") if getattr(c, k) is None],
        "label": [k for k in ("label",) if getattr(c, k) is None],
        "instruction": [k for k in ("instruction",) if getattr(c, k) is None],
        "exclude": [],
    }[c.action]
    if c.revision is not None and c.action == "label" and c.expect is None:
        missing.append("expect (the label it replaces: a correction citing a revision)")
    if missing:
        raise TransformError(f"entry {c.origin}: action '{c.action}' needs {', '.join(missing)}",
                             source=c.origin.split("#")[0])


def correction_entries(folder: str | Path | None, model: type[M]) -> Iterator[tuple[Path, int, M]]:
    """Every entry of ``folder/*.yaml`` (and ``*.yml``) in file-name order as ``model`` (its
    ``origin`` set to ``<file>#<n>``), with its file and number; a missing folder means none.
    :class:`TransformError` naming the file for one that is not a YAML list of mappings, or
    an entry the model refuses."""
    if folder is None or not Path(folder).is_dir():
        return
    for path in sorted(Path(folder).glob("*.y*ml")):
        try:
            data = load_yaml_strict(read_side_file(path)) or []
        except (OSError, yaml.YAMLError) as exc:
            raise TransformError(f"cannot read corrections: {exc}", source=str(path)) from exc
        if not isinstance(data, list):
            raise TransformError("a corrections file must be a YAML list of entries",
                                 source=str(path))
        for n, entry in enumerate(data, start=1):
            if not isinstance(entry, dict):
                raise TransformError(f"entry {n} is not a mapping", source=str(path))
            try:
                yield path, n, model(**{**entry, "origin": f"{path.name}#{n}"})
            except ValidationError as exc:
                first = exc.errors()[0]
                where = ".".join(str(x) for x in first["loc"])
                raise TransformError(f"entry {n}: {where}: {first['msg']}",
                                     source=str(path)) from exc


def load_corrections(folder: str | Path | None) -> list[Correction]:
    """All entries of ``folder/*.yaml`` in file-name order. A missing folder means none."""
    out: list[Correction] = []
    for _, _, c in correction_entries(folder, Correction):
        _check(c)
        out.append(c)
    return out


def corrections_for(corrections: Iterable[Correction], prefix: str) -> list[Correction]:
    """The entries whose id starts with ``prefix`` (e.g. one booklet's ``令和６年-民法-``),
    leaving out those citing a revision (applied by as-of builds only)."""
    return [c for c in corrections if c.id.startswith(prefix) and c.revision is None]


def corrections_digest(corrections: Sequence[Correction]) -> str:
    """A hash of the entries, for cache keys: editing one booklet's entries redoes only it."""
    h = hashlib.sha256()
    for c in corrections:
        # without a revision, the same bytes as before the field existed (same cache keys)
        h.update(c.model_dump_json(exclude={"revision"} if c.revision is None else None)
                 .encode("utf-8"))
    return h.hexdigest()


def apply_corrections(
    items: Sequence[JbeItem], exclusions: Sequence[JbeExclusion],
    corrections: Sequence[Correction],
) -> tuple[list[JbeItem], list[JbeExclusion], list[StaleCorrection]]:
    """Apply entries in order; return the items, exclusions (with correction exclusions
    added) and every entry that did not apply, with the reason."""
    current: dict[str, JbeItem] = {i.id: i for i in items}
    order = [i.id for i in items]
    excluded = list(exclusions)
    stale: list[StaleCorrection] = []

    def stale_(c: Correction, message: str) -> None:
        stale.append(StaleCorrection(origin=c.origin, id=c.id, action=c.action, message=message))

    for c in corrections:
        targets = [i for i in order if i in current and c.targets(i)]
        if not targets:
            stale_(c, f"no item has id {c.id!r} (it may have been renamed or excluded)")
            continue
        if c.action == "exclude":
            first = current[targets[0]]
            for t in targets:
                del current[t]
            excluded.append(JbeExclusion(id=c.id, subject=first.subject, reason="correction",
                                         message=c.reason, source=first.source, page=first.page))
            continue
        for t in targets:
            item = current[t]
            update: dict[str, Any] | None = None
            if c.action == "text":
                value = getattr(item, c.field) or ""
                assert c.find is not None and c.replace is not None
                if c.find not in value:
                    stale_(c, f"{t}: {c.field} no longer contains {c.find!r}")
                    continue
                update = {c.field: value.replace(c.find, c.replace)}
            elif c.action == "label":
                if c.expect is not None and item.label != c.expect:
                    stale_(c, f"{t}: label is {item.label}, the correction expects {c.expect}")
                    continue
                if item.label == c.label:
                    stale_(c, f"{t}: label is already {c.label}; the correction is not needed")
                    continue
                update = {"label": c.label, "answer": c.label == "Y"}
            elif c.action == "instruction":
                if item.instruction == c.instruction:
                    stale_(c, f"{t}: instruction is already {c.instruction!r}")
                    continue
                update = {"instruction": c.instruction}
            if update is not None:
                update["corrections"] = (*item.corrections, c.origin)
                current[t] = item.model_copy(update=update)
    return [current[i] for i in order if i in current], excluded, stale
