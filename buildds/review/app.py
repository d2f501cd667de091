"""The review web app: a queue of what a build flagged, each item beside its evidence, and a
verdict form whose answers the source writes as data.

:func:`create_app` makes a Starlette app for one :class:`~.sources.base.ReviewSource`:

* ``GET /`` — the queue (filters in the query string, :mod:`buildds.review.queue`), progress
  done / left, keyboard shortcuts;
* ``GET /item/<key>`` — the item: its reasons and current values, the evidence rendered by
  ``templates/evidence_<kind>.html`` (``evidence_default.html`` when a kind has none; the
  template gets ``item``, ``evidence``, ``page_url(path, page)`` and ``file_url(path)``) and
  the verdict form;
* ``POST /item/<key>`` — a verdict: 303 to the next item left; 409 with the message when the
  item changed since the form was loaded (:class:`~.sources.base.StaleVerdict`), 400 for a
  verdict the item cannot take, 403 without the CSRF token;
* ``GET /file?path=`` and ``GET /page?path=&page=`` — a file of the output or an input the
  source lists, and a PDF page rendered to PNG (:mod:`buildds.review.pages`, cached under
  ``<out>/.review-cache``); anything else is 404 (:func:`.security.resolve_served`).

Everything goes through :class:`~.security.TokenGate` (session token, headers). Templates are
autoescaped: item text is untrusted.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode

from buildds.review.queue import build_queue
from buildds.review.security import TokenGate, csrf_token, resolve_served
from buildds.review.sources.base import ACTIONS, ReviewSource, StaleVerdict, Verdict

__all__ = ["CACHE_DIR", "MAX_FORM_BYTES", "create_app"]

HERE = Path(__file__).resolve().parent
CACHE_DIR = ".review-cache"
#: a verdict form larger than this is refused (413)
MAX_FORM_BYTES = 1_000_000
_STATIC = {"review.js": "text/javascript; charset=utf-8", "review.css": "text/css; charset=utf-8"}


def _environment() -> Any:
    import jinja2

    env = jinja2.Environment(loader=jinja2.FileSystemLoader(HERE / "templates"),
                             autoescape=True,
                             trim_blocks=True, lstrip_blocks=True)
    env.filters["tojson_pretty"] = lambda v: json.dumps(v, ensure_ascii=False, indent=1,
                                                        default=str)
    return env


def page_url(path: str, page: int) -> str:
    """The URL of page ``page`` of the PDF ``path``, rendered to PNG."""
    return f"/page?{urlencode({'path': str(path), 'page': int(page)})}"


def file_url(path: str) -> str:
    """The URL of the output or input file ``path``."""
    return f"/file?{urlencode({'path': str(path)})}"


def _field_choices(item: Any) -> dict[str, Any]:
    """The values each editable field may take: the evidence's ``field_choices``, else its
    ``choices`` for a single field (a High Bar verdict or score)."""
    given = item.evidence.get("field_choices")
    if given:
        return dict(given)
    if item.evidence.get("choices") and len(item.fields) == 1:
        return {name: list(item.evidence["choices"]) for name in item.fields}
    return {}


# long: the routes share the source, the templates and the CSRF token as closures
def create_app(source: ReviewSource, token: str, *, reviewer: str = "") -> Any:
    """The ASGI app for ``source``, reachable with ``token`` only."""
    import jinja2
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.requests import Request
    from starlette.responses import (
        FileResponse,
        HTMLResponse,
        PlainTextResponse,
        RedirectResponse,
        Response,
    )
    from starlette.routing import Route

    env = _environment()
    csrf = csrf_token(token)
    out = Path(source.out)

    def render(name: str, status: int = 200, **context: Any) -> HTMLResponse:
        html = env.get_template(name).render(kind=source.kind, out=str(out), csrf=csrf,
                                             out_name=out.resolve().name, **context)
        return HTMLResponse(html, status_code=status)

    def evidence_template(kind: str) -> Any:
        try:
            return env.get_template(f"evidence_{kind}.html")
        except jinja2.TemplateNotFound:
            return env.get_template("evidence_default.html")

    def item_page(key: str, params: dict[str, str], *, status: int = 200, error: str = "",
                  form: dict[str, str] | None = None) -> HTMLResponse:
        queue = build_queue(source, params)
        item = next((i for i in source.items() if i.key == key), None)
        if item is None:
            return render("error.html", 404, message=f"no item {key!r} in this queue")
        before, after = queue.neighbours(key)
        evidence = evidence_template(item.kind).render(
            item=item, evidence=item.evidence, page_url=page_url, file_url=file_url)
        revision = next((r.split(":", 1)[1] for r in item.reasons
                         if r.startswith("needs_review:")), "")
        return render("item.html", status, item=item, queue=queue, before=before, after=after,
                      verdict=source.verdict_for(key), version=source.version(key),
                      evidence_html=evidence, error=error, form=form or {},
                      revision=revision, reviewer=reviewer,
                      actions=item.evidence.get("actions") or ACTIONS,
                      choices=_field_choices(item))

    def queue_page(request: Request) -> Response:
        queue = build_queue(source, dict(request.query_params))
        return render("queue.html", queue=queue)

    def item_get(request: Request) -> Response:
        return item_page(request.path_params["key"], dict(request.query_params))

    async def item_post(request: Request) -> Response:
        key = request.path_params["key"]
        body = await request.body()
        if len(body) > MAX_FORM_BYTES:
            return PlainTextResponse("413: form too large", status_code=413)
        form = dict(parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True))
        if form.get("csrf") != csrf:
            return PlainTextResponse("403: missing or wrong CSRF token; reload the page",
                                     status_code=403)
        params = dict(parse_qsl(form.get("q", "")))
        action = form.get("action", "")
        changes = {k[6:]: v for k, v in form.items() if k.startswith("field:")}
        if action != "edit":
            changes = {}
        verdict = Verdict(key=key, action=action, changes=changes, note=form.get("note", ""),
                          reviewer=form.get("reviewer", "").strip(),
                          revision=form.get("revision", "").strip())
        try:
            if action not in ACTIONS:
                raise ValueError(f"unknown action {action!r}")
            await run_in_threadpool(source.record, verdict, form.get("version", ""))
        except StaleVerdict as exc:
            return await run_in_threadpool(
                item_page, key, params, status=409, form=form,
                error=f"Not saved: {exc}. The page now shows the current state; check it "
                      "and send your verdict again.")
        except KeyError:
            return render("error.html", 404, message=f"no item {key!r} in this queue")
        except ValueError as exc:
            return await run_in_threadpool(item_page, key, params, status=400, form=form,
                                           error=f"Not saved: {exc}")
        queue = await run_in_threadpool(build_queue, source, params)
        following = queue.next_left(key)
        query = f"?{queue.query}" if queue.query else ""
        target = f"/item/{quote(following)}{query}" if following else f"/{query}"
        return RedirectResponse(target, status_code=303)

    def served(request: Request) -> Path | None:
        return resolve_served(request.query_params.get("path", ""), out, source.files())

    def file_get(request: Request) -> Response:
        path = served(request)
        if path is None:
            return PlainTextResponse("404: not a file of this build or its inputs",
                                     status_code=404)
        return FileResponse(path, headers={"content-security-policy": "sandbox"})

    def page_get(request: Request) -> Response:
        from buildds.review.pages import render_page_png

        path = served(request)
        page = request.query_params.get("page", "")
        if path is None or path.suffix.lower() != ".pdf" or not page.isdigit():
            return PlainTextResponse("404: not a PDF page of this build or its inputs",
                                     status_code=404)
        try:
            png = render_page_png(path, int(page), out / CACHE_DIR)
        except ValueError as exc:
            return PlainTextResponse(f"404: {exc}", status_code=404)
        return Response(png, media_type="image/png")

    def static_get(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in _STATIC:
            return PlainTextResponse("404", status_code=404)
        return Response((HERE / "static" / name).read_bytes(), media_type=_STATIC[name])

    routes = [
        Route("/", queue_page),
        Route("/item/{key}", item_get, methods=["GET"]),
        Route("/item/{key}", item_post, methods=["POST"]),
        Route("/file", file_get),
        Route("/page", page_get),
        Route("/static/{name}", static_get),
    ]
    return TokenGate(Starlette(routes=routes), token)
