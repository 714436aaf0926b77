"""The pages: the lobby and the other HTML pages, a room's and a replay's page, the icon, and
the installable app's manifest and service worker (served at the top, so that it looks after
every page)."""

from __future__ import annotations

import asyncio
from importlib.resources import files
from pathlib import Path
from typing import Final

from fastapi import APIRouter
from fastapi.responses import FileResponse, Response

from ... import offline

__all__ = ["LOCALE", "PAGES", "WEB", "router"]

WEB: Final = Path(str(files("escoba") / "web"))
"""The browser client's static files."""

LOCALE: Final = Path(str(files("escoba") / "locale"))
"""The gettext catalogues (the pages' texts come from them)."""

PAGES: Final = {
    "/": "index.html",
    "/history": "history.html",
    "/scorepad": "scorepad.html",
    "/learn": "learn.html",
    "/account": "account.html",
    "/leaderboard": "leaderboard.html",
    "/puzzles": "puzzles.html",
}

router = APIRouter(include_in_schema=False)


def page(name: str) -> FileResponse:
    return FileResponse(WEB / name, media_type="text/html")


for _path, _name in PAGES.items():
    router.add_api_route(_path, lambda name=_name: page(name))


@router.get("/favicon.ico")
async def favicon() -> FileResponse:
    return FileResponse(WEB / "favicon.svg", media_type="image/svg+xml")


@router.get("/room/{room_id}")
async def room_page(room_id: str) -> FileResponse:
    return page("room.html")


@router.get("/players/{username}")
async def profile_page(username: str) -> FileResponse:
    return page("profile.html")


@router.get("/replay/{match_id}")
async def replay_page(match_id: str) -> FileResponse:
    return page("replay.html")


@router.get("/manifest.webmanifest")
async def manifest() -> FileResponse:
    return FileResponse(WEB / "manifest.webmanifest", media_type="application/manifest+json")


_worker: list[bytes] = []
"""The service worker, made at the first request (it digests every page file, which do not
change while the process runs)."""


@router.get("/sw.js")
async def service_worker() -> Response:
    if not _worker:
        pages = {
            **PAGES,
            "/room/": "room.html",
            "/replay/": "replay.html",
            "/players/": "profile.html",
        }
        _worker.append(await asyncio.to_thread(offline.service_worker, WEB, LOCALE, pages))
    # Asked again at every visit: a new version of the pages is installed at once.
    headers = {"Cache-Control": "no-cache"}
    return Response(_worker[0], media_type="text/javascript", headers=headers)
