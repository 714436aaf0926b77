"""Information-set Monte Carlo tree search (single observer), over deals weighted by inference.

One tree is grown per decision, over the moves as every seat sees them played. Each iteration
deals the unseen cards afresh (:class:`~escoba.ai.inference.Beliefs`: the other seats' plays
this round make some hands likelier) and walks down the tree with only the moves that deal
allows: at each node the seat to move picks by UCB1, counting a move's chances by how often
it was available, its side maximising the searching side's value and the other sides
minimising it (partners maximise with it). The walk adds one node, or stops at its depth,
and the position there is valued by the quiescence sweep and the evaluation (the fitted
one of :mod:`escoba.ai.evaluation`, or the hand-made estimate); the value is counted on
every node of the path.

Unlike searching each deal as if every card were face up, the tree's nodes are shared by all
deals that agree on what was seen: the searching seat's later moves cannot depend on cards it
will not see, and the other seats choose without knowing its hand. A walk goes on past the end
of the round into the next one, whose cards the deal holds (the deal is chance).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Final, Literal

from .._bits import FULL_DECK
from ..errors import EscobaError
from ..moves import Move
from ..observation import Observation
from .evaluation import Evaluation
from .inference import Beliefs
from .policy import PlayModel, Position
from .sampling import seen_mask
from .simulation import Simulation

__all__ = ["FORMER_LEVEL_WALKS", "TreeSearchPlayer"]

_INF: Final = float("inf")

Evaluator = Callable[[Simulation, int], float]


class _Node:
    """Statistics of one move in one information set, and the moves after it."""

    __slots__ = ("available", "children", "keys", "prior", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.total = 0.0
        """Sum of the searching side's values over the walks through this node."""
        self.available = 1
        """Walks that reached the parent with this move legal."""
        self.prior = 0.0
        """The play model's score of the move, when the search uses it."""
        self.keys: list[int] | None = None
        """The legal moves after this one, kept where every deal gives the same: the
        searching seat to move with no new round dealt on the way (its hand is known)."""


