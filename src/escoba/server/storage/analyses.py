"""Match analyses as stored: requested once per match, claimed by one process at a time under a
lease, filled in a batch of moves at a time, finished or failed.

A request makes the match's row once, whoever asks and however many processes share the
database (an insert that does nothing when the row is there); it is made anew only when the
stored one is of an older version or failed. A runner claims the oldest analysis waiting, or
one whose runner's lease ran out (that runner stopped, or was stopped): PostgreSQL's
``FOR UPDATE SKIP LOCKED`` and SQLite's write lock taken before reading let two processes
never claim the same row. Every write of a runner names it (``claimed_by``): a runner whose
lease was taken over by another writes nothing more.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Final, Literal, cast

from sqlalchemy import Connection, insert, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite

from .repository import MAX_ID, Storage, _held_by, _read, _store, _utc
from .tables import AnalysisRow, MatchRow

__all__ = ["ERROR_CHARS", "AnalysisStore", "Claimed", "Status", "StoredAnalysis"]

Status = Literal["queued", "running", "done", "failed"]

ERROR_CHARS: Final = 512
"""What is kept of a failure's message."""


@dataclass(frozen=True, slots=True)
class StoredAnalysis:
    """A match's analysis as stored (the moves as ``MoveAnalysis.to_dict()``)."""

    match_id: int
    version: int
    status: Status
    moves: list[dict[str, Any]]
    total: int | None
    requested_at: datetime
    updated_at: datetime
    error: str | None


@dataclass(frozen=True, slots=True)
class Claimed:
    """An analysis a runner now holds: what was done of it before (a resumed one)."""

    match_id: int
    version: int
    moves: list[dict[str, Any]]
    total: int | None


def _stored(row: AnalysisRow | Any) -> StoredAnalysis:
    return StoredAnalysis(
        row.match_id,
        row.version,
        cast(Status, row.status),
        list(row.moves),
        row.total,
        _utc(row.requested_at),
        _utc(row.updated_at),
        row.error,
    )


