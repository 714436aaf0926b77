"""Shared helpers for the web server tests (``tests/test_server_*.py``).

An app runs on a database named by a path in the test's temporary folder (a SQLite file, or
a PostgreSQL database of its own when the test runs on PostgreSQL: ``database_fixtures``)
with ``pace=0``, so computer seats move at once, inside ``fastapi.testclient.TestClient``
used as a context manager (the lifespan runs: migrations, resuming matches). A
:class:`Peer` wraps one WebSocket and reads its messages with a timeout, so a message that
never comes fails the test instead of hanging it. Positions the server reached are rebuilt
from the server's own record with the engine, which lets a test check every state message
against the exact position it was sent from.

Loaded as a pytest plugin (``conftest.pytest_plugins``), so its fixtures (``client``) serve
every test module; a module that needs another ``client`` defines its own, which wins.
"""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.pool import NullPool

import database_fixtures
from escoba import Card, Game, InvalidCardError, Play
from escoba.records import replay
from escoba.server.config import (
    DEFAULT_LIMITS,
    DEFAULT_TIMINGS,
    SYSTEM_CLOCK,
    Clock,
    Limits,
    PasswordCost,
    Settings,
    Timings,
)
from escoba.server.http.app import create_app
from escoba.server.storage.repository import Storage

TIMEOUT = 15.0
"""Seconds to wait for a message that must come (a failing test, never a hanging one)."""

PLAYS_PER_HAND = 36  # RULES.md "A hand": 40 cards less the 4 first table cards

Message = dict[str, Any]


def database_url(path: Path) -> str:
    """The URL of the test database ``path`` names: the SQLite file at ``path``, or, when the
    test runs on PostgreSQL, the database made for ``path`` (the first time it is named)."""
    return database_fixtures.current().url(path)


TEST_LIMITS = DEFAULT_LIMITS.replace(
    rooms_per_address=100_000, computer_seats_per_address=300_000, hint_seconds=0.001
)
"""The server's limits, but with one address (every test client's) creating rooms freely
and hints as fast as a test asks: a test module opens many rooms and plays faster than
people. Tests of those limits pass limits of their own."""


TEST_PASSWORD_COST = PasswordCost(time_cost=1, memory_kib=8 * 1024, parallelism=1)
"""Argon2id still, but cheap: the tests make many accounts (the server's default is RFC
9106's, which ``test_server_accounts`` checks once)."""


class ManualClock:
    """A clock the test moves on (``advance``) instead of waiting: the app reads its time
    and its sleepers wake when it passes their hour, whatever thread moves it."""

    def __init__(self, start: float = 1000.0) -> None:
        self.time = start
        self._lock = threading.Lock()
        self._slept = threading.Condition(self._lock)
        self._sleepers: list[tuple[float, asyncio.Future[None]]] = []

    def now(self) -> float:
        return self.time

    def wall(self) -> float:
        return self.time

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        woken = asyncio.get_running_loop().create_future()
        with self._lock:
            self._sleepers.append((self.time + seconds, woken))
            self._slept.notify_all()
        await woken

    def sleeper(self, wanted: Callable[[float], bool], timeout: float = TIMEOUT) -> float:
        """The earliest hour something sleeps until that ``wanted(hour)`` accepts, once
        something does (waiting for it: call this from another thread than the sleepers');
        TimeoutError if nothing does within ``timeout`` real seconds."""
        found: list[float] = []

        def asleep() -> bool:
            found[:] = sorted(
                hour for hour, woken in self._sleepers if not woken.done() and wanted(hour)
            )
            return bool(found)

        with self._slept:
            if not self._slept.wait_for(asleep, timeout):
                raise TimeoutError(f"nothing went to sleep as wanted within {timeout} s")
        return found[0]

    def advance(self, seconds: float) -> None:
        """Move the time on by ``seconds``, waking every sleeper whose hour has come."""
        with self._lock:
            self.time += seconds
            due = [woken for hour, woken in self._sleepers if hour <= self.time]
            self._sleepers = [entry for entry in self._sleepers if entry[1] not in due]
        for woken in due:
            woken.get_loop().call_soon_threadsafe(_wake, woken)


