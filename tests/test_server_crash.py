"""Crash safety: kill the server with SIGKILL while several matches are being played, start it
again on the same database, and find every move that any client was told of; every match
goes on.

A move is stored (committed) before any client is told of it (docs/protocol.md, "Storage
and restarts"), so whatever a client saw survives a crash; a move that was stored but not yet
sent out may be there too, nothing else.
"""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from escoba import Game, Move
from escoba.server.storage.repository import Storage
from server_helpers import TIMEOUT, database_url, free_port, play_message, server_process

ROOMS = 4
KILL_AFTER = 60
"""Moves acknowledged to the clients, in all rooms together, before the kill."""


def move_of(event: dict[str, Any]) -> Move:
    card = event["card"]
    return Move.parse(f"{card}:{'+'.join(event['captures'])}" if event["captures"] else card)


def stored_moves(game: Game) -> list[Move]:
    record = game.record()
    return [Move.parse(text) for hand in record["hands"] for text in hand["moves"]]


async def play(
    url: str, ticket: dict[str, Any], seen: list[Move], total: list[int], *, joined: bool = True
) -> None:
    """Play the seat as fast as the server allows, noting every move the server tells of
    (with ``joined``, also those already made when the first state arrives)."""
    address = url.replace("http", "ws", 1) + f"/ws/rooms/{ticket['room']}"
    try:
        async with websockets.connect(address) as socket:
            await socket.send(json.dumps({"type": "join", "token": ticket["token"]}))
            while True:
                message = json.loads(await socket.recv())
                if message["type"] != "state":
                    continue
                if joined and not seen and message["event"] is None:
                    # Moves made before we joined (a computer that deals or moves first)
                    # are in the first state's history: they count as told too.
                    assert message["match"]["hand_number"] == 0
                    seen[:] = [
                        move_of(event)
                        for event in message["match"]["history"]
                        if event["kind"] == "play"
                    ]
                elif message["event"] is not None:
                    seen.append(move_of(message["event"]))
                    total[0] += 1
                match = message["match"]
                if match["to_move"] == ticket["seat"] and match["legal"]:
                    move = match["legal"][0]
                    await socket.send(json.dumps(play_message(move)))
    except (websockets.ConnectionClosed, OSError):
        return  # the server was killed under us


async def play_until_killed(
    url: str, tickets: list[dict[str, Any]], process: subprocess.Popen[bytes]
) -> list[list[Move]]:
    seen: list[list[Move]] = [[] for _ in tickets]
    total = [0]
    players = [
        asyncio.create_task(play(url, ticket, moves, total))
        for ticket, moves in zip(tickets, seen, strict=True)
    ]
    deadline = asyncio.get_running_loop().time() + TIMEOUT
    while total[0] < KILL_AFTER:
        assert asyncio.get_running_loop().time() < deadline, "the matches did not move"
        await asyncio.sleep(0.01)
    process.send_signal(signal.SIGKILL)  # mid-play: moves in flight in every room
    process.wait()
    await asyncio.wait_for(asyncio.gather(*players), TIMEOUT)
    return seen


@pytest.mark.slow
def test_every_acknowledged_move_survives_sigkill(tmp_path: Path) -> None:
    database = tmp_path / "escoba.db"
    log = tmp_path / "server.log"
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with server_process(database, port, log) as process:
        tickets = [
            httpx.post(
                url + "/api/rooms",
                json={"nickname": f"P{n}", "seats": ["person", "beginner", "beginner"][: 2 + n % 2]}
                | {"players": 2 + n % 2},
                timeout=TIMEOUT,
            ).json()
            for n in range(ROOMS)
        ]
        seen = asyncio.run(play_until_killed(url, tickets, process))
    assert process.returncode == -signal.SIGKILL
    assert sum(map(len, seen)) >= KILL_AFTER

    # What is on disk after the crash holds every move a client was told of, in order.
    storage = Storage(database_url(database))
    storage.migrate()
    try:
        for ticket, told in zip(tickets, seen, strict=True):
            stored = storage.room(ticket["room"])
            assert stored is not None
            moves = stored_moves(stored.game)
            assert moves[: len(told)] == told, f"room {ticket['room']} lost an acknowledged move"
            assert len(moves) - len(told) <= 1, "at most the move in flight is beyond the last seen"
    finally:
        storage.close()

    # Every match continues after a restart: each person plays on, computers answer.
    with server_process(database, port, log) as process:
        try:
            after = asyncio.run(play_some_more(url, tickets))
            for ticket, moves in zip(tickets, after, strict=True):
                assert len(moves) >= 4, f"room {ticket['room']} did not continue"
        finally:
            process.send_signal(signal.SIGTERM)
            process.wait(TIMEOUT)
    assert "Traceback" not in log.read_text()


async def play_some_more(url: str, tickets: list[dict[str, Any]]) -> list[list[Move]]:
    seen: list[list[Move]] = [[] for _ in tickets]

    async def each(ticket: dict[str, Any], moves: list[Move]) -> None:
        total = [0]
        task = asyncio.create_task(play(url, ticket, moves, total, joined=False))
        while len(moves) < 4:
            await asyncio.sleep(0.01)
        task.cancel()

    await asyncio.wait_for(
        asyncio.gather(*(each(t, m) for t, m in zip(tickets, seen, strict=True))), TIMEOUT
    )
    return seen
