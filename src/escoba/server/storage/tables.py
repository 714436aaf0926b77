"""The database's tables: rooms, their seats, matches, hands and moves (SQLAlchemy's
declarative models; Alembic's migrations in ``migrations/`` make and change them)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    false,
    true,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

__all__ = ["Base", "HandRow", "MatchRow", "MoveRow", "RoomRow", "SeatRow", "now"]


def now() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    pass


class RoomRow(Base):
    __tablename__ = "rooms"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    players: Mapped[int] = mapped_column(Integer)
    partnerships: Mapped[bool] = mapped_column(Boolean)
    fence: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    """The fencing token of the room's owner when several processes serve the site (see
    ``replication.leases``): a move stored with an older token is refused. 0: never claimed."""
    listed: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """An open table: listed in the lobby for anyone to sit at (else found by its link only)."""
    watchable: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    """Its matches may be watched from the lobby once every seat is taken (an open table)."""
    language: Mapped[str] = mapped_column(String(8), default="en", server_default="en")
    """Its creator's language, shown in the lobby."""
    clock: Mapped[dict[str, float] | None] = mapped_column(JSON)
    """Its time control, ``{"per_move", "reserve"}`` in seconds; None: no clock."""


class SeatRow(Base):
    __tablename__ = "seats"

    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    level: Mapped[str | None] = mapped_column(String(16))
    """The computer level; None for a person's seat."""
    nickname: Mapped[str | None] = mapped_column(String(64))
    token_hash: Mapped[str | None] = mapped_column(String(64), index=True)
    """The SHA-256 of the seat's token (see ``storage.hash_token``); None while it is free."""


class MatchRow(Base):
    __tablename__ = "matches"
    __table_args__ = (
        # The unfinished matches (finished_at NULL) by activity: the live rooms and the
        # abandoned ones are each one range of it, room ids included, so the index alone
        # answers.
        Index("ix_matches_live", "finished_at", "active_at", "room_id"),
        Index("ix_matches_public", "public", "finished_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    """1 for a room's first match, 2 for its rematch, ..."""
    seed: Mapped[int] = mapped_column(BigInteger)
    first_dealer: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), index=True)
    active_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    """The last time anything happened in the match: made, a seat taken, a move played."""
    winner: Mapped[int | None] = mapped_column(Integer)
    totals: Mapped[list[int] | None] = mapped_column(JSON)
    public: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Made public by one of its players once finished: anyone may then list and replay it."""
    ended: Mapped[str | None] = mapped_column(String(16))
    """How it ended other than by its score: ``abandoned`` (claimed by ``winner``)."""
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    """Its clocks (a room with a time control): each seat's reserve and timeouts in a row, and
    the running turn's seat, start and deadline (seconds since the epoch), stored with every
    move so that any process enforces the same deadline."""


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
    played_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
