"""This process's part in a site of several (``escoba serve --redis``): which rooms it owns
and which it follows, what it tells the others and hears from them.

A room is owned by the process that holds its lease (``leases``): only the owner applies its
moves, under the lease's fencing token. Another process with connections on the room keeps a
replica: it follows the moves the owner publishes (``bus``), sends each of its
connections its own seat's view, and asks the owner to act on their plays. When an owner's
lease runs out (the process died, or was paused too long), a process following the room
takes it over from the stored match.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass
from typing import Any, Final, ParamSpec, Protocol, TypeVar

from pydantic import ValidationError

from ..config import Clock, Timings
from ..errors import RESTARTING, BusUnavailable, Refusal, StaleFence
from ..lobby import OpenTables, QuickMatch
from ..protocol import (
    ClaimMessage,
    ErrorMessage,
    PairedMessage,
    PlayMessage,
    RematchMessage,
    ReplaceMessage,
    SaidMessage,
    TableListing,
    TakeBackMessage,
    parse_client_message,
)
from ..rooms.actor import Room
from ..rooms.ports import Intention
from ..storage.repository import Storage
from .bus import LEASE_MS, UPKEEP_SECONDS, Cluster, NoAnswer, Payload
from .queue import SiteQueue

__all__ = ["Ownership", "Rooms", "Site"]

log = logging.getLogger("escoba.server")

T = TypeVar("T")
P = ParamSpec("P")

QUICK_MATCH_CHANNEL: Final = "~quick-match"
"""The room channel the quick match's seats are handed over on (no room id has a ``~``)."""
FAILOVER_SECONDS: Final = LEASE_MS / 1000 + 2 * UPKEEP_SECONDS
"""How long a play sent through a replica waits for its room's owner to be replaced."""


@dataclass(slots=True)
class Ownership:
    """This process's part in one room of the site."""

    fence: int | None = None
    """The owner's fencing token (None: a replica)."""
    replica: bool = True
    """Another process owns the room: this one follows its changes."""
    online_elsewhere: frozenset[int] = frozenset()
    """Seats with a connection on another process."""
    presence_changed: bool = False
    """Its connections here changed since this process last told the others."""
    held_back: list[Mapping[str, Any]] | None = None
    """The owner's events heard while the room is read again (then followed)."""


