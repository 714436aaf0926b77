"""The move writer: every move of every match is stored through it, in batches."""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Sequence

from ..errors import StaleFence
from .repository import MoveWrite, Storage

__all__ = ["MoveWriter"]

_Batch = list[tuple[Sequence[MoveWrite], asyncio.Future[None]]]


class MoveWriter:
    """Stores moves in batches: whatever arrived while the last batch was being committed goes
    into the next transaction, so many matches share one commit. Each caller waits until its
    own move is committed.

    Moves under a stale fencing token (``MoveWrite.fence``, see ``leases``) fail their own
    callers with :class:`StaleFence`; the other moves of the batch are stored without them.

    The batches are committed on a thread of the writer's own (started with the first), one
    at a time: the event loop hands it a batch and is called back once it is stored.
    """

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._waiting: _Batch = []
        self._writing = False
        """A batch is being committed, or about to be: the next ones wait."""
        self._batches: queue.SimpleQueue[tuple[asyncio.AbstractEventLoop, _Batch] | None]
        self._batches = queue.SimpleQueue()
        self._thread: threading.Thread | None = None

    async def write(self, move: MoveWrite) -> None:
        await self.write_all((move,))

    async def write_all(self, moves: Sequence[MoveWrite]) -> None:
        """Store moves in one transaction: all of them or none (the take backs that give a
        person the turn again)."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._waiting.append((moves, done))
        if not self._writing:
            # Once the moves of this turn of the loop have come: they share the batch.
            self._writing = True
            loop.call_soon(self._next, loop)
        await done

    def _next(self, loop: asyncio.AbstractEventLoop) -> None:
        """Hand what is waiting to the writer's thread, if anything."""
        batch, self._waiting = self._waiting, []
        self._writing = bool(batch)
        if batch:
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._work, name="escoba-writer", daemon=True
                )
                self._thread.start()
            self._batches.put((loop, batch))

    def _work(self) -> None:
        """The writer's thread: commit each batch, then tell the loop how it went."""
        while (item := self._batches.get()) is not None:
            loop, batch = item
            failure: Exception | None = None
            try:
                self.storage.write_moves([m for moves, _ in batch for m in moves])
            except Exception as error:
                failure = error
            try:
                loop.call_soon_threadsafe(self._written, loop, batch, failure)
            except RuntimeError:  # the loop is closed: nobody waits any more
                return

    def _written(
        self, loop: asyncio.AbstractEventLoop, batch: _Batch, failure: Exception | None
    ) -> None:
        if isinstance(failure, StaleFence):
            # The rooms another process took are refused; the batch's others go into the
            # next transaction (they are not refused for a room they are not in).
            kept = []
            for moves, done in batch:
                if any(m.match_id in failure.matches for m in moves):
                    if not done.done():
                        done.set_exception(failure)
                else:
                    kept.append((moves, done))
            if len(kept) < len(batch):
                self._waiting[:0] = kept
            else:  # nothing to take out: refusing the lot is all that is left
                for _, done in batch:
                    if not done.done():
                        done.set_exception(failure)
        elif failure is not None:
            for _, done in batch:
                if not done.done():
                    done.set_exception(failure)
        else:
            for _, done in batch:
                if not done.done():
                    done.set_result(None)
        self._next(loop)

    async def close(self) -> None:
        """Stop once the batch being committed, if any, is stored."""
        self._batches.put(None)
        if self._thread is not None:
            self._thread.join()
