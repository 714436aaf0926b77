"""Rooms: the live matches, their seats and connections, and the computer players' turns.

The server is authoritative. A room holds the match (a :class:`~escoba.play.session.Session`
rebuilt from storage when needed); every intention from a connection is checked by the engine
under the room's lock, stored, and only then sent out, each connection receiving its own
seat's view. Computer seats think in a worker thread so the event loop stays free.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Final, Protocol

from pydantic import BaseModel

from ..ai.coach import Coach, MoveAdvice
from ..cards import DeckStyle
from ..errors import (
    EscobaError,
    IllegalMoveError,
    InvalidCardError,
    InvalidMoveError,
    RulesError,
)
from ..game import Game
from ..messages import Message
from ..moves import Move
from ..play.render import Words
from ..play.session import Session
from ..rules import RULESETS, RuleSet, preset_name
from .protocol import (
    MAX_NICKNAME,
    CreateRoom,
    ErrorMessage,
    EventView,
    HintMove,
    HintReply,
    HintRequest,
    JoinMessage,
    JoinRoom,
    MatchView,
    PingMessage,
    PlayMessage,
    PongMessage,
    RematchMessage,
    RoomInfo,
    SeatInfo,
    SeatTicket,
    StateMessage,
    WatchMessage,
    WelcomeMessage,
    match_view,
    move_view,
    parse_move,
    play_view,
)
from .storage import MoveWrite, Storage, hash_token, token_matches

__all__ = ["Connection", "Hub", "Refusal", "Room"]

log = logging.getLogger("escoba.server")

SEND_QUEUE: Final = 64
"""Messages waiting for a slow client before it is disconnected."""
IDLE_SECONDS: Final = 600.0
"""A room nobody is connected to leaves memory after this long (it stays in storage)."""
RATE_PER_SECOND: Final = 20.0
"""Messages a connection may send per second, on average..."""
RATE_BURST: Final = 40.0
"""...and at once after a quiet spell."""


class Refusal(Exception):  # noqa: N818 (a refusal is not a failure of the server)
    """An action refused with a code and a clear message; nothing was changed."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status

    def to_message(self) -> ErrorMessage:
        return ErrorMessage(code=self.code, message=self.message)


class Outlet(Protocol):
    """Where a connection's messages go (a WebSocket in the app, a list in tests)."""

    async def send_text(self, data: str) -> None: ...


