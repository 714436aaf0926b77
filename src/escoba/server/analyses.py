"""Finished matches analysed in the background, and their analyses as the players read them.

A player asks for a match's analysis (``POST /api/matches/{id}/analysis``): it is queued in
storage once (:class:`~.storage.analyses.AnalysisStore`), and the :class:`Runner` of some
process claims it under a lease, lists the match's moves (:func:`escoba.ai.analysis.positions`,
off the event loop) and has them valued one at a time by the computers' workers in their low
lane (``Thinkers.analyse``: only when no room's search waits). What is done is stored every
``analysis_save`` seconds with the lease extended, so a process that stops (or dies) leaves
the moves done: another claims the analysis once the lease ends (at once when it stopped
cleanly) and resumes from them. Each position is valued with the match id as the search's
seed, so a resumed analysis is the very one an uninterrupted run makes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from ..ai.analysis import ANALYSIS_VERSION, MatchAnalysis, MoveAnalysis, Position, positions
from ..cards import DeckStyle
from ..errors import EscobaError
from .config import Clock, Settings
from .errors import StorageUnavailable
from .protocol.analysis import (
    AnalysedMove,
    AnalysisPlayer,
    AnalysisStatus,
    AnalysisView,
    JudgementCounts,
)
from .storage.analyses import AnalysisStore, Claimed, StoredAnalysis
from .storage.repository import Storage

__all__ = ["Analysts", "Runner", "analysis_view"]

log = logging.getLogger("escoba.server.analyses")


class Analysts(Protocol):
    """Who values a position (the computers' workers, ``Thinkers``)."""

    async def analyse(
        self, position: Position, seed: int, *, budget: int, min_deals: int
    ) -> MoveAnalysis: ...


def _moment(clock: Clock) -> datetime:
    return datetime.fromtimestamp(clock.wall(), UTC)


class Runner:
    """The process's background analyst: claims analyses one at a time and works them out."""

    def __init__(
        self,
        storage: Storage,
        analysts: Analysts,
        settings: Settings,
        *,
        name: str | None = None,
    ) -> None:
        self.storage = storage
        self.store = AnalysisStore(storage)
        self.analysts = analysts
        self.clock = settings.clock
        self.timings = settings.timings
        self.budget = settings.analysis_budget
        self.min_deals = settings.analysis_min_deals
        self.name = name or f"{os.getpid()}-{secrets.token_hex(6)}"
        """What the runner's claims are stored under (unique among the site's processes)."""
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.finished = 0
        """Analyses this runner finished (tests and logs)."""

    @property
    def lease(self) -> timedelta:
        return timedelta(seconds=self.timings.analysis_lease)

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    def wake(self) -> None:
        """Look for work now (an analysis was just requested)."""
        self._wake.set()

    async def close(self) -> None:
        """Stop; an analysis under way keeps its moves stored and is given back."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run(self) -> None:
        while True:
            self._wake.clear()
            try:
                while await self.run_one():
                    pass
            except StorageUnavailable as error:
                log.warning("analyses: %s", error)
            except Exception:  # a bug of ours: logged, and the runner goes on
                log.exception("analyses: the runner failed")
            await self._nap()

    async def _nap(self) -> None:
        """Until an analysis is requested, or ``analysis_poll`` seconds (on the clock)."""
        woken = asyncio.ensure_future(self._wake.wait())
        napped = asyncio.ensure_future(self.clock.sleep(self.timings.analysis_poll))
        try:
            await asyncio.wait({woken, napped}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for waiter in (woken, napped):
                waiter.cancel()
            await asyncio.gather(woken, napped, return_exceptions=True)

    async def run_one(self) -> bool:
        """Claim one analysis and work it out; False when there was none to claim."""
        claimed = await asyncio.to_thread(
            self.store.claim, self.name, _moment(self.clock), self.lease
        )
        if claimed is None:
            return False
        try:
            await self._work(claimed)
        except asyncio.CancelledError:
            raise
        except StorageUnavailable:
            raise  # the lease runs out; this process or another resumes later
        except Exception as error:
            log.exception("analyses: match %d could not be analysed", claimed.match_id)
            await asyncio.to_thread(
                self.store.fail,
                claimed.match_id,
                self.name,
                f"{type(error).__name__}: {error}",
                _moment(self.clock),
            )
        return True

    async def _work(self, claimed: Claimed) -> None:
        match_id = claimed.match_id
        found = await asyncio.to_thread(self.storage.match_record, match_id)
        if found is None:
            raise EscobaError(f"match {match_id} is not stored any more")
        found_positions = await asyncio.to_thread(positions, found[2])
        total = len(found_positions)
        moves: list[dict[str, Any]] = list(claimed.moves[:total])
        saved = len(moves)
        if claimed.total != total and not await self._save(match_id, moves, total):
            return
        last_save = self.clock.now()
        try:
            for position in found_positions[len(moves) :]:
                analysed = await self.analysts.analyse(
                    position, match_id, budget=self.budget, min_deals=self.min_deals
                )
                moves.append(analysed.to_dict())
                if (
                    len(moves) < total
                    and self.clock.now() - last_save >= self.timings.analysis_save
                ):
                    if not await self._save(match_id, moves, total):
                        return  # another process holds it now
                    saved, last_save = len(moves), self.clock.now()
        except asyncio.CancelledError:
            # Stopping: keep what was done, and give the analysis back for whoever starts next.
            if len(moves) > saved:
                with contextlib.suppress(Exception):
                    await asyncio.shield(self._save(match_id, moves, total))
            with contextlib.suppress(Exception):
                await asyncio.shield(
                    asyncio.to_thread(self.store.release, match_id, self.name, _moment(self.clock))
                )
            raise
        if await asyncio.to_thread(
            self.store.finish, match_id, self.name, moves, _moment(self.clock)
        ):
            self.finished += 1

    async def _save(self, match_id: int, moves: Sequence[Mapping[str, Any]], total: int) -> bool:
        return await asyncio.to_thread(
            self.store.save,
            match_id,
            self.name,
            list(moves),
            total,
            _moment(self.clock),
            self.lease,
        )


def analysis_view(
    match_id: int,
    players: int,
    stored: StoredAnalysis | None,
    language: str,
    deck: DeckStyle,
) -> AnalysisView:
    """The analysis as the replay page reads it: each seat's figures, and every move done so
    far with its explanation (costly moves only) in ``language`` and ``deck``."""
    if stored is None:
        return AnalysisView(
            match=match_id,
            status="none",
            done=0,
            total=None,
            version=ANALYSIS_VERSION,
            players=[_player(seat, None) for seat in range(players)],
            moves=[],
        )
    try:
        moves = tuple(MoveAnalysis.from_dict(move) for move in stored.moves)
    except EscobaError as error:  # stored by a version that wrote them otherwise
        log.warning("analyses: match %d's stored analysis is unreadable: %s", match_id, error)
        return analysis_view(match_id, players, None, language, deck)
    analysis = MatchAnalysis(players=players, moves=moves, version=stored.version)
    status: AnalysisStatus = stored.status
    return AnalysisView(
        match=match_id,
        status=status,
        done=len(moves),
        total=stored.total,
        version=stored.version,
        players=[_player(seat, analysis) for seat in range(players)],
        moves=[
            AnalysedMove(
                index=move.index,
                step=move.step,
                hand_number=move.hand_number,
                seat=move.seat,
                side=move.side,
                move=str(move.move),
                best=str(move.best),
                value=round(move.value, 3),
                best_value=round(move.best_value, 3),
                loss=round(move.loss, 3),
                judgement=move.judgement,
                exact=move.exact,
                lead=None if move.lead is None else round(move.lead, 3),
                text=move.explanation(language, deck) if move.is_costly else None,
            )
            for move in moves
        ],
    )


def _player(seat: int, analysis: MatchAnalysis | None) -> AnalysisPlayer:
    if analysis is None:
        counts = JudgementCounts(only=0, best=0, good=0, inaccuracy=0, mistake=0, blunder=0)
        return AnalysisPlayer(seat=seat, accuracy=None, counts=counts)
    accuracy = analysis.accuracy(seat)
    return AnalysisPlayer(
        seat=seat,
        accuracy=None if accuracy is None else round(accuracy, 1),
        counts=JudgementCounts(**analysis.counts(seat)),
    )
