"""Where rooms and matches live: a database through SQLAlchemy, migrated by Alembic.

A match is stored as its event log: the rules and seed, each hand's dealer and decks (every
deal, voided ones too) and every move, one row per move written before the move is
acknowledged. A match is rebuilt by replaying that log with the engine.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final, Literal, ParamSpec, TypeVar

from sqlalchemy import (
    Connection,
    bindparam,
    create_engine,
    delete,
    event,
    exists,
    insert,
    make_url,
    or_,
    select,
    update,
)
from sqlalchemy import exc as sa_exc
from sqlalchemy.engine import Dialect, Engine
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.elements import ClauseElement, ColumnElement

from ...game import Game
from ...observation import Play
from ...records import HandRecord, MatchRecord, match_record
from ...rules import RuleSet
from ...userdata import data_dir
from ..errors import StaleFence, StorageUnavailable
from .rated import hash_address, settle
from .tables import Base, HandRow, MatchPlayerRow, MatchRow, MoveRow, RoomRow, SeatRow, now

__all__ = [
    "MAX_ID",
    "Base",
    "MatchRow",
    "MoveWrite",
    "RoomRow",
    "SeatRow",
    "SeatTaken",
    "Storage",
    "StoredRoom",
    "default_database_url",
    "hash_token",
    "token_matches",
]

MIGRATIONS: Final = Path(__file__).parent / "migrations"

MAX_ID: Final = 2**31 - 1
"""The largest match id: PostgreSQL's INTEGER is 32 bits."""

MAX_FENCE: Final = 2**63 - 1
"""The largest fencing token: the fence is a BIGINT."""

_P = ParamSpec("_P")
_R = TypeVar("_R")


MIGRATION_LOCK: Final = 0x6573636F6261
"""The PostgreSQL advisory lock that one process at a time holds to upgrade the schema."""


class SeatTaken(Exception):  # noqa: N818 (a state of the room, not a failure)
    """The seat asked for is not a free person's seat (taken meanwhile, or a computer's)."""


def _check_token(token: int) -> None:
    if not 1 <= token <= MAX_FENCE:
        raise ValueError(f"a fencing token is from 1 to {MAX_FENCE}, not {token}")


_FAILURES: Final = (sa_exc.DBAPIError, sa_exc.TimeoutError, OSError)
"""What a database that cannot work now raises (the pool's timeout included)."""

_OUR_BUGS: Final = (
    sa_exc.IntegrityError,
    sa_exc.ProgrammingError,
    sa_exc.DataError,
    sa_exc.NotSupportedError,
)
"""Database errors that tell of a mistake in the statements, not of the database."""


def _cause(error: BaseException) -> str:
    """The first line of what the driver said (SQLAlchemy's text adds the SQL)."""
    orig = getattr(error, "orig", None)
    said = str(orig if orig is not None else error).strip()
    return said.splitlines()[0] if said else type(error).__name__


def _guarded(action: str) -> Callable[[Callable[_P, _R]], Callable[_P, _R]]:
    """Turn the database's operational failures into :class:`StorageUnavailable`."""

    def decorate(method: Callable[_P, _R]) -> Callable[_P, _R]:
        @functools.wraps(method)
        def guarded(*args: _P.args, **kwargs: _P.kwargs) -> _R:
            try:
                return method(*args, **kwargs)
            except _FAILURES as error:
                if isinstance(error, _OUR_BUGS):
                    raise
                message = f"the database cannot {action} now: {_cause(error)}"
                raise StorageUnavailable(message) from error

        return guarded

    return decorate


_store = _guarded("store this")
_read = _guarded("be read")


