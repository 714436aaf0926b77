"""Your matches: the finished matches a browser's seat tokens hold a seat in, with their
statistics, and the messages of the finished-match routes (the routes are in ``app``).

A match is private to its players: it is listed and replayed only for whoever presents one of
its seat tokens (a seat is a room's, so a token holds its seat in every rematch of the room),
unless one of them made it public. Tokens travel in request bodies, never in addresses (which
end up in logs), and the server compares only their hashes. Whatever the server does not show,
it answers as an unknown match: a refusal says nothing of whether the match exists, is being
played or belongs to others.

| request | answer |
| --- | --- |
| ``POST /api/matches/mine`` ``{"tokens": [...]}`` | ``YourMatches``: the matches and statistics |
| ``GET /api/matches`` | ``{"matches": [MatchSummary]}``: the public matches, newest first |

A match in which moves were taken back (against computers: the record keeps each as a move
``take back``) says how many in ``take_backs``; it is listed, but left out of the statistics
(``YourMatches.left_out`` counts those matches): a match replayed at will is not a result.
| ``GET /api/matches/{id}/replay`` | a public match's replay |
| ``POST /api/matches/{id}/replay`` ``{"tokens": [...]}`` | the replay, for one of its players |
| ``PUT /api/matches/{id}/public`` ``{"tokens": [...], "public": true}`` | ``PublicSwitch`` |
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from datetime import UTC, datetime
from threading import Lock
from typing import Annotated, Final, Literal

from fastapi import Path
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StringConstraints

from ..ai import LEVELS
from ..game import Game
from ..records import TAKE_BACK, MatchRecord
from ..rules import RuleSet, preset_name
from .protocol import MatchSummary
from .storage.rated import sides_of
from .storage.repository import MAX_ID, MatchRow, RoomRow, SeatRow, Storage, hash_token

__all__ = [
    "DELETED_PLAYER",
    "MAX_LISTED",
    "MAX_TOKENS",
    "AnalysisRequest",
    "MatchId",
    "MatchTally",
    "PublicChoice",
    "PublicSwitch",
    "SeatTokens",
    "SweepCounts",
    "YourMatch",
    "YourMatches",
    "names",
    "public_matches",
    "summary",
    "tally",
    "token_hashes",
    "your_matches",
]

MAX_TOKENS: Final = 256
"""The most seat tokens one request may present (a browser keeps one per room it sat in)."""

MAX_LISTED: Final = 500
"""The most matches listed (newest first); the statistics count the listed ones."""

PEOPLE: Final = "people"
MIXED: Final = "mixed"
Opponents = Literal["beginner", "easy", "medium", "hard", "people", "mixed"]
"""Who played against a seat: computers of one level, people only, or a mix."""

SeatToken = Annotated[
    str, StringConstraints(min_length=16, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")
]
"""A seat token as the server hands them out (URL-safe base 64)."""

MatchId = Annotated[int, Path(ge=1, le=MAX_ID)]


class _Model(BaseModel):
    # A typo in a client is an error, not silently ignored.
    model_config = ConfigDict(extra="forbid", frozen=True)


class SeatTokens(_Model):
    """The seat tokens a browser holds (its tickets); the order does not matter."""

    tokens: list[SeatToken] = Field(max_length=MAX_TOKENS)


class PublicChoice(SeatTokens):
    """Make a finished match public (``true``) or private again, as one of its players."""

    public: StrictBool


class AnalysisRequest(SeatTokens):
    """Ask for a finished match's analysis, as one of its players (or anyone, a public match),
    and read it in a language and a deck (the explanations name cards)."""

    language: str = Field(default="en", max_length=8)
    deck: str = Field(default="french", max_length=16)


class PublicSwitch(_Model):
    match: int
    public: bool


class YourMatch(MatchSummary):
    """A finished match in which one of the presented tokens holds a seat."""

    seat: int
    """The seat held."""
    side: int
    """The held seat's side (totals, sweeps and winner are by side)."""
    sweeps: list[int]
    """Each side's sweeps over the whole match."""
    opponents: Opponents
    public: bool


class MatchTally(_Model):
    """Matches played, won, and the points and sweeps of the player's side in them (matches
    with take backs left out)."""

    opponents: Opponents | None
    """Whom these matches were against; None for all of them."""
    matches: int
    wins: int
    points: int
    sweeps: int


class YourMatches(_Model):
    matches: list[YourMatch]
    """Newest first."""
    total: MatchTally
    by_opponents: list[MatchTally]
    """One line for each kind of opponents met: computer levels weakest first, then people,
    then mixes."""
    left_out: int = 0
    """The listed matches in which moves were taken back: not counted in the statistics."""


def token_hashes(tokens: Sequence[str]) -> list[str]:
    """The stored form of the presented tokens (the server compares hashes only)."""
    return sorted({hash_token(token) for token in tokens})


# -- your matches and their statistics


