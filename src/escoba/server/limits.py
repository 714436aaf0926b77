"""The server's limits: every bound an attacker could otherwise push, in one value.

``escoba serve`` builds a :class:`Limits` from its options and hands it both to uvicorn (the
HTTP layer: header size and count, header and idle timeouts, connections) and to the app
(rooms, computer seats, spectators, hints, joins). Each refusal it causes is a documented
error (``docs/protocol.md``).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Final

__all__ = ["DEFAULT_LIMITS", "Limits"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Limits:
    """Bounds on what clients may hold or ask of the server; the defaults suit one process
    on a small machine."""

    # -- the HTTP layer
    header_bytes: int = 16 * 1024
    """A request's head (request line and headers) over this is refused (431)."""
    header_count: int = 100
    """Requests with more headers than this are refused (431)."""
    header_seconds: float = 10.0
    """A connection must send a request's whole head within this, or it is closed."""
    idle_seconds: float = 5.0
    """A kept-alive HTTP connection with no new request for this long is closed."""
    body_seconds: float = 10.0
    """A request's whole body must arrive within this of its head, or it is refused (408)."""
    body_rate: int = 1024
    """...and at this many bytes a second on average from its first second on (a body
    that trickles, or stops, is refused long before ``body_seconds``)."""
    slow_bodies_per_address: int = 8
    """Bodies one address may have refused as too slow in a minute; past that, its new
    connections are refused (429) until the minute is over."""
    connections_total: int = 1000
    """Open connections (HTTP and WebSocket) the server holds at once."""
    connections_per_address: int = 64
    """Open connections one client address may hold at once."""

    # -- rooms and computers
    rooms_total: int = 2000
    """Rooms in memory at once; creating one more is refused while they are all in use."""
    rooms_per_address: int = 30
    """Rooms one address may create in ``rooms_window`` seconds."""
    rooms_window: float = 3600.0
    computer_seats_total: int = 1000
    """Computer seats in the rooms in memory, all together."""
    computer_seats_per_address: int = 24
    """Computer seats in the rooms one address created in ``rooms_window`` seconds."""
    room_expiry: float = 7 * 24 * 3600.0
    """An unfinished match nobody has played in for this long is abandoned and deleted."""
    room_idle: float = 600.0
    """A room nobody is connected to leaves memory after this long (it stays stored)."""

    # -- a room's connections
    join_seconds: float = 10.0
    """A WebSocket must ``join`` or ``watch`` within this, or it is closed."""
    spectators_per_room: int = 50
    connections_per_seat: int = 4
    """Connections (tabs, devices) one seat may have open at once."""
    hint_seconds: float = 2.0
    """One hint per seat per this many seconds, whatever its number of connections."""
    send_backlog: int = 64
    """Messages waiting for a client that does not read; one more and it is disconnected."""
    send_seconds: float = 10.0
    """A message the client has not taken within this disconnects it."""
    ping_seconds: float = 10.0
    """WebSocket pings this often; a client that does not answer within as long again is
    disconnected (a seat whose client went away shows as gone within twice this)."""

    # -- computer players
    computer_workers: int = 1
    """Worker processes that think for computer seats and work out hints."""
    computer_backlog: int = 200
    """Searches waiting for a worker; a hint asked beyond this is refused as busy."""

    def __post_init__(self) -> None:
        for item in dataclasses.fields(self):
            value = getattr(self, item.name)
            if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
                raise ValueError(f"{item.name}: must be a positive number, got {value!r}")

    def replace(self, **changes: float) -> Limits:
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]


DEFAULT_LIMITS: Final = Limits()
