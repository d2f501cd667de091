"""The built-in field mappings of the judgment corpora buildds knows (:data:`BUILTIN_MAPS`:
``judge``, ``cail``, ``lecard``, ``caseformer``), a user's mapping read from YAML
(:func:`load_field_map`), and the choice for ``--input-format NAME|FILE.yaml``
(:func:`resolve_field_map`).

A mapping file is one YAML object with the fields of
:class:`~buildds.schema.judgment_fields.JudgmentFieldMap`, e.g.::

    name: mycourt
    detect: [doc_id, body]
    id: doc_id
    full_text: body
    facts: sections.facts
    reasoning: sections.reasoning
    judgment: sections.operative
    procedure: doc_type
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import ValidationError

from buildds.errors import BuildError
from buildds.schema.judgment_fields import JudgmentFieldMap

__all__ = ["BUILTIN_MAPS", "field_value", "load_field_map", "resolve_field_map"]

#: the built-in mappings, in the order detection tries them
BUILTIN_MAPS: dict[str, JudgmentFieldMap] = {m.name: m for m in (
    JudgmentFieldMap(
        name="judge", reader="judge", detect=("fd", "text_id"), detect_mode="any",
        description="JuDGE (Su et al. 2025): {text_id, text, la, fd}",
        id="text_id", case_key="text_id", full_text="fd", facts="text"),
    JudgmentFieldMap(
        name="cail", reader="cail", detect=("fact", "meta"),
        description="CAIL2018: {fact, meta{accusation, term_of_imprisonment, …}}",
        facts="fact", charges="meta.accusation"),
    JudgmentFieldMap(
        name="lecard", detect=("ajId", "qw", "pjjg"),
        description="LeCaRD candidates (Ma et al. 2021): {ajId, ajName, ajjbqk, cpfxgc, pjjg, "
                    "qw, writId, writName, …}",
        id="writId", case_key="ajId", full_text="qw", facts="ajjbqk", reasoning="cpfxgc",
        judgment="pjjg", charges="crime", procedure="writName"),
    JudgmentFieldMap(
        name="caseformer", detect=("id", "fact", "reason", "result", "content"),
        description="Caseformer demo (Su et al. 2023): {id, type, program, claim, fact, "
                    "reason, result, content}",
        id="id", case_key="id", full_text="content", facts="fact", reasoning="reason",
        judgment="result", procedure="program"),
)}


def field_value(record: Any, path: str) -> Any:
    """The value at a dotted ``path`` of a JSON record (None when any step is missing)."""
    for key in path.split("."):
        if not isinstance(record, dict):
            return None
        record = record.get(key)
    return record


def load_field_map(path: str | Path) -> JudgmentFieldMap:
    """A user's mapping from a YAML file (read strictly: no aliases, within the side-file
    limit); :class:`BuildError` naming the file and the field when it is not one."""
    import yaml

    from buildds.errors import ExtractError
    from buildds.safeio import load_yaml_strict
    from buildds.safeio.files import read_side_file

    where = str(path)
    try:
        data = load_yaml_strict(read_side_file(path))
    except ExtractError as exc:
        raise BuildError(f"the field mapping cannot be read: {exc.message}", source=where) \
            from None
    except yaml.YAMLError as exc:
        raise BuildError(f"the field mapping is not valid YAML: {exc}", source=where) from None
    if not isinstance(data, dict):
        raise BuildError("the field mapping must be a YAML object (name, detect, id, "
                         "full_text, facts, reasoning, judgment, …)", source=where)
    try:
        fmap = JudgmentFieldMap.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'mapping'}: {e['msg']}"
                             for e in exc.errors())
        raise BuildError(f"not a field mapping: {problems}", source=where) from None
    if fmap.reader != "mapped":
        raise BuildError(f"reader {fmap.reader!r} is a built-in corpus's own reader: use "
                         f"--input-format {fmap.reader}, or declare the parts (reader: mapped)",
                         source=where)
    return fmap


def resolve_field_map(choice: str | Path | None) -> JudgmentFieldMap | None:
    """``--input-format``: None (detect per file), a built-in name, or a YAML file."""
    if choice is None:
        return None
    text = str(choice)
    if text in BUILTIN_MAPS:
        return BUILTIN_MAPS[text]
    if text.endswith((".yaml", ".yml")) or Path(text).is_file():
        return load_field_map(text)
    raise BuildError(f"unknown input format {text!r}: choose {', '.join(BUILTIN_MAPS)} or a "
                     "mapping file (FILE.yaml)")
