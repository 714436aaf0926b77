"""A room as the owner of its clients: the lock, joins and watchers, the state sent to
each connection, the computers' turns and the hints.

The server is authoritative. Every intention from a connection is checked by the engine under
the room's lock, applied to the room's state (:meth:`.core.RoomState.apply`, the one way a
match changes), stored, and only then sent out, each connection receiving its own seat's view
(a spectator the engine's public view). A change storage refuses is undone from the state
saved before it. Computer seats and hints are worked out by the thinkers, outside the lock; a
computer's move is applied only if the position is still the one it was chosen for. A room
reaches the rest of the server through its ports (:mod:`.ports`) only.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Coroutine, Mapping, MutableMapping
from typing import Any, Final

from ...ai.coach import MoveAdvice
from ...cards import DeckStyle
from ...errors import InvalidCardError, InvalidMoveError
from ...game import Game
from ...moves import Move
from ...observation import Event, Play, TakeBack
from ...records import TAKE_BACK
from ...rules import nearest_preset, preset_name
from ..clients import Client, TokenBucket
from ..computers import Busy
from ..errors import RESTARTING, Refusal, StaleFence
from ..nicknames import clean_line
from ..protocol import (
    MAX_TALK,
    ClaimMessage,
    ClockSpec,
    ClockView,
    ErrorMessage,
    HintMove,
    HintReply,
    HintRequest,
    JoinMessage,
    MatchEnd,
    PingMessage,
    PlayMessage,
    PongMessage,
    RematchMessage,
    ReplaceMessage,
    RoomInfo,
    SaidMessage,
    SayMessage,
    SeatInfo,
    TableListing,
    TableSeat,
    TakeBackMessage,
    TimeoutMessage,
    WatchMessage,
    WelcomeMessage,
    move_view,
    parse_move,
)
from ..protocol.wire import HandHistory, StateTexts, event_text
from ..storage.repository import MoveWrite, StoredRoom, token_matches
from .clocks import SeatClocks, timeout_move
from .core import (
    Applied,
    MoveChange,
    NewMatch,
    RoomState,
    Saved,
    SeatState,
    TakeBackChange,
    local_match_of,
    new_seed,
)
from .ports import Intention, Ports

__all__ = ["TALK_KEPT", "Room"]

log = logging.getLogger("escoba.server")

TALK_KEPT: Final = 20
"""The last things said at a table, sent to whoever joins it."""
TIMEOUTS_TO_ABANDON: Final = 3
"""Timeouts in a row after which a seat is abandoned."""


class Room:
    """A room: its state (seats and the current match), its connections, and the tasks of its
    computers and hints."""

    def __init__(
        self,
        ports: Ports,
        rooms: MutableMapping[str, Room],
        room_id: str,
        state: RoomState,
    ) -> None:
        self.ports = ports
        self.replication = ports.replication
        self._rooms = rooms
        """Every room of the process (the registry's): a room let go and found again takes its
        place back, unless another copy was loaded meanwhile."""
        self.id = room_id
        self.room_state = state
        """Its seats and match, changed only through :meth:`RoomState.apply`."""
        self.lock = asyncio.Lock()
        self.clients: set[Client] = set()
        self._computers: asyncio.Task[None] | None = None
        self._clock_task: asyncio.Task[None] | None = None
        """Waits for the running turn's deadline, to play a move for its seat."""
        self._away_since: dict[int, float] = {}
        """When each taken person seat was last seen leaving (no connection anywhere)."""
        self._grace_task: asyncio.Task[None] | None = None
        self._grace_wake: float | None = None
        """When the grace period under way ends (its task wakes then)."""
        self._abandoned: frozenset[int] = frozenset()
        """The seats abandoned, as last shown (a replica: as its owner said)."""
        self._background: set[asyncio.Task[None]] = set()
        self._hints: dict[int, asyncio.Task[None]] = {}
        """The hint being worked out for each seat, if any."""
        self._hint_rates: dict[int, TokenBucket] = {}
        self.last_active = ports.clock.now()
        self.claimed_at: float | None = None
        """When its seat was last handed out: its person is on the way (in use meanwhile)."""
        self._info_text: tuple[tuple[Any, ...], str] | None = None
        """The room's info as JSON, with what it was made from: sent again while that holds."""
        self._history = HandHistory()
        """The current hand's events as JSON, extended move by move."""
        self._talk: deque[str] = deque(maxlen=TALK_KEPT)
        """The last things said at the table, as JSON: sent to whoever joins."""
        self._talk_rates: dict[int, TokenBucket] = {}
        self._listed: tuple[Any, ...] | None = None
        """What the room's lobby entry was last made from (None: not listed by this
        process)."""

    # -- its state, as the rest of the server reads it

    @property
    def seats(self) -> list[SeatState]:
        return self.room_state.seats

    @property
    def game(self) -> Game:
        return self.room_state.game

    @property
    def match_id(self) -> int:
        return self.room_state.match_id

    @property
    def match_number(self) -> int:
        return self.room_state.match_number

    @property
    def position(self) -> tuple[int, int]:
        """Which match and how far into it: a search's answer is for this position only."""
        return self.room_state.position

    @property
    def computer_seats(self) -> int:
        return self.room_state.computer_seats

    @property
    def replica(self) -> bool:
        """Another process owns the room: this one follows its changes."""
        return self.replication.follows(self.id)

    def claimed(self) -> None:
        """A seat was just handed out: its person is on the way, so the room is in use
        (``timings.claim``) though nobody is connected yet."""
        self.claimed_at = self.ports.clock.now()

    def online(self) -> set[int]:
        """The seats with a joined connection on this process."""
        return {c.seat for c in self.clients if c.joined and c.seat is not None}

    def in_use(self) -> bool:
        """Someone is connected (here, or elsewhere to its owner), its computers are
        playing, or a seat was just handed out: its computer seats take capacity."""
        playing = self._computers is not None and not self._computers.done()
        return (
            bool(self.clients)
            or (bool(self.replication.online_elsewhere(self.id)) and not self.replica)
            or playing
            or (
                self.claimed_at is not None
                and self.ports.clock.now() - self.claimed_at < self.ports.timings.claim
            )
        )

    def idle(self) -> bool:
        """Nobody connected (here or, to its owner, on another process) and nothing going
        on: the room may leave memory."""
        busy = self._computers is not None and not self._computers.done()
        return (
            not self.clients
            and not (self.replication.online_elsewhere(self.id) and not self.replica)
            and not busy
            and not self._background
            and not self.lock.locked()
        )

    def reload(self, stored: StoredRoom) -> None:
        """Take the room as stored: its seats and its latest match. The moves stored beyond
        those held, in the same match, are followed one by one, so that every connection is
        shown each as a move (a room read again, or taken over); anything else is taken as
        it is and shown as a new position."""
        state = self.room_state
        state.take_seats(stored.seats)  # a room's seats and their kinds never change
        if self._catch_up(stored):
            state.play_on(state.match, state.match_id)  # the hands stored, counted again
        else:
            state.match_number = stored.match.number
            match = local_match_of(stored.game, state.seats, stored.match.seed)
            state.play_on(match, stored.match.id)
        if state.table.clock is not None:
            state.clocks = SeatClocks.of(state.table.clock, len(state.seats), stored.match.clock)
        self.broadcast()
        self.wake_clock()

    def _catch_up(self, stored: StoredRoom) -> bool:
        if stored.match.id != self.match_id:
            return False
        played = [text for hand in stored.game.record()["hands"] for text in hand["moves"]]
        if len(played) < self.room_state.moves_stored:
            return False
        for number in range(self.room_state.moves_stored, len(played)):
            text = played[number]
            event: dict[str, Any] = (
                {"kind": "take_back", "count": 1}
                if text == TAKE_BACK
                else {"kind": "move", "move": text}
            )
            if not self.follow({**event, "match": self.match_id, "number": number}):
                return False
        return True

    def follow(self, event: Mapping[str, Any]) -> bool:
        """Apply a change the owner published (a replica) and show it; False when it does
        not follow from what this replica holds (one was missed, or another match began):
        the room must be read again. The hands stored are not counted here: a replica that
        takes the room over reads it again first."""
        applied = self.room_state.follow(event)
        if applied is None:
            log.warning("room %s: an event of its owner does not follow: %s", self.id, event)
            return False
        self.follow_clock(event.get("clock"))
        if applied.stored and applied.event is not None:
            self.broadcast(applied.event, applied.hand_ended)
        return True

    def follow_clock(self, stored: object, *, show: bool = False) -> None:
        """Take the clocks the owner published (a replica); ``show``: tell everybody."""
        control = self.room_state.table.clock
        if control is None or not isinstance(stored, dict):
            return
        self.room_state.clocks = SeatClocks.of(control, len(self.seats), stored)
        if show:
            self.broadcast()

    # -- views

    def info(self) -> RoomInfo:
        game = self.game
        online = self.online() | self.replication.online_elsewhere(self.id)
        return RoomInfo(
            id=self.id,
            invite=f"/room/{self.id}",
            preset=preset_name(game.rules),
            rules=game.rules.to_dict(),
            players=game.players,
            partnerships=game.partnerships,
            deals_per_hand=game.rules.deals_per_hand(game.players),
            sides=[list(side) for side in game.sides],
            seats=[
                SeatInfo(
                    seat=seat,
                    kind="person" if state.level is None else "computer",
                    level=state.level,  # type: ignore[arg-type]  # checked when created
                    nickname=state.nickname,
                    taken=state.level is not None or state.token_hash is not None,
                    connected=state.level is not None or seat in online,
                    abandoned=seat in self._abandoned,
                    account=state.nickname if state.account_id is not None else None,
                )
                for seat, state in enumerate(self.seats)
            ],
            match_number=self.match_number,
            match_id=self.room_state.match_id,
            status="over" if self.room_state.over else "playing",
            listed=self.room_state.table.listed,
            clock=self._clock_view(),
            ended=None
            if self.room_state.ended is None
            else MatchEnd(reason="abandoned", winner=self.room_state.ended),
            rated=self.room_state.table.rated,
        )

    def _clock_view(self) -> ClockView | None:
        clocks = self.room_state.clocks
        if clocks is None:
            return None
        left = clocks.left(self.ports.clock.wall())
        return ClockView(
            per_move=clocks.control.per_move,
            reserve=clocks.control.reserve,
            reserves=[round(value, 1) for value in clocks.reserves],
            timeouts=list(clocks.timeouts),
            turn=clocks.turn,
            left=None if left is None else round(left, 1),
        )

    def listing(self) -> TableListing | None:
        """The room's entry in the lobby: an open table whose match goes on, with someone
        there, and a free seat or a match that may be watched; else None."""
        table = self.room_state.table
        game = self.game
        online = self.online() | self.replication.online_elsewhere(self.id)
        free = [
            seat
            for seat, state in enumerate(self.seats)
            if state.level is None and state.token_hash is None
        ]
        over = self.room_state.over
        if not table.listed or over or not online or not (free or table.watchable):
            return None
        preset, changes = nearest_preset(game.rules)
        return TableListing(
            id=self.id,
            invite=f"/room/{self.id}",
            preset=preset,
            changes=changes,
            rules=game.rules.to_dict(),
            target=game.rules.target_score,
            players=game.players,
            partnerships=game.partnerships,
            seats=[
                TableSeat(
                    seat=seat,
                    kind="person" if state.level is None else "computer",
                    level=state.level,  # type: ignore[arg-type]  # checked when created
                    nickname=state.nickname,
                    free=seat in free,
                    account=state.nickname if state.account_id is not None else None,
                )
                for seat, state in enumerate(self.seats)
            ],
            free=len(free),
            computers=self.computer_seats > 0,
            language=table.language,  # type: ignore[arg-type]  # checked when created
            clock=None if table.clock is None else ClockSpec(**table.clock.to_dict()),
            status="waiting" if free else "playing",
            rated=table.rated,
        )

    def _relist(self) -> None:
        """Keep the room's lobby entry current (its owner does): made again only when what
        it shows may have changed."""
        if not self.room_state.table.listed:
            return
        if self.replica:
            if self._listed is not None:
                self._listed = None
                self.ports.lobby.let_go(self.id)
            return
        key = (
            self.room_state.over,
            self.match_number,
            frozenset(self.online() | self.replication.online_elsewhere(self.id)),
            tuple((state.nickname, state.token_hash is None) for state in self.seats),
        )
        if key != self._listed:
            self._listed = key
            self.ports.lobby.show(self.id, self.listing())

    def info_text(self) -> str:
        """:meth:`info` as JSON: made again only when something it shows has changed (who
        sits and is connected, the match's number and whether it is over)."""
        game = self.game
        key = (
            game.rules,
            game.players,
            game.partnerships,
            self.match_number,
            game.is_over(),
            tuple(
                (state.level, state.nickname, state.token_hash is None, state.account_id)
                for state in self.seats
            ),
            frozenset(self.online() | self.replication.online_elsewhere(self.id)),
            self._clock_key(),
            self._abandoned,
            self.room_state.ended,
        )
        kept = self._info_text
        if kept is not None and kept[0] == key:
            return kept[1]
        text = self.info().model_dump_json()
        self._info_text = (key, text)
        return text

    def _clock_key(self) -> tuple[Any, ...] | None:
        """What the clocks' view is made from: their state, and the time to a tenth of a
        second while a turn's time runs (its seconds left are sent)."""
        clocks = self.room_state.clocks
        if clocks is None:
            return None
        running = None if clocks.deadline is None else round(self.ports.clock.wall(), 1)
        return (tuple(clocks.reserves), tuple(clocks.timeouts), clocks.turn, running)

    def _text(self, texts: StateTexts, seat: int | None) -> str:
        """The state message to ``seat`` (None: a spectator, shown the public view alone)."""
        return texts.spectator() if seat is None else texts.seat(self.game, seat)

    def state(self, client: Client) -> str:
        """The state message to ``connection`` now, as JSON (as :meth:`broadcast` sends)."""
        texts = StateTexts(self.info_text(), self.game.public_view(), None, False, self._history)
        return self._text(texts, client.seat)

    def broadcast(self, event: Event | TakeBack | None = None, hand_ended: bool = False) -> None:
        """Send every joined connection its seat's state, ``event`` having led to it. What
        every seat sees is encoded once; each seat's own part once however many connections
        that seat has. The room's lobby entry follows, and who has abandoned it."""
        self._track_presence()
        self._relist()
        joined = [client for client in self.clients if client.joined]
        if not joined:
            return
        texts = StateTexts(
            self.info_text(),
            self.game.public_view(),
            None if event is None else event_text(event),
            hand_ended,
            self._history,
        )
        sent: dict[int | None, str] = {}
        for client in joined:
            seat = client.seat
            text = sent.get(seat)
            if text is None:
                text = sent[seat] = self._text(texts, seat)
            client.send_serialised(text)

    # -- messages

    async def handle(self, client: Client, message: object) -> None:
        """Act on one client message; a refusal raises :class:`Refusal` and changes nothing."""
        self.last_active = self.ports.clock.now()
        current = self._rooms.setdefault(self.id, self)  # back in memory if let go
        if current is not self:  # let go and loaded again meanwhile: this copy is stale
            raise Refusal("room_reloaded", "the room was reloaded meanwhile: connect again")
        if isinstance(message, PingMessage):
            client.send(PongMessage())
        elif isinstance(message, JoinMessage | WatchMessage):
            await self._join(client, message)
        elif not client.joined:
            raise Refusal("not_joined", "send 'join' with your seat token (or 'watch') first")
        elif isinstance(message, HintRequest):
            self._ask_hint(client, message)
        elif isinstance(message, SayMessage):
            await self._say(client, message)
        elif isinstance(
            message, PlayMessage | TakeBackMessage | RematchMessage | ReplaceMessage | ClaimMessage
        ):
            if self.replica:
                await self.replication.forward(self.id, client.seat, message)
                return
            try:
                await self.act(client.seat, message)
            except Refusal as refusal:
                # Lost to another process meanwhile (its fence moved on), nothing stored: the
                # new owner acts on it instead.
                if refusal.code != RESTARTING[0] or not self.replica:
                    raise
                await self.replication.forward(self.id, client.seat, message)
        else:  # pragma: no cover - the protocol's union is exhaustive
            raise Refusal("bad_message", f"unknown message {message!r}")

    async def act(self, seat: int | None, message: Intention) -> None:
        """Act on an intention of ``seat`` (None: a spectator), whichever process's
        connection sent it; only the owner acts."""
        if self.replica:
            raise Refusal(*RESTARTING)
        if isinstance(message, PlayMessage):
            await self._play(seat, message)
        elif isinstance(message, TakeBackMessage):
            await self._take_back(seat)
        elif isinstance(message, RematchMessage):
            await self._rematch(seat)
        elif isinstance(message, ReplaceMessage):
            await self._give_seat(seat, message)
        else:
            await self._claim(seat)

    async def _join(self, client: Client, message: JoinMessage | WatchMessage) -> None:
        if client.joined:
            raise Refusal("already_joined", "this connection has already joined the room")
        seat: int | None = None
        if isinstance(message, JoinMessage):
            matches = [
                index
                for index, state in enumerate(self.seats)
                if token_matches(message.token, state.token_hash)
            ]
            if not matches and self.replication.several:
                await self.read_seats()  # a seat taken through another process
                matches = [
                    index
                    for index, state in enumerate(self.seats)
                    if token_matches(message.token, state.token_hash)
                ]
            if not matches:
                raise Refusal("bad_token", "this seat token belongs to no seat in this room")
            seat = matches[0]
        # Under the lock: a move being stored is not shown to anyone before it is stored, and
        # joins arriving together are counted one after another against the limits.
        async with self.lock:
            self._check_room_for(seat)
            client.seat = seat
            client.joined = True
            self.clients.add(client)
            client.send(WelcomeMessage(seat=seat, room=self.info()))
            if seat is None:
                client.send_serialised(self.state(client))  # nobody else's changed
            else:
                self.broadcast()  # everybody sees who is connected now
                self.replication.presence_changed(self.id)
            for said in self._talk:
                client.send_serialised(said)

    def _check_room_for(self, seat: int | None) -> None:
        """Refuse a connection for ``seat`` (None: a spectator) past the room's limits."""
        limits = self.ports.limits
        if seat is not None:
            open_here = sum(c.seat == seat for c in self.clients)
            if open_here >= limits.connections_per_seat:
                raise Refusal(
                    "too_many_connections",
                    f"seat {seat} already has {open_here} connections open "
                    f"(at most {limits.connections_per_seat}); close one first",
                )
        else:
            watching = sum(c.seat is None for c in self.clients)
            if watching >= limits.spectators_per_room:
                raise Refusal(
                    "too_many_spectators",
                    f"this room already has {watching} spectators, the most it takes",
                )

    async def read_seats(self) -> None:
        """The seats as stored (someone joined through another process)."""
        self.room_state.take_seats(await self.ports.store.seats(self.id))

    def leave(self, client: Client) -> None:
        self.last_active = self.ports.clock.now()
        client.close()
        if client in self.clients:
            self.clients.discard(client)
            if client.joined and client.seat is not None:
                self._in_background(self._broadcast_locked())
                self.replication.presence_changed(self.id)

    def _in_background(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _broadcast_locked(self) -> None:
        async with self.lock:
            self.broadcast()

    async def _play(self, seat: int | None, message: PlayMessage) -> None:
        async with self.lock:
            game = self.game
            if self.room_state.over:
                raise Refusal("match_over", "the match is over: start a rematch to play again")
            if seat is None:
                raise Refusal("not_seated", "spectators cannot play")
            if game.to_move != seat:
                raise Refusal(
                    "not_your_turn", f"it is seat {game.to_move}'s turn, not yours ({seat})"
                )
            try:
                move = parse_move(message.card, message.captures)
            except InvalidCardError as error:
                raise Refusal("bad_card", str(error)) from None
            except InvalidMoveError as error:  # e.g. a card that takes itself
                raise Refusal("illegal_move", str(error)) from None
            await self._apply(move_seat=seat, move=move)
        self.wake_computers()

    async def _apply(self, *, move_seat: int, move: Move, timed_out: bool = False) -> None:
        """Play a move, store it durably, then tell everybody (lock held). A person's illegal
        move is refused (the engine names why) and changes nothing; a move storage refuses
        is undone, so memory and storage agree, and refused as ``storage_failed``. With a
        clock, the mover's time stops and the next person's runs, stored with the move;
        ``timed_out``: the server played it, the seat's time having run out."""
        if self.replica:  # the room was lost to another process meanwhile
            raise Refusal(*RESTARTING)
        state = self.room_state
        saved = state.save()
        applied = state.apply(MoveChange(move_seat, move))
        assert isinstance(applied.event, Play), "a move's event is its Play"
        clocks = state.clocks
        if clocks is not None:
            now = self.ports.clock.wall()
            if state.match.is_person(move_seat):
                clocks.moved(move_seat, now, timed_out=timed_out)
            self._run_clock(now)
        write = MoveWrite.of(
            state.match_id,
            applied.first,
            applied.hand,
            applied.event,
            state.game,
            state.hands_stored,
            fence=self.replication.fence(self.id),
            clock=None if clocks is None else clocks.to_dict(),
        )
        await self._store(saved, "a move", self.ports.store.write(write))
        state.hands_stored += len(write.hands)
        await self._tell(applied)
        self.broadcast(applied.event, applied.hand_ended)
        self._schedule_clock()

    # -- the clock

    def _run_clock(self, now: float) -> bool:
        """Run the clock of the seat to move, if a person's and every person seat is taken
        (a table starts once full); else nobody's. Whether anything changed."""
        clocks = self.room_state.clocks
        if clocks is None:
            return False
        before = clocks.to_dict()
        seat = self.game.to_move
        full = all(state.level is not None or state.token_hash is not None for state in self.seats)
        going = self.room_state.ended is None
        if seat is not None and full and going and self.room_state.match.is_person(seat):
            clocks.start(seat, now)
        else:
            clocks.stop(now)
        return clocks.to_dict() != before

    async def clock_turn(self) -> None:
        """Start (or stop) the clock for the position as it is, outside a move: a table just
        full, a rematch, a take back. Stored, told to the other processes, then shown (lock
        held)."""
        state = self.room_state
        if state.clocks is None or self.replica or not self._run_clock(self.ports.clock.wall()):
            return
        clock = state.clocks.to_dict()
        await self.ports.store.set_clock(state.match_id, clock, self.replication.fence(self.id))
        await self.replication.tell(self.id, {"kind": "clock", "clock": clock})
        self._schedule_clock()

    def stop_waiting(self) -> None:
        """The room leaves memory: its deadline is enforced when it is loaded again, and its
        absent players' grace periods counted again."""
        for task in (self._clock_task, self._grace_task):
            if task is not None:
                task.cancel()
        self._clock_task = self._grace_task = None

    def wake_clock(self) -> None:
        """Enforce the stored deadline (a room just loaded or taken over: the deadline may
        have passed while no process held it, and the timeout is played at once)."""
        self._schedule_clock()

    def _schedule_clock(self) -> None:
        task = self._clock_task
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        self._clock_task = None
        clocks = self.room_state.clocks
        if clocks is None or clocks.deadline is None or clocks.turn is None or self.replica:
            return
        work = self._time_out(clocks.turn, clocks.deadline, self.position)
        self._clock_task = asyncio.get_running_loop().create_task(work)

    async def _time_out(self, seat: int, deadline: float, asked_at: tuple[int, int]) -> None:
        """At ``deadline``, if ``seat`` has still not moved, play for it (once: the position
        must be the one the deadline was set for, and the move is stored under the owner's
        fence like any other)."""
        clock = self.ports.clock
        failures = 0
        due = deadline
        while True:
            await clock.sleep(max(0.0, due - clock.wall()))
            async with self.lock:
                clocks = self.room_state.clocks
                if (
                    self.replica
                    or self.position != asked_at
                    or clocks is None
                    or (clocks.turn, clocks.deadline) != (seat, deadline)
                ):
                    return
                move = timeout_move(self.game.legal_moves())
                try:
                    await self._apply(move_seat=seat, move=move, timed_out=True)
                except Refusal:  # storage failed; the move was taken back: try again
                    failures += 1
                else:
                    for client in self.clients:
                        if client.joined:
                            client.send(TimeoutMessage(seat=seat, timeouts=clocks.timeouts[seat]))
                    break
            due = clock.wall() + self.ports.timings.storage_retry(failures)
        self.wake_computers()

    async def _store(self, saved: Saved, what: str, writing: Coroutine[Any, Any, None]) -> None:
        """Await a write of what was applied since ``saved``; if storage refuses it, go back
        to ``saved`` and refuse (``storage_failed``; ``restarting`` when another process owns
        the room now)."""
        try:
            await writing
        except Exception as error:
            log.warning("room %s: %s could not be stored (%s)", self.id, what, error)
            self.room_state.restore(saved)
            if isinstance(error, StaleFence):
                raise self._lost() from None
            raise Refusal("storage_failed", f"{what} could not be stored; try again", 503) from None

    async def _tell(self, applied: Applied) -> None:
        """Tell the other processes of what was applied and stored."""
        number, texts = applied.first, [text for _, text in applied.stored]
        if isinstance(applied.event, TakeBack):
            event: dict[str, Any] = {"kind": "take_back", "count": len(texts)}
        else:
            event = {"kind": "move", "move": texts[0]}
        clocks = self.room_state.clocks
        if clocks is not None:
            event["clock"] = clocks.to_dict()
        await self.replication.tell(
            self.id, {**event, "match": self.room_state.match_id, "number": number}
        )

    def _lost(self) -> Refusal:
        """The room's fence moved on to another process's token and nothing was stored:
        follow that owner from now on; the refusal to raise."""
        self.replication.lost(self.id)
        return Refusal(*RESTARTING)

    async def _take_back(self, seat: int | None) -> None:
        """Take back the person's last move of the hand and the computer moves after it,
        store the take backs (all or none), then show everybody the position: the person's
        turn, so the computers wait. A computer's search under way is dropped, as its
        position is gone."""
        async with self.lock:
            if seat is None:
                raise Refusal("not_seated", "spectators cannot take back moves")
            state = self.room_state
            if not state.takes_back(seat):
                raise Refusal(
                    "not_against_computers",
                    "moves are taken back only in a room where every other seat is a computer",
                )
            if state.over:
                raise Refusal("match_over", "the match is over: no move can be taken back")
            saved = state.save()
            applied = state.apply(TakeBackChange(seat))
            fence = self.replication.fence(self.id)
            writes = [
                MoveWrite(
                    state.match_id, applied.first + index, applied.hand, by, text, fence=fence
                )
                for index, (by, text) in enumerate(applied.stored)
            ]
            await self._store(saved, "the take back", self.ports.store.write_all(writes))
            await self._tell(applied)
            assert isinstance(applied.event, TakeBack), "a take back's event is the last taken"
            self.broadcast(applied.event)
            with contextlib.suppress(Refusal):  # the clock starts at the next move else
                await self.clock_turn()

    # -- seats nobody abandons

    def _track_presence(self) -> None:
        """Note when each taken person seat lost its last connection (or was back), and
        wait for the end of the grace period of the first one away (the owner does)."""
        if self.replica:
            return
        online = self.online() | self.replication.online_elsewhere(self.id)
        now = self.ports.clock.now()
        for seat, state in enumerate(self.seats):
            if state.level is not None or state.token_hash is None or seat in online:
                self._away_since.pop(seat, None)
            else:
                self._away_since.setdefault(seat, now)
        abandoned = self._find_abandoned(now)
        if abandoned != self._abandoned:
            self._abandoned = abandoned
            self._in_background(
                self.replication.tell(self.id, {"kind": "abandoned", "seats": sorted(abandoned)})
            )
        waiting = [since for seat, since in self._away_since.items() if seat not in self._abandoned]
        wake = None
        if waiting and not self.room_state.over:
            wake = min(waiting) + self.ports.timings.abandon_after
        task = self._grace_task
        if task is not None and not task.done() and task is not asyncio.current_task():
            if wake == self._grace_wake:
                return  # the wait under way is the one wanted (a move changes no absence)
            task.cancel()
        self._grace_task, self._grace_wake = None, wake
        if wake is not None:
            self._grace_task = asyncio.get_running_loop().create_task(self._after_grace(wake))

    def _find_abandoned(self, now: float) -> frozenset[int]:
        """Taken person seats gone longer than the grace period, or timed out three times
        in a row (nobody abandons a match that is over)."""
        if self.room_state.over:
            return frozenset()
        grace = self.ports.timings.abandon_after
        clocks = self.room_state.clocks
        return frozenset(
            seat
            for seat, state in enumerate(self.seats)
            if state.level is None
            and state.token_hash is not None
            and (
                now - self._away_since.get(seat, now) >= grace
                or (clocks is not None and clocks.timeouts[seat] >= TIMEOUTS_TO_ABANDON)
            )
        )

    async def _after_grace(self, wake: float) -> None:
        clock = self.ports.clock
        await clock.sleep(max(0.0, wake - clock.now()))
        async with self.lock:
            self.broadcast()  # shows who is abandoned now

    def follow_abandoned(self, seats: object) -> None:
        """The seats abandoned, as the owner said (a replica)."""
        if isinstance(seats, list):
            self._abandoned = frozenset(seat for seat in seats if isinstance(seat, int))
            self.broadcast()

    def _check_deciding(self, seat: int | None) -> int:
        """``seat`` may decide for an abandoned seat: a person at the table, not gone."""
        if seat is None:
            raise Refusal("not_seated", "spectators cannot decide for an abandoned seat")
        if self.room_state.over:
            raise Refusal("match_over", "the match is over")
        if seat in self._abandoned:
            raise Refusal("not_seated", "your own seat was abandoned: play a move to come back")
        return seat

    async def _give_seat(self, seat: int | None, message: ReplaceMessage) -> None:
        """A computer takes a seat its person abandoned; the match goes on."""
        async with self.lock:
            self._check_deciding(seat)
            target = message.seat
            if target >= len(self.seats) or target not in self._abandoned:
                raise Refusal(
                    "not_abandoned",
                    f"seat {target} is not abandoned: its player may still come back",
                )
            state = self.room_state
            await self.ports.store.give_seat(
                self.id, state.match_id, target, message.level, self.replication.fence(self.id)
            )
            state.give_seat(target, message.level)
            self._away_since.pop(target, None)
            await self.replication.tell(self.id, {"kind": "seats"})
            with contextlib.suppress(Refusal):
                await self.clock_turn()
            self.broadcast()
        self.wake_computers()

    async def _claim(self, seat: int | None) -> None:
        """End the match, won by ``seat``'s side: every person of the other sides abandoned
        it (computers there do not count as someone left)."""
        async with self.lock:
            mine = self._check_deciding(seat)
            game = self.game
            side = next(index for index, side in enumerate(game.sides) if mine in side)
            others = [other for other in range(len(self.seats)) if other not in game.sides[side]]
            people = [other for other in others if self.seats[other].level is None]
            if not people or any(other not in self._abandoned for other in people):
                raise Refusal(
                    "nobody_left",
                    "a match is claimed only when every person on the other side has left it",
                )
            state = self.room_state
            await self.ports.store.end_match(
                state.match_id,
                side,
                list(game.totals),
                "abandoned",
                self.replication.fence(self.id),
                people,
            )
            state.ended = side
            if state.clocks is not None:
                state.clocks.stop(self.ports.clock.wall())
            self._schedule_clock()
            await self.replication.tell(self.id, {"kind": "ended", "winner": side})
            self.broadcast()

    def follow_end(self, winner: object) -> None:
        """The owner ended the match: claimed by side ``winner`` (a replica)."""
        if isinstance(winner, int):
            self.room_state.ended = winner
            self.broadcast()

    # -- table talk

    async def _say(self, client: Client, message: SayMessage) -> None:
        """Say a quick phrase (any table) or a line of text (a private table) to everybody
        at the table, spectators too, and to the other processes' connections."""
        seat = client.seat
        if seat is None:
            raise Refusal("not_seated", "spectators read the table talk but do not write")
        text = None
        if message.text is not None:
            if self.room_state.table.listed:
                raise Refusal(
                    "no_free_text",
                    "at an open table, talk with the quick phrases; free text is for private "
                    "tables, among people who share their link",
                )
            text = clean_line(message.text, MAX_TALK)
            if text is None:
                raise Refusal("bad_text", "say something visible")
        limits = self.ports.limits
        rate = self._talk_rates.setdefault(
            seat, TokenBucket(1 / limits.talk_seconds, limits.talk_burst)
        )
        if not rate.allow():
            raise Refusal(
                "talk_too_fast",
                f"at most {limits.talk_burst} messages at once, then one every "
                f"{limits.talk_seconds:g} seconds; wait a moment",
            )
        said = SaidMessage(
            seat=seat, nickname=self.seats[seat].nickname, phrase=message.phrase, text=text
        )
        self.hear(said)
        await self.replication.tell(self.id, {"kind": "said", "said": said.model_dump()})

    def hear(self, said: SaidMessage) -> None:
        """Show what was said at the table (here, or through another process)."""
        self._talk.append(said.model_copy(update={"earlier": True}).model_dump_json())
        text = said.model_dump_json()
        for client in self.clients:
            if client.joined:
                client.send_serialised(text)

    # -- hints

    def _check_hint(self, client: Client) -> int:
        if client.seat is None:
            raise Refusal("not_seated", "spectators get no hints")
        if self.game.to_move != client.seat:
            raise Refusal("not_your_turn", "hints are given when it is your turn")
        return client.seat

    def _ask_hint(self, client: Client, message: HintRequest) -> None:
        """Start working out a hint, one at a time per seat however many connections it
        has, and a few a minute at most; it is sent beside the connection's other
        messages."""
        seat = self._check_hint(client)
        pending = self._hints.get(seat)
        if pending is not None and not pending.done():
            raise Refusal("hint_pending", "a hint is being worked out; wait for it")
        limits = self.ports.limits
        rate = self._hint_rates.setdefault(seat, TokenBucket(1 / limits.hint_seconds, 3))
        if not rate.allow():
            raise Refusal(
                "hint_too_soon",
                f"hints come at most one every {limits.hint_seconds:g} seconds; wait a moment",
            )
        task = asyncio.get_running_loop().create_task(self._hint(client, message, seat))
        self._hints[seat] = task

    async def _hint(self, client: Client, message: HintRequest, seat: int) -> None:
        async with self.lock:  # the position as stored, not one halfway through a move
            try:
                self._check_hint(client)  # again: a move may have been made meanwhile
            except Refusal as refusal:
                client.send(refusal.to_message())
                return
            observation = self.game.observation(seat)
            asked_at = self.position
            seed = self.room_state.match.seed ^ self.room_state.moves_stored
        try:
            advice = await self.ports.thinkers.advise(seed, observation, self.id)
        except Busy:
            client.send(
                ErrorMessage(code="busy", message="the coach is busy; ask again in a moment")
            )
            return
        if self.position != asked_at:
            return  # the position moved on meanwhile: old advice would mislead
        client.send(
            HintReply(
                moves=[
                    HintMove(
                        move=move_view(item.move),
                        gain=round(item.gain, 3),
                        loss=round(item.loss, 3),
                        text=_advice_text(item, message.language, message.deck),
                    )
                    for item in advice.ranked
                ]
            )
        )

    # -- rematch

    async def _rematch(self, seat: int | None) -> None:
        async with self.lock:
            if seat is None:
                raise Refusal("not_seated", "spectators cannot start a rematch")
            if not self.room_state.over:
                raise Refusal("match_not_over", "a rematch starts once the match is over")
            old = self.game
            seed = new_seed()
            game = Game(old.rules, old.players, old.partnerships, seed=seed)
            try:
                match_id = await self.ports.store.new_match(
                    self.id, self.match_number + 1, game, seed, self.replication.fence(self.id)
                )
            except StaleFence:
                raise self._lost() from None
            self.room_state.apply(NewMatch(match_id, game, seed))  # stored: nothing to undo
            await self.replication.tell(self.id, {"kind": "match"})
            self.broadcast()
            with contextlib.suppress(Refusal):  # the clock starts at the next move else
                await self.clock_turn()
        self.wake_computers()

    # -- computer players

    def wake_computers(self) -> None:
        """Make sure the computer players move when it is their turn."""
        if self.replica or self.room_state.ended is not None:
            return  # the owner's computers play; a claimed match is over
        seat = self.game.to_move
        if seat is None or self.room_state.match.is_person(seat):
            return  # nobody's turn, or a person's: no task to start (each move wakes again)
        if self._computers is None or self._computers.done():
            self._computers = asyncio.get_running_loop().create_task(self._run_computers())

    async def _run_computers(self) -> None:
        """Play the computer seats' turns. The search runs in a worker, not under the lock
        (people may join, watch or ask meanwhile); its move is applied only if nothing was
        played in between. Every move takes the same pause however long its search took, so
        the pause tells nothing of the computer's hand. A move storage refuses is tried
        again, later and later, until storage works."""
        failures = 0
        while not self.replica and self.room_state.ended is None:
            seat = self.game.to_move
            match = self.room_state.match
            if seat is None or match.is_person(seat):
                return
            turn = match.computer_turn()
            asked_at = self.position
            clock = self.ports.clock
            started = clock.now()
            move = await self.ports.thinkers.choose(turn, self.id)
            await clock.sleep(max(0.0, self.ports.pace - (clock.now() - started)))
            async with self.lock:
                if self.position != asked_at:
                    continue  # a rematch or a reload meanwhile: think again
                try:
                    await self._apply(move_seat=seat, move=move)
                except Refusal:  # storage failed; the move was taken back
                    failures += 1
                else:
                    failures = 0
                    continue
            await self.ports.store.back(self.ports.timings.storage_retry(failures))

    async def close(self) -> None:
        tasks = [
            task
            for task in (
                self._computers,
                self._clock_task,
                self._grace_task,
                *self._hints.values(),
            )
            if task is not None
        ]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for client in list(self.clients):
            client.close()


def _advice_text(advice: MoveAdvice, language: str, deck: DeckStyle) -> str:
    """The coach's verdict and reasons, every card named in the reader's deck and language
    (``escoba.ai.coach.advice_sentence``): never "the 7 of coins" beside "7 de oros"."""
    return advice.text(language, deck)
