"""One process's part in a site of several: the bus between processes, in Redis.

With ``escoba serve --redis URL`` several processes share one PostgreSQL database and one
Redis. Each room is owned by one process at a time (its lease, see ``leases``); the others
that have connections on the room keep a replica of its match. This module carries what
passes between them, and knows nothing of rooms:

- the room events: the owner publishes every stored move on ``{prefix}room:{ROOM}``; every
  process hears every room's channel (one pattern subscription) and keeps those of the rooms
  it holds;
- requests: a play that reaches a replica is sent to the owner's inbox
  (``{prefix}process:{ID}``) and answered in the asker's;
- presence: which seats each process has connections for, in a hash per room, counted only
  for processes whose heartbeat key (``{prefix}alive:{ID}``) has not expired.

Pub/sub delivers at most once: a replica that misses an event finds the gap in the moves'
numbers (or reloads every room after its subscription is restored) and reads the match from
the database, the record of every match.

Every call to Redis, the listener's included, tells the process's :class:`Reach` whether Redis
answered: an outage is logged once as an error when it is first found and once as a warning
when Redis answers again, however many calls fail in between.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import socket
import time
from collections.abc import Awaitable, Callable, Collection, Mapping
from typing import Any, Final, TypeVar, cast

from redis import exceptions as redis_errors
from redis.asyncio import Redis
from redis.asyncio.client import PubSub

from ..errors import BusUnavailable
from .leases import DEFAULT_PREFIX, Lease, Leases, address, connect, unavailable

__all__ = ["LEASE_MS", "Cluster", "NoAnswer", "Reach"]

log = logging.getLogger("escoba.server")

LEASE_MS: Final = 3000
"""How long a room's lease lasts unrenewed: the longest a dead process's rooms wait."""
UPKEEP_SECONDS: Final = 1.0
"""How often a process renews its leases, beats its heart and looks for rooms to take."""
ASK_SECONDS: Final = 5.0
"""How long a replica waits for the owner's answer to a request."""

_T = TypeVar("_T")

Payload = dict[str, Any]
RoomListener = Callable[[str, Payload], None]
Responder = Callable[[Payload], Awaitable[Payload]]


class NoAnswer(Exception):  # noqa: N818 (a state of the site, not a failure of ours)
    """The owner asked did not answer: nobody heard the request (``heard`` False: the
    process is gone), or no answer came in time (it may have acted on it)."""

    def __init__(self, message: str, *, heard: bool) -> None:
        super().__init__(message)
        self.heard = heard


class Reach:
    """Whether this process reaches its Redis, as its calls find: the first failure of an
    outage is logged as an error and the first answer after it as a warning. The calls log
    nothing themselves: a busy process makes hundreds a second, and each would say the same.

    A call is stamped with :meth:`turn` when it begins, and what it finds counts only if the
    state has not changed since: a call that began before Redis came back and fails after
    (a timeout) does not start a second outage, nor does an answer to a call begun before
    the outage end it.
    """

    def __init__(self, where: str) -> None:
        self.where = where
        """The Redis, as :func:`escoba.server.replication.leases.address` names it (no password)."""
        self._out_since: float | None = None
        self._turn = 0

    @property
    def reached(self) -> bool:
        """Whether Redis answered the last call that counted."""
        return self._out_since is None

    def turn(self) -> int:
        """The stamp of a call beginning now."""
        return self._turn

    def answered(self, since: int) -> None:
        """A call stamped ``since`` was answered."""
        if self._out_since is None or since != self._turn:
            return
        log.warning(
            "Redis at %s: reached again, after %.1f s out of reach",
            self.where,
            time.monotonic() - self._out_since,
        )
        self._out_since = None
        self._turn += 1

    def failed(self, doing: str, error: BusUnavailable, since: int) -> None:
        """A call stamped ``since``, ``doing`` something, failed with ``error``."""
        if self._out_since is not None or since != self._turn:
            log.debug("Redis: %s failed: %s", doing, error)  # said already, or stale
            return
        log.error(
            "%s (%s); the rooms stay with their owners, and what must pass between processes "
            "is refused as restarting until it answers again",
            error,
            doing,
        )
        self._out_since = time.monotonic()
        self._turn += 1


def process_id() -> str:
    """Unique to this process and this start of it, as lease owners must be."""
    host = socket.gethostname().replace(" ", "_") or "host"
    return f"{host}-{os.getpid()}-{secrets.token_hex(4)}"


