"""The review page as a Starlette app, safe by construction.

- Every request must carry the server's random token in its query (as Jupyter does); the page's
  own links and requests do.
- Every request must name this server in its Host header (127.0.0.1 or localhost and its port):
  a page of another site that rebinds its name to 127.0.0.1 is refused.
- A request that changes anything must also be a POST with the page's CSRF token in a header and
  an Origin header naming this server.
- A body is read up to 1 MiB and for 10 s; what the page's script never sends (another shape,
  another type) is refused (400) naming it, never a server error.
- Every answer forbids loading anything from elsewhere (Content-Security-Policy), framing, and
  sending the URL (with its token) as a referrer; the page's script and style are files of this
  package, served here. Every text from the run is escaped by the templates' autoescape.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from importlib.resources import files
from urllib.parse import urlencode

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from extractor.errors import StoreError
from extractor.html import render
from extractor.page.session import FILTERS, MODES, ReviewSession

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}
STATIC = {"review.js": "text/javascript", "review.css": "text/css"}
_JSON_LIMIT = 1 << 20  # a decision is a few hundred bytes; nothing larger is read
_BODY_S = 10  # a body on loopback arrives in milliseconds


class Guard:
    """The checks every request passes before any route sees it (pure ASGI, so a refused
    request costs nothing)."""

    def __init__(self, app: ASGIApp, token: str, csrf: str, port: int) -> None:
        self.app = app
        self.token = token
        self.csrf = csrf
        self.hosts = {f"127.0.0.1:{port}", f"localhost:{port}"}
        self.origins = {f"http://{host}" for host in self.hosts}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        problem = self.refusal(request)
        if problem:
            await PlainTextResponse(problem, status_code=403, headers=HEADERS)(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def refusal(self, request: Request) -> str | None:
        if request.headers.get("host") not in self.hosts:
            return "refused: this server answers only at 127.0.0.1 (Host)"
        if not _same(request.query_params.get("token", ""), self.token):
            return "refused: open the URL the command printed (with its token)"
        if request.method == "GET" or request.method == "HEAD":
            return None
        if request.method != "POST":
            return "refused: method"
        if request.headers.get("origin") not in self.origins:
            return "refused: the request does not come from this page (Origin)"
        if not _same(request.headers.get("x-csrf-token", ""), self.csrf):
            return "refused: the request does not come from this page (CSRF token)"
        return None


def _same(given: str, secret: str) -> bool:
    """A constant-time comparison that takes any text (compare_digest refuses a str with
    characters outside ASCII: such a token is simply wrong)."""
    return secrets.compare_digest(given.encode("utf-8", "surrogateescape"), secret.encode())


class BadRequest(Exception):
    """A request the page's script never sends: answered with its status and why."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


async def _refused(request: Request, exc: Exception) -> Response:
    status = exc.status if isinstance(exc, BadRequest) else 400  # Starlette types handlers by Exception
    return _headers(JSONResponse({"status": "refused", "messages": [f"bad request: {exc}"]}, status_code=status))


async def _store_failed(request: Request, exc: Exception) -> Response:
    """The correction store cannot be read or written (damaged, a full disk, a read-only mount):
    said in the command's one line, on the page or to its script, instead of a server error."""
    if request.method == "POST":
        return _headers(JSONResponse({"status": "refused", "messages": [str(exc)]}, status_code=503))
    return _headers(PlainTextResponse(str(exc), status_code=503))


async def _read(request: Request) -> bytes:
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > _JSON_LIMIT:
            raise BadRequest("request too large", 413)
    return raw


