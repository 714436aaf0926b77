"""Room ownership leases in Redis, with fencing tokens.

When several server processes share one site, each room must have its moves applied by
exactly one of them at a time: its owner. A process owns a room by holding its lease, a Redis
key that expires unless renewed, so that the rooms of a process that dies are free again
after a few seconds and another process takes them over.

An expiring lease alone is not enough: a process that is paused (a long garbage collection,
a stopped virtual machine, a slow disk) may wake up after its lease ran out and another
process took the room, still believing it is the owner. So every acquisition hands out a
*fencing token*: a number that grows by one each time the room changes hands and never goes
back. The new owner raises the room's fence in the database to its token
(:meth:`~escoba.server.storage.repository.Storage.claim_room`), and every move it stores
carries the token (``MoveWrite.fence``); the database refuses a write whose token is not the
room's fence. The
process that woke up holds an old token: Redis no longer renews its lease, and the database
stores none of its moves.

Redis is reached through ``redis.asyncio``; a Redis that cannot be reached or fails raises
:class:`BusUnavailable`, one error of ours whatever the client raised. Nothing here logs it:
a process says an outage once, wherever it is found (``cluster.Reach``).
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any, Concatenate, Final, ParamSpec, TypeVar

from redis import exceptions as redis_errors
from redis.asyncio import Redis

from ..config import DEFAULT_PREFIX
from ..errors import BusUnavailable

__all__ = [
    "DEFAULT_PREFIX",
    "Lease",
    "Leases",
    "address",
    "connect",
    "unavailable",
]

MAX_CONNECTIONS: Final = 10_000
"""Connections to Redis one client may open, as many as Redis itself takes by default
(``maxclients``): they are opened only while that many calls are in flight."""

_P = ParamSpec("_P")
_R = TypeVar("_R")


def connect(url: str, *, timeout: float = 2.0) -> Redis:
    """A client for the Redis at ``url`` (``redis://host:port/db`` or
    ``unix:///path/to/socket?db=0``) that gives up after ``timeout`` seconds: a lease is
    short, so an answer that comes later than that is worth nothing."""
    client: Redis = Redis.from_url(
        url,
        socket_connect_timeout=timeout,
        socket_timeout=timeout,
        decode_responses=True,
        # A loaded process has hundreds of calls in flight (every move is published):
        # redis-py's default pool of 100 refuses the rest at once as "Too many connections".
        max_connections=MAX_CONNECTIONS,
    )
    return client


def address(redis: Redis) -> str:
    """Where a client connects to, as a person would name it (no password)."""
    kwargs = redis.connection_pool.connection_kwargs
    if "path" in kwargs:
        return f"unix://{kwargs['path']}"
    return f"{kwargs.get('host', 'localhost')}:{kwargs.get('port', 6379)}"


def unavailable(redis: Redis, error: Exception) -> BusUnavailable:
    """The client's failure (or the system's, on its socket) as ours, saying which Redis and
    whether it could not be reached or answered with an error."""
    if isinstance(error, redis_errors.ConnectionError | redis_errors.TimeoutError | OSError):
        return BusUnavailable(f"Redis at {address(redis)} cannot be reached: {error}")
    return BusUnavailable(f"Redis at {address(redis)} failed: {error}")


def _reaching(
    method: Callable[Concatenate[Leases, _P], Awaitable[_R]],
) -> Callable[Concatenate[Leases, _P], Awaitable[_R]]:
    """Turn the client's failures into :class:`BusUnavailable`."""

    @functools.wraps(method)
    async def reaching(leases: Leases, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return await method(leases, *args, **kwargs)
        except (redis_errors.RedisError, OSError) as error:
            raise unavailable(leases.redis, error) from error

    return reaching


# The lease's value is "TOKEN OWNER": renewing and releasing compare both, so that an owner
# whose lease expired and was taken (even by itself again, under a new token) cannot touch
# the new one. Each script runs atomically in Redis: nothing happens between its steps.

_ACQUIRE: Final = """
if redis.call('EXISTS', KEYS[1]) == 1 then
    return false
end
local epoch = tonumber(redis.call('GET', KEYS[2]) or '0')
local above = tonumber(ARGV[3])
if epoch < above then
    epoch = above
end
epoch = epoch + 1
redis.call('SET', KEYS[2], epoch)
redis.call('SET', KEYS[1], epoch .. ' ' .. ARGV[1], 'PX', ARGV[2])
return epoch
"""
"""KEYS: the lease, the epoch; ARGV: owner, ttl in ms, the least token to go above."""

_RENEW: Final = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
    return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""
"""KEYS: the lease; ARGV: its value ("TOKEN OWNER"), ttl in ms."""

_RELEASE: Final = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
    return redis.call('DEL', KEYS[1])
end
return 0
"""
"""KEYS: the lease; ARGV: its value ("TOKEN OWNER")."""


@dataclass(frozen=True, slots=True)
class Lease:
    """Who holds a room: the owner's id and its fencing token."""

    owner: str
    token: int


def _text(value: Any) -> str:
    """A reply as text, whether the client decodes replies or not."""
    return value.decode() if isinstance(value, bytes) else str(value)


class Leases:
    """The leases of one owner (one server process) on rooms, in one Redis.

    ``owner`` must be unique to this process and this start of it (a host name, a process id
    and a random part): two processes with one id would hold each other's leases. A lease
    lasts ``ttl_ms`` milliseconds unless renewed; the owner renews well before that (a third
    of it, say) and stops applying a room's moves as soon as a renewal fails.

    Keys: ``{prefix}room:{ROOM}:lease`` (the holder, expiring) and ``{prefix}room:{ROOM}:epoch``
    (the last token handed out, never expiring). The braces are Redis Cluster's hash tag: a
    room's two keys are on one node, as a script needs.
    """

    def __init__(
        self, redis: Redis, owner: str, ttl_ms: int, *, prefix: str = DEFAULT_PREFIX
    ) -> None:
        if not owner or " " in owner:
            raise ValueError(f"an owner id must be non-empty and without spaces, not {owner!r}")
        if ttl_ms < 1:
            raise ValueError(f"a lease lasts at least 1 ms, not {ttl_ms}")
        self.redis = redis
        self.owner = owner
        self.ttl_ms = ttl_ms
        self.prefix = prefix
        self._acquire = redis.register_script(_ACQUIRE)
        self._renew = redis.register_script(_RENEW)
        self._release = redis.register_script(_RELEASE)

    def _keys(self, room: str) -> tuple[str, str]:
        """The room's lease and epoch keys."""
        if not room:
            raise ValueError("a room id must not be empty")
        base = f"{self.prefix}room:{{{room}}}"
        return f"{base}:lease", f"{base}:epoch"

    def _value(self, token: int) -> str:
        return f"{token} {self.owner}"

    @_reaching
    async def acquire(self, room: str, *, above: int = 0) -> int | None:
        """Take the room if nobody holds it: its new fencing token, greater than every token
        handed out for it before and than ``above``; None if it is held (by anyone, this owner
        too: a holder renews).

        Pass the room's stored fence as ``above`` (see ``Storage.room_fence``): a Redis that
        lost its data (restarted without persistence) then still hands out a token that the
        database takes.
        """
        if above < 0:
            raise ValueError(f"above must not be negative, not {above}")
        token = await self._acquire(keys=self._keys(room), args=(self.owner, self.ttl_ms, above))
        return None if token is None else int(token)

    @_reaching
    async def renew(self, room: str, token: int) -> bool:
        """Extend the lease by the full ttl, only if this owner still holds the room with
        ``token``; False otherwise (it expired, and perhaps another took it): the room must
        then be given up at once."""
        lease, _ = self._keys(room)
        renewed = await self._renew(keys=(lease,), args=(self._value(token), self.ttl_ms))
        return bool(int(renewed))

    @_reaching
    async def release(self, room: str, token: int) -> bool:
        """Give the room up (another may take it at once), only if this owner still holds it
        with ``token``; whether it did. A lease already lost is left to its new holder."""
        lease, _ = self._keys(room)
        released = await self._release(keys=(lease,), args=(self._value(token),))
        return bool(int(released))

    @_reaching
    async def renew_all(self, held: Mapping[str, int]) -> set[str]:
        """Renew many rooms' leases (room: token) in one round trip; the rooms whose lease
        was lost (each must be given up at once)."""
        if not held:
            return set()
        async with self.redis.pipeline(transaction=False) as pipe:
            for room, token in held.items():
                lease, _ = self._keys(room)
                await self._renew(
                    keys=(lease,), args=(self._value(token), self.ttl_ms), client=pipe
                )
            renewed = await pipe.execute()
        return {room for room, done in zip(held, renewed, strict=True) if not int(done)}

    @_reaching
    async def holders(self, rooms: Collection[str]) -> dict[str, Lease | None]:
        """Who holds each room now, in one round trip."""
        rooms = list(rooms)
        if not rooms:
            return {}
        values = await self.redis.mget([self._keys(room)[0] for room in rooms])
        return {room: _lease(value) for room, value in zip(rooms, values, strict=True)}

    @_reaching
    async def holder(self, room: str) -> Lease | None:
        """Who holds the room now, or None."""
        lease, _ = self._keys(room)
        return _lease(await self.redis.get(lease))


def _lease(value: Any) -> Lease | None:
    """A lease's stored value ("TOKEN OWNER") read, or None for none."""
    if value is None:
        return None
    token, owner = _text(value).split(" ", 1)
    return Lease(owner, int(token))
