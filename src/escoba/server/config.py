"""The server's configuration, one typed value: :class:`Settings`.

It holds the :class:`Limits` (every bound an attacker could otherwise push), the
:class:`Timings` (the server's own waits and back-offs) and the :class:`Clock` they are
measured on. ``escoba serve`` builds the limits from its options and hands them both to
uvicorn (the HTTP layer: header size and count, header and idle timeouts, connections) and to
the app (rooms, computer seats, spectators, hints, joins). Each refusal a limit causes is a
documented error (``docs/protocol.md``). Tests shorten the timings and may give a clock of
their own, instead of sleeping or patching constants.
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final, Protocol

__all__ = [
    "DEFAULT_LIMITS",
    "DEFAULT_PASSWORD_COST",
    "DEFAULT_PREFIX",
    "DEFAULT_SETTINGS",
    "DEFAULT_TIMINGS",
    "SYSTEM_CLOCK",
    "Clock",
    "Limits",
    "PasswordCost",
    "Settings",
    "SystemClock",
    "Timings",
]

DEFAULT_PREFIX: Final = "escoba:"
"""The start of every key of ours in Redis, so that a Redis shared with others keeps them
apart."""


def _number(value: object) -> bool:
    """Whether ``value`` is an int or a float (a bool is not a number of anything here)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


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
    lobby_watchers: int = 1000
    """Connections watching the lobby's open tables at once."""
    connections_per_seat: int = 4
    """Connections (tabs, devices) one seat may have open at once."""
    hint_seconds: float = 2.0
    """One hint per seat per this many seconds, whatever its number of connections."""
    talk_seconds: float = 2.0
    """Table talk: one message per seat per this many seconds on average..."""
    talk_burst: int = 5
    """...and this many at once after a quiet spell."""
    send_backlog: int = 64
    """Messages waiting for a client that does not read; one more and it is disconnected."""
    send_seconds: float = 10.0
    """A message the client has not taken within this disconnects it."""
    ping_seconds: float = 10.0
    """WebSocket pings this often; a client that does not answer within as long again is
    disconnected (a seat whose client went away shows as gone within twice this)."""

    # -- accounts
    sign_ins_per_name: int = 5
    """Failed sign-ins one username may have in ``sign_in_window`` (unknown names alike);
    past that its sign-ins are refused (429) until the oldest failure is that old."""
    sign_ins_per_address: int = 20
    """Failed sign-ins one client address may have in ``sign_in_window``."""
    sign_in_window: float = 900.0
    passkey_flows_per_address: int = 20
    """Passkey ceremonies one address may have begun and not finished (each lives 5 min)."""

    # -- computer players
    computer_workers: int = 1
    """Worker processes that think for computer seats and work out hints."""
    computer_backlog: int = 200
    """Searches waiting for a worker; a hint asked beyond this is refused as busy."""

    def __post_init__(self) -> None:
        for item in dataclasses.fields(self):
            value = getattr(self, item.name)
            if not _number(value) or value <= 0:
                raise ValueError(f"{item.name}: must be a positive number, got {value!r}")

    def replace(self, **changes: float) -> Limits:
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]


DEFAULT_LIMITS: Final = Limits()


@dataclass(frozen=True, slots=True, kw_only=True)
class Timings:
    """The server's own waits and back-offs, in seconds: nothing a client can push, so not
    limits; the defaults are the product's, tests make them short."""

    storage_retries: tuple[float, ...] = (0.5, 1.0, 2.0, 5.0, 10.0)
    """A computer's move that storage refused is tried again after these waits, the last
    one repeated (cut short when storage answers again)."""
    storage_probe: float = 0.25
    """While storage fails, it is asked whether it answers again this often (once for all
    rooms), so that they go on as soon as it is back."""
    claim: float = 30.0
    """A room whose seat was just handed out is in use this long (its creator is on the
    way), though nobody is connected yet."""
    cancel_again: float = 0.5
    """On closing, a task not ended this long after it was cancelled is cancelled again."""
    expire_every: float = 600.0
    """Between sweeps of abandoned matches out of storage."""
    owner_retry: float = 0.25
    """A play sent through a replica while its room's owner is being replaced looks for the
    new owner this often."""
    abandon_after: float = 60.0
    """A taken person seat with no connection this long is abandoned (``escoba serve
    --abandon-after``): the others may give it to a computer, or claim the match."""
    analysis_poll: float = 60.0
    """The match analyses' runner looks for work this often besides when one is requested
    here (an analysis another process was asked for while its own runner was busy, or one
    whose runner stopped: its lease lasts as long)."""
    analysis_lease: float = 60.0
    """A runner holds the analysis it works on this long from its last save: past that,
    another process takes it over and resumes from the moves stored."""
    analysis_save: float = 1.0
    """A running analysis's new moves are stored this often (and when it ends)."""
    quick_match_wait: float = 20.0
    """A person waiting for a quick match is told after this long that they may fill the free
    seats with computers (``escoba serve --quick-match-wait``)."""

    def __post_init__(self) -> None:
        waits = dataclasses.asdict(self)
        if not self.storage_retries:
            raise ValueError("storage_retries: must name at least one wait")
        for name, value in waits.items():
            for wait in value if isinstance(value, tuple) else (value,):
                if not _number(wait) or wait < 0:
                    raise ValueError(f"{name}: must be seconds (0 or more), got {wait!r}")

    def storage_retry(self, failures: int) -> float:
        """The wait after ``failures`` failures in a row (1 or more)."""
        return self.storage_retries[min(failures, len(self.storage_retries)) - 1]


