"""Random play: what happens on average in a rule set, measured by playing many matches.

Every seat plays a uniformly random legal move. The moves, and the seed of every match, come
from one ``random.Random(seed)``, so the same arguments always give the same summary.

>>> from escoba import RULESETS
>>> summary = simulate(RULESETS["escoba"], matches=5, seed=1)
>>> summary.matches, summary.hands >= 5, round(sum(summary.win_share), 9)
(5, True, 1.0)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from .game import Game
from .rules import RuleSet
from .scoring import CATEGORIES

__all__ = ["SimulationSummary", "simulate"]


@dataclass(frozen=True, slots=True, kw_only=True)
class SimulationSummary:
    """What happened on average in ``matches`` random matches.

    "Per hand" figures are means over every hand of every match. Points are summed over the
    sides, so ``mean_points_per_hand`` is the mean number of points a hand hands out.
    """

    rules: RuleSet
    players: int
    partnerships: bool
    seed: int
    sides: tuple[tuple[int, ...], ...]
    """The seats of each side, as in :attr:`Game.sides`."""
    matches: int
    hands: int
    """Hands played in all matches together."""
    category_means: Mapping[str, float]
    """Mean points per hand of each scoring category (see ``CATEGORIES``), all sides summed."""
    mean_points_per_hand: float
    """Mean points per hand, all sides summed: the sum of ``category_means``."""
    mean_sweeps_per_hand: float
    """Mean sweeps per hand, all sides summed (initial-table sweeps included)."""
    mean_hands_per_match: float
    opener_points_per_hand: float
    """Mean points per hand of the side of the seat that plays first (the seat after the
    dealer)."""
    dealer_points_per_hand: float
    """Mean points per hand of the dealer's side."""
    opener_win_rate: float
    """Share of matches won by the side that played first in the match's first hand."""
    win_share: tuple[float, ...]
    """Share of matches won by each side (they sum to 1: every match has a winner)."""

    @property
    def first_player_edge(self) -> float:
        """Mean points per hand of the side playing first minus the dealer's side.

        Positive: playing first is worth more than dealing (which brings the initial-table
        sweeps and, often, the last capture); negative: dealing is worth more.
        """
        return self.opener_points_per_hand - self.dealer_points_per_hand

    @property
    def fair_share(self) -> float:
        """The win share each side would have if no seat had an advantage."""
        return 1 / len(self.sides)


def simulate(
    rules: RuleSet,
    *,
    matches: int,
    players: int = 2,
    partnerships: bool = False,
    seed: int = 0,
    on_match: Callable[[int], None] | None = None,
) -> SimulationSummary:
    """Play ``matches`` matches of uniformly random legal moves and summarise them.

    ``on_match`` is called after every match with the number of matches finished so far
    (for a progress bar). Bad arguments raise ``ValueError`` (``RulesError`` for the seats).
    """
    if not isinstance(matches, int) or isinstance(matches, bool) or matches < 1:
        raise ValueError(f"matches: must be a whole number >= 1, got {matches!r}")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError(f"seed: must be a whole number, got {seed!r}")
    rng = random.Random(seed)
    category_totals = dict.fromkeys(CATEGORIES, 0)
    sweeps = hands = opener_points = dealer_points = opener_wins = 0
    wins: list[int] = []
    sides: tuple[tuple[int, ...], ...] = ()
    for done in range(1, matches + 1):
        game = Game(rules, players, partnerships, seed=rng.getrandbits(64))
        if not wins:
            sides = game.sides
            wins = [0] * len(sides)
        first_opener_side = game.side_of((game.dealer + 1) % players)
        while not game.is_over():
            game.play(rng.choice(game.legal_moves()))
        for result in game.results:
            hands += 1
            for category in CATEGORIES:
                category_totals[category] += sum(result.breakdown[category])
            sweeps += sum(result.sweeps)
            opener_points += result.points[game.side_of((result.dealer + 1) % players)]
            dealer_points += result.points[game.side_of(result.dealer)]
        winner = game.winner
        assert winner is not None
        wins[winner] += 1
        opener_wins += winner == first_opener_side
        if on_match is not None:
            on_match(done)
    category_means = {name: total / hands for name, total in category_totals.items()}
    return SimulationSummary(
        rules=rules,
        players=players,
        partnerships=partnerships,
        seed=seed,
        sides=sides,
        matches=matches,
        hands=hands,
        category_means=MappingProxyType(category_means),
        mean_points_per_hand=sum(category_totals.values()) / hands,
        mean_sweeps_per_hand=sweeps / hands,
        mean_hands_per_match=hands / matches,
        opener_points_per_hand=opener_points / hands,
        dealer_points_per_hand=dealer_points / hands,
        opener_win_rate=opener_wins / matches,
        win_share=tuple(count / matches for count in wins),
    )
