"""Perfect-information Monte Carlo (PIMC) over deals weighted by inference: the search the
levels were measured against before the tree search (:mod:`escoba.ai.ismcts`) replaced it.

Each decision deals the cards the seat has not seen many times (:mod:`escoba.ai.inference`:
the other seats' plays this round make some hands likelier than others), searches every legal
move on each deal with alpha-beta as if every card were face up, and averages. The search goes
on past the end of the round into the next one, whose cards the deal already holds (so the
next round is chance, averaged over the deals), and stops at its depth with a quiescence step
(a seat that can sweep does) and the evaluation of :mod:`escoba.ai.evaluation`. Values are
the searching side's hand points less the other sides' mean. Partners maximise together;
every other side is assumed to play against the searching side (the "paranoid" reduction,
which keeps alpha-beta usable with 3 or 4 sides).

The budget is counted in positions searched, not in time, so that a level plays the same move
in the same position on any machine; ``time_limit`` is an option on top.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Final, Literal

from ..errors import EscobaError
from ..moves import Move
from ..observation import Observation
from .evaluation import Evaluation as Fitted
from .inference import Beliefs
from .policy import PlayModel
from .sampling import seen_mask
from .simulation import _DEAL, Simulation, search_depth

__all__ = ["SearchPlayer"]

_INF: Final = float("inf")

Evaluation = Callable[[Simulation, int], float]
"""A heuristic value of an unfinished hand for a side (points less the others' mean)."""


def _taken_count(key: int) -> int:
    return (key >> 6).bit_count()


class SearchPlayer:
    """A PIMC player over inferred deals.

    ``budget`` is the number of positions to search per decision (the iteration budget):
    deals are drawn until it is spent, at least ``min_deals`` and at most ``max_deals``.
    Each deal is searched ``depth`` plies deep (``cross_rounds``: on into the next round;
    else the search stops where a new round is dealt). ``inference`` weighs the deals by the
    other seats' plays this round; without it they are uniform. ``time_limit`` (seconds)
    stops drawing deals early once spent, after ``min_deals``. Without a time limit the
    choices depend only on the seed and the observation.
    """

    def __init__(
        self,
        seed: int = 0,
        *,
        name: str = "search",
        budget: int = 20_000,
        min_deals: int = 8,
        max_deals: int = 2_000,
        depth: int = 6,
        cross_rounds: bool = True,
        inference: bool = True,
        evaluation: Literal["fitted", "estimate"] = "fitted",
        time_limit: float | None = None,
    ) -> None:
        if budget < 1 or min_deals < 1 or max_deals < min_deals or depth < 1:
            raise EscobaError(
                "a search player needs a budget, at least one deal and one ply, "
                f"got budget={budget}, min_deals={min_deals}, max_deals={max_deals}, "
                f"depth={depth}"
            )
        self.seed = seed
        self._name = name
        self.budget = budget
        self.min_deals = min_deals
        self.max_deals = max_deals
        self.depth = depth
        self.cross_rounds = cross_rounds
        self.inference = inference
        if evaluation not in ("fitted", "estimate"):
            raise EscobaError(f"evaluation: 'fitted' or 'estimate', got {evaluation!r}")
        self.evaluation_kind = evaluation
        self.evaluation: Evaluation = Simulation.estimate
        self.time_limit = time_limit
        self._side = 0
        self.nodes = 0
        """Positions visited by the last evaluation (for benchmarks)."""
        self.deals = 0
        """Deals searched by the last evaluation."""

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

    def beliefs(self, observation: Observation) -> Beliefs:
        """The deals this player draws from in this position."""
        model = PlayModel.fitted(observation.rules) if self.inference else None
        return Beliefs(observation, model)

    def evaluate(self, observation: Observation, legal: Sequence[Move]) -> list[tuple[Move, float]]:
        """Every legal move with its estimated point gain (the seat's side's expected hand
        points less the other sides' mean), best first."""
        if not legal:
            return []
        start = time.perf_counter()
        rng = self._rng(observation)
        beliefs = self.beliefs(observation)
        if self.evaluation_kind == "fitted":
            self.evaluation = Fitted(observation.rules)
        keys = [move.key for move in legal]
        totals = [0.0] * len(keys)
        self._side = observation.side
        self.nodes = 0
        done = 0
        depth = self.depth
        while done < self.max_deals and (done < self.min_deals or self.nodes < self.budget):
            if (
                done >= self.min_deals
                and self.time_limit is not None
                and time.perf_counter() - start > self.time_limit
            ):
                break
            sim = Simulation.from_observation(observation, beliefs.sample(rng))
            if not done:
                depth = search_depth(sim, depth)
            for i, key in enumerate(keys):
                sim.apply(key)
                totals[i] += self._search(sim, depth - 1, -_INF, _INF)
                sim.undo()
            done += 1
        self.deals = done
        ranked = [(move, total / done) for move, total in zip(legal, totals, strict=True)]
        ranked.sort(key=lambda pair: (-pair[1], pair[0].key))
        return ranked

    def _search(self, sim: Simulation, depth: int, alpha: float, beta: float) -> float:
        self.nodes += 1
        side = self._side
        if sim.to_move < 0:
            return sim.value(side)
        if sim.last_event == _DEAL and not self.cross_rounds:
            return self.evaluation(sim, side)
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
        is almost always right and that a static evaluation cannot see coming)."""
        side = self._side
        table = sim.table
        sweeps = [key for key in keys if key >> 6 == table] if table else []
        if not sweeps:
            return self.evaluation(sim, side)
        mine = sim.side_of[sim.to_move] == side
        best = -_INF if mine else _INF
        for key in sweeps:
            sim.apply(key)
            value = sim.value(side) if sim.to_move < 0 else self.evaluation(sim, side)
            sim.undo()
            best = max(best, value) if mine else min(best, value)
        return best