@dataclass(eq=False)
class Connection:
    """One client connection: its seat once joined (None while watching or not yet joined)."""

    outlet: Outlet
    seat: int | None = None
    joined: bool = False
    queue: asyncio.Queue[str | None] = field(default_factory=lambda: asyncio.Queue(SEND_QUEUE))
    closed: bool = False
    hint: asyncio.Task[None] | None = None
    """The hint being worked out for this connection, if any."""
    _allowance: float = RATE_BURST
    _checked: float = field(default_factory=time.monotonic)

    def allow(self) -> bool:
        """Whether one more message is within the rate limit (a token bucket)."""
        now = time.monotonic()
        self._allowance = min(RATE_BURST, self._allowance + (now - self._checked) * RATE_PER_SECOND)
        self._checked = now
        if self._allowance < 1:
            return False
        self._allowance -= 1
        return True

    def refund(self) -> None:
        """Give back the allowance of a message that moved the game on: plays are bounded by
        the turns, so a quick player is never limited, only a flood of refused messages."""
        self._allowance = min(RATE_BURST, self._allowance + 1)

    def send(self, message: BaseModel) -> None:
        """Queue a message; a client too slow to keep up is dropped rather than waited for."""
        if not self.closed:
            self.send_serialised(message.model_dump_json())

    def send_serialised(self, data: str) -> None:
        """Queue a message already serialised to JSON (one text shared by many connections)."""
        if self.closed:
            return
        try:
            self.queue.put_nowait(data)
        except asyncio.QueueFull:
            self.close()

    def close(self) -> None:
        self.closed = True
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait(None)

    async def pump(self) -> None:
        """Send queued messages in order until closed."""
        while (data := await self.queue.get()) is not None:
            await self.outlet.send_text(data)


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
        self.last_active = time.monotonic()

    def idle(self) -> bool:
        """Nobody connected and nothing going on: the room may leave memory."""
        busy = self._computers is not None and not self._computers.done()
        return not self.connections and not busy and not self._background and not self.lock.locked()

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

    # -- views

    def info(self) -> RoomInfo:
        game = self.game
        online = {c.seat for c in self.connections if c.joined and c.seat is not None}
        return RoomInfo(
            id=self.id,
            invite=f"/room/{self.id}",
            preset=preset_name(game.rules),
            rules=game.rules.to_dict(),
            players=game.players,
            partnerships=game.partnerships,
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

    def view(self, connection: Connection) -> MatchView:
        if connection.seat is None:
            return match_view(self.game.observation(0), spectator=True)
        return match_view(self.game.observation(connection.seat))

    def broadcast(self, event: EventView | None = None, hand_ended: bool = False) -> None:
        """Send every joined connection its seat's state: each view is built and serialised
        once per seat (and once for all spectators), however many connections share it."""
        info = self.info()
        texts: dict[int | None, str] = {}
        for connection in list(self.connections):
            if connection.joined:
                text = texts.get(connection.seat)
                if text is None:
                    text = texts[connection.seat] = StateMessage(
                        room=info, match=self.view(connection), event=event, hand_ended=hand_ended
                    ).model_dump_json()
                connection.send_serialised(text)

    # -- messages

    async def handle(self, connection: Connection, message: object) -> None:
        """Act on one client message; a refusal raises :class:`Refusal` and changes nothing."""
        self.last_active = time.monotonic()
        current = self.hub.rooms.setdefault(self.id, self)  # back in memory if let go
        if current is not self:  # let go and loaded again meanwhile: this copy is stale
            raise Refusal("room_reloaded", "the room was reloaded meanwhile: connect again")
        if isinstance(message, PingMessage):
            connection.send(PongMessage())
        elif isinstance(message, JoinMessage | WatchMessage):
            await self._join(connection, message)
        elif not connection.joined:
            raise Refusal("not_joined", "send 'join' with your seat token (or 'watch') first")
        elif isinstance(message, PlayMessage):
            await self._play(connection, message)
        elif isinstance(message, HintRequest):
            # Worked out beside the connection's other messages, one at a time.
            if connection.hint is not None and not connection.hint.done():
                raise Refusal("hint_pending", "a hint is being worked out; wait for it")
            self._check_hint(connection)
            connection.hint = asyncio.get_running_loop().create_task(
                self._hint(connection, message)
            )
        elif isinstance(message, RematchMessage):
            await self._rematch(connection)
        else:  # pragma: no cover - the protocol's union is exhaustive
            raise Refusal("bad_message", f"unknown message {message!r}")

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
            if not matches:
                raise Refusal("bad_token", "this seat token belongs to no seat in this room")
            seat = matches[0]
        # Under the lock: a move being stored is not shown to anyone before it is stored.
        async with self.lock:
            connection.seat = seat
            connection.joined = True
            self.connections.add(connection)
            connection.send(WelcomeMessage(seat=seat, room=self.info()))
            self.broadcast()  # everybody sees who is connected now

    def leave(self, connection: Connection) -> None:
        self.last_active = time.monotonic()
        connection.close()
        if connection in self.connections:
            self.connections.discard(connection)
            if connection.joined and connection.seat is not None:
                task = asyncio.get_running_loop().create_task(self._broadcast_locked())
                self._background.add(task)
                task.add_done_callback(self._background.discard)

    async def _broadcast_locked(self) -> None:
        async with self.lock:
            self.broadcast()

    async def _play(self, connection: Connection, message: PlayMessage) -> None:
        async with self.lock:
            game = self.game
            if game.is_over():
                raise Refusal("match_over", "the match is over: start a rematch to play again")
            if connection.seat is None:
                raise Refusal("not_seated", "spectators cannot play")
            if game.to_move != connection.seat:
                raise Refusal(
                    "not_your_turn",
                    f"it is seat {game.to_move}'s turn, not yours ({connection.seat})",
                )
            try:
                move = parse_move(message.card, message.captures)
            except InvalidCardError as error:
                raise Refusal("bad_card", str(error)) from None
            except InvalidMoveError as error:  # e.g. a card that takes itself
                raise Refusal("illegal_move", str(error)) from None
            await self._apply(move_seat=connection.seat, move=move)
        self.wake_computers()

    async def _apply(self, *, move_seat: int, move: Move) -> None:
        """Play a move, store it durably, then tell everybody (lock held). A person's illegal
        move is refused (the engine names why) and changes nothing."""
        game = self.game
        if self.session.is_person(move_seat):
            try:
                played = self.session.play(move)
            except IllegalMoveError as error:  # the engine names why; nothing was changed
                raise Refusal("illegal_move", str(error)) from None
        else:
            advanced = self.session.advance(move)
            assert advanced is not None
            played = advanced
        number = self.moves_stored
        write = MoveWrite.of(
            self.match_id,
            number,
            played.hand_number,
            move_seat,
            str(played.move),
            game,
            self.hands_stored,
        )
        try:
            await self.hub.writer.write(write)
        except Exception:
            log.exception("storing a move failed in room %s; reloading it", self.id)
            await self.hub.reload(self)
            raise Refusal(
                "storage_failed", "the move could not be stored; try again", 503
            ) from None
        self.moves_stored = number + 1
        self.hands_stored += len(write.hands)
        event = play_view(played.seat, played.move.card, played.move.captures, played.sweep)
        self.broadcast(event, played.hand_ended)

    def _check_hint(self, connection: Connection) -> None:
        if connection.seat is None:
            raise Refusal("not_seated", "spectators get no hints")
        if self.game.to_move != connection.seat:
            raise Refusal("not_your_turn", "hints are given when it is your turn")

    async def _hint(self, connection: Connection, message: HintRequest) -> None:
        async with self.lock:  # the position as stored, not one halfway through a move
            try:
                self._check_hint(connection)
            except Refusal as refusal:
                connection.send(refusal.to_message())
                return
            assert connection.seat is not None
            observation = self.game.observation(connection.seat)
            asked_at = (self.match_id, self.moves_stored)
            coach = Coach(seed=self.session.seed ^ self.moves_stored)
        advice = await asyncio.to_thread(coach.advise, observation)
        if (self.match_id, self.moves_stored) != asked_at:
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

    async def _rematch(self, connection: Connection) -> None:
        async with self.lock:
            if connection.seat is None:
                raise Refusal("not_seated", "spectators cannot start a rematch")
            if not self.game.is_over():
                raise Refusal("match_not_over", "a rematch starts once the match is over")
            old = self.game
            seed = new_seed()
            game = Game(old.rules, old.players, old.partnerships, seed=seed)
            match = await asyncio.to_thread(
                self.hub.storage.new_match, self.id, self.match_number + 1, game, seed
            )
            self.play_on(_session(game, self.seats, seed), match.id)
            self.match_number += 1
            self.broadcast()
        self.wake_computers()

    # -- computer players

    def wake_computers(self) -> None:
        """Make sure the computer players move when it is their turn."""
        if self._computers is None or self._computers.done():
            self._computers = asyncio.get_running_loop().create_task(self._run_computers())

    async def _run_computers(self) -> None:
        while True:
            seat = self.game.to_move
            if seat is None or self.session.is_person(seat):
                return
            await asyncio.sleep(self.hub.pace)
            async with self.lock:
                seat = self.game.to_move
                if seat is None or self.session.is_person(seat):
                    return
                move = await asyncio.to_thread(self.session.computer_choice)
                try:
                    await self._apply(move_seat=seat, move=move)
                except Refusal:
                    return  # storage failed and the room was reloaded; try again when woken

    async def close(self) -> None:
        if self._computers is not None:
            self._computers.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._computers
        for connection in list(self.connections):
            connection.close()


def _advice_text(advice: MoveAdvice, language: str, deck: DeckStyle) -> str:
    """The coach's verdict and reasons, with any move named in the reader's cards."""
    words = Words(deck, language, sides=(), levels=())
    sentences = []
    for message in (advice.verdict, *advice.reasons):
        params = {
            name: words.move(value) if isinstance(value, Move) else value
            for name, value in message.params.items()
        }
        sentences.append(Message(message.key, params).text(language))
    return " ".join(sentences)


def new_seed() -> int:
    return secrets.randbits(62)


def new_room_id() -> str:
    """128 random bits, URL-safe: a room is found by its link, never by guessing."""
    return secrets.token_urlsafe(16)


def new_token() -> str:
    """A seat token: 192 random bits; only its hash is stored."""
    return secrets.token_urlsafe(24)


def _session(game: Game, seats: Sequence[SeatState], seed: int) -> Session:
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


def clean_nickname(nickname: str) -> str:
    """Nicknames are shown to others: one line of printable text."""
    cleaned = " ".join("".join(ch for ch in nickname if ch.isprintable()).split())
    if not cleaned:
        raise Refusal("bad_nickname", "the nickname must hold a visible character")
    return cleaned[:MAX_NICKNAME]


class MoveWriter:
    """Stores moves in batches: whatever arrived while the last batch was being committed goes
    into the next transaction, so many matches share one commit. Each caller waits until its
    own move is committed."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._waiting: list[tuple[MoveWrite, asyncio.Future[None]]] = []
        self._wake = asyncio.Event()
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="escoba-writer")
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def write(self, move: MoveWrite) -> None:
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append((move, done))
        self._wake.set()
        await done

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await self._wake.wait()
            self._wake.clear()
            batch, self._waiting = self._waiting, []
            if not batch:
                continue
            try:
                await loop.run_in_executor(
                    self._thread, self.storage.write_moves, [move for move, _ in batch]
                )
            except Exception as error:
                for _, done in batch:
                    if not done.done():
                        done.set_exception(error)
            else:
                for _, done in batch:
                    if not done.done():
                        done.set_result(None)

    async def close(self) -> None:
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        self._thread.shutdown(wait=True)


class Hub:
    """Every room the server knows, loaded from storage on demand."""

    def __init__(
        self, storage: Storage, *, pace: float = 0.7, idle_seconds: float = IDLE_SECONDS
    ) -> None:
        self.storage = storage
        self.pace = pace
        self.idle_seconds = idle_seconds
        self.rooms: dict[str, Room] = {}
        self._loading = asyncio.Lock()
        self.writer = MoveWriter(storage)
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep())

    async def _sweep(self) -> None:
        """Let go of rooms nobody has used for a while: their matches are in storage, and a
        room is loaded again when someone comes back, so memory holds only the active rooms."""
        while True:
            await asyncio.sleep(min(60.0, self.idle_seconds))
            self.evict_idle()

    def evict_idle(self) -> int:
        """Drop the idle rooms from memory; how many."""
        now = time.monotonic()
        idle = [
            room_id
            for room_id, room in self.rooms.items()
            if room.idle() and now - room.last_active >= self.idle_seconds
        ]
        for room_id in idle:
            del self.rooms[room_id]
        return len(idle)

    async def resume(self) -> int:
        """Load every unfinished match and let its computer players go on; how many."""
        room_ids = await asyncio.to_thread(self.storage.unfinished_rooms)
        for room_id in room_ids:
            room = await self.room(room_id)
            room.wake_computers()
        return len(room_ids)

    async def room(self, room_id: str) -> Room:
        room = self.rooms.get(room_id)
        if room is not None:
            room.last_active = time.monotonic()
            return room
        async with self._loading:
            room = self.rooms.get(room_id)
            if room is None:
                room = await self._load(room_id)
                self.rooms[room_id] = room
            return room

    async def _load(self, room_id: str) -> Room:
        if len(room_id) > 32:
            raise Refusal("not_found", "no room has this link", 404)
        stored = await asyncio.to_thread(self.storage.room, room_id)
        if stored is None:
            raise Refusal("not_found", "no room has this link", 404)
        seats = [SeatState(row.level, row.nickname, row.token_hash) for row in stored.seats]
        return Room(
            self,
            room_id,
            seats,
            _session(stored.game, seats, stored.match.seed),
            stored.match.id,
            stored.match.number,
        )

    async def reload(self, room: Room) -> None:
        """Rebuild a room's match from storage after a failed write."""
        stored = await asyncio.to_thread(self.storage.room, room.id)
        assert stored is not None
        room.play_on(_session(stored.game, room.seats, stored.match.seed), stored.match.id)

    async def create(self, request: CreateRoom) -> SeatTicket:
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
        nickname = clean_nickname(request.nickname)
        seed = new_seed()
        try:
            game = Game(rules, request.players, request.partnerships, seed=seed)
        except EscobaError as error:
            raise Refusal("bad_rules", str(error)) from None
        room_id = new_room_id()
        token = new_token()
        match = await asyncio.to_thread(self.storage.create_room, room_id, game, levels, seed=seed)
        await asyncio.to_thread(self.storage.take_seat, room_id, seat, nickname, token)
        room = await self.room(room_id)
        assert room.match_id == match.id
        room.wake_computers()
        return SeatTicket(room=room_id, seat=seat, token=token, invite=f"/room/{room_id}")

    async def join(self, room_id: str, request: JoinRoom) -> SeatTicket:
        room = await self.room(room_id)
        nickname = clean_nickname(request.nickname)
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
            token = new_token()
            await asyncio.to_thread(self.storage.take_seat, room_id, seat, nickname, token)
            room.seats[seat].nickname = nickname
            room.seats[seat].token_hash = hash_token(token)
            room.broadcast()
        return SeatTicket(room=room_id, seat=seat, token=token, invite=f"/room/{room_id}")

    async def close(self) -> None:
        self._sweeper.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._sweeper
        for room in list(self.rooms.values()):
            await room.close()
        await self.writer.close()
