"""Accounts as stored: names, password hashes, passkeys, sessions, passkey ceremonies, failed
sign-ins, and what an account asks of its matches (attach, export, delete).

Nothing secret is stored as it was given: a session's token and a seat's token only as their
SHA-256, a password only as its Argon2id hash (made by the caller, :mod:`..accounts`).
"""

from __future__ import annotations

import secrets
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Final

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy import exc as sa_exc
from sqlalchemy.orm import Session, sessionmaker

from .rated import hash_address
from .repository import Storage, _read, _store, _utc, hash_token
from .tables import (
    AccountRow,
    FairPlayFlagRow,
    FlowRow,
    MatchPlayerRow,
    MatchRow,
    PasskeyRow,
    PuzzleAttemptRow,
    PuzzleRatingRow,
    RatingChangeRow,
    RatingRow,
    RoomRow,
    SeatRow,
    SessionRow,
    SignInFailureRow,
    now,
)

__all__ = [
    "SESSION_DAYS",
    "AccountStore",
    "NameTaken",
    "SignedIn",
]

SESSION_DAYS: Final = 30
"""A session ends after this many days without use."""
SEEN_EVERY: Final = timedelta(hours=1)
"""A session's last use is written at most this often (reading a page writes nothing)."""


class NameTaken(Exception):  # noqa: N818 (a state of the names, not a failure)
    """The username (folded) belongs to another account."""


@dataclass(frozen=True, slots=True)
class SignedIn:
    """A live session's account, as a request sees it."""

    account_id: int
    username: str
    session: str
    """The session's id (the token's hash)."""
    csrf: str


