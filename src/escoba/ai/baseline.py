"""``baseline``: the ``expert`` level as it was before inference and the deeper search,
kept frozen so that new players can be measured against it. Perfect-information Monte Carlo
(PIMC).

Each decision samples deals of the unseen cards consistent with what the seat has seen
(:mod:`escoba.ai.sampling`), searches each deal with alpha-beta as if every card were face
up, and averages each legal move's value over the deals. Values are the searching side's hand
points less the other sides' mean, exact when the search reaches the hand's end and a
heuristic estimate (:meth:`Simulation.estimate`) where it stops earlier: at its depth limit or
where a new round is dealt (the next round's cards are only a guess, so the search does not
look into them). Partners maximise together; every other side is assumed to play against
the searching side (the "paranoid" reduction, which keeps alpha-beta usable with 3 or 4
sides).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Final

from ..errors import EscobaError
from ..moves import Move
from ..observation import Observation
from .base import register
from .sampling import Determinization, sample_deal, seen_mask
from .simulation import _DEAL, Simulation, search_depth

__all__ = ["BaselinePlayer", "baseline"]

_INF: Final = float("inf")


def _taken_count(key: int) -> int:
    return (key >> 6).bit_count()


class BaselinePlayer:
    """A PIMC player: ``determinizations`` sampled deals (the iteration budget), each searched
    ``depth`` plies deep (never past the current round); ``time_limit`` (seconds, optional)
    stops sampling early once spent, after at least one deal. Without a time limit the choices
    depend only on the seed and the observation."""

    def __init__(
        self,
        seed: int = 0,
        *,
        name: str = "search",
        determinizations: int = 12,
        depth: int = 4,
        time_limit: float | None = None,
        cross_deals: bool = False,
        positions: int | None = None,
        min_deals: int = 1,
    ) -> None:
        if determinizations < 1 or depth < 1:
            raise EscobaError("a search player needs at least one deal and one ply")
        if (positions is not None and positions < 1) or not 1 <= min_deals <= determinizations:
            raise EscobaError(
                "a search player's budget of positions must be positive and its least deals "
                f"between 1 and its deals, got positions={positions}, min_deals={min_deals}"
            )
        self.seed = seed
        self._name = name
        self.determinizations = determinizations
        self.depth = depth
        self.time_limit = time_limit
        self.cross_deals = cross_deals
        """Search on past a new deal into the sampled next round (else estimate there)."""
        self.positions = positions
        """Positions a decision may visit (None: no bound): no deal is drawn once they are
        spent, after ``min_deals``. Counted, not timed, so a move stays the same anywhere."""
        self.min_deals = min_deals
        self._side = 0
        self.nodes = 0
        """Positions visited by the last evaluation (for benchmarks)."""

    @property
    def name(self) -> str:
        return self._name

    def choose(self, observation: Observation, legal: Sequence[Move]) -> Move:
        if not legal:
            raise EscobaError(f"seat {observation.seat} has no legal move to choose from")
        if len(legal) == 1:
            return legal[0]
        return self.evaluate(observation, legal)[0][0]

    def _rng(self, observation: Observation) -> random.Random:
        # Seeded from the player's seed and the position, not from a stream shared across
        # calls: a position gets the same deals whatever was asked before (the coach and
        # the player agree, and a replayed match chooses the same).
        played = len(observation.history)
        return random.Random(
            f"{self.seed}:{observation.hand_number}:{played}:{observation.seat}:"
            f"{seen_mask(observation)}:{observation.totals}"
        )

    def evaluate(self, observation: Observation, legal: Sequence[Move]) -> list[tuple[Move, float]]:
        """Every legal move with its estimated point gain (the seat's side's expected hand
        points less the other sides' mean), best first."""
        if not legal:
            return []
        start = time.perf_counter()
        rng = self._rng(observation)
        keys = [move.key for move in legal]
        totals = [0.0] * len(keys)
        worth = self.worth(observation)
        self._side = observation.side
        self.nodes = 0
        done = 0
        depth = self.depth
        for _ in range(self.determinizations):
            if (
                done
                and self.time_limit is not None
                and time.perf_counter() - start > self.time_limit
            ):
                break
            spent = self.positions is not None and self.nodes >= self.positions
            if spent and done >= self.min_deals:
                break
            sim = Simulation.from_observation(observation, self.deal(observation, rng))
            if not done:
                depth = search_depth(sim, depth)
            for i, key in enumerate(keys):
                sim.apply(key)
                value = self._search(sim, depth - 1, -_INF, _INF)
                totals[i] += value if worth is None else worth(value)
                sim.undo()
            done += 1
        ranked = [(move, total / done) for move, total in zip(legal, totals, strict=True)]
        ranked.sort(key=lambda pair: (-pair[1], pair[0].key))
        return ranked

    def worth(self, observation: Observation) -> Callable[[float], float] | None:
        """What a deal's searched value (the hand's margin) is worth to this player, whose
        mean over the deals ranks the moves: None, the margin itself. A player that plays
        for the match, not the hand, weighs margins by the score (benchmarks/match_play.py)."""
        return None

    def deal(self, observation: Observation, rng: random.Random) -> Determinization:
        """One deal of the unseen cards to search (uniform: no inference)."""
        return sample_deal(observation, rng)

    def _search(self, sim: Simulation, depth: int, alpha: float, beta: float) -> float:
        self.nodes += 1
        side = self._side
        if sim.to_move < 0:
            return sim.value(side)
        if sim.last_event == _DEAL and not self.cross_deals:
            return sim.estimate(side)
        keys = sim.legal_keys()
        if depth <= 0:
            return self._quiesce(sim, keys)
        if len(keys) > 1:
            keys.sort(key=_taken_count, reverse=True)  # sweeps and big captures first
        if sim.side_of[sim.to_move] == side:
            best = -_INF
            for key in keys:
                sim.apply(key)
                value = self._search(sim, depth - 1, alpha, beta)
                sim.undo()
                if value > best:
                    best = value
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            break
            return best
        best = _INF
        for key in keys:
            sim.apply(key)
            value = self._search(sim, depth - 1, alpha, beta)
            sim.undo()
            if value < best:
                best = value
                if value < beta:
                    beta = value
                    if alpha >= beta:
                        break
        return best

    def _quiesce(self, sim: Simulation, keys: list[int]) -> float:
        """At the depth limit: if the seat to move can sweep, it does (the one capture that
        is almost always right and that a static estimate cannot see coming)."""
        side = self._side
        table = sim.table
        sweeps = [key for key in keys if key >> 6 == table] if table else []
        if not sweeps:
            return sim.estimate(side)
        mine = sim.side_of[sim.to_move] == side
        best = -_INF if mine else _INF
        for key in sweeps:
            sim.apply(key)
            value = sim.value(side)
            sim.undo()
            best = max(best, value) if mine else min(best, value)
        return best


def baseline(seed: int = 0) -> BaselinePlayer:
    """``baseline``: 100 deals, six plies each, never past the current round (the ``expert``
    level of version 0.1)."""
    return BaselinePlayer(seed, name="baseline", determinizations=100, depth=6)


register("baseline", baseline)
