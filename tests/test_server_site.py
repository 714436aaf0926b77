"""The bus between the processes of one site (``escoba serve --redis``, issue 17), part by
part: room events reach the other processes and not their teller, a request reaches the
owner and its answer the asker, a request nobody hears is said at once, presence counts only
live processes, many leases are renewed and read in one round trip, a rematch under a stale
fence stores nothing, and the command line refuses a site it cannot make.

Whole sites of real processes, with a process killed mid-match, are in
``test_server_cluster.py``.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from typer.testing import CliRunner

from escoba import RULESETS, Game
from escoba.cli import app as cli
from escoba.server.errors import StaleFence
from escoba.server.replication.bus import Cluster, NoAnswer, Payload
from escoba.server.storage.repository import Storage
from escoba.server.storage.tables import MatchRow
from redis_fixtures import TestRedis, private_server
from server_helpers import (
    connect,
    create_room,
    database_url,
    is_state,
    join_room,
    moves_played,
    play_message,
    site_apps,
)

_T = TypeVar("_T")


def run(test: Callable[[], Coroutine[Any, Any, _T]]) -> _T:
    return asyncio.run(test())


class Process:
    """One process's cluster, with what it heard."""

    def __init__(self, store: TestRedis, answer: Payload | None = None) -> None:
        self.cluster = Cluster(store.url, prefix=store.prefix, lease_ms=2000)
        self.heard: list[tuple[str, Payload]] = []
        self.asked: list[Payload] = []
        self.answer = answer or {"error": None}
        self.resubscribed = 0

    def _on_room(self, room: str, payload: Payload) -> None:
        self.heard.append((room, payload))

    async def _respond(self, request: Payload) -> Payload:
        self.asked.append(request)
        return self.answer

    def _on_resubscribed(self) -> None:
        self.resubscribed += 1

    async def start(self) -> None:
        await self.cluster.start(self._on_room, self._respond, self._on_resubscribed)


@asynccontextmanager
async def site(store: TestRedis, *processes: Process) -> AsyncIterator[None]:
    for process in processes:
        await process.start()
    try:
        yield
    finally:
        for process in processes:
            await process.cluster.close()


