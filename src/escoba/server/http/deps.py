"""What the routes are given (FastAPI's ``Depends``): the registry of rooms, storage, the
settings, and the client's address as the limits count it. Everything is built once, in the
app's lifespan (:mod:`.app`), and kept on the app's state."""

from __future__ import annotations

import hmac
from typing import Annotated, Any, Final

from fastapi import Depends
from fastapi.exceptions import RequestValidationError
from pydantic import ValidationError
from starlette.requests import HTTPConnection

from ..accounts import Passwords, SignInLimits
from ..config import Settings
from ..errors import Refusal
from ..history import SweepCounts
from ..lobby import OpenTables, QuickMatch
from ..rooms.registry import Registry
from ..storage.accounts import AccountStore, SignedIn
from ..storage.repository import Storage
from ..storage.standings import Standings
from .transport import address_key

__all__ = [
    "SESSION_COOKIE",
    "Account",
    "Accounts",
    "Address",
    "Lobby",
    "Rooms",
    "Standing",
    "Stored",
    "Sweeps",
    "account_of",
    "accounts_of",
    "address_of",
    "lobby_of",
    "quick_match_of",
    "registry_of",
    "settings_of",
    "standings_of",
    "storage_of",
    "sweeps_of",
    "validation_text",
]


SESSION_COOKIE: Final = "escoba_session"
"""The cookie holding a signed-in browser's session token (HttpOnly: no script reads it)."""
CSRF_HEADER: Final = "x-csrf-token"
UNSAFE: Final = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def registry_of(connection: HTTPConnection) -> Registry:
    """The registry of rooms the app's lifespan built."""
    registry: Registry = connection.app.state.registry
    return registry


def lobby_of(connection: HTTPConnection) -> OpenTables:
    """The lobby's open tables."""
    lobby: OpenTables = connection.app.state.lobby
    return lobby


def quick_match_of(connection: HTTPConnection) -> QuickMatch:
    """The quick-match queue's people waiting on this process."""
    quick: QuickMatch = connection.app.state.quick_match
    return quick


def accounts_of(connection: HTTPConnection) -> AccountStore:
    store: AccountStore = connection.app.state.accounts
    return store


def passwords_of(connection: HTTPConnection) -> Passwords:
    passwords: Passwords = connection.app.state.passwords
    return passwords


def standings_of(connection: HTTPConnection) -> Standings:
    """The ratings and played matches, as leaderboards and profiles read them."""
    standings: Standings = connection.app.state.standings
    return standings


def sign_in_limits_of(connection: HTTPConnection) -> SignInLimits:
    limits: SignInLimits = connection.app.state.sign_in_limits
    return limits


async def account_of(connection: HTTPConnection) -> SignedIn | None:
    """The signed-in account of the request's session cookie, or None (no cookie, or a
    session that ended or expired: the request is then anonymous). A state-changing HTTP
    request that presents a live session must carry its CSRF token in ``X-CSRF-Token``, or
    it is refused (403 ``bad_csrf``): a page of another site can send the cookie, never the
    token. Looked up once per request."""
    if "account" in connection.scope.get("state", {}):
        known: SignedIn | None = connection.state.account
        return known
    token = connection.cookies.get(SESSION_COOKIE)
    found = None
    if token:
        found = await registry_of(connection).stored(accounts_of(connection).signed_in, token)
    connection.state.account = found
    if found is not None and connection.scope["type"] == "http":
        method = connection.scope["method"]
        given = connection.headers.get(CSRF_HEADER, "")
        if method in UNSAFE and not hmac.compare_digest(given.encode(), found.csrf.encode()):
            raise Refusal(
                "bad_csrf",
                "refused: a signed-in request that changes something must carry the "
                "session's token in X-CSRF-Token",
                403,
            )
    return found


def storage_of(connection: HTTPConnection) -> Storage:
    storage: Storage = connection.app.state.storage
    return storage


def settings_of(connection: HTTPConnection) -> Settings:
    settings: Settings = connection.app.state.settings
    return settings


def sweeps_of(connection: HTTPConnection) -> SweepCounts:
    """Each finished match's sweeps, counted once for the app."""
    sweeps: SweepCounts = connection.app.state.sweeps
    return sweeps


def address_of(connection: HTTPConnection) -> str:
    """The client as the limits count it: its IPv4 address or IPv6 /64, the socket's
    unless a trusted proxy named it (``--forwarded-allow-ips``)."""
    return address_of_client(connection.client)


def address_of_client(client: Any) -> str:
    """The client as the limits count it: its IPv4 address or IPv6 /64, the socket's
    unless a trusted proxy named it (``--forwarded-allow-ips``)."""
    return address_key(str(client.host)) if client is not None else address_key(None)


Rooms = Annotated[Registry, Depends(registry_of)]
Lobby = Annotated[OpenTables, Depends(lobby_of)]
Stored = Annotated[Storage, Depends(storage_of)]
Sweeps = Annotated[SweepCounts, Depends(sweeps_of)]
Address = Annotated[str, Depends(address_of)]
Account = Annotated[SignedIn | None, Depends(account_of)]
Accounts = Annotated[AccountStore, Depends(accounts_of)]
Standing = Annotated[Standings, Depends(standings_of)]


def validation_text(error: ValidationError | RequestValidationError) -> str:
    """Pydantic's errors as one readable line naming each bad field."""
    parts = []
    for item in error.errors()[:3]:
        where = ".".join(str(part) for part in item.get("loc", ()) if part != "body")
        parts.append(f"{where or 'message'}: {item.get('msg', 'invalid')}")
    return "; ".join(parts)