def _wake(woken: asyncio.Future[None]) -> None:
    if not woken.done():  # a sleeper cancelled meanwhile
        woken.set_result(None)


def site_apps(folder: Path, redis_url: str, redis_prefix: str, count: int = 2) -> list[FastAPI]:
    """``count`` apps of one site, sharing the test database ``folder / "site.db"`` names
    (its schema made once, before they start) and a Redis: several server processes in
    one, each with its own registry, bus and event loop once its ``TestClient`` runs."""
    database = database_url(folder / "site.db")
    migrated = Storage(database)
    migrated.migrate()
    migrated.close()
    settings = Settings(
        database_url=database,
        pace=0.0,
        limits=TEST_LIMITS,
        redis_url=redis_url,
        redis_prefix=redis_prefix,
        password_cost=TEST_PASSWORD_COST,
    )
    return [create_app(settings) for _ in range(count)]


@contextmanager
def running_app(
    database: Path,
    *,
    pace: float = 0.0,
    limits: Limits = TEST_LIMITS,
    timings: Timings = DEFAULT_TIMINGS,
    clock: Clock = SYSTEM_CLOCK,
    password_cost: PasswordCost = TEST_PASSWORD_COST,
) -> Iterator[TestClient]:
    """A started app on the test database ``database`` names; leaving the block shuts it
    down."""
    databases = database_fixtures.current()
    settings = Settings(
        database_url=databases.url(database),
        pace=pace,
        limits=limits,
        timings=timings,
        clock=clock,
        password_cost=password_cost,
    )
    app = create_app(settings)
    with databases.running(), TestClient(app) as client:
        yield client


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """A started app on a database of the test's own."""
    with running_app(tmp_path / "escoba.db") as client:
        yield client


def database_rows(database: Path) -> str:
    """Every row of every table of the PostgreSQL test database ``database`` names, as text,
    one row a line (the text form of a whole row: every column, JSON ones too)."""
    engine = create_engine(database_url(database), poolclass=NullPool)
    try:
        with engine.connect() as connection:
            quote = connection.dialect.identifier_preparer.quote
            lines = [
                row
                for table in inspect(connection).get_table_names()
                for row in connection.scalars(text(f"SELECT CAST(t AS text) FROM {quote(table)} t"))
            ]
    finally:
        engine.dispose()
    return "\n".join(lines)


def database_content(database: Path, backend: str) -> bytes:
    """All the database holds: on SQLite its file with the write-ahead log, its shared memory
    and the journal, as they lie on disk; on PostgreSQL every row of every table, as text."""
    if backend != "sqlite":
        rows = database_rows(database)
        assert rows, "no row was read"
        return rows.encode()
    found = b""
    for suffix in ("", "-wal", "-shm", "-journal"):
        path = database.with_name(database.name + suffix)
        if path.exists():
            found += path.read_bytes()
    return found


# -- HTTP -----------------------------------------------------------------------------------


def create_room(client: TestClient, **fields: Any) -> Message:
    """Open a room (default: Ana against an ``easy`` computer, Escoba to 3); the ticket."""
    body: dict[str, Any] = {
        "nickname": "Ana",
        "seats": ["person", "easy"],
        "options": {"target_score": 3},
    }
    body.update(fields)
    response = client.post("/api/rooms", json=body)
    assert response.status_code == 201, response.text
    ticket: Message = response.json()
    return ticket


def join_room(client: TestClient, room: str, nickname: str, seat: int | None = None) -> Message:
    body: dict[str, Any] = {"nickname": nickname}
    if seat is not None:
        body["seat"] = seat
    response = client.post(f"/api/rooms/{room}/join", json=body)
    assert response.status_code == 200, response.text
    ticket: Message = response.json()
    return ticket


