"""The web application: pages, the JSON API and the rooms' WebSockets.

``create_app(database_url)`` builds it; ``escoba serve`` runs it on uvicorn. Refusals are
``{"type": "error", "code": ..., "message": ...}`` with a 4xx status over HTTP, and the same
message over a WebSocket (which stays open).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time
from collections.abc import AsyncIterator, Mapping, Sequence
from importlib.resources import files
from pathlib import Path
from typing import Annotated, Any, Final
from urllib.parse import urlsplit

from fastapi import FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..ai import LEVELS
from ..cards import DECK_STYLES
from ..cheatsheet import cheat_sheet, cheat_sheet_title
from ..game import Game
from ..messages import LANGUAGES
from ..observation import Play, TakeBack
from ..records import replay
from ..rules import (
    BOOL_OPTIONS,
    CAPTURE_MODES,
    INT_OPTIONS,
    OPTION_NAMES,
    PRESET_SEATING,
    RULESETS,
    SEVENS_MODES,
    RuleSet,
    preset_name,
)
from . import history, memory, offline, scorepad_api, texts_api, tutorial_api
from .config import DEFAULT_SETTINGS, Settings
from .connections import RATE_PER_SECOND, Connection
from .errors import Refusal
from .history import PublicChoice, PublicSwitch, SeatTokens, YourMatches, token_hashes
from .protocol import (
    MAX_MESSAGE_BYTES,
    CreateRoom,
    ErrorMessage,
    HandResultView,
    JoinRoom,
    MatchSummary,
    PlayMessage,
    ReplayStep,
    RoomInfo,
    SeatTicket,
    event_view,
    parse_client_message,
    result_view,
)
from .replication.bus import Cluster
from .replication.ownership import Site
from .rooms.actor import Room
from .rooms.registry import Registry
from .storage.repository import Storage, default_database_url
from .transport import address_key

__all__ = ["WEB", "create_app"]

log = logging.getLogger("escoba.server")

WEB: Final = Path(str(files("escoba") / "web"))
"""The browser client's static files."""

LOCALE: Final = Path(str(files("escoba") / "locale"))
"""The gettext catalogues (the pages' texts come from them)."""

CHOICES: Final = {"capture": list(CAPTURE_MODES), "sevens": list(SEVENS_MODES)}
"""The options that take one of a few words, and the words."""

PAGES: Final = {
    "/": "index.html",
    "/history": "history.html",
    "/scorepad": "scorepad.html",
    "/learn": "learn.html",
}

# A page may use only our own scripts and styles: a nickname can never become a script.
SECURITY_HEADERS: Final = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
        "connect-src 'self' ws: wss:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def _error(refusal: Refusal) -> JSONResponse:
    return JSONResponse(refusal.to_message().model_dump(), status_code=refusal.status)


def _validation_text(error: ValidationError | RequestValidationError) -> str:
    """Pydantic's errors as one readable line naming each bad field."""
    parts = []
    for item in error.errors()[:3]:
        where = ".".join(str(part) for part in item.get("loc", ()) if part != "body")
        parts.append(f"{where or 'message'}: {item.get('msg', 'invalid')}")
    return "; ".join(parts)