class Rooms(Protocol):
    """The registry, as the site reaches it: its rooms, storage, and its background tasks."""

    rooms: dict[str, Room]
    storage: Storage
    clock: Clock
    timings: Timings

    def in_background(self, work: Coroutine[Any, Any, None]) -> None: ...

    async def stored(self, call: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T: ...


class Site:
    """The site as one process takes part in it; as a room sees it, its
    :class:`~escoba.server.rooms.ports.Replication`."""

    several = True

    def __init__(
        self,
        hub: Rooms,
        cluster: Cluster,
        lobby: OpenTables | None = None,
        quick: QuickMatch | None = None,
    ) -> None:
        self.hub = hub
        self.cluster = cluster
        self.lobby = lobby
        """The open tables: each process's entries are spread to every other."""
        self.quick = quick
        """The quick match: one queue for the site, and seats handed to other processes'
        people."""
        self._owned: dict[str, Ownership] = {}
        """The rooms in memory: whether this process owns each, under which token."""
        self._early: dict[str, list[Payload]] = {}
        """Rooms being loaded: the owner's events heard meanwhile."""
        self._presence: dict[str, asyncio.Task[None]] = {}
        """Rooms whose presence is being shared, and the task sharing it."""

    def _of(self, room_id: str) -> Ownership:
        ownership = self._owned.get(room_id)
        if ownership is None:  # a room not placed yet (being loaded): followed, not owned
            ownership = self._owned[room_id] = Ownership()
        return ownership

    # -- a room's Replication

    def fence(self, room_id: str) -> int | None:
        ownership = self._of(room_id)
        return None if ownership.replica else ownership.fence

    def follows(self, room_id: str) -> bool:
        return self._of(room_id).replica

    def online_elsewhere(self, room_id: str) -> frozenset[int]:
        return self._of(room_id).online_elsewhere

    def presence_changed(self, room_id: str) -> None:
        room = self.hub.rooms.get(room_id)
        if room is not None:
            self.share_presence(room)

    def owns(self, room: Room) -> bool:
        """This process owns ``room`` (holds its lease and stores under its token)."""
        ownership = self._of(room.id)
        return ownership.fence is not None and not ownership.replica

    # -- loading rooms and letting them go

    def loading(self, room_id: str) -> None:
        """A room is being loaded: keep the events heard for it meanwhile."""
        self._early[room_id] = []

    async def placed(self, room: Room, token: int | None) -> None:
        """A room just read: owned with ``token``, or followed (None)."""
        ownership = self._owned[room.id] = Ownership(fence=token, replica=token is None)
        with contextlib.suppress(BusUnavailable):
            ownership.online_elsewhere = frozenset(await self.cluster.presence(room.id))

    async def not_loaded(self, room_id: str, token: int | None) -> None:
        """A room that could not be loaded: its lease, if taken, is given up."""
        self._early.pop(room_id, None)
        self._owned.pop(room_id, None)
        if token is not None:
            await self.cluster.release(room_id, token)

    def loaded(self, room: Room) -> None:
        """Follow the events heard while the room was read (a replica), or read it again."""
        early = self._early.pop(room.id, [])
        if self.follows(room.id) and not all(room.follow(event) for event in early):
            self.hub.in_background(self._resync(room))

    def let_go(self, room: Room) -> None:
        """A room leaves memory: an owner gives its lease up, for another to take at once."""
        ownership = self._owned.pop(room.id, None)
        if ownership is not None and ownership.fence is not None and not ownership.replica:
            self.hub.in_background(self.cluster.release(room.id, ownership.fence))

    async def join(self) -> None:
        """Start hearing the other processes and keeping this one's leases."""
        if self.lobby is not None:
            self.lobby.spread = self._spread_table
        if self.quick is not None:
            self.quick.process = self.cluster.id
            self.quick.queue = SiteQueue(self.cluster)
            self.quick.spread = self._spread_pairing
        await self.cluster.start(self._heard, self._answer, self._resubscribed)
        self.hub.in_background(self._upkeep())

    async def _spread_pairing(self, seeker: str, message: PairedMessage | ErrorMessage) -> None:
        """Hand a seeker of another process its seat (or its refusal): every process hears,
        the one holding the seeker tells it."""
        told = {"kind": "paired", "seeker": seeker, "message": message.model_dump(mode="json")}
        await self.cluster.publish(QUICK_MATCH_CHANNEL, told)

    async def _spread_table(self, room_id: str, table: TableListing | None) -> None:
        """Tell the other processes a room's entry in the lobby."""
        listing = None if table is None else table.model_dump(mode="json")
        await self.cluster.publish(room_id, {"kind": "table", "table": listing})

    async def leave(self) -> None:
        """Give up this process's rooms at once (the others take them over without waiting
        for the leases to expire) and say its connections are gone."""
        for task in list(self._presence.values()):
            task.cancel()
        with contextlib.suppress(BusUnavailable):
            for room in list(self.hub.rooms.values()):
                if room.online():
                    await self.cluster.set_presence(room.id, ())
                fence = self._of(room.id).fence
                if self.owns(room) and fence is not None:
                    await self.cluster.release(room.id, fence)
        await self.cluster.close()

    async def _site(self, call: Coroutine[Any, Any, T]) -> T:
        """Await a call to Redis; one that cannot be reached is refused as ``restarting`` (the
        cluster's reach logs the outage, once)."""
        try:
            return await call
        except BusUnavailable:
            raise Refusal(*RESTARTING) from None

    async def claim(self, room_id: str) -> int | None:
        """Take the room's lease if nobody holds it and raise its fence to the lease's token:
        the token (this process owns the room), or None (another does)."""
        fence = await self.hub.stored(self.hub.storage.room_fence, room_id)
        if fence is None:
            raise Refusal("not_found", "no room has this link", 404)
        token = await self._site(self.cluster.take(room_id, fence))
        if token is None:
            return None
        try:
            await self.hub.stored(self.hub.storage.claim_room, room_id, token)
        except (StaleFence, LookupError):
            await self.cluster.release(room_id, token)
            return None
        return token

    async def tell(self, room_id: str, event: Payload) -> None:
        """Tell the other processes of a room event. A Redis out of reach is said in the log
        (once an outage, by the cluster's reach); the replicas find what they missed by the
        moves' numbers, or read every room again once Redis is back."""
        try:
            await self.cluster.publish(room_id, event)
        except BusUnavailable as error:
            log.debug("room %s: its event could not be told: %s", room_id, error)

    def lost(self, room_id: str) -> None:
        """The room is owned by another process now: follow it as a replica."""
        ownership = self._of(room_id)
        if ownership.replica:
            return
        log.warning("room %s: owned by another process now; following it", room_id)
        ownership.fence = None
        ownership.replica = True
        room = self.hub.rooms.get(room_id)
        if room is not None:
            self.hub.in_background(self._resync(room))

    def share_presence(self, room: Room) -> None:
        """Tell the other processes which seats this one has connections for, the latest
        only, one change at a time per room."""
        self._of(room.id).presence_changed = True
        if room.id not in self._presence:
            task = asyncio.get_running_loop().create_task(self._share_presence(room))
            self._presence[room.id] = task
            task.add_done_callback(lambda _: self._presence.pop(room.id, None))

    async def _share_presence(self, room: Room) -> None:
        ownership = self._of(room.id)
        while ownership.presence_changed:
            ownership.presence_changed = False
            try:
                await self.cluster.set_presence(room.id, room.online())
            except BusUnavailable as error:
                log.debug("room %s: who is connected cannot be told: %s", room.id, error)
                return

    async def forward(self, room_id: str, seat: int | None, message: Intention) -> None:
        """Have the room's owner act on a connection's intention; its refusal is raised here.
        With no owner (it died and its lease ran out), this process takes the room over and
        acts itself; while a dead owner's lease runs out, the intention waits (at most
        ``FAILOVER_SECONDS``). It is sent again only when the owner surely did not act on it
        (nobody heard it, or the owner had let the room go): a take back acted on twice
        would take back two moves."""
        room = self.hub.rooms.get(room_id)
        if room is None:  # pragma: no cover - a room forwards while in memory
            raise Refusal(*RESTARTING)
        request = {"room": room.id, "seat": seat, "message": message.model_dump()}
        loop = asyncio.get_running_loop()
        deadline = loop.time() + FAILOVER_SECONDS
        while True:
            holder = await self._site(self.cluster.holder(room.id))
            if holder is None or holder.owner == self.cluster.id:
                if await self.take_over(room):
                    await room.act(seat, message)
                    return
            else:
                try:
                    reply = await self.cluster.ask(holder.owner, request)
                except NoAnswer as error:
                    if error.heard:  # it may have acted: only the client may try again
                        log.warning("room %s: its owner did not answer (%s)", room.id, error)
                        raise Refusal(*RESTARTING) from None
                except BusUnavailable:
                    raise Refusal(*RESTARTING) from None
                else:
                    refused = reply.get("error")
                    if not isinstance(refused, dict):
                        return
                    if refused.get("code") != RESTARTING[0]:
                        raise Refusal(
                            str(refused.get("code")),
                            str(refused.get("message")),
                            int(refused.get("status", 400)),
                        )
            if loop.time() >= deadline:
                raise Refusal(*RESTARTING)
            await self.hub.clock.sleep(self.hub.timings.owner_retry)

    async def _answer(self, request: Payload) -> Payload:
        """Act on an intention another process's connection sent to this room's owner."""
        room = self.hub.rooms.get(str(request.get("room")))
        seat = request.get("seat")
        try:
            if room is None or self.follows(room.id):
                raise Refusal(*RESTARTING)
            if seat is not None and not (isinstance(seat, int) and 0 <= seat < len(room.seats)):
                raise Refusal("bad_seat", f"no seat {seat!r} in this room")
            message = parse_client_message(json.dumps(request.get("message")))
            if not isinstance(
                message,
                PlayMessage | TakeBackMessage | RematchMessage | ReplaceMessage | ClaimMessage,
            ):
                raise Refusal(
                    "bad_message",
                    "only plays, take backs, rematches and decisions for abandoned seats are "
                    "sent on",
                )
            room.last_active = self.hub.clock.now()
            await room.act(seat, message)
        except Refusal as refusal:
            return {"error": {**refusal.to_message().model_dump(), "status": refusal.status}}
        except ValidationError as error:
            return {"error": {"code": "bad_message", "message": str(error), "status": 400}}
        return {"error": None}

    def _heard(self, room_id: str, event: Payload) -> None:
        """An event of a room from another process."""
        if event.get("kind") == "table":  # its entry in the lobby, whoever holds the room
            if self.lobby is not None:
                self._hear_table(room_id, event.get("table"))
            return
        if event.get("kind") == "paired":  # a quick match's seat, for a seeker held here?
            if self.quick is not None:
                self._hear_pairing(event)
            return
        room = self.hub.rooms.get(room_id)
        if room is None:
            early = self._early.get(room_id)
            if early is not None:
                early.append(event)
            return
        kind = event.get("kind")
        if kind == "said":  # table talk, from whichever process its speaker is on
            self._hear_said(room, event.get("said"))
        elif kind == "clock":  # the owner started or stopped a turn's time
            if self.follows(room_id):
                room.follow_clock(event.get("clock"), show=True)
        elif kind == "abandoned":  # the owner says who has abandoned the room
            if self.follows(room_id):
                room.follow_abandoned(event.get("seats"))
        elif kind == "ended":  # the owner ended the match: claimed
            if self.follows(room_id):
                room.follow_end(event.get("winner"))
        elif kind == "presence":
            self.hub.in_background(self._read_presence(room))
        elif kind == "seats":
            self.hub.in_background(self._show_seats(room))
        elif not self.follows(room_id):
            return  # a move of this room by another owner: its lease says so at renewal
        elif (held := self._of(room_id).held_back) is not None:
            held.append(event)
        elif kind == "match" or not room.follow(event):
            self.hub.in_background(self._resync(room))

    def _hear_said(self, room: Room, said: object) -> None:
        try:
            room.hear(SaidMessage.model_validate(said))
        except ValidationError:
            log.warning("room %s: table talk that is not ours: %.200s", room.id, said)

    def _hear_pairing(self, event: Payload) -> None:
        assert self.quick is not None
        said = event.get("message")
        try:
            message: PairedMessage | ErrorMessage = (
                ErrorMessage.model_validate(said)
                if isinstance(said, dict) and said.get("type") == "error"
                else PairedMessage.model_validate(said)
            )
        except ValidationError:
            log.warning("quick match: a seat handed over that is not ours: %.200s", said)
            return
        self.hub.in_background(self.quick.deliver(str(event.get("seeker")), message))

    def _hear_table(self, room_id: str, listing: object) -> None:
        assert self.lobby is not None
        try:
            table = None if listing is None else TableListing.model_validate(listing)
        except ValidationError:
            log.warning("room %s: a lobby entry that is not ours: %.200s", room_id, listing)
            return
        self.lobby.heard(room_id, table)

    async def _read_presence(self, room: Room) -> None:
        try:
            self._of(room.id).online_elsewhere = frozenset(await self.cluster.presence(room.id))
        except BusUnavailable as error:
            log.debug("room %s: who is connected cannot be read: %s", room.id, error)
            return
        async with room.lock:
            room.broadcast()

    async def _show_seats(self, room: Room) -> None:
        with contextlib.suppress(Refusal):
            async with room.lock:
                await room.read_seats()
                if not self.follows(room.id):  # a seat taken elsewhere: a full table's clock
                    await room.clock_turn()
                room.broadcast()

    def _resubscribed(self) -> None:
        """Events may have been missed while Redis was out of reach: read every replica
        again, and everybody's presence."""
        for room in list(self.hub.rooms.values()):
            if self.follows(room.id):
                self.hub.in_background(self._resync(room))
            self.share_presence(room)
            self.hub.in_background(self._read_presence(room))

    async def _resync(self, room: Room) -> None:
        """Read a replica's room again, then follow the events heard meanwhile."""
        ownership = self._of(room.id)
        if ownership.held_back is not None:
            return  # being read already: what is heard meanwhile is followed after
        ownership.held_back = []
        followed = True
        try:
            async with room.lock:
                stored = None
                with contextlib.suppress(Refusal):
                    stored = await self.hub.stored(self.hub.storage.room, room.id)
                held, ownership.held_back = ownership.held_back, None
                if stored is not None and ownership.replica:
                    room.reload(stored)
                    followed = all(room.follow(event) for event in held)
        finally:
            ownership.held_back = None
        if not followed:
            self.hub.in_background(self._resync(room))

    async def take_over(self, room: Room) -> bool:
        """Own a replica's room whose owner is gone: take its lease, read it as stored and
        play on (its computers too); whether this process owns it now."""
        async with room.lock:
            ownership = self._of(room.id)
            if not ownership.replica:
                return True
            try:
                token = await self.claim(room.id)
                if token is None:
                    return False
                stored = await self.hub.stored(self.hub.storage.room, room.id)
            except Refusal:
                return False
            if stored is None:  # pragma: no cover - a room being played is not deleted
                await self.cluster.release(room.id, token)
                return False
            room.reload(stored)
            ownership.fence = token
            ownership.replica = False
            log.info("room %s: taken over (fencing token %d)", room.id, token)
        await self.tell(room.id, {"kind": "match"})  # the other replicas read it again
        room.wake_computers()
        room.wake_clock()  # the deadline the owner before stored: kept, once
        return True

    async def _upkeep(self) -> None:
        """Every second: beat this process's heart, renew its rooms' leases (giving up those
        lost), hand the rooms whose players are all on other processes over to them, and
        take over the rooms whose owner is gone that have players here."""
        while True:
            await self.hub.clock.sleep(UPKEEP_SECONDS)
            try:
                await self.cluster.beat()
                owned = {
                    room_id: fence
                    for room_id, room in self.hub.rooms.items()
                    if self.owns(room) and (fence := self._of(room_id).fence) is not None
                }
                for room_id in await self.cluster.renew(owned):
                    room = self.hub.rooms.get(room_id)
                    if room is not None:
                        self.lost(room_id)
                for room in list(self.hub.rooms.values()):
                    if self._elsewhere(room) and not room.lock.locked():
                        await self._hand_over(room)
                # A room followed by nobody here is left to the processes its players are on
                # (or to the next that loads it), so that a room is not taken back and forth.
                followed = [
                    room_id
                    for room_id, room in self.hub.rooms.items()
                    if self.follows(room_id) and room.clients
                ]
                for room_id, lease in (await self.cluster.holders(followed)).items():
                    room = self.hub.rooms.get(room_id)
                    if lease is None and room is not None:
                        self.hub.in_background(self._take_over_quietly(room))
            except BusUnavailable as error:
                # The rooms are kept as they are until Redis is back (the reach says so).
                log.debug("upkeep: %s", error)

    async def _take_over_quietly(self, room: Room) -> None:
        await self.take_over(room)  # not now: the next upkeep tries again

    def _elsewhere(self, room: Room) -> bool:
        """An owned room whose players are all connected to other processes."""
        return self.owns(room) and not room.clients and bool(self._of(room.id).online_elsewhere)

    async def _hand_over(self, room: Room) -> None:
        """Give up a room whose players are all on other processes: one of them takes it over
        at its next upkeep, and their moves are no longer sent here and back. This process
        follows it meanwhile (its computers stop; a move being stored finishes first)."""
        async with room.lock:
            ownership = self._of(room.id)
            token = ownership.fence
            if not self._elsewhere(room) or token is None:
                return
            ownership.fence = None
            ownership.replica = True
            await self.cluster.release(room.id, token)
        log.info("room %s: handed over to a process its players are connected to", room.id)
