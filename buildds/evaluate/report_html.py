"""``report.html``: one self-contained page per evaluation output folder — the leaderboard
(the very tables of ``leaderboard.md``, in the seed's layout), the plots, and every sample
(prompt, raw answer, parsed answer, gold, score, error) with filters by run, group (JBE's
subject …), status (correct / wrong / unscored / failed) and error, whose counts follow the filters.

Self-contained and safe to open:

* nothing is fetched: CSS and script are inline, plots are base64 PNGs, and the page's
  Content-Security-Policy forbids every network request (``default-src 'none'``);
* every text from the run (prompts, answers, errors, model names) is escaped: the template
  autoescapes, the leaderboard's markdown is rendered with raw HTML turned off, and the
  samples travel as JSON in a ``<script type="application/json">`` block with ``<``, ``>``
  and ``&`` written as ``\\u003c`` …, which the script reads with ``JSON.parse`` and puts
  on the page as text nodes only. The policy also allows only the page's own script (by its
  sha256), so even markup that slipped through could run nothing;
* the samples table shows one page of rows at a time (100 by default), so a run of a few
  thousand samples stays quick (see ``benchmarks/bench_report_html.py``).

:func:`render_report_html` is a pure function of its arguments: the same run gives the same
bytes.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["json_for_script", "markdown_html", "render_report_html"]

_TEMPLATE = "report_html.j2"
_SCRIPT = "report_html.js.j2"


def json_for_script(obj: Any) -> str:
    """``obj`` as JSON that is safe inside a ``<script>`` element: ``<``, ``>``, ``&`` and
    the line separators U+2028/2029 escaped, so no ``</script>`` or ``<!--`` can appear."""
    text = json.dumps(obj, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    for ch, esc in (("&", "\\u0026"), ("<", "\\u003c"), (">", "\\u003e"),
                    ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(ch, esc)
    return text


def markdown_html(text: str) -> str:
    """A leaderboard's markdown (headings, paragraphs, pipe tables, lists, code spans) as
    HTML; raw HTML in it is escaped, never passed through."""
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    return md.render(text)


def _environment() -> Any:
    from jinja2 import PackageLoader, StrictUndefined, select_autoescape
    from jinja2.sandbox import SandboxedEnvironment

    return SandboxedEnvironment(loader=PackageLoader("buildds.evaluate", "templates"),
                                autoescape=select_autoescape(default=True,
                                                             default_for_string=True),
                                undefined=StrictUndefined, keep_trailing_newline=True)


def _script(env: Any) -> str:
    source, _, _ = env.loader.get_source(env, _SCRIPT)
    return str(source)


def render_report_html(*, title: str, leaderboard_md: str,
                       plots: Sequence[tuple[str, bytes]], data: Mapping[str, Any],
                       notes: Sequence[str] = ()) -> str:
    """The page: ``title``, the leaderboard (markdown, as in ``leaderboard.md``), the
    ``plots`` (caption, PNG bytes), the samples ``data`` of
    :func:`~buildds.evaluate.report_samples.page_data` and ``notes`` (plain lines)."""
    from markupsafe import Markup

    env = _environment()
    script = _script(env)
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    images = [(caption, "data:image/png;base64," + base64.b64encode(png).decode("ascii"))
              for caption, png in plots]
    return env.get_template(_TEMPLATE).render(
        title=title, leaderboard=Markup(markdown_html(leaderboard_md)),  # escaped
        plots=images, notes=list(notes), summary=data.get("summary", []),
        group_title=data.get("group"),
        data_json=Markup(json_for_script(data)),  # JSON escaped for <script>
        script=Markup(script), script_hash=f"sha256-{digest}",  # our own file
        n_samples=len(data.get("samples", [])))
