"""Standings as stored: ratings, their history, the matches each account played, and what a
room's latest match did to ratings (what leaderboards and profiles read, :mod:`..profiles`)."""

from __future__ import annotations

from collections.abc import Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import and_, func, or_, select
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.sql.elements import ColumnElement

from .repository import Storage, _read, _utc, latest_match
from .tables import (
    AccountRow,
    MatchPlayerRow,
    MatchRow,
    RatingChangeRow,
    RatingRow,
    RoomRow,
    SeatRow,
)

__all__ = ["BoardRule", "Standings"]


@dataclass(frozen=True, slots=True)
class BoardRule:
    """Who stands on a leaderboard: at least ``least_matches`` rated matches, the last one
    since ``active_since``, a ``sigma`` no higher than ``most_sigma`` (settled), and an
    account neither disabled nor deleted."""

    active_since: datetime
    least_matches: int
    most_sigma: float


def _on_board(game: str, rule: BoardRule) -> list[ColumnElement[bool]]:
    return [
        RatingRow.game == game,
        RatingRow.matches >= rule.least_matches,
        RatingRow.played_at >= _utc(rule.active_since),
        RatingRow.sigma <= rule.most_sigma,
        AccountRow.disabled.is_(False),
        AccountRow.username.is_not(None),
    ]


class Standings:
    """The ratings and played matches of one database (the one of ``storage``)."""

    def __init__(self, storage: Storage) -> None:
        self._sessions = sessionmaker(storage.engine, expire_on_commit=False)

    @contextmanager
    def _session(self) -> Iterator[Session]:
        with self._sessions() as session, session.begin():
            yield session

    @_read
    def usernames(self, account_ids: Collection[int]) -> dict[int, str | None]:
        """The usernames of accounts (None: deleted)."""
        if not account_ids:
            return {}
        with self._session() as session:
            return dict(
                session.execute(
                    select(AccountRow.id, AccountRow.username).where(
                        AccountRow.id.in_(sorted(set(account_ids)))
                    )
                ).all()
            )

    @_read
    def board(self, game: str, rule: BoardRule, limit: int) -> list[tuple[str, RatingRow]]:
        """A game's leaderboard, best first: ``(username, rating)`` of the players ``rule``
        admits. Ordered by ``mu`` (the rating shown), then by account."""
        with self._session() as session:
            rows = session.execute(
                select(RatingRow, AccountRow.username)
                .join(AccountRow, AccountRow.id == RatingRow.account_id)
                .where(*_on_board(game, rule))
                .order_by(RatingRow.mu.desc(), RatingRow.account_id)
                .limit(limit)
            ).all()
            return [(name or "", rating) for rating, name in rows]

    @_read
    def rank(self, game: str, rule: BoardRule, account_id: int) -> int | None:
        """The account's place on the game's leaderboard, or None when ``rule`` leaves it off."""
        with self._session() as session:
            mine = session.execute(
                select(RatingRow.mu)
                .join(AccountRow, AccountRow.id == RatingRow.account_id)
                .where(*_on_board(game, rule), RatingRow.account_id == account_id)
            ).first()
            if mine is None:
                return None
            above = session.scalar(
                select(func.count())
                .select_from(RatingRow)
                .join(AccountRow, AccountRow.id == RatingRow.account_id)
                .where(
                    *_on_board(game, rule),
                    or_(
                        RatingRow.mu > mine.mu,
                        and_(RatingRow.mu == mine.mu, RatingRow.account_id < account_id),
                    ),
                )
            )
            return int(above or 0) + 1

    @_read
    def ratings(self, account_id: int) -> list[RatingRow]:
        with self._session() as session:
            return list(
                session.scalars(select(RatingRow).where(RatingRow.account_id == account_id))
            )

    @_read
    def rating_history(self, account_id: int) -> list[RatingChangeRow]:
        """Every rated match's change of the account, oldest first."""
        with self._session() as session:
            return list(
                session.scalars(
                    select(RatingChangeRow)
                    .where(RatingChangeRow.account_id == account_id)
                    .order_by(RatingChangeRow.at, RatingChangeRow.match_id)
                )
            )

    @_read
    def played(
        self, account_id: int, limit: int
    ) -> list[tuple[MatchRow, RoomRow, list[SeatRow], list[MatchPlayerRow], int]]:
        """The finished matches the account played, newest first: each with its room, seats,
        the accounts' seats in it and the account's seat."""
        with self._session() as session:
            found = session.execute(
                select(MatchPlayerRow.seat, MatchRow, RoomRow)
                .join(MatchRow, MatchRow.id == MatchPlayerRow.match_id)
                .join(RoomRow, RoomRow.id == MatchRow.room_id)
                .where(MatchPlayerRow.account_id == account_id, MatchRow.finished_at.is_not(None))
                .order_by(MatchRow.finished_at.desc(), MatchRow.id.desc())
                .limit(limit)
            ).all()
            match_ids = [match.id for _, match, _ in found]
            rooms = {room.id for _, _, room in found}
            players: dict[int, list[MatchPlayerRow]] = {match_id: [] for match_id in match_ids}
            for row in session.scalars(
                select(MatchPlayerRow).where(MatchPlayerRow.match_id.in_(match_ids))
            ):
                players[row.match_id].append(row)
            seats: dict[str, list[SeatRow]] = {room_id: [] for room_id in rooms}
            for seat in session.scalars(
                select(SeatRow).where(SeatRow.room_id.in_(rooms)).order_by(SeatRow.seat)
            ):
                seats[seat.room_id].append(seat)
            return [
                (match, room, seats[room.id], players[match.id], seat)
                for seat, match, room in found
            ]

    @_read
    def match_ratings(
        self, room_id: str
    ) -> tuple[MatchRow, bool, list[tuple[RatingChangeRow, str | None]]] | None:
        """The room's latest match, whether the room is rated, and its rating changes."""
        with self._session() as session:
            room = session.get(RoomRow, room_id)
            if room is None:
                return None
            match = latest_match(session, room_id)
            changes = session.execute(
                select(RatingChangeRow, AccountRow.username)
                .join(AccountRow, AccountRow.id == RatingChangeRow.account_id)
                .where(RatingChangeRow.match_id == match.id)
                .order_by(RatingChangeRow.seat)
            ).all()
            return match, room.rated, [(change, name) for change, name in changes]