def create_app(settings: Settings = DEFAULT_SETTINGS) -> FastAPI:
    """The application built from ``settings`` (see :class:`~escoba.server.config.Settings`:
    the database, SQLite in the user's data directory by default; the computers' pace; the
    limits; the web origins that may open its WebSockets; a Redis that makes it one process of
    a site of several; its timings and clock)."""
    storage = Storage(settings.database_url or default_database_url())
    limits = settings.limits
    allowed_origins = {origin.rstrip("/").lower() for origin in settings.origins}
    waves = memory.Waves()  # gives back what a wave of connections leaves, once it is over

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await asyncio.to_thread(storage.migrate)
        registry = Registry(storage, settings)
        if settings.redis_url is not None:
            cluster = Cluster(settings.redis_url, prefix=settings.redis_prefix)
            registry.join_site(Site(registry, cluster))
            log.info("one of a site of several processes (this one %s)", cluster.id)
        app.state.registry = registry
        await registry.start()
        # What exists now (modules, the app) lives as long as the server: keep it out of the
        # collector's full passes, once. Anything made later is collected as usual.
        gc.collect()
        gc.freeze()
        # Stored matches are loaded when someone comes back to them, not here: a restart
        # answers at once however many are stored, and holds only the rooms in use.
        yield
        waves.cancel()
        await registry.close()
        storage.close()

    app = FastAPI(
        title="escoba",
        lifespan=lifespan,
        docs_url="/api/docs",
        redoc_url=None,
        redirect_slashes=False,  # a redirect would be built from the client's Host header
    )
    app.add_middleware(BodyLimit)
    app.state.storage = storage

    app.add_middleware(SecurityHeaders)

    @app.exception_handler(Refusal)
    async def refused(_request: Request, refusal: Refusal) -> JSONResponse:
        return _error(refusal)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, error: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(error.status_code, "http_error")
        detail = str(error.detail)
        if error.status_code == 400:  # FastAPI could not read the body as JSON
            code, detail = "bad_request", "the body is not JSON in UTF-8"
        return _error(Refusal(code, detail, error.status_code))

    @app.exception_handler(RequestValidationError)
    async def malformed(_request: Request, error: RequestValidationError) -> JSONResponse:
        return _error(Refusal("bad_request", _validation_text(error), 422))

    def hub() -> Registry:
        result: Registry = app.state.registry
        return result

    # -- pages

    def page(name: str) -> FileResponse:
        return FileResponse(WEB / name, media_type="text/html")

    for path, name in PAGES.items():
        app.add_api_route(path, lambda name=name: page(name), include_in_schema=False)

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:
        return FileResponse(WEB / "favicon.svg", media_type="image/svg+xml")

    @app.get("/room/{room_id}", include_in_schema=False)
    async def room_page(room_id: str) -> FileResponse:
        return page("room.html")

    @app.get("/replay/{match_id}", include_in_schema=False)
    async def replay_page(match_id: str) -> FileResponse:
        return page("replay.html")

    # -- the installable app: its manifest and its service worker (at the top, so that it
    # looks after every page)

    @app.get("/manifest.webmanifest", include_in_schema=False)
    async def manifest() -> FileResponse:
        return FileResponse(WEB / "manifest.webmanifest", media_type="application/manifest+json")

    worker: list[bytes] = []  # made at the first request: it digests every page file

    @app.get("/sw.js", include_in_schema=False)
    async def service_worker() -> Response:
        if not worker:
            pages = {**PAGES, "/room/": "room.html", "/replay/": "replay.html"}
            worker.append(await asyncio.to_thread(offline.service_worker, WEB, LOCALE, pages))
        # Asked again at every visit: a new version of the pages is installed at once.
        headers = {"Cache-Control": "no-cache"}
        return Response(worker[0], media_type="text/javascript", headers=headers)

    app.mount("/static", StaticFiles(directory=WEB), name="static")
    app.include_router(scorepad_api.router)
    app.include_router(texts_api.router)
    app.include_router(tutorial_api.router)

    # -- API

    @app.get("/api/health")
    async def health() -> dict[str, bool]:
        """The server answers: the pages ask, to tell their reader whether it can be reached."""
        return {"ok": True}

    @app.get("/api/presets")
    async def presets() -> dict[str, Any]:
        """The rule-set presets, every option with its kind, and the computer levels."""
        base = RuleSet()
        options: dict[str, Any] = {}
        for name in OPTION_NAMES:
            default = getattr(base, name)
            if name in BOOL_OPTIONS:
                options[name] = {"kind": "bool", "choices": None, "default": default}
            elif name in CHOICES:
                options[name] = {"kind": "choice", "choices": CHOICES[name], "default": default}
            else:
                lowest, highest = INT_OPTIONS[name]
                options[name] = {
                    "kind": "int",
                    "choices": None,
                    "default": default,
                    "min": lowest,
                    "max": highest,
                }
        return {
            "presets": {name: rules.to_dict() for name, rules in RULESETS.items()},
            # how a preset is usually seated, where it is not 2 alone (Scopone: 4 in pairs)
            "seating": {
                name: {"players": players, "partnerships": partnerships}
                for name, (players, partnerships) in PRESET_SEATING.items()
            },
            "options": options,
            "levels": list(LEVELS),
        }

    @app.post("/api/rooms", status_code=201)
    async def create_room(request: CreateRoom, http: Request) -> SeatTicket:
        """Open a room; the answer holds the creator's seat token, shown only this once."""
        return await hub().create(request, _address(http.client))

    @app.get("/api/rooms/{room_id}")
    async def room_info(room_id: str) -> RoomInfo:
        return (await hub().room(room_id)).info()

    @app.post("/api/rooms/{room_id}/join")
    async def join_room(room_id: str, request: JoinRoom) -> SeatTicket:
        return await hub().join(room_id, request)

    @app.get("/api/rooms/{room_id}/cheatsheet")
    async def room_cheat_sheet(
        room_id: str,
        language: Annotated[str, Query(max_length=8)] = "en",
        deck: Annotated[str, Query(max_length=16)] = "french",
    ) -> dict[str, Any]:
        """The room's rules in a language, its card values and examples in the deck shown."""
        if language not in LANGUAGES:
            raise Refusal(
                "bad_language",
                f"unknown language {language!r}; choose one of {', '.join(LANGUAGES)}",
            )
        style = next((style for style in DECK_STYLES if style == deck), None)
        if style is None:
            raise Refusal(
                "bad_deck",
                f"unknown deck {deck!r}; choose one of {', '.join(DECK_STYLES)}",
                status=422,
            )
        rules = (await hub().room(room_id)).game.rules
        return {
            "title": cheat_sheet_title(preset_name(rules) or "custom", language),
            "sections": [
                {"title": section.title, "lines": list(section.lines)}
                for section in cheat_sheet(rules, language, style)
            ],
        }

    # Finished matches are their players' own: listed and replayed for whoever presents one
    # of their seat tokens (in the body: addresses end up in logs), or once made public.
    # Whatever is not shown is answered as an unknown match, alike and by one statement.

    sweeps = history.SweepCounts()  # each finished match's, counted once

    @app.post("/api/matches/mine")
    async def your_matches(held: SeatTokens) -> YourMatches:
        """The finished matches in which one of the tokens holds a seat, with statistics."""
        found: YourMatches = await hub().stored(
            history.your_matches, storage, token_hashes(held.tokens), sweeps
        )
        return found

    @app.get("/api/matches")
    async def public_matches() -> dict[str, list[MatchSummary]]:
        """The finished matches their players made public, newest first."""
        listed = await hub().stored(history.public_matches, storage, sweeps)
        return {"matches": listed}

    @app.get("/api/matches/{match_id}/replay")
    async def public_replay(match_id: int) -> dict[str, Any]:
        """A public match, every step with every hand shown."""
        return await match_replay(match_id, (), f"no public finished match {match_id}")

    @app.post("/api/matches/{match_id}/replay")
    async def your_replay(match_id: int, held: SeatTokens) -> dict[str, Any]:
        """A finished match for one of its players (or for anyone once it is public)."""
        missing = f"no finished match {match_id} that is public or has a seat of these tokens"
        return await match_replay(match_id, token_hashes(held.tokens), missing)

    async def match_replay(match_id: int, hashes: Sequence[str], missing: str) -> dict[str, Any]:
        found = await hub().stored(storage.finished_match_record, match_id, hashes)
        if found is None:
            raise Refusal("not_found", missing, 404)
        match, room, record = found
        seats = await hub().stored(storage.seats, room.id)
        steps, results = await hub().stored(replay_views, record)
        return {
            "match": match_id,
            "preset": preset_name(RuleSet.from_dict(room.rules)),
            "rules": room.rules,
            "players": room.players,
            "partnerships": room.partnerships,
            "deals_per_hand": RuleSet.from_dict(room.rules).deals_per_hand(room.players),
            "names": history.names(seats),
            "levels": [seat.level for seat in seats],
            "totals": steps[-1].totals,
            "winner": match.winner,
            "public": match.public,
            "results": [result.model_dump() for result in results],
            "steps": [step.model_dump() for step in steps],
        }

    @app.put("/api/matches/{match_id}/public")
    async def make_public(match_id: int, choice: PublicChoice) -> PublicSwitch:
        """Open a finished match to everyone, or close it again: its players only."""
        outcome = await hub().stored(
            storage.make_public, match_id, token_hashes(choice.tokens), choice.public
        )
        if outcome == "unfinished":
            raise Refusal(
                "not_finished",
                f"match {match_id} is still being played: it can be made public once it ends",
                409,
            )
        if outcome != "done":
            raise Refusal(
                "not_found", f"no finished match {match_id} with a seat of these tokens", 404
            )
        return PublicSwitch(match=match_id, public=choice.public)

    # -- the game

    @app.websocket("/ws/rooms/{room_id}")
    async def room_socket(websocket: WebSocket, room_id: str) -> None:
        await websocket.accept()
        if not _origin_allowed(websocket, allowed_origins):
            await _refuse_socket(
                websocket, Refusal("bad_origin", "pages of another site may not open rooms"), 4403
            )
            return
        try:
            room = await hub().room(room_id)
        except Refusal as refusal:
            await _refuse_socket(websocket, refusal, 4404 if refusal.status == 404 else 4503)
            return
        connection = Connection(websocket, limits.send_backlog, limits.send_seconds)
        hub().handlers += 1
        waves.count(hub().handlers)
        pump = asyncio.create_task(connection.pump())
        try:
            await _serve_socket(websocket, room, connection, limits.join_seconds)
        finally:
            hub().handlers -= 1
            waves.count(hub().handlers)
            room.leave(connection)  # closes it: the pump ends however full its queue
            pump.cancel()
            with contextlib.suppress(BaseException):
                await pump
            with contextlib.suppress(Exception):
                await asyncio.wait_for(websocket.close(), 1.0)

    return app


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


