"""The web application: the one place where the server is built.

``create_app(settings)`` makes the app; its lifespan builds everything the routes and rooms
use (storage, the registry of rooms with its ports, the site of several processes when there
is a Redis) and closes it again. The routes are routers of their own concerns (:mod:`.routes`
and :mod:`.socket`), given what they need through FastAPI's ``Depends`` (:mod:`.deps`).
Refusals are ``{"type": "error", "code": ..., "message": ...}`` with a 4xx status over HTTP,
and the same message over a WebSocket (which stays open).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import AsyncIterator, Sequence

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from .. import memory
from ..accounts import Passwords, SignInLimits
from ..analyses import Runner
from ..config import DEFAULT_SETTINGS, Settings
from ..errors import Refusal
from ..history import SweepCounts
from ..lobby import LocalQueue, OpenTables, QuickMatch, Seeker, SeekKey
from ..protocol import SeatTicket
from ..rooms.registry import Registry
from ..storage.accounts import AccountStore
from ..storage.puzzles import PuzzleStore
from ..storage.repository import Storage, default_database_url
from ..storage.standings import Standings
from . import socket
from .deps import validation_text
from .middleware import BodyLimit, SameSite, SecurityHeaders
from .routes import (
    accounts,
    analysis,
    lobby,
    matches,
    pages,
    players,
    puzzles,
    rooms,
    scorepad,
    texts,
    tutorial,
)
from .routes.pages import WEB

__all__ = ["WEB", "create_app"]

log = logging.getLogger("escoba.server")


def _error(refusal: Refusal) -> JSONResponse:
    return JSONResponse(refusal.to_message().model_dump(), status_code=refusal.status)


def create_app(settings: Settings = DEFAULT_SETTINGS) -> FastAPI:
    """The application built from ``settings`` (see :class:`~escoba.server.config.Settings`:
    the database, SQLite in the user's data directory by default; the computers' pace; the
    limits; the web origins that may open its WebSockets; a Redis that makes it one process of
    a site of several; its timings and clock)."""
    storage = Storage(settings.database_url or default_database_url())
    waves = memory.Waves()  # gives back what a wave of connections leaves, once it is over

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await asyncio.to_thread(storage.migrate)
        lobby = OpenTables(settings.clock)
        registry = Registry(storage, settings, lobby)

        async def open_match(
            key: SeekKey, group: Sequence[Seeker], level: str | None, address: str | None
        ) -> list[SeatTicket]:
            nicknames = [seeker.nickname for seeker in group]
            return await registry.open_match(
                key.rules,
                key.players,
                nicknames,
                level,
                language=group[0].language,
                address=address,
                sitters=[(seeker.account, seeker.address) for seeker in group],
                rated=key.rated,
            )

        quick = QuickMatch(
            LocalQueue(), open_match, settings.clock, wait=settings.timings.quick_match_wait
        )
        if settings.redis_url is not None:
            # Imported here: one process alone runs without the redis package (escoba[web])
            from ..replication.bus import Cluster
            from ..replication.ownership import Site

            cluster = Cluster(settings.redis_url, prefix=settings.redis_prefix)
            registry.join_site(Site(registry, cluster, lobby, quick))
            log.info("one of a site of several processes (this one %s)", cluster.id)
        app.state.registry = registry
        app.state.lobby = lobby
        app.state.quick_match = quick
        await registry.start()
        # Finished matches analysed in the background, on the workers rooms leave free.
        analyses = Runner(storage, registry.thinkers, settings) if settings.analysis else None
        app.state.analyses = analyses
        if analyses is not None:
            analyses.start()
        if settings.redis_url is not None:  # alone, a process knows every entry as it changes
            registry.in_background(lobby.upkeep())
        # What exists now (modules, the app) lives as long as the server: keep it out of the
        # collector's full passes, once. Anything made later is collected as usual.
        gc.collect()
        gc.freeze()
        # Stored matches are loaded when someone comes back to them, not here: a restart
        # answers at once however many are stored, and holds only the rooms in use.
        yield
        waves.cancel()
        await quick.close()
        await lobby.close()
        if analyses is not None:
            await analyses.close()
        await registry.close()
        storage.close()

    app = FastAPI(
        title="escoba",
        lifespan=lifespan,
        docs_url="/api/docs",
        redoc_url=None,
        redirect_slashes=False,  # a redirect would be built from the client's Host header
    )
    app.state.settings = settings
    app.state.storage = storage
    app.state.waves = waves
    app.state.analyses = None  # the background runner, once the lifespan starts it
    app.state.sweeps = SweepCounts()  # each finished match's, counted once
    app.state.accounts = AccountStore(storage)
    app.state.standings = Standings(storage)
    app.state.puzzles = PuzzleStore(storage)
    app.state.passwords = Passwords(settings.password_cost)
    app.state.sign_in_limits = SignInLimits(app.state.accounts, settings.limits, settings.clock)
    app.add_middleware(SameSite, origins=tuple(settings.origins))
    app.add_middleware(BodyLimit)
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
        return _error(Refusal("bad_request", validation_text(error), 422))

    app.include_router(pages.router)
    app.mount("/static", StaticFiles(directory=WEB), name="static")
    app.include_router(scorepad.router)
    app.include_router(texts.router)
    app.include_router(tutorial.router)
    app.include_router(rooms.router)
    app.include_router(lobby.router)
    app.include_router(matches.router)
    app.include_router(analysis.router)
    app.include_router(accounts.router)
    app.include_router(players.router)
    app.include_router(puzzles.router)
    app.include_router(socket.router)
    return app