DEFAULT_TIMINGS: Final = Timings()


class Clock(Protocol):
    """Where the server's time comes from: a monotonic ``now()`` in seconds, the time of day
    ``wall()`` (seconds since the epoch: what is stored, and read by other processes) and a
    way to wait. The server never reads the time any other way, so a test can drive it."""

    def now(self) -> float: ...

    def wall(self) -> float: ...

    async def sleep(self, seconds: float) -> None: ...


class SystemClock:
    """The machine's monotonic clock and time of day, and the event loop's sleep."""

    def now(self) -> float:
        return time.monotonic()

    def wall(self) -> float:
        return time.time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


SYSTEM_CLOCK: Final = SystemClock()


@dataclass(frozen=True, slots=True)
class PasswordCost:
    """The work of hashing one password with Argon2id: passes, memory (KiB) and lanes. The
    default is RFC 9106's second recommendation; tests may make it cheaper (every hash
    records its own cost, so a stored hash verifies whatever the setting is later)."""

    time_cost: int = 3
    memory_kib: int = 64 * 1024
    parallelism: int = 4

    def __post_init__(self) -> None:
        if self.time_cost < 1 or self.memory_kib < 8 * self.parallelism or self.parallelism < 1:
            raise ValueError(f"not an Argon2 cost: {self}")


DEFAULT_PASSWORD_COST: Final = PasswordCost()


@dataclass(frozen=True, slots=True, kw_only=True)
class Settings:
    """Everything one server process is built from (``create_app(settings)``)."""

    database_url: str | None = None
    """The database (SQLAlchemy URL); None: SQLite in the user's data directory."""
    pace: float = 0.7
    """Seconds each computer move takes, its search included."""
    limits: Limits = DEFAULT_LIMITS
    origins: Sequence[str] = ()
    """Web origins besides the server's own whose pages may open its WebSockets
    (``https://example.org``)."""
    redis_url: str | None = None
    """With a Redis, the process is one of a site of several sharing it and the database."""
    redis_prefix: str = DEFAULT_PREFIX
    timings: Timings = DEFAULT_TIMINGS
    clock: Clock = field(default=SYSTEM_CLOCK)
    password_cost: PasswordCost = DEFAULT_PASSWORD_COST
    passkey_site: str | None = None
    """The passkeys' site (WebAuthn's relying party id), the host name people open, like
    ``escoba.example.org``; None: the host each request names. A passkey made for one
    site is refused by every other."""

    analysis: bool = True
    """Finished matches are analysed when their players ask (in the background, on the
    computers' workers when no room needs them); False: the analyses stored are shown, no new
    one is made."""
    analysis_budget: int = 40_000
    """Positions the analysis's search visits a move (``escoba.ai.analysis.ANALYSIS_BUDGET``)."""
    analysis_min_deals: int = 100
    """Deals the analysis's search looks at a move at least."""
    analysis_workers: int = 1
    """Analyses' positions worked out at once, at most, and only on workers no room needs."""

    def __post_init__(self) -> None:
        if not _number(self.pace) or self.pace < 0:
            raise ValueError(f"pace: must be seconds (0 or more), got {self.pace!r}")
        for name in ("analysis_budget", "analysis_min_deals", "analysis_workers"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"{name}: must be a whole number from 1, got {value!r}")


DEFAULT_SETTINGS: Final = Settings()
