"""A rated match's end, settled in the transaction that stores it: the ratings change once.

Called by the repository where a match's end is written (its last move, or a claim), after
the row was marked finished by that very statement: a retried transaction was rolled back
whole, so a match's ratings change exactly once, whichever process ends it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import datetime, timedelta
from itertools import combinations
from typing import Any

from sqlalchemy import Connection, Row, func, insert, select, update

from ...rules import RuleSet
from .. import ratings
from .tables import (
    FairPlayFlagRow,
    MatchPlayerRow,
    MatchRow,
    MoveRow,
    RatingChangeRow,
    RatingRow,
    RoomRow,
)

__all__ = ["hash_address", "settle", "sides_of"]


def hash_address(address: str) -> str:
    """The stored form of an address as the limits count it (compared, never shown)."""
    return hashlib.sha256(address.encode()).hexdigest()


def sides_of(players: int, partnerships: bool) -> list[tuple[int, ...]]:
    """The seats of each side: partners sit across (0 and 2 against 1 and 3)."""
    if partnerships and players == 4:
        return [(0, 2), (1, 3)]
    return [(seat,) for seat in range(players)]


def _ranks(winner: int, totals: Sequence[int], losers: set[int]) -> list[int]:
    """Each side's place (0 first): the winner first, the others by their totals, and the
    sides that left the match last of all."""
    sides = len(totals)
    ranks = []
    for side in range(sides):
        if side in losers:
            ranks.append(sides)
        elif side == winner:
            ranks.append(0)
        else:
            ranks.append(
                1
                + sum(
                    totals[other] > totals[side]
                    for other in range(sides)
                    if other not in losers and other != winner
                )
            )
    return ranks


def settle(connection: Connection, match_id: int, moment: datetime) -> str | None:
    """Settle the end of match ``match_id`` (just marked finished in this transaction):
    what it did to ratings, stored in ``matches.rating``; None for a room that is not rated."""
    found = connection.execute(
        select(
            RoomRow.rated,
            RoomRow.rules,
            RoomRow.players,
            RoomRow.partnerships,
            MatchRow.winner,
            MatchRow.totals,
        )
        .join(MatchRow, MatchRow.room_id == RoomRow.id)
        .where(MatchRow.id == match_id)
    ).first()
    if found is None or not found.rated:
        return None
    status = _status(connection, match_id, found, moment)
    connection.execute(update(MatchRow).where(MatchRow.id == match_id).values(rating=status))
    return status


def _status(connection: Connection, match_id: int, found: Row[Any], moment: datetime) -> str:
    rules, players, partnerships = found.rules, found.players, found.partnerships
    winner, totals = found.winner, found.totals
    seated: dict[int, Row[int, int, str | None, bool]] = {
        row.seat: row
        for row in connection.execute(
            select(
                MatchPlayerRow.seat,
                MatchPlayerRow.account_id,
                MatchPlayerRow.address,
                MatchPlayerRow.left,
            ).where(MatchPlayerRow.match_id == match_id)
        )
    }
    moves = connection.scalar(
        select(func.count()).select_from(MoveRow).where(MoveRow.match_id == match_id)
    )
    if not moves:
        return "aborted"  # ended before its first move: it counts for nobody
    game = ratings.game_of(RuleSet.from_dict(rules))
    accounts = {row.account_id for row in seated.values()}
    if game is None or len(seated) != players or len(accounts) != players or winner is None:
        return "casual"
    sides = sides_of(players, partnerships)
    if _over_daily_limit(connection, sides, seated, moment):
        return "daily_limit"
    _flag_addresses(connection, match_id, sides, seated, moment)
    known = {
        row.account_id: row
        for row in connection.execute(
            select(RatingRow.account_id, RatingRow.mu, RatingRow.sigma)
            .where(RatingRow.game == game, RatingRow.account_id.in_(sorted(accounts)))
            # PostgreSQL: two matches of one player ending at once change it one after the
            # other (SQLite's writers take turns anyway).
            .with_for_update()
        )
    }
    before = {
        seat: (known[row.account_id].mu, known[row.account_id].sigma)
        if row.account_id in known
        else ratings.new_rating()
        for seat, row in seated.items()
    }
    left = {index for index, side in enumerate(sides) if any(seated[s].left for s in side)}
    after = ratings.rate(
        [[before[seat] for seat in side] for side in sides], _ranks(winner, totals or [], left)
    )
    for side, new in zip(sides, after, strict=True):
        for seat, (mu, sigma) in zip(side, new, strict=True):
            account_id = seated[seat].account_id
            if account_id in known:
                connection.execute(
                    update(RatingRow)
                    .where(RatingRow.account_id == account_id, RatingRow.game == game)
                    .values(mu=mu, sigma=sigma, matches=RatingRow.matches + 1, played_at=moment)
                )
            else:
                connection.execute(
                    insert(RatingRow).values(
                        account_id=account_id,
                        game=game,
                        mu=mu,
                        sigma=sigma,
                        matches=1,
                        played_at=moment,
                    )
                )
            old_mu, old_sigma = before[seat]
            connection.execute(
                insert(RatingChangeRow).values(
                    match_id=match_id,
                    account_id=account_id,
                    seat=seat,
                    game=game,
                    mu_before=old_mu,
                    sigma_before=old_sigma,
                    mu_after=mu,
                    sigma_after=sigma,
                    at=moment,
                )
            )
    return "rated"


def _over_daily_limit(
    connection: Connection,
    sides: Sequence[tuple[int, ...]],
    seated: dict[int, Row[int, int, str | None, bool]],
    moment: datetime,
) -> bool:
    """Whether two accounts on different sides met in rated matches that counted
    :data:`~..ratings.DAILY_PAIR_LIMIT` times in the last 24 hours."""
    since = moment - timedelta(days=1)
    for first, second in combinations(range(len(sides)), 2):
        for a in sides[first]:
            for b in sides[second]:
                mine = (
                    select(RatingChangeRow.match_id)
                    .where(
                        RatingChangeRow.account_id == seated[a].account_id,
                        RatingChangeRow.at >= since,
                    )
                    .scalar_subquery()
                )
                met = connection.scalar(
                    select(func.count())
                    .select_from(RatingChangeRow)
                    .where(
                        RatingChangeRow.account_id == seated[b].account_id,
                        RatingChangeRow.match_id.in_(mine),
                    )
                )
                if (met or 0) >= ratings.DAILY_PAIR_LIMIT:
                    return True
    return False


def _flag_addresses(
    connection: Connection,
    match_id: int,
    sides: Sequence[tuple[int, ...]],
    seated: dict[int, Row[int, int, str | None, bool]],
    moment: datetime,
) -> None:
    """Flag for the admin a rated match in which accounts of different sides sat down from
    one address."""
    side_of = {seat: index for index, side in enumerate(sides) for seat in side}
    flagged: set[int] = set()
    for a, b in combinations(sorted(seated), 2):
        same = seated[a].address is not None and seated[a].address == seated[b].address
        if same and side_of[a] != side_of[b]:
            flagged |= {seated[a].account_id, seated[b].account_id}
    if flagged:
        connection.execute(
            insert(FairPlayFlagRow).values(
                match_id=match_id, reason="same_address", accounts=sorted(flagged), at=moment
            )
        )
