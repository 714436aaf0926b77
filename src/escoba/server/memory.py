"""Giving memory back to the system once a wave of connections has ended.

Each WebSocket holds about a hundred kilobytes while it is open, most of it outside Python
objects: its permessage-deflate compressor and decompressor (zlib's buffers, from ``malloc``),
its read and write buffers. When hundreds of spectators come and go together, two things
keep that memory resident after they have gone:

* every closed WebSocket is garbage in a reference cycle (the ``websockets`` protocol object
  holds the generator that parses its frames, and that generator holds it; tasks, futures
  and tracebacks of the connection add more), freed only by a full collection of the cycle
  collector, which runs when allocations pile up and so not on a server that has gone
  quiet after the wave: until then its zlib buffers stay allocated;
* once freed, glibc's ``malloc`` keeps the pages of its free chunks for later, unless they
  happen to be at the very top of its heap: the process's resident memory stays at the
  wave's peak.

:class:`Waves` notices a wave ending (the connections open now a small part of the most
there were, by a good number) and then, once, after a moment for the last sockets to close,
calls :func:`release_memory`: a full collection, then ``malloc_trim(0)``, which hands the
free pages back to the system. What Python's own small-object allocator keeps (its 1 MiB
arenas, each held as long as one of its objects lives) is not given back by either.
"""

from __future__ import annotations

import asyncio
import ctypes
import gc
import logging
import time
from collections.abc import Callable
from typing import Final

from .config import SYSTEM_CLOCK, Clock

__all__ = ["SETTLE_SECONDS", "WAVE_CONNECTIONS", "Waves", "release_memory", "trim_allocator"]

log = logging.getLogger("escoba.server")

WAVE_CONNECTIONS: Final = 64
"""Connections that must have closed since the peak for memory to be released: fewer
leave too little behind to be worth a full collection."""

KEPT_FRACTION: Final = 0.25
"""...and what is still open must be at most this part of the peak: a busy server whose
clients come and go steadily never triggers a release."""

SETTLE_SECONDS: Final = 2.0
"""The release waits this long once a wave has ended, so that the sockets still closing
(their handlers ending, their transports losing their connection) have become garbage."""


def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or None where the C library has none (musl, macOS,
    Windows)."""
    try:
        libc = ctypes.CDLL(None)
        trim = libc.malloc_trim
    except (OSError, TypeError, AttributeError):  # TypeError: Windows takes no None
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    function: Callable[[int], int] = trim
    return function


_TRIM: Final = _malloc_trim()


def trim_allocator() -> bool:
    """Give the C allocator's free memory back to the system (glibc's ``malloc_trim(0)``:
    every free page of every arena, not only the top of the heap); whether it could be
    asked (False where the C library is not glibc, and nothing is done)."""
    if _TRIM is None:
        return False
    _TRIM(0)
    return True


def release_memory() -> bool:
    """Free what is only garbage in reference cycles (a full collection: closed
    connections are), then give the allocator's free pages back to the system; whether the
    allocator could be trimmed. Takes milliseconds: objects frozen by ``gc.freeze()`` are
    not traversed."""
    gc.collect()
    return trim_allocator()


class Waves:
    """Watches the number of open connections and releases memory, once, when a wave of
    them has ended: at least ``least`` fewer than at their peak, and at most ``kept`` of
    that peak still open. The release runs ``settle`` seconds of ``clock`` later on the
    running event loop, and what is open then becomes the new peak."""

    def __init__(
        self,
        *,
        least: int = WAVE_CONNECTIONS,
        kept: float = KEPT_FRACTION,
        settle: float = SETTLE_SECONDS,
        release: Callable[[], object] = release_memory,
        clock: Clock = SYSTEM_CLOCK,
    ) -> None:
        self.least = least
        self.kept = kept
        self.settle = settle
        self.release = release
        self.clock = clock
        self.open = 0
        self.peak = 0
        self.releases = 0
        """Releases done so far."""
        self._pending: asyncio.Task[None] | None = None

    def count(self, open_now: int) -> None:
        """Note how many connections are open now; call it on every open and close, from
        the event loop."""
        self.open = open_now
        self.peak = max(self.peak, open_now)
        gone = self.peak - open_now
        if self._pending is None and gone >= self.least and open_now <= self.peak * self.kept:
            self._pending = asyncio.get_running_loop().create_task(self._release_later())

    async def _release_later(self) -> None:
        await self.clock.sleep(self.settle)
        self._pending = None
        gone = self.peak - self.open
        started = time.perf_counter()
        self.release()
        self.releases += 1
        log.debug(
            "memory released after %d connections closed, in %.1f ms",
            gone,
            (time.perf_counter() - started) * 1000,
        )
        self.peak = self.open

    def cancel(self) -> None:
        """Drop a release still to come (the server is stopping)."""
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None
