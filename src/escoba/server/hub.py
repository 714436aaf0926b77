"""The hub: every room the server holds, the services rooms share (storage and its threads,
the move writer, the computers' workers), and the limits on what clients may create.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import re
import time
from collections import deque
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import Any, Final, ParamSpec, TypeVar

from pydantic import ValidationError

from ..errors import EscobaError
from ..game import Game
from . import rooms
from .cluster import UPKEEP_SECONDS, Cluster, NoAnswer, Payload
from .computers import Thinkers
from .lease import StoreUnavailable
from .limits import DEFAULT_LIMITS, Limits
from .nicknames import NicknameError, clean_nickname
from .protocol import (
    CreateRoom,
    JoinRoom,
    PlayMessage,
    RematchMessage,
    SeatTicket,
    TakeBackMessage,
    parse_client_message,
)
from .rooms import RESTARTING, Refusal, Room, SeatState, rules_of, session_of
from .storage import SeatTaken, StaleFence, Storage, StorageUnavailable, hash_token
from .writer import MoveWriter

__all__ = ["ROOM_ID", "Hub"]

log = logging.getLogger("escoba.server")

T = TypeVar("T")
P = ParamSpec("P")

ROOM_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,32}")
"""What a room id may look like (ours are 22 URL-safe characters); anything else is unknown
without asking storage."""
STORAGE_THREADS: Final = 4
"""Threads that talk to the database (the move writer has one more of its own)."""
EXPIRE_EVERY: Final = 600.0
"""Seconds between sweeps of abandoned matches out of storage."""


def _nickname(nickname: str) -> str:
    try:
        return clean_nickname(nickname)
    except NicknameError as error:
        raise Refusal("bad_nickname", str(error)) from None


class Hub:
    """Every room the server knows, loaded from storage on demand."""

    def __init__(
        self,
        storage: Storage,
        *,
        pace: float = 0.7,
        limits: Limits = DEFAULT_LIMITS,
        cluster: Cluster | None = None,
    ) -> None:
        self.storage = storage
        self.cluster = cluster
        """The site of several processes this one is part of (None: it serves alone)."""
        self._early: dict[str, list[Payload]] = {}
        """Rooms being loaded: the owner's events heard meanwhile."""
        self._presence: dict[str, asyncio.Task[None]] = {}
        """Rooms whose presence is being shared, and the task sharing it."""
        self._redis_failing = False
        self.pace = pace
        self.limits = limits
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Future[Room]] = {}
        self._created: dict[str, deque[tuple[float, int]]] = {}
        """Per address: when it created each recent room, and its computer seats."""
        self._io = ThreadPoolExecutor(STORAGE_THREADS, thread_name_prefix="escoba-storage")
        self.writer = MoveWriter(storage)
        self.thinkers = Thinkers(limits.computer_workers, limits.computer_backlog)
        self._tasks: set[asyncio.Task[None]] = set()
        self.handlers = 0
        """WebSocket handlers running now (each ends with its socket)."""
        self._start(self._sweep())

    def _start(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def stored(self, call: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run a storage call on storage's own threads; a database that cannot answer now (a
        full disk, a lock, a server gone) is refused as ``storage_failed``."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._io, functools.partial(call, *args, **kwargs))
        except StorageUnavailable as error:
            log.warning("storage: %s", error)
            raise Refusal(
                "storage_failed", "the server cannot store this now; try again later", 503
            ) from None

    # -- keeping memory and storage lean

    async def _sweep(self) -> None:
        """Let go of rooms nobody has used for a while (their matches are in storage and load
        again when someone comes back) and delete abandoned matches from storage."""
        expired_at = 0.0
        while True:
            await asyncio.sleep(min(60.0, self.limits.room_idle))
            self.evict_idle()
            self._forget_old_creations()
            if time.monotonic() - expired_at >= EXPIRE_EVERY:
                expired_at = time.monotonic()
                with contextlib.suppress(Refusal):
                    await self.expire()

    def evict_idle(self, idle_seconds: float | None = None) -> int:
        """Drop the idle rooms from memory; how many."""
        wait = self.limits.room_idle if idle_seconds is None else idle_seconds
        now = time.monotonic()
        idle = [
            room_id
            for room_id, room in self.rooms.items()
            if room.idle() and now - room.last_active >= wait
        ]
        for room_id in idle:
            room = self.rooms.pop(room_id)
            if self.cluster is not None and room.fence is not None and not room.replica:
                self._start(self.cluster.release(room_id, room.fence))
        return len(idle)

    async def expire(self) -> int:
        """Delete from storage the matches nobody has played for ``room_expiry``; how many."""
        before = datetime.now(UTC) - timedelta(seconds=self.limits.room_expiry)
        deleted = await self.stored(self.storage.expire, before)
        if deleted:
            log.info("deleted %d abandoned matches", deleted)
        return deleted

    async def resume(self) -> int:
        """Find the live unfinished matches (one query) and let their computer players go on,
        loading the rooms in the background; how many were found."""
        since = datetime.now(UTC) - timedelta(seconds=self.limits.room_expiry)
        room_ids = await self.stored(self.storage.live_rooms, since)
        self._start(self._resume(room_ids))
        return len(room_ids)

    async def _resume(self, room_ids: list[str]) -> None:
        for room_id in room_ids:
            if self.cluster is not None:
                try:
                    if room_id in self.rooms or await self.cluster.holder(room_id) is not None:
                        continue  # another process plays it on
                except StoreUnavailable as error:
                    log.error("rooms cannot be resumed: %s", error)
                    return
            try:
                room = await self.room(room_id)
            except Refusal as refusal:
                log.warning("room %s could not be resumed: %s", room_id, refusal.message)
                continue
            room.wake_computers()

    # -- finding and loading rooms

    async def room(self, room_id: str) -> Room:
        room = self.rooms.get(room_id)
        if room is not None:
            room.last_active = time.monotonic()
            return room
        if not ROOM_ID.fullmatch(room_id):
            raise Refusal("not_found", "no room has this link", 404)
        loading = self._loading.get(room_id)
        if loading is None:  # one load per room; other rooms load beside it
            loading = asyncio.get_running_loop().create_future()
            self._loading[room_id] = loading
            try:
                room = await self._load(room_id)
            except asyncio.CancelledError:
                loading.cancel()
                raise
            except Exception as error:
                loading.set_exception(error)
                loading.exception()  # retrieved: a load nobody else awaited is not an error
                raise
            else:
                loading.set_result(room)
                self.rooms[room_id] = room
                return room
            finally:
                del self._loading[room_id]
        return await asyncio.shield(loading)

    async def _load(self, room_id: str) -> Room:
        """The room as stored. In a site of several processes: owned by this one if nobody
        holds it (its lease taken and its fence raised before it is read, so the read holds
        every move of the owners before), else a replica following its owner's events, those
        heard while it was read included."""
        token: int | None = None
        if self.cluster is not None:
            self._early[room_id] = []
        try:
            if self.cluster is not None:
                token = await self._claim(room_id)
            stored = await self.stored(self.storage.room, room_id)
            if stored is None:
                raise Refusal("not_found", "no room has this link", 404)
            seats = [SeatState(row.level, row.nickname, row.token_hash) for row in stored.seats]
            room = Room(
                self,
                room_id,
                seats,
                session_of(stored.game, seats, stored.match.seed),
                stored.match.id,
                stored.match.number,
            )
            if self.cluster is not None:
                room.fence = token
                room.replica = token is None
                with contextlib.suppress(StoreUnavailable):
                    room.remote_online = await self.cluster.presence(room_id)
        except BaseException:
            if token is not None and self.cluster is not None:
                await self.cluster.release(room_id, token)
            raise
        finally:
            early = self._early.pop(room_id, [])
        if room.replica and not all(room.follow(event) for event in early):
            self._start(self._resync(room))
        return room

    # -- creating and joining

    def _check_capacity(self, address: str, computers: int) -> None:
        """Refuse a new room beyond the limits for its address or for the whole server."""
        limits = self.limits
        self._forget_old_creations()
        recent = self._created.get(address, ())
        if len(recent) >= limits.rooms_per_address:
            raise Refusal(
                "too_many_rooms",
                f"at most {limits.rooms_per_address} new rooms an hour from one address; "
                "play in one you have",
                429,
            )
        if sum(seats for _, seats in recent) + computers > limits.computer_seats_per_address:
            raise Refusal(
                "too_many_computers",
                f"at most {limits.computer_seats_per_address} computer seats an hour in the "
                "rooms of one address",
                429,
            )
        if len(self.rooms) >= limits.rooms_total:
            self.evict_idle(idle_seconds=0.0)
        playing = sum(
            room.computer_seats for room in self.rooms.values() if not room.game.is_over()
        )
        if (
            len(self.rooms) >= limits.rooms_total
            or playing + computers > limits.computer_seats_total
        ):
            raise Refusal("server_busy", "the server is full just now; try again later", 503)

    def _forget_old_creations(self) -> None:
        oldest = time.monotonic() - self.limits.rooms_window
        for address in list(self._created):
            recent = self._created[address]
            while recent and recent[0][0] < oldest:
                recent.popleft()
            if not recent:
                del self._created[address]

    async def create(self, request: CreateRoom, address: str = "") -> SeatTicket:
        rules = rules_of(request.rules, dict(request.options))
        if len(request.seats) != request.players:
            raise Refusal(
                "bad_seats",
                f"give one seat entry per player: {request.players} players, "
                f"{len(request.seats)} seats",
            )
        if request.partnerships and request.players != 4:
            raise Refusal("bad_seats", "partnerships need 4 players")
        levels = [None if kind == "person" else kind for kind in request.seats]
        people = [seat for seat, level in enumerate(levels) if level is None]
        if not people:
            raise Refusal("bad_seats", "at least one seat must be a person's")
        seat = people[0] if request.seat is None else request.seat
        if seat not in people:
            raise Refusal("bad_seats", f"seat {seat} is not a person's seat")
        nickname = _nickname(request.nickname)
        computers = len(levels) - len(people)
        self._check_capacity(address, computers)
        seed = rooms.new_seed()
        try:
            game = Game(rules, request.players, request.partnerships, seed=seed)
        except EscobaError as error:
            raise Refusal("bad_rules", str(error)) from None
        room_id = rooms.new_room_id()
        token = rooms.new_token()
        match = await self.stored(self.storage.create_room, room_id, game, levels, seed=seed)
        await self.stored(self.storage.take_seat, room_id, seat, nickname, token)
        self._created.setdefault(address, deque()).append((time.monotonic(), computers))
        room = await self.room(room_id)
        if room.match_id != match.id:  # pragma: no cover - a new room has one match
            raise Refusal("storage_failed", "the new room could not be read back", 503)
        room.wake_computers()
        return SeatTicket(room=room_id, seat=seat, token=token, invite=f"/room/{room_id}")

    async def join(self, room_id: str, request: JoinRoom) -> SeatTicket:
        room = await self.room(room_id)
        nickname = _nickname(request.nickname)
        async with room.lock:
            free = [
                seat
                for seat, state in enumerate(room.seats)
                if state.level is None and state.token_hash is None
            ]
            if request.seat is not None:
                if request.seat >= len(room.seats) or room.seats[request.seat].level is not None:
                    raise Refusal("bad_seat", f"seat {request.seat} is not a person's seat")
                if request.seat not in free:
                    raise Refusal("seat_taken", f"seat {request.seat} is taken", 409)
                seat = request.seat
            elif free:
                seat = free[0]
            else:
                raise Refusal("room_full", "every person's seat in this room is taken", 409)
            token = rooms.new_token()
            try:
                await self.stored(self.storage.take_seat, room_id, seat, nickname, token)
            except SeatTaken:
                raise Refusal("seat_taken", f"seat {seat} is taken", 409) from None
            room.seats[seat].nickname = nickname
            room.seats[seat].token_hash = hash_token(token)
            room.broadcast()
            await self.tell(room, {"kind": "seats"})
        return SeatTicket(room=room_id, seat=seat, token=token, invite=f"/room/{room_id}")

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for room in list(self.rooms.values()):
            await room.close()
        if self.cluster is not None:
            await self._leave_site()
        await self.thinkers.close()
        await self.writer.close()
        self._io.shutdown(wait=False, cancel_futures=True)

    # -- a site of several processes (``escoba serve --redis``)

    async def join_site(self) -> None:
        """Start hearing the other processes and keeping this one's leases."""
        assert self.cluster is not None
        await self.cluster.start(self._heard, self._answer, self._resubscribed)
        self._start(self._upkeep())

    async def _leave_site(self) -> None:
        """Give up this process's rooms at once (the others take them over without waiting
        for the leases to expire) and say its connections are gone."""
        assert self.cluster is not None
        for task in list(self._presence.values()):
            task.cancel()
        with contextlib.suppress(StoreUnavailable):
            for room in list(self.rooms.values()):
                if room.online():
                    await self.cluster.set_presence(room.id, ())
                if room.fence is not None and not room.replica:
                    await self.cluster.release(room.id, room.fence)
        await self.cluster.close()

    async def _site(self, call: Coroutine[Any, Any, T]) -> T:
        """Await a call to Redis; one that cannot be reached is refused as ``restarting``."""
        try:
            return await call
        except StoreUnavailable as error:
            log.error("%s", error)
            raise Refusal(*RESTARTING) from None

    async def _claim(self, room_id: str) -> int | None:
        """Take the room's lease if nobody holds it and raise its fence to the lease's token:
        the token (this process owns the room), or None (another does)."""
        assert self.cluster is not None
        fence = await self.stored(self.storage.room_fence, room_id)
        if fence is None:
            raise Refusal("not_found", "no room has this link", 404)
        token = await self._site(self.cluster.take(room_id, fence))
        if token is None:
            return None
        try:
            await self.stored(self.storage.claim_room, room_id, token)
        except (StaleFence, LookupError):
            await self.cluster.release(room_id, token)
            return None
        return token

    async def tell(self, room: Room, event: Payload) -> None:
        """Tell the other processes of a room event (nothing when this one serves alone). A
        Redis out of reach is said in the log; the replicas find what they missed by the
        moves' numbers, or read every room again once Redis is back."""
        if self.cluster is None:
            return
        try:
            await self.cluster.publish(room.id, event)
        except StoreUnavailable as error:
            log.error("room %s: its event could not be told: %s", room.id, error)

    def lost(self, room: Room) -> None:
        """The room is owned by another process now: follow it as a replica."""
        if room.replica:
            return
        log.warning("room %s: owned by another process now; following it", room.id)
        room.fence = None
        room.replica = True
        self._start(self._resync(room))

    async def read_seats(self, room: Room) -> None:
        """The room's seats as stored (someone joined through another process)."""
        room.take_seats(await self.stored(self.storage.seats, room.id))

    def share_presence(self, room: Room) -> None:
        """Tell the other processes which seats this one has connections for, the latest
        only, one change at a time per room."""
        if self.cluster is None:
            return
        room.presence_changed = True
        if room.id not in self._presence:
            task = asyncio.get_running_loop().create_task(self._share_presence(room))
            self._presence[room.id] = task
            task.add_done_callback(lambda _: self._presence.pop(room.id, None))

    async def _share_presence(self, room: Room) -> None:
        assert self.cluster is not None
        while room.presence_changed:
            room.presence_changed = False
            try:
                await self.cluster.set_presence(room.id, room.online())
            except StoreUnavailable as error:
                log.error("room %s: who is connected cannot be told: %s", room.id, error)
                return

    async def forward(
        self, room: Room, seat: int | None, message: PlayMessage | TakeBackMessage | RematchMessage
    ) -> None:
        """Have the room's owner act on a connection's intention; its refusal is raised here.
        With no owner (it died and its lease ran out), this process takes the room over and
        acts itself."""
        assert self.cluster is not None
        holder = await self._site(self.cluster.holder(room.id))
        if holder is None or holder.owner == self.cluster.id:
            if await self.take_over(room):
                await room.act(seat, message)
                return
            raise Refusal(*RESTARTING)
        request = {"room": room.id, "seat": seat, "message": message.model_dump()}
        try:
            reply = await self.cluster.ask(holder.owner, request)
        except (NoAnswer, StoreUnavailable) as error:
            log.warning("room %s: its owner cannot act now (%s)", room.id, error)
            raise Refusal(*RESTARTING) from None
        refused = reply.get("error")
        if isinstance(refused, dict):
            raise Refusal(
                str(refused.get("code")),
                str(refused.get("message")),
                int(refused.get("status", 400)),
            )

    async def _answer(self, request: Payload) -> Payload:
        """Act on an intention another process's connection sent to this room's owner."""
        room = self.rooms.get(str(request.get("room")))
        seat = request.get("seat")
        try:
            if room is None or room.replica:
                raise Refusal(*RESTARTING)
            if seat is not None and not (isinstance(seat, int) and 0 <= seat < len(room.seats)):
                raise Refusal("bad_seat", f"no seat {seat!r} in this room")
            message = parse_client_message(json.dumps(request.get("message")))
            if not isinstance(message, PlayMessage | TakeBackMessage | RematchMessage):
                raise Refusal("bad_message", "only plays, take backs and rematches are sent on")
            room.last_active = time.monotonic()
            await room.act(seat, message)
        except Refusal as refusal:
            return {"error": {**refusal.to_message().model_dump(), "status": refusal.status}}
        except ValidationError as error:
            return {"error": {"code": "bad_message", "message": str(error), "status": 400}}
        return {"error": None}

    def _heard(self, room_id: str, event: Payload) -> None:
        """An event of a room from another process."""
        room = self.rooms.get(room_id)
        if room is None:
            early = self._early.get(room_id)
            if early is not None:
                early.append(event)
            return
        kind = event.get("kind")
        if kind == "presence":
            self._start(self._read_presence(room))
        elif kind == "seats":
            self._start(self._show_seats(room))
        elif not room.replica:
            return  # a move of this room by another owner: its lease says so at renewal
        elif room.held_back is not None:
            room.held_back.append(event)
        elif kind == "match" or not room.follow(event):
            self._start(self._resync(room))

    async def _read_presence(self, room: Room) -> None:
        assert self.cluster is not None
        try:
            room.remote_online = await self.cluster.presence(room.id)
        except StoreUnavailable as error:
            log.error("room %s: who is connected cannot be read: %s", room.id, error)
            return
        async with room.lock:
            room.broadcast()

    async def _show_seats(self, room: Room) -> None:
        with contextlib.suppress(Refusal):
            async with room.lock:
                await self.read_seats(room)
                room.broadcast()

    def _resubscribed(self) -> None:
        """Events may have been missed while Redis was out of reach: read every replica
        again, and everybody's presence."""
        for room in list(self.rooms.values()):
            if room.replica:
                self._start(self._resync(room))
            self.share_presence(room)
            self._start(self._read_presence(room))

    async def _resync(self, room: Room) -> None:
        """Read a replica's room again, then follow the events heard meanwhile."""
        if room.held_back is not None:
            return  # being read already: what is heard meanwhile is followed after
        room.held_back = []
        followed = True
        try:
            async with room.lock:
                stored = None
                with contextlib.suppress(Refusal):
                    stored = await self.stored(self.storage.room, room.id)
                held, room.held_back = room.held_back, None
                if stored is not None and room.replica:
                    room.reload(stored)
                    followed = all(room.follow(event) for event in held)
                    room.broadcast()
        finally:
            room.held_back = None
        if not followed:
            self._start(self._resync(room))

    async def take_over(self, room: Room) -> bool:
        """Own a replica's room whose owner is gone: take its lease, read it as stored and
        play on (its computers too); whether this process owns it now."""
        assert self.cluster is not None
        async with room.lock:
            if not room.replica:
                return True
            try:
                token = await self._claim(room.id)
                if token is None:
                    return False
                stored = await self.stored(self.storage.room, room.id)
            except Refusal:
                return False
            if stored is None:  # pragma: no cover - a room being played is not deleted
                await self.cluster.release(room.id, token)
                return False
            room.reload(stored)
            room.fence = token
            room.replica = False
            log.info("room %s: taken over (fencing token %d)", room.id, token)
            room.broadcast()
        await self.tell(room, {"kind": "match"})  # the other replicas read it again
        room.wake_computers()
        return True

    async def _upkeep(self) -> None:
        """Every second: beat this process's heart, renew its rooms' leases (giving up those
        lost) and take over the rooms it follows whose owner is gone."""
        assert self.cluster is not None
        while True:
            await asyncio.sleep(UPKEEP_SECONDS)
            try:
                await self.cluster.beat()
                owned = {
                    room_id: room.fence
                    for room_id, room in self.rooms.items()
                    if room.fence is not None and not room.replica
                }
                for room_id in await self.cluster.renew(owned):
                    room = self.rooms.get(room_id)
                    if room is not None:
                        self.lost(room)
                followed = [room_id for room_id, room in self.rooms.items() if room.replica]
                for room_id, lease in (await self.cluster.holders(followed)).items():
                    room = self.rooms.get(room_id)
                    if lease is None and room is not None:
                        self._start(self._take_over_quietly(room))
            except StoreUnavailable as error:
                if not self._redis_failing:
                    log.error("%s; the rooms are kept as they are until it is back", error)
                self._redis_failing = True
            else:
                if self._redis_failing:
                    log.warning("Redis: reached again")
                self._redis_failing = False

    async def _take_over_quietly(self, room: Room) -> None:
        await self.take_over(room)  # not now: the next upkeep tries again