async def _body(request: Request) -> dict:
    """The request's JSON object, read no further than :data:`_JSON_LIMIT` (a larger declared
    length is refused before its body is sent) and for no longer than :data:`_BODY_S`: a body
    that stalls halfway (a tab whose laptop went to sleep) would otherwise hold the server's
    stop, and the rebuild of the run's files, for ever."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > _JSON_LIMIT:
        raise BadRequest("request too large", 413)
    try:
        raw = await asyncio.wait_for(_read(request), _BODY_S)
    except asyncio.TimeoutError as exc:
        raise BadRequest(f"the request's body did not arrive within {_BODY_S} s", 408) from exc
    try:
        data = json.loads(raw or b"{}")
    except (ValueError, RecursionError) as exc:
        raise BadRequest(f"not JSON ({type(exc).__name__})") from exc
    if not isinstance(data, dict):
        raise BadRequest("a JSON object is expected")
    return data


def _typed(data: dict, name: str, types: type | tuple[type, ...], what: str, default: object = None) -> object:
    value = data.get(name, default)
    if not isinstance(value, types):
        raise BadRequest(f"{name} must be {what}")
    return value


def _headers(response: Response) -> Response:
    response.headers.update(HEADERS)
    return response


def make_app(session: ReviewSession, port: int, token: str | None = None, csrf: str | None = None) -> tuple[ASGIApp, str]:
    """The app and its token (random unless given, for tests)."""
    token = token or secrets.token_urlsafe(24)
    csrf = csrf or secrets.token_urlsafe(24)

    def link(**params: object) -> str:
        wanted = {k: v for k, v in params.items() if v is not None}
        return "/?" + urlencode({"token": token, **wanted})

    def page(request: Request) -> Response:
        mode = request.query_params.get("mode", "claim")
        mode = mode if mode in MODES else "claim"
        wanted = request.query_params.get("filter", "all")
        wanted = wanted if wanted in FILTERS else "all"
        shown = session.page(mode, wanted, request.query_params.get("item"), end="end" in request.query_params)
        html = render(
            "review.html", **shown, token=token, csrf=csrf, link=link,
            static=lambda name: f"/static/{name}?" + urlencode({"token": token}),
        )
        return _headers(HTMLResponse(html))

    def agreement_page(request: Request) -> Response:
        shown = session.agreement()
        html = render("agreement.html", agreement=shown, link=link, run=session.run.path.resolve().name,
                      static=lambda name: f"/static/{name}?" + urlencode({"token": token}))
        return _headers(HTMLResponse(html))

    def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC:
            return _headers(PlainTextResponse("not found", status_code=404))
        body = files("extractor.page").joinpath("static", name).read_bytes()
        return _headers(Response(body, media_type=STATIC[name]))

    async def decide(request: Request) -> Response:
        data = await _body(request)
        result = session.decide(
            kind=_typed(data, "kind", str, "text"), item_id=_typed(data, "item_id", (str, type(None)), "text or null"),
            paper_id=_typed(data, "paper_id", str, "text"), view=_typed(data, "view", (dict, type(None)), "an object or null"),
            origin="page:" + str(data.get("tab") or "-")[:64], decision=data.get("decision"),
            fields=_typed(data, "fields", (dict, type(None)), "an object or null") or {},
            note=data.get("note"), confirm=_typed(data, "confirm", bool, "true or false", False),
            settle=_typed(data, "settle", bool, "true or false", False),
        )
        return _headers(JSONResponse(result.as_json()))

    async def undo(request: Request) -> Response:
        return _headers(JSONResponse(session.undo().as_json()))

    async def clear(request: Request) -> Response:
        data = await _body(request)
        offers = _typed(data, "offers", list, "a list", [])
        for offer in offers:
            if not isinstance(offer, dict):
                raise BadRequest("each offer must be an object")
            for name in ("claim_id", "field"):
                _typed(offer, name, str, "text")
        return _headers(JSONResponse(session.clear(offers, "page:" + str(data.get("tab") or "-")[:64]).as_json()))

    async def finish(request: Request) -> Response:
        return _headers(JSONResponse({"status": "applied", "messages": session.rebuild()}))

    app = Starlette(routes=[
        Route("/", page),
        Route("/agreement", agreement_page),
        Route("/static/{name}", static),
        Route("/api/decide", decide, methods=["POST"]),
        Route("/api/undo", undo, methods=["POST"]),
        Route("/api/clear", clear, methods=["POST"]),
        Route("/api/finish", finish, methods=["POST"]),
    ], middleware=[Middleware(Guard, token=token, csrf=csrf, port=port)], exception_handlers={BadRequest: _refused, StoreError: _store_failed})
    return app, token
