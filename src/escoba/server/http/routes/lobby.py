"""The lobby: its open tables, asked once over HTTP or watched live over a WebSocket that
sends every change as it happens (:mod:`escoba.server.lobby`)."""

from __future__ import annotations

import asyncio
import contextlib

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from ...clients import RATE_PER_SECOND, Client
from ...errors import Refusal
from ...protocol import (
    MAX_MESSAGE_BYTES,
    ErrorMessage,
    PingMessage,
    PongMessage,
    TablesMessage,
)
from ..deps import Lobby, lobby_of, settings_of
from ..socket import origin_allowed, refuse_socket

__all__ = ["router"]

router = APIRouter()


@router.get("/api/tables")
async def open_tables(lobby: Lobby) -> TablesMessage:
    """The open tables now: those with a free seat first, then the matches to watch."""
    return TablesMessage(tables=lobby.tables())


@router.websocket("/ws/lobby")
async def lobby_socket(websocket: WebSocket) -> None:
    """The open tables, then each change to them (``table``, ``table_gone``); the client
    sends nothing but ``ping``."""
    await websocket.accept()
    settings = settings_of(websocket)
    allowed = {origin.rstrip("/").lower() for origin in settings.origins}
    if not origin_allowed(websocket, allowed):
        await refuse_socket(
            websocket, Refusal("bad_origin", "pages of another site may not watch the lobby"), 4403
        )
        return
    lobby = lobby_of(websocket)
    limits = settings.limits
    if lobby.watching >= limits.lobby_watchers:
        await refuse_socket(
            websocket,
            Refusal("lobby_full", "too many people are watching the lobby; try again soon", 503),
            4503,
        )
        return
    client = Client(websocket, limits.send_backlog, limits.send_seconds)
    pump = asyncio.create_task(client.pump())
    lobby.watch(client)
    try:
        await _read(websocket, client)
    finally:
        lobby.unwatch(client)
        client.close()
        pump.cancel()
        with contextlib.suppress(BaseException):
            await pump
        with contextlib.suppress(Exception):
            await asyncio.wait_for(websocket.close(), 1.0)


async def _read(websocket: WebSocket, client: Client) -> None:
    """Answer pings until the client goes or its connection is closed."""
    ended = asyncio.ensure_future(client.ended.wait())
    try:
        while not client.closed:
            receiving = asyncio.ensure_future(websocket.receive())
            done, _ = await asyncio.wait({receiving, ended}, return_when=asyncio.FIRST_COMPLETED)
            if receiving not in done:
                receiving.cancel()
                with contextlib.suppress(BaseException):
                    await receiving
                return
            try:
                received = receiving.result()
            except (WebSocketDisconnect, RuntimeError):
                return
            if received["type"] == "websocket.disconnect":
                return
            client.send(_answer(client, received.get("text"), received.get("bytes")))
    finally:
        ended.cancel()


def _answer(client: Client, text: str | None, data: bytes | None) -> PongMessage | ErrorMessage:
    if not client.allow():
        return ErrorMessage(
            code="rate_limited",
            message=f"too many messages: at most {RATE_PER_SECOND:g} a second; "
            "this one was not read",
        )
    if text is None or data is not None:
        return ErrorMessage(code="bad_message", message="send JSON as text frames")
    if len(text) > MAX_MESSAGE_BYTES:
        return ErrorMessage(
            code="too_large", message=f"messages are limited to {MAX_MESSAGE_BYTES} bytes"
        )
    try:
        PingMessage.model_validate_json(text)
    except ValidationError:
        return ErrorMessage(
            code="bad_message", message='the lobby\'s socket takes only {"type": "ping"}'
        )
    return PongMessage()
