"""Puzzles as stored: each account's puzzle rating with its streak and counts, and the puzzles
it has tried. A puzzle's first try is the only one that counts: it is written in the same
transaction as the rating it changed, so that a second try (or two at once) changes nothing."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import exc as sa_exc
from sqlalchemy import select, text
from sqlalchemy.orm import Session, sessionmaker

from .repository import Storage, _read, _store, _utc
from .tables import PuzzleAttemptRow, PuzzleRatingRow

__all__ = ["PuzzleStanding", "PuzzleStore", "Tried"]


@dataclass(frozen=True, slots=True)
class PuzzleStanding:
    """An account's puzzle rating as stored (a new account's before its first try)."""

    mu: float
    sigma: float
    streak: int = 0
    best_streak: int = 0
    solved: int = 0
    attempted: int = 0


@dataclass(frozen=True, slots=True)
class Tried:
    """What a try did: the standing before and after it (equal when it did not count), and
    whether it was the puzzle's first try (the one that counts)."""

    before: PuzzleStanding
    after: PuzzleStanding
    counted: bool


Rate = Callable[[float, float, bool], tuple[float, float]]
"""The rating after a try: ``(mu, sigma, solved) -> (mu, sigma)``."""


def _standing(row: PuzzleRatingRow) -> PuzzleStanding:
    return PuzzleStanding(row.mu, row.sigma, row.streak, row.best_streak, row.solved, row.attempted)


class PuzzleStore:
    """The puzzle ratings and tries of one database (the one of ``storage``)."""

    def __init__(self, storage: Storage) -> None:
        self._sessions = sessionmaker(storage.engine, expire_on_commit=False)

    @contextmanager
    def _session(self) -> Iterator[Session]:
        with self._sessions() as session, session.begin():
            yield session

    @_read
    def standing(self, account_id: int) -> PuzzleStanding | None:
        """The account's puzzle rating, or None before its first try."""
        with self._session() as session:
            row = session.get(PuzzleRatingRow, account_id)
            return None if row is None else _standing(row)

    @_read
    def tried(self, account_id: int) -> set[str]:
        """The puzzles the account has tried (solved or not)."""
        with self._session() as session:
            return set(
                session.scalars(
                    select(PuzzleAttemptRow.puzzle_id).where(
                        PuzzleAttemptRow.account_id == account_id
                    )
                )
            )

    @_store
    def attempt(
        self,
        account_id: int,
        puzzle_id: str,
        solved: bool,
        rate: Rate,
        start: tuple[float, float],
        at: datetime,
    ) -> Tried:
        """Record the account's try of a puzzle: its first changes the rating by ``rate``
        (from ``start`` for an account's first puzzle), the streak and the counts; any later
        one changes nothing."""
        for _ in range(3):
            try:
                return self._attempt(account_id, puzzle_id, solved, rate, start, _utc(at))
            except sa_exc.IntegrityError:
                # Another try of the same account was written meanwhile (its first puzzle's
                # rating, or this very puzzle): read again, it decides.
                continue
        raise RuntimeError(f"the try of puzzle {puzzle_id} could not be written")

    def _attempt(
        self,
        account_id: int,
        puzzle_id: str,
        solved: bool,
        rate: Rate,
        start: tuple[float, float],
        at: datetime,
    ) -> Tried:
        with self._session() as session:
            if session.get_bind().dialect.name == "sqlite":
                # The write lock from the start: two tries of one account read and write the
                # rating one after the other (PostgreSQL: the row's lock below).
                session.execute(text("BEGIN IMMEDIATE"))
            row = session.scalars(
                select(PuzzleRatingRow)
                .where(PuzzleRatingRow.account_id == account_id)
                .with_for_update()
            ).first()
            before = PuzzleStanding(*start) if row is None else _standing(row)
            if session.get(PuzzleAttemptRow, (account_id, puzzle_id)) is not None:
                return Tried(before, before, counted=False)
            session.add(
                PuzzleAttemptRow(account_id=account_id, puzzle_id=puzzle_id, solved=solved, at=at)
            )
            mu, sigma = rate(before.mu, before.sigma, solved)
            streak = before.streak + 1 if solved else 0
            after = PuzzleStanding(
                mu,
                sigma,
                streak,
                max(before.best_streak, streak),
                before.solved + int(solved),
                before.attempted + 1,
            )
            if row is None:
                row = PuzzleRatingRow(account_id=account_id)
                session.add(row)
            row.mu, row.sigma, row.streak = after.mu, after.sigma, after.streak
            row.best_streak, row.solved, row.attempted = (
                after.best_streak,
                after.solved,
                after.attempted,
            )
            row.updated_at = at
            session.flush()
            return Tried(before, after, counted=True)
