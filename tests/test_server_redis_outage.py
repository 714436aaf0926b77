"""A Redis out of reach is said once (docs/operators.md, "Several processes, one site"):
however many calls of a process fail while it is away (room events, presence, leases, requests, the
upkeep, the listener), the log holds one error naming the Redis and what failed (never the
password of its URL), and once Redis answers again one warning that it was reached again.
Plays sent on meanwhile are still refused as `restarting`, and the listener still subscribes
again and has the rooms read again.
"""

from __future__ import annotations

import asyncio
import logging
import shutil
import subprocess
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

import pytest
from redis.asyncio import Redis

from escoba.server.config import SYSTEM_CLOCK
from escoba.server.errors import BusUnavailable, Refusal
from escoba.server.protocol import PlayMessage
from escoba.server.replication import bus as cluster_module
from escoba.server.replication import ownership as site_module
from escoba.server.replication.bus import Cluster, Payload, Reach
from escoba.server.replication.ownership import Site
from redis_fixtures import REQUIRED, private_server
from server_helpers import free_port

_T = TypeVar("_T")

DATABASE_BACKENDS = ("sqlite",)
"""No database here: once is enough."""

PASSWORD = "not-for-the-log-7b1e"
ROOM = "outage-room"
CALLS = 21
"""Rounds of calls while Redis is away: the review counted 21 error lines in 10 s."""
DEADLINE = 5.0
"""Seconds a poll waits for what must come much sooner."""


def run(test: Callable[[], Coroutine[Any, Any, _T]]) -> _T:
    return asyncio.run(test())


class FakeRoom:
    """What the site reads of a room when Redis fails: its id and who is connected here."""

    def __init__(self, room_id: str) -> None:
        self.id = room_id
        self.clients: list[object] = []
        self.lock = asyncio.Lock()

    def online(self) -> set[int]:
        return {0}

    def broadcast(self) -> None:
        pass


class FakeHub:
    """The rooms a site looks after, and its background tasks."""

    clock = SYSTEM_CLOCK

    def __init__(self) -> None:
        self.rooms: dict[str, FakeRoom] = {}
        self.tasks: set[asyncio.Task[Any]] = set()

    def in_background(self, call: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.get_running_loop().create_task(call)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)


def said(caplog: pytest.LogCaptureFixture, level: int) -> list[str]:
    """The server's log lines at ``level`` exactly."""
    return [
        record.getMessage()
        for record in caplog.records
        if record.name == "escoba.server" and record.levelno == level
    ]


