"""The models file of ``buildds eval --models FILE.yaml``: each model's and judge's own
endpoint, key variable and limits (:class:`~buildds.schema.model_endpoints.ModelEndpoint`).

Format (YAML, read with :func:`buildds.safeio.load_yaml_strict`: no aliases, no tags)::

    models:
      - name: openai:qwen2.5-72b          # the spec given to --model / --judge / --form-judge
        base_url: http://localhost:8000/v1
        api_key_env: VLLM_API_KEY          # the variable's name, never the key
        concurrency: 64
      - name: openai:gpt-4.1
        base_url: https://api.openai.com/v1
        api_key_env: OPENAI_API_KEY
        rpm: 500                           # optional: rpm, tpm, concurrency, timeout (s)

A spec without an entry uses the command line's ``--base-url`` / ``--api-key-env`` / limits
(the shorthand); an entry overrides only what it sets. Entries no spec of the run names are
ignored, so one file can serve many runs; a name that is not a backend spec (``gpt-4o``
for ``openai:gpt-4o``) is an error, as it could never match.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError

from buildds.errors import BuildError
from buildds.schema.model_endpoints import ModelEndpoint, ModelsFile

__all__ = ["load_models_file"]


def _where(loc: tuple[int | str, ...], data: object) -> str:
    """``models[1] (openai:x).rpm`` for a pydantic error location."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
            entries = data.get("models") if isinstance(data, dict) else None
            if isinstance(entries, list) and part < len(entries) \
                    and isinstance(entries[part], dict) and "name" in entries[part]:
                out += f" ({entries[part]['name']})"
        else:
            out += ("." if out else "") + str(part)
    return out


def load_models_file(path: str | Path) -> dict[str, ModelEndpoint]:
    """spec → its entry; a :class:`BuildError` naming the file (and the entry or line) for
    a file that cannot be read or is not a models file."""
    import yaml

    from buildds.safeio import load_yaml_strict

    path = Path(path)
    try:
        data = load_yaml_strict(path.read_bytes())
    except OSError as exc:
        raise BuildError(f"{path}: cannot read the models file ({exc.strerror or exc})"
                         ) from None
    except yaml.YAMLError as exc:
        raise BuildError(f"{path}: not valid YAML: {exc}") from None
    if not isinstance(data, dict):
        raise BuildError(f"{path}: a models file is a mapping with a 'models:' list "
                         "(see buildds eval --help)")
    try:
        parsed = ModelsFile.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        msg = str(first["msg"]).removeprefix("Value error, ")
        raise BuildError(f"{path}: {_where(first['loc'], data)}: {msg}") from None
    from buildds.evaluate.backends.registry import check_spec

    for i, m in enumerate(parsed.models):  # "gpt-4o" for "openai:gpt-4o" would never match
        try:
            check_spec(m.name)
        except BuildError as exc:
            raise BuildError(f"{path}: models[{i}] ({m.name}): name must be a backend spec as "
                             f"given to --model/--judge: {exc.message}") from None
    return {m.name: m for m in parsed.models}
