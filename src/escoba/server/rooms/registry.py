"""The registry: every room this process holds, loaded when someone comes and let go when
nobody has for a while; creating rooms and handing out their seats, within the limits on what
clients may create. It builds the ports its rooms reach the server through: storage (its
threads and the move writer), the computers' workers, and the site of several processes when
there is one.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import logging
import re
import secrets
from collections import deque
from collections.abc import Callable, Coroutine, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import Any, Final, ParamSpec, Protocol, TypeVar

from ...errors import EscobaError, RulesError
from ...game import Game
from ...rules import RuleSet
from ..computers import Thinkers
from ..config import DEFAULT_SETTINGS, Settings
from ..errors import RESTARTING, Refusal, StaleFence, StorageUnavailable
from ..nicknames import NicknameError, clean_nickname
from ..protocol import CreateRoom, JoinRoom, SeatTicket
from ..ratings import game_of
from ..storage.accounts import SignedIn
from ..storage.repository import MoveWrite, SeatRow, SeatTaken, Storage, hash_token
from ..storage.writer import MoveWriter
from .actor import Room
from .clocks import CLOCK_PRESETS, SeatClocks, TimeControl
from .core import RoomState, SeatState, TableSettings, local_match_of, new_seed, rules_of
from .ports import Alone, Listings, Ports, Replication, Unlisted

__all__ = ["ROOM_ID", "Registry", "new_room_id", "new_token"]

log = logging.getLogger("escoba.server")

T = TypeVar("T")
P = ParamSpec("P")

ROOM_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,32}")
"""What a room id may look like (ours are 22 URL-safe characters); anything else is unknown
without asking storage."""


class SiteMembership(Replication, Protocol):
    """The site of several processes (:mod:`escoba.server.replication`) as the registry uses
    it: it claims a room being loaded, places it as owned or followed, and lets it go."""

    def loading(self, room_id: str) -> None: ...

    async def claim(self, room_id: str) -> int | None: ...

    async def placed(self, room: Room, token: int | None) -> None: ...

    async def not_loaded(self, room_id: str, token: int | None) -> None: ...

    def loaded(self, room: Room) -> None: ...

    def let_go(self, room: Room) -> None: ...

    async def join(self) -> None: ...

    async def leave(self) -> None: ...


QUICK_MATCH_CLOCK: Final = "standard"
"""The time control of a quick match's room: strangers play against a clock."""

STORAGE_THREADS: Final = 4
"""Threads that talk to the database (the move writer has one more of its own)."""


def _check_ratable(
    request: CreateRoom, rules: RuleSet, levels: Sequence[str | None], account: SignedIn | None
) -> None:
    """Refuse a rated room that cannot be rated, naming what it lacks."""
    if account is None:
        raise Refusal("sign_in_needed", "sign in to open a rated table", 401)
    missing = []
    if not request.listed:
        missing.append("an open table")
    if request.clock is None:
        missing.append("a clock")
    if request.options or game_of(rules) is None:
        missing.append("a preset's rules unchanged")
    if any(level is not None for level in levels):
        missing.append("person seats only")
    if missing:
        raise Refusal("not_ratable", "a rated table needs " + ", ".join(missing), 422)


def _nickname(nickname: str) -> str:
    try:
        return clean_nickname(nickname)
    except NicknameError as error:
        raise Refusal("bad_nickname", str(error)) from None


