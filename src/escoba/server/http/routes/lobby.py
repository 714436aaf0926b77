"""The lobby: its open tables, asked once over HTTP or watched live over a WebSocket that
sends every change as it happens, and the quick match, asked for over that same WebSocket
(:mod:`escoba.server.lobby`)."""

from __future__ import annotations

import asyncio
import contextlib

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from ...clients import Client
from ...errors import Refusal
from ...lobby import QuickMatch
from ...protocol import (
    CancelSeekMessage,
    FillMessage,
    PingMessage,
    PongMessage,
    SeekMessage,
    TablesMessage,
    parse_lobby_message,
)
from ..deps import (
    Lobby,
    account_of,
    address_of,
    lobby_of,
    quick_match_of,
    settings_of,
    validation_text,
)
from ..socket import message_text, open_socket, refuse_socket

__all__ = ["router"]

router = APIRouter()


@router.get("/api/tables")
async def open_tables(lobby: Lobby) -> TablesMessage:
    """The open tables now: those with a free seat first, then the matches to watch."""
    return TablesMessage(tables=lobby.tables())


@router.websocket("/ws/lobby")
async def lobby_socket(websocket: WebSocket) -> None:
    """The open tables, then each change to them (``table``, ``table_gone``); the client
    may ``seek`` a quick match (then ``fill`` or ``cancel_seek``) and ``ping``. Closing the
    socket leaves the quick-match queue."""
    if not await open_socket(websocket, "pages of another site may not watch the lobby"):
        return
    settings = settings_of(websocket)
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
    quick = quick_match_of(websocket)
    signed = await account_of(websocket)  # the page's session as the socket opened
    account = None if signed is None else (signed.account_id, signed.username)
    lobby.watch(client)
    try:
        await _read(websocket, client, quick, address_of(websocket), account)
    finally:
        lobby.unwatch(client)
        leaving = quick.gone(client)
        if leaving is not None:  # shielded: a handler cancelled as it closes leaves too
            with contextlib.suppress(BaseException):
                await asyncio.shield(leaving)
        client.close()
        pump.cancel()
        with contextlib.suppress(BaseException):
            await pump
        with contextlib.suppress(Exception):
            await asyncio.wait_for(websocket.close(), 1.0)


async def _read(
    websocket: WebSocket,
    client: Client,
    quick: QuickMatch,
    address: str,
    account: tuple[int, str] | None,
) -> None:
    """Act on the client's messages until it goes or its connection is closed."""
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
            data = received.get("text")
            if data is None:
                data = received.get("bytes") or b""
            try:
                await _answer(client, quick, address, account, data)
            except Refusal as refusal:
                client.send(refusal.to_message())
    finally:
        ended.cancel()


async def _answer(
    client: Client,
    quick: QuickMatch,
    address: str,
    account: tuple[int, str] | None,
    data: str | bytes,
) -> None:
    """Act on one message; a refusal raises :class:`Refusal`."""
    text = message_text(client, data)
    try:
        message = parse_lobby_message(text)
    except ValidationError as error:
        raise Refusal(
            "bad_message",
            "the lobby's socket takes 'seek', 'fill', 'cancel_seek' and 'ping': "
            + validation_text(error),
        ) from None
    if isinstance(message, PingMessage):
        client.send(PongMessage())
    elif isinstance(message, SeekMessage):
        await quick.seek(client, message, account, address)
    elif isinstance(message, FillMessage):
        await quick.fill(client, message, address)
    elif isinstance(message, CancelSeekMessage):
        await quick.cancel(client)
