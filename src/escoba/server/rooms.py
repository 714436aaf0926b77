"""Rooms: the live matches, their seats and connections, and the computer players' turns.

The server is authoritative. A room holds the match (a :class:`~escoba.play.session.Session`
rebuilt from storage when needed); every intention from a connection is checked by the engine
under the room's lock, stored, and only then sent out, each connection receiving its own
seat's view. Computer seats and hints are worked out in worker processes, outside the lock;
a computer's move is applied only if the position is still the one it was chosen for.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Coroutine, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..ai.coach import MoveAdvice
from ..cards import DeckStyle
from ..errors import EscobaError, IllegalMoveError, InvalidCardError, InvalidMoveError, RulesError
from ..game import Game
from ..moves import Move
from ..observation import Event, TakeBack
from ..play.session import Session, SessionError
from ..records import TAKE_BACK
from ..rules import RULESETS, RuleSet, preset_name
from .computers import Busy
from .connections import Connection, TokenBucket
from .errors import RESTARTING, Refusal, StaleFence
from .protocol import (
    ErrorMessage,
    HintMove,
    HintReply,
    HintRequest,
    JoinMessage,
    PingMessage,
    PlayMessage,
    PongMessage,
    RematchMessage,
    RoomInfo,
    SeatInfo,
    TakeBackMessage,
    WatchMessage,
    WelcomeMessage,
    move_view,
    parse_move,
)
from .storage import MoveWrite, SeatRow, StoredRoom, token_matches
from .wire import HandHistory, StateTexts, event_text

if TYPE_CHECKING:
    from .hub import Hub

__all__ = ["Room", "SeatState"]

log = logging.getLogger("escoba.server")


@dataclass
class SeatState:
    level: str | None
    nickname: str | None = None
    token_hash: str | None = None


class Room:
    """A room: seats, the current match, its connections and the computer players' task."""

    def __init__(
        self,
        hub: Hub,
        room_id: str,
        seats: list[SeatState],
        session: Session,
        match_id: int,
        match_number: int,
    ) -> None:
        self.hub = hub
        self.id = room_id
        self.seats = seats
        self.match_number = match_number
        self.play_on(session, match_id)
        self.lock = asyncio.Lock()
        self.connections: set[Connection] = set()
        self._computers: asyncio.Task[None] | None = None
        self._background: set[asyncio.Task[None]] = set()
        self._hints: dict[int, asyncio.Task[None]] = {}
        """The hint being worked out for each seat, if any."""
        self._hint_rates: dict[int, TokenBucket] = {}
        self.last_active = hub.clock.now()
        self.claimed_at: float | None = None
        """When its seat was last handed out: its person is on the way (in use meanwhile)."""
        # Several processes (``escoba serve --redis``): the owner applies the moves under its
        # lease's fencing token; a replica follows them and asks the owner to play.
        self.fence: int | None = None
        """The owner's fencing token (None: one process serves the site, or a replica)."""
        self.replica = False
        """Another process owns the room: this one follows its moves."""
        self.remote_online: set[int] = set()
        """Seats with a connection on another process."""
        self.presence_changed = False
        """Its connections changed since this process last told the others."""
        self.held_back: list[Mapping[str, Any]] | None = None
        """The owner's events heard while the room is read again (then followed)."""
        self._info_text: tuple[tuple[Any, ...], str] | None = None
        """The room's info as JSON, with what it was made from: sent again while that holds."""
        self._history = HandHistory()
        """The current hand's events as JSON, extended move by move."""

    def online(self) -> set[int]:
        """The seats with a joined connection on this process."""
        return {c.seat for c in self.connections if c.joined and c.seat is not None}

    @property
    def computer_seats(self) -> int:
        return sum(state.level is not None for state in self.seats)

    def in_use(self) -> bool:
        """Someone is connected (here, or elsewhere to its owner), its computers are
        playing, or a seat was just handed out: its computer seats take capacity."""
        playing = self._computers is not None and not self._computers.done()
        return (
            bool(self.connections)
            or (bool(self.remote_online) and not self.replica)
            or playing
            or (
                self.claimed_at is not None
                and self.hub.clock.now() - self.claimed_at < self.hub.timings.claim
            )
        )

    def idle(self) -> bool:
        """Nobody connected (here or, to its owner, on another process) and nothing going
        on: the room may leave memory."""
        busy = self._computers is not None and not self._computers.done()
        return (
            not self.connections
            and not (self.remote_online and not self.replica)
            and not busy
            and not self._background
            and not self.lock.locked()
        )

    def play_on(self, session: Session, match_id: int) -> None:
        """Play ``session``'s match, stored as ``match_id``: what is stored already follows
        from its record."""
        hands = session.game.record()["hands"]
        self.session = session
        self.match_id = match_id
        self.hands_stored = len(hands)
        self.moves_stored = sum(len(hand["moves"]) for hand in hands)

    @property
    def game(self) -> Game:
        return self.session.game

    def reload(self, stored: StoredRoom) -> None:
        """Take the room as stored: its seats and its latest match. The moves stored beyond
        those held, in the same match, are followed one by one, so that every connection is
        shown each as a move (a room read again, or taken over); anything else is taken as
        it is and shown as a new position."""
        self.take_seats(stored.seats)  # a room's seats and their kinds never change
        if self._catch_up(stored):
            self.play_on(self.session, self.match_id)  # the hands stored, counted again
        else:
            self.match_number = stored.match.number
            self.play_on(session_of(stored.game, self.seats, stored.match.seed), stored.match.id)
        self.broadcast()

    def _catch_up(self, stored: StoredRoom) -> bool:
        if stored.match.id != self.match_id:
            return False
        played = [text for hand in stored.game.record()["hands"] for text in hand["moves"]]
        if len(played) < self.moves_stored:
            return False
        for number in range(self.moves_stored, len(played)):
            text = played[number]
            event: dict[str, Any] = (
                {"kind": "take_back", "count": 1}
                if text == TAKE_BACK
                else {"kind": "move", "move": text}
            )
            if not self.follow({**event, "match": self.match_id, "number": number}):
                return False
        return True

    def take_seats(self, rows: Sequence[SeatRow]) -> None:
        """The seats' nicknames and tokens as stored (people join through any process)."""
        for state, row in zip(self.seats, rows, strict=False):
            state.nickname = row.nickname
            state.token_hash = row.token_hash

    def follow(self, event: Mapping[str, Any]) -> bool:
        """Play a move or take backs the owner published (a replica) and show them; False
        when they do not follow from what this replica holds (one was missed, or another
        match began): the room must be read again. The hands stored are not counted here:
        a replica that takes the room over reads it again first."""
        number = event.get("number")
        if event.get("match") != self.match_id or not isinstance(number, int):
            return False
        if number < self.moves_stored:
            return True  # known already (heard while the room was read)
        if number > self.moves_stored:
            return False
        try:
            if event.get("kind") == "move":
                move = Move.parse(str(event.get("move")))
                seat = self.game.to_move
                if seat is None:
                    return False
                played = (
                    self.session.play(move)
                    if self.session.is_person(seat)
                    else self.session.advance(move)
                )
                if played is None:  # pragma: no cover - the seat was checked
                    return False
                self.moves_stored += 1
                self.broadcast(played.event, played.hand_ended)
            elif event.get("kind") == "take_back":
                count = event.get("count")
                if not isinstance(count, int) or count < 1:
                    return False
                taken = [self.game.take_back() for _ in range(count)]
                self.moves_stored += count
                self.broadcast(taken[-1])
            else:
                return False
        except EscobaError as error:
            log.warning("room %s: an event of its owner does not follow (%s)", self.id, error)
            return False
        return True

    @property
    def position(self) -> tuple[int, int]:
        """Which match and how far into it: a search's answer is for this position only."""
        return (self.match_id, self.moves_stored)

    # -- views

    def info(self) -> RoomInfo:
        game = self.game
        online = self.online() | self.remote_online
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
                )
                for seat, state in enumerate(self.seats)
            ],
            match_number=self.match_number,
            status="over" if game.is_over() else "playing",
        )

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
            tuple((state.level, state.nickname, state.token_hash is None) for state in self.seats),
            frozenset(self.online() | self.remote_online),
        )
        kept = self._info_text
        if kept is not None and kept[0] == key:
            return kept[1]
        text = self.info().model_dump_json()
        self._info_text = (key, text)
        return text

    def _text(self, texts: StateTexts, seat: int | None) -> str:
        """The state message to ``seat`` (None: a spectator, shown the public view alone)."""
        return texts.spectator() if seat is None else texts.seat(self.game, seat)

    def state(self, connection: Connection) -> str:
        """The state message to ``connection`` now, as JSON (as :meth:`broadcast` sends)."""
        texts = StateTexts(self.info_text(), self.game.public_view(), None, False, self._history)
        return self._text(texts, connection.seat)

    def broadcast(self, event: Event | TakeBack | None = None, hand_ended: bool = False) -> None:
        """Send every joined connection its seat's state, ``event`` having led to it. What
        every seat sees is encoded once; each seat's own part once however many connections
        that seat has."""
        joined = [connection for connection in self.connections if connection.joined]
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
        for connection in joined:
            seat = connection.seat
            text = sent.get(seat)
            if text is None:
                text = sent[seat] = self._text(texts, seat)
            connection.send_serialised(text)

    # -- messages

    async def handle(self, connection: Connection, message: object) -> None:
        """Act on one client message; a refusal raises :class:`Refusal` and changes nothing."""
        self.last_active = self.hub.clock.now()
        current = self.hub.rooms.setdefault(self.id, self)  # back in memory if let go
        if current is not self:  # let go and loaded again meanwhile: this copy is stale
            raise Refusal("room_reloaded", "the room was reloaded meanwhile: connect again")
        if isinstance(message, PingMessage):
            connection.send(PongMessage())
        elif isinstance(message, JoinMessage | WatchMessage):
            await self._join(connection, message)
        elif not connection.joined:
            raise Refusal("not_joined", "send 'join' with your seat token (or 'watch') first")
        elif isinstance(message, HintRequest):
            self._ask_hint(connection, message)
        elif isinstance(message, PlayMessage | TakeBackMessage | RematchMessage):
            site = self.hub.site
            if self.replica and site is not None:
                await site.forward(self, connection.seat, message)
                return
            try:
                await self.act(connection.seat, message)
            except Refusal as refusal:
                # Lost to another process meanwhile (its fence moved on), nothing stored: the
                # new owner acts on it instead.
                if refusal.code != RESTARTING[0] or not self.replica or site is None:
                    raise
                await site.forward(self, connection.seat, message)
        else:  # pragma: no cover - the protocol's union is exhaustive
            raise Refusal("bad_message", f"unknown message {message!r}")

    async def act(
        self, seat: int | None, message: PlayMessage | TakeBackMessage | RematchMessage
    ) -> None:
        """Act on an intention of ``seat`` (None: a spectator), whichever process's
        connection sent it; only the owner acts."""
        if self.replica:
            raise Refusal(*RESTARTING)
        if isinstance(message, PlayMessage):
            await self._play(seat, message)
        elif isinstance(message, TakeBackMessage):
            await self._take_back(seat)
        else:
            await self._rematch(seat)

    async def _join(self, connection: Connection, message: JoinMessage | WatchMessage) -> None:
        if connection.joined:
            raise Refusal("already_joined", "this connection has already joined the room")
        seat: int | None = None
        if isinstance(message, JoinMessage):
            matches = [
                index
                for index, state in enumerate(self.seats)
                if token_matches(message.token, state.token_hash)
            ]
            if not matches and self.hub.site is not None:
                await self.hub.read_seats(self)  # a seat taken through another process
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
            connection.seat = seat
            connection.joined = True
            self.connections.add(connection)
            connection.send(WelcomeMessage(seat=seat, room=self.info()))
            if seat is None:
                connection.send_serialised(self.state(connection))  # nobody else's changed
            else:
                self.broadcast()  # everybody sees who is connected now
                self.hub.share_presence(self)

    def _check_room_for(self, seat: int | None) -> None:
        """Refuse a connection for ``seat`` (None: a spectator) past the room's limits."""
        limits = self.hub.limits
        if seat is not None:
            open_here = sum(c.seat == seat for c in self.connections)
            if open_here >= limits.connections_per_seat:
                raise Refusal(
                    "too_many_connections",
                    f"seat {seat} already has {open_here} connections open "
                    f"(at most {limits.connections_per_seat}); close one first",
                )
        else:
            watching = sum(c.seat is None for c in self.connections)
            if watching >= limits.spectators_per_room:
                raise Refusal(
                    "too_many_spectators",
                    f"this room already has {watching} spectators, the most it takes",
                )

    def leave(self, connection: Connection) -> None:
        self.last_active = self.hub.clock.now()
        connection.close()
        if connection in self.connections:
            self.connections.discard(connection)
            if connection.joined and connection.seat is not None:
                self._in_background(self._broadcast_locked())
                self.hub.share_presence(self)

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
            if game.is_over():
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

    async def _apply(self, *, move_seat: int, move: Move) -> None:
        """Play a move, store it durably, then tell everybody (lock held). A person's illegal
        move is refused (the engine names why) and changes nothing; a move storage refuses
        is taken back, so memory and storage agree, and refused as ``storage_failed``."""
        game = self.game
        if self.replica:  # the room was lost to another process meanwhile
            raise Refusal(*RESTARTING)
        if self.session.is_person(move_seat):
            try:
                played = self.session.play(move)
            except IllegalMoveError as error:  # the engine names why; nothing was changed
                raise Refusal("illegal_move", str(error)) from None
        else:
            advanced = self.session.advance(move)
            if advanced is None:  # pragma: no cover - the caller checked the turn
                raise Refusal("not_your_turn", "no computer seat is to move")
            played = advanced
        number = self.moves_stored
        write = MoveWrite.of(
            self.match_id,
            number,
            played.hand_number,
            played.event,
            game,
            self.hands_stored,
            fence=self.fence,
        )
        try:
            await self.hub.writer.write(write)
        except Exception as error:
            log.warning("room %s: a move could not be stored (%s)", self.id, error)
            previous = without_last_move(game, played.hand_number)
            self.play_on(session_of(previous, self.seats, self.session.seed), self.match_id)
            if isinstance(error, StaleFence):
                raise self._lost() from None
            raise Refusal(
                "storage_failed", "the move could not be stored; try again", 503
            ) from None
        self.moves_stored = number + 1
        self.hands_stored += len(write.hands)
        await self.hub.tell(
            self,
            {"kind": "move", "match": self.match_id, "number": number, "move": str(played.move)},
        )
        self.broadcast(played.event, played.hand_ended)

    def _lost(self) -> Refusal:
        """The room's fence moved on to another process's token and nothing was stored:
        follow that owner from now on; the refusal to raise."""
        self.hub.lost(self)
        return Refusal(*RESTARTING)

    def takes_back(self, seat: int) -> bool:
        """Whether ``seat`` may take back moves: every other seat is a computer's."""
        return self.session.takes_back(seat)

    async def _take_back(self, seat: int | None) -> None:
        """Take back the person's last move of the hand and the computer moves after it,
        store the take backs (all or none), then show everybody the position: the person's
        turn, so the computers wait. A computer's search under way is dropped, as its
        position is gone."""
        async with self.lock:
            if seat is None:
                raise Refusal("not_seated", "spectators cannot take back moves")
            if not self.takes_back(seat):
                raise Refusal(
                    "not_against_computers",
                    "moves are taken back only in a room where every other seat is a computer",
                )
            if self.game.is_over():
                raise Refusal("match_over", "the match is over: no move can be taken back")
            before = self.game.copy()
            hand = self.game.hand_number
            try:
                taken = self.session.take_back()
            except SessionError as error:
                raise Refusal("nothing_to_take_back", str(error)) from None
            number = self.moves_stored
            writes = [
                MoveWrite(
                    self.match_id, number + index, hand, event.seat, TAKE_BACK, fence=self.fence
                )
                for index, event in enumerate(taken)
            ]
            try:
                await self.hub.writer.write_all(writes)
            except Exception as error:
                log.warning("room %s: a take back could not be stored (%s)", self.id, error)
                self.play_on(session_of(before, self.seats, self.session.seed), self.match_id)
                if isinstance(error, StaleFence):
                    raise self._lost() from None
                raise Refusal(
                    "storage_failed", "the take back could not be stored; try again", 503
                ) from None
            self.moves_stored = number + len(writes)
            await self.hub.tell(
                self,
                {
                    "kind": "take_back",
                    "match": self.match_id,
                    "number": number,
                    "count": len(writes),
                },
            )
            self.broadcast(taken[-1])

    # -- hints

    def _check_hint(self, connection: Connection) -> int:
        if connection.seat is None:
            raise Refusal("not_seated", "spectators get no hints")
        if self.game.to_move != connection.seat:
            raise Refusal("not_your_turn", "hints are given when it is your turn")
        return connection.seat

    def _ask_hint(self, connection: Connection, message: HintRequest) -> None:
        """Start working out a hint, one at a time per seat however many connections it
        has, and a few a minute at most; it is sent beside the connection's other
        messages."""
        seat = self._check_hint(connection)
        pending = self._hints.get(seat)
        if pending is not None and not pending.done():
            raise Refusal("hint_pending", "a hint is being worked out; wait for it")
        limits = self.hub.limits
        rate = self._hint_rates.setdefault(seat, TokenBucket(1 / limits.hint_seconds, 3))
        if not rate.allow():
            raise Refusal(
                "hint_too_soon",
                f"hints come at most one every {limits.hint_seconds:g} seconds; wait a moment",
            )
        task = asyncio.get_running_loop().create_task(self._hint(connection, message, seat))
        self._hints[seat] = task

    async def _hint(self, connection: Connection, message: HintRequest, seat: int) -> None:
        async with self.lock:  # the position as stored, not one halfway through a move
            try:
                self._check_hint(connection)  # again: a move may have been made meanwhile
            except Refusal as refusal:
                connection.send(refusal.to_message())
                return
            observation = self.game.observation(seat)
            asked_at = self.position
            seed = self.session.seed ^ self.moves_stored
        try:
            advice = await self.hub.thinkers.advise(seed, observation, self.id)
        except Busy:
            connection.send(
                ErrorMessage(code="busy", message="the coach is busy; ask again in a moment")
            )
            return
        if self.position != asked_at:
            return  # the position moved on meanwhile: old advice would mislead
        connection.send(
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
            if not self.game.is_over():
                raise Refusal("match_not_over", "a rematch starts once the match is over")
            old = self.game
            seed = new_seed()
            game = Game(old.rules, old.players, old.partnerships, seed=seed)
            try:
                match = await self.hub.stored(
                    self.hub.storage.new_match,
                    self.id,
                    self.match_number + 1,
                    game,
                    seed,
                    fence=self.fence,
                )
            except StaleFence:
                raise self._lost() from None
            self.play_on(session_of(game, self.seats, seed), match.id)
            self.match_number += 1
            await self.hub.tell(self, {"kind": "match"})
            self.broadcast()
        self.wake_computers()

    # -- computer players

    def wake_computers(self) -> None:
        """Make sure the computer players move when it is their turn."""
        if self.replica:
            return  # the owner's computers play
        seat = self.game.to_move
        if seat is None or self.session.is_person(seat):
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
        while not self.replica:
            seat = self.game.to_move
            if seat is None or self.session.is_person(seat):
                return
            turn = self.session.computer_turn()
            asked_at = self.position
            started = self.hub.clock.now()
            move = await self.hub.thinkers.choose(turn, self.id)
            await self.hub.clock.sleep(max(0.0, self.hub.pace - (self.hub.clock.now() - started)))
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
            await self.hub.storage_back(self.hub.timings.storage_retry(failures))

    async def close(self) -> None:
        tasks = [task for task in (self._computers, *self._hints.values()) if task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for connection in list(self.connections):
            connection.close()


def _advice_text(advice: MoveAdvice, language: str, deck: DeckStyle) -> str:
    """The coach's verdict and reasons, every card named in the reader's deck and language
    (``escoba.ai.coach.advice_sentence``): never "the 7 of coins" beside "7 de oros"."""
    return advice.text(language, deck)


def new_seed() -> int:
    return secrets.randbits(62)


def new_room_id() -> str:
    """128 random bits, URL-safe: a room is found by its link, never by guessing."""
    return secrets.token_urlsafe(16)


def new_token() -> str:
    """A seat token: 192 random bits; only its hash is stored."""
    return secrets.token_urlsafe(24)


def session_of(game: Game, seats: Sequence[SeatState], seed: int) -> Session:
    levels = [state.level for state in seats]
    person = next(seat for seat, level in enumerate(levels) if level is None)
    return Session(game, levels, person=person, seed=seed)


def rules_of(preset: str, options: dict[str, object]) -> RuleSet:
    if preset not in RULESETS:
        raise Refusal(
            "bad_rules", f"unknown rule set {preset!r}; the presets are {', '.join(RULESETS)}"
        )
    try:
        return RULESETS[preset].replace(**options)
    except (RulesError, TypeError) as error:
        raise Refusal("bad_rules", str(error)) from None


def without_last_move(game: Game, hand_number: int) -> Game:
    """``game`` as it was before its last move, played in hand ``hand_number``: rebuilt from
    its record (the decks are in it, so playing the move again deals the same cards)."""
    record = game.record()
    hands = record["hands"][: hand_number + 1]
    hands[-1]["moves"].pop()
    return Game.from_record({**record, "hands": hands})
