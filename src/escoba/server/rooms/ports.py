"""What a room needs from the rest of the server, as narrow interfaces.

A room (:mod:`.actor`) stores through a :class:`MoveStore`, asks :class:`Thinkers` for its
computers' moves and its hints, tells the other processes of a site through a
:class:`Replication` (:class:`Alone` when one process serves), and reads the time from a
:class:`~escoba.server.config.Clock`. It knows no database, no Redis and no worker pool:
they are wired in one place (:mod:`escoba.server.http.app`), and tests may give it their own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ...ai.coach import Advice
from ...game import Game
from ...moves import Move
from ...observation import Observation
from ...play.local_match import ComputerTurn
from ..config import Clock, Limits, Timings
from ..protocol import (
    ClaimMessage,
    PlayMessage,
    RematchMessage,
    ReplaceMessage,
    TableListing,
    TakeBackMessage,
)
from ..storage.repository import MoveWrite, SeatRow

__all__ = [
    "Alone",
    "Intention",
    "Listings",
    "MoveStore",
    "Ports",
    "Replication",
    "Thinkers",
    "Unlisted",
]

Intention = PlayMessage | TakeBackMessage | RematchMessage | ReplaceMessage | ClaimMessage
"""What a seat asks of a room's owner: a move, a take back, a rematch, a computer for an
abandoned seat, the match claimed."""


class MoveStore(Protocol):
    """Storage as a room uses it: a change is durable before anybody is shown it."""

    async def write(self, write: MoveWrite) -> None:
        """Store one move (batched with other rooms' moves)."""

    async def write_all(self, writes: Sequence[MoveWrite]) -> None:
        """Store several moves of one room, all or none."""

    async def new_match(
        self, room_id: str, number: int, game: Game, seed: int, fence: int | None
    ) -> int:
        """Store a rematch; its match id."""

    async def set_clock(self, match_id: int, clock: dict[str, Any], fence: int | None) -> None:
        """Store a match's clocks (a turn's time began to run outside a move)."""

    async def give_seat(
        self, room_id: str, match_id: int, seat: int, level: str, fence: int | None
    ) -> None:
        """Store a computer taking an abandoned seat."""

    async def end_match(
        self,
        match_id: int,
        winner: int,
        totals: list[int],
        reason: str,
        fence: int | None,
        left: Sequence[int] = (),
    ) -> None:
        """Store a match ended other than by its score; the people of seats ``left``
        abandoned it."""

    async def seats(self, room_id: str) -> Sequence[SeatRow]:
        """The room's seats as stored."""

    async def back(self, wait: float) -> None:
        """Wait ``wait`` seconds, or less if storage, which failed, answers again."""


class Thinkers(Protocol):
    """The workers that think for computer seats and work out hints."""

    async def choose(self, turn: ComputerTurn, owner: str = "") -> Move: ...

    async def advise(self, seed: int, observation: Observation, owner: str = "") -> Advice: ...


class Replication(Protocol):
    """The other processes of a site, as a room sees them: who owns the room (the owner
    stores under its fencing token; a process that follows the room asks the owner to act),
    who is connected elsewhere, and what the others must be told."""

    several: bool
    """Whether other processes serve the site too."""

    def fence(self, room_id: str) -> int | None:
        """The fencing token to store the room's changes under (None: no check)."""

    def follows(self, room_id: str) -> bool:
        """Another process owns the room: this one follows its changes."""

    def online_elsewhere(self, room_id: str) -> frozenset[int]:
        """Seats with a connection on another process."""

    async def tell(self, room_id: str, event: dict[str, Any]) -> None:
        """Tell the other processes of a change this process made to the room."""

    def lost(self, room_id: str) -> None:
        """The room's fence moved on to another process: follow it from now on."""

    def presence_changed(self, room_id: str) -> None:
        """The room's connections on this process changed."""

    async def forward(self, room_id: str, seat: int | None, intention: Intention) -> None:
        """Have the room's owner act on ``intention``; its refusal is raised here."""


class Listings(Protocol):
    """The lobby's list of open tables, as a room's owner keeps its own entry current."""

    def show(self, room_id: str, table: TableListing | None) -> None:
        """List ``table`` as the room's entry now; None: the room is not listed."""

    def let_go(self, room_id: str) -> None:
        """Another process owns the room now: its entry is that process's to keep."""


class Unlisted:
    """No lobby: rooms are found by their links only."""

    def show(self, room_id: str, table: TableListing | None) -> None:
        return None

    def let_go(self, room_id: str) -> None:
        return None


class Alone:
    """One process serves the site: it owns every room, and there is nobody to tell."""

    several = False

    def fence(self, room_id: str) -> int | None:
        return None

    def follows(self, room_id: str) -> bool:
        return False

    def online_elsewhere(self, room_id: str) -> frozenset[int]:
        return frozenset()

    async def tell(self, room_id: str, event: dict[str, Any]) -> None:
        return None

    def lost(self, room_id: str) -> None:  # pragma: no cover - no other process to lose to
        return None

    def presence_changed(self, room_id: str) -> None:
        return None

    async def forward(
        self, room_id: str, seat: int | None, intention: Intention
    ) -> None:  # pragma: no cover - a lone process follows no room
        raise AssertionError("a process serving alone owns every room")


@dataclass(frozen=True, slots=True, kw_only=True)
class Ports:
    """Everything a room reaches beyond itself, given to each room of the process."""

    store: MoveStore
    thinkers: Thinkers
    replication: Replication
    clock: Clock
    limits: Limits
    timings: Timings
    pace: float
    """Seconds each computer move takes, its search included."""
    lobby: Listings = Unlisted()  # noqa: RUF009 (stateless: one value serves every room)
    """Where open tables are listed."""