async def until(condition: Callable[[], bool], seconds: float = 5.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if condition():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("not in time")


def test_a_room_event_reaches_the_other_processes_and_not_its_teller(
    redis_store: TestRedis,
) -> None:
    async def test() -> None:
        a, b, c = Process(redis_store), Process(redis_store), Process(redis_store)
        async with site(redis_store, a, b, c):
            event = {"kind": "move", "match": 7, "number": 3, "move": "7c:5h+3d"}
            await a.cluster.publish("room-x", event)
            await until(lambda: bool(b.heard) and bool(c.heard))
            for process in (b, c):
                assert process.heard == [("room-x", {**event, "from": a.cluster.id})]
            # Redis hands a process the events in the order they were told: once a hears
            # the next one, its own event has come and gone.
            reply = {"kind": "move", "match": 7, "number": 4, "move": "5c"}
            await b.cluster.publish("room-x", reply)
            await until(lambda: bool(a.heard))
            assert a.heard == [("room-x", {**reply, "from": b.cluster.id})]

    run(test)


def test_a_request_reaches_its_owner_and_the_answer_its_asker(redis_store: TestRedis) -> None:
    async def test() -> None:
        refusal = {"error": {"code": "not_your_turn", "message": "not yours", "status": 400}}
        owner, replica = Process(redis_store, refusal), Process(redis_store)
        async with site(redis_store, owner, replica):
            request = {"room": "room-x", "seat": 1, "message": {"type": "play", "card": "7c"}}
            reply = await replica.cluster.ask(owner.cluster.id, request)
            assert reply["error"] == refusal["error"]
            assert len(owner.asked) == 1
            asked = owner.asked[0]
            assert asked["from"] == replica.cluster.id
            assert (asked["room"], asked["seat"], asked["message"]) == (
                "room-x",
                1,
                request["message"],
            )
            assert replica.asked == []

    run(test)


def test_a_request_to_a_process_that_is_gone_is_said_at_once(redis_store: TestRedis) -> None:
    async def test() -> None:
        replica = Process(redis_store)
        async with site(redis_store, replica):
            started = asyncio.get_running_loop().time()
            with pytest.raises(NoAnswer, match="not listening") as caught:
                await replica.cluster.ask("a-process-long-dead", {"room": "room-x"})
            assert not caught.value.heard  # surely not acted on: it may be sent again
            assert asyncio.get_running_loop().time() - started < 2.0  # not the answer's wait

    run(test)


def test_presence_counts_the_seats_of_the_other_live_processes(redis_store: TestRedis) -> None:
    async def test() -> None:
        a, b, c = Process(redis_store), Process(redis_store), Process(redis_store)
        async with site(redis_store, a, b, c):
            await a.cluster.set_presence("room-x", {0})
            await b.cluster.set_presence("room-x", {1, 2})
            assert await c.cluster.presence("room-x") == {0, 1, 2}
            assert await a.cluster.presence("room-x") == {1, 2}  # its own are counted apart
            await until(lambda: ("room-x", {"kind": "presence", "from": b.cluster.id}) in c.heard)
            # b dies: its heartbeat goes, and its seats stop counting at once
            await c.cluster.redis.delete(b.cluster._alive_key(b.cluster.id))
            assert await c.cluster.presence("room-x") == {0}
            await a.cluster.set_presence("room-x", ())
            assert await c.cluster.presence("room-x") == set()
            assert await c.cluster.presence("room-nobody-joined") == set()

    run(test)


def test_many_leases_are_renewed_and_read_in_one_go(redis_store: TestRedis) -> None:
    async def test() -> None:
        a, b = Process(redis_store), Process(redis_store)
        async with site(redis_store, a, b):
            held = {room: await a.cluster.take(room, 0) for room in ("r1", "r2", "r3")}
            tokens = {room: token for room, token in held.items() if token is not None}
            assert len(tokens) == 3
            assert await b.cluster.take("r1", 0) is None
            assert await a.cluster.renew(tokens) == set()
            await a.cluster.release("r2", tokens["r2"])
            assert await b.cluster.take("r2", 0) is not None  # given up: free at once
            assert await a.cluster.renew(tokens) == {"r2"}  # lost to b
            holders = await b.cluster.holders(["r1", "r2", "r4"])
            assert holders["r1"] is not None and holders["r1"].owner == a.cluster.id
            assert holders["r2"] is not None and holders["r2"].owner == b.cluster.id
            assert holders["r4"] is None
            assert await a.cluster.renew({}) == set()
            assert await a.cluster.holders([]) == {}

    run(test)


def test_a_rematch_under_a_stale_fence_stores_nothing(tmp_path: Path) -> None:
    storage = Storage(database_url(tmp_path / "site.db"))
    storage.migrate()
    try:
        game = Game(RULESETS["escoba"], 2, seed=1)
        storage.create_room("room1", game, [None, "easy"], seed=1)
        storage.claim_room("room1", 5)
        with pytest.raises(StaleFence, match="room1"):
            storage.new_match("room1", 2, Game(RULESETS["escoba"], 2, seed=2), 2, fence=4)
        with storage.engine.connect() as connection:
            assert list(connection.scalars(select(MatchRow.number))) == [1]
        storage.new_match("room1", 2, Game(RULESETS["escoba"], 2, seed=2), 2, fence=5)
        with storage.engine.connect() as connection:
            assert sorted(connection.scalars(select(MatchRow.number))) == [1, 2]
    finally:
        storage.close()


def test_serve_refuses_a_site_on_sqlite_and_a_redis_out_of_reach(
    tmp_path: Path, redis_store: TestRedis
) -> None:
    runner = CliRunner(env={"COLUMNS": "200", "NO_COLOR": "1"})
    sqlite = f"sqlite:///{tmp_path / 'one.db'}"
    result = runner.invoke(cli, ["serve", "--database", sqlite, "--redis", redis_store.url])
    assert result.exit_code != 0
    assert "SQLite is one machine's file" in result.output
    assert "PostgreSQL" in result.output
    postgres = "postgresql+psycopg://escoba:escoba@127.0.0.1:1/escoba"
    gone = f"unix://{tmp_path / 'no-redis.sock'}?db=0"
    result = runner.invoke(cli, ["serve", "--database", postgres, "--redis", gone])
    assert result.exit_code != 0
    assert "--redis: cannot reach" in result.output
    assert "no-redis.sock" in result.output
    result = runner.invoke(
        cli, ["serve", "--database", postgres, "--redis", redis_store.url, "--redis-prefix", "a b"]
    )
    assert result.exit_code != 0
    assert "--redis-prefix" in result.output


@pytest.mark.slow
def test_a_redis_that_goes_away_is_said_and_play_resumes_once_it_is_back(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Two processes of one site (two apps here, on one database): while their Redis is
    gone, a play through the process that does not own the room is refused as `restarting`
    and the log says why; once a Redis is back (an empty one: a restart without
    persistence), the rooms are read again, one process takes the room over under a
    greater token, and the play goes through, shown to both people, stored once."""
    folder = tmp_path / "redis"
    folder.mkdir()
    redis_server, url = private_server(folder)
    apps = site_apps(tmp_path, url, "t:", 2)
    try:
        with TestClient(apps[0]) as owner, TestClient(apps[1]) as other:
            ticket = create_room(owner, seats=["person", "person"])
            room = ticket["room"]
            guest = join_room(other, room, "Bea")
            with connect(owner, room) as ana, connect(other, room) as bea:
                ana.join(ticket["token"])
                bea.join(guest["token"])
                peers = {ana.seat: ana, bea.seat: bea}
                for played in range(4):  # a few moves, whoever is to move, across processes
                    mover = peers[ana.state_at(played)["match"]["to_move"]]
                    state = mover.state_at(played)
                    mover.send(play_message(state["match"]["legal"][0]))
                    for peer in peers.values():
                        assert peer.state_at(played + 1)["event"] is not None
                caplog.clear()  # before the kill: its one error may come at once
                redis_server.kill()
                redis_server.wait()
                if ana.state_at(4)["match"]["to_move"] == ana.seat:
                    # Ana plays on the process that owns the room: stored and shown to her
                    # (the other process cannot hear of it while Redis is gone).
                    ana.send(play_message(ana.state_at(4)["match"]["legal"][0]))
                    assert ana.state_at(5)["event"] is not None
                stored = moves_played(ana.last_state() or {})
                hand = bea.state_at(4)["match"]["hand"]
                bea.send({"type": "play", "card": hand[0], "captures": []})
                refusal = bea.until(lambda m: m["type"] == "error")
                assert refusal["code"] == "restarting", refusal
                assert "restarting" in refusal["message"]
                assert any(
                    record.levelname == "ERROR" and "Redis" in record.getMessage()
                    for record in caplog.records
                )
                redis_server, _ = private_server(folder)  # back, empty
                state = bea.until(
                    lambda m: (
                        is_state(m)
                        and moves_played(m) == stored
                        and m["match"]["to_move"] == bea.seat
                    )
                )
                bea.send(play_message(state["match"]["legal"][0]))
                shown = [peer.state_at(stored + 1)["match"]["history"] for peer in peers.values()]
                assert shown[0] == shown[1]  # the same move, to both (one read it again)
        store = Storage(database_url(tmp_path / "site.db"))
        try:
            back = store.room(room)
            assert back is not None
            assert moves_played_in(back.game) == stored + 1
            fence = store.room_fence(room)
            assert fence is not None and fence >= 2  # taken again, above the first owner's 1
        finally:
            store.close()
    finally:
        redis_server.kill()
        redis_server.wait()


def moves_played_in(game: Game) -> int:
    return sum(len(hand["moves"]) for hand in game.record()["hands"])
