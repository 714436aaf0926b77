"""One client's WebSocket connection: its rate limit, its queue of messages, and the pump that
sends them, bounded so that no client can make the server wait or hold memory for it.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Final, Protocol

from pydantic import BaseModel

__all__ = ["RATE_BURST", "RATE_PER_SECOND", "Client", "Outlet", "TokenBucket"]

RATE_PER_SECOND: Final = 20.0
"""Messages a connection may send per second, on average..."""
RATE_BURST: Final = 40.0
"""...and at once after a quiet spell."""


@dataclass
class TokenBucket:
    """``rate`` actions a second on average, ``burst`` at once after a quiet spell."""

    rate: float
    burst: float
    _allowance: float = -1.0
    _checked: float = field(default_factory=time.monotonic)

    def __post_init__(self) -> None:
        if self._allowance < 0:
            self._allowance = self.burst

    def allow(self) -> bool:
        """Whether one more action is allowed now (and count it if so)."""
        now = time.monotonic()
        self._allowance = min(self.burst, self._allowance + (now - self._checked) * self.rate)
        self._checked = now
        if self._allowance < 1:
            return False
        self._allowance -= 1
        return True

    def refund(self) -> None:
        self._allowance = min(self.burst, self._allowance + 1)


class Outlet(Protocol):
    """Where a connection's messages go (a WebSocket in the app, a list in tests)."""

    async def send_text(self, data: str) -> None: ...


def _message_bucket() -> TokenBucket:
    # Read when a connection is made, so a test may change the module's rate.
    return TokenBucket(RATE_PER_SECOND, RATE_BURST)


@dataclass(eq=False)
class Client:
    """One client connection: its seat once joined (None while watching or not yet joined).

    Messages wait in a queue of at most ``backlog``; one more means the client is not
    reading, and it is disconnected rather than waited for. A message the client has not
    taken within ``send_seconds`` disconnects it too.
    """

    outlet: Outlet
    backlog: int = 64
    send_seconds: float = 10.0
    seat: int | None = None
    joined: bool = False
    watching: bool = False
    closed: bool = False
    queue: asyncio.Queue[str | None] = field(init=False)
    rate: TokenBucket = field(default_factory=_message_bucket)
    ended: asyncio.Event = field(default_factory=asyncio.Event)
    """Set when the connection is closed: its handler stops reading and its pump ends."""

    def __post_init__(self) -> None:
        self.queue = asyncio.Queue(self.backlog + 1)  # one place kept for the close

    def allow(self) -> bool:
        """Whether one more message is within the rate limit."""
        return self.rate.allow()

    def refund(self) -> None:
        """Give back the allowance of a message that moved the game on: plays are bounded by
        the turns, so a quick player is never limited, only a flood of refused messages."""
        self.rate.refund()

    def send(self, message: BaseModel) -> None:
        """Queue a message; a client too slow to keep up is dropped rather than waited for."""
        if not self.closed:
            self.send_serialised(message.model_dump_json())

    def send_serialised(self, data: str) -> None:
        """Queue a message already serialised to JSON (one text shared by many connections)."""
        if self.closed:
            return
        if self.queue.qsize() >= self.backlog:
            self.close()
            return
        self.queue.put_nowait(data)

    def close(self) -> None:
        """Close now: what is still queued is dropped, and the pump and handler end however
        full the queue was."""
        if self.ended.is_set():
            return
        self.closed = True
        self.ended.set()
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queue.put_nowait(None)

    def finish(self) -> None:
        """Close once what is queued has been sent (a last message, then the end)."""
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(None)

    async def pump(self) -> None:
        """Send queued messages in order until closed; a send that does not complete in time
        (a client that stopped reading) or fails closes the connection."""
        try:
            while (data := await self.queue.get()) is not None:
                async with asyncio.timeout(self.send_seconds):  # no task of its own
                    await self.outlet.send_text(data)
        except Exception:  # a dead socket or a stuck client: either way it is gone
            pass
        finally:
            self.close()