class AccountStore:
    """The accounts of one database (the one of ``storage``)."""

    def __init__(self, storage: Storage) -> None:
        self.engine = storage.engine
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    @contextmanager
    def _session(self) -> Iterator[Session]:
        with self._sessions() as session, session.begin():
            yield session

    # -- accounts

    @_store
    def create(
        self, username: str, key: str, password_hash: str | None, user_handle: str | None = None
    ) -> AccountRow:
        """A new account; :class:`NameTaken` if ``key`` is another's."""
        handle = user_handle or secrets.token_urlsafe(32)  # base64url, as WebAuthn's handles
        try:
            with self._session() as session:
                account = AccountRow(
                    username=username,
                    username_key=key,
                    password_hash=password_hash,
                    user_handle=handle,
                    created_at=now(),
                )
                session.add(account)
                session.flush()
                return account
        except sa_exc.IntegrityError:
            raise NameTaken(username) from None

    @_read
    def by_key(self, key: str) -> AccountRow | None:
        """The account whose folded username is ``key`` (deleted ones have none)."""
        with self._session() as session:
            return session.scalars(select(AccountRow).where(AccountRow.username_key == key)).first()

    @_read
    def by_id(self, account_id: int) -> AccountRow | None:
        with self._session() as session:
            return session.get(AccountRow, account_id)

    @_read
    def by_handle(self, handle: str) -> AccountRow | None:
        with self._session() as session:
            return session.scalars(
                select(AccountRow).where(AccountRow.user_handle == handle)
            ).first()

    @_store
    def set_password(self, account_id: int, password_hash: str | None) -> None:
        with self._session() as session:
            session.execute(
                update(AccountRow)
                .where(AccountRow.id == account_id)
                .values(password_hash=password_hash)
            )

    @_store
    def rename(self, account_id: int, username: str, key: str) -> None:
        """A new username, shown in its seats too; :class:`NameTaken` if it is another's."""
        try:
            with self._session() as session:
                session.execute(
                    update(AccountRow)
                    .where(AccountRow.id == account_id)
                    .values(username=username, username_key=key)
                )
                session.execute(
                    update(SeatRow)
                    .where(SeatRow.account_id == account_id)
                    .values(nickname=username)
                )
        except sa_exc.IntegrityError:
            raise NameTaken(username) from None

    @_store
    def set_disabled(self, account_id: int, disabled: bool) -> None:
        """Disable an account (its sessions end) or enable it again."""
        with self._session() as session:
            session.execute(
                update(AccountRow).where(AccountRow.id == account_id).values(disabled=disabled)
            )
            if disabled:
                session.execute(delete(SessionRow).where(SessionRow.account_id == account_id))

    @_read
    def listing(self) -> list[dict[str, Any]]:
        """Every account that is not deleted, by name, with its rated matches and the
        fair-play flags raised on its matches (the admin's list)."""
        with self._session() as session:
            accounts = session.scalars(
                select(AccountRow)
                .where(AccountRow.deleted_at.is_(None))
                .order_by(AccountRow.username_key)
            ).all()
            rated = dict(
                session.execute(
                    select(RatingChangeRow.account_id, func.count()).group_by(
                        RatingChangeRow.account_id
                    )
                ).all()
            )
            flags: dict[int, int] = {}
            for (accounts_flagged,) in session.execute(select(FairPlayFlagRow.accounts)):
                for account_id in accounts_flagged:
                    flags[account_id] = flags.get(account_id, 0) + 1
            passkeys = dict(
                session.execute(
                    select(PasskeyRow.account_id, func.count()).group_by(PasskeyRow.account_id)
                ).all()
            )
            return [
                {
                    "id": account.id,
                    "username": account.username,
                    "created_at": _utc(account.created_at).isoformat(),
                    "disabled": account.disabled,
                    "password": account.password_hash is not None,
                    "passkeys": passkeys.get(account.id, 0),
                    "rated_matches": rated.get(account.id, 0),
                    "flags": flags.get(account.id, 0),
                }
                for account in accounts
            ]

    @_read
    def flags(self) -> list[dict[str, Any]]:
        """The fair-play flags, newest first, with the accounts' names."""
        with self._session() as session:
            rows = session.scalars(
                select(FairPlayFlagRow).order_by(FairPlayFlagRow.id.desc()).limit(500)
            ).all()
            ids = {account_id for row in rows for account_id in row.accounts}
            names = dict(
                session.execute(
                    select(AccountRow.id, AccountRow.username).where(AccountRow.id.in_(ids))
                ).all()
            )
            return [
                {
                    "match": row.match_id,
                    "reason": row.reason,
                    "accounts": [names.get(account_id) for account_id in row.accounts],
                    "at": _utc(row.at).isoformat(),
                }
                for row in rows
            ]

    # -- sessions

    @_store
    def new_session(self, account_id: int, replacing: str | None = None) -> tuple[str, str]:
        """A new session for the account: ``(token, csrf)``. The session ``replacing`` (the
        one the browser presented, any account's) ends: a sign-in always gets a new id."""
        token = secrets.token_urlsafe(32)
        csrf = secrets.token_urlsafe(32)
        moment = now()
        with self._session() as session:
            if replacing is not None:
                session.execute(delete(SessionRow).where(SessionRow.id == replacing))
            session.add(
                SessionRow(
                    id=hash_token(token),
                    account_id=account_id,
                    csrf=csrf,
                    created_at=moment,
                    seen_at=moment,
                )
            )
        return token, csrf

    @_store
    def signed_in(self, token: str) -> SignedIn | None:
        """The live session of ``token`` with its account, or None (unknown, expired, or
        its account disabled or deleted)."""
        if not token or len(token) > 128:
            return None
        session_id = hash_token(token)
        moment = now()
        with self._session() as session:
            found = session.execute(
                select(SessionRow, AccountRow)
                .join(AccountRow, AccountRow.id == SessionRow.account_id)
                .where(SessionRow.id == session_id)
            ).first()
            if found is None:
                return None
            row, account = found
            seen = _utc(row.seen_at)
            if (
                moment - seen > timedelta(days=SESSION_DAYS)
                or account.disabled
                or account.username is None
            ):
                session.execute(delete(SessionRow).where(SessionRow.id == session_id))
                return None
            if moment - seen > SEEN_EVERY:
                row.seen_at = moment
            return SignedIn(account.id, account.username, session_id, row.csrf)

    @_store
    def end_session(self, session_id: str) -> None:
        with self._session() as session:
            session.execute(delete(SessionRow).where(SessionRow.id == session_id))

    @_store
    def end_sessions(self, account_id: int) -> int:
        """End every session of the account (signed out everywhere): how many."""
        with self._session() as session:
            ended = session.execute(delete(SessionRow).where(SessionRow.account_id == account_id))
            return int(ended.rowcount)  # type: ignore[attr-defined]

    # -- failed sign-ins

    @_read
    def failures(self, keys: Sequence[str], since: datetime) -> dict[str, int]:
        """The failed sign-ins counted against each key since ``since``."""
        with self._session() as session:
            found = dict(
                session.execute(
                    select(SignInFailureRow.key, func.count())
                    .where(SignInFailureRow.key.in_(list(keys)), SignInFailureRow.at >= _utc(since))
                    .group_by(SignInFailureRow.key)
                ).all()
            )
            return {key: int(found.get(key, 0)) for key in keys}

    @_store
    def failed(self, keys: Sequence[str], at: datetime, before: datetime) -> None:
        """A failed sign-in at ``at``, counted against each key; those older than ``before``
        are forgotten."""
        with self._session() as session:
            session.execute(delete(SignInFailureRow).where(SignInFailureRow.at < _utc(before)))
            session.execute(
                insert(SignInFailureRow), [{"key": key, "at": _utc(at)} for key in keys]
            )

    @_store
    def forget_failures(self, key: str) -> None:
        with self._session() as session:
            session.execute(delete(SignInFailureRow).where(SignInFailureRow.key == key))

    # -- passkeys and their ceremonies

    @_store
    def new_flow(
        self,
        purpose: str,
        challenge: str,
        expires_at: datetime,
        *,
        account_id: int | None = None,
        username: str | None = None,
        user_handle: str | None = None,
        address: str | None = None,
        most: int | None = None,
    ) -> str | None:
        """A new passkey ceremony's id; None when ``address`` has ``most`` under way."""
        flow = secrets.token_urlsafe(24)
        place = None if address is None else hash_address(address)
        with self._session() as session:
            session.execute(delete(FlowRow).where(FlowRow.expires_at < now()))
            if place is not None and most is not None:
                under_way = session.scalar(
                    select(func.count()).select_from(FlowRow).where(FlowRow.address == place)
                )
                if (under_way or 0) >= most:
                    return None
            session.add(
                FlowRow(
                    id=flow,
                    purpose=purpose,
                    challenge=challenge,
                    account_id=account_id,
                    username=username,
                    user_handle=user_handle,
                    address=place,
                    expires_at=expires_at,
                )
            )
        return flow

    @_store
    def take_flow(self, flow: str, purpose: str) -> FlowRow | None:
        """The ceremony ``flow``, used up (a challenge is answered once), or None if there is
        none of ``purpose`` or it expired."""
        if len(flow) > 64:
            return None
        with self._session() as session:
            row = session.get(FlowRow, flow)
            if row is None or row.purpose != purpose:
                return None
            session.delete(row)
            if _utc(row.expires_at) < now():
                return None
            return row

    @_store
    def add_passkey(
        self, account_id: int, credential_id: str, public_key: bytes, sign_count: int
    ) -> None:
        with self._session() as session:
            session.add(
                PasskeyRow(
                    id=credential_id,
                    account_id=account_id,
                    public_key=public_key,
                    sign_count=sign_count,
                    created_at=now(),
                )
            )

    @_read
    def passkey(self, credential_id: str) -> PasskeyRow | None:
        if len(credential_id) > 1024:
            return None
        with self._session() as session:
            return session.get(PasskeyRow, credential_id)

    @_store
    def passkey_used(self, credential_id: str, sign_count: int) -> None:
        with self._session() as session:
            session.execute(
                update(PasskeyRow)
                .where(PasskeyRow.id == credential_id)
                .values(sign_count=sign_count, used_at=now())
            )

    @_read
    def passkeys(self, account_id: int) -> list[PasskeyRow]:
        with self._session() as session:
            return list(
                session.scalars(
                    select(PasskeyRow)
                    .where(PasskeyRow.account_id == account_id)
                    .order_by(PasskeyRow.created_at)
                )
            )

    # -- the account's matches

    @_store
    def attach(self, account_id: int, username: str, token_hashes: Collection[str]) -> int:
        """Put on the account the seats these tokens hold that no account holds yet, and
        every match played in them: the matches attached."""
        if not token_hashes:
            return 0
        attached = 0
        with self._session() as session:
            seats = session.scalars(
                select(SeatRow).where(
                    SeatRow.token_hash.in_(sorted(set(token_hashes))),
                    SeatRow.account_id.is_(None),
                )
            ).all()
            for seat in seats:
                seat.account_id = account_id
                matches = session.scalars(
                    select(MatchRow.id).where(MatchRow.room_id == seat.room_id)
                ).all()
                known = set(
                    session.scalars(
                        select(MatchPlayerRow.match_id).where(
                            MatchPlayerRow.match_id.in_(matches),
                            MatchPlayerRow.seat == seat.seat,
                        )
                    )
                )
                for match_id in matches:
                    if match_id not in known:
                        session.add(
                            MatchPlayerRow(match_id=match_id, seat=seat.seat, account_id=account_id)
                        )
                        attached += 1
        return attached

    @_read
    def export(self, account_id: int) -> dict[str, Any]:
        """Everything stored of the account, as JSON: no hash of any secret."""
        with self._session() as session:
            account = session.get(AccountRow, account_id)
            assert account is not None
            passkeys = session.scalars(
                select(PasskeyRow).where(PasskeyRow.account_id == account_id)
            ).all()
            ratings = session.scalars(
                select(RatingRow).where(RatingRow.account_id == account_id)
            ).all()
            changes = session.scalars(
                select(RatingChangeRow)
                .where(RatingChangeRow.account_id == account_id)
                .order_by(RatingChangeRow.at)
            ).all()
            played = session.execute(
                select(MatchPlayerRow, MatchRow, RoomRow)
                .join(MatchRow, MatchRow.id == MatchPlayerRow.match_id)
                .join(RoomRow, RoomRow.id == MatchRow.room_id)
                .where(MatchPlayerRow.account_id == account_id)
                .order_by(MatchRow.id)
            ).all()
            sessions = session.scalars(
                select(SessionRow).where(SessionRow.account_id == account_id)
            ).all()
            puzzles = session.get(PuzzleRatingRow, account_id)
            tries = session.scalars(
                select(PuzzleAttemptRow)
                .where(PuzzleAttemptRow.account_id == account_id)
                .order_by(PuzzleAttemptRow.at, PuzzleAttemptRow.puzzle_id)
            ).all()
            return {
                "username": account.username,
                "created_at": _utc(account.created_at).isoformat(),
                "has_password": account.password_hash is not None,
                "passkeys": [
                    {
                        "id": key.id,
                        "created_at": _utc(key.created_at).isoformat(),
                        "used_at": None if key.used_at is None else _utc(key.used_at).isoformat(),
                    }
                    for key in passkeys
                ],
                "sessions": [
                    {
                        "created_at": _utc(row.created_at).isoformat(),
                        "seen_at": _utc(row.seen_at).isoformat(),
                    }
                    for row in sessions
                ],
                "ratings": [
                    {"game": row.game, "mu": row.mu, "sigma": row.sigma, "matches": row.matches}
                    for row in ratings
                ],
                "rating_changes": [
                    {
                        "match": row.match_id,
                        "game": row.game,
                        "mu_before": row.mu_before,
                        "sigma_before": row.sigma_before,
                        "mu_after": row.mu_after,
                        "sigma_after": row.sigma_after,
                        "at": _utc(row.at).isoformat(),
                    }
                    for row in changes
                ],
                "puzzle_rating": None
                if puzzles is None
                else {
                    "mu": puzzles.mu,
                    "sigma": puzzles.sigma,
                    "streak": puzzles.streak,
                    "best_streak": puzzles.best_streak,
                    "solved": puzzles.solved,
                    "attempted": puzzles.attempted,
                },
                "puzzles": [
                    {"puzzle": row.puzzle_id, "solved": row.solved, "at": _utc(row.at).isoformat()}
                    for row in tries
                ],
                "matches": [
                    {
                        "match": match.id,
                        "room": room.id,
                        "seat": player.seat,
                        "rules": room.rules,
                        "players": room.players,
                        "partnerships": room.partnerships,
                        "finished_at": None
                        if match.finished_at is None
                        else _utc(match.finished_at).isoformat(),
                        "winner": match.winner,
                        "totals": match.totals,
                        "left": player.left,
                    }
                    for player, match, room in played
                ],
            }

    @_store
    def delete(self, account_id: int) -> None:
        """Delete the account: its name, secrets, passkeys, sessions and ratings go; its
        matches stay, played by a "deleted player" (its seats keep no name; whoever holds a
        seat's token may still play it)."""
        with self._session() as session:
            for table in (
                SessionRow,
                PasskeyRow,
                FlowRow,
                RatingRow,
                PuzzleRatingRow,
                PuzzleAttemptRow,
            ):
                session.execute(delete(table).where(table.account_id == account_id))
            session.execute(
                update(SeatRow).where(SeatRow.account_id == account_id).values(nickname=None)
            )
            session.execute(
                update(AccountRow)
                .where(AccountRow.id == account_id)
                .values(username=None, username_key=None, password_hash=None, deleted_at=now())
            )
