"""The lobby's open tables (issue 33, "Open tables"): a room created open is listed while its
match goes on and someone sits there, with what a stranger needs to choose it (game, seats
taken and free, target, the options off its preset, its creator's language, computers); it
leaves the list at once when it is full and not to be watched, when it is finished, and when
nobody is there; private rooms are never listed. The list is pushed to lobby watchers as it
changes, on every process of a site.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from escoba.server.clients import Client
from escoba.server.lobby import OpenTables
from escoba.server.protocol import TableListing, TableSeat
from redis_fixtures import TestRedis
from server_helpers import (
    TEST_LIMITS,
    Closed,
    ManualClock,
    Message,
    Peer,
    assert_refused,
    connect,
    create_room,
    join_room,
    play_until,
    room_info,
    running_app,
    site_apps,
)


@contextmanager
def lobby(client: TestClient) -> Iterator[Peer]:
    """A lobby watcher, once it has the list as it is."""
    with client.websocket_connect("/ws/lobby") as websocket:
        peer = Peer(websocket, client)
        first = peer.receive()
        assert first["type"] == "tables", first
        yield peer


def open_table(client: TestClient, **fields: object) -> Message:
    """An open table for two people (Ana's), Scopa to 6, in Italian."""
    body: dict[str, object] = {
        "rules": "scopa",
        "options": {"target_score": 6},
        "seats": ["person", "person"],
        "listed": True,
        "language": "it",
    }
    body.update(fields)
    return create_room(client, **body)


def listed(client: TestClient) -> dict[str, Message]:
    response = client.get("/api/tables")
    assert response.status_code == 200, response.text
    return {table["id"]: table for table in response.json()["tables"]}


def test_a_private_room_is_never_listed(client: TestClient) -> None:
    with lobby(client) as watcher:
        ticket = create_room(client, seats=["person", "person"])
        assert room_info(client, ticket["room"])["listed"] is False
        with connect(client, ticket["room"]) as ana:
            ana.join(ticket["token"])
            assert listed(client) == {}
            assert watcher.barrier() == []  # nothing was pushed


def test_an_open_table_is_listed_while_someone_waits_there(client: TestClient) -> None:
    with lobby(client) as watcher:
        ticket = open_table(client)
        room = ticket["room"]
        assert room_info(client, room)["listed"] is True
        assert listed(client) == {}  # its creator is not there yet
        with connect(client, room) as ana:
            ana.join(ticket["token"])
            pushed = watcher.until(lambda m: m["type"] == "table")["table"]
            assert listed(client) == {room: pushed}
            assert pushed["invite"] == f"/room/{room}"
            assert (pushed["preset"], pushed["changes"], pushed["target"]) == (
                "scopa",
                {"target_score": 6},
                6,
            )
            assert (pushed["players"], pushed["partnerships"]) == (2, False)
            assert pushed["status"] == "waiting" and pushed["free"] == 1
            assert pushed["language"] == "it" and pushed["computers"] is False
            assert [(s["kind"], s["nickname"], s["free"]) for s in pushed["seats"]] == [
                ("person", "Ana", False),
                ("person", None, True),
            ]
            assert "token" not in str(pushed) and ticket["token"] not in str(pushed)
        # Ana gone before anybody sat down: an empty table leaves at once
        gone = watcher.until(lambda m: m["type"] == "table_gone")
        assert gone["id"] == room
        assert listed(client) == {}


def test_a_table_whose_seats_are_taken_is_watched_or_leaves(client: TestClient) -> None:
    with lobby(client) as watcher:
        watched = open_table(client)
        private = open_table(client, watchable=False)
        with connect(client, watched["room"]) as ana, connect(client, private["room"]) as cy:
            ana.join(watched["token"])
            cy.join(private["token"])
            watcher.until(lambda m: m["type"] == "table" and m["table"]["id"] == private["room"])
            assert set(listed(client)) == {watched["room"], private["room"]}
            join_room(client, watched["room"], "Bea")
            playing = watcher.until(
                lambda m: m["type"] == "table" and m["table"]["status"] == "playing"
            )["table"]
            assert playing["id"] == watched["room"] and playing["free"] == 0
            assert [seat["nickname"] for seat in playing["seats"]] == ["Ana", "Bea"]
            join_room(client, private["room"], "Dan")
            gone = watcher.until(lambda m: m["type"] == "table_gone")
            assert gone["id"] == private["room"]
            # the tables with a free seat come first
            waiting = open_table(client)
            with connect(client, waiting["room"]) as eve:
                eve.join(waiting["token"])
                watcher.until(
                    lambda m: m["type"] == "table" and m["table"]["id"] == waiting["room"]
                )
                order = [table["id"] for table in client.get("/api/tables").json()["tables"]]
                assert order == [waiting["room"], watched["room"]]


def test_a_finished_match_leaves_the_list(client: TestClient) -> None:
    ticket = open_table(
        client, rules="escoba", options={"target_score": 1}, seats=["person", "easy"]
    )
    with lobby(client) as watcher, connect(client, ticket["room"]) as ana:
        ana.join(ticket["token"])
        table = watcher.until(lambda m: m["type"] == "table")["table"]
        assert table["computers"] is True and table["status"] == "playing"  # no free seat
        play_until([ana], lambda state: state["match"]["over"])
        assert watcher.until(lambda m: m["type"] == "table_gone")["id"] == ticket["room"]
        assert listed(client) == {}


def test_a_free_seat_is_taken_with_one_request(client: TestClient) -> None:
    ticket = open_table(client, seats=["person", "person", "person"], players=3)
    with connect(client, ticket["room"]) as ana:
        ana.join(ticket["token"])
        table = listed(client)[ticket["room"]]
        free = [seat["seat"] for seat in table["seats"] if seat["free"]]
        assert free == [1, 2]
        bea = join_room(client, ticket["room"], "Bea", seat=free[-1])
        assert bea["seat"] == 2
        again = client.post(f"/api/rooms/{ticket['room']}/join", json={"nickname": "Cy", "seat": 2})
        assert_refused(again, 409, "seat_taken")
        assert listed(client)[ticket["room"]]["free"] == 1


@pytest.mark.parametrize(
    ("field", "value"),
    [("listed", "yes"), ("watchable", [1]), ("language", "xx"), ("language", "")],
)
def test_a_bad_table_option_is_refused_and_makes_no_room(
    client: TestClient, field: str, value: object
) -> None:
    body = {"nickname": "Ana", "seats": ["person", "person"], field: value}
    refusal = assert_refused(client.post("/api/rooms", json=body), 422, "bad_request")
    assert field in refusal["message"]
    assert listed(client) == {}


def test_the_lobby_socket_takes_pings_only(client: TestClient) -> None:
    with lobby(client) as watcher:
        watcher.send({"type": "ping"})
        assert watcher.receive()["type"] == "pong"
        watcher.send({"type": "watch"})
        refusal = watcher.receive()
        assert (refusal["type"], refusal["code"]) == ("error", "bad_message")
        assert "ping" in refusal["message"]
        watcher.send_bytes(b"{}")
        assert watcher.receive()["code"] == "bad_message"
        watcher.send_text("x" * 5000)
        assert watcher.receive()["code"] == "too_large"
        watcher.send({"type": "ping"})
        assert watcher.receive()["type"] == "pong"  # still open


def test_watchers_past_the_limit_are_refused(tmp_path: Path) -> None:
    with running_app(tmp_path / "db", limits=TEST_LIMITS.replace(lobby_watchers=1)) as client:
        with lobby(client), client.websocket_connect("/ws/lobby") as second:
            peer = Peer(second, client)
            refusal = peer.receive()
            assert (refusal["type"], refusal["code"]) == ("error", "lobby_full")
            with pytest.raises(Closed):
                peer.receive()
        with lobby(client):  # the first one's place is free again
            pass


def test_a_lobby_socket_from_another_site_is_refused(client: TestClient) -> None:
    headers = {"origin": "https://elsewhere.example"}
    with client.websocket_connect("/ws/lobby", headers=headers) as websocket:
        peer = Peer(websocket, client)
        assert peer.receive()["code"] == "bad_origin"


# -- the entries of other processes ----------------------------------------------------------


class Inbox:
    """A lobby watcher's outlet: what it was sent."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    async def send_text(self, data: str) -> None:
        self.sent.append(data)


def listing(room: str, free: int = 1) -> TableListing:
    return TableListing(
        id=room,
        invite=f"/room/{room}",
        preset="escoba",
        changes={},
        rules={},
        target=21,
        players=2,
        partnerships=False,
        seats=[TableSeat(seat=0, kind="person", level=None, nickname="Ana", free=False)],
        free=free,
        computers=False,
        language="es",
        status="waiting" if free else "playing",
    )


def test_entries_of_other_processes_are_forgotten_unless_said_again() -> None:
    """The bus may lose a message, or a process die: an entry another process does not say
    again within ``keep`` seconds leaves the list (and its watchers are told); a process says
    its own entries again every ``refresh`` seconds."""

    async def test() -> None:
        clock = ManualClock()
        tables = OpenTables(clock, refresh=10.0, keep=30.0)
        spread: list[tuple[str, TableListing | None]] = []

        async def tell(room: str, table: TableListing | None) -> None:
            spread.append((room, table))

        tables.spread = tell
        client = Client(Inbox())
        tables.watch(client)
        upkeep = asyncio.get_running_loop().create_task(tables.upkeep())
        tables.show("mine", listing("mine"))
        tables.heard("theirs", listing("theirs"))
        tables.heard("mine", None)  # another process's word on a room this one owns
        await asyncio.sleep(0)
        assert spread == [("mine", listing("mine"))]
        assert [table.id for table in tables.tables()] == ["mine", "theirs"]
        for _ in range(2):  # 20 s: "theirs" said again at 10 s, "mine" said twice
            clock.advance(10.0)
            await asyncio.sleep(0.01)
            if clock.time == 1010.0:
                tables.heard("theirs", listing("theirs", free=0))
        assert spread.count(("mine", listing("mine"))) == 3
        clock.advance(19.0)  # 39 s: "theirs" last heard 29 s ago, kept
        await asyncio.sleep(0.01)
        assert [table.id for table in tables.tables()] == ["mine", "theirs"]
        clock.advance(2.0)  # 41 s: last heard 31 s ago
        await asyncio.sleep(0.01)
        assert [table.id for table in tables.tables()] == ["mine"]
        texts = [client.queue.get_nowait() for _ in range(client.queue.qsize())]
        assert texts[-1] == '{"type":"table_gone","id":"theirs"}'
        upkeep.cancel()
        await tables.close()
        assert spread[-1] == ("mine", None)  # a process that stops takes its entries off

    asyncio.run(test())


@pytest.mark.slow
def test_an_open_table_is_listed_on_every_process_of_a_site(
    tmp_path: Path, redis_store: TestRedis
) -> None:
    """Two processes of one site (two apps here, sharing a database and a Redis): a table
    opened on one is pushed to the lobby watchers of the other, and leaves there too."""
    apps = site_apps(tmp_path, redis_store.url, redis_store.prefix, 2)
    with TestClient(apps[0]) as first, TestClient(apps[1]) as second, lobby(second) as watcher:
        ticket = open_table(first)
        with connect(first, ticket["room"]) as ana:
            ana.join(ticket["token"])
            table = watcher.until(lambda m: m["type"] == "table")["table"]
            assert table["id"] == ticket["room"] and table["status"] == "waiting"
            assert listed(second) == listed(first) == {ticket["room"]: table}
            # one click on the second process takes the free seat
            join_room(second, ticket["room"], "Bea")
            playing = watcher.until(lambda m: m["type"] == "table")["table"]
            assert playing["status"] == "playing"
        assert watcher.until(lambda m: m["type"] == "table_gone")["id"] == ticket["room"]
        assert listed(second) == {}