class _Prepared:
    """A statement run on every move, compiled once for the database's dialect and run as
    the driver's SQL (``exec_driver_sql``). SQLAlchemy then neither looks it up nor works
    out its parameters again, which for one move cost as much as the database's own work;
    each parameter still goes through its column type's conversion for the dialect (times
    on SQLite), and errors and events are SQLAlchemy's as for any statement."""

    def __init__(self, statement: ClauseElement, dialect: Dialect) -> None:
        compiled = statement.compile(dialect=dialect)
        assert isinstance(compiled, SQLCompiler)
        self.sql = compiled.string
        self.order = compiled.positiontup
        """The parameters' names in the SQL's order (None: the driver takes them by name)."""
        self.convert = {
            name: convert
            for name, bind in compiled.binds.items()
            if (convert := bind.type.dialect_impl(dialect).bind_processor(dialect)) is not None
        }

    def run(self, connection: Connection, rows: Sequence[Mapping[str, Any]]) -> None:
        """Run it once per row of parameters (by name), all in one call to the driver."""
        converted = [
            {**row, **{name: convert(row[name]) for name, convert in self.convert.items()}}
            for row in rows
        ]
        order = self.order
        if order is None:
            connection.exec_driver_sql(self.sql, converted)
        else:
            connection.exec_driver_sql(
                self.sql, [tuple(row[name] for name in order) for row in converted]
            )


_ADD_MOVES: Final = insert(MoveRow)
_TOUCH_MATCH: Final = (
    update(MatchRow)
    .where(MatchRow.id == bindparam("touched"))
    .values(active_at=bindparam("moment"))
)
"""A match was played at ``moment``."""


def default_database_url() -> str:
    """SQLite in the user's data folder (:func:`escoba.userdata.data_dir`)."""
    folder = data_dir()
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'escoba.db'}"


def hash_token(token: str) -> str:
    """The stored form of a token (a seat's, a session's): its SHA-256 (tokens are random,
    so no salt needed)."""
    return hashlib.sha256(token.encode()).hexdigest()


def token_matches(token: str, stored_hash: str | None) -> bool:
    """Compare in constant time, so the answer's timing tells nothing about the hash."""
    if stored_hash is None:
        return False
    return hmac.compare_digest(hash_token(token), stored_hash)


def _utc(moment: datetime) -> datetime:
    """A time as stored: in UTC (SQLite compares times as text, so the zone must agree).
    A naive time is taken as UTC, as SQLite hands times back."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


@dataclass(frozen=True, slots=True)
class MoveWrite:
    """One move to store, with the decks of the hand it began and the result if it ended
    the match."""

    match_id: int
    number: int
    """Moves played before this one in the match."""
    hand: int
    seat: int
    move: str
    hands: tuple[tuple[int, int, list[list[str]]], ...] = ()
    """New hands: (number, dealer, decks)."""
    finished: tuple[int | None, list[int]] | None = None
    """(winner, totals) when the move ended the match."""
    fence: int | None = None
    """The fencing token of the room's owner (see ``leases``): the move is stored only while
    it is the room's fence. None when one process serves the site: no check."""
    clock: dict[str, Any] | None = None
    """The match's clocks after the move (a room with a time control)."""

    @classmethod
    def of(
        cls,
        match_id: int,
        number: int,
        hand: int,
        play: Play,
        game: Game,
        known: int,
        *,
        fence: int | None = None,
        clock: dict[str, Any] | None = None,
    ) -> MoveWrite:
        """The write for a move just played in ``game`` (``play`` is the event the engine
        returned for it); ``known`` hands are stored already; ``fence`` the owner's token.

        The record is built only when the move ended a hand, the one time a move adds decks.
        """
        hands: list[tuple[int, int, list[list[str]]]] = []
        if play.result is not None:
            entries = game.record()["hands"]
            hands = [
                (n, entries[n]["dealer"], entries[n]["deals"]) for n in range(known, len(entries))
            ]
        finished = (play.winner, list(game.totals)) if play.winner is not None else None
        return cls(
            match_id, number, hand, play.seat, str(play.move), tuple(hands), finished, fence, clock
        )


@dataclass(frozen=True, slots=True)
class StoredRoom:
    """A room with its seats and its current (latest) match, as read back."""

    room: RoomRow
    seats: tuple[SeatRow, ...]
    match: MatchRow
    game: Game


def latest_match(session: Session, room_id: str) -> MatchRow:
    """A room's latest match (every room has one)."""
    match = session.scalars(
        select(MatchRow).where(MatchRow.room_id == room_id).order_by(MatchRow.number.desc())
    ).first()
    assert match is not None, "every room has a match"
    return match


def _seats(session: Session, room_id: str) -> tuple[SeatRow, ...]:
    """A room's seats, in seat order."""
    return tuple(
        session.scalars(select(SeatRow).where(SeatRow.room_id == room_id).order_by(SeatRow.seat))
    )


