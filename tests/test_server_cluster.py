"""Rooms across processes (issue 17): three ``escoba serve`` processes on loopback, sharing one
PostgreSQL database and one Redis, are one site.

Clients are spread over the processes (the two people of a room on two of them and a
spectator on the third; rooms against computers opened on one process and played from
another). Every connection is shown the same moves, in order, and they are the stored record's
moves, each exactly once; plays, take backs and rematches sent through a process that does not
own the room reach its owner; a seat taken and connected on one process shows on the others.
An owner paused (SIGSTOP) past its lease loses its room to another process and, woken up,
stores and shows nothing stale. One process is killed with SIGKILL while moves flow in every
room: its clients connect to the others and join again with their tokens, a play refused with
``restarting`` is sent again a moment later, the dead process's rooms are taken over (computer
seats play on) and every match moves again within a few seconds, losing and doubling nothing.
Every message every connection received, the kill included, is checked against the position
it was sent from, replayed from the stored record (as in ``test_server_leaks.py``): no card of
another hand or of the stock, ever.

The tests share one site (starting three processes takes seconds); the kill comes last.
Several processes need PostgreSQL (``--redis`` refuses a SQLite file, one machine's) and
Redis: these tests run on the PostgreSQL backend only, which ``.ci/run`` always provides, with
a Redis (``tests/redis_fixtures.py``); the site has a Redis prefix of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis as redis_client
import websockets
from websockets.sync.client import connect as connect_socket

from database_fixtures import POSTGRES_VARIABLE
from escoba import RULESETS, Game, Move
from escoba.server.replication.leases import Lease, Leases, connect
from escoba.server.storage.repository import Storage
from redis_fixtures import REQUIRED, TestRedis, prefixed
from server_helpers import (
    PLAYS_PER_HAND,
    TIMEOUT,
    Message,
    RemotePeer,
    database_url,
    free_port,
    moves_played,
    named_cards,
    play_message,
    wait_for_port,
)
from test_server_crash import move_of, stored_moves
from test_server_leaks import Position, check_hint, check_state, recorded_positions, state_of

DATABASE_BACKENDS = ("postgresql",)
"""Several processes share a database server, never an SQLite file."""
PACE = 0.05
"""Seconds before each computer move (``--pace``)."""
THINK = 0.04
"""Seconds a person waits before playing: each person stays well under a connection's 20
messages a second."""
RETRY = 0.2
"""Seconds before a play refused with ``restarting`` is sent again."""
FLOWING = 10
"""Moves every room has made before the kill, so that moves flow everywhere when it comes."""
AFTER_KILL = 10
"""Moves every room must make after the kill."""
BACK_WITHIN = 10.0
"""Seconds after the kill by which every match must have moved again: a lease runs out
after 3 s, and a replica takes the room over about a second after that."""


# -- the site: three processes ---------------------------------------------------------------


@dataclass
class Node:
    """One ``escoba serve`` process of the site."""

    name: str
    port: int
    process: subprocess.Popen[bytes]
    log: Path
    killed: bool = False

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def alive(self) -> bool:
        return not self.killed and self.process.poll() is None

    def kill(self) -> None:
        self.killed = True  # before the signal: a client that sees the close knows why
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(TIMEOUT)


@dataclass
class Site:
    nodes: list[Node]
    database: str
    redis: TestRedis

    def node(self, name: str) -> Node:
        return next(node for node in self.nodes if node.name == name)

    def node_of(self, owner: str) -> Node:
        """The process a lease owner id names (its process id is one of its parts)."""
        parts = owner.split("-")
        found = [node for node in self.nodes if str(node.process.pid) in parts]
        assert len(found) == 1, f"no process of the site is the lease owner {owner!r}"
        return found[0]


def start_node(name: str, database: str, redis: TestRedis, folder: Path) -> Node:
    port = free_port()
    log = folder / f"server-{name}.log"
    command = [sys.executable, "-m", "escoba", "serve", "--port", str(port)]
    command += ["--pace", str(PACE), "--database", database]
    command += ["--redis", redis.url, "--redis-prefix", redis.prefix]
    with log.open("ab") as output:
        process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT)
    return Node(name, port, process, log)


@pytest.fixture(scope="module")
def site(
    database_backend: str, redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Site]:
    """Three processes A, B and C on one PostgreSQL database and one Redis (a prefix of this
    module's own); stopped at the end, and their logs must hold no traceback."""
    if not os.environ.get(POSTGRES_VARIABLE):
        missing = f"several processes need PostgreSQL, and {POSTGRES_VARIABLE} is not set"
        if REQUIRED:
            pytest.fail(f"every test must run here, but {missing}")
        pytest.skip(missing)
    if database_backend != "postgresql":
        pytest.skip("run on the PostgreSQL backend only: several processes never share SQLite")
    folder = tmp_path_factory.mktemp("site")
    database = database_url(folder / "escoba.db")
    # The schema made once, before the processes start together (each would make it).
    storage = Storage(database)
    storage.migrate()
    storage.close()
    with prefixed(redis_url) as redis:
        nodes = [start_node(name, database, redis, folder) for name in "ABC"]
        try:
            for node in nodes:
                wait_for_port(node.port, alive=node.alive)
                health = httpx.get(node.url + "/api/health", timeout=TIMEOUT)
                assert health.status_code == 200, health.text
            yield Site(nodes, database, redis)
        finally:
            for node in nodes:
                if node.alive():
                    node.process.send_signal(signal.SIGCONT)  # if a failed test paused it
                    node.process.send_signal(signal.SIGTERM)
            for node in nodes:
                try:
                    node.process.wait(TIMEOUT)
                except subprocess.TimeoutExpired:
                    node.process.kill()
                    node.process.wait()
    for node in nodes:
        said = node.log.read_text(errors="replace")
        assert "Traceback" not in said, f"process {node.name} logged a traceback:\n{said}"


def open_room(node: Node, **body: Any) -> Message:
    """A room opened on ``node``: the creator's ticket."""
    body.setdefault("nickname", "Ana")
    response = httpx.post(node.url + "/api/rooms", json=body, timeout=TIMEOUT)
    assert response.status_code == 201, response.text
    ticket: Message = response.json()
    return ticket


def join_on(node: Node, room: str, nickname: str) -> Message:
    response = httpx.post(
        f"{node.url}/api/rooms/{room}/join", json={"nickname": nickname}, timeout=TIMEOUT
    )
    assert response.status_code == 200, response.text
    ticket: Message = response.json()
    return ticket


# -- clients ---------------------------------------------------------------------------------


@dataclass
class Connection:
    """One WebSocket of a client, to one process: everything it received."""

    node: str
    received: list[Message] = field(default_factory=list)
    last: Message | None = None
    """Its latest state."""
    welcomed: bool = False
    hinted: bool = False


class Client:
    """A person's seat (with its token) or a spectator in one room, connected to the first
    live process of its list; when that process dies, it connects to the next and joins
    again. A person plays a random legal move on each turn while ``playing`` is set, asking
    for a hint (and waiting for it) on its first turn of each connection."""

    def __init__(
        self,
        name: str,
        room: str,
        nodes: list[Node],
        playing: asyncio.Event,
        token: str | None = None,
    ) -> None:
        self.name = name
        self.room = room
        self.nodes = nodes
        self.playing = playing
        self.token = token
        self.rng = random.Random(name)
        self.seat: int | None = None
        self.connections: list[Connection] = []
        self.socket: Any = None
        self.pending: tuple[int, Message] | None = None
        """The play sent (or about to be) at this many moves, not yet answered."""
        self.played_at = -1
        self.hinting = False
        self.restarts = 0
        """Plays refused with ``restarting`` (and sent again)."""
        self.refusals: list[Message] = []
        """Any other error."""
        self.dropped: list[str] = []
        """Processes that closed the connection while alive."""
        self.best = -1
        """The most moves any state showed it."""
        self.moments: list[tuple[float, int]] = []
        """When each state came (the loop's clock) and its moves."""
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def current(self) -> Connection | None:
        return self.connections[-1] if self.connections and self.socket is not None else None

    def _spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def run(self) -> None:
        while True:
            node = next((node for node in self.nodes if node.alive()), None)
            assert node is not None, f"{self.name}: no live process left"
            connection = Connection(node.name)
            self.connections.append(connection)
            self.pending, self.played_at, self.hinting = None, -1, False
            address = f"ws://127.0.0.1:{node.port}/ws/rooms/{self.room}"
            left = False
            try:
                async with websockets.connect(address, open_timeout=TIMEOUT) as socket:
                    self.socket = socket
                    hello = (
                        {"type": "join", "token": self.token} if self.token else {"type": "watch"}
                    )
                    await socket.send(json.dumps(hello))
                    async for raw in socket:
                        message: Message = json.loads(raw)
                        connection.received.append(message)
                        if not self.heard(connection, message):
                            left = True  # refused before the welcome: again in a moment
                            break
            except (websockets.ConnectionClosed, OSError):
                pass
            finally:
                self.socket = None
            if node.alive() and not left:
                self.dropped.append(node.name)
            await asyncio.sleep(RETRY)

    def stop(self) -> None:
        for task in self._tasks:
            task.cancel()

    def heard(self, connection: Connection, message: Message) -> bool:
        """Act on a message; False to leave the connection."""
        kind = message["type"]
        if kind == "welcome":
            connection.welcomed = True
            self.seat = message["seat"]
        elif kind == "state":
            self.saw_state(connection, message)
        elif kind == "hint":
            self.hinting = False
            self._play_later(THINK)
        elif kind == "error":
            if not connection.welcomed:
                # Refused before the welcome: a process that cannot take the room yet may
                # say so with "restarting"; anything else is wrong.
                if message["code"] == "restarting":
                    self.restarts += 1
                else:
                    self.refusals.append(message)
                return False
            if message["code"] == "restarting" and self.pending is not None:
                self.restarts += 1
                self._play_later(RETRY)
            elif self.hinting and message["code"] in ("hint_too_soon", "busy"):
                self.hinting = False
                self._play_later(THINK)
            else:
                self.refusals.append(message)
        return True

    def saw_state(self, connection: Connection, state: Message) -> None:
        connection.last = state
        played = moves_played(state)
        self.best = max(self.best, played)
        self.moments.append((asyncio.get_running_loop().time(), played))
        if self.pending is not None and played > self.pending[0]:
            self.pending = None
        self.act(connection, state)

    def act(self, connection: Connection, state: Message) -> None:
        """Play (or ask for a hint first) if it is this person's turn in ``state``, the
        clients play, and this position was not played in yet."""
        match = state["match"]
        played = moves_played(state)
        if (
            self.token is None
            or not self.playing.is_set()
            or match["to_move"] != self.seat
            or not match["legal"]
            or played <= self.played_at
        ):
            return
        self.played_at = played
        self.pending = (played, play_message(self.rng.choice(match["legal"])))
        if not connection.hinted:
            connection.hinted = True
            self.hinting = True
            self.send({"type": "hint", "language": "en", "deck": "french"})
        else:
            self._play_later(THINK)

    def send(self, message: Message) -> None:
        socket = self.socket

        async def send() -> None:
            if socket is not None and socket is self.socket:
                with contextlib.suppress(websockets.ConnectionClosed):
                    await socket.send(json.dumps(message))

        self._spawn(send())

    def _play_later(self, delay: float) -> None:
        """Send the pending play after ``delay`` (if it is still pending on this connection,
        and the clients still play)."""
        socket, pending = self.socket, self.pending

        async def play() -> None:
            await asyncio.sleep(delay)
            if socket is not self.socket or pending is None or self.pending is not pending:
                return
            if not self.playing.is_set():
                self.pending = None
                return
            with contextlib.suppress(websockets.ConnectionClosed):
                await socket.send(json.dumps(pending[1]))

        self._spawn(play())

    def busy(self) -> bool:
        return self.pending is not None or self.hinting


@dataclass
class Room:
    """A room of the test, with its clients."""

    id: str
    name: str
    clients: list[Client]
    computers: bool

    @property
    def people(self) -> set[int]:
        return {client.seat for client in self.clients if client.token and client.seat is not None}

    def best(self) -> int:
        return max(client.best for client in self.clients)

    def settled(self) -> bool:
        """Nobody may move: no play of ours in flight, and every live connection shows the
        same position, in which the match is over or one of our people (who have stopped
        playing) is to move."""
        if any(client.busy() for client in self.clients):
            return False
        latest = [client.current for client in self.clients]
        if any(connection is None or connection.last is None for connection in latest):
            return False
        states = [connection.last for connection in latest if connection and connection.last]
        if len({moves_played(state) for state in states}) != 1:
            return False
        match = states[0]["match"]
        return bool(match["over"]) or match["to_move"] in self.people

    def over(self) -> bool:
        """Some connection shows the match ended."""
        return any(
            connection.last is not None and connection.last["match"]["over"]
            for client in self.clients
            for connection in client.connections
        )

    def first_move_after(self, played: int) -> float:
        """When a client was first shown a move beyond ``played``."""
        return min(moment for client in self.clients for moment, n in client.moments if n > played)


async def until(holds: Callable[[], bool], what: str, timeout: float = TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    while not holds():
        assert time.monotonic() < deadline, f"not within {timeout:g} s: {what}"
        await asyncio.sleep(0.02)


async def settle(rooms: list[Room], playing: asyncio.Event) -> None:
    """Stop the people and wait until every room is still and every connection caught up."""
    playing.clear()
    for room in rooms:
        await until(room.settled, f"room {room.name} settled")


def start(clients: list[Client]) -> list[asyncio.Task[None]]:
    loop = asyncio.get_running_loop()
    return [loop.create_task(client.run(), name=client.name) for client in clients]


async def finish(tasks: list[asyncio.Task[None]], clients: list[Client]) -> None:
    for client in clients:
        client.stop()
    for task in tasks:
        if task.done():
            task.result()  # a client that failed says why
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


# -- checking what every connection was told against the stored record ------------------------


def check_connection(
    connection: Connection, seat: int | None, found: list[Position], moves: list[Move]
) -> set[int]:
    """Every message one connection received, in order, against the stored match: each state
    shows its position as ``seat`` may see it (no hidden card), its hand's plays are the
    stored ones, its event is the stored move that led to it, and the moves come one by one
    (a state without an event never goes back); hints name the asker's cards and the table
    only. The indices of the stored moves it was told of."""
    told: set[int] = set()
    at: Position | None = None
    before: int | None = None
    for message in connection.received:
        kind = message["type"]
        if kind == "state":
            at = check_state(message, seat, found)
            played = moves_played(message)
            match = message["match"]
            start = match["hand_number"] * PLAYS_PER_HAND
            history = [move_of(event) for event in match["history"] if event["kind"] == "play"]
            assert history == moves[start:played], f"the plays of hand {match['hand_number']}"
            told.update(range(start, played))
            event = message["event"]
            if event is not None:
                assert move_of(event) == moves[played - 1], f"the event of move {played}"
                told.add(played - 1)
            if before is not None:
                if event is None:
                    assert played >= before, f"a state went back from {before} moves to {played}"
                else:
                    assert played == before + 1, f"from {before} moves to {played} in one event"
            else:
                assert event is None, "the first state after a join has no event"
            before = played
        elif kind == "hint":
            check_hint(message, seat, at)
        elif kind in ("welcome", "pong", "error"):
            assert not named_cards(message), message
        else:
            raise AssertionError(f"an unexpected message: {message}")
    return told


def check_rooms(site: Site, rooms: list[Room]) -> None:
    """What every client of every room was told is the stored match, exactly: every move
    stored was told, once, in order; the record replays; every connection open at the end
    shows the last position; no refusal but ``restarting``."""
    storage = Storage(site.database)
    try:
        for room in rooms:
            stored = storage.room(room.id)
            assert stored is not None, f"room {room.name} was not stored"
            record = stored.game.record()
            replayed = Game.from_record(record)
            moves = stored_moves(replayed)
            assert moves == stored_moves(stored.game)
            found = recorded_positions(record)
            assert len(found) == len(moves) + 1
            told: set[int] = set()
            for client in room.clients:
                assert not client.refusals, f"{client.name} was refused: {client.refusals}"
                for connection in client.connections:
                    told |= check_connection(connection, client.seat, found, moves)
                last = client.connections[-1].last
                assert last is not None and moves_played(last) == len(moves), (
                    f"{client.name} was not shown the last of {len(moves)} moves"
                )
            assert told == set(range(len(moves))), f"room {room.name}: moves nobody was told of"
    finally:
        storage.close()


# -- the tests -------------------------------------------------------------------------------


def test_the_checker_catches_a_lost_a_doubled_or_an_untold_move() -> None:
    """The check of what a connection was told fails when a move's state is missing, comes
    twice, or differs from the stored one."""
    game = Game(RULESETS["escoba"], 2, seed=7)
    states = [state_of(game, 0)]
    for _ in range(3):
        played = game.play(sorted(game.legal_moves(), key=str)[0])
        state = state_of(game, 0)
        state["event"] = {
            "kind": "play",
            "seat": played.seat,
            "card": str(played.card),
            "captures": sorted(str(card) for card in played.captures),
            "sweep": played.sweep,
        }
        states.append(state)
    found = recorded_positions(game.record())
    moves = stored_moves(game)

    def told(*messages: Message, stored: list[Move] = moves) -> set[int]:
        return check_connection(Connection("A", list(messages)), 0, found, stored)

    assert told(*states) == {0, 1, 2}
    with pytest.raises(AssertionError, match="in one event"):
        told(states[0], *states[2:])  # the state of move 2 lost
    with pytest.raises(AssertionError, match="in one event"):
        told(*states, states[3])  # move 3 told twice
    with pytest.raises(AssertionError, match="the plays of hand 0"):
        told(*states, stored=[*moves[:2], moves[0]])  # another move stored
    with pytest.raises(AssertionError, match="the first state"):
        told(states[1])


def test_a_person_joining_on_one_process_shows_on_the_others(site: Site) -> None:
    """Presence is shared: a person who takes a seat through process A's HTTP API, then
    connects there, shows (nickname, connected) at once on B and C, and leaves likewise."""
    a, b, c = site.nodes
    ticket = open_room(b, seats=["person", "person"], options={"target_score": 3})
    room = ticket["room"]

    def seat_one(client: Client) -> Message | None:
        connection = client.current
        if connection is None or connection.last is None:
            return None
        seat: Message = connection.last["room"]["seats"][1]
        return seat

    async def main() -> list[Client]:
        playing = asyncio.Event()
        ana = Client("ana", room, [b], playing, ticket["token"])
        watcher = Client("watcher", room, [c], playing)
        tasks = start([ana, watcher])
        both = [ana, watcher]
        await until(lambda: all(seat_one(client) is not None for client in both), "first states")
        assert all(seat_one(client) == seat_one(ana) for client in both)
        assert seat_one(ana)["nickname"] is None  # type: ignore[index]

        async with httpx.AsyncClient(base_url=a.url, timeout=TIMEOUT) as http:
            response = await http.post(f"/api/rooms/{room}/join", json={"nickname": "Bea"})
            assert response.status_code == 200, response.text
            bea_ticket = response.json()

            def shows_bea(connected: bool) -> bool:
                return all(
                    (seat := seat_one(client)) is not None
                    and seat["nickname"] == "Bea"
                    and seat["taken"]
                    and seat["connected"] is connected
                    for client in both
                )

            await until(lambda: shows_bea(False), "Bea's seat taken, shown on B and C")
            bea = Client("bea", room, [a], playing, bea_ticket["token"])
            bea_task = start([bea])
            await until(lambda: shows_bea(True), "Bea connected on A, shown on B and C")
            info = (await http.get(f"{c.url}/api/rooms/{room}")).json()
            assert [(seat["nickname"], seat["connected"]) for seat in info["seats"]] == [
                ("Ana", True),
                ("Bea", True),
            ]
            await finish(bea_task, [bea])
            await until(lambda: shows_bea(False), "Bea gone from A, shown on B and C")
            info = (await http.get(f"{a.url}/api/rooms/{room}")).json()
            assert [seat["connected"] for seat in info["seats"]] == [True, False]
        await finish(tasks, both)
        return [ana, watcher, bea]

    clients = asyncio.run(main())
    check_rooms(site, [Room(room, "presence", clients, computers=False)])


def spread_rooms(site: Site, playing: asyncio.Event, target: int) -> list[Room]:
    """Rooms with their clients over the three processes:

    - two people, opened on A: Ana on A (then B, C), Bea joined through B and playing there,
      a spectator on C;
    - a person against an easy computer, opened on A and played from B (then C), watched
      from C;
    - a person against two beginners, opened on B and played from A (then C), watched from C;
    - a person against a beginner, opened on C and played from A (then B).
    """
    a, b, c = site.nodes
    options = {"target_score": target}
    rooms = []

    ana = open_room(a, seats=["person", "person"], options=options)
    bea = join_on(b, ana["room"], "Bea")
    rooms.append(
        Room(
            ana["room"],
            "two people",
            [
                Client("ana", ana["room"], [a, b, c], playing, ana["token"]),
                Client("bea", ana["room"], [b, c, a], playing, bea["token"]),
                Client("watcher", ana["room"], [c, b, a], playing),
            ],
            computers=False,
        )
    )
    layouts = [
        ("against easy", a, [b, c], [c, b], ["person", "easy"]),
        ("against two beginners", b, [a, c], [c, a], ["person", "beginner", "beginner"]),
        ("against a beginner", c, [a, b], None, ["beginner", "person"]),
    ]
    for name, opened_on, plays_on, watched_on, seats in layouts:
        ticket = open_room(opened_on, seats=seats, players=len(seats), options=options)
        clients = [Client(f"{name}: person", ticket["room"], plays_on, playing, ticket["token"])]
        if watched_on is not None:
            clients.append(Client(f"{name}: watcher", ticket["room"], watched_on, playing))
        rooms.append(Room(ticket["room"], name, clients, computers=True))
    return rooms


def test_matches_spread_over_three_processes(site: Site) -> None:
    """Every connection, wherever it landed, is shown every move in order, and they are the
    stored moves; the two people's match is played to its end (Escoba to 1: a hand or a few),
    the others at least past the end of the first hand."""

    async def main() -> list[Room]:
        playing = asyncio.Event()
        playing.set()
        rooms = spread_rooms(site, playing, target=1)
        clients = [client for room in rooms for client in room.clients]
        tasks = start(clients)
        # The people's match to its end; the others past the first hand's end at least.
        await until(rooms[0].over, "the two people's match ended", timeout=4 * TIMEOUT)
        for room in rooms[1:]:
            await until(
                lambda room=room: room.over() or room.best() > PLAYS_PER_HAND,
                f"{room.name} past the first hand",
            )
        await settle(rooms, playing)
        await finish(tasks, clients)
        return rooms

    rooms = asyncio.run(main())
    check_rooms(site, rooms)
    for room in rooms:
        for client in room.clients:
            # (A play may still be refused with "restarting" on a loaded machine: an owner
            # that could not renew its lease in time loses the room to another.)
            assert client.dropped == [], f"{client.name} was dropped by {client.dropped}"


async def holders(site: Site, rooms: list[str]) -> dict[str, Lease | None]:
    """Who holds each room's lease, once every room is held: a room handed over to the
    process its players are connected to is held by nobody for a moment."""
    redis = connect(site.redis.url)
    try:
        reader = Leases(redis, "test-reader", 1, prefix=site.redis.prefix)
        deadline = asyncio.get_running_loop().time() + TIMEOUT
        while True:
            held = {room: await reader.holder(room) for room in rooms}
            if all(held.values()) or asyncio.get_running_loop().time() > deadline:
                return held
            await asyncio.sleep(0.1)
    finally:
        await redis.aclose()


def test_a_take_back_and_a_rematch_through_a_replica(site: Site) -> None:
    """A person connected to a process that does not own the room takes back a move and,
    once the match is over, starts a rematch: both go to the owner, and every connection sees
    them, in one order; the stored match holds the move and its take back."""
    a, b, c = site.nodes
    ticket = open_room(a, seats=["person", "easy"], options={"target_score": 1})
    room_id = ticket["room"]

    async def main() -> tuple[Client, Client]:
        playing = asyncio.Event()
        person = Client("person", room_id, [b], playing, ticket["token"])
        watcher = Client("watcher", room_id, [c], playing)
        both = [person, watcher]
        tasks = start(both)

        def last(client: Client) -> Message:
            connection = client.current
            assert connection is not None and connection.last is not None
            return connection.last

        def showing(test: Callable[[Message], bool]) -> bool:
            return all(
                (connection := client.current) is not None
                and connection.last is not None
                and test(connection.last)
                for client in both
            )

        await until(lambda: showing(lambda s: s["match"]["to_move"] == person.seat), "a turn")
        before = last(person)
        played = moves_played(before)
        person.send(play_message(before["match"]["legal"][0]))
        await until(
            lambda: showing(
                lambda s: moves_played(s) == played + 2 and s["match"]["to_move"] == person.seat
            ),
            "the computer answered",
        )
        person.send({"type": "take_back"})
        await until(
            lambda: showing(lambda s: (s["event"] or {}).get("kind") == "take_back"),
            "the take back shown everywhere",
        )
        again = last(person)["match"]
        assert moves_played(last(person)) == played
        assert sorted(again["hand"]) == sorted(before["match"]["hand"])
        assert sorted(again["table"]) == sorted(before["match"]["table"])
        assert again["to_move"] == person.seat

        playing.set()
        connection = person.current
        assert connection is not None
        person.act(connection, last(person))
        await until(lambda: showing(lambda s: s["match"]["over"]), "the end", timeout=4 * TIMEOUT)
        playing.clear()
        person.send({"type": "rematch"})
        await until(
            lambda: showing(lambda s: s["room"]["match_number"] == 2), "the rematch everywhere"
        )
        await finish(tasks, both)
        return person, watcher

    person, watcher = asyncio.run(main())

    def events(client: Client) -> list[tuple[int, int, Message]]:
        """The states with an event (match number, moves, event), in order."""
        return [
            (message["room"]["match_number"], moves_played(message), message["event"])
            for connection in client.connections
            for message in connection.received
            if message["type"] == "state" and message["event"] is not None
        ]

    told = events(person)
    assert told == events(watcher), "the two connections were shown different events"
    # The first match's entries as the clients were told them: each move, and a take back
    # for each move the take back undid (the person's and the computer's after it).
    entries: list[Move | str] = []
    first = person.connections[0].received
    opening = next(message for message in first if message["type"] == "state")
    entries += [move_of(e) for e in opening["match"]["history"] if e["kind"] == "play"]
    shown = moves_played(opening)
    for number, played, event in told:
        if number != 1:
            continue
        if event["kind"] == "take_back":
            entries += ["take back"] * (shown - played)
        else:
            entries.append(move_of(event))
        shown = played

    with httpx.Client(base_url=c.url, timeout=TIMEOUT) as http:
        mine = http.post("/api/matches/mine", json={"tokens": [ticket["token"]]}).json()
    (finished,) = [match for match in mine["matches"] if match["number"] == 1]
    storage = Storage(site.database)
    try:
        found = storage.match_record(finished["id"])
        stored = storage.room(room_id)
    finally:
        storage.close()
    assert found is not None and stored is not None
    record = found[2]
    recorded = [
        text if text == "take back" else Move.parse(text)
        for hand in record["hands"]
        for text in hand["moves"]
    ]
    assert recorded == entries
    assert entries.count("take back") == 2
    assert Game.from_record(record).is_over()
    assert stored.match.number == 2


def test_a_paused_owner_that_wakes_up_applies_nothing(site: Site) -> None:
    """The owner of a room against computers is paused (SIGSTOP) while a computer is to
    move, past its lease: another process takes the room under a greater token and play goes
    on. When it wakes up (SIGCONT), whatever it had begun (the computer's move, a play sent to
    it) is stored nowhere and shown to nobody: every connection, those on the woken process
    too, sees the stored moves only, and follows the room again."""
    opened_on = site.node("C")
    ticket = open_room(
        opened_on, seats=["person", "beginner", "beginner"], players=3, options={"target_score": 21}
    )
    room_id = ticket["room"]

    async def main() -> tuple[Room, Lease]:
        found = await holders(site, [room_id])
        first = found[room_id]
        assert first is not None, "nobody holds the room just opened"
        owner = site.node_of(first.owner)
        others = [node for node in site.nodes if node is not owner and node.alive()]
        playing = asyncio.Event()
        playing.set()
        sleeper = Client("watcher on the owner", room_id, [owner, *others], playing)
        room = Room(
            room_id,
            "paused owner",
            [
                Client("person", room_id, others, playing, ticket["token"]),
                Client("watcher", room_id, others[::-1], playing),
                sleeper,
            ],
            computers=True,
        )
        tasks = start(room.clients)

        def a_computer_to_move() -> bool:
            connection = sleeper.current
            if connection is None or connection.last is None:
                return False
            match = connection.last["match"]
            return room.best() >= FLOWING and match["to_move"] not in (None, *room.people)

        await until(a_computer_to_move, "a computer to move, the room flowing")
        paused_at = room.best()
        owner.process.send_signal(signal.SIGSTOP)
        try:
            paused = asyncio.get_running_loop().time()
            await until(
                lambda: room.best() >= paused_at + AFTER_KILL,
                "the room playing on while its owner sleeps",
                timeout=BACK_WITHIN + TIMEOUT,
            )
            waited = room.first_move_after(paused_at) - paused
            assert waited < BACK_WITHIN, f"the room moved again only {waited:.1f} s after"
            taken = (await holders(site, [room_id]))[room_id]
        finally:
            owner.process.send_signal(signal.SIGCONT)
        assert taken is not None and site.node_of(taken.owner) is not owner
        assert taken.token > first.token
        woken_at = room.best()
        await until(
            lambda: (
                (connection := sleeper.current) is not None
                and connection.last is not None
                and moves_played(connection.last) >= woken_at + 3
            ),
            "the woken process's connection following the room again",
        )
        await settle([room], playing)
        after = (await holders(site, [room_id]))[room_id]
        await finish(tasks, room.clients)
        assert after is not None and after.token >= taken.token
        return room, after

    room, after = asyncio.run(main())
    storage = Storage(site.database)
    try:
        assert storage.room_fence(room_id) == after.token
    finally:
        storage.close()
    check_rooms(site, [room])
    for client in room.clients[:2]:
        assert client.dropped == [], f"{client.name} was dropped by {client.dropped}"


def test_a_process_killed_mid_match_loses_nothing(site: Site) -> None:
    """SIGKILL the owner of a room against a computer (A, which opened it, unless the room
    changed hands since) while moves flow in every room: its clients join again elsewhere,
    the rooms it owned are taken over under a greater fencing token (their computers play
    on), every match moves again within seconds, and nothing told is lost or doubled."""

    async def main() -> tuple[list[Room], Node, dict[str, Lease | None], dict[str, Lease | None]]:
        playing = asyncio.Event()
        playing.set()
        rooms = spread_rooms(site, playing, target=21)
        clients = [client for room in rooms for client in room.clients]
        tasks = start(clients)
        for room in rooms:
            await until(lambda room=room: room.best() >= FLOWING, f"{room.name} flowing")
        before = await holders(site, [room.id for room in rooms])
        against_easy = before[rooms[1].id]
        assert against_easy is not None, "nobody holds a room being played"
        victim = site.node_of(against_easy.owner)
        at_kill = {room.id: room.best() for room in rooms}
        killed_at = asyncio.get_running_loop().time()
        victim.kill()
        for room in rooms:
            await until(
                lambda room=room: room.best() >= at_kill[room.id] + AFTER_KILL,
                f"{room.name} playing on after the kill",
                timeout=BACK_WITHIN + TIMEOUT,
            )
            waited = room.first_move_after(at_kill[room.id]) - killed_at
            assert waited < BACK_WITHIN, f"{room.name} moved again only {waited:.1f} s after"
        await settle(rooms, playing)
        after = await holders(site, [room.id for room in rooms])
        await finish(tasks, clients)
        return rooms, victim, before, after

    rooms, victim, before, after = asyncio.run(main())
    storage = Storage(site.database)
    try:
        for room in rooms:
            old, new = before[room.id], after[room.id]
            assert old is not None and new is not None, f"{room.name}: no owner {old} {new}"
            assert site.node_of(new.owner).alive(), f"{room.name} is owned by a dead process"
            assert storage.room_fence(room.id) == new.token, f"{room.name}'s fence"
            if site.node_of(old.owner) is victim:
                assert new.token > old.token, f"{room.name} was taken under no greater token"
    finally:
        storage.close()
    check_rooms(site, rooms)
    moved = [
        client
        for room in rooms
        for client in room.clients
        if client.connections[0].node == victim.name
    ]
    assert moved, "no client was on the killed process"
    for client in moved:
        assert len(client.connections) >= 2 and client.connections[-1].node != victim.name
    for room in rooms:
        for client in room.clients:
            assert client.dropped == [], f"{client.name} was dropped by {client.dropped}"


def test_processes_started_together_upgrade_the_schema_one_after_another(tmp_path: Path) -> None:
    """The processes of a site started at one moment on an empty PostgreSQL database all
    start: one creates the schema, the others wait and find it made (SQLite, the other
    backend, is one process's file)."""
    if not os.environ.get(POSTGRES_VARIABLE):
        missing = f"several processes need PostgreSQL, and {POSTGRES_VARIABLE} is not set"
        if REQUIRED:
            pytest.fail(f"every test must run here, but {missing}")
        pytest.skip(missing)
    url = database_url(tmp_path / "together.db")
    upgrade = (
        "import sys\n"
        "from escoba.server.storage.repository import Storage\n"
        "store = Storage(sys.argv[1])\n"
        "store.engine.connect().close()\n"
        "print('ready', flush=True)\n"
        "sys.stdin.readline()\n"  # the word to go, once every process is ready
        "store.migrate()\n"
    )
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", upgrade, url],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        for _ in range(3)
    ]
    deadline = time.monotonic() + 60
    for process in processes:  # each imported and connected
        assert process.stdout is not None
        left = deadline - time.monotonic()
        assert select.select([process.stdout], [], [], max(0.0, left))[0], "a process hung"
        said = process.stdout.readline()
        assert said == b"ready\n", said + process.stdout.read()
    for process in processes:
        assert process.stdin is not None
        process.stdin.write(b"go\n")
        process.stdin.flush()
    for process in processes:
        output, _ = process.communicate(timeout=60)
        assert process.returncode == 0, output.decode()
    store = Storage(url)
    try:
        game = Game(RULESETS["escoba"], 2, seed=3)
        store.create_room("room1", game, [None, "easy"], seed=3)
        stored = store.room("room1")
        assert stored is not None
        assert stored.game.record() == game.record()
    finally:
        store.close()


def test_a_killed_process_leaves_no_deadline_unkept_and_nobody_in_the_queue(
    database_backend: str, redis_url: str, tmp_path: Path
) -> None:
    """Issue 33 across processes: two processes, A and B. A clocked table (5 s a move, no
    reserve) is owned by A, Ana on A, Bea on B; and Gil waits for a quick match on A. A is
    killed with SIGKILL. B takes the room over and enforces the deadline A had stored: the
    seat to move times out exactly once. Once A's heartbeat has expired, two people seeking
    on B are paired with each other, never with Gil, whose process is gone."""
    if not os.environ.get(POSTGRES_VARIABLE) or database_backend != "postgresql":
        pytest.skip("several processes need PostgreSQL")
    database = database_url(tmp_path / "escoba.db")
    storage = Storage(database)
    storage.migrate()
    storage.close()
    with prefixed(redis_url) as redis:
        a, b = (start_node(name, database, redis, tmp_path) for name in "AB")
        try:
            for node in (a, b):
                wait_for_port(node.port, alive=node.alive)
            clock = {"per_move": 5, "reserve": 0}
            ticket = open_room(a, seats=["person", "person"], clock=clock)
            room = ticket["room"]
            guest = join_on(b, room, "Bea")
            ws = "ws://127.0.0.1:{}/ws/{}"
            with (
                connect_socket(ws.format(a.port, f"rooms/{room}")) as ana_socket,
                connect_socket(ws.format(b.port, f"rooms/{room}")) as bea_socket,
                connect_socket(ws.format(a.port, "lobby")) as gil_socket,
            ):
                ana, bea, gil = (RemotePeer(s) for s in (ana_socket, bea_socket, gil_socket))
                ana.join(ticket["token"])
                _, state = bea.join(guest["token"])
                assert state["room"]["clock"]["turn"] is not None
                mover = state["room"]["clock"]["turn"]
                gil.receive()
                gil.send({"type": "seek", "nickname": "Gil"})
                assert gil.until(lambda m: m["type"] == "seeking")
                a.kill()
                # B takes the room over (A's lease runs out in 3 s) and keeps A's deadline
                timed_out = bea.until(
                    lambda m: (
                        m["type"] == "timeout"
                        or (m["type"] == "state" and m["room"]["clock"]["timeouts"][mover] == 1)
                    ),
                    timeout=BACK_WITHIN + TIMEOUT,
                )
                assert timed_out.get("seat", mover) == mover
            stored = Storage(database)
            try:
                kept = stored.room(room)
                assert kept is not None and kept.match.clock is not None
                assert kept.match.clock["timeouts"][mover] == 1  # once, by one process
                moves = [text for hand in kept.game.record()["hands"] for text in hand["moves"]]
                assert len(moves) == 1
            finally:
                stored.close()
            # A's heartbeat lasts 9 s: seekers until then may still meet Gil's entry
            deadline = time.monotonic() + 3 * BUS_LEASE_SECONDS + TIMEOUT
            while _alive(redis, a) and time.monotonic() < deadline:
                time.sleep(0.2)
            assert not _alive(redis, a), "the killed process's heartbeat did not expire"
            with (
                connect_socket(ws.format(b.port, "lobby")) as one,
                connect_socket(ws.format(b.port, "lobby")) as two,
            ):
                hal, ivy = RemotePeer(one), RemotePeer(two)
                for peer, name in ((hal, "Hal"), (ivy, "Ivy")):
                    peer.receive()
                    peer.send({"type": "seek", "nickname": name})
                rooms = [
                    peer.until(lambda m: m["type"] == "paired")["ticket"]["room"]
                    for peer in (hal, ivy)
                ]
                assert rooms[0] == rooms[1]
                info = httpx.get(f"{b.url}/api/rooms/{rooms[0]}", timeout=TIMEOUT).json()
                assert {seat["nickname"] for seat in info["seats"]} == {"Hal", "Ivy"}
        finally:
            for node in (a, b):
                if node.alive():
                    node.process.send_signal(signal.SIGTERM)
                    node.process.wait(TIMEOUT)


BUS_LEASE_SECONDS = 3.0
"""A lease's life; a process's heartbeat lasts three of them."""


def _alive(redis: TestRedis, node: Node) -> bool:
    """Whether the heartbeat key of ``node``'s process is still in Redis."""
    with redis_client.Redis.from_url(redis.url) as client:
        keys = client.keys(f"{redis.prefix}alive:*-{node.process.pid}-*")
        return bool(keys)