def two_people(
    client: TestClient, *, guest: str = "Bea", **room: Any
) -> tuple[str, Message, Message]:
    """Open a room (by default of two seats, both people) and seat ``guest`` in it as well:
    the room id, the opener's ticket and the guest's."""
    room.setdefault("seats", ["person", "person"])
    ticket = create_room(client, **room)
    joined = join_room(client, ticket["room"], guest)
    return ticket["room"], ticket, joined


def room_info(client: TestClient, room: str) -> Message:
    response = client.get(f"/api/rooms/{room}")
    assert response.status_code == 200, response.text
    info: Message = response.json()
    return info


def assert_refused(response: Any, status: int, code: str) -> Message:
    """An HTTP refusal: the status and an ``error`` message with its code and a text."""
    assert response.status_code == status, response.text
    body: Message = response.json()
    assert body["type"] == "error"
    assert body["code"] == code
    assert isinstance(body["message"], str) and body["message"]
    return body


# -- the server's own view (read on the server's event loop, so never half-changed) -------


def on_server(client: TestClient, read: Callable[[Any], Any]) -> Any:
    """``read(hub)`` run on the app's event loop, between two of its steps."""

    async def run() -> Any:
        return read(client.app.state.registry)  # type: ignore[attr-defined]

    return client.portal.call(run)  # type: ignore[union-attr]


def server_record(client: TestClient, room: str) -> dict[str, Any]:
    """The record of the room's current match, as the server holds it now."""
    record: dict[str, Any] = on_server(client, lambda hub: hub.rooms[room].game.record())
    return record


def server_game(client: TestClient, room: str) -> Game:
    """A copy of the room's current match (replayed from the server's record)."""
    return Game.from_record(server_record(client, room))


# -- WebSocket peers ----------------------------------------------------------------------


class Closed(Exception):  # noqa: N818 (an event, not an error)
    """The server closed the WebSocket, with this close code."""

    def __init__(self, code: int) -> None:
        super().__init__(f"the server closed the WebSocket with code {code}")
        self.code = code


