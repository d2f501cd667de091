"""YAML as an input: ``yaml.safe_load`` (no tags that build objects) without anchors and
aliases, and no deeper than the ``yaml_depth`` limit (deep nesting would otherwise end in a
``RecursionError`` inside the composer). Aliases let a few hundred bytes stand for billions of nodes ("billion laughs"):
safe_load shares them, but everything that walks the result afterwards — pydantic
validation, a dump, a comparison — pays for every copy. Nothing buildds reads needs them.

Errors are ``yaml.YAMLError`` subclasses, so callers that already report YAML errors with
their file name handle these the same way.
"""

from __future__ import annotations

from typing import Any

import yaml

from buildds.safeio.limits import LIMITS

__all__ = ["YamlAliasError", "YamlDepthError", "load_yaml_strict"]


class YamlAliasError(yaml.YAMLError):
    """The document uses an alias (``*name``), which buildds does not accept."""


class YamlDepthError(yaml.YAMLError):
    """The document nests deeper than the ``yaml_depth`` limit."""


class _StrictLoader(yaml.SafeLoader):
    _depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        event = self.peek_event()
        mark = event.start_mark
        if isinstance(event, yaml.events.AliasEvent):
            raise YamlAliasError(f"line {mark.line + 1}: YAML aliases (*{event.anchor}) are "
                                 "not accepted; write the value out")
        limit = LIMITS["yaml_depth"]
        if self._depth >= limit.default:
            raise YamlDepthError(f"line {mark.line + 1}: nesting deeper than the limit of "
                                 f"{limit.default} levels (raise it with "
                                 f"{limit.how_to_raise})")
        self._depth += 1
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


def load_yaml_strict(text: str | bytes) -> Any:
    """The YAML value of ``text``; :class:`YamlAliasError` when it uses an alias."""
    return yaml.load(text, Loader=_StrictLoader)
