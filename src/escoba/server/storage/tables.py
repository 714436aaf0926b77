"""The database's tables: rooms, their seats, matches, hands and moves; accounts, their
passkeys, sessions and ratings (SQLAlchemy's declarative models; Alembic's migrations in
``migrations/`` make and change them)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    false,
    true,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

__all__ = [
    "AccountRow",
    "AnalysisRow",
    "Base",
    "FairPlayFlagRow",
    "FlowRow",
    "HandRow",
    "MatchPlayerRow",
    "MatchRow",
    "MoveRow",
    "PasskeyRow",
    "PuzzleAttemptRow",
    "PuzzleRatingRow",
    "RatingChangeRow",
    "RatingRow",
    "RoomRow",
    "SeatRow",
    "SessionRow",
    "SignInFailureRow",
    "now",
]


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
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Its matches between accounts change their ratings (an open table with a clock)."""


class SeatRow(Base):
    __tablename__ = "seats"

    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    level: Mapped[str | None] = mapped_column(String(16))
    """The computer level; None for a person's seat."""
    nickname: Mapped[str | None] = mapped_column(String(64))
    token_hash: Mapped[str | None] = mapped_column(String(64), index=True)
    """The SHA-256 of the seat's token (see ``storage.hash_token``); None while it is free."""
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), index=True)
    """The account of the person sitting there, when they were signed in."""


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
    rating: Mapped[str | None] = mapped_column(String(16))
    """What its end did to ratings (a rated room's match): ``rated``, ``daily_limit`` (the same
    accounts met too often that day), ``aborted`` (no move was played) or ``casual`` (not
    every seat an account's); None while it is played and for rooms that are not rated."""


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


class AccountRow(Base):
    """A person with a name: a username, a password (its Argon2id hash) or passkeys, or both."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    username: Mapped[str | None] = mapped_column(String(64))
    """As shown; None once the account is deleted (its matches stay, a "deleted player")."""
    username_key: Mapped[str | None] = mapped_column(String(64), unique=True)
    """The username folded (NFKC, case-folded): two names that read alike are one name."""
    password_hash: Mapped[str | None] = mapped_column(String(256))
    """Argon2id, as ``argon2-cffi`` encodes it; None: passkeys only."""
    user_handle: Mapped[str] = mapped_column(String(64), unique=True)
    """The account's WebAuthn user handle (random, base64url): a passkey names it."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    disabled: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Set by an admin: it cannot sign in, and its sessions are ended."""
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class PasskeyRow(Base):
    __tablename__ = "passkeys"

    id: Mapped[str] = mapped_column(String(1024), primary_key=True)
    """The credential's id, base64url."""
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    public_key: Mapped[bytes] = mapped_column(LargeBinary)
    """COSE-encoded, as the authenticator gave it at registration."""
    sign_count: Mapped[int] = mapped_column(BigInteger, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class SessionRow(Base):
    __tablename__ = "sessions"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    """The SHA-256 of the session's token: the cookie's value is never stored."""
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    csrf: Mapped[str] = mapped_column(String(64))
    """The token state-changing requests of this session present in ``X-CSRF-Token``."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class FlowRow(Base):
    """A passkey ceremony under way: the challenge the server gave, until it is answered."""

    __tablename__ = "passkey_flows"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    purpose: Mapped[str] = mapped_column(String(16))
    """``register`` (a new account or another passkey) or ``sign_in``."""
    challenge: Mapped[str] = mapped_column(String(128))
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"))
    """The account adding a passkey; None for a new account or a sign-in."""
    username: Mapped[str | None] = mapped_column(String(64))
    """The new account's username (registering)."""
    user_handle: Mapped[str | None] = mapped_column(String(64))
    address: Mapped[str | None] = mapped_column(String(64), index=True)
    """The SHA-256 of the address that began it (ceremonies under way are limited per
    address)."""
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class SignInFailureRow(Base):
    """A failed sign-in, counted against its username and its address (see ``accounts``)."""

    __tablename__ = "sign_in_failures"
    __table_args__ = (Index("ix_sign_in_failures_key_at", "key", "at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    key: Mapped[str] = mapped_column(String(128))
    """``name:`` and the folded username, or ``address:`` and the address as limits count it."""
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class MatchPlayerRow(Base):
    """An account's seat in a match: who played it, whatever happened to the seat later."""

    __tablename__ = "match_players"

    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    address: Mapped[str | None] = mapped_column(String(64))
    """The SHA-256 of the address it sat down from (the fair-play flags compare them)."""
    left: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """It abandoned the match (its seat given to a computer, or claimed against)."""


class RatingRow(Base):
    """An account's rating in one game (OpenSkill's ``mu`` and ``sigma``)."""

    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_board", "game", "mu"),)

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(16), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    matches: Mapped[int] = mapped_column(Integer, default=0)
    played_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class RatingChangeRow(Base):
    """What one finished rated match did to one account's rating: its history."""

    __tablename__ = "rating_changes"

    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True, index=True)
    seat: Mapped[int] = mapped_column(Integer)
    game: Mapped[str] = mapped_column(String(16))
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu_after: Mapped[float] = mapped_column(Float)
    sigma_after: Mapped[float] = mapped_column(Float)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class FairPlayFlagRow(Base):
    """A rated match the admin should look at: accounts on different sides from one address."""

    __tablename__ = "fair_play_flags"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), index=True)
    reason: Mapped[str] = mapped_column(String(32))
    accounts: Mapped[list[int]] = mapped_column(JSON)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class AnalysisRow(Base):
    """A finished match's analysis (see ``escoba.ai.analysis``), worked out in the background:
    ``queued``, ``running`` (claimed by one process until its lease ends), ``done`` or
    ``failed``."""

    __tablename__ = "analyses"
    __table_args__ = (Index("ix_analyses_queue", "status", "requested_at"),)

    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    version: Mapped[int] = mapped_column(Integer)
    """The ``ANALYSIS_VERSION`` it was made with: an older one is redone when asked for."""
    status: Mapped[str] = mapped_column(String(16))
    moves: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    """``MoveAnalysis.to_dict()`` of the moves analysed so far, in order: a resumed run goes on
    from ``len(moves)``."""
    total: Mapped[int | None] = mapped_column(Integer)
    """The moves to analyse; None until a runner has listed them."""
    requested_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    claimed_by: Mapped[str | None] = mapped_column(String(64))
    """The process working it out (``running``)."""
    claimed_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    """Its lease: past it, another process may claim it again and resume."""
    error: Mapped[str | None] = mapped_column(String(512))


class PuzzleRatingRow(Base):
    """An account's puzzle rating (OpenSkill's ``mu`` and ``sigma``, the puzzles as settled
    opponents), its run of puzzles solved in a row and its counts."""

    __tablename__ = "puzzle_ratings"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    streak: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """Puzzles solved in a row at their first try, up to the latest."""
    best_streak: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    solved: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    attempted: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class PuzzleAttemptRow(Base):
    """An account's first try of a puzzle: only that one changed its puzzle rating."""

    __tablename__ = "puzzle_attempts"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    puzzle_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    solved: Mapped[bool] = mapped_column(Boolean)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
