"""The computer players' and the coach's worker processes.

Searches run in processes of their own, so a room full of ``expert`` seats takes a worker's
core, never the event loop's (a thread would share the interpreter lock with it) nor the
threads that talk to the database. The pool is bounded twice: ``workers`` processes, and
``backlog`` searches waiting for one; a hint beyond the backlog is refused as busy, a
computer's move just waits its turn.

The workers are shared fairly between rooms, not first come first served (fair queuing by
room and cost): each room (the ``owner`` of a search) is charged the worker time its
searches took, and a free worker takes the search that would end first were every room
served in turn, the room's charge plus what its searches usually cost. A room whose searches
are light, or rare, is served as soon as a worker is free, however many rooms of ``expert``
seats keep the others busy; a room that keeps asking gets its share and no more.

Match analyses (:mod:`..analyses`) go in a lane of their own, below every room: a free worker
takes an analysis's position only when no room's search is waiting, and at most
``analysis_workers`` positions are worked out at once, so a room's move or hint waits behind
an analysis for at most the one position a worker is busy with (a few tenths of a second).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import multiprocessing
import os
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from ..ai.analysis import Analyst, MoveAnalysis, Position
from ..ai.coach import Advice, Coach
from ..moves import Move
from ..observation import Observation
from ..play.local_match import ComputerTurn

__all__ = ["WORKER_NICENESS", "Busy", "Thinkers"]

T = TypeVar("T")

WATCH_SECONDS: Final = 1.0
"""How often a worker checks that the server is still there."""
WORKER_NICENESS: Final = 10
"""How much less of a core a worker gets than the server's event loop when both want one
(Linux gives a process of niceness 10 about a tenth of the share of one of 0)."""
PRELOAD: Final = ["escoba.ai", "escoba.server.computers"]
"""Imported once by the fork server, so a new worker starts ready to think."""


FIRST_ESTIMATE: Final = 0.05
"""What a room's first search is expected to take (seconds), before any is measured."""
PRUNE_ABOVE: Final = 1024
"""Past this many rooms' tags kept, those no longer needed are dropped."""
ESTIMATE_WEIGHT: Final = 0.3
"""The weight of the latest search in a room's moving average of what its searches take."""


class Busy(Exception):  # noqa: N818 (a state the caller answers, not a failure)
    """Every worker is busy and the backlog is full."""


def _start_worker(server: int) -> None:
    """In each worker, first: give way to the server's own process (its event loop answers
    every move, and a search only has to be done within the computer's pause), then watch
    for the server's end."""
    os.nice(WORKER_NICENESS)
    _watch_server(server)


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


def _analyse(seed: int, budget: int, min_deals: int, position: Position) -> MoveAnalysis:
    return Analyst(seed=seed, budget=budget, min_deals=min_deals).analyse_position(position)


@dataclass(eq=False)
class _Search:
    """A search waiting for a worker, or being worked out."""

    owner: str
    work: Callable[..., Any]
    args: tuple[object, ...]
    answer: asyncio.Future[Any]
    tries: int = 0