class AnalysisStore:
    """The analyses of one database (the one of ``storage``)."""

    def __init__(self, storage: Storage) -> None:
        self.engine = storage.engine

    @contextmanager
    def _write(self) -> Iterator[Connection]:
        """A transaction that holds SQLite's write lock from its start: a read turned into a
        write would fail at once, without waiting, if another connection wrote in between."""
        with self.engine.connect() as connection:
            if connection.dialect.name == "sqlite":
                connection.exec_driver_sql("BEGIN IMMEDIATE")
            yield connection
            connection.commit()

    @_read
    def get(self, match_id: int) -> StoredAnalysis | None:
        if not 1 <= match_id <= MAX_ID:
            return None
        with self.engine.connect() as connection:
            row = connection.execute(
                select(AnalysisRow.__table__).where(AnalysisRow.match_id == match_id)
            ).first()
        return None if row is None else _stored(row)

    @_read
    def unfinished(
        self, match_id: int, token_hashes: Collection[str], account_id: int | None = None
    ) -> bool:
        """Whether the match is still being played and one of ``token_hashes`` holds a seat of
        its room (or the account ``account_id`` plays it)."""
        if (not token_hashes and account_id is None) or not 1 <= match_id <= MAX_ID:
            return False
        with self.engine.connect() as connection:
            found = connection.execute(
                select(MatchRow.id).where(
                    MatchRow.id == match_id,
                    MatchRow.finished_at.is_(None),
                    _held_by(token_hashes, account_id),
                )
            ).first()
        return found is not None

    @_store
    def request(self, match_id: int, version: int, at: datetime) -> StoredAnalysis:
        """The match's analysis, queued now if there was none, or if the one stored is of an
        older version than ``version`` or failed (then made anew, from its first move). The
        match must exist (finished: the caller checked)."""
        at = _utc(at)
        values = {
            "match_id": match_id,
            "version": version,
            "status": "queued",
            "moves": [],
            "total": None,
            "requested_at": at,
            "updated_at": at,
            "claimed_by": None,
            "claimed_until": None,
            "error": None,
        }
        with self._write() as connection:
            dialect = connection.dialect.name
            if dialect == "postgresql":
                add: Any = postgresql.insert(AnalysisRow).on_conflict_do_nothing()
            elif dialect == "sqlite":
                add = sqlite.insert(AnalysisRow).on_conflict_do_nothing()
            else:  # pragma: no cover - the two databases the server runs on
                add = insert(AnalysisRow)
            connection.execute(add, values)
            # A second request of a stale or failed one finds it queued already: redone once.
            connection.execute(
                update(AnalysisRow)
                .where(
                    AnalysisRow.match_id == match_id,
                    or_(AnalysisRow.version < version, AnalysisRow.status == "failed"),
                )
                .values(values)
            )
            row = connection.execute(
                select(AnalysisRow.__table__).where(AnalysisRow.match_id == match_id)
            ).one()
        return _stored(row)

    @_store
    def claim(self, runner: str, at: datetime, lease: timedelta) -> Claimed | None:
        """Hold the oldest analysis waiting, or running under a lease that ended before
        ``at``, until ``at + lease``; None when there is none."""
        at = _utc(at)
        with self._write() as connection:
            found = connection.execute(
                select(
                    AnalysisRow.match_id,
                    AnalysisRow.version,
                    AnalysisRow.moves,
                    AnalysisRow.total,
                )
                .where(
                    or_(
                        AnalysisRow.status == "queued",
                        (AnalysisRow.status == "running") & (AnalysisRow.claimed_until < at),
                    )
                )
                .order_by(AnalysisRow.requested_at, AnalysisRow.match_id)
                .limit(1)
                # PostgreSQL: a row another process is claiming is passed over, not waited for.
                .with_for_update(skip_locked=True)
            ).first()
            if found is None:
                return None
            connection.execute(
                update(AnalysisRow)
                .where(AnalysisRow.match_id == found.match_id)
                .values(
                    status="running", claimed_by=runner, claimed_until=at + lease, updated_at=at
                )
            )
        return Claimed(found.match_id, found.version, list(found.moves), found.total)

    def _held(self, match_id: int, runner: str) -> Any:
        return update(AnalysisRow).where(
            AnalysisRow.match_id == match_id,
            AnalysisRow.status == "running",
            AnalysisRow.claimed_by == runner,
        )

    @_store
    def save(
        self,
        match_id: int,
        runner: str,
        moves: Sequence[Mapping[str, Any]],
        total: int,
        at: datetime,
        lease: timedelta,
    ) -> bool:
        """Store the moves done so far (all of them, in order) and extend the lease; False
        when ``runner`` no longer holds the analysis (its lease was taken over)."""
        at = _utc(at)
        with self._write() as connection:
            changed = connection.execute(
                self._held(match_id, runner).values(
                    moves=[dict(move) for move in moves],
                    total=total,
                    updated_at=at,
                    claimed_until=at + lease,
                )
            ).rowcount
        return bool(changed)

    @_store
    def finish(
        self, match_id: int, runner: str, moves: Sequence[Mapping[str, Any]], at: datetime
    ) -> bool:
        """Every move analysed: done. False when ``runner`` no longer holds it."""
        at = _utc(at)
        with self._write() as connection:
            changed = connection.execute(
                self._held(match_id, runner).values(
                    status="done",
                    moves=[dict(move) for move in moves],
                    total=len(moves),
                    updated_at=at,
                    claimed_by=None,
                    claimed_until=None,
                )
            ).rowcount
        return bool(changed)

    @_store
    def fail(self, match_id: int, runner: str, error: str, at: datetime) -> bool:
        """It cannot be analysed (``error`` says why); asked again, it is made anew."""
        at = _utc(at)
        with self._write() as connection:
            changed = connection.execute(
                self._held(match_id, runner).values(
                    status="failed",
                    error=error[:ERROR_CHARS],
                    updated_at=at,
                    claimed_by=None,
                    claimed_until=None,
                )
            ).rowcount
        return bool(changed)

    @_store
    def release(self, match_id: int, runner: str, at: datetime) -> bool:
        """Give the analysis back (the runner is stopping): another may claim it at once
        and resume from the moves stored."""
        at = _utc(at)
        with self._write() as connection:
            changed = connection.execute(
                self._held(match_id, runner).values(
                    status="queued", claimed_by=None, claimed_until=None, updated_at=at
                )
            ).rowcount
        return bool(changed)
