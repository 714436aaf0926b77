"""Where rooms and matches live: a database through SQLAlchemy, migrated by Alembic.

A match is stored as its event log: the rules and seed, each hand's dealer and decks (every
deal, voided ones too) and every move, one row per move written before the move is
acknowledged. A match is rebuilt by replaying that log with the engine.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    String,
    create_engine,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker

from ..game import Game
from ..records import RECORD_FORMAT, RECORD_VERSION

__all__ = [
    "Base",
    "MatchRow",
    "MoveWrite",
    "RoomRow",
    "SeatRow",
    "Storage",
    "default_database_url",
    "hash_token",
    "token_matches",
]

MIGRATIONS: Final = Path(__file__).parent / "migrations"


def default_database_url() -> str:
    """SQLite in the user's data directory (or ``ESCOBA_DATA_DIR``)."""
    from ..play.storage import data_dir

    folder = data_dir()
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'escoba.db'}"


def hash_token(token: str) -> str:
    """The stored form of a seat token: its SHA-256 (tokens are random, so no salt needed)."""
    return hashlib.sha256(token.encode()).hexdigest()


def token_matches(token: str, stored_hash: str | None) -> bool:
    """Compare in constant time, so the answer's timing tells nothing about the hash."""
    if stored_hash is None:
        return False
    return hmac.compare_digest(hash_token(token), stored_hash)


def _now() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    pass


class RoomRow(Base):
    __tablename__ = "rooms"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    players: Mapped[int] = mapped_column(Integer)
    partnerships: Mapped[bool] = mapped_column(Boolean)


class SeatRow(Base):
    __tablename__ = "seats"

    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    level: Mapped[str | None] = mapped_column(String(16))
    """The computer level; None for a person's seat."""
    nickname: Mapped[str | None] = mapped_column(String(64))
    token_hash: Mapped[str | None] = mapped_column(String(64))


class MatchRow(Base):
    __tablename__ = "matches"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    """1 for a room's first match, 2 for its rematch, ..."""
    seed: Mapped[int] = mapped_column(BigInteger)
    first_dealer: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), index=True)
    winner: Mapped[int | None] = mapped_column(Integer)
    totals: Mapped[list[int] | None] = mapped_column(JSON)


class HandRow(Base):
    __tablename__ = "hands"

    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    dealer: Mapped[int] = mapped_column(Integer)
    deals: Mapped[list[list[str]]] = mapped_column(JSON)
    """Every deck dealt for this hand, in order: the last one is played."""


class MoveRow(Base):
    __tablename__ = "moves"

    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    """Moves played before this one in the match."""
    hand: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    move: Mapped[str] = mapped_column(String(64))
    played_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


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

    @classmethod
    def of(
        cls, match_id: int, number: int, hand: int, seat: int, move: str, game: Game, known: int
    ) -> MoveWrite:
        """The write for a move just played in ``game``; ``known`` hands are stored already.

        The record is built only when a hand ended, the one time a move adds decks.
        """
        hands: list[tuple[int, int, list[list[str]]]] = []
        if game.hand_number != hand or game.is_over():
            entries = game.record()["hands"]
            hands = [
                (n, entries[n]["dealer"], entries[n]["deals"]) for n in range(known, len(entries))
            ]
        finished = (game.winner, list(game.totals)) if game.is_over() else None
        return cls(match_id, number, hand, seat, move, tuple(hands), finished)


@dataclass(frozen=True, slots=True)
class StoredRoom:
    """A room with its seats and its current (latest) match, as read back."""

    room: RoomRow
    seats: tuple[SeatRow, ...]
    match: MatchRow
    game: Game


def _seats(session: Session, room_id: str) -> tuple[SeatRow, ...]:
    """A room's seats, in seat order."""
    return tuple(
        session.scalars(select(SeatRow).where(SeatRow.room_id == room_id).order_by(SeatRow.seat))
    )


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


