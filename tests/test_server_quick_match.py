"""Quick match (issue 33, "Quick match"): "Play now" pairs people waiting for the same game and
number of players, first come first served, each exactly once, on one process or across the
processes of a site; leaving the page leaves the queue; after a wait a person may fill the
free seats with computers. Bad requests are refused clearly and change nothing.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from escoba.server.config import DEFAULT_TIMINGS
from escoba.server.lobby import LocalQueue, Queue, Seeker, SeekKey
from escoba.server.replication.bus import Cluster
from escoba.server.replication.queue import SiteQueue
from redis_fixtures import TestRedis
from server_helpers import (
    ManualClock,
    Message,
    Peer,
    connect,
    room_info,
    running_app,
    site_apps,
)


@contextmanager
def lobby(client: TestClient) -> Iterator[Peer]:
    with client.websocket_connect("/ws/lobby") as websocket:
        peer = Peer(websocket, client)
        assert peer.receive()["type"] == "tables"
        yield peer


def seek(peer: Peer, nickname: str, **fields: Any) -> Message:
    """Ask for a quick match; the server's ``seeking``."""
    peer.send({"type": "seek", "nickname": nickname, **fields})
    seeking = peer.until(lambda m: m["type"] in ("seeking", "error"))
    assert seeking["type"] == "seeking", seeking
    return seeking


def paired(peer: Peer) -> Message:
    """The seat a quick match gave ``peer``."""
    ticket: Message = peer.until(lambda m: m["type"] in ("paired", "error"))
    assert ticket["type"] == "paired", ticket
    return dict(ticket["ticket"])


def test_two_people_seeking_the_same_game_are_seated_together(client: TestClient) -> None:
    with lobby(client) as ana, lobby(client) as bea:
        seeking = seek(ana, "Ana")
        assert (seeking["rules"], seeking["players"], seeking["wait"]) == ("escoba", 2, 20.0)
        seek(bea, "Bea")
        first, second = paired(ana), paired(bea)
        assert first["room"] == second["room"] and {first["seat"], second["seat"]} == {0, 1}
        info = room_info(client, first["room"])
        assert [seat["nickname"] for seat in info["seats"]] == ["Ana", "Bea"]
        assert [seat["kind"] for seat in info["seats"]] == ["person", "person"]
        assert info["preset"] == "escoba" and info["listed"] is True
        # each ticket takes its own seat
        for ticket in (first, second):
            with connect(client, ticket["room"]) as peer:
                welcome, _ = peer.join(ticket["token"])
                assert welcome["seat"] == ticket["seat"]


def test_only_people_waiting_for_the_same_are_paired_first_come_first_served(
    client: TestClient,
) -> None:
    with ExitStack() as stack:
        ana, bea, cy, dan, eva = (stack.enter_context(lobby(client)) for _ in range(5))
        seek(ana, "Ana", rules="scopa")
        seek(bea, "Bea", players=3)
        seek(cy, "Cy")
        seek(dan, "Dan", players=3)
        for peer in (ana, bea, cy, dan):
            assert peer.barrier() == []  # nobody paired yet
        seek(eva, "Eva", players=3)
        tickets = [paired(bea), paired(dan), paired(eva)]
        assert len({ticket["room"] for ticket in tickets}) == 1
        assert [ticket["seat"] for ticket in tickets] == [0, 1, 2]  # in the order they came
        assert room_info(client, tickets[0]["room"])["players"] == 3
        assert ana.barrier() == [] and cy.barrier() == []


def nobody_waits(client: TestClient) -> None:
    """Wait until the server has seen every closed lobby socket go: nobody waits any more."""
    quick = client.app.state.quick_match  # type: ignore[attr-defined]
    for _ in range(500):
        if quick.seeking == 0:
            return
        time.sleep(0.01)
    raise AssertionError(f"{quick.seeking} people still wait")


