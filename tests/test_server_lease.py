"""Room leases in Redis and their fencing in the database: the ground several server processes
will share rooms on (issue 17).

One owner holds a room at a time; a lease that runs out lets another owner take the room
with a greater fencing token; the owner before can then neither renew nor give up the new
owner's lease, and the database stores none of its moves once the new owner claimed the room,
while the new owner's are stored. A Redis that is not there is one clear error.

The leases run on the tests' Redis (``tests/redis_fixtures.py``), the fences on the server
tests' databases (SQLite, and PostgreSQL under ``.ci/run``).
"""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import pytest
from sqlalchemy import select

from escoba import RULESETS, Game, Play
from escoba.server.errors import BusUnavailable, StaleFence
from escoba.server.replication.leases import Lease, Leases, connect
from escoba.server.storage.repository import MoveWrite, Storage
from escoba.server.storage.tables import MoveRow
from escoba.server.storage.writer import MoveWriter
from redis_fixtures import TestRedis
from server_helpers import database_url

ROOM = "room1"
LONG = 60_000
"""A lease (ms) that outlasts any test."""
SHORT = 50
"""A lease (ms) that a test waits out."""

_T = TypeVar("_T")


def run(test: Callable[[], Coroutine[Any, Any, _T]]) -> _T:
    return asyncio.run(test())


@asynccontextmanager
async def leases(store: TestRedis, *owners: tuple[str, int]) -> AsyncIterator[list[Leases]]:
    """A ``Leases`` for each (owner, ttl ms), each with a client of its own, as processes have."""
    clients = [connect(store.url) for _ in owners]
    try:
        yield [
            Leases(client, owner, ttl, prefix=store.prefix)
            for client, (owner, ttl) in zip(clients, owners, strict=True)
        ]
    finally:
        for client in clients:
            await client.aclose()


async def expired(lease: Leases, room: str) -> None:
    """Wait until nobody holds ``room`` (its lease ran out), for 5 seconds at most."""
    deadline = time.monotonic() + 5
    while await lease.holder(room) is not None:
        assert time.monotonic() < deadline, "the lease did not run out"
        await asyncio.sleep(0.01)


@pytest.fixture
def storage(tmp_path: Path) -> Iterator[Storage]:
    storage = Storage(database_url(tmp_path / "escoba.db"))
    storage.migrate()
    yield storage
    storage.close()


class Match:
    """A room's match, played move by move with the first legal move."""

    def __init__(self, storage: Storage, room_id: str, seed: int = 3) -> None:
        self.game = Game(RULESETS["escoba"], 2, seed=seed)
        self.match_id = storage.create_room(room_id, self.game, [None, None], seed=seed).id
        self.known = len(self.game.record()["hands"])
        self.number = 0

    def play(self) -> tuple[int, int, int, Play, Game, int]:
        """Play the next move: the arguments of ``MoveWrite.of`` for it."""
        hand = self.game.hand_number
        play = self.game.play(self.game.legal_moves()[0])
        stored = (self.match_id, self.number, hand, play, self.game, self.known)
        self.number += 1
        self.known = len(self.game.record()["hands"])
        return stored

    def write(self, fence: int | None) -> MoveWrite:
        """Play the next move and give its write under ``fence``."""
        return MoveWrite.of(*self.play(), fence=fence)


def moves_stored(storage: Storage, match_id: int) -> list[str]:
    with storage.engine.connect() as connection:
        return list(
            connection.scalars(
                select(MoveRow.move).where(MoveRow.match_id == match_id).order_by(MoveRow.number)
            )
        )


# -- leases ------------------------------------------------------------------------------------


def test_one_owner_holds_a_room_at_a_time(redis_store: TestRedis) -> None:
    async def test() -> None:
        async with leases(redis_store, ("ana", LONG), ("bo", LONG)) as (ana, bo):
            assert await ana.holder(ROOM) is None
            token = await ana.acquire(ROOM)
            assert token == 1
            assert await bo.acquire(ROOM) is None
            assert await ana.acquire(ROOM) is None  # a holder renews, it does not acquire
            assert await bo.holder(ROOM) == Lease("ana", 1)
            # Another owner with the very token can neither renew nor give the lease up.
            assert not await bo.renew(ROOM, token)
            assert not await bo.release(ROOM, token)
            assert await ana.renew(ROOM, token)
            assert await ana.holder(ROOM) == Lease("ana", 1)
            # Rooms are leased one by one.
            assert await bo.acquire("room2") == 1
            # Given up, the room is free at once, and the next token is greater.
            assert await ana.release(ROOM, token)
            assert await ana.holder(ROOM) is None
            assert await bo.acquire(ROOM) == 2
            assert not await ana.renew(ROOM, token)
            assert await ana.holder(ROOM) == Lease("bo", 2)

    run(test)