class Storage:
    """Rooms and matches in one database; every write is committed before it returns."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine: Engine = create_engine(url)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        elif self.engine.dialect.name == "postgresql":
            event.listen(self.engine, "connect", _postgresql_utc)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    def migrate(self) -> None:
        """Create or upgrade the schema to the newest revision."""
        from alembic import command
        from alembic.config import Config

        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        with self.engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "head")

    def close(self) -> None:
        self.engine.dispose()

    @contextmanager
    def _session(self) -> Iterator[Session]:
        with self._sessions() as session, session.begin():
            yield session

    # -- writing

    def create_room(
        self,
        room_id: str,
        game: Game,
        levels: Sequence[str | None],
        *,
        seed: int,
    ) -> MatchRow:
        """A new room and its first match."""
        with self._session() as session:
            session.add(
                RoomRow(
                    id=room_id,
                    rules=game.rules.to_dict(),
                    players=game.players,
                    partnerships=game.partnerships,
                )
            )
            session.add_all(
                SeatRow(room_id=room_id, seat=seat, level=level)
                for seat, level in enumerate(levels)
            )
            session.flush()
            return self._add_match(session, room_id, 1, game, seed)

    def new_match(self, room_id: str, number: int, game: Game, seed: int) -> MatchRow:
        """A rematch in a room."""
        with self._session() as session:
            return self._add_match(session, room_id, number, game, seed)

    def _add_match(
        self, session: Session, room_id: str, number: int, game: Game, seed: int
    ) -> MatchRow:
        match = MatchRow(room_id=room_id, number=number, seed=seed, first_dealer=game.first_dealer)
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

    def take_seat(self, room_id: str, seat: int, nickname: str, token: str) -> None:
        with self._session() as session:
            row = session.get(SeatRow, (room_id, seat))
            assert row is not None and row.level is None and row.token_hash is None
            row.nickname = nickname
            row.token_hash = hash_token(token)

    def add_move(
        self, match_id: int, number: int, hand: int, seat: int, move: str, game: Game, known: int
    ) -> int:
        """Store a move (and a new hand's decks if the move began one); the hands now known.

        ``game`` is the match after the move; ``known`` the hands stored before it.
        """
        write = MoveWrite.of(match_id, number, hand, seat, move, game, known)
        self.write_moves([write])
        return known + len(write.hands)

    def write_moves(self, writes: Sequence[MoveWrite]) -> None:
        """Store moves of any matches in one transaction: one commit for many moves when
        many matches are played at once."""
        if not writes:
            return
        now = _now()
        with self.engine.begin() as connection:
            connection.execute(
                insert(MoveRow),
                [
                    {
                        "match_id": w.match_id,
                        "number": w.number,
                        "hand": w.hand,
                        "seat": w.seat,
                        "move": w.move,
                        "played_at": now,
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
            for w in writes:
                if w.finished is not None:
                    winner, totals = w.finished
                    connection.execute(
                        update(MatchRow)
                        .where(MatchRow.id == w.match_id)
                        .values(finished_at=now, winner=winner, totals=totals)
                    )

    # -- reading

    def seats(self, room_id: str) -> tuple[SeatRow, ...]:
        with self._session() as session:
            return _seats(session, room_id)

    def room(self, room_id: str) -> StoredRoom | None:
        """A room with its latest match rebuilt, or None."""
        with self._session() as session:
            room = session.get(RoomRow, room_id)
            if room is None:
                return None
            match = session.scalars(
                select(MatchRow).where(MatchRow.room_id == room_id).order_by(MatchRow.number.desc())
            ).first()
            assert match is not None, "every room has a match"
            seats = _seats(session, room_id)
            game = Game.from_record(self._record(session, room, match))
            return StoredRoom(room, seats, match, game)

    def unfinished_rooms(self) -> list[str]:
        """Rooms whose latest match is not over: the server resumes them on start."""
        with self._session() as session:
            latest: dict[str, MatchRow] = {}
            for match in session.scalars(select(MatchRow).order_by(MatchRow.number)):
                latest[match.room_id] = match
            return [room for room, match in latest.items() if match.finished_at is None]

    def finished_matches(self, limit: int = 100) -> list[tuple[MatchRow, RoomRow, list[SeatRow]]]:
        """Finished matches, newest first."""
        with self._session() as session:
            matches = session.scalars(
                select(MatchRow)
                .where(MatchRow.finished_at.is_not(None))
                .order_by(MatchRow.finished_at.desc(), MatchRow.id.desc())
                .limit(limit)
            ).all()
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

    def match_record(self, match_id: int) -> tuple[MatchRow, RoomRow, dict[str, Any]] | None:
        """A match's record (the engine's JSON record), or None if there is no such match."""
        with self._session() as session:
            match = session.get(MatchRow, match_id)
            if match is None:
                return None
            room = session.get(RoomRow, match.room_id)
            assert room is not None
            return match, room, self._record(session, room, match)

    @staticmethod
    def _record(session: Session, room: RoomRow, match: MatchRow) -> dict[str, Any]:
        hands = session.scalars(
            select(HandRow).where(HandRow.match_id == match.id).order_by(HandRow.number)
        ).all()
        moves: list[list[str]] = [[] for _ in hands]
        for move in session.scalars(
            select(MoveRow).where(MoveRow.match_id == match.id).order_by(MoveRow.number)
        ):
            moves[move.hand].append(move.move)
        return {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "rules": room.rules,
            "players": room.players,
            "partnerships": room.partnerships,
            "seed": match.seed,
            "first_dealer": match.first_dealer,
            "hands": [
                {"dealer": hand.dealer, "deals": hand.deals, "moves": hand_moves}
                for hand, hand_moves in zip(hands, moves, strict=True)
            ],
        }
