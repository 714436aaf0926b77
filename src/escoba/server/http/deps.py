"""What the routes are given (FastAPI's ``Depends``): the registry of rooms, storage, the
settings, and the client's address as the limits count it. Everything is built once, in the
app's lifespan (:mod:`.app`), and kept on the app's state."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends
from fastapi.exceptions import RequestValidationError
from pydantic import ValidationError
from starlette.requests import HTTPConnection

from ..config import Settings
from ..history import SweepCounts
from ..lobby import OpenTables, QuickMatch
from ..rooms.registry import Registry
from ..storage.repository import Storage
from .transport import address_key

__all__ = [
    "Address",
    "Lobby",
    "Rooms",
    "Stored",
    "Sweeps",
    "address_of",
    "lobby_of",
    "quick_match_of",
    "registry_of",
    "settings_of",
    "storage_of",
    "sweeps_of",
    "validation_text",
]


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


def validation_text(error: ValidationError | RequestValidationError) -> str:
    """Pydantic's errors as one readable line naming each bad field."""
    parts = []
    for item in error.errors()[:3]:
        where = ".".join(str(part) for part in item.get("loc", ()) if part != "body")
        parts.append(f"{where or 'message'}: {item.get('msg', 'invalid')}")
    return "; ".join(parts)
