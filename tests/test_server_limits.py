"""The server's limits and its handlers' lifetimes: what one client may hold or ask, and that
nothing a client does keeps a handler, a search or a stuck move alive.

Socket-level tests run the app on a real uvicorn server in a thread of the test, so they can
drop a connection abruptly or stop reading and then look at the server's own count of
running handlers; the rest use the in-process test client.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import os
import socket
import struct
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from fastapi.testclient import TestClient
from sqlalchemy import update

import database_fixtures
from escoba.server.computers import Thinkers
from escoba.server.config import DEFAULT_TIMINGS, SYSTEM_CLOCK, Clock, Limits, Settings, Timings
from escoba.server.errors import StorageUnavailable
from escoba.server.http.app import create_app
from escoba.server.protocol import CreateRoom
from escoba.server.storage.repository import MatchRow, Storage
from server_helpers import (
    TEST_LIMITS,
    TIMEOUT,
    Closed,
    ManualClock,
    assert_refused,
    connect,
    create_room,
    database_url,
    free_port,
    is_state,
    moves_played,
    on_server,
    play_message,
    running_app,
    server_record,
    two_people,
)


def wait_until(condition: Any, timeout: float = TIMEOUT) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return bool(condition())


# -- a real server in a thread -------------------------------------------------------------


@contextmanager
def live_server(database: Path, limits: Limits) -> Iterator[tuple[Any, int]]:
    """The app on uvicorn on a free port: the app (to read its hub) and the port."""
    app = create_app(Settings(database_url=database_url(database), pace=0.0, limits=limits))
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", ws_max_size=65536)
    )
    thread = threading.Thread(target=server.run, daemon=True)
    with database_fixtures.current().running():
        thread.start()
        try:
            assert wait_until(lambda: server.started), "the server did not start"
            yield app, port
        finally:
            server.should_exit = True
            thread.join(TIMEOUT)
    assert not thread.is_alive(), "the server did not stop"


def raw_websocket(port: int, path: str) -> socket.socket:
    """A WebSocket opened by hand, so the test decides what is read: nothing, here. Its
    receive buffer is small, so a server that writes to it soon finds it full."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.settimeout(TIMEOUT)
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(1)
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


def frame(text: str) -> bytes:
    """A client's masked text frame (payloads under 126 bytes)."""
    payload = text.encode()
    mask = os.urandom(4)
    masked = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
    return struct.pack("!BB", 0x81, 0x80 | len(payload)) + mask + masked


def handlers(app: Any) -> int:
    return int(app.state.registry.handlers)


@pytest.mark.slow
def test_a_dropped_socket_with_a_full_queue_ends_its_handler(tmp_path: Path) -> None:
    """About 200 pings at once, then the socket is dropped (reset): the handler and its pump
    end, however full the connection's queue was, and the server serves others on."""
    with live_server(tmp_path / "escoba.db", TEST_LIMITS) as (app, port):
        ticket = create_room_over_http(port)
        sockets = [raw_websocket(port, f"/ws/rooms/{ticket['room']}") for _ in range(5)]
        for sock in sockets:
            sock.sendall(frame('{"type":"watch"}') + frame('{"type":"ping"}') * 200)
        assert wait_until(lambda: handlers(app) == 5)
        for sock in sockets:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            sock.close()  # a reset, not a goodbye
        assert wait_until(lambda: handlers(app) == 0), f"{handlers(app)} handlers live on"
        assert create_room_over_http(port)["room"]