def test_leaving_the_page_or_cancelling_leaves_the_queue(client: TestClient) -> None:
    with lobby(client) as ana:
        seek(ana, "Ana")
    nobody_waits(client)
    with lobby(client) as bea, lobby(client) as cy, lobby(client) as dan:
        seek(bea, "Bea")
        assert bea.barrier() == []  # Ana left: nobody to pair Bea with
        bea.send({"type": "cancel_seek"})
        assert bea.until(lambda m: m["type"] != "pong")["type"] == "seek_cancelled"
        seek(cy, "Cy")
        assert cy.barrier() == []
        seek(dan, "Dan")
        assert paired(cy)["room"] == paired(dan)["room"]
        assert bea.barrier() == []


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ({"type": "seek", "nickname": "Ana", "rules": "poker"}, "bad_rules"),
        (
            {"type": "seek", "nickname": "Ana", "rules": "scopone-scientifico", "players": 3},
            "bad_seating",
        ),
        ({"type": "seek", "nickname": "\u200b"}, "bad_nickname"),
        ({"type": "seek", "nickname": "Ana", "players": 5}, "bad_message"),
        ({"type": "fill", "level": "medium"}, "not_seeking"),
        ({"type": "fill", "level": "grandmaster"}, "bad_message"),
        ({"type": "cancel_seek"}, "not_seeking"),
    ],
)
def test_a_bad_quick_match_request_is_refused_and_queues_nobody(
    client: TestClient, message: Message, code: str
) -> None:
    with lobby(client) as ana, lobby(client) as bea:
        ana.send(message)
        assert ana.refused(code)["message"]
        seek(bea, "Bea")
        assert bea.barrier() == []  # nobody was queued to pair Bea with


def test_a_second_seek_on_one_connection_is_refused(client: TestClient) -> None:
    with lobby(client) as ana, lobby(client) as bea:
        seek(ana, "Ana")
        ana.send({"type": "seek", "nickname": "Ana again"})
        assert "already" in ana.refused("already_seeking")["message"]
        seek(bea, "Bea")
        ticket = paired(ana)
        assert [s["nickname"] for s in room_info(client, ticket["room"])["seats"]] == ["Ana", "Bea"]


def test_after_the_wait_the_free_seats_may_go_to_computers(tmp_path: Path) -> None:
    clock = ManualClock()
    with (
        running_app(tmp_path / "db", clock=clock) as client,
        lobby(client) as ana,
        lobby(client) as bea,
    ):
        seek(ana, "Ana", players=4)
        seek(bea, "Bea", players=4)
        assert ana.barrier() == []
        clock.advance(DEFAULT_TIMINGS.quick_match_wait - 0.5)
        assert ana.barrier() == []
        clock.advance(0.5)
        waited = ana.until(lambda m: m["type"] == "seek_waited")
        assert waited["waited"] == DEFAULT_TIMINGS.quick_match_wait
        ana.send({"type": "fill", "level": "easy"})
        # Bea, waiting for the same, sits with Ana; the two free seats go to computers
        tickets = [paired(ana), paired(bea)]
        assert [ticket["seat"] for ticket in tickets] == [0, 1]
        info = room_info(client, tickets[0]["room"])
        assert [(s["kind"], s["level"]) for s in info["seats"]] == [
            ("person", None),
            ("person", None),
            ("computer", "easy"),
            ("computer", "easy"),
        ]
        assert info["partnerships"] is True
        # once paired, nobody waits any more: fill again is refused
        ana.send({"type": "fill", "level": "easy"})
        assert ana.refused("not_seeking")


# -- the queue itself -------------------------------------------------------------------------


def seeker(name: str, process: str = "p1") -> Seeker:
    return Seeker(id=name, process=process, nickname=name.title(), language="en")


async def check_a_queue(queue: Queue) -> None:
    """Every queue's promises: the first ``players`` are taken out together, once; a seeker
    taken with ``take`` comes first, with the others waiting; one who left is never taken."""
    two, three = SeekKey("escoba", 2), SeekKey("escoba", 3)
    assert not await queue.join(two, seeker("ana"))
    assert not await queue.join(three, seeker("bea"))
    assert [s.id for s in await queue.join(two, seeker("cy"))] == ["ana", "cy"]
    assert not await queue.join(two, seeker("dan"))
    await queue.leave(two, "dan")
    assert not await queue.join(two, seeker("eva"))
    assert not await queue.join(three, seeker("fay"))
    assert [s.id for s in await queue.take(three, "fay")] == ["fay", "bea"]
    assert not await queue.take(three, "fay")  # taken already
    assert [s.id for s in await queue.take(two, "eva")] == ["eva"]
    assert not await queue.take(two, "dan")


