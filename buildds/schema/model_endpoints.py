"""Where each model and judge of an evaluation is asked (``buildds eval --models FILE``):
one :class:`ModelEndpoint` per backend spec, with its own OpenAI-compatible endpoint, the
name of the environment variable holding its key (never the key) and its own limits, so a
run can ask a model on a local vLLM server and judges on two different APIs."""

from __future__ import annotations

import re

from pydantic import Field, field_validator

from buildds.schema.core import Frozen

__all__ = ["ModelEndpoint", "ModelsFile"]

_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class ModelEndpoint(Frozen):
    """One model or judge: ``name`` is its spec as given to ``--model``, ``--judge`` or
    ``--form-judge`` (``openai:gpt-4o``); what is not set comes from the command line
    (``--base-url``, ``--api-key-env``, ``--rpm`` …)."""

    name: str = Field(min_length=1)
    base_url: str | None = None
    #: the environment variable holding the API key, e.g. ``OPENAI_API_KEY``
    api_key_env: str | None = None
    rpm: float | None = Field(default=None, gt=0)
    tpm: float | None = Field(default=None, gt=0)
    concurrency: int | None = Field(default=None, ge=1)
    #: seconds one try may take (``--timeout``)
    timeout: float | None = Field(default=None, gt=0)

    @field_validator("api_key_env")
    @classmethod
    def _env_name(cls, value: str | None) -> str | None:
        # the message never repeats the value: a key pasted here by mistake stays unshown
        if value is not None and not _ENV_NAME.fullmatch(value):
            raise ValueError("must be the name of an environment variable (letters, digits "
                             "and _), not the key itself")
        return value

    def backend_options(self) -> dict[str, object]:
        """The options it sets, under the names the backends take (``timeout_s`` …)."""
        named = {"base_url": self.base_url, "api_key_env": self.api_key_env, "rpm": self.rpm,
                 "tpm": self.tpm, "concurrency": self.concurrency, "timeout_s": self.timeout}
        return {k: v for k, v in named.items() if v is not None}


class ModelsFile(Frozen):
    """A models file: ``models:``, a list of :class:`ModelEndpoint` (names unique)."""

    models: tuple[ModelEndpoint, ...] = ()

    @field_validator("models")
    @classmethod
    def _unique(cls, value: tuple[ModelEndpoint, ...]) -> tuple[ModelEndpoint, ...]:
        names = [m.name for m in value]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ValueError(f"{', '.join(twice)} listed more than once")
        return value