class Cluster:
    """This process in the site: its leases, the room events, requests and presence."""

    def __init__(self, url: str, *, prefix: str = DEFAULT_PREFIX, lease_ms: int = LEASE_MS) -> None:
        self.url = url
        self.prefix = prefix
        self.id = process_id()
        self.redis = connect(url)
        self.reach = Reach(address(self.redis))
        self.leases = Leases(self.redis, self.id, lease_ms, prefix=prefix)
        self._answers: dict[str, asyncio.Future[Payload]] = {}
        self._listener: asyncio.Task[None] | None = None
        self._on_room: RoomListener | None = None
        self._responder: Responder | None = None
        self._on_resubscribed: Callable[[], None] | None = None
        self._subscribed = asyncio.Event()
        self._tasks: set[asyncio.Task[None]] = set()

    # -- names

    def room_channel(self, room: str) -> str:
        return f"{self.prefix}room:{room}"

    def inbox(self, process: str) -> str:
        return f"{self.prefix}process:{process}"

    def _alive_key(self, process: str) -> str:
        return f"{self.prefix}alive:{process}"

    def _presence_key(self, room: str) -> str:
        return f"{self.prefix}room:{{{room}}}:presence"

    # -- starting and stopping

    async def start(
        self,
        on_room: RoomListener,
        responder: Responder,
        on_resubscribed: Callable[[], None],
    ) -> None:
        """Check Redis answers, beat the heart once and listen; ``on_room(room, payload)``
        hears every room event, ``responder`` answers requests, ``on_resubscribed`` is told
        when the subscription was lost and is back (events may have been missed)."""
        self._on_room = on_room
        self._responder = responder
        self._on_resubscribed = on_resubscribed
        await self.beat()
        self._listener = asyncio.get_running_loop().create_task(self._listen())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._subscribed.wait(), ASK_SECONDS)

    async def close(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listener
        for task in list(self._tasks):
            task.cancel()
        with contextlib.suppress(BusUnavailable):
            await self._reaching("leaving", self.redis.delete(self._alive_key(self.id)))
        await self.redis.aclose()

    async def reaching(self, doing: str, call: Awaitable[_T]) -> _T:
        """Await a call to Redis made elsewhere (``doing`` says what for), as this cluster's
        own calls are: its failures as :class:`BusUnavailable`, told to :attr:`reach`."""
        return await self._reaching(doing, call)

    async def _reaching(self, doing: str, call: Awaitable[_T]) -> _T:
        """Await a call to Redis (``doing`` says what for), its failures as
        :class:`BusUnavailable`, and tell :attr:`reach` whether Redis answered."""
        since = self.reach.turn()
        try:
            result = await call
        except BusUnavailable as error:  # a lease's call, already ours
            self.reach.failed(doing, error, since)
            raise
        except (redis_errors.RedisError, OSError) as error:
            failure = unavailable(self.redis, error)
            self.reach.failed(doing, failure, since)
            raise failure from error
        self.reach.answered(since)
        return result

    async def beat(self) -> None:
        """Say this process is alive for a while (its presence counts meanwhile)."""
        seconds = max(1, round(3 * self.leases.ttl_ms / 1000))
        await self._reaching(
            "beating its heart", self.redis.set(self._alive_key(self.id), "1", ex=seconds)
        )

    # -- listening

    async def _listen(self) -> None:
        """Hear every room's events and this process's inbox, subscribing again (and telling
        ``on_resubscribed``) whenever the connection to Redis is lost."""
        lost = False
        while True:
            since = self.reach.turn()
            listening: Redis = Redis.from_url(
                self.url, decode_responses=True, socket_connect_timeout=2.0
            )
            pubsub: PubSub = listening.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.psubscribe(self.room_channel("*"))
                await pubsub.subscribe(self.inbox(self.id))
                self.reach.answered(since)
                since = self.reach.turn()  # the subscription's loss, later, is a call of its own
                self._subscribed.set()
                if lost and self._on_resubscribed is not None:
                    log.debug("Redis: listening again; the rooms are read again")
                    self._on_resubscribed()
                lost = False
                while True:
                    message = await pubsub.get_message(timeout=UPKEEP_SECONDS)
                    if message is not None:
                        self._heard(message)
            except (redis_errors.RedisError, OSError) as error:
                self.reach.failed("hearing the room events", unavailable(listening, error), since)
                lost = True
                self._subscribed.clear()
                await asyncio.sleep(0.5)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call,unused-ignore]  # typed from redis 8 on
                with contextlib.suppress(Exception):
                    await listening.aclose()

    def _heard(self, message: Mapping[str, Any]) -> None:
        try:
            payload = json.loads(message["data"])
        except (TypeError, ValueError):
            log.warning("Redis: a message that is not ours on %s", message.get("channel"))
            return
        if not isinstance(payload, dict):
            return
        channel = str(message.get("channel", ""))
        if message.get("type") == "pmessage":
            room = channel.removeprefix(self.room_channel(""))
            if self._on_room is not None and payload.get("from") != self.id:
                try:
                    self._on_room(room, payload)
                except Exception:  # one bad event must not stop the bus
                    log.exception("room %s: an event could not be followed", room)
        elif payload.get("kind") == "answer":
            waiting = self._answers.pop(str(payload.get("id")), None)
            if waiting is not None and not waiting.done():
                waiting.set_result(payload)
        elif payload.get("kind") == "ask":
            task = asyncio.get_running_loop().create_task(self._respond(payload))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _respond(self, request: Payload) -> None:
        assert self._responder is not None
        try:
            reply = await self._responder(request)
        except Exception:
            log.exception("a request from %s could not be answered", request.get("from"))
            reply = {"error": {"code": "restarting", "message": "", "status": 503}}
        answer = {**reply, "kind": "answer", "id": request.get("id")}
        with contextlib.suppress(BusUnavailable):
            await self._reaching(
                "answering a request",
                self.redis.publish(self.inbox(str(request.get("from"))), json.dumps(answer)),
            )

    # -- speaking

    async def publish(self, room: str, payload: Payload) -> None:
        """Tell every process of a room event."""
        text = json.dumps({**payload, "from": self.id})
        await self._reaching(
            "telling a room event", self.redis.publish(self.room_channel(room), text)
        )

    async def ask(self, owner: str, payload: Payload) -> Payload:
        """Send ``owner`` a request and wait for its answer; :class:`NoAnswer` if nobody
        heard it or no answer came in time."""
        request_id = secrets.token_hex(8)
        waiting: asyncio.Future[Payload] = asyncio.get_running_loop().create_future()
        self._answers[request_id] = waiting
        request = {**payload, "kind": "ask", "id": request_id, "from": self.id}
        try:
            heard = await self._reaching(
                "sending a request", self.redis.publish(self.inbox(owner), json.dumps(request))
            )
            if not heard:
                raise NoAnswer(f"process {owner} is not listening", heard=False)
            try:
                return await asyncio.wait_for(waiting, ASK_SECONDS)
            except TimeoutError:
                raise NoAnswer(
                    f"process {owner} did not answer in {ASK_SECONDS:g} s", heard=True
                ) from None
        finally:
            self._answers.pop(request_id, None)

    # -- leases

    async def take(self, room: str, above: int) -> int | None:
        """The room's lease if free: its fencing token, else None."""
        return await self._reaching("taking a lease", self.leases.acquire(room, above=above))

    async def holder(self, room: str) -> Lease | None:
        return await self._reaching("reading a lease", self.leases.holder(room))

    async def renew(self, held: Mapping[str, int]) -> set[str]:
        """Renew the leases of the rooms held (room: token) in one round trip; the rooms whose
        lease was lost."""
        return await self._reaching("renewing the leases", self.leases.renew_all(held))

    async def holders(self, rooms: Collection[str]) -> dict[str, Lease | None]:
        return await self._reaching("reading the leases", self.leases.holders(rooms))

    async def release(self, room: str, token: int) -> None:
        with contextlib.suppress(BusUnavailable):
            await self._reaching("giving a lease up", self.leases.release(room, token))

    # -- presence

    async def set_presence(self, room: str, seats: Collection[int]) -> None:
        """Say which seats this process has connections for in the room, and tell the
        others."""
        key = self._presence_key(room)
        if seats:
            await self._reaching(
                "telling who is connected",
                self.redis.hset(key, self.id, ",".join(str(seat) for seat in sorted(seats))),
            )
        else:
            await self._reaching("telling who is connected", self.redis.hdel(key, self.id))
        await self.publish(room, {"kind": "presence"})

    async def presence(self, room: str) -> set[int]:
        """The seats connected to the room on the other live processes."""
        fields = cast(  # the client decodes replies: text, not bytes
            "dict[str, str]",
            await self._reaching(
                "reading who is connected", self.redis.hgetall(self._presence_key(room))
            ),
        )
        others = {process: seats for process, seats in fields.items() if process != self.id}
        if not others:
            return set()
        alive = await self._reaching(
            "reading who is connected",
            self.redis.mget([self._alive_key(process) for process in others]),
        )
        seats: set[int] = set()
        for (_, listed), living in zip(others.items(), alive, strict=True):
            if living is not None:
                seats.update(int(seat) for seat in listed.split(",") if seat.isdigit())
        return seats
