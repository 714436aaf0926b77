"""The computer players' and the coach's worker processes.

Searches run in processes of their own, so a room full of ``expert`` seats takes a worker's
core, never the event loop's (a thread would share the interpreter lock with it) nor the
threads that talk to the database. The pool is bounded twice: ``workers`` processes, and
``backlog`` searches waiting for one; a hint beyond the backlog is refused as busy, a
computer's move just waits its turn.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Final, TypeVar

from ..ai.coach import Advice, Coach
from ..moves import Move
from ..observation import Observation
from ..play.session import ComputerTurn

__all__ = ["Busy", "Thinkers"]

T = TypeVar("T")

WATCH_SECONDS: Final = 1.0
"""How often a worker checks that the server is still there."""
PRELOAD: Final = ["escoba.ai", "escoba.server.computers"]
"""Imported once by the fork server, so a new worker starts ready to think."""


class Busy(Exception):  # noqa: N818 (a state the caller answers, not a failure)
    """Every worker is busy and the backlog is full."""


def _watch_server(server: int) -> None:
    """In each worker: end when the server is gone, however it ended (even killed), rather
    than wait for work forever."""

    def watch() -> None:
        while True:
            time.sleep(WATCH_SECONDS)
            try:
                os.kill(server, 0)
            except ProcessLookupError:
                os._exit(0)
            except PermissionError:  # pragma: no cover - a process of another user
                pass

    threading.Thread(target=watch, name="escoba-watch-server", daemon=True).start()


def _choose(turn: ComputerTurn) -> Move:
    return turn.choose()


def _advise(seed: int, observation: Observation) -> Advice:
    return Coach(seed=seed).advise(observation)


class Thinkers:
    """A bounded pool of worker processes, started when first needed."""

    def __init__(self, workers: int, backlog: int) -> None:
        self.workers = workers
        self.backlog = backlog
        self.waiting = 0
        """Searches handed to the pool and not yet answered."""
        self._pool: Executor | None = None

    def _executor(self) -> Executor:
        if self._pool is None:
            # A fork server: forking the server itself would copy its threads' locks.
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(PRELOAD)
            self._pool = ProcessPoolExecutor(
                self.workers,
                mp_context=context,
                initializer=_watch_server,
                initargs=(os.getpid(),),
            )
        return self._pool

    async def _run(self, work: Callable[..., T], *args: object) -> T:
        loop = asyncio.get_running_loop()
        self.waiting += 1
        try:
            for attempt in range(2):
                try:
                    return await loop.run_in_executor(self._executor(), work, *args)
                except BrokenProcessPool:
                    # A worker died (killed, out of memory): start a fresh pool, once.
                    self._discard()
                    if attempt:
                        raise
            raise AssertionError("unreachable")  # pragma: no cover
        finally:
            self.waiting -= 1

    async def choose(self, turn: ComputerTurn) -> Move:
        """The computer's move; waits for a worker however long the queue."""
        return await self._run(_choose, turn)

    async def advise(self, seed: int, observation: Observation) -> Advice:
        """The coach's advice; raises :class:`Busy` when the backlog is full."""
        if self.waiting >= self.backlog:
            raise Busy
        return await self._run(_advise, seed, observation)

    def _discard(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    async def close(self, seconds: float = 5.0) -> None:
        """Stop the workers and wait (at most ``seconds``) for them to end: nothing waiting
        starts, a search under way (bounded by its level's budget) is the last, and no
        worker outlives the server."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        stopping = asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stopping, seconds)
