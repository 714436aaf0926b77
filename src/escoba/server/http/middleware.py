"""The middleware every HTTP answer passes through: the security headers, the cap on a
request body's size, and the refusal of state-changing requests sent from another site."""

from __future__ import annotations

from collections.abc import Collection
from typing import Final
from urllib.parse import urlsplit

from fastapi.responses import JSONResponse
from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..protocol import ErrorMessage

__all__ = ["MAX_BODY_BYTES", "SECURITY_HEADERS", "BodyLimit", "SameSite", "SecurityHeaders"]

# A page may use only our own scripts and styles: a nickname can never become a script.
SECURITY_HEADERS: Final = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
        "connect-src 'self' ws: wss:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


_SECURITY_HEADERS: Final = [
    (name.lower().encode(), value.encode()) for name, value in SECURITY_HEADERS.items()
]
_SECURITY_NAMES: Final = {name for name, _ in _SECURITY_HEADERS}


class SecurityHeaders:
    """Add SECURITY_HEADERS to every HTTP answer (plain ASGI: a client gone before any
    answer leaves nothing to add them to, and no error)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                kept = [
                    (name, value)
                    for name, value in message.get("headers", [])
                    if name.lower() not in _SECURITY_NAMES
                ]
                message = {**message, "headers": kept + _SECURITY_HEADERS}
            await send(message)

        await self.app(scope, receive, with_headers)


MAX_BODY_BYTES: Final = 64 * 1024
"""HTTP request bodies over this are refused before they are read whole."""


class BodyLimit:
    """Refuse HTTP bodies over MAX_BODY_BYTES with 413, by the declared length or as they
    arrive (a chunked body has no length up front)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refusal = JSONResponse(
            ErrorMessage(
                code="too_large", message=f"request bodies are limited to {MAX_BODY_BYTES} bytes"
            ).model_dump(),
            status_code=413,
        )
        declared = dict(scope["headers"]).get(b"content-length", b"0")
        if declared.isdigit() and int(declared) > MAX_BODY_BYTES:
            await refusal(scope, receive, send)
            return
        received = 0
        refused = False

        async def counted() -> Message:
            nonlocal received, refused
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > MAX_BODY_BYTES:
                    refused = True
                    return {"type": "http.disconnect"}  # the app stops reading
            return message

        async def guarded(message: Message) -> None:
            if not refused:
                await send(message)

        try:
            await self.app(scope, counted, guarded)
        except ClientDisconnect:
            if not refused:
                return  # the client went away in the middle of its body: nobody to answer
        except Exception:
            if not refused:
                raise  # a real error; a refused body's aborted read is expected
        if refused:
            await refusal(scope, receive, send)


SAFE_METHODS: Final = frozenset({"GET", "HEAD", "OPTIONS"})


class SameSite:
    """Refuse (403 ``cross_site``) a state-changing request a browser sent from a page of
    another site: its ``Sec-Fetch-Site`` says ``cross-site`` or ``same-site``, or its
    ``Origin`` is neither this server's host nor one of ``origins``. Clients that are not
    browsers send neither header and pass; a signed-in request must also carry its session's
    CSRF token (checked where the session is read, ``deps.account_of``)."""

    def __init__(self, app: ASGIApp, origins: Collection[str] = ()) -> None:
        self.app = app
        self.origins = {origin.rstrip("/").lower() for origin in origins}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in SAFE_METHODS:
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        origin = headers.get(b"origin", b"").decode("latin-1").rstrip("/").lower()
        host = headers.get(b"host", b"").decode("latin-1").lower()
        fetched = headers.get(b"sec-fetch-site", b"").decode("latin-1").lower()
        allowed = origin in self.origins
        foreign_origin = bool(origin) and not allowed and urlsplit(origin).netloc != host
        if foreign_origin or (fetched in {"cross-site", "same-site"} and not allowed):
            refusal = JSONResponse(
                ErrorMessage(
                    code="cross_site",
                    message="refused: a request that changes something must come from this "
                    "site's own pages",
                ).model_dump(),
                status_code=403,
            )
            await refusal(scope, receive, send)
            return
        await self.app(scope, receive, send)