class Registry:
    """Every room the process holds, loaded from storage on demand."""

    def __init__(
        self,
        storage: Storage,
        settings: Settings = DEFAULT_SETTINGS,
        lobby: Listings | None = None,
    ) -> None:
        self.storage = storage
        self.site: SiteMembership | None = None
        """The site of several processes this one is part of (None: it serves alone)."""
        self.pace = settings.pace
        self.limits = settings.limits
        self.timings = settings.timings
        self.clock = settings.clock
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Future[Room]] = {}
        self._created: dict[str, deque[tuple[float, int]]] = {}
        """Per address: when it created each recent room, and its computer seats."""
        self._creating = 0
        """Computer seats of the rooms being created now (counted before they exist)."""
        self._creating_rooms = 0
        self._io = ThreadPoolExecutor(STORAGE_THREADS, thread_name_prefix="escoba-storage")
        self.writer = MoveWriter(storage)
        self.thinkers = Thinkers(
            self.limits.computer_workers,
            self.limits.computer_backlog,
            analysis_workers=settings.analysis_workers,
        )
        self._tasks: set[asyncio.Task[None]] = set()
        self._probe: asyncio.Task[None] | None = None
        self._storage_back = asyncio.Event()
        """Set (and replaced) when storage answers again after failing."""
        self.handlers = 0
        """WebSocket handlers running now (each ends with its socket)."""
        self.ports = Ports(
            store=StoredRooms(self),
            thinkers=self.thinkers,
            replication=Alone(),
            clock=self.clock,
            limits=self.limits,
            timings=self.timings,
            pace=self.pace,
            lobby=Unlisted() if lobby is None else lobby,
        )

    def join_site(self, site: SiteMembership) -> None:
        """Serve as one process of ``site`` (before any room is loaded)."""
        assert not self.rooms, "a process joins its site before it loads a room"
        self.site = site
        self.ports = dataclasses.replace(self.ports, replication=site)

    async def start(self) -> None:
        """Begin its upkeep (and join the site of several processes, if any)."""
        self.in_background(self._sweep())
        if self.site is not None:
            await self.site.join()

    def in_background(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` as a task the registry keeps (and cancels when it closes)."""
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

    async def storage_back(self, wait: float) -> None:
        """Wait ``wait`` seconds, or less if storage, which failed, answers again first: a
        database that was out of reach is asked every ``timings.storage_probe`` by one probe for
        every room waiting on it; one that answers but still refuses (a full disk) is tried
        again after ``wait``."""
        back = self._storage_back
        if self._probe is None or self._probe.done():
            self._probe = asyncio.get_running_loop().create_task(self._probe_storage())
            self._tasks.add(self._probe)
            self._probe.add_done_callback(self._tasks.discard)
        waits = {asyncio.ensure_future(back.wait()), asyncio.ensure_future(self.clock.sleep(wait))}
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for pending in waits:
                pending.cancel()

    async def _probe_storage(self) -> None:
        loop = asyncio.get_running_loop()
        failed = False
        while True:
            try:
                await loop.run_in_executor(self._io, self.storage.answer)
            except StorageUnavailable:
                failed = True
                await self.clock.sleep(self.timings.storage_probe)
                continue
            if failed:
                back, self._storage_back = self._storage_back, asyncio.Event()
                back.set()
            return

    # -- keeping memory and storage lean

    async def _sweep(self) -> None:
        """Let go of rooms nobody has used for a while (their matches are in storage and load
        again when someone comes back) and delete abandoned matches from storage."""
        expired_at: float | None = None
        while True:
            await self.clock.sleep(min(60.0, self.limits.room_idle))
            self.evict_idle()
            self._forget_old_creations()
            if expired_at is None or self.clock.now() - expired_at >= self.timings.expire_every:
                expired_at = self.clock.now()
                with contextlib.suppress(Refusal):
                    await self.expire()

    def evict_idle(self, idle_seconds: float | None = None) -> int:
        """Drop the idle rooms from memory; how many."""
        wait = self.limits.room_idle if idle_seconds is None else idle_seconds
        now = self.clock.now()
        idle = [
            room_id
            for room_id, room in self.rooms.items()
            if room.idle() and now - room.last_active >= wait
        ]
        for room_id in idle:
            room = self.rooms.pop(room_id)
            room.stop_waiting()
            if self.site is not None:
                self.site.let_go(room)
        return len(idle)

    async def expire(self) -> int:
        """Delete from storage the matches nobody has played for ``room_expiry``; how many."""
        before = datetime.now(UTC) - timedelta(seconds=self.limits.room_expiry)
        deleted = await self.stored(self.storage.expire, before)
        if deleted:
            log.info("deleted %d abandoned matches", deleted)
        return deleted

    # -- finding and loading rooms

    async def room(self, room_id: str) -> Room:
        room = self.rooms.get(room_id)
        if room is not None:
            room.last_active = self.clock.now()
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
                # Rooms are loaded when someone comes (never all at start): a computer
                # whose turn it was when the room left memory, or the server stopped, moves;
                # a deadline that passed meanwhile is enforced
                room.wake_computers()
                room.wake_clock()
                return room
            finally:
                del self._loading[room_id]
        return await asyncio.shield(loading)

    async def _load(self, room_id: str) -> Room:
        """The room as stored. In a site of several processes: owned by this one if nobody
        holds it (its lease taken and its fence raised before it is read, so the read holds
        every move of the owners before), else a replica following its owner's events, those
        heard while it was read included."""
        site = self.site
        token: int | None = None
        if site is not None:
            site.loading(room_id)
        try:
            if site is not None:
                token = await site.claim(room_id)
            stored = await self.stored(self.storage.room, room_id)
            if stored is None:
                raise Refusal("not_found", "no room has this link", 404)
            seats = [
                SeatState(row.level, row.nickname, row.token_hash, row.account_id)
                for row in stored.seats
            ]
            row = stored.room
            control = None if row.clock is None else TimeControl(**row.clock)
            state = RoomState(
                seats,
                local_match_of(stored.game, seats, stored.match.seed),
                stored.match.id,
                stored.match.number,
                TableSettings(row.listed, row.watchable, row.language, control, row.rated),
                None if control is None else SeatClocks.of(control, len(seats), stored.match.clock),
            )
            if stored.match.ended is not None and stored.match.winner is not None:
                state.ended = stored.match.winner
            room = Room(self.ports, self.rooms, room_id, state)
            if site is not None:
                await site.placed(room, token)
        except BaseException:
            if site is not None:
                await site.not_loaded(room_id, token)
            raise
        if site is not None:
            site.loaded(room)  # no await between this and the room being found
        return room

    # -- creating and joining

    def computer_seats_in_use(self) -> int:
        """The computer seats that take capacity now: those of the rooms in use (someone
        connected, or its computers playing) whose match goes on, and of the rooms being
        created. A room nobody is connected to costs nothing once its computers wait for a
        person, whether or not it is still in memory."""
        in_use = sum(
            room.computer_seats
            for room in self.rooms.values()
            if room.in_use() and not room.game.is_over()
        )
        return in_use + self._creating

    def _reserve(self, address: str | None, computers: int) -> tuple[float, int]:
        """Check a new room against the limits for its address (None: a room of a quick
        match, made for several people at once, counted against the server's only) and for
        the whole server, and count it at once (no await between the check and the count, so
        that creations arriving together cannot all pass it); the entry to give back if it
        is not made."""
        limits = self.limits
        self._forget_old_creations()
        recent = self._created.get(address, ()) if address is not None else ()
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
        if len(self.rooms) + self._creating_rooms >= limits.rooms_total:
            self.evict_idle(idle_seconds=0.0)
        if len(self.rooms) + self._creating_rooms >= limits.rooms_total:
            raise Refusal("server_busy", "the server is full just now; try again later", 503)
        # A room without computers costs no search: a full pool of computers never refuses it
        if computers and self.computer_seats_in_use() + computers > limits.computer_seats_total:
            raise Refusal(
                "server_busy",
                "every computer player of the server is busy just now: try again later, "
                "or play with friends",
                503,
            )
        entry = (self.clock.now(), computers)
        if address is not None:
            self._created.setdefault(address, deque()).append(entry)
        self._creating += computers
        self._creating_rooms += 1
        return entry

    def _unreserve(self, address: str | None, entry: tuple[float, int], *, made: bool) -> None:
        """A creation is over: its computers count with its room now (``made``), or it
        failed and counts against nobody."""
        self._creating -= entry[1]
        self._creating_rooms -= 1
        if not made and address is not None:
            recent = self._created.get(address)
            if recent is not None and entry in recent:
                recent.remove(entry)

    def _forget_old_creations(self) -> None:
        oldest = self.clock.now() - self.limits.rooms_window
        for address in list(self._created):
            recent = self._created[address]
            while recent and recent[0][0] < oldest:
                recent.popleft()
            if not recent:
                del self._created[address]

    async def create(
        self, request: CreateRoom, address: str = "", account: SignedIn | None = None
    ) -> SeatTicket:
        """Open a room with its creator seated (signed in: under their username)."""
        rules = rules_of(request.rules, dict(request.options))
        if len(request.seats) != request.players:
            raise Refusal(
                "bad_seats",
                f"give one seat entry per player: {request.players} players, "
                f"{len(request.seats)} seats",
            )
        if request.partnerships and request.players != 4:
            raise Refusal("bad_seats", "partnerships need 4 players")
        try:
            rules.deals_per_hand(request.players)
        except RulesError as error:  # Scopone for three: the deck does not share out
            raise Refusal("bad_seating", str(error)) from None
        levels = [None if kind == "person" else kind for kind in request.seats]
        people = [seat for seat, level in enumerate(levels) if level is None]
        if not people:
            raise Refusal("bad_seats", "at least one seat must be a person's")
        seat = people[0] if request.seat is None else request.seat
        if seat not in people:
            raise Refusal("bad_seats", f"seat {seat} is not a person's seat")
        if request.rated:
            _check_ratable(request, rules, levels, account)
        nickname = account.username if account is not None else _nickname(request.nickname)
        clock = request.clock
        control = None if clock is None else TimeControl(clock.per_move, clock.reserve)
        table = TableSettings(
            request.listed, request.watchable, request.language, control, request.rated
        )
        sitters = {} if account is None else {seat: (account.account_id, address)}
        tickets = await self._open(
            rules, request.partnerships, levels, {seat: nickname}, table, address, sitters
        )
        return tickets[0]

    async def open_match(
        self,
        preset: str,
        players: int,
        nicknames: Sequence[str],
        level: str | None = None,
        *,
        language: str = "en",
        address: str | None = None,
        sitters: Sequence[tuple[int | None, str | None]] = (),
        rated: bool = False,
    ) -> list[SeatTicket]:
        """A room for people a quick match paired, seated in their order, the seats left
        to computers of ``level``; an open table, its match to watch. Each person's ticket.
        ``address``: the person who asked for computers, whose limits they count against.
        ``sitters``: each person's account (None: not signed in) and address. ``rated``: a
        rated match, when every seat is a different account's (else it is casual)."""
        rules = rules_of(preset, {})
        levels = [None] * len(nicknames) + [level] * (players - len(nicknames))
        people = {seat: _nickname(nickname) for seat, nickname in enumerate(nicknames)}
        accounts = [account for account, _ in sitters]
        rated = (
            rated
            and level is None
            and len(accounts) == players
            and None not in accounts
            and len(set(accounts)) == players
        )
        table = TableSettings(True, True, language, CLOCK_PRESETS[QUICK_MATCH_CLOCK], rated)
        seated = {
            seat: (account, place)
            for seat, (account, place) in enumerate(sitters)
            if account is not None
        }
        return await self._open(rules, players == 4, levels, people, table, address, seated)

    async def _open(
        self,
        rules: RuleSet,
        partnerships: bool,
        levels: Sequence[str | None],
        people: Mapping[int, str],
        table: TableSettings,
        address: str | None,
        sitters: Mapping[int, tuple[int, str | None]] | None = None,
    ) -> list[SeatTicket]:
        """Make a room, ``people`` (seat: nickname) seated in it: their tickets, in seat
        order. ``sitters``: the signed-in people's (account, address), by seat."""
        sitters = sitters or {}
        seed = new_seed()
        try:
            game = Game(rules, len(levels), partnerships, seed=seed)
        except EscobaError as error:
            raise Refusal("bad_rules", str(error)) from None
        entry = self._reserve(address, sum(level is not None for level in levels))
        made = False
        try:
            room_id = new_room_id()
            tokens = {seat: new_token() for seat in people}
            match = await self.stored(
                self.storage.create_room,
                room_id,
                game,
                list(levels),
                seed=seed,
                listed=table.listed,
                watchable=table.watchable,
                language=table.language,
                clock=None if table.clock is None else table.clock.to_dict(),
                rated=table.rated,
            )
            for seat, nickname in people.items():
                account, place = sitters.get(seat, (None, None))
                await self.stored(
                    self.storage.take_seat,
                    room_id,
                    seat,
                    nickname,
                    tokens[seat],
                    account_id=account,
                    address=place,
                )
            made = True
            room = await self.room(room_id)
        finally:
            self._unreserve(address, entry, made=made)
        if room.match_id != match.id:  # pragma: no cover - a new room has one match
            raise Refusal("storage_failed", "the new room could not be read back", 503)
        room.claimed()  # its people are on the way: in use meanwhile
        async with room.lock:  # a table full from the start: its clock runs from now
            with contextlib.suppress(Refusal):
                await room.clock_turn()
        invite = f"/room/{room_id}"
        return [
            SeatTicket(room=room_id, seat=seat, token=token, invite=invite)
            for seat, token in sorted(tokens.items())
        ]

    async def join(
        self,
        room_id: str,
        request: JoinRoom,
        account: SignedIn | None = None,
        address: str | None = None,
    ) -> SeatTicket:
        """Take a free seat (signed in: under the username; once only at a rated table)."""
        room = await self.room(room_id)
        nickname = account.username if account is not None else _nickname(request.nickname)
        async with room.lock:
            if (
                account is not None
                and room.room_state.table.rated
                and any(state.account_id == account.account_id for state in room.seats)
            ):
                raise Refusal("already_seated", "you sit at this rated table already", 409)
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
            token = new_token()
            account_id = None if account is None else account.account_id
            try:
                await self.stored(
                    self.storage.take_seat,
                    room_id,
                    seat,
                    nickname,
                    token,
                    account_id=account_id,
                    address=address,
                )
            except SeatTaken:
                raise Refusal("seat_taken", f"seat {seat} is taken", 409) from None
            room.room_state.seat_taken(seat, nickname, hash_token(token), account_id)
            room.claimed()
            with contextlib.suppress(Refusal):  # the clock starts at its next change else
                await room.clock_turn()  # a full table starts: the clock runs
            room.broadcast()
            await self.ports.replication.tell(room.id, {"kind": "seats"})
        return SeatTicket(room=room_id, seat=seat, token=token, invite=f"/room/{room_id}")

    async def close(self) -> None:
        tasks = every = list(self._tasks)
        while tasks:
            # Cancelled again until done: a client library that swallows a cancellation (the
            # Redis client's, caught mid-call) would otherwise keep a loop going forever
            for task in tasks:
                task.cancel()
            await asyncio.wait(tasks, timeout=self.timings.cancel_again)
            tasks = [task for task in tasks if not task.done()]
        for task in every:
            if not task.cancelled() and task.exception() is not None:
                log.error("a task of the server failed", exc_info=task.exception())
        for room in list(self.rooms.values()):
            await room.close()
        if self.site is not None:
            await self.site.leave()
        await self.thinkers.close()
        await self.writer.close()
        self._io.shutdown(wait=False, cancel_futures=True)


class StoredRooms:
    """Storage as the registry's rooms use it (:class:`~.ports.MoveStore`): moves through the
    move writer, everything else on storage's own threads."""

    def __init__(self, registry: Registry) -> None:
        self._registry = registry

    async def write(self, write: MoveWrite) -> None:
        await self._registry.writer.write(write)

    async def write_all(self, writes: Sequence[MoveWrite]) -> None:
        await self._registry.writer.write_all(writes)

    async def new_match(
        self, room_id: str, number: int, game: Game, seed: int, fence: int | None
    ) -> int:
        registry = self._registry
        match = await registry.stored(
            registry.storage.new_match, room_id, number, game, seed, fence=fence
        )
        return match.id

    async def set_clock(self, match_id: int, clock: dict[str, Any], fence: int | None) -> None:
        registry = self._registry
        try:
            await registry.stored(registry.storage.set_clock, match_id, clock, fence=fence)
        except StaleFence:  # another process owns the room now: it runs the clock
            log.info("match %d: its clock is another process's now", match_id)

    async def give_seat(
        self, room_id: str, match_id: int, seat: int, level: str, fence: int | None
    ) -> None:
        registry = self._registry
        try:
            await registry.stored(
                registry.storage.give_seat, room_id, match_id, seat, level, fence=fence
            )
        except StaleFence:
            raise Refusal(*RESTARTING) from None

    async def end_match(
        self,
        match_id: int,
        winner: int,
        totals: list[int],
        reason: str,
        fence: int | None,
        left: Sequence[int] = (),
    ) -> None:
        registry = self._registry
        try:
            await registry.stored(
                registry.storage.end_match,
                match_id,
                winner,
                totals,
                reason,
                left=left,
                fence=fence,
            )
        except StaleFence:
            raise Refusal(*RESTARTING) from None

    async def seats(self, room_id: str) -> Sequence[SeatRow]:
        registry = self._registry
        return await registry.stored(registry.storage.seats, room_id)

    async def back(self, wait: float) -> None:
        await self._registry.storage_back(wait)


def new_room_id() -> str:
    """128 random bits, URL-safe: a room is found by its link, never by guessing."""
    return secrets.token_urlsafe(16)


def new_token() -> str:
    """A seat token: 192 random bits; only its hash is stored."""
    return secrets.token_urlsafe(24)
