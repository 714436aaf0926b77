"""Memory a wave of connections leaves behind (``escoba.server.memory``): closed WebSockets
are garbage in reference cycles until a full collection, glibc keeps the pages it freed
until it is trimmed, and :class:`Waves` releases both once a wave has ended, not while
clients come and go steadily.
"""

from __future__ import annotations

import asyncio
import base64
import gc
import json
import os
import subprocess
import sys
import weakref
from collections.abc import Iterator

import pytest
from websockets.extensions.permessage_deflate import (
    PerMessageDeflate,
    ServerPerMessageDeflateFactory,
)
from websockets.server import ServerProtocol

from escoba.server import memory
from escoba.server.memory import Waves, release_memory
from server_helpers import ManualClock

SETTLE = 2.0
"""The waves' settling time before a release, on the tests' own clock (a whole number of
seconds, so that the clock's sums are exact)."""

# -- closed WebSockets wait for a full collection ------------------------------------------------


@pytest.fixture
def no_collection() -> Iterator[None]:
    """The cycle collector only when the test calls it."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def closed_websocket() -> ServerProtocol:
    """The server's side of a WebSocket as uvicorn makes it (permessage-deflate, as every
    browser asks for, with uvicorn's settings), through its handshake and then closed by
    its client going away."""
    protocol = ServerProtocol(
        extensions=[
            ServerPerMessageDeflateFactory(
                server_max_window_bits=12,
                client_max_window_bits=12,
                compress_settings={"memLevel": 5},
            )
        ]
    )
    key = base64.b64encode(os.urandom(16)).decode()
    protocol.receive_data(
        (
            "GET /ws/rooms/x HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
            "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n\r\n"
        ).encode()
    )
    [request] = protocol.events_received()
    protocol.send_response(protocol.accept(request))
    assert any(isinstance(extension, PerMessageDeflate) for extension in protocol.extensions)
    protocol.receive_eof()
    return protocol


def test_closed_websockets_are_held_by_their_own_cycles_until_memory_is_released(
    no_collection: None,
) -> None:
    gone = [weakref.ref(closed_websocket()) for _ in range(50)]
    # Nothing refers to them from outside any more, yet they live on (and their zlib state
    # with them): each is in a cycle through the generator parsing its frames.
    assert all(ref() is not None for ref in gone)
    release_memory()
    assert all(ref() is None for ref in gone)


# -- glibc's free pages go back to the system ------------------------------------------------------

HEAP_SCRIPT = """
import gc, json, sys
from escoba.server.memory import release_memory

def resident():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) // 1024

# 48 MiB in blocks malloc takes from its heap (over pymalloc's 512 bytes, under the mmap
# threshold), written so that their pages are resident; then one block above them all, so
# that what they leave when freed is not at the top of the heap, where free() trims it.
blocks = [bytes([index % 251]) * 16384 for index in range(3072)]
pin = bytes([1]) * 16384
filled = resident()
del blocks
gc.collect()
freed = resident()
trimmed = release_memory()
print(json.dumps({"filled": filled, "freed": freed, "released": resident(), "trimmed": trimmed}))
"""


def heap_figures() -> dict[str, int]:
    done = subprocess.run(
        [sys.executable, "-c", HEAP_SCRIPT], capture_output=True, text=True, timeout=30, check=True
    )
    figures: dict[str, int] = json.loads(done.stdout)
    return figures


@pytest.mark.skipif(
    memory.trim_allocator() is False or not os.path.exists("/proc/self/status"),
    reason="glibc's malloc_trim and /proc are Linux's",
)
def test_release_memory_gives_the_pages_malloc_kept_back_to_the_system() -> None:
    figures = heap_figures()
    assert figures["trimmed"]
    # Freed and collected, the blocks' pages stay resident: malloc keeps them...
    assert figures["freed"] > figures["filled"] - 8, figures
    # ...until it is trimmed.
    assert figures["released"] < figures["freed"] - 40, figures


# -- waves ---------------------------------------------------------------------------------------


class Counted:
    """A release that only counts its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self) -> None:
        self.calls += 1


async def pass_time(clock: ManualClock, seconds: float) -> None:
    """Move ``clock`` on by ``seconds`` and return once what it woke has run: what sleeps
    on it wakes in the order it went to sleep, so before this waiter, which sleeps last."""
    waiter = asyncio.ensure_future(clock.sleep(seconds))
    await asyncio.sleep(0)  # every task started so far, this waiter last, is asleep now
    clock.advance(seconds)
    await waiter


def wave(waves: Waves, low: int, high: int) -> None:
    """Connections from ``low`` up to ``high`` open, then close down to ``low``."""
    for open_now in range(low + 1, high + 1):
        waves.count(open_now)
    for open_now in range(high - 1, low - 1, -1):
        waves.count(open_now)


def test_a_wave_that_ended_is_released_once_after_it_settles() -> None:
    async def scenario() -> None:
        release, clock = Counted(), ManualClock()
        waves = Waves(least=64, kept=0.25, settle=SETTLE, release=release, clock=clock)
        wave(waves, 5, 440)
        await pass_time(clock, SETTLE / 2)
        assert release.calls == 0  # not at once: the last sockets are still closing
        await pass_time(clock, SETTLE / 2)
        assert release.calls == 1
        assert waves.peak == 5  # what is open now is where the next wave starts from
        await pass_time(clock, 3 * SETTLE)
        assert release.calls == 1
        wave(waves, 5, 300)
        await pass_time(clock, SETTLE)
        assert release.calls == 2

    asyncio.run(scenario())


def test_clients_coming_and_going_steadily_or_a_small_wave_release_nothing() -> None:
    async def scenario() -> None:
        release, clock = Counted(), ManualClock()
        busy = Waves(least=64, kept=0.25, settle=SETTLE, release=release, clock=clock)
        busy.count(300)
        for _ in range(20):
            wave(busy, 300, 400)  # most connections stay
        small = Waves(least=64, kept=0.25, settle=SETTLE, release=release, clock=clock)
        wave(small, 0, 60)  # fewer than least: not worth a full collection
        await pass_time(clock, 3 * SETTLE)
        assert release.calls == 0

    asyncio.run(scenario())


def test_a_release_still_to_come_is_dropped_when_cancelled() -> None:
    async def scenario() -> None:
        release, clock = Counted(), ManualClock()
        waves = Waves(least=10, kept=0.25, settle=SETTLE, release=release, clock=clock)
        wave(waves, 0, 100)
        waves.cancel()
        await pass_time(clock, 3 * SETTLE)
        assert release.calls == 0

    asyncio.run(scenario())