class TreeSearchPlayer:
    """An ISMCTS player: ``iterations`` walks per decision (the iteration budget), each at
    most ``depth`` moves deep, choosing by UCB1 with exploration ``exploration``. With
    ``inference`` the deals are weighted by the other seats' plays this round; in hands
    dealt whole (Scopone), with ``whole_hand`` every play of the hand weighs them through a
    chain of deals, else only a seat's last few cards are weighed.
    ``time_limit`` (seconds) stops early once spent, after at least one walk per legal move;
    without it the choices depend only on the seed and the observation."""

    def __init__(
        self,
        seed: int = 0,
        *,
        name: str = "tree search",
        iterations: int = 2_000,
        depth: int = 8,
        exploration: float = 0.7,
        inference: bool = True,
        whole_hand: bool = True,
        time_limit: float | None = None,
        prior: float = 0.0,
        evaluation: Literal["auto", "fitted", "estimate"] = "auto",
        opponents: Literal["ucb", "model"] = "ucb",
    ) -> None:
        if iterations < 1 or depth < 1 or exploration < 0:
            raise EscobaError(
                "a tree search needs at least one iteration and one move of depth and an "
                f"exploration >= 0, got iterations={iterations}, depth={depth}, "
                f"exploration={exploration}"
            )
        self.seed = seed
        self._name = name
        self.iterations = iterations
        self.depth = depth
        self.exploration = exploration
        self.inference = inference
        self.whole_hand = whole_hand
        self.time_limit = time_limit
        self.prior = prior
        if evaluation not in ("auto", "fitted", "estimate"):
            raise EscobaError(f"evaluation: 'auto', 'fitted' or 'estimate', got {evaluation!r}")
        self.evaluation_kind = evaluation
        self.opponents = opponents
        self.walks = 0
        """Walks made by the last evaluation (for benchmarks)."""

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
        # Seeded from the player's seed and the position: a position gets the same walks
        # whatever was asked before (the coach and the player agree, replays repeat).
        played = len(observation.history)
        return random.Random(
            f"{self.seed}:{observation.hand_number}:{played}:{observation.seat}:"
            f"{seen_mask(observation)}:{observation.totals}"
        )

    def beliefs(self, observation: Observation) -> Beliefs:
        """The deals this player draws from in this position."""
        model = PlayModel.fitted(observation.rules) if self.inference else None
        return Beliefs(observation, model, whole_hand=self.whole_hand)

    def evaluation(self, observation: Observation) -> Evaluator:
        """The evaluation where a walk stops: fitted on self-play, or the first search's
        hand-made estimate. ``auto``, as measured in duplicate hands (docs/ai.md): fitted for
        the sum-15 games, the estimate (which played as well) for capture by match."""
        kind = self.evaluation_kind
        if kind == "auto":
            kind = "fitted" if observation.rules.capture == "sum15" else "estimate"
        if kind == "estimate":
            return Simulation.estimate
        return Evaluation(observation.rules)

    def evaluate(self, observation: Observation, legal: Sequence[Move]) -> list[tuple[Move, float]]:
        """Every legal move with its mean value over the walks through it (the seat's side's
        expected hand points less the other sides' mean), the most walked first."""
        if not legal:
            return []
        start = time.perf_counter()
        rng = self._rng(observation)
        beliefs = self.beliefs(observation)
        evaluation = self.evaluation(observation)
        side = observation.side
        sim = Simulation.from_observation(observation, beliefs.sample(rng))
        # Stock cards a walk can reach: a new round for every seat per round the depth spans.
        round_size = observation.rules.hand_cards * observation.players
        dealt = round_size * (1 + self.depth // round_size)
        mine = tuple(s == side for s in sim.side_of)
        root = _Node()
        model = PlayModel.fitted(observation.rules)
        prior = self.prior
        modelled = self.opponents == "model"
        seat = observation.seat
        c = self.exploration
        log = math.log
        sqrt = math.sqrt
        walks = 0
        while walks < self.iterations:
            if (
                self.time_limit is not None
                and walks >= len(legal)
                and time.perf_counter() - start > self.time_limit
            ):
                break
            if walks:
                sim.place(beliefs.sample(rng, dealt))
            node = root
            path = [root]
            applied = 0
            while sim.to_move >= 0 and applied < self.depth:
                if sim.to_move == seat and not sim.stock_pos:
                    keys = node.keys
                    if keys is None:
                        keys = node.keys = sim.legal_keys()
                else:
                    keys = sim.legal_keys()
                children = node.children
                if modelled and sim.to_move != seat:
                    # The other seat plays as the play model says, from what it can see.
                    key = (
                        rng.choices(keys, _chances(model, sim, keys))[0]
                        if len(keys) > 1
                        else keys[0]
                    )
                    child = children.get(key)
                    sim.apply(key)
                    applied += 1
                    if child is None:
                        node = children[key] = _Node()
                        path.append(node)
                        break
                    node = child
                    path.append(node)
                    continue
                fresh = []
                for key in keys:
                    child = children.get(key)
                    if child is None:
                        fresh.append(key)
                    else:
                        child.available += 1
                if fresh:
                    if prior:
                        scores = _scores(model, sim, fresh)
                        key = fresh[scores.index(max(scores))]
                        node = children[key] = _Node()
                        node.prior = prior * max(scores)
                    else:
                        key = fresh[int(rng.random() * len(fresh))] if len(fresh) > 1 else fresh[0]
                        node = children[key] = _Node()
                    sim.apply(key)
                    path.append(node)
                    applied += 1
                    break
                maximise = mine[sim.to_move]
                best = -_INF
                chosen = keys[0]
                for key in keys:
                    child = children[key]
                    mean = child.total / child.visits
                    score = (
                        (mean if maximise else -mean)
                        + c * sqrt(log(child.available) / child.visits)
                        + child.prior / (1 + child.visits)
                    )
                    if score > best:
                        best = score
                        chosen = key
                node = children[chosen]
                sim.apply(chosen)
                path.append(node)
                applied += 1
            value = _leaf(sim, side, evaluation, mine)
            for visited in path:
                visited.visits += 1
                visited.total += value
            for _ in range(applied):
                sim.undo()
            walks += 1
        self.walks = walks
        ranked = []
        for move in legal:
            child = root.children.get(move.key)
            if child is None:
                ranked.append((move, -_INF, 0))
            else:
                ranked.append((move, child.total / child.visits, child.visits))
        ranked.sort(key=lambda entry: (-entry[2], -entry[1], entry[0].key))
        return [(move, mean) for move, mean, _ in ranked]


def _position(sim: Simulation) -> Position:
    """The position of the seat to move as the play model sees it."""
    mover = sim.to_move
    visible = sim.table
    for pile in sim.piles:
        visible |= pile
    for card in sim.hands[mover]:
        visible |= 1 << card
    plays_after = sim.plays_per_hand - sim.played - 1
    following = sim.hands[(mover + 1) % sim.players]
    next_hand = len(following) if following else (sim.rules.hand_cards if plays_after > 0 else 0)
    return Position(sim.rules, sim.table, FULL_DECK & ~visible, plays_after, next_hand)


def _scores(model: PlayModel, sim: Simulation, keys: list[int]) -> list[float]:
    """The play model's scores of ``keys`` from the mover's side of the table."""
    position = _position(sim)
    return [model.score(position, key) for key in keys]


def _chances(model: PlayModel, sim: Simulation, keys: list[int]) -> list[float]:
    """The play model's chances of ``keys`` from the mover's side of the table."""
    return model.probabilities(_position(sim), keys)


def _leaf(sim: Simulation, side: int, evaluation: Evaluator, mine: tuple[bool, ...]) -> float:
    """The value where a walk stops: exact at the hand's end; else, if the seat to move can
    sweep, it does (the one capture a static evaluation cannot see coming), and the
    evaluation values the rest."""
    if sim.to_move < 0:
        return sim.value(side)
    table = sim.table
    if table:
        sweeps = [key for key in sim.legal_keys() if key >> 6 == table]
        if sweeps:
            maximise = mine[sim.to_move]
            best = -_INF if maximise else _INF
            for key in sweeps:
                sim.apply(key)
                value = sim.value(side) if sim.to_move < 0 else evaluation(sim, side)
                sim.undo()
                best = max(best, value) if maximise else min(best, value)
            return best
    return evaluation(sim, side)


FORMER_LEVEL_WALKS: Final[Mapping[str, int]] = MappingProxyType(
    {"hard": 2_000, "expert": 4_000, "master": 16_000}
)
"""The walks a move of the levels this search once was (``hard``, ``expert`` and ``master``,
about 60, 125 and 500 ms a move), for the benchmarks that measure against them: no
measurement told them apart, and ``hard`` now plays at a twentieth of their time
(:mod:`escoba.ai.hard`)."""