@pytest.mark.slow
def test_a_client_that_stops_reading_is_disconnected(tmp_path: Path) -> None:
    """A client that sends and never reads fills its queue: it is disconnected after a
    bounded backlog (or a send that does not complete in time), not waited for."""
    limits = TEST_LIMITS.replace(send_backlog=8, send_seconds=1.0)
    with live_server(tmp_path / "escoba.db", limits) as (app, port):
        ticket = create_room_over_http(port)
        sock = raw_websocket(port, f"/ws/rooms/{ticket['room']}")
        sock.sendall(frame('{"type":"watch"}'))
        assert wait_until(lambda: handlers(app) == 1)
        # Every message is answered (a pong, or a refusal once over the rate limit), and
        # none of the answers is read: the socket's buffers fill, then the queue.
        flood = frame('{"type":"ping"}') * 2000
        sock.settimeout(0.5)
        deadline = time.monotonic() + TIMEOUT
        while handlers(app) and time.monotonic() < deadline:
            try:
                sock.sendall(flood)
            except (TimeoutError, OSError):
                time.sleep(0.05)  # the server stopped reading us: it has given up
        assert handlers(app) == 0, "the handler of a client that does not read lives on"
        sock.close()


def create_room_over_http(port: int) -> dict[str, Any]:
    import httpx

    response = httpx.post(
        f"http://127.0.0.1:{port}/api/rooms",
        json={"nickname": "Ana", "seats": ["person", "person"]},
        timeout=TIMEOUT,
    )
    assert response.status_code == 201, response.text
    ticket: dict[str, Any] = response.json()
    return ticket


# -- joining ---------------------------------------------------------------------------------


@contextmanager
def app_with(
    tmp_path: Path,
    timings: Timings = DEFAULT_TIMINGS,
    clock: Clock = SYSTEM_CLOCK,
    **limits: Any,
) -> Iterator[TestClient]:
    with running_app(
        tmp_path / "escoba.db", limits=TEST_LIMITS.replace(**limits), timings=timings, clock=clock
    ) as client:
        yield client


@pytest.mark.slow
def test_a_connection_that_never_joins_is_closed(tmp_path: Path) -> None:
    """A WebSocket that neither joins nor watches within ``join_seconds`` is told so and
    closed; pings do not keep it open. One that joined in time stays open past it."""
    with app_with(tmp_path, join_seconds=0.5) as client:
        ticket = create_room(client)
        with connect(client, ticket["room"]) as joined:
            # It joins before the other connects, so its join deadline is the earlier one:
            # it has passed by the time the other is told its own has.
            joined.join(ticket["token"])
            with connect(client, ticket["room"]) as peer:
                started = time.monotonic()
                peer.send({"type": "ping"})
                assert peer.receive() == {"type": "pong"}
                error = peer.receive()
                assert error["type"] == "error" and error["code"] == "join_timeout", error
                with pytest.raises(Closed):
                    peer.receive()
                assert time.monotonic() - started < TIMEOUT
            joined.send({"type": "ping"})  # the one that joined in time stays
            assert joined.until(lambda m: m["type"] == "pong")


def test_spectators_are_capped_and_not_broadcast(tmp_path: Path) -> None:
    """At most ``spectators_per_room`` watch a room; a spectator's arrival sends nothing to
    the others (it changes nobody's view)."""
    with app_with(tmp_path, spectators_per_room=2) as client:
        room, ticket, _ = two_people(client)
        with (
            connect(client, room) as ana,
            connect(client, room) as one,
            connect(client, room) as two,
            connect(client, room) as three,
        ):
            ana.join(ticket["token"])
            one.watch()
            two.watch()
            assert ana.barrier() == [], "a spectator's arrival was sent to a seat"
            three.send({"type": "watch"})
            assert three.refused("too_many_spectators")["message"]