class Peer:
    """One WebSocket connection to a room: what it sent and everything it received."""

    def __init__(self, websocket: Any, client: TestClient | None = None, room: str = "") -> None:
        self.websocket = websocket
        self.client = client
        self.room = room
        self.received: list[Message] = []
        self.seat: int | None = None

    def send(self, message: Message) -> None:
        self.websocket.send_json(message)

    def send_text(self, text: str) -> None:
        self.websocket.send_text(text)

    def send_bytes(self, data: bytes) -> None:
        self.websocket.send_bytes(data)

    def receive(self, timeout: float = TIMEOUT) -> Message:
        """The next message; TimeoutError if none comes in time."""
        stream = self.websocket._send_rx  # the test session's inbox (starlette has no timeout)

        async def next_message() -> Any:
            with anyio.fail_after(timeout):
                return await stream.receive()

        raw = self.websocket.portal.call(next_message)
        if raw["type"] == "websocket.close":
            raise Closed(raw.get("code", 1000))
        message: Message = json.loads(raw["text"])
        self.received.append(message)
        return message

    def until(self, wanted: Callable[[Message], bool], timeout: float = TIMEOUT) -> Message:
        """Read messages until one is ``wanted``; that one."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no wanted message; the last ones: {self.received[-3:]}")
            message = self.receive(left)
            if wanted(message):
                return message

    def barrier(self) -> list[Message]:
        """Send a ping; every message that came before the pong (the server answers a
        connection's messages in order, so this is all it was sent until then)."""
        start = len(self.received)
        self.send({"type": "ping"})
        self.until(lambda message: message["type"] == "pong")
        return self.received[start:-1]

    def refused(self, code: str) -> Message:
        """The error that must answer the message just sent, and nothing else with it."""
        before = self.barrier()
        errors = [message for message in before if message["type"] == "error"]
        assert [m["code"] for m in errors] == [code], before
        assert len(before) == 1, f"a refusal sent more than the error: {before}"
        return errors[0]

    def join(self, token: str) -> tuple[Message, Message]:
        """Take a seat: the welcome and the first state."""
        self.send({"type": "join", "token": token})
        welcome = self.until(lambda message: message["type"] in ("welcome", "error"))
        assert welcome["type"] == "welcome", welcome
        self.seat = welcome["seat"]
        state = self.until(is_state)
        return welcome, state

    def watch(self) -> tuple[Message, Message]:
        self.send({"type": "watch"})
        welcome = self.until(lambda message: message["type"] in ("welcome", "error"))
        assert welcome["type"] == "welcome", welcome
        state = self.until(is_state)
        return welcome, state

    def states(self) -> list[Message]:
        return [message for message in self.received if is_state(message)]

    def last_state(self) -> Message | None:
        states = self.states()
        return states[-1] if states else None

    def settle(self) -> None:
        """Wait until no move is being stored in the room, then read everything sent so far
        (a move is broadcast while the room's lock is held)."""
        assert self.client is not None
        room = self.room

        async def wait_for_the_lock(hub: Any) -> None:
            async with hub.rooms[room].lock:
                pass

        async def run() -> None:
            await wait_for_the_lock(self.client.app.state.registry)  # type: ignore[union-attr]

        self.client.portal.call(run)  # type: ignore[union-attr]
        self.barrier()

    def my_turn(self) -> Message:
        """The latest state, once this peer's seat is to move and the move before it is
        stored and sent (reading on until then). Call it before playing: right after this
        peer's own play, the state before that play still says it is its turn."""
        assert self.seat is not None
        return self.turn_of(self.seat)

    def turn_of(self, seat: int) -> Message:
        """The latest state, once ``seat`` (a person's) is to move and everything before
        it has been received: nothing more comes until somebody acts."""
        last = self.last_state()
        if last is None or last["match"]["to_move"] != seat:
            self.until(lambda m: is_state(m) and m["match"]["to_move"] == seat)
        self.settle()
        state = self.last_state()
        assert state is not None and state["match"]["to_move"] == seat
        return state

    def state_at(self, played: int) -> Message:
        """This peer's state after ``played`` moves (reading on until it comes)."""
        last = self.last_state()
        if last is not None and moves_played(last) == played:
            return last
        return self.until(lambda message: is_state(message) and moves_played(message) == played)


class RemotePeer(Peer):
    """A peer on a real server, over a ``websockets`` client connection."""

    def send(self, message: Message) -> None:
        self.websocket.send(json.dumps(message))

    def send_text(self, text: str) -> None:
        self.websocket.send(text)

    def send_bytes(self, data: bytes) -> None:
        self.websocket.send(data)

    def receive(self, timeout: float = TIMEOUT) -> Message:
        message: Message = json.loads(self.websocket.recv(timeout=timeout))
        self.received.append(message)
        return message


@contextmanager
def connect(client: TestClient, room: str) -> Iterator[Peer]:
    with client.websocket_connect(f"/ws/rooms/{room}") as websocket:
        yield Peer(websocket, client, room)


def is_state(message: Message) -> bool:
    return bool(message["type"] == "state")


def moves_played(state: Message) -> int:
    """Moves played in the match up to this state (a hand has 36 plays, 40 in Scopone
    scientifico: the cards not dealt to the first table; a bare match view counts 36)."""
    match = state.get("match", state)
    plays = sum(event["kind"] == "play" for event in match["history"])
    table_cards = state.get("room", {}).get("rules", {}).get("table_cards", 4)
    return int(match["hand_number"]) * (40 - int(table_cards)) + plays


def play_message(move: Message) -> Message:
    return {"type": "play", "card": move["card"], "captures": move["captures"]}


def first_move(legal: Sequence[Message]) -> Message:
    return legal[0]


def play_until(
    peers: Sequence[Peer],
    stop: Callable[[Message], bool],
    *,
    choose: Callable[[Sequence[Message]], Message] = first_move,
) -> Message:
    """Play legal moves (from each seat's own ``legal`` list) for every seated peer until
    ``stop(state)`` holds for a new position; that state, as ``peers[0]`` saw it.

    Each position is acted on once: a repeated state (someone joined or left) is not a turn.
    """
    watcher = peers[0]
    by_seat = {peer.seat: peer for peer in peers if peer.seat is not None}
    seen = -1
    while True:
        state = watcher.last_state()
        if state is None or moves_played(state) <= seen:
            state = watcher.until(lambda m, after=seen: is_state(m) and moves_played(m) > after)
        seen = moves_played(state)
        if stop(state):
            return state
        to_move = state["match"]["to_move"]
        assert to_move is not None, "the match ended before the stop condition held"
        player = by_seat.get(to_move)
        if player is None:
            continue  # a computer seat (or a person not driven here): wait for its move
        own = player.state_at(seen)
        legal = own["match"]["legal"]
        assert legal, f"seat {to_move} is to move with no legal move: {own['match']}"
        player.send(play_message(choose(legal)))


# -- positions rebuilt from a record --------------------------------------------------------


@dataclass(frozen=True)
class Position:
    """What the server's game held after some number of moves."""

    hands: tuple[frozenset[str], ...]
    table: frozenset[str]
    hand_sizes: tuple[int, ...]
    stock_size: int
    totals: tuple[int, ...]
    to_move: int | None
    hand_number: int
    dealer: int
    results: int
    legal: frozenset[str]
    winner: int | None


def positions(record: dict[str, Any]) -> list[Position]:
    """Every position of a recorded match, indexed by moves played."""
    found: list[Position] = []

    def seen(game: Game, _play: Play | None) -> None:
        found.append(
            Position(
                hands=tuple(
                    frozenset(str(card) for card in game.hand(seat)) for seat in range(game.players)
                ),
                table=frozenset(str(card) for card in game.table),
                hand_sizes=game.hand_sizes,
                stock_size=game.stock_size,
                totals=game.totals,
                to_move=game.to_move,
                hand_number=game.hand_number,
                dealer=game.dealer,
                results=len(game.results),
                legal=frozenset(str(move) for move in game.legal_moves()),
                winner=game.winner,
            )
        )

    replay(record, on_move=seen)
    return found


def card_texts(value: Any) -> set[str]:
    """Every card named anywhere in a message part (move texts such as ``4h:4c+7d`` too)."""
    found: set[str] = set()
    if isinstance(value, dict):
        for item in value.values():
            found |= card_texts(item)
    elif isinstance(value, list):
        for item in value:
            found |= card_texts(item)
    elif isinstance(value, str):
        for piece in value.replace(":", "+").split("+"):
            with suppress(InvalidCardError):
                found.add(str(Card.parse(piece)))
    return found


def cards_about_this_deal(state: Message) -> set[str]:
    """The cards a state message names about the deal now on the table.

    Left out, as in ``conftest.current_hand_cards_in``: ``results`` (finished hands, whose
    piles were shown when they were scored), ``redeal`` events (a thrown-in deal's table, from
    an earlier shuffle) and the ``event`` of a state that ended a hand (a play of the hand
    before; the next hand is a new shuffle).
    """
    match = dict(state["match"])
    match.pop("results", None)
    match["history"] = [event for event in match["history"] if event["kind"] != "redeal"]
    found = card_texts(match)
    if state.get("event") is not None and not state.get("hand_ended"):
        found |= card_texts(state["event"])
    return found


def assert_state_matches(state: Message, position: Position, seat: int | None) -> None:
    """A state message shows exactly this position as ``seat`` (None: a spectator) may see
    it: its own hand and the public part, and no card of any other hand."""
    match = state["match"]
    assert match["seat"] == seat
    assert match["hand_number"] == position.hand_number
    assert match["dealer"] == position.dealer
    assert match["to_move"] == position.to_move
    assert set(match["table"]) == position.table
    assert len(match["table"]) == len(position.table)
    assert tuple(match["hand_sizes"]) == position.hand_sizes
    assert match["stock_size"] == position.stock_size
    assert tuple(match["totals"]) == position.totals
    assert len(match["results"]) == position.results
    assert match["winner"] == position.winner
    assert match["over"] == (position.winner is not None)
    hidden = set().union(*(hand for other, hand in enumerate(position.hands) if other != seat))
    leaked = cards_about_this_deal(state) & hidden
    assert not leaked, f"seat {seat} was shown cards of other hands: {sorted(leaked)}"
    if seat is None:
        assert match["hand"] == []
        assert match["legal"] == []
    else:
        assert set(match["hand"]) == position.hands[seat]
        assert len(match["hand"]) == position.hand_sizes[seat]
        mine = position.legal if position.to_move == seat else frozenset()
        assert {move["text"] for move in match["legal"]} == mine
        assert len(match["legal"]) == len(mine)


def assert_states_match(peer: Peer, record: dict[str, Any]) -> int:
    """Every state ``peer`` received matches the position it was sent from; how many."""
    found = positions(record)
    states = peer.states()
    for state in states:
        assert_state_matches(state, found[moves_played(state)], peer.seat)
    return len(states)


# -- a real server process --------------------------------------------------------------------


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def wait_for_port(port: int, *, timeout: float = 30.0, alive: Callable[[], bool]) -> None:
    """Poll until something listens on ``port`` (while ``alive()``), or fail."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert alive(), "the server process ended before it listened"
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise TimeoutError(f"nothing listened on port {port} within {timeout} s")


@contextmanager
def server_process(database: Path, port: int, log: Path) -> Iterator[subprocess.Popen[bytes]]:
    """``escoba serve`` (``pace`` 0) in its own process, listening on ``port`` and writing to
    ``log``; ended (by its handle) on leaving the block if still running."""
    command = [sys.executable, "-m", "escoba", "serve", "--port", str(port), "--pace", "0"]
    command += ["--database", database_url(database)]
    with log.open("ab") as output:
        process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT)
        try:
            wait_for_port(port, alive=lambda: process.poll() is None)
            yield process
        finally:
            if process.poll() is None:
                process.kill()
                process.wait(TIMEOUT)


# -- the rate limit -------------------------------------------------------------------------


def lift_rate_limit(monkeypatch: Any) -> None:
    """Let connections send as fast as a test drives them (``clients.RATE_PER_SECOND``,
    read for every new connection, made huge): for tests about something else than the rate
    limit."""
    from escoba.server import clients

    monkeypatch.setattr(clients, "RATE_PER_SECOND", 1e9)


# -- cards named in a message ---------------------------------------------------------------

CARD_TOKEN = r"(?<![0-9A-Za-z])[A2-7JQK][dhsc♦♥♠♣](?![0-9A-Za-z])"
"""A card named in a sentence: "7d" or "7♦" (the French deck's names, as hints use them)."""
WORDS = frozenset({"As"})
"""A word in English and Spanish sentences ("As good as the best move"), so in a sentence it
is not taken for the ace of swords; a whole field "As" or a move text still is."""
FIXED_EXAMPLES = ("for example 7d",)
"""Fixed sample texts in the engine's explanations of a malformed card: the same whatever the
position, so naming no card of it."""
NOT_CARDS = frozenset({"id", "invite"})
"""String fields of a room that are never cards (the random room id could look like one)."""


def cards_of_text(text: str) -> set[str]:
    """The cards a text names: all of a card or move text (``4h:4c+7d``), else those in it."""
    import re

    try:
        return {str(Card.parse(part)) for part in text.replace(":", "+").split("+")}
    except InvalidCardError:
        pass
    found = set()
    for example in FIXED_EXAMPLES:
        text = text.replace(example, "")
    for token in re.findall(CARD_TOKEN, text):
        if token not in WORDS:
            found.add(str(Card.parse(token)))
    return found


def named_cards(value: Any) -> set[str]:
    """Every card named anywhere in a JSON value: field values, list items, texts, keys."""
    found: set[str] = set()
    if isinstance(value, dict):
        for key, item in value.items():
            found |= named_cards(key)
            if not (key in NOT_CARDS and isinstance(item, str)):
                found |= named_cards(item)
    elif isinstance(value, list):
        for item in value:
            found |= named_cards(item)
    elif isinstance(value, str):
        found |= cards_of_text(value)
    return found