def test_renewing_extends_the_lease(redis_store: TestRedis) -> None:
    async def test() -> None:
        async with leases(redis_store, ("ana", LONG)) as (ana,):
            token = await ana.acquire(ROOM)
            assert token is not None
            key = f"{redis_store.prefix}room:{{{ROOM}}}:lease"
            await ana.redis.pexpire(key, 1000)  # as if most of the lease had gone by
            assert await ana.renew(ROOM, token)
            assert await ana.redis.pttl(key) > 1000
            assert not await ana.renew(ROOM, token + 1)  # a token it was not given

    run(test)


@pytest.mark.slow
def test_many_calls_at_once_share_one_client(redis_store: TestRedis) -> None:
    """A loaded process has hundreds of calls to Redis in flight at once (every move is
    published); redis-py's pool of 100 connections had refused the rest as "Too many
    connections", which the rooms took for a Redis gone."""

    async def test() -> None:
        async with leases(redis_store, ("ana", LONG)) as (ana,):
            tokens = await asyncio.gather(*(ana.acquire(f"room{n}") for n in range(500)))
            assert all(token is not None for token in tokens)

    run(test)


def test_an_expired_lease_goes_to_another_owner_with_a_greater_token(
    redis_store: TestRedis,
) -> None:
    async def test() -> None:
        async with leases(redis_store, ("ana", SHORT), ("bo", LONG)) as (ana, bo):
            old = await ana.acquire(ROOM)
            assert old == 1  # (that bo cannot take it meanwhile is the test above: a short
            # lease may run out, on a loaded machine, before bo would ask)
            await expired(bo, ROOM)  # ana stopped renewing (paused, or dead)
            new = await bo.acquire(ROOM)
            assert new is not None
            assert new > old
            # ana wakes up: its old token is worth nothing, even to take the room again.
            assert not await ana.renew(ROOM, old)
            assert not await ana.release(ROOM, old)
            assert await ana.acquire(ROOM) is None
            assert await ana.holder(ROOM) == Lease("bo", new)

    run(test)


def test_a_token_goes_above_the_fence_given(redis_store: TestRedis) -> None:
    """A Redis that lost its counters (restarted without persistence) still hands out a token
    above the room's stored fence."""

    async def test() -> None:
        async with leases(redis_store, ("ana", LONG), ("bo", LONG)) as (ana, bo):
            assert await ana.acquire(ROOM, above=7) == 8
            assert await ana.release(ROOM, 8)
            assert await bo.acquire(ROOM, above=3) == 9  # never below one handed out
            with pytest.raises(ValueError, match="above"):
                await bo.acquire("room2", above=-1)

    run(test)