def test_joins_arriving_together_are_counted_one_by_one(tmp_path: Path) -> None:
    """Spectators and a seat's tabs that ask at the same moment (all waiting for the room)
    are counted one after another: no more get in than the limits allow."""
    release = threading.Event()
    with app_with(tmp_path, spectators_per_room=2, connections_per_seat=2) as client:
        ticket = create_room(client, seats=["person", "person"])  # no computer wants the lock
        room = ticket["room"]

        async def hold_the_room(hub: Any) -> None:
            async with hub.rooms[room].lock:
                await asyncio.to_thread(release.wait, TIMEOUT)

        hub = client.app.state.registry  # type: ignore[attr-defined]
        client.portal.start_task_soon(hold_the_room, hub)  # type: ignore[union-attr]
        with ExitStack() as stack:
            peers = [stack.enter_context(connect(client, room)) for _ in range(8)]
            for peer in peers[:4]:
                peer.send({"type": "watch"})
            for peer in peers[4:]:
                peer.send({"type": "join", "token": ticket["token"]})
            # every join is waiting for the room now
            assert wait_until(lambda: on_server(client, lambda hub: waiting_for(hub, room)) == 8)
            assert on_server(client, lambda hub: hub.rooms[room].lock.locked())
            release.set()
            answers = [peer.receive()["type"] == "welcome" for peer in peers]
        assert sum(answers[:4]) == 2, "spectators beyond the limit got in"
        assert sum(answers[4:]) == 2, "a seat got more connections than the limit"


def waiting_for(hub: Any, room: str) -> int:
    """How many wait to take the room's lock (asyncio.Lock keeps its waiters' futures)."""
    return len(hub.rooms[room].lock._waiters or ())


def test_a_seat_has_a_bounded_number_of_connections(tmp_path: Path) -> None:
    with app_with(tmp_path, connections_per_seat=2) as client:
        ticket = create_room(client)
        room = ticket["room"]
        with connect(client, room) as first, connect(client, room) as second:
            first.join(ticket["token"])
            second.join(ticket["token"])
            with connect(client, room) as third:
                third.send({"type": "join", "token": ticket["token"]})
                assert "at most 2" in third.refused("too_many_connections")["message"]
        with connect(client, room) as again:  # closed ones no longer count
            again.join(ticket["token"])


