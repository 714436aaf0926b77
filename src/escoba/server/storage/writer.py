"""The move writer: every move of every match is stored through it, in batches."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

from ..errors import StaleFence
from .repository import MoveWrite, Storage

__all__ = ["MoveWriter"]


class MoveWriter:
    """Stores moves in batches: whatever arrived while the last batch was being committed goes
    into the next transaction, so many matches share one commit. Each caller waits until its
    own move is committed.

    Moves under a stale fencing token (``MoveWrite.fence``, see ``leases``) fail their own
    callers with :class:`StaleFence`; the other moves of the batch are stored without them.
    """

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._waiting: list[tuple[Sequence[MoveWrite], asyncio.Future[None]]] = []
        self._wake = asyncio.Event()
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="escoba-writer")
        self._task: asyncio.Task[None] | None = None
        """The task storing the batches, started by the first write (so that a writer can be
        made before the event loop runs)."""

    async def write(self, move: MoveWrite) -> None:
        await self.write_all((move,))

    async def write_all(self, moves: Sequence[MoveWrite]) -> None:
        """Store moves in one transaction: all of them or none (the take backs that give a
        person the turn again)."""
        loop = asyncio.get_running_loop()
        if self._task is None:
            self._task = loop.create_task(self._run())
        done: asyncio.Future[None] = loop.create_future()
        self._waiting.append((moves, done))
        self._wake.set()
        await done

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await self._wake.wait()
            self._wake.clear()
            batch, self._waiting = self._waiting, []
            if not batch:
                continue
            try:
                await loop.run_in_executor(
                    self._thread, self.storage.write_moves, [m for moves, _ in batch for m in moves]
                )
            except StaleFence as error:
                # The rooms another process took are refused; the batch's others go into the
                # next transaction (they are not refused for a room they are not in).
                kept = []
                for moves, done in batch:
                    if any(m.match_id in error.matches for m in moves):
                        if not done.done():
                            done.set_exception(error)
                    else:
                        kept.append((moves, done))
                if len(kept) < len(batch):
                    self._waiting[:0] = kept
                    self._wake.set()
                else:  # nothing to take out: refusing the lot is all that is left
                    for _, done in batch:
                        if not done.done():
                            done.set_exception(error)
            except Exception as error:
                for _, done in batch:
                    if not done.done():
                        done.set_exception(error)
            else:
                for _, done in batch:
                    if not done.done():
                        done.set_result(None)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self._thread.shutdown(wait=True)
