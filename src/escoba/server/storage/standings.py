"""Standings as stored: ratings, their history, the matches each account played, and what a
room's latest match did to ratings (what leaderboards and profiles read, :mod:`..profiles`)."""

from __future__ import annotations

from collections.abc import Collection, Iterator
from contextlib import contextmanager
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from .repository import Storage, _read, _utc
from .tables import (
    AccountRow,
    MatchPlayerRow,
    MatchRow,
    RatingChangeRow,
    RatingRow,
    RoomRow,
    SeatRow,
)

__all__ = ["Standings"]


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
    def board(
        self, game: str, active_since: datetime, least_matches: int, limit: int
    ) -> list[tuple[int, str, RatingRow]]:
        """The players of a game's leaderboard, best first: ``(account id, username,
        rating)`` with at least ``least_matches`` rated matches, the last one since
        ``active_since``, not disabled. Ordered by ``mu`` (the rating shown)."""
        with self._session() as session:
            rows = session.execute(
                select(RatingRow, AccountRow.username)
                .join(AccountRow, AccountRow.id == RatingRow.account_id)
                .where(
                    RatingRow.game == game,
                    RatingRow.matches >= least_matches,
                    RatingRow.played_at >= _utc(active_since),
                    AccountRow.disabled.is_(False),
                    AccountRow.username.is_not(None),
                )
                .order_by(RatingRow.mu.desc(), RatingRow.account_id)
                .limit(limit)
            ).all()
            return [(rating.account_id, name or "", rating) for rating, name in rows]

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
            match = session.scalars(
                select(MatchRow).where(MatchRow.room_id == room_id).order_by(MatchRow.number.desc())
            ).first()
            assert match is not None
            changes = session.execute(
                select(RatingChangeRow, AccountRow.username)
                .join(AccountRow, AccountRow.id == RatingChangeRow.account_id)
                .where(RatingChangeRow.match_id == match.id)
                .order_by(RatingChangeRow.seat)
            ).all()
            return match, room.rated, [(change, name) for change, name in changes]