def _address(client: Any) -> str:
    """The client as the limits count it: its IPv4 address or IPv6 /64, the socket's
    unless a trusted proxy named it (``--forwarded-allow-ips``)."""
    return address_key(str(client.host)) if client is not None else address_key(None)


def _origin_allowed(websocket: WebSocket, allowed: set[str]) -> bool:
    """A page may open the room's socket only from this server's own site (or one named
    with ``origins``); clients that are not browsers send no Origin and are let in."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    origin = origin.rstrip("/").lower()
    host = websocket.headers.get("host", "").lower()
    return origin in allowed or (bool(host) and urlsplit(origin).netloc == host)


async def _refuse_socket(websocket: WebSocket, refusal: Refusal, code: int) -> None:
    with contextlib.suppress(Exception):
        await asyncio.wait_for(websocket.send_text(refusal.to_message().model_dump_json()), 1.0)
        await asyncio.wait_for(websocket.close(code=code), 1.0)


async def _serve_socket(
    websocket: WebSocket, room: Room, connection: Connection, join_seconds: float
) -> None:
    """Read the client's messages until it goes or its connection is closed (by a full
    queue, a stuck send, the server stopping): whichever comes first ends the handler. A
    connection that has not joined or watched within ``join_seconds`` is closed."""
    deadline = time.monotonic() + join_seconds
    ended = asyncio.ensure_future(connection.ended.wait())
    try:
        while not connection.closed:
            receiving = asyncio.ensure_future(websocket.receive())
            wait = None if connection.joined else max(0.0, deadline - time.monotonic())
            done, _ = await asyncio.wait(
                {receiving, ended}, timeout=wait, return_when=asyncio.FIRST_COMPLETED
            )
            if receiving not in done:
                receiving.cancel()
                with contextlib.suppress(BaseException):
                    await receiving
                if not done:  # the join deadline passed
                    connection.send(
                        ErrorMessage(
                            code="join_timeout",
                            message=f"send 'join' or 'watch' within {join_seconds:g} seconds",
                        )
                    )
                    connection.finish()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(connection.ended.wait(), 1.0)
                return
            try:
                received = receiving.result()
            except (WebSocketDisconnect, RuntimeError):
                return
            if received["type"] == "websocket.disconnect":
                return
            data = received.get("text")
            if data is None:
                data = received.get("bytes") or b""
            await _answer(room, connection, data)
    finally:
        ended.cancel()


async def _answer(room: Room, connection: Connection, data: str | bytes) -> None:
    """Act on one message; every refusal goes back as an error message."""
    if not connection.allow():
        connection.send(
            ErrorMessage(
                code="rate_limited",
                message=f"too many messages: at most {RATE_PER_SECOND:g} a second; "
                "this one was not read",
            )
        )
        return
    if isinstance(data, str):
        try:
            size = len(data.encode())
        except UnicodeEncodeError:  # a server that passed on text that is not UTF-8
            connection.send(ErrorMessage(code="bad_message", message="send text in UTF-8"))
            return
    else:
        size = len(data)
    if size > MAX_MESSAGE_BYTES:
        connection.send(
            ErrorMessage(
                code="too_large", message=f"messages are limited to {MAX_MESSAGE_BYTES} bytes"
            )
        )
        return
    if isinstance(data, bytes):
        connection.send(ErrorMessage(code="bad_message", message="send JSON as text frames"))
        return
    try:
        message = parse_client_message(data)
    except ValidationError as error:
        connection.send(ErrorMessage(code="bad_message", message=_validation_text(error)))
        return
    try:
        await room.handle(connection, message)
    except Refusal as refusal:
        connection.send(refusal.to_message())
    else:
        if isinstance(message, PlayMessage):
            connection.refund()


def replay_views(record: Mapping[str, Any]) -> tuple[list[ReplayStep], list[HandResultView]]:
    """The replay page's views of a match: every position, all hands open, with the play (or
    take back) that led to it; and the match's finished hands, which each step counts rather
    than repeats."""
    steps: list[ReplayStep] = []

    def seen(game: Game, play: Play | TakeBack | None) -> None:
        steps.append(
            ReplayStep(
                hand_number=game.hand_number,
                dealer=game.dealer,
                to_move=game.to_move,
                hands=[[str(card) for card in game.hand(seat)] for seat in range(game.players)],
                table=[str(card) for card in game.table],
                stock_size=game.stock_size,
                captured=[[str(card) for card in sorted(pile)] for pile in game.captured],
                sweeps=list(game.sweeps),
                totals=list(game.totals),
                hands_scored=len(game.results),
                event=None if play is None else event_view(play),
                hand_ended=isinstance(play, Play) and play.result is not None,
            )
        )

    game = replay(record, on_move=seen)
    return steps, [result_view(result, game.rules) for result in game.results]
