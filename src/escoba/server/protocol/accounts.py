"""The messages of accounts, ratings, leaderboards and profiles (HTTP, ``docs/protocol.md``)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "AccountAnswer",
    "AccountView",
    "BoardComputer",
    "BoardEntry",
    "Credentials",
    "DeleteAccount",
    "GameName",
    "Leaderboard",
    "NewPassword",
    "PasskeyAnswer",
    "PasskeyOptions",
    "PasskeyStart",
    "PasskeyView",
    "RatingChangeView",
    "RatingPoint",
    "RatingView",
    "RoomRatings",
    "YourRank",
]

GameName = Literal["escoba", "scopa", "scopone", "escova"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Credentials(_Model):
    """A username and password, to register or sign in."""

    username: str = Field(max_length=200)
    # Longer than any password taken, so that a long one is refused by name (password_too_long).
    password: str = Field(max_length=20_000)


class PasskeyStart(_Model):
    """Begin making a passkey: for a new account (``username``), or, signed in, another
    passkey for the account (no username)."""

    username: str | None = Field(default=None, max_length=200)


class PasskeyAnswer(_Model):
    """The browser's answer to a passkey ceremony (WebAuthn's JSON, base64url parts)."""

    flow: str = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")
    credential: dict[str, Any]


class NewPassword(_Model):
    password: str = Field(max_length=20_000)
    current: str | None = Field(default=None, max_length=20_000)
    """The password now, when the account has one."""


class DeleteAccount(_Model):
    username: str = Field(max_length=200)
    """The username typed again, to confirm."""


class PasskeyView(_Model):
    id: str
    created_at: str


class AccountView(_Model):
    username: str
    created_at: str
    has_password: bool
    passkeys: list[PasskeyView]


class AccountAnswer(_Model):
    account: AccountView | None
    csrf: str | None
    """Sent back in ``X-CSRF-Token`` with every state-changing request while signed in."""


class PasskeyOptions(_Model):
    flow: str
    options: dict[str, Any]
    """WebAuthn's options as JSON (base64url byte strings)."""


class RatingView(_Model):
    """A rating as people read it (see ``ratings``)."""

    rating: int
    deviation: int
    """Two standard deviations, on the same scale."""
    provisional: bool
    matches: int
    rank: int | None = None
    """The place on its game's leaderboard; None when not on it."""


class RatingPoint(_Model):
    at: str
    rating: int
    deviation: int
    match: int


class BoardEntry(_Model):
    rank: int
    username: str
    rating: int
    deviation: int
    matches: int


class BoardComputer(_Model):
    level: str
    rating: int


class YourRank(RatingView):
    pass


class Leaderboard(_Model):
    game: GameName
    players: list[BoardEntry]
    computers: list[BoardComputer]
    """The computer levels' ratings, on the same scale."""
    you: YourRank | None


class RatingChangeView(_Model):
    seat: int
    username: str | None
    game: str
    before: int
    after: int
    deviation: int


class RoomRatings(_Model):
    match: int
    rated: bool
    status: str | None
    """``rated``, ``casual``, ``daily_limit``, ``aborted``; None while it is played."""
    changes: list[RatingChangeView]