@pytest.mark.slow
def test_hints_are_counted_per_seat_not_per_connection(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two tabs of one seat share its hints: while one is worked out the other tab's is
    refused, and past the seat's few at once they come one per ``hint_seconds``."""
    release = threading.Event()
    advise = Thinkers.advise

    async def slow(self: Thinkers, seed: int, observation: Any, owner: str = "") -> Any:
        await asyncio.to_thread(release.wait, TIMEOUT)
        return await advise(self, seed, observation, owner)

    monkeypatch.setattr(Thinkers, "advise", slow)
    with app_with(tmp_path, hint_seconds=60.0) as client:
        ticket = create_room(client)
        room = ticket["room"]
        with connect(client, room) as tab, connect(client, room) as other:
            tab.join(ticket["token"])
            other.join(ticket["token"])
            tab.my_turn()
            other.my_turn()
            tab.send({"type": "hint"})
            other.send({"type": "hint"})
            assert other.refused("hint_pending")
            release.set()
            assert tab.until(lambda m: m["type"] == "hint")
            replies = []
            for peer in (other, tab, other):
                peer.send({"type": "hint"})
                replies.append(peer.until(lambda m: m["type"] in ("hint", "error")))
            # The seat's bucket holds three: the first hint and two more; then one a minute.
            assert [reply["type"] for reply in replies] == ["hint", "hint", "error"], replies
            assert replies[-1]["code"] == "hint_too_soon"


# -- creating rooms -------------------------------------------------------------------------


def test_rooms_and_computer_seats_per_address(tmp_path: Path) -> None:
    with app_with(tmp_path, rooms_per_address=3, computer_seats_per_address=4) as client:
        create_room(client, players=4, seats=["person", "easy", "easy", "easy"])
        response = client.post(
            "/api/rooms",
            json={"nickname": "Ana", "players": 3, "seats": ["person", "easy", "easy"]},
        )
        assert "computer seats" in assert_refused(response, 429, "too_many_computers")["message"]
        create_room(client, seats=["person", "easy"])
        create_room(client, seats=["person", "person"])
        response = client.post("/api/rooms", json={"nickname": "Ana", "seats": ["person"] * 2})
        assert "new rooms" in assert_refused(response, 429, "too_many_rooms")["message"]


def test_rooms_in_memory_are_bounded(tmp_path: Path) -> None:
    """Past ``rooms_total`` rooms in use, creating one is refused as ``server_busy``; idle
    rooms are let go to make room first."""
    with app_with(tmp_path, rooms_total=2) as client:
        first = create_room(client, seats=["person", "person"])
        second = create_room(client, seats=["person", "person"])
        with connect(client, first["room"]) as one, connect(client, second["room"]) as two:
            one.join(first["token"])
            two.join(second["token"])
            response = client.post("/api/rooms", json={"nickname": "A", "seats": ["person"] * 2})
            assert_refused(response, 503, "server_busy")
        assert create_room(client, seats=["person", "person"])["room"]  # idle ones went


def test_computer_seats_in_memory_are_bounded(tmp_path: Path) -> None:
    with app_with(tmp_path, computer_seats_total=3) as client:
        create_room(client, players=3, seats=["person", "easy", "easy"])
        body = {"nickname": "Bo", "players": 3, "seats": ["person", "easy", "easy"]}
        assert_refused(client.post("/api/rooms", json=body), 503, "server_busy")


def waiting_for_people(client: TestClient, room: str) -> bool:
    """Whether the room's computers have played up to a person's turn and it is unused."""
    return bool(on_server(client, lambda hub: not hub.rooms[room].in_use()))


@pytest.mark.slow
def test_only_rooms_in_use_count_their_computer_seats(tmp_path: Path) -> None:
    """A room nobody is connected to, whose computers wait for a person, does not hold its
    computer seats (it used to until it left memory, ten minutes later); a room just made
    holds them while its creator connects (``timings.claim``); a full pool of computers
    refuses rooms with computers only."""
    two_computers = {"nickname": "Bo", "players": 3, "seats": ["person", "easy", "easy"]}
    clock = ManualClock()
    claim = DEFAULT_TIMINGS.claim
    with app_with(tmp_path, clock=clock, computer_seats_total=3) as client:
        first = create_room(client, players=3, seats=["person", "easy", "easy"])
        # Just made: its creator is on the way, so its seats count, until the claim is over
        assert_refused(client.post("/api/rooms", json=two_computers), 503, "server_busy")
        clock.advance(claim - 1)
        assert_refused(client.post("/api/rooms", json=two_computers), 503, "server_busy")
        clock.advance(1)
        assert wait_until(lambda: waiting_for_people(client, first["room"]))
        second = client.post("/api/rooms", json=two_computers)
        assert second.status_code == 201, second.text
        clock.advance(claim)
        assert wait_until(lambda: waiting_for_people(client, second.json()["room"]))
        with connect(client, first["room"]) as one, connect(client, second.json()["room"]) as two:
            one.join(first["token"])
            two.join(second.json()["token"])
            assert on_server(client, lambda hub: hub.computer_seats_in_use()) == 4
            refused = client.post(
                "/api/rooms", json={**two_computers, "players": 2, "seats": ["person", "easy"]}
            )
            assert "computer player" in assert_refused(refused, 503, "server_busy")["message"]
            # nothing to compute for a room of people: never refused for the computers
            assert create_room(client, seats=["person", "person"])["room"]
            assert create_room(client, players=3, seats=["person"] * 3)["room"]


def test_rooms_created_together_are_counted_one_by_one(tmp_path: Path) -> None:
    """Creations arriving at once cannot all pass the check before any is counted: exactly
    the limit's worth get through, per address and in all."""

    async def create_many(hub: Any, count: int, address: Any) -> list[str]:
        request = CreateRoom(nickname="Ana", players=3, seats=["person", "easy", "easy"])
        results = await asyncio.gather(
            *(hub.create(request, address(number)) for number in range(count)),
            return_exceptions=True,
        )
        return ["made" if not isinstance(result, Exception) else result.code for result in results]

    with app_with(tmp_path, computer_seats_total=10) as client:
        hub = client.app.state.registry  # type: ignore[attr-defined]
        outcomes = client.portal.call(create_many, hub, 12, lambda n: f"10.0.0.{n}")  # type: ignore[union-attr]
        assert sorted(outcomes) == ["made"] * 5 + ["server_busy"] * 7
    with app_with(tmp_path, rooms_per_address=3, computer_seats_per_address=300) as client:
        hub = client.app.state.registry  # type: ignore[attr-defined]
        outcomes = client.portal.call(create_many, hub, 8, lambda n: "10.0.0.1")  # type: ignore[union-attr]
        assert sorted(outcomes) == ["made"] * 3 + ["too_many_rooms"] * 5


def test_a_failed_creation_counts_against_nobody(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A room storage could not make gives its place back: the address may try again."""
    create_room_stored = Storage.create_room
    failures = {"left": 2}

    def flaky(self: Storage, *args: Any, **kwargs: Any) -> Any:
        if failures["left"]:
            failures["left"] -= 1
            raise StorageUnavailable("the database cannot store this now: disk full")
        return create_room_stored(self, *args, **kwargs)

    monkeypatch.setattr(Storage, "create_room", flaky)
    with app_with(tmp_path, rooms_per_address=1, computer_seats_total=2) as client:
        body = {"nickname": "Ana", "seats": ["person", "easy"]}
        for _ in range(2):
            assert_refused(client.post("/api/rooms", json=body), 503, "storage_failed")
        assert on_server(client, lambda hub: hub.computer_seats_in_use()) == 0
        assert create_room(client, seats=["person", "easy"])["room"]


@pytest.mark.slow
def test_a_restart_loads_no_room_until_someone_comes(tmp_path: Path) -> None:
    """With many live matches stored, a restarted server holds none of them: it answers at
    once, counts none of their computer seats, and loads a room (its computers moving) when
    someone comes back to it."""
    database = tmp_path / "escoba.db"
    many = TEST_LIMITS.replace(computer_seats_total=1000)
    with running_app(database, limits=many) as client:
        made = [
            create_room(client, players=4, seats=["person", "easy", "easy", "easy"])
            for _ in range(12)
        ]
    with running_app(database, limits=TEST_LIMITS.replace(computer_seats_total=3)) as client:
        assert on_server(client, lambda hub: len(hub.rooms)) == 0
        assert create_room(client, players=4, seats=["person", "easy", "easy", "easy"])
        assert on_server(client, lambda hub: len(hub.rooms)) == 1
        ticket = made[5]
        with connect(client, ticket["room"]) as peer:
            _, state = peer.join(ticket["token"])
            state = peer.my_turn()
            assert state["match"]["to_move"] == peer.seat
        assert on_server(client, lambda hub: ticket["room"] in hub.rooms)
        assert on_server(client, lambda hub: len(hub.rooms)) == 2


# -- origins and redirects -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("origin", "allowed"),
    [
        (None, True),
        ("http://testserver", True),
        ("http://friends.example", True),
        ("http://evil.example", False),
        ("http://testserver.evil.example", False),
        ("null", False),
    ],
)
def test_only_our_own_pages_open_a_room(tmp_path: Path, origin: str | None, allowed: bool) -> None:
    """A page of another site (a browser names it in Origin) may not open a room's socket;
    clients that are not browsers send no Origin; ``origins`` lets named sites in."""
    app = create_app(
        Settings(
            database_url=database_url(tmp_path / "escoba.db"),
            pace=0,
            limits=TEST_LIMITS,
            origins=["http://friends.example"],
        )
    )
    headers = {} if origin is None else {"origin": origin}
    with database_fixtures.current().running(), TestClient(app) as client:
        ticket = create_room(client)
        with client.websocket_connect(f"/ws/rooms/{ticket['room']}", headers=headers) as socket_:
            if allowed:
                socket_.send_json({"type": "join", "token": ticket["token"]})
                assert socket_.receive_json()["type"] == "welcome"
            else:
                refused = socket_.receive_json()
                assert refused["type"] == "error" and refused["code"] == "bad_origin"
                assert socket_.receive()["type"] == "websocket.close"


@pytest.mark.parametrize("path", ["/api/rooms/", "/api/presets/", "/history/", "/static"])
def test_no_answer_leads_to_the_host_a_client_named(client: TestClient, path: str) -> None:
    """Whatever Host a request names, no answer sends the browser there: there are no
    redirects built from it (a trailing slash is simply not found)."""
    response = client.get(path, headers={"host": "evil.example"}, follow_redirects=False)
    assert "evil.example" not in response.headers.get("location", "")
    assert "evil.example" not in response.text
    assert response.status_code < 500


# -- computers and storage ------------------------------------------------------------------


def failing_writes(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Make storage refuse the next ``failures["left"]`` batches of moves (as a full disk or
    a locked database would); the counter to set."""
    failures = {"left": 0}
    write_moves = Storage.write_moves

    def flaky(self: Storage, writes: Any) -> None:
        if failures["left"]:
            failures["left"] -= 1
            raise StorageUnavailable("the database cannot store this now: disk full")
        write_moves(self, writes)

    monkeypatch.setattr(Storage, "write_moves", flaky)
    return failures


@pytest.mark.slow
def test_a_computer_move_that_fails_to_store_is_tried_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Storage refuses the computer's move (a full disk, a lock): the move is taken back in
    memory, nobody is told of it, and the computer tries again until storage works; the
    match then goes on with every move stored once."""
    failures = failing_writes(monkeypatch)
    with running_app(
        tmp_path / "escoba.db", pace=0.5, timings=Timings(storage_retries=(0.05,))
    ) as client:
        ticket = create_room(client, seats=["person", "easy"])
        room = ticket["room"]
        with connect(client, room) as peer:
            peer.join(ticket["token"])
            state = peer.my_turn()
            played = moves_played(state)
            peer.send(play_message(state["match"]["legal"][0]))
            after = peer.state_at(played + 1)
            failures["left"] = 3  # the computer's next three tries fail (it waits the pace)
            computer_seat = after["match"]["to_move"]
            if computer_seat == peer.seat:
                pytest.skip("the hand ended with the person's move")  # pragma: no cover
            nxt = peer.until(lambda m: is_state(m) and moves_played(m) == played + 2)
            assert nxt["event"]["seat"] == computer_seat
            assert failures["left"] == 0
            peer.settle()
        record = server_record(client, room)
        stored = client.app.state.storage.room(room)  # type: ignore[attr-defined]
        assert stored.game.record() == record, "memory and storage disagree"
        assert sum(len(hand["moves"]) for hand in record["hands"]) == played + 2


@pytest.mark.slow
def test_a_computer_goes_on_as_soon_as_the_database_is_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database goes away while a computer's move is being stored: the room waits for
    it (back-off up to 10 s), but one probe asks the database every quarter second, and
    the move is stored within a moment of its return, not at the end of the back-off."""
    down = {"on": False, "failed": 0}
    write_moves, answer = Storage.write_moves, Storage.answer

    def unreachable(self: Storage, *args: Any) -> Any:
        if down["on"]:
            down["failed"] += 1
            raise StorageUnavailable("the database cannot be reached: connection refused")
        return (write_moves if args else answer)(self, *args)

    def unanswered(self: Storage) -> None:
        unreachable(self)

    monkeypatch.setattr(Storage, "write_moves", unreachable)
    monkeypatch.setattr(Storage, "answer", unanswered)
    with running_app(
        tmp_path / "escoba.db", pace=0.2, timings=Timings(storage_retries=(10.0,))
    ) as client:
        ticket = create_room(client, seats=["person", "easy"])
        with connect(client, ticket["room"]) as peer:
            peer.join(ticket["token"])
            state = peer.my_turn()
            played = moves_played(state)
            down["on"] = True
            peer.send(play_message(state["match"]["legal"][0]))
            refused = peer.refused("storage_failed")  # the person's move, while it is down
            assert "try again" in refused["message"]
            down["on"] = False
            peer.send(play_message(state["match"]["legal"][0]))
            after = peer.state_at(played + 1)
            if after["match"]["to_move"] == peer.seat:
                pytest.skip("the hand ended with the person's move")  # pragma: no cover
            down["on"] = True  # down before the computer stores its move
            assert wait_until(lambda: down["failed"] >= 3)  # its write and the probe's asks
            back = time.monotonic()
            down["on"] = False
            nxt = peer.until(lambda m: is_state(m) and moves_played(m) == played + 2)
            waited = time.monotonic() - back
        assert nxt["event"]["seat"] != peer.seat
    assert waited < 2.0, waited


def test_a_person_move_that_fails_to_store_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    failures = failing_writes(monkeypatch)
    with running_app(tmp_path / "escoba.db") as client:
        room, ticket, guest = two_people(client)
        with connect(client, room) as ana, connect(client, room) as bea:
            ana.join(ticket["token"])
            bea.join(guest["token"])
            mover = ana if ana.last_state()["match"]["to_move"] == ana.seat else bea  # type: ignore[index]
            state = mover.my_turn()
            before = server_record(client, room)
            failures["left"] = 1
            mover.send(play_message(state["match"]["legal"][0]))
            refused = mover.refused("storage_failed")
            assert "try again" in refused["message"]
            assert server_record(client, room) == before
            mover.send(play_message(state["match"]["legal"][0]))
            assert mover.state_at(moves_played(state) + 1)["event"]["seat"] == mover.seat


def test_the_search_runs_outside_the_room_lock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While a computer thinks, the room answers others (a spectator is welcomed); the move
    comes once the search ends."""
    release = threading.Event()
    entered = threading.Event()
    choose = Thinkers.choose

    async def slow(self: Thinkers, turn: Any, owner: str = "") -> Any:
        entered.set()
        await asyncio.to_thread(release.wait, TIMEOUT)
        return await choose(self, turn, owner)

    monkeypatch.setattr(Thinkers, "choose", slow)
    with running_app(tmp_path / "escoba.db") as client:
        ticket = create_room(client, seats=["person", "easy"])
        room = ticket["room"]
        with connect(client, room) as peer, connect(client, room) as spectator:
            _, state = peer.join(ticket["token"])
            if state["match"]["to_move"] == peer.seat:
                played = moves_played(state)
                peer.send(play_message(state["match"]["legal"][0]))
                peer.state_at(played + 1)
            assert entered.wait(TIMEOUT)
            spectator.watch()  # needs the lock: a search holding it would block this
            release.set()
            assert peer.my_turn()


def test_a_computer_move_takes_the_pace_whatever_its_search_took(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pause before a computer's move is ``pace`` in all, search included, so its length
    tells nothing of how many moves the computer had to weigh. The server's clock is the
    test's: each search takes 0.4 s of it, and the pace is 0.6 s."""
    pace, search = 0.6, 0.4
    clock = ManualClock()
    searches: list[float] = []  # the clock's time as each search started
    choose = Thinkers.choose

    async def slow(self: Thinkers, turn: Any, owner: str = "") -> Any:
        searches.append(clock.now())
        move = await choose(self, turn, owner)
        clock.advance(search)
        return move

    def pause_ends() -> float:
        """When the computer's pause ends, once it pauses (the server's other waits on the
        clock are a minute or more)."""
        return clock.sleeper(lambda hour: hour < clock.now() + 30)

    monkeypatch.setattr(Thinkers, "choose", slow)
    with running_app(tmp_path / "escoba.db", pace=pace, clock=clock) as client:
        ticket = create_room(client, seats=["person", "easy"])
        with connect(client, ticket["room"]) as peer:
            _, state = peer.join(ticket["token"])
            if state["match"]["to_move"] != peer.seat:
                pause_ends()
                clock.advance(pace)  # the computer leads: past its pause
            state = peer.my_turn()
            played = moves_played(state)
            peer.send(play_message(state["match"]["legal"][0]))
            peer.state_at(played + 1)
            if peer.last_state()["match"]["to_move"] == peer.seat:  # type: ignore[index]
                pytest.skip("the person moves again")  # pragma: no cover
            hour = pause_ends()
            # Pace and search one after the other would end it at 1.0 s.
            assert hour == pytest.approx(searches[-1] + pace, abs=1e-6)
            clock.advance(hour - clock.now() - 0.01)
            assert peer.barrier() == [], "the computer moved before its pause was over"
            clock.advance(0.02)
            reply = peer.state_at(played + 2)
        assert reply["event"]["seat"] != peer.seat


# -- abandoned rooms ------------------------------------------------------------------------


def test_abandoned_rooms_expire(tmp_path: Path) -> None:
    """An unfinished match nobody played for ``room_expiry`` is deleted by the sweep; a live
    one stays, and loads when asked for (a restart loads none)."""
    database = tmp_path / "escoba.db"
    with running_app(database) as client:
        old = create_room(client, seats=["person", "person"])
        live = create_room(client, seats=["person", "person"])
        storage = client.app.state.storage  # type: ignore[attr-defined]
        with storage.engine.begin() as connection:
            connection.execute(
                update(MatchRow)
                .where(MatchRow.room_id == old["room"])
                .values(active_at=datetime.now(UTC) - timedelta(days=30))
            )
    with running_app(database) as client:
        assert on_server(client, lambda hub: len(hub.rooms)) == 0
        deleted = client.portal.call(client.app.state.registry.expire)  # type: ignore[union-attr,attr-defined]
        assert deleted == 1
        assert_refused(client.get(f"/api/rooms/{old['room']}"), 404, "not_found")
        assert client.get(f"/api/rooms/{live['room']}").status_code == 200


def test_room_ids_that_cannot_be_ours_are_unknown_at_once(client: TestClient) -> None:
    for room_id in ("x" * 33, "a.b", "%00", "é"):
        assert_refused(client.get(f"/api/rooms/{room_id}"), 404, "not_found")


def descendants(pid: int) -> set[int]:
    """Every process started by ``pid``, and by those, as /proc tells."""
    found: set[int] = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(stat[1]) == pid:
                found |= {int(entry.name)} | descendants(int(entry.name))
    return found


@pytest.mark.slow
@pytest.mark.parametrize("ending", ["SIGTERM", "SIGKILL"])
def test_no_computer_worker_outlives_the_server(tmp_path: Path, ending: str) -> None:
    """The server stopped (SIGTERM) or killed (SIGKILL) while three expert computers think in
    turn: its worker processes end with it."""
    import signal
    import subprocess

    import httpx
    from websockets.sync.client import connect as websocket_connect

    from server_helpers import RemotePeer, server_process

    port = free_port()
    with server_process(tmp_path / "escoba.db", port, tmp_path / "server.log") as process:
        url = f"http://127.0.0.1:{port}"
        body = {"nickname": "Ana", "players": 4, "seats": ["person", "expert", "expert", "expert"]}
        ticket = httpx.post(url + "/api/rooms", json=body, timeout=TIMEOUT).json()
        with websocket_connect(f"ws://127.0.0.1:{port}/ws/rooms/{ticket['room']}") as socket_:
            peer = RemotePeer(socket_)
            _, state = peer.join(ticket["token"])
            if state["match"]["to_move"] != peer.seat:
                state = peer.until(lambda m: is_state(m) and m["match"]["to_move"] == peer.seat)
            played = moves_played(state)
            peer.send(play_message(state["match"]["legal"][0]))
            peer.until(lambda m: is_state(m) and moves_played(m) >= played + 2)  # they think
            workers = descendants(process.pid)
            assert workers, "the computer thinks in processes of its own"
            process.send_signal(getattr(signal, ending))
            with contextlib.suppress(subprocess.TimeoutExpired):  # failed just below
                process.wait(TIMEOUT)
        assert process.returncode is not None, f"{ending} did not end the server"
        assert wait_until(lambda: not any(Path(f"/proc/{pid}").exists() for pid in workers)), (
            "worker processes outlived the server"
        )
