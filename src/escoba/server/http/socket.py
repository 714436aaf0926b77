"""A room's WebSocket: the origin check, the join deadline, and each message read, checked
for size, rate and form, and handed to the room (:mod:`escoba.server.rooms.actor`). A refusal
goes back as an ``error`` message and the socket stays open."""

from __future__ import annotations

import asyncio
import contextlib
import time
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from ..clients import RATE_PER_SECOND, Client
from ..errors import Refusal
from ..memory import Waves
from ..protocol import MAX_MESSAGE_BYTES, ErrorMessage, PlayMessage, parse_client_message
from ..rooms.actor import Room
from .deps import registry_of, settings_of, validation_text

__all__ = ["message_text", "open_socket", "origin_allowed", "refuse_socket", "router"]

router = APIRouter()


@router.websocket("/ws/rooms/{room_id}")
async def room_socket(websocket: WebSocket, room_id: str) -> None:
    if not await open_socket(websocket, "pages of another site may not open rooms"):
        return
    settings = settings_of(websocket)
    registry = registry_of(websocket)
    try:
        room = await registry.room(room_id)
    except Refusal as refusal:
        await refuse_socket(websocket, refusal, 4404 if refusal.status == 404 else 4503)
        return
    limits = settings.limits
    waves: Waves = websocket.app.state.waves
    client = Client(websocket, limits.send_backlog, limits.send_seconds)
    registry.handlers += 1
    waves.count(registry.handlers)
    pump = asyncio.create_task(client.pump())
    try:
        await _serve_socket(websocket, room, client, limits.join_seconds)
    finally:
        registry.handlers -= 1
        waves.count(registry.handlers)
        room.leave(client)  # closes it: the pump ends however full its queue
        pump.cancel()
        with contextlib.suppress(BaseException):
            await pump
        with contextlib.suppress(Exception):
            await asyncio.wait_for(websocket.close(), 1.0)


async def open_socket(websocket: WebSocket, refused: str) -> bool:
    """Accept a socket, and refuse it (``bad_origin``, saying ``refused``, code 4403) when a
    page of another site opened it; whether it may go on."""
    await websocket.accept()
    allowed = {origin.rstrip("/").lower() for origin in settings_of(websocket).origins}
    if origin_allowed(websocket, allowed):
        return True
    await refuse_socket(websocket, Refusal("bad_origin", refused), 4403)
    return False


def origin_allowed(websocket: WebSocket, allowed: set[str]) -> bool:
    """A page may open the room's socket only from this server's own site (or one named
    with ``origins``); clients that are not browsers send no Origin and are let in."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    origin = origin.rstrip("/").lower()
    host = websocket.headers.get("host", "").lower()
    return origin in allowed or (bool(host) and urlsplit(origin).netloc == host)


async def refuse_socket(websocket: WebSocket, refusal: Refusal, code: int) -> None:
    with contextlib.suppress(Exception):
        await asyncio.wait_for(websocket.send_text(refusal.to_message().model_dump_json()), 1.0)
        await asyncio.wait_for(websocket.close(code=code), 1.0)


async def _serve_socket(
    websocket: WebSocket, room: Room, client: Client, join_seconds: float
) -> None:
    """Read the client's messages until it goes or its connection is closed (by a full
    queue, a stuck send, the server stopping): whichever comes first ends the handler. A
    connection that has not joined or watched within ``join_seconds`` is closed."""
    deadline = time.monotonic() + join_seconds
    ended = asyncio.ensure_future(client.ended.wait())
    try:
        while not client.closed:
            receiving = asyncio.ensure_future(websocket.receive())
            wait = None if client.joined else max(0.0, deadline - time.monotonic())
            done, _ = await asyncio.wait(
                {receiving, ended}, timeout=wait, return_when=asyncio.FIRST_COMPLETED
            )
            if receiving not in done:
                receiving.cancel()
                with contextlib.suppress(BaseException):
                    await receiving
                if not done:  # the join deadline passed
                    client.send(
                        ErrorMessage(
                            code="join_timeout",
                            message=f"send 'join' or 'watch' within {join_seconds:g} seconds",
                        )
                    )
                    client.finish()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(client.ended.wait(), 1.0)
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
            await _answer(room, client, data)
    finally:
        ended.cancel()


def message_text(client: Client, data: str | bytes) -> str:
    """The text of one message a client sent, within its rate, as text in UTF-8 and at most
    ``MAX_MESSAGE_BYTES``; else :class:`Refusal` naming what was wrong (nothing is read)."""
    if not client.allow():
        raise Refusal(
            "rate_limited",
            f"too many messages: at most {RATE_PER_SECOND:g} a second; this one was not read",
        )
    if isinstance(data, str):
        try:
            size = len(data.encode())
        except UnicodeEncodeError:  # a server that passed on text that is not UTF-8
            raise Refusal("bad_message", "send text in UTF-8") from None
    else:
        size = len(data)
    if size > MAX_MESSAGE_BYTES:
        raise Refusal("too_large", f"messages are limited to {MAX_MESSAGE_BYTES} bytes")
    if isinstance(data, bytes):
        raise Refusal("bad_message", "send JSON as text frames")
    return data


async def _answer(room: Room, client: Client, data: str | bytes) -> None:
    """Act on one message; every refusal goes back as an error message."""
    try:
        message = parse_client_message(message_text(client, data))
        await room.handle(client, message)
    except ValidationError as error:
        client.send(ErrorMessage(code="bad_message", message=validation_text(error)))
    except Refusal as refusal:
        client.send(refusal.to_message())
    else:
        if isinstance(message, PlayMessage):
            client.refund()
