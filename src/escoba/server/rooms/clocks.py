"""A table's clock: a time for each move and a reserve for the match, per person seat.

The seat to move has ``per_move`` seconds, then its reserve; what a move takes beyond
``per_move`` comes out of the reserve. When both are spent, the server plays a move for the
seat (:func:`timeout_move`, a fixed rule, not a strong one) and counts a timeout; a seat's
own move sets its count back to 0. Computers have no clock. Times are the time of day
(seconds since the epoch), so that the deadline, stored with the match, means the same to any
process that takes the room over. Pure: the room (:mod:`.actor`) reads the time and waits.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from ...moves import Move

__all__ = [
    "CLOCK_PRESETS",
    "SeatClocks",
    "TimeControl",
    "timeout_move",
]


@dataclass(frozen=True, slots=True)
class TimeControl:
    """Seconds for each move, and seconds in reserve for the match."""

    per_move: float
    reserve: float

    def to_dict(self) -> dict[str, float]:
        return {"per_move": self.per_move, "reserve": self.reserve}


CLOCK_PRESETS: Final[Mapping[str, TimeControl]] = {
    "blitz": TimeControl(10.0, 30.0),
    "standard": TimeControl(20.0, 60.0),
    "relaxed": TimeControl(45.0, 180.0),
}
"""The time controls the lobby offers by name (any other within the bounds may be asked for)."""


@dataclass
class SeatClocks:
    """Each seat's reserve and timeouts in a row, and the running turn's deadline."""

    control: TimeControl
    reserves: list[float]
    timeouts: list[int]
    turn: int | None = None
    """The seat whose time runs (None: nobody's)."""
    started: float | None = None
    deadline: float | None = None

    @classmethod
    def new(cls, control: TimeControl, seats: int) -> SeatClocks:
        return cls(control, [control.reserve] * seats, [0] * seats)

    def start(self, seat: int, now: float) -> None:
        """``seat``'s time runs from ``now`` (if it was not running already)."""
        if self.turn == seat:
            return
        self.stop(now)
        self.turn, self.started = seat, now
        self.deadline = now + self.control.per_move + self.reserves[seat]

    def stop(self, now: float) -> None:
        """The running turn ends at ``now``: what it took beyond a move's time comes out of
        its seat's reserve."""
        if self.turn is not None and self.started is not None:
            over = max(0.0, now - self.started - self.control.per_move)
            self.reserves[self.turn] = max(0.0, self.reserves[self.turn] - over)
        self.turn = self.started = self.deadline = None

    def moved(self, seat: int, now: float, *, timed_out: bool = False) -> None:
        """``seat`` moved at ``now`` (by itself, or the server for it when its time ran out)."""
        self.stop(now)
        if timed_out:
            self.reserves[seat] = 0.0
            self.timeouts[seat] += 1
        else:
            self.timeouts[seat] = 0

    def left(self, now: float) -> float | None:
        """Seconds left to the seat whose time runs."""
        return None if self.deadline is None else max(0.0, self.deadline - now)

    def to_dict(self) -> dict[str, Any]:
        return {
            "reserves": list(self.reserves),
            "timeouts": list(self.timeouts),
            "turn": self.turn,
            "started": self.started,
            "deadline": self.deadline,
        }

    @classmethod
    def of(cls, control: TimeControl, seats: int, stored: Mapping[str, Any] | None) -> SeatClocks:
        """The clocks as stored with a match (None: a match whose clocks never ran)."""
        clocks = cls.new(control, seats)
        if not stored:
            return clocks
        reserves, timeouts = stored.get("reserves"), stored.get("timeouts")
        if isinstance(reserves, list) and len(reserves) == seats:
            clocks.reserves = [float(value) for value in reserves]
        if isinstance(timeouts, list) and len(timeouts) == seats:
            clocks.timeouts = [int(value) for value in timeouts]
        turn, started, deadline = stored.get("turn"), stored.get("started"), stored.get("deadline")
        if isinstance(turn, int) and 0 <= turn < seats and started is not None and deadline:
            clocks.turn, clocks.started, clocks.deadline = turn, float(started), float(deadline)
        return clocks


def timeout_move(legal: Sequence[Move]) -> Move:
    """The move the server plays for a seat whose time ran out: the capture that takes the
    most cards, else the card of lowest value played to the table; on a tie, the first the
    engine lists. Plain on purpose: an absent player's seat is not played well for them.

    >>> str(timeout_move([Move.parse("5c"), Move.parse("7d:5h+2s"), Move.parse("Kd:Ks")]))
    '7d:5h+2s'
    >>> str(timeout_move([Move.parse("5c"), Move.parse("2d"), Move.parse("Kd")]))
    '2d'
    """
    captures = [move for move in legal if move.captures]
    if captures:
        return max(captures, key=lambda move: len(move.captures))
    return min(legal, key=lambda move: move.card.value)