async def poll(done: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + DEADLINE
    while not done():
        assert time.monotonic() < deadline, f"not within {DEADLINE} s: {what}"
        await asyncio.sleep(0.01)


async def every_call_fails(site: Site, room: FakeRoom) -> None:
    """One round of the calls a process makes, each refused or failing as before."""
    cluster = site.cluster
    await site.tell(room.id, {"kind": "move"})  # said in the log only
    site.share_presence(room)
    await site._read_presence(room)
    with pytest.raises(Refusal) as refused:
        await site.forward(room.id, 0, PlayMessage(type="play", card="1o"))
    assert refused.value.code == "restarting"
    with pytest.raises(Refusal) as refused:
        await site._site(cluster.take(room.id, 0))
    assert refused.value.code == "restarting"
    for call in (
        cluster.beat(),
        cluster.publish(room.id, {"kind": "move"}),
        cluster.presence(room.id),
        cluster.set_presence(room.id, {1}),
        cluster.holder(room.id),
        cluster.holders([room.id, "another"]),
        cluster.renew({room.id: 3}),
        cluster.ask("another-process", {"room": room.id}),
    ):
        with pytest.raises(BusUnavailable):
            await call
    await cluster.release(room.id, 3)  # a release that fails is let be


def counted_beats(cluster: Cluster) -> list[bool]:
    """Whether each heartbeat of the cluster's upkeep from now on reached Redis."""
    beats: list[bool] = []
    beat = cluster.beat

    async def counted() -> None:
        try:
            await beat()
        except BusUnavailable:
            beats.append(False)
            raise
        beats.append(True)

    cluster.beat = counted  # type: ignore[method-assign]
    return beats


class CountedRedis(Redis):
    """The listener's client, counting the connections it opens (one a subscription)."""

    opened = 0

    @classmethod
    def from_url(cls, url: str, **kwargs: Any) -> Redis:  # type: ignore[override]
        CountedRedis.opened += 1
        return Redis.from_url(url, **kwargs)


@pytest.fixture
def server_log(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    caplog.set_level(logging.DEBUG, logger="escoba.server")
    return caplog


@pytest.fixture
def quick_upkeep(monkeypatch: pytest.MonkeyPatch) -> None:
    """An upkeep every 10 ms instead of every second: many rounds in a short test."""
    monkeypatch.setattr(site_module, "UPKEEP_SECONDS", 0.01)


def test_a_redis_out_of_reach_is_one_error_however_many_calls_find_it(
    server_log: pytest.LogCaptureFixture, quick_upkeep: None
) -> None:
    port = free_port()  # nothing listens there: each call is refused at once

    async def test() -> None:
        cluster = Cluster(f"redis://:{PASSWORD}@127.0.0.1:{port}/0", prefix="t:")
        hub = FakeHub()
        site = Site(hub, cluster)  # type: ignore[arg-type]
        room = FakeRoom(ROOM)
        hub.rooms[room.id] = room
        beats = counted_beats(cluster)
        upkeep = asyncio.get_running_loop().create_task(site._upkeep())
        try:
            for _ in range(CALLS):
                await every_call_fails(site, room)
            await poll(lambda: beats.count(False) >= 10, "ten failed upkeeps")
            await poll(lambda: not site._presence, "presence no longer being shared")
        finally:
            upkeep.cancel()
            await cluster.close()
        assert not cluster.reach.reached

    run(test)
    errors = said(server_log, logging.ERROR)
    assert len(errors) == 1, errors
    assert f"Redis at 127.0.0.1:{port} cannot be reached" in errors[0]
    assert "(" in errors[0] and "restarting" in errors[0]  # what failed, and what it means
    assert said(server_log, logging.WARNING) == []
    # Every failure was still seen, below the error level, and no line shows the password.
    assert len(said(server_log, logging.DEBUG)) > CALLS * 10
    assert not [record for record in server_log.records if PASSWORD in record.getMessage()]


def stop(server: subprocess.Popen[bytes]) -> None:
    server.kill()
    server.wait()


@pytest.mark.slow
def test_an_outage_ends_with_one_warning_when_redis_answers_again(
    tmp_path: Path,
    server_log: pytest.LogCaptureFixture,
    quick_upkeep: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A private Redis, killed under a listening process and started again on its socket:
    one error, one warning, the subscription back and the rooms read again once."""
    if shutil.which("redis-server") is None:
        if REQUIRED:
            pytest.fail("every test must run here, but there is no redis-server")
        pytest.skip("there is no redis-server to start (apt-get install redis-server)")
    folder = tmp_path / "redis"
    folder.mkdir()
    server, url = private_server(folder)
    resubscribed: list[bool] = []
    monkeypatch.setattr(cluster_module, "Redis", CountedRedis)

    async def respond(request: Payload) -> Payload:
        return {"error": None}

    async def test() -> None:
        nonlocal server
        cluster = Cluster(url, prefix="t:", lease_ms=2000)
        hub = FakeHub()
        site = Site(hub, cluster)  # type: ignore[arg-type]
        room = FakeRoom(ROOM)
        hub.rooms[room.id] = room
        await cluster.start(lambda room, payload: None, respond, lambda: resubscribed.append(True))
        beats = counted_beats(cluster)
        upkeep = asyncio.get_running_loop().create_task(site._upkeep())
        try:
            await cluster.publish(room.id, {"kind": "move"})
            assert cluster.reach.reached
            stop(server)
            opened = CountedRedis.opened
            for _ in range(CALLS):
                await every_call_fails(site, room)
            # The listener lost its subscription and tries again every half second: once it
            # opens a second connection, the first one failed too; and the upkeep fails.
            await poll(lambda: CountedRedis.opened >= opened + 2, "the listener failing twice")
            await poll(lambda: beats.count(False) >= 10, "ten failed upkeeps")
            assert len(said(server_log, logging.ERROR)) == 1
            assert said(server_log, logging.WARNING) == []

            server, _ = private_server(folder)  # back, on the same socket
            await poll(lambda: cluster.reach.reached, "Redis reached again")
            await poll(lambda: bool(resubscribed), "the listener subscribed again")
            await cluster.publish(room.id, {"kind": "move"})
            assert await cluster.presence(room.id) == set()
            upkeeps = beats.count(True)
            await poll(lambda: beats.count(True) >= upkeeps + 3, "three upkeeps with Redis back")
        finally:
            upkeep.cancel()
            await cluster.close()

    try:
        run(test)
    finally:
        stop(server)
    errors = said(server_log, logging.ERROR)
    assert len(errors) == 1, errors
    assert f"Redis at unix://{folder / 'redis.sock'} cannot be reached" in errors[0]
    warnings = said(server_log, logging.WARNING)
    assert len(warnings) == 1, warnings
    assert "reached again" in warnings[0]
    assert resubscribed == [True]  # the rooms were read again, once


def test_what_a_call_begun_before_a_change_finds_is_stale() -> None:
    """A call that began while Redis answered and fails after another found it gone, or
    began during the outage and fails after it ended (a timeout), says nothing new."""
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    logger = logging.getLogger("escoba.server")
    handler = Keep(logging.WARNING)
    logger.addHandler(handler)
    try:
        reach = Reach("cache:6379")
        gone = BusUnavailable("Redis at cache:6379 cannot be reached: Connection refused")
        before = reach.turn()
        reach.failed("telling a room event", gone, reach.turn())
        assert not reach.reached
        reach.failed("reading a lease", gone, before)  # found the same outage: nothing new
        during = reach.turn()
        reach.answered(before)  # an answer sent before the outage does not end it
        assert not reach.reached
        reach.answered(reach.turn())
        assert reach.reached
        reach.failed("sending a request", gone, during)  # timed out, but Redis is back
        assert reach.reached
        reach.failed("beating its heart", gone, reach.turn())  # a new outage
        assert not reach.reached
    finally:
        logger.removeHandler(handler)
    said_ = [(record.levelname, record.getMessage()) for record in records]
    assert [level for level, _ in said_] == ["ERROR", "WARNING", "ERROR"], said_
    assert said_[0][1].startswith(
        "Redis at cache:6379 cannot be reached: Connection refused (telling a room event)"
    )
    assert said_[1][1].startswith("Redis at cache:6379: reached again")
    assert "(beating its heart)" in said_[2][1]
