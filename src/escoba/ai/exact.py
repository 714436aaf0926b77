"""Exact values of the positions where nothing is hidden: two players and an empty stock.

With two seats and no stock, the cards a seat has not seen are exactly the other seat's hand:
every card is known, and the rest of the hand is a game of perfect information. Searched to
its end (at most six plies in the three-card games), each legal move gets its exact value:
the mover's hand points less the other seat's, both playing their best from there. The
analysis of a match (:mod:`escoba.ai.analysis`) and the puzzles' checks use these values
where they exist, and the search's estimates elsewhere.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from ..errors import EscobaError
from ..moves import Move
from ..observation import Observation
from .sampling import sample_deal
from .simulation import Simulation

__all__ = ["EXACT_PLIES", "exact_values", "is_exact"]

EXACT_PLIES: Final = 12
"""The most plies left in a hand that is searched exactly (six cards a seat: any 2-player
game dealt up to six at a time); past that the tree is too large to search every move of."""

_INF: Final = float("inf")


def is_exact(observation: Observation) -> bool:
    """Whether every card of this position is known to the seat to move, and the rest of the
    hand short enough to search whole: two players, no stock left, at most
    :data:`EXACT_PLIES` cards still to play."""
    return (
        observation.players == 2
        and observation.to_move is not None
        and observation.stock_size == 0
        and sum(observation.hand_sizes) <= EXACT_PLIES
    )


def exact_values(
    observation: Observation, legal: Sequence[Move] | None = None
) -> list[tuple[Move, float]]:
    """Every legal move with its exact value (the mover's hand points less the other seat's
    once the hand is played out by both at their best), best first; ties in the moves' order.

    Raises :class:`~escoba.errors.EscobaError` for a position that is not exact
    (:func:`is_exact`).
    """
    if not is_exact(observation):
        raise EscobaError(
            "an exact value needs two players, an empty stock and at most "
            f"{EXACT_PLIES} cards to play; this position has {observation.players} players, "
            f"{observation.stock_size} cards in the stock and {sum(observation.hand_sizes)} "
            "in the hands"
        )
    moves = list(observation.legal_moves if legal is None else legal)
    # Only one deal is consistent with what the seat has seen: the other hand is the unseen.
    sim = Simulation.from_observation(observation, sample_deal(observation, random.Random(0)))
    side = observation.side
    ranked: list[tuple[Move, float]] = []
    for move in moves:
        sim.apply(move.key)
        ranked.append((move, _value(sim, side, -_INF, _INF)))
        sim.undo()
    ranked.sort(key=lambda pair: (-pair[1], pair[0].key))
    return ranked


def _value(sim: Simulation, side: int, alpha: float, beta: float) -> float:
    """The exact value for ``side`` (alpha-beta within the window, exact inside it)."""
    if sim.to_move < 0:
        return sim.value(side)
    mine = sim.side_of[sim.to_move] == side
    best = -_INF if mine else _INF
    for key in sim.legal_keys():
        sim.apply(key)
        value = _value(sim, side, alpha, beta)
        sim.undo()
        if mine:
            if value > best:
                best = value
                alpha = max(alpha, value)
        elif value < best:
            best = value
            beta = min(beta, value)
        if alpha >= beta:
            break
    return best