def _held_by(token_hashes: Collection[str], account_id: int | None = None) -> ColumnElement[bool]:
    """A seat of the match's room is held by one of the token hashes, or the account played
    the match."""
    held = exists().where(
        SeatRow.room_id == MatchRow.room_id, SeatRow.token_hash.in_(sorted(set(token_hashes)))
    )
    if account_id is None:
        return held
    played = exists().where(
        MatchPlayerRow.match_id == MatchRow.id, MatchPlayerRow.account_id == account_id
    )
    return or_(held, played)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL lets readers run beside the writer; synchronous=FULL keeps each commit durable.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _postgresql_utc(dbapi_connection: Any, _record: Any) -> None:
    # Times come back in the session's time zone, whatever the server or the database sets:
    # make it UTC, as on SQLite. SET is transactional, hence the commit.
    cursor = dbapi_connection.cursor()
    cursor.execute("SET TIME ZONE 'UTC'")
    cursor.close()
    dbapi_connection.commit()


def _foreign_keys(connection: Connection, *, on: bool) -> None:
    """Turn SQLite's foreign key checks on or off (only outside a transaction)."""
    connection.exec_driver_sql(f"PRAGMA foreign_keys={'ON' if on else 'OFF'}")
    connection.commit()


class Storage:
    """Rooms and matches in one database; every write is committed before it returns.

    Every public method raises :class:`StorageUnavailable` when the database fails.
    """

    def __init__(self, url: str, *, sqlite_timeout: float = 5.0) -> None:
        self.url = url
        sqlite = make_url(url).get_backend_name() == "sqlite"
        # The seconds a write waits for another connection's write to end before it fails.
        connect_args: dict[str, Any] = {"timeout": sqlite_timeout} if sqlite else {}
        self.engine: Engine = create_engine(url, connect_args=connect_args)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        elif self.engine.dialect.name == "postgresql":
            event.listen(self.engine, "connect", _postgresql_utc)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self._add_moves = _Prepared(_ADD_MOVES, self.engine.dialect)
        self._touch_match = _Prepared(_TOUCH_MATCH, self.engine.dialect)

    @_guarded("be upgraded")
    def migrate(self) -> None:
        """Create or upgrade the schema to the newest revision."""
        from alembic import command
        from alembic.config import Config

        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        with self.engine.connect() as connection:
            sqlite = connection.dialect.name == "sqlite"
            if sqlite:
                # SQLite alters a column by rebuilding its table: the old one is dropped while
                # others still refer to it. The references are checked once all is done.
                _foreign_keys(connection, on=False)
            try:
                with connection.begin():
                    if connection.dialect.name == "postgresql":
                        # Processes of one site started together upgrade one after another:
                        # the others then find the schema upgraded (held until the commit).
                        connection.exec_driver_sql(
                            f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})"
                        )
                    config.attributes["connection"] = connection
                    command.upgrade(config, "head")
                    if sqlite:
                        broken = connection.exec_driver_sql("PRAGMA foreign_key_check").first()
                        if broken is not None:
                            raise RuntimeError(f"the upgrade broke a reference: {tuple(broken)}")
            finally:
                if sqlite and not connection.invalidated:
                    _foreign_keys(connection, on=True)

    @_guarded("be closed")
    def close(self) -> None:
        self.engine.dispose()

    @contextmanager
    def _session(self) -> Iterator[Session]:
        with self._sessions() as session, session.begin():
            yield session

    # -- writing

    @_store
    def create_room(
        self,
        room_id: str,
        game: Game,
        levels: Sequence[str | None],
        *,
        seed: int,
        listed: bool = False,
        watchable: bool = True,
        language: str = "en",
        clock: dict[str, float] | None = None,
        rated: bool = False,
    ) -> MatchRow:
        """A new room and its first match; ``listed``: an open table (see ``RoomRow``)."""
        with self._session() as session:
            session.add(
                RoomRow(
                    id=room_id,
                    rules=game.rules.to_dict(),
                    players=game.players,
                    partnerships=game.partnerships,
                    listed=listed,
                    watchable=watchable,
                    language=language,
                    clock=clock,
                    rated=rated,
                )
            )
            session.add_all(
                SeatRow(room_id=room_id, seat=seat, level=level)
                for seat, level in enumerate(levels)
            )
            session.flush()
            return self._add_match(session, room_id, 1, game, seed)

    @_store
    def new_match(
        self, room_id: str, number: int, game: Game, seed: int, *, fence: int | None = None
    ) -> MatchRow:
        """A rematch in a room; with ``fence`` (its owner's token) only while that is the
        room's fence, else :class:`StaleFence` and nothing stored."""
        with self._session() as session:
            if fence is not None:
                _check_token(fence)
                held = (
                    session.connection()
                    .execute(
                        update(RoomRow)
                        .where(RoomRow.id == room_id, RoomRow.fence == fence)
                        .values(fence=RoomRow.fence)
                    )
                    .rowcount
                )
                if held != 1:
                    raise StaleFence(
                        f"rematch refused: room {room_id} is not owned under token {fence}"
                    )
            match = self._add_match(session, room_id, number, game, seed)
            # A rematch is played by the accounts sitting there, from where they sat down.
            addresses = {
                row.seat: row.address
                for row in session.scalars(
                    select(MatchPlayerRow)
                    .join(MatchRow, MatchRow.id == MatchPlayerRow.match_id)
                    .where(MatchRow.room_id == room_id, MatchRow.number == number - 1)
                )
            }
            for seat in _seats(session, room_id):
                if seat.account_id is not None and seat.level is None:
                    session.add(
                        MatchPlayerRow(
                            match_id=match.id,
                            seat=seat.seat,
                            account_id=seat.account_id,
                            address=addresses.get(seat.seat),
                        )
                    )
            return match

    def _add_match(
        self, session: Session, room_id: str, number: int, game: Game, seed: int
    ) -> MatchRow:
        moment = now()
        match = MatchRow(
            room_id=room_id,
            number=number,
            seed=seed,
            first_dealer=game.first_dealer,
            created_at=moment,
            active_at=moment,
        )
        session.add(match)
        session.flush()
        self._add_hands(session, match.id, game, 0)
        return match

    @staticmethod
    def _add_hands(session: Session, match_id: int, game: Game, known: int) -> int:
        hands = game.record()["hands"]
        for number in range(known, len(hands)):
            entry = hands[number]
            session.add(
                HandRow(
                    match_id=match_id, number=number, dealer=entry["dealer"], deals=entry["deals"]
                )
            )
        return len(hands)

    @_store
    def take_seat(
        self,
        room_id: str,
        seat: int,
        nickname: str,
        token: str,
        *,
        account_id: int | None = None,
        address: str | None = None,
    ) -> None:
        """A person takes a free seat; signed in, as ``account_id`` (from ``address``, as the
        limits count it: the fair-play flags compare the addresses of a rated match)."""
        with self._session() as session:
            row = session.get(SeatRow, (room_id, seat))
            if row is None or row.level is not None or row.token_hash is not None:
                raise SeatTaken(f"seat {seat} of room {room_id} is not a free person's seat")
            row.nickname = nickname
            row.token_hash = hash_token(token)
            if account_id is not None:
                row.account_id = account_id
                match_id = session.scalar(
                    select(MatchRow.id).where(
                        MatchRow.room_id == room_id, MatchRow.finished_at.is_(None)
                    )
                )
                if match_id is not None:
                    session.add(
                        MatchPlayerRow(
                            match_id=match_id,
                            seat=seat,
                            account_id=account_id,
                            address=None if address is None else hash_address(address),
                        )
                    )
            # Someone joining is activity too: the room is not abandoned.
            session.execute(
                update(MatchRow)
                .where(MatchRow.room_id == room_id, MatchRow.finished_at.is_(None))
                .values(active_at=now())
            )

    @_store
    def write_moves(self, writes: Sequence[MoveWrite]) -> None:
        """Store moves of any matches in one transaction: one commit for many moves when
        many matches are played at once.

        A write with a ``fence`` is stored only if that is still its room's fence: otherwise
        :class:`StaleFence` names every such match and nothing of the call is stored.
        """
        if not writes:
            return
        for w in writes:
            if w.fence is not None:
                _check_token(w.fence)
        moment = now()
        with self.engine.begin() as connection:
            # First, so that the rooms' rows stay locked until the commit: a claim of one of
            # them waits for this transaction, then its owner reads these moves back.
            self._check_fences(
                connection, {(w.match_id, w.fence) for w in writes if w.fence is not None}
            )
            self._add_moves.run(
                connection,
                [
                    {
                        "match_id": w.match_id,
                        "number": w.number,
                        "hand": w.hand,
                        "seat": w.seat,
                        "move": w.move,
                        "played_at": moment,
                    }
                    for w in writes
                ],
            )
            hands = [
                {"match_id": w.match_id, "number": number, "dealer": dealer, "deals": deals}
                for w in writes
                for number, dealer, deals in w.hands
            ]
            if hands:
                connection.execute(insert(HandRow), hands)
            self._touch_match.run(
                connection,
                [
                    {"touched": match_id, "moment": moment}
                    for match_id in sorted({w.match_id for w in writes})
                ],
            )
            for w in writes:
                if w.finished is not None:
                    winner, totals = w.finished
                    ended = connection.execute(
                        update(MatchRow)
                        .where(MatchRow.id == w.match_id, MatchRow.finished_at.is_(None))
                        .values(finished_at=moment, winner=winner, totals=totals)
                    ).rowcount
                    if ended == 1:  # its ratings change with its end, once
                        settle(connection, w.match_id, moment)
                if w.clock is not None:
                    connection.execute(
                        update(MatchRow).where(MatchRow.id == w.match_id).values(clock=w.clock)
                    )

    @_store
    def give_seat(
        self, room_id: str, match_id: int, seat: int, level: str, *, fence: int | None = None
    ) -> None:
        """A computer of ``level`` takes ``seat``, abandoned by its person (whose token takes
        it no more; signed in, they left the match: it counts as their loss if rated)."""
        if fence is not None:
            _check_token(fence)
        with self.engine.begin() as connection:
            if fence is not None:
                self._check_fences(connection, {(match_id, fence)})
            connection.execute(
                update(SeatRow)
                .where(SeatRow.room_id == room_id, SeatRow.seat == seat)
                .values(level=level, nickname=None, token_hash=None, account_id=None)
            )
            connection.execute(
                update(MatchPlayerRow)
                .where(MatchPlayerRow.match_id == match_id, MatchPlayerRow.seat == seat)
                .values(left=True)
            )

    @_store
    def end_match(
        self,
        match_id: int,
        winner: int,
        totals: list[int],
        reason: str,
        *,
        left: Collection[int] = (),
        fence: int | None = None,
    ) -> None:
        """A match ends other than by its score: ``reason`` (``abandoned``), won by ``winner``;
        the people of the seats ``left`` abandoned it (a rated match: their loss)."""
        if fence is not None:
            _check_token(fence)
        moment = now()
        with self.engine.begin() as connection:
            if fence is not None:
                self._check_fences(connection, {(match_id, fence)})
            if left:
                connection.execute(
                    update(MatchPlayerRow)
                    .where(MatchPlayerRow.match_id == match_id, MatchPlayerRow.seat.in_(left))
                    .values(left=True)
                )
            ended = connection.execute(
                update(MatchRow)
                .where(MatchRow.id == match_id, MatchRow.finished_at.is_(None))
                .values(finished_at=moment, winner=winner, totals=totals, ended=reason, clock=None)
            ).rowcount
            if ended == 1:
                settle(connection, match_id, moment)

    @_store
    def set_clock(self, match_id: int, clock: dict[str, Any], *, fence: int | None = None) -> None:
        """Store a match's clocks (a turn's time began to run), under ``fence`` as moves are."""
        if fence is not None:
            _check_token(fence)
        with self.engine.begin() as connection:
            if fence is not None:
                self._check_fences(connection, {(match_id, fence)})
            connection.execute(update(MatchRow).where(MatchRow.id == match_id).values(clock=clock))

    @staticmethod
    def _check_fences(connection: Connection, fenced: Collection[tuple[int, int]]) -> None:
        """Lock the rooms of the (match, fence) pairs, or raise :class:`StaleFence` for those
        whose room's fence is not that."""
        if not fenced:
            return
        matches = {match_id for match_id, _ in fenced}
        rooms = (
            select(MatchRow.id, MatchRow.room_id, RoomRow.fence)
            .join(RoomRow, RoomRow.id == MatchRow.room_id)
            .where(MatchRow.id.in_(sorted(matches)))
        )
        if connection.dialect.name == "postgresql":
            # One round trip for the whole batch: the rows locked in room order (every writer
            # locks in one order, so no two deadlock) until the commit.
            found = {
                row.id: (row.room_id, row.fence)
                for row in connection.execute(
                    rooms.order_by(RoomRow.id).with_for_update(of=RoomRow)
                )
            }
            stale = sorted(
                match_id
                for match_id, fence in fenced
                if match_id not in found or found[match_id][1] != fence
            )
        else:
            stale = []
            # In match order, a write that changes nothing for the lock it takes (SQLite's
            # first write takes the whole database's): the check holds until the commit.
            for match_id, fence in sorted(fenced):
                room = select(MatchRow.room_id).where(MatchRow.id == match_id).scalar_subquery()
                held = connection.execute(
                    update(RoomRow)
                    .where(RoomRow.id == room, RoomRow.fence == fence)
                    .values(fence=RoomRow.fence)
                ).rowcount
                if held != 1:
                    stale.append(match_id)
            if not stale:
                return
            found = {
                row.id: (row.room_id, row.fence)
                for row in connection.execute(rooms.where(MatchRow.id.in_(stale)))
            }
        if not stale:
            return
        given = dict(fenced)
        said = [
            f"match {match_id} of room {found[match_id][0]}: its fence is "
            f"{found[match_id][1]}, not {given[match_id]}"
            if match_id in found
            else f"match {match_id}: there is no such match"
            for match_id in stale
        ]
        raise StaleFence(
            "moves refused, the room is owned under another token: " + "; ".join(said), stale
        )

    @_store
    def claim_room(self, room_id: str, token: int) -> None:
        """Raise the room's fence to ``token``, the fencing token its new owner got with its
        lease (see ``leases``): from then on only moves stored with ``token`` are taken, and
        none of the owners before. Raises :class:`StaleFence` if ``token`` is not above the
        fence (the room was claimed with it or a newer one), LookupError for no such room.

        A move of the previous owner being stored is committed before the claim or refused,
        never after it: read the room (:meth:`room`) once claimed, and it holds every move
        that will ever be stored under the old token.
        """
        _check_token(token)
        with self.engine.begin() as connection:
            raised = connection.execute(
                update(RoomRow)
                .where(RoomRow.id == room_id, RoomRow.fence < token)
                .values(fence=token)
            ).rowcount
            if raised == 1:
                return
            fence = connection.scalar(select(RoomRow.fence).where(RoomRow.id == room_id))
        if fence is None:
            raise LookupError(f"there is no room {room_id}")
        raise StaleFence(
            f"room {room_id} is claimed with fence {fence}: token {token} is not above it"
        )

    @_store
    def expire(self, before: datetime, *, batch: int = 500) -> int:
        """Delete every unfinished match last active before ``before``, with its hands and
        moves, and each room that is left with no match, with its seats; the matches deleted.

        A room that still has finished matches keeps them: its latest match is then a
        finished one. One transaction for each ``batch`` matches, so that many abandoned
        rooms never hold the database in one long transaction.
        """
        if batch < 1:
            raise ValueError(f"batch must be at least 1, not {batch}")
        cutoff = _utc(before)
        deleted = 0
        while True:
            done = self._expire_batch(cutoff, batch)
            deleted += done
            if done < batch:
                return deleted

    def _expire_batch(self, before: datetime, batch: int) -> int:
        with self.engine.connect() as connection:
            if connection.dialect.name == "sqlite":
                # Take the write lock before reading: a read turned into a write fails at
                # once, without waiting, if another connection wrote in between.
                connection.exec_driver_sql("BEGIN IMMEDIATE")
            found = connection.execute(
                select(MatchRow.id, MatchRow.room_id)
                .where(MatchRow.finished_at.is_(None), MatchRow.active_at < before)
                .limit(batch)
                # PostgreSQL: a match being written to is being played, so it is passed
                # over; those picked can take no move until they are gone.
                .with_for_update(skip_locked=True)
            ).all()
            if found:
                ids = [row.id for row in found]
                rooms = sorted({row.room_id for row in found})
                connection.execute(delete(MoveRow).where(MoveRow.match_id.in_(ids)))
                connection.execute(delete(MatchPlayerRow).where(MatchPlayerRow.match_id.in_(ids)))
                connection.execute(delete(HandRow).where(HandRow.match_id.in_(ids)))
                connection.execute(delete(MatchRow).where(MatchRow.id.in_(ids)))
                connection.execute(
                    delete(SeatRow).where(
                        SeatRow.room_id.in_(rooms),
                        ~exists().where(MatchRow.room_id == SeatRow.room_id),
                    )
                )
                connection.execute(
                    delete(RoomRow).where(
                        RoomRow.id.in_(rooms), ~exists().where(MatchRow.room_id == RoomRow.id)
                    )
                )
            connection.commit()
            return len(found)

    # -- reading

    @_read
    def answer(self) -> None:
        """Ask the database something trivial: raises :class:`StorageUnavailable` while it
        cannot be reached."""
        with self.engine.connect() as connection:
            connection.execute(select(1))

    @_read
    def room_fence(self, room_id: str) -> int | None:
        """The room's fence (0 if never claimed), or None for no such room."""
        with self.engine.connect() as connection:
            fence: int | None = connection.scalar(
                select(RoomRow.fence).where(RoomRow.id == room_id)
            )
            return fence

    @_read
    def seats(self, room_id: str) -> tuple[SeatRow, ...]:
        with self._session() as session:
            return _seats(session, room_id)

    @_read
    def room(self, room_id: str) -> StoredRoom | None:
        """A room with its latest match rebuilt, or None."""
        with self._session() as session:
            room = session.get(RoomRow, room_id)
            if room is None:
                return None
            match = latest_match(session, room_id)
            seats = _seats(session, room_id)
            game = Game.from_record(self._record(session, room, match))
            return StoredRoom(room, seats, match, game)

    @_read
    def finished_matches(
        self, limit: int = 100, *, public_only: bool = False
    ) -> list[tuple[MatchRow, RoomRow, list[SeatRow]]]:
        """Finished matches, newest first; with ``public_only`` those made public only."""
        conditions = [MatchRow.finished_at.is_not(None)]
        if public_only:
            conditions.append(MatchRow.public.is_(True))
        with self._session() as session:
            matches = session.scalars(
                select(MatchRow)
                .where(*conditions)
                .order_by(MatchRow.finished_at.desc(), MatchRow.id.desc())
                .limit(limit)
            ).all()
            return self._with_rooms(session, matches)

    @_read
    def matches_held(
        self, token_hashes: Collection[str], limit: int = 500, account_id: int | None = None
    ) -> list[tuple[MatchRow, RoomRow, list[SeatRow], int]]:
        """The finished matches in which a seat is held by one of ``token_hashes`` (see
        :func:`hash_token`), or that the account ``account_id`` played, newest first, each
        with the seat held (the lowest, should one list of tokens hold two seats of a room;
        the account's own where it played)."""
        if not token_hashes and account_id is None:
            return []
        with self._session() as session:
            held: dict[str, int] = {}
            if token_hashes:
                for room_id, seat in session.execute(
                    select(SeatRow.room_id, SeatRow.seat).where(
                        SeatRow.token_hash.in_(sorted(set(token_hashes)))
                    )
                ):
                    held[room_id] = min(seat, held.get(room_id, seat))
            played: dict[int, int] = {}
            if account_id is not None:
                played = dict(
                    session.execute(
                        select(MatchPlayerRow.match_id, MatchPlayerRow.seat).where(
                            MatchPlayerRow.account_id == account_id
                        )
                    ).all()
                )
            if not held and not played:
                return []
            matches = session.scalars(
                select(MatchRow)
                .where(
                    or_(MatchRow.room_id.in_(sorted(held)), MatchRow.id.in_(sorted(played))),
                    MatchRow.finished_at.is_not(None),
                )
                .order_by(MatchRow.finished_at.desc(), MatchRow.id.desc())
                .limit(limit)
            ).all()
            return [
                (match, room, seats, played.get(match.id, held.get(room.id, 0)))
                for match, room, seats in self._with_rooms(session, matches)
            ]

    @_store
    def make_public(
        self,
        match_id: int,
        token_hashes: Collection[str],
        public: bool,
        account_id: int | None = None,
    ) -> Literal["done", "unfinished", "not_held"]:
        """Open a finished match to everyone (or close it again) for one of its players:
        ``not_held`` when no seat of its room is held by one of ``token_hashes`` (or there is
        no such match: the two are answered alike), ``unfinished`` while it is being played."""
        if (not token_hashes and account_id is None) or not 1 <= match_id <= MAX_ID:
            return "not_held"
        with self._session() as session:
            found = session.execute(
                select(MatchRow.finished_at).where(
                    MatchRow.id == match_id, _held_by(token_hashes, account_id)
                )
            ).first()
            if found is None:
                return "not_held"
            if found.finished_at is None:
                return "unfinished"
            session.execute(update(MatchRow).where(MatchRow.id == match_id).values(public=public))
            return "done"

    @staticmethod
    def _with_rooms(
        session: Session, matches: Sequence[MatchRow]
    ) -> list[tuple[MatchRow, RoomRow, list[SeatRow]]]:
        """Matches with their rooms and their rooms' seats, in the matches' order."""
        room_ids = {match.room_id for match in matches}
        if not room_ids:
            return []
        rooms = {
            room.id: room
            for room in session.scalars(select(RoomRow).where(RoomRow.id.in_(room_ids)))
        }
        seats: dict[str, list[SeatRow]] = {room_id: [] for room_id in room_ids}
        for seat in session.scalars(
            select(SeatRow)
            .where(SeatRow.room_id.in_(room_ids))
            .order_by(SeatRow.room_id, SeatRow.seat)
        ):
            seats[seat.room_id].append(seat)
        return [(match, rooms[match.room_id], list(seats[match.room_id])) for match in matches]

    @_read
    def match_record(self, match_id: int) -> tuple[MatchRow, RoomRow, MatchRecord] | None:
        """A match's record (the engine's JSON record), or None if there is no such match."""
        with self._session() as session:
            match = session.get(MatchRow, match_id)
            if match is None:
                return None
            room = session.get(RoomRow, match.room_id)
            assert room is not None
            return match, room, self._record(session, room, match)

    @_read
    def finished_match_record(
        self,
        match_id: int,
        visible_to: Collection[str] | None = None,
        account_id: int | None = None,
    ) -> tuple[MatchRow, RoomRow, MatchRecord] | None:
        """A finished match's record, or None. An unknown match and one still being played
        run the very same statements, so asking tells nothing of the matches in play.

        With ``visible_to`` (token hashes, see :func:`hash_token`) only a public match, one
        with a seat held by one of them, or one the account ``account_id`` played is found: a
        match of others is answered as an unknown one, by the same single statement."""
        if not 1 <= match_id <= MAX_ID:
            return None  # no such id can be stored
        conditions = [MatchRow.id == match_id, MatchRow.finished_at.is_not(None)]
        if visible_to is not None:
            conditions.append(or_(MatchRow.public.is_(True), _held_by(visible_to, account_id)))
        with self._session() as session:
            found = session.execute(
                select(MatchRow, RoomRow)
                .join(RoomRow, RoomRow.id == MatchRow.room_id)
                .where(*conditions)
            ).first()
            if found is None:
                return None
            match, room = found
            return match, room, self._record(session, room, match)

    @staticmethod
    def _record(session: Session, room: RoomRow, match: MatchRow) -> MatchRecord:
        hands = session.scalars(
            select(HandRow).where(HandRow.match_id == match.id).order_by(HandRow.number)
        ).all()
        moves: list[list[str]] = [[] for _ in hands]
        for move in session.scalars(
            select(MoveRow).where(MoveRow.match_id == match.id).order_by(MoveRow.number)
        ):
            moves[move.hand].append(move.move)
        return match_record(
            RuleSet.from_dict(room.rules),
            room.players,
            room.partnerships,
            match.seed,
            match.first_dealer,
            (
                HandRecord(dealer=hand.dealer, deals=hand.deals, moves=hand_moves)
                for hand, hand_moves in zip(hands, moves, strict=True)
            ),
        )
