"""The one way buildds parses XML: :func:`safe_parser` loads no DTD, resolves no entity and
touches no network, so an input XML file (a .docx part, an exam XML) can never make buildds
read another file or fetch a URL."""

from __future__ import annotations

from lxml import etree

__all__ = ["safe_parser"]


def safe_parser() -> etree.XMLParser:
    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                           dtd_validation=False, huge_tree=False, remove_blank_text=False)
