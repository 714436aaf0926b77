"""A room's state, and the one function that changes it.

A room holds its seats and its current match (a :class:`~escoba.play.local_match.LocalMatch`, the
match with its computer seats). Every change of the match passes through
:meth:`RoomState.apply`: a person's move and a computer's, a take back, a new match after a
rematch, whether the owner makes it or a replica follows the owner's published events
(:meth:`RoomState.follow` turns those into the same changes). It is synchronous and knows no
storage, socket or clock: the actor (:mod:`.actor`) saves the state before a change, stores
what :meth:`~RoomState.apply` returns, and restores the saved state if storage refuses.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...errors import EscobaError, IllegalMoveError, RulesError
from ...game import Game
from ...moves import Move
from ...observation import Event, TakeBack
from ...play.local_match import LocalMatch, LocalMatchError
from ...records import TAKE_BACK
from ...rules import RULESETS, RuleSet
from ..errors import Refusal
from .clocks import SeatClocks, TimeControl

__all__ = [
    "Applied",
    "Change",
    "MoveChange",
    "NewMatch",
    "RoomState",
    "Saved",
    "SeatState",
    "TableSettings",
    "TakeBackChange",
    "local_match_of",
    "new_seed",
    "rules_of",
]


@dataclass
class SeatState:
    """A seat: a computer's level (None: a person's seat), and who sits there."""

    level: str | None
    nickname: str | None = None
    token_hash: str | None = None
    account_id: int | None = None
    """The account of the person sitting there, signed in (their nickname is its username)."""


@dataclass(frozen=True, slots=True)
class TableSettings:
    """How a room meets strangers: ``listed`` an open table in the lobby (else private, found
    by its link only), ``watchable`` from the lobby once its seats are taken, and the
    ``language`` of its creator. Set when it is made, never changed."""

    listed: bool = False
    watchable: bool = True
    language: str = "en"
    clock: TimeControl | None = None
    """The time control of its person seats (None: no clock)."""
    rated: bool = False
    """Its matches between accounts change their ratings."""


@dataclass(frozen=True, slots=True)
class MoveChange:
    """``seat`` plays ``move``: a person's move is checked by the engine, a computer's was
    chosen for this very position."""

    seat: int
    move: Move


@dataclass(frozen=True, slots=True)
class TakeBackChange:
    """Take back the last move of ``seat`` (a person's) in this hand and the computers' moves
    after it; or, with ``count``, that many moves as the owner took them back (a replica)."""

    seat: int | None = None
    count: int | None = None


@dataclass(frozen=True, slots=True)
class NewMatch:
    """The room plays a new match, stored as ``match_id`` (a rematch)."""

    match_id: int
    game: Game
    seed: int


Change = MoveChange | TakeBackChange | NewMatch


@dataclass(frozen=True, slots=True)
class Applied:
    """What a change did: the moves to store (numbered from ``first``, each as its seat and
    the text of the record), the event to show (None: a new position), and whether it ended
    a hand."""

    first: int
    stored: tuple[tuple[int, str], ...]
    hand: int
    event: Event | TakeBack | None
    hand_ended: bool = False


@dataclass(frozen=True, slots=True)
class Saved:
    """A room's match as it was, to go back to when storage refuses a change."""

    game: Game
    seed: int
    match_id: int
    match_number: int
    moves_stored: int
    hands_stored: int
    clocks: dict[str, Any] | None = None


class RoomState:
    """A room's seats and current match, and what of it is stored."""

    def __init__(
        self,
        seats: list[SeatState],
        match: LocalMatch,
        match_id: int,
        match_number: int,
        table: TableSettings = TableSettings(),
        clocks: SeatClocks | None = None,
    ) -> None:
        self.seats = seats
        self.table = table
        self.match_number = match_number
        self.play_on(match, match_id)
        self.clocks = clocks if clocks is not None else self.fresh_clocks()
        """Its person seats' clocks in this match (None: no time control)."""
        self.ended: int | None = None
        """The side that claimed the match, the other having abandoned it (None: it goes on,
        or ended by its score)."""

    def fresh_clocks(self) -> SeatClocks | None:
        """The clocks of a match beginning (None: no time control)."""
        control = self.table.clock
        return None if control is None else SeatClocks.new(control, len(self.seats))

    def play_on(self, match: LocalMatch, match_id: int) -> None:
        """Play ``match``, stored as ``match_id``: what is stored already follows
        from its record."""
        hands = match.game.record()["hands"]
        self.match = match
        self.match_id = match_id
        self.hands_stored = len(hands)
        self.moves_stored = sum(len(hand["moves"]) for hand in hands)

    @property
    def game(self) -> Game:
        return self.match.game

    @property
    def position(self) -> tuple[int, int]:
        """Which match and how far into it: a search's answer is for this position only."""
        return (self.match_id, self.moves_stored)

    @property
    def computer_seats(self) -> int:
        return sum(state.level is not None for state in self.seats)

    def takes_back(self, seat: int) -> bool:
        """Whether ``seat`` may take back moves (every other seat is a computer's)."""
        return self.match.takes_back(seat)

    # -- the one way the match changes

    def apply(self, change: Change) -> Applied:
        """Make ``change``; what to store and show. A change the match refuses (an illegal
        move, nothing to take back) raises :class:`Refusal` and changes nothing."""
        first = self.moves_stored
        if isinstance(change, NewMatch):
            self.play_on(local_match_of(change.game, self.seats, change.seed), change.match_id)
            self.clocks = self.fresh_clocks()
            self.ended = None
            self.match_number += 1
            return Applied(first=0, stored=(), hand=0, event=None)
        if isinstance(change, MoveChange):
            return self._move(change, first)
        return self._take_back(change, first)

    def _move(self, change: MoveChange, first: int) -> Applied:
        if self.game.to_move != change.seat:
            raise Refusal(
                "not_your_turn", f"it is seat {self.game.to_move}'s turn, not {change.seat}'s"
            )
        if self.match.is_person(change.seat):
            try:
                played = self.match.play(change.move)
            except IllegalMoveError as error:  # the engine names why; nothing was changed
                raise Refusal("illegal_move", str(error)) from None
        else:
            advanced = self.match.advance(change.move)
            if advanced is None:  # pragma: no cover - the seat was checked
                raise Refusal("not_your_turn", "no computer seat is to move")
            played = advanced
        self.moves_stored = first + 1
        return Applied(
            first=first,
            stored=((change.seat, str(played.move)),),
            hand=played.hand_number,
            event=played.event,
            hand_ended=played.hand_ended,
        )

    def _take_back(self, change: TakeBackChange, first: int) -> Applied:
        hand = self.game.hand_number
        try:
            if change.count is None:
                taken = list(self.match.take_back())
            else:
                taken = [self.game.take_back() for _ in range(change.count)]
        except (LocalMatchError, IllegalMoveError) as error:
            raise Refusal("nothing_to_take_back", str(error)) from None
        self.moves_stored = first + len(taken)
        return Applied(
            first=first,
            stored=tuple((event.seat, TAKE_BACK) for event in taken),
            hand=hand,
            event=taken[-1],
        )

    # -- storage's side

    def save(self) -> Saved:
        """The match as it is now (a copy: later changes do not touch it)."""
        return Saved(
            self.game.copy(),
            self.match.seed,
            self.match_id,
            self.match_number,
            self.moves_stored,
            self.hands_stored,
            None if self.clocks is None else self.clocks.to_dict(),
        )

    def restore(self, saved: Saved) -> None:
        """Go back to ``saved``: storage refused what was applied since."""
        self.match = local_match_of(saved.game.copy(), self.seats, saved.seed)
        self.match_id = saved.match_id
        self.match_number = saved.match_number
        self.moves_stored = saved.moves_stored
        self.hands_stored = saved.hands_stored
        if self.table.clock is not None:
            self.clocks = SeatClocks.of(self.table.clock, len(self.seats), saved.clocks)

    def seat_taken(
        self, seat: int, nickname: str, token_hash: str, account_id: int | None = None
    ) -> None:
        """Someone took ``seat`` (stored already)."""
        self.seats[seat].nickname = nickname
        self.seats[seat].token_hash = token_hash
        self.seats[seat].account_id = account_id

    def take_seats(self, rows: Sequence[Any]) -> None:
        """The seats as stored (people join through any process; a computer may take a seat
        its person abandoned)."""
        levels = [state.level for state in self.seats]
        for state, row in zip(self.seats, rows, strict=False):
            state.level = row.level
            state.nickname = row.nickname
            state.token_hash = row.token_hash
            state.account_id = row.account_id
        if levels != [state.level for state in self.seats]:
            self.match = local_match_of(self.game, self.seats, self.match.seed)

    def give_seat(self, seat: int, level: str) -> None:
        """A computer of ``level`` takes ``seat`` (stored already): the match goes on."""
        self.seats[seat] = SeatState(level)
        self.match = local_match_of(self.game, self.seats, self.match.seed)

    @property
    def over(self) -> bool:
        """The match is over: by its score, or claimed (the other side abandoned it)."""
        return self.ended is not None or self.game.is_over()

    # -- a replica following its owner

    def follow(self, event: Mapping[str, Any]) -> Applied | None:
        """Apply a move or take backs the owner published; None when they do not follow
        from what this replica holds (one was missed, or another match began): the room
        must be read again. Known already (heard while the room was read): nothing to do."""
        number = event.get("number")
        if event.get("match") != self.match_id or not isinstance(number, int):
            return None
        if number < self.moves_stored:
            return Applied(first=number, stored=(), hand=self.game.hand_number, event=None)
        if number > self.moves_stored:
            return None
        change: Change
        if event.get("kind") == "move":
            seat = self.game.to_move
            if seat is None:
                return None
            try:
                change = MoveChange(seat, Move.parse(str(event.get("move"))))
            except EscobaError:
                return None
        elif event.get("kind") == "take_back":
            count = event.get("count")
            if not isinstance(count, int) or count < 1:
                return None
            change = TakeBackChange(count=count)
        else:
            return None
        try:
            return self.apply(change)
        except (Refusal, EscobaError):
            return None


def new_seed() -> int:
    return secrets.randbits(62)


def local_match_of(game: Game, seats: Sequence[SeatState], seed: int) -> LocalMatch:
    levels = [state.level for state in seats]
    person = next(seat for seat, level in enumerate(levels) if level is None)
    return LocalMatch(game, levels, person=person, seed=seed)


def rules_of(preset: str, options: dict[str, object]) -> RuleSet:
    if preset not in RULESETS:
        raise Refusal(
            "bad_rules", f"unknown rule set {preset!r}; the presets are {', '.join(RULESETS)}"
        )
    try:
        return RULESETS[preset].replace(**options)
    except (RulesError, TypeError) as error:
        raise Refusal("bad_rules", str(error)) from None