def free_port() -> int:
    """A loopback port nothing listens on (bound, then let go)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def test_bad_owners_and_lease_times_are_refused() -> None:
    async def test() -> None:
        client = connect(f"redis://127.0.0.1:{free_port()}/0")  # refused before any call
        try:
            with pytest.raises(ValueError, match="owner"):
                Leases(client, "", LONG)
            with pytest.raises(ValueError, match="owner"):
                Leases(client, "two words", LONG)
            with pytest.raises(ValueError, match="1 ms"):
                Leases(client, "ana", 0)
            with pytest.raises(ValueError, match="room"):
                await Leases(client, "ana", LONG).acquire("")
        finally:
            await client.aclose()

    run(test)


def test_a_redis_that_is_not_there_is_a_clear_error() -> None:
    async def test() -> None:
        port = free_port()
        client = connect(f"redis://127.0.0.1:{port}/0", timeout=1)
        lease = Leases(client, "ana", LONG)
        try:
            calls = [
                lease.acquire(ROOM),
                lease.renew(ROOM, 1),
                lease.release(ROOM, 1),
                lease.holder(ROOM),
            ]
            for call in calls:
                with pytest.raises(
                    BusUnavailable, match=f"Redis at 127.0.0.1:{port} cannot be reached"
                ):
                    await call
        finally:
            await client.aclose()

    run(test)


# -- fences in the database ----------------------------------------------------------------------


def test_a_claim_raises_the_fence_and_refuses_an_older_token(storage: Storage) -> None:
    Match(storage, ROOM)
    assert storage.room_fence(ROOM) == 0
    assert storage.room_fence("nowhere") is None
    storage.claim_room(ROOM, 2)
    assert storage.room_fence(ROOM) == 2
    for stale in (1, 2):
        with pytest.raises(StaleFence, match=f"room {ROOM} is claimed with fence 2: token {stale}"):
            storage.claim_room(ROOM, stale)
    storage.claim_room(ROOM, 5)  # tokens may skip (the epoch went up without a claim)
    assert storage.room_fence(ROOM) == 5
    with pytest.raises(LookupError, match="no room nowhere"):
        storage.claim_room("nowhere", 9)
    for bad in (0, -1, 2**63):
        with pytest.raises(ValueError, match="fencing token"):
            storage.claim_room(ROOM, bad)
    assert storage.room_fence(ROOM) == 5


def test_moves_under_a_stale_fence_are_refused_and_the_new_owners_stored(
    redis_store: TestRedis, storage: Storage
) -> None:
    match = Match(storage, ROOM)
    storage.write_moves([match.write(None)])  # one process, as today: no check

    async def take_over() -> tuple[int, int]:
        async with leases(redis_store, ("ana", SHORT), ("bo", LONG)) as (ana, bo):
            old = await ana.acquire(ROOM, above=storage.room_fence(ROOM) or 0)
            assert old is not None
            storage.claim_room(ROOM, old)
            storage.write_moves([match.write(old)])
            await expired(bo, ROOM)  # ana is paused: its lease runs out
            new = await bo.acquire(ROOM, above=storage.room_fence(ROOM) or 0)
            assert new is not None
            storage.claim_room(ROOM, new)
            return old, new

    old, new = run(take_over)
    assert len(moves_stored(storage, match.match_id)) == 2
    # ana wakes up and stores its next move under its old token: refused, nothing stored.
    late = match.play()
    with pytest.raises(StaleFence, match=f"room {ROOM}: its fence is {new}, not {old}") as refused:
        storage.write_moves([MoveWrite.of(*late, fence=old)])
    assert refused.value.matches == {match.match_id}
    assert len(moves_stored(storage, match.match_id)) == 2
    # The new owner's moves are stored (the same next move, as it would play it).
    storage.write_moves([MoveWrite.of(*late, fence=new)])
    storage.write_moves([match.write(new), match.write(new)])
    assert len(moves_stored(storage, match.match_id)) == 5
    stored = storage.room(ROOM)
    assert stored is not None
    assert stored.game.record() == match.game.record()
    # Without a token nothing is checked, as when one process serves the site.
    storage.write_moves([match.write(None)])
    assert len(moves_stored(storage, match.match_id)) == 6


def test_a_stale_move_refuses_its_whole_batch(storage: Storage) -> None:
    """write_moves is one transaction: all of its moves or none."""
    taken, kept = Match(storage, ROOM), Match(storage, "room2")
    storage.claim_room(ROOM, 2)
    storage.claim_room("room2", 1)
    with pytest.raises(StaleFence, match=f"match {taken.match_id} of room {ROOM}") as refused:
        storage.write_moves([kept.write(1), taken.write(1), kept.write(None)])
    assert refused.value.matches == {taken.match_id}
    assert moves_stored(storage, kept.match_id) == moves_stored(storage, taken.match_id) == []
    with pytest.raises(StaleFence, match="match 999999: there is no such match"):
        storage.write_moves([MoveWrite(999_999, 0, 0, 0, "1o", fence=1)])
    with pytest.raises(ValueError, match="fencing token"):
        storage.write_moves([MoveWrite(kept.match_id, 0, 0, 0, "1o", fence=0)])


def test_the_writer_refuses_the_stale_rooms_moves_only(storage: Storage) -> None:
    """The writer shares one transaction among rooms: a room another process took fails its
    own moves, and the other rooms' moves of the batch are stored all the same."""
    taken, kept = Match(storage, ROOM), Match(storage, "room2")
    storage.claim_room(ROOM, 2)
    storage.claim_room("room2", 1)

    async def write() -> tuple[BaseException | None, ...]:
        writer = MoveWriter(storage)
        try:
            return await asyncio.gather(
                writer.write_all([kept.write(1), kept.write(1)]),
                writer.write(taken.write(1)),
                writer.write(kept.write(None)),
                return_exceptions=True,
            )
        finally:
            await writer.close()

    done = run(write)
    assert done[0] is None
    assert isinstance(done[1], StaleFence)
    assert done[2] is None
    assert len(moves_stored(storage, kept.match_id)) == 3
    assert moves_stored(storage, taken.match_id) == []
