"""YAML as an input: ``yaml.safe_load`` (no tags that build objects) without anchors and
aliases. Aliases let a few hundred bytes stand for billions of nodes ("billion laughs"):
safe_load shares them, but everything that walks the result afterwards — pydantic
validation, a dump, a comparison — pays for every copy. Nothing buildds reads needs them.

Errors are ``yaml.YAMLError`` subclasses, so callers that already report YAML errors with
their file name handle these the same way.
"""

from __future__ import annotations

from typing import Any

import yaml

__all__ = ["YamlAliasError", "load_yaml_strict"]


class YamlAliasError(yaml.YAMLError):
    """The document uses an alias (``*name``), which buildds does not accept."""


class _NoAliasLoader(yaml.SafeLoader):
    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.events.AliasEvent):
            event = self.peek_event()
            mark = event.start_mark
            raise YamlAliasError(f"line {mark.line + 1}: YAML aliases (*{event.anchor}) are "
                                 "not accepted; write the value out")
        return super().compose_node(parent, index)


def load_yaml_strict(text: str | bytes) -> Any:
    """The YAML value of ``text``; :class:`YamlAliasError` when it uses an alias."""
    return yaml.load(text, Loader=_NoAliasLoader)