def your_matches(
    storage: Storage, hashes: Sequence[str], sweeps: SweepCounts, account_id: int | None = None
) -> YourMatches:
    """The finished matches in which a seat is held by one of the token ``hashes`` (or that
    the signed-in account played, on any device), with their statistics. It reads the
    database and replays matches: call it on a storage thread. Each match's sweeps are
    counted by replaying it once, then remembered in ``sweeps`` (a finished match never
    changes)."""
    found: list[YourMatch] = []
    for match, room, seats, seat in storage.matches_held(hashes, MAX_LISTED, account_id):
        listed = summary(match, room, seats, sweeps.take_backs(match.id, storage))
        sides = sides_of(room.players, room.partnerships)
        side = next(index for index, members in enumerate(sides) if seat in members)
        levels = {seats[other].level for other in range(room.players) if other not in sides[side]}
        found.append(
            YourMatch(
                **listed.model_dump(),
                seat=seat,
                side=side,
                sweeps=sweeps.of(match.id, storage),
                opponents=_opponents(levels),
                public=match.public,
            )
        )
    return tally(found)


def tally(matches: Sequence[YourMatch]) -> YourMatches:
    """The statistics of a player's matches: all of them, and by the opponents met. Matches
    with take backs are listed but not counted (``left_out``)."""
    order = [*LEVELS, PEOPLE, MIXED]
    counted = [match for match in matches if not match.take_backs]
    groups: dict[str, list[YourMatch]] = {}
    for match in counted:
        groups.setdefault(match.opponents, []).append(match)
    return YourMatches(
        matches=list(matches),
        total=_tally(None, counted),
        by_opponents=[
            _tally(kind, groups[kind])  # type: ignore[arg-type]
            for kind in sorted(groups, key=order.index)
        ],
        left_out=len(matches) - len(counted),
    )


def _tally(opponents: Opponents | None, matches: Sequence[YourMatch]) -> MatchTally:
    return MatchTally(
        opponents=opponents,
        matches=len(matches),
        wins=sum(match.winner == match.side for match in matches),
        points=sum(match.totals[match.side] for match in matches if match.totals),
        sweeps=sum(match.sweeps[match.side] for match in matches if match.sweeps),
    )


def _opponents(levels: set[str | None]) -> Opponents:
    if levels == {None}:
        return "people"
    if len(levels) == 1:
        (level,) = levels
        return level  # type: ignore[return-value]
    return "mixed"


_Facts = tuple[list[int], int, list[list[int]]]
"""A match's sweeps by side, moves taken back, and each hand's points by side."""


class SweepCounts:
    """Each finished match's sweeps per side, moves taken back and hands' points, by match
    id, the ``size`` last asked for remembered. One for each database: match ids are a
    database's own."""

    def __init__(self, size: int = 10_000) -> None:
        self.size = size
        self.known: OrderedDict[int, _Facts] = OrderedDict()
        self.lock = Lock()

    def of(self, match_id: int, storage: Storage) -> list[int]:
        """The match's sweeps, by side."""
        return self._facts(match_id, storage)[0]

    def take_backs(self, match_id: int, storage: Storage) -> int:
        """How many moves were taken back in the match."""
        return self._facts(match_id, storage)[1]

    def hand_points(self, match_id: int, storage: Storage) -> list[list[int]]:
        """Each hand's points, by side."""
        return self._facts(match_id, storage)[2]

    def _facts(self, match_id: int, storage: Storage) -> _Facts:
        with self.lock:
            if match_id in self.known:
                self.known.move_to_end(match_id)
                return self.known[match_id]
        found = storage.match_record(match_id)
        facts: _Facts = ([], 0, [])
        if found is not None:
            game = Game.from_record(found[2])
            facts = (
                _sweeps(game),
                _take_backs(found[2]),
                [list(result.points) for result in game.results],
            )
        with self.lock:
            self.known[match_id] = facts
            while len(self.known) > self.size:
                self.known.popitem(last=False)
        return facts


def _sweeps(game: Game) -> list[int]:
    sides = len(game.totals)
    return [sum(result.sweeps[side] for result in game.results) for side in range(sides)]


def _take_backs(record: MatchRecord) -> int:
    return sum(hand["moves"].count(TAKE_BACK) for hand in record["hands"])


# -- the public matches


def public_matches(storage: Storage, facts: SweepCounts) -> list[MatchSummary]:
    """The finished matches their players made public, newest first, each saying its take
    backs. It reads the database: call it on a storage thread."""
    return [
        summary(match, room, seats, facts.take_backs(match.id, storage))
        for match, room, seats in storage.finished_matches(public_only=True)
    ]


# -- shared with the replay


def summary(
    match: MatchRow, room: RoomRow, seats: Sequence[SeatRow], take_backs: int = 0
) -> MatchSummary:
    rules = RuleSet.from_dict(room.rules)
    return MatchSummary(
        id=match.id,
        number=match.number,
        preset=preset_name(rules),
        rules=rules.to_dict(),
        take_backs=take_backs,
        players=room.players,
        partnerships=room.partnerships,
        names=names(seats),
        levels=[seat.level for seat in seats],  # type: ignore[misc]
        totals=match.totals or [],
        winner=match.winner,
        finished_at=_utc(match.finished_at),
    )


DELETED_PLAYER: Final = "deleted player"
"""The name of a seat whose account was deleted (clients show it in their own words)."""


def names(seats: Sequence[SeatRow]) -> list[str]:
    return [
        seat.nickname or seat.level or (DELETED_PLAYER if seat.account_id is not None else "?")
        for seat in seats
    ]


def _utc(moment: datetime | None) -> str:
    """ISO 8601 with the zone (SQLite hands back times without one; they are UTC)."""
    if moment is None:
        return ""
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).isoformat()