class Thinkers:
    """A bounded pool of worker processes, started when first needed, shared fairly between
    the rooms that ask."""

    def __init__(
        self,
        workers: int,
        backlog: int,
        *,
        clock: Callable[[], float] = time.monotonic,
        executor: Executor | None = None,
        analysis_workers: int = 1,
    ) -> None:
        self.workers = workers
        self.backlog = backlog
        self.analysis_workers = analysis_workers
        """Analyses' positions worked out at once, at most (when no room waits)."""
        self.clock = clock
        self._pool: Executor | None = executor
        self._estimates: dict[str, float] = {}
        """What each room's searches usually take (a moving average, in seconds)."""
        self._queues: dict[str, deque[_Search]] = {}
        """The searches waiting, by room (only rooms with some waiting)."""
        self._charged: dict[str, float] = {}
        """Each room's tag: the worker time it has used, from when it last began asking."""
        self._running: dict[str, int] = {}
        """Searches being worked out now, by room."""
        self._now = 0.0
        """The tag of the last search handed to a worker: a room that begins asking
        starts here, so that time it did not use earns it nothing later."""
        self._low: deque[_Search] = deque()
        """Analyses' positions waiting, first come first served, after every room's."""
        self._low_running = 0

    @property
    def waiting(self) -> int:
        """Searches asked for and not yet answered (waiting or being worked out)."""
        return sum(map(len, self._queues.values())) + sum(self._running.values())

    @property
    def busy(self) -> int:
        """Workers busy now (rooms' searches and analyses' positions)."""
        return sum(self._running.values()) + self._low_running

    def _executor(self) -> Executor:
        if self._pool is None:
            # A fork server: forking the server itself would copy its threads' locks.
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(PRELOAD)
            self._pool = ProcessPoolExecutor(
                self.workers,
                mp_context=context,
                initializer=_start_worker,
                initargs=(os.getpid(),),
            )
        return self._pool

    async def _run(self, owner: str, work: Callable[..., T], *args: object) -> T:
        search = _Search(owner, work, args, asyncio.get_running_loop().create_future())
        if owner not in self._queues and not self._running.get(owner):
            self._charged[owner] = max(self._charged.get(owner, 0.0), self._now)
        self._queues.setdefault(owner, deque()).append(search)
        self._dispatch()
        try:
            result: T = await search.answer
        except asyncio.CancelledError:
            self._withdraw(search)
            raise
        return result

    def _withdraw(self, search: _Search) -> None:
        """A search nobody waits for any more (its room closed) leaves the queue."""
        queue = self._queues.get(search.owner)
        if queue is not None and search in queue:
            queue.remove(search)
            if not queue:
                del self._queues[search.owner]
                self._forget(search.owner)

    def _forget(self, owner: str) -> None:
        """A room with nothing asked lately keeps no tag above the present: drop it."""
        if owner not in self._queues and not self._running.get(owner):
            self._running.pop(owner, None)
            if self._charged.get(owner, 0.0) <= self._now:
                self._charged.pop(owner, None)
                self._estimates.pop(owner, None)

    def _finish_tag(self, owner: str) -> float:
        """When the room's next search would end, were every room served in turn."""
        estimate = self._estimates.get(owner, FIRST_ESTIMATE)
        return self._charged.get(owner, self._now) + estimate

    def _next(self) -> _Search | None:
        """The first waiting search of the room whose next search would end first (ties: the
        one that has waited longest)."""
        if not self._queues:
            return None
        owner = min(self._queues, key=self._finish_tag)
        queue = self._queues[owner]
        search = queue.popleft()
        if not queue:
            del self._queues[owner]
        return search

    def _dispatch(self) -> None:
        """Hand waiting searches to the free workers, fairest first, then analyses'."""
        while self.busy < self.workers:
            search = self._next()
            if search is None:
                self._dispatch_low()
                return
            if search.answer.done():  # cancelled while it waited
                self._forget(search.owner)
                continue
            self._now = max(self._now, self._charged.get(search.owner, self._now))
            self._running[search.owner] = self._running.get(search.owner, 0) + 1
            started = self.clock()
            loop = asyncio.get_running_loop()
            future = loop.run_in_executor(self._executor(), search.work, *search.args)
            future.add_done_callback(functools.partial(self._done, search, started))

    def _dispatch_low(self) -> None:
        """No room waits: hand analyses' positions to the free workers, within their share."""
        while self.busy < self.workers and self._low_running < self.analysis_workers:
            if not self._low:
                return
            search = self._low.popleft()
            if search.answer.done():  # cancelled while it waited
                continue
            self._low_running += 1
            loop = asyncio.get_running_loop()
            future = loop.run_in_executor(self._executor(), search.work, *search.args)
            future.add_done_callback(functools.partial(self._low_done, search))

    def _low_done(self, search: _Search, done: asyncio.Future[Any]) -> None:
        self._low_running -= 1
        self._settle(search, done, self._low.appendleft)
        self._dispatch()

    def _settle(
        self,
        search: _Search,
        done: asyncio.Future[Any],
        again: Callable[[_Search], None],
    ) -> None:
        """Give a worked-out search's answer (or its error) to whoever waits for it; a worker
        that died (killed, out of memory): a fresh pool, and the search tried once more
        (``again`` puts it back at the head of its queue)."""
        error = None if done.cancelled() else done.exception()
        if isinstance(error, BrokenProcessPool) and search.tries == 0:
            self._discard()
            search.tries += 1
            again(search)
        elif not search.answer.done():
            if done.cancelled():
                search.answer.cancel()
            elif error is not None:
                search.answer.set_exception(error)
            else:
                search.answer.set_result(done.result())

    def _done(self, search: _Search, started: float, done: asyncio.Future[Any]) -> None:
        owner = search.owner
        took = self.clock() - started
        self._running[owner] -= 1
        self._charged[owner] = self._charged.get(owner, self._now) + took
        estimate = self._estimates.get(owner, took)
        self._estimates[owner] = estimate + ESTIMATE_WEIGHT * (took - estimate)
        self._settle(
            search, done, lambda again: self._queues.setdefault(owner, deque()).appendleft(again)
        )
        self._forget(owner)
        if len(self._charged) > PRUNE_ABOVE:
            self._prune()
        self._dispatch()

    def _prune(self) -> None:
        """Drop the tags of rooms that asked nothing lately and are no longer ahead of the
        present: they would start from it anyway."""
        for owner in [name for name, tag in self._charged.items() if tag <= self._now]:
            self._forget(owner)

    async def choose(self, turn: ComputerTurn, owner: str = "") -> Move:
        """The computer's move for the room ``owner``; waits for a worker however long
        the queue."""
        return await self._run(owner, _choose, turn)

    async def advise(self, seed: int, observation: Observation, owner: str = "") -> Advice:
        """The coach's advice for the room ``owner``; raises :class:`Busy` when the backlog
        is full."""
        if self.waiting >= self.backlog:
            raise Busy
        return await self._run(owner, _advise, seed, observation)

    async def analyse(
        self, position: Position, seed: int, *, budget: int, min_deals: int
    ) -> MoveAnalysis:
        """One position of a match's analysis, worked out when no room's search waits."""
        search = _Search(
            "",
            _analyse,
            (seed, budget, min_deals, position),
            asyncio.get_running_loop().create_future(),
        )
        self._low.append(search)
        self._dispatch()
        try:
            result: MoveAnalysis = await search.answer
        except asyncio.CancelledError:
            if search in self._low:
                self._low.remove(search)
            raise
        return result

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