def test_the_local_queue_keeps_its_promises() -> None:
    asyncio.run(check_a_queue(LocalQueue()))


def test_the_site_queue_keeps_its_promises_and_skips_dead_processes(
    redis_store: TestRedis,
) -> None:
    async def test() -> None:
        cluster = Cluster(redis_store.url, prefix=redis_store.prefix)
        await cluster.beat()
        try:
            queue = SiteQueue(cluster)
            live = cluster.id
            await check_a_queue(_Named(queue, live))
            # a seeker of a process whose heartbeat is gone is never paired
            key = SeekKey("scopa", 2)
            assert not await queue.join(key, seeker("ghost", process="dead-process"))
            assert not await queue.join(key, seeker("gil", process=live))
            assert [s.id for s in await queue.join(key, seeker("hal", process=live))] == [
                "gil",
                "hal",
            ]
            assert await cluster.redis.hgetall(f"{redis_store.prefix}queue:scopa:2:seekers") == {}
        finally:
            await cluster.close()

    asyncio.run(test())


class _Named:
    """A queue whose seekers all belong to the live process ``process``."""

    def __init__(self, queue: SiteQueue, process: str) -> None:
        self.queue = queue
        self.process = process

    def _own(self, one: Seeker) -> Seeker:
        return Seeker(one.id, self.process, one.nickname, one.language)

    async def join(self, key: SeekKey, one: Seeker) -> Any:
        return await self.queue.join(key, self._own(one))

    async def take(self, key: SeekKey, seeker_id: str) -> Any:
        return await self.queue.take(key, seeker_id)

    async def leave(self, key: SeekKey, seeker_id: str) -> None:
        await self.queue.leave(key, seeker_id)


# -- across the processes of a site -----------------------------------------------------------


@pytest.mark.slow
def test_a_hundred_people_over_three_processes_are_each_paired_once(
    tmp_path: Path, redis_store: TestRedis
) -> None:
    """Three processes of one site (three apps here, sharing a database and a Redis): 100
    people seek 2-player Escoba, spread over the processes; each is paired exactly once, in
    50 rooms of two, and every ticket takes its seat."""
    apps = site_apps(tmp_path, redis_store.url, redis_store.prefix, 3)
    with ExitStack() as stack:
        clients = [stack.enter_context(TestClient(app)) for app in apps]
        peers = [stack.enter_context(lobby(clients[n % 3])) for n in range(100)]
        for number, peer in enumerate(peers):
            peer.send({"type": "seek", "nickname": f"P{number}"})
        tickets = [paired(peer) for peer in peers]
        rooms: dict[str, list[int]] = {}
        for ticket in tickets:
            rooms.setdefault(ticket["room"], []).append(ticket["seat"])
        assert len(rooms) == 50 and all(sorted(seats) == [0, 1] for seats in rooms.values())
        for peer in peers:  # and nothing more came to anyone
            assert [m["type"] for m in peer.barrier()] == []
        names = set()
        for room in rooms:
            info = room_info(clients[0], room)
            names.update(seat["nickname"] for seat in info["seats"])
        assert names == {f"P{number}" for number in range(100)}
        queued = json.dumps(list(clients[0].portal.call(_queue_keys, redis_store)))
        assert queued == "[]"


async def _queue_keys(store: TestRedis) -> list[str]:
    cluster = Cluster(store.url, prefix=store.prefix)
    try:
        return [
            key
            for key in await cluster.redis.keys(f"{store.prefix}queue:*")
            if await cluster.redis.exists(key)
        ]
    finally:
        await cluster.redis.aclose()
