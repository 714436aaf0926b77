"""The computer players' workers are shared fairly between rooms: a room whose searches are
light or rare is served as soon as a worker is free, however many rooms of ``expert`` seats
keep asking (``escoba.server.computers``).

The pool's executor and clock are the test's own: a search ends when the test says so and
takes the time the test gives it, so the order in which searches reach the workers is
checked exactly, without sleeping.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any

import pytest

from escoba.server.computers import WORKER_NICENESS, Busy, Thinkers


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class HandWorkers(Executor):
    """Workers that end a search when the test says, with the answer it gives."""

    def __init__(self) -> None:
        self.running: list[tuple[Any, Future[Any]]] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        future.set_running_or_notify_cancel()
        self.running.append((args[0], future))  # the turn (here: the asker's label)
        return future

    def started(self) -> list[Any]:
        return [label for label, _ in self.running]


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def finish(workers: HandWorkers, clock: Clock, seconds: float) -> Any:
    """End the oldest running search after ``seconds`` of work; its label."""
    clock.now += seconds
    label, future = workers.running.pop(0)
    future.set_result(f"move of {label}")
    await settle()
    return label


def test_a_light_room_goes_before_a_flood_of_expert_rooms() -> None:
    """Eight rooms keep one worker busy with 0.5 s searches, each asking again as soon as it
    is answered; a room whose searches take 5 ms asks too: it is served by the next free
    worker every time, not after the eight (first come, first served would make it wait
    eight searches, 4 s, each time)."""

    async def scenario() -> list[list[Any]]:
        clock, workers = Clock(), HandWorkers()
        thinkers = Thinkers(1, 100, clock=clock, executor=workers)
        tasks = set()

        def ask(room: str) -> None:
            async def flood() -> None:
                while True:
                    await thinkers.choose(room, owner=room)  # type: ignore[arg-type]

            tasks.add(asyncio.ensure_future(flood()))

        for number in range(8):
            ask(f"expert-{number}")
        await settle()
        for _ in range(8):  # the flood has begun before the probe comes
            await finish(workers, clock, 0.5)
        waits = []
        for _ in range(4):
            probe = asyncio.ensure_future(thinkers.choose("probe", owner="probe"))  # type: ignore[arg-type]
            await settle()
            served = []
            while not probe.done():
                served.append(
                    await finish(workers, clock, 0.5 if workers.started()[0] != "probe" else 0.005)
                )
            waits.append(served)
            for _ in range(3):  # the floods go on while the probe's person thinks
                await finish(workers, clock, 0.5)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        return waits

    waits = asyncio.run(scenario())
    # each time: at most the search already running, then the probe's
    for served in waits:
        assert served[-1] == "probe"
        assert len(served) <= 2, waits


def test_rooms_that_keep_asking_share_the_workers_by_time_used() -> None:
    """Two rooms with two searches always waiting (two seats asking hints, say), one's
    taking 0.3 s and the other's 0.1 s: each gets about half the workers' time, not half
    the searches."""

    async def scenario() -> dict[str, float]:
        clock, workers = Clock(), HandWorkers()
        thinkers = Thinkers(1, 100, clock=clock, executor=workers)
        cost = {"slow": 0.3, "quick": 0.1}
        used = dict.fromkeys(cost, 0.0)

        async def keep_asking(room: str) -> None:
            while True:
                await thinkers.choose(room, owner=room)  # type: ignore[arg-type]

        tasks = [asyncio.ensure_future(keep_asking(room)) for room in [*cost, *cost]]
        await settle()
        for _ in range(200):
            label = workers.started()[0]
            await finish(workers, clock, cost[label])
            used[label] += cost[label]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        return used

    used = asyncio.run(scenario())
    share = used["slow"] / (used["slow"] + used["quick"])
    assert 0.45 <= share <= 0.55, used


def test_a_room_that_was_quiet_earns_no_credit() -> None:
    """A room that asked nothing for a long while starts from the present when it asks
    again: it takes its turn, not the whole pool while it spends what it did not use."""

    async def scenario() -> list[Any]:
        clock, workers = Clock(), HandWorkers()
        thinkers = Thinkers(1, 100, clock=clock, executor=workers)

        async def keep_asking(room: str) -> None:
            while True:
                await thinkers.choose(room, owner=room)  # type: ignore[arg-type]

        busy = asyncio.ensure_future(keep_asking("busy"))
        await settle()
        for _ in range(50):  # 25 s of searches for one room, the other quiet
            await finish(workers, clock, 0.5)
        late = asyncio.ensure_future(keep_asking("late"))
        await settle()
        order = [await finish(workers, clock, 0.5) for _ in range(8)]
        for task in (busy, late):
            task.cancel()
        await asyncio.gather(busy, late, return_exceptions=True)
        return order

    order = asyncio.run(scenario())
    assert order.count("late") <= 5, order  # alternating, not eight in a row
    assert order.count("busy") >= 3, order


def test_a_search_nobody_waits_for_leaves_the_queue() -> None:
    async def scenario() -> tuple[int, list[Any]]:
        clock, workers = Clock(), HandWorkers()
        thinkers = Thinkers(1, 100, clock=clock, executor=workers)
        first = asyncio.ensure_future(thinkers.choose("a", owner="a"))  # type: ignore[arg-type]
        gone = asyncio.ensure_future(thinkers.choose("b", owner="b"))  # type: ignore[arg-type]
        last = asyncio.ensure_future(thinkers.choose("c", owner="c"))  # type: ignore[arg-type]
        await settle()
        gone.cancel()  # its room closed while it waited
        await settle()
        waiting = thinkers.waiting
        await finish(workers, clock, 0.1)
        await finish(workers, clock, 0.1)
        assert await first == "move of a" and await last == "move of c"
        return waiting, workers.started()

    waiting, left = asyncio.run(scenario())
    assert waiting == 2
    assert left == []


def test_a_hint_beyond_the_backlog_is_refused_as_busy() -> None:
    async def scenario() -> None:
        clock, workers = Clock(), HandWorkers()
        thinkers = Thinkers(1, 2, clock=clock, executor=workers)
        asked = [asyncio.ensure_future(thinkers.choose(room, owner=room)) for room in "ab"]  # type: ignore[arg-type]
        await settle()
        with pytest.raises(Busy):
            await thinkers.advise(1, None, owner="c")  # type: ignore[arg-type]
        await finish(workers, clock, 0.1)
        await finish(workers, clock, 0.1)
        await asyncio.gather(*asked)

    asyncio.run(scenario())


def test_the_workers_give_way_to_the_servers_own_process() -> None:
    """The computer workers run at a lower priority than the server (its event loop answers
    every move; a search has the computer's pause to be done in), so `escoba serve` can start
    one per core without slowing acknowledgements: the real pool's worker reports its
    niceness."""
    own = os.nice(0)

    async def scenario() -> int:
        thinkers = Thinkers(1, 10)
        try:
            return await thinkers._run("room", os.nice, 0)
        finally:
            await thinkers.close()

    assert asyncio.run(scenario()) == min(19, own + WORKER_NICENESS)
    assert os.nice(0) == own  # the server itself keeps its priority
