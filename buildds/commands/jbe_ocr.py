"""The OCR options of ``buildds jbe``: how scanned booklets are read and which items flagged.

``--ocr-lang``, ``--ocr-dpi``, ``--ocr-psm``, ``--ocr-flag-below`` and ``--ocr-word-floor``
are added by :func:`ocr_options` and read back by :func:`ocr_settings`, so the command's own
signature does not grow; they matter only for pages without a text layer (see
:mod:`buildds.jobs.jbe_ocr`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from buildds.jobs.jbe_ocr import OcrSettings

__all__ = ["ocr_options", "ocr_settings"]

_KEY = "buildds.jbe.ocr"
_LANG = re.compile(r"^[A-Za-z0-9_]+(?:\+[A-Za-z0-9_]+)*$")


def _keep(name: str) -> Callable[[click.Context, click.Parameter, Any], Any]:
    def callback(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
        if name == "lang" and not _LANG.match(value):
            raise click.BadParameter(f"{value!r} is not a tesseract language (jpn, jpn+eng)",
                                     param_hint="'--ocr-lang'")
        ctx.meta.setdefault(_KEY, {})[name] = value
        return value
    return callback


def ocr_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Decorate a click command with the OCR options (values kept in ``ctx.meta``)."""
    options = [
        click.option("--ocr-lang", default="jpn", show_default=True, expose_value=False,
                     callback=_keep("lang"),
                     help="tesseract language(s) for pages without a text layer (jpn+eng …)."),
        click.option("--ocr-dpi", type=click.IntRange(72, 1200), default=300,
                     show_default=True, expose_value=False, callback=_keep("dpi"),
                     help="Resolution scanned pages are rendered at for OCR."),
        click.option("--ocr-psm", type=click.IntRange(0, 13), default=6, show_default=True,
                     expose_value=False, callback=_keep("psm"),
                     help="tesseract page segmentation mode (6: one block; 3 or 4 for "
                          "multi-column pages)."),
        click.option("--ocr-flag-below", type=click.FloatRange(0, 100), default=90.0,
                     show_default=True, expose_value=False, callback=_keep("flag_below"),
                     help="Flag an OCR'd item in report.md/report.json when its mean word "
                          "confidence is below this."),
        click.option("--ocr-word-floor", type=click.FloatRange(0, 100), default=40.0,
                     show_default=True, expose_value=False, callback=_keep("word_floor"),
                     help="Flag an OCR'd item when one of its words was read with less "
                          "confidence than this."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def ocr_settings(ctx: click.Context) -> OcrSettings:
    """The OCR settings the command line gave."""
    from buildds.jobs.jbe_ocr import OcrSettings

    return OcrSettings(**ctx.meta.get(_KEY, {}))
