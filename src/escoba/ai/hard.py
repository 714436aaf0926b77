"""``hard``: the top of the ladder, the strongest play measured at a cost a server can afford.

Where a hand is dealt three cards at a time (Escoba, Scopa, Escova), it is perfect-information
Monte Carlo (:class:`~escoba.ai.baseline.BaselinePlayer`): up to 100 deals of the unseen cards,
each searched to the end of the round, within a budget of 10,000 positions a move so that the
round's first moves, the dearest, stay within a few tens of milliseconds. Measured against
the tree search with 2,000 to 16,000 walks (the former ``hard``, ``expert`` and ``master``),
it plays as strongly at a twentieth of the time (docs/ai.md, "The ladder").

Where the whole deck is dealt at once (Scopone: nine or ten cards a hand), the round is the
whole hand, too deep to search to its end in every deal; there it is the tree search with
2,000 walks (no larger budget beat it in Scopone), over deals weighed by every play of the
hand (:class:`~escoba.ai.inference.Beliefs`' chain of deals).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..moves import Move
from ..observation import Observation
from .base import register
from .baseline import BaselinePlayer
from .ismcts import TreeSearchPlayer

__all__ = ["DEALS", "LEAST_DEALS", "LONG_HAND", "POSITIONS", "TREE_WALKS", "HardPlayer"]

DEALS: Final = 100
"""Deals searched a move when the budget allows (more measured no stronger)."""
POSITIONS: Final = 10_000
"""Positions a move may visit, counted, not timed: the same move on any machine."""
LEAST_DEALS: Final = 30
"""Deals searched whatever the budget."""
LONG_HAND: Final = 4
"""Cards dealt to a seat at a time from which a hand is played by the tree search."""
TREE_WALKS: Final = 2_000
"""The tree search's walks a move in those games."""


class HardPlayer:
    """``hard``: a flat search over deals for three-card hands, the tree search for long ones
    (see the module). Reproducible from its seed."""

    name = "hard"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self._flat: BaselinePlayer | None = None
        self._tree: TreeSearchPlayer | None = None

    def choose(self, observation: Observation, legal: Sequence[Move]) -> Move:
        return self.player_for(observation).choose(observation, legal)

    def player_for(self, observation: Observation) -> BaselinePlayer | TreeSearchPlayer:
        """The search that plays this observation's game."""
        if observation.rules.hand_cards >= LONG_HAND:
            if self._tree is None:
                self._tree = TreeSearchPlayer(self.seed, name=self.name, iterations=TREE_WALKS)
            return self._tree
        if self._flat is None:
            self._flat = BaselinePlayer(
                self.seed,
                name=self.name,
                determinizations=DEALS,
                depth=6,
                positions=POSITIONS,
                min_deals=LEAST_DEALS,
            )
        return self._flat


register("hard", HardPlayer)
