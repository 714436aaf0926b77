"""The computer levels' ratings: Elo from a round robin of matches, and the measured table.

Every pair of levels plays the same decks in both seatings (duplicate hands), the hands of
each seating chained into matches to the game's target; the ratings are the Bradley-Terry
(Elo) fit of those matches, on a scale where ``beginner`` (random legal moves, a strength
that never changes) is 1000. Each pair also counts one drawn match, the usual prior of such
fits: without it two levels of which one won every match would be infinitely apart. The 95%
intervals are those of round robins drawn from the fitted ratings. ``benchmarks/ladder.py``
plays the round robin and writes the table into :mod:`escoba.ai.rated`; the lobby, the
terminal's setup and ``escoba arena`` show it beside each level ("hard · about 1880").
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from ..rules import RuleSet
from .base import FORMER_LEVELS
from .rated import RATINGS

__all__ = [
    "ANCHOR",
    "ANCHOR_LEVEL",
    "Rating",
    "fit_elo",
    "level_rating",
    "rate_round_robin",
    "rated_game",
]

ANCHOR_LEVEL: Final = "beginner"
ANCHOR: Final = 1000.0
"""``beginner``'s rating: the scale's fixed point."""
PRIOR_DRAWS: Final = 1.0
"""Drawn matches counted for every pair (the prior)."""
ELO: Final = 400 / math.log(10)
"""Elo points per unit of the logistic scale (400 points: ten to one)."""

Results = Mapping[tuple[str, str], tuple[int, int]]
"""Matches won by each of a pair: ``{(a, b): (won by a, won by b)}``."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A level's rating with its 95% interval."""

    rating: float
    low: float
    high: float

    @property
    def about(self) -> int:
        """The rating as people read it: to the nearest ten."""
        return 10 * round(self.rating / 10)


def fit_elo(
    results: Results, *, anchor: str = ANCHOR_LEVEL, iterations: int = 200
) -> dict[str, float]:
    """Each player's Elo rating from the matches between pairs, ``anchor`` at :data:`ANCHOR`
    (the minorisation-maximisation fit of Bradley-Terry, with :data:`PRIOR_DRAWS`).

    >>> ratings = fit_elo({("a", "b"): (3, 1)}, anchor="b")
    >>> round(ratings["a"] - ratings["b"])
    147
    """
    players = sorted({name for pair in results for name in pair})
    if anchor not in players:
        raise ValueError(f"the anchor {anchor!r} played no match")
    wins = dict.fromkeys(players, 0.0)
    games: dict[tuple[str, str], float] = {}
    for (a, b), (won_a, won_b) in results.items():
        if won_a < 0 or won_b < 0 or a == b:
            raise ValueError(f"bad result for {a} against {b}: {won_a}, {won_b}")
        wins[a] += won_a + PRIOR_DRAWS / 2
        wins[b] += won_b + PRIOR_DRAWS / 2
        key = (a, b) if a < b else (b, a)
        games[key] = games.get(key, 0.0) + won_a + won_b + PRIOR_DRAWS
    strength = dict.fromkeys(players, 1.0)
    for _ in range(iterations):
        for player in players:
            denominator = sum(
                count / (strength[a] + strength[b])
                for (a, b), count in games.items()
                if player in (a, b)
            )
            strength[player] = wins[player] / denominator
        scale = strength[anchor]
        strength = {player: value / scale for player, value in strength.items()}
    return {player: ANCHOR + ELO * math.log(strength[player]) for player in players}


def rate_round_robin(
    results: Results, *, resamples: int = 1000, seed: int = 0
) -> dict[str, Rating]:
    """Ratings with 95% intervals: the fit of ``results``, and the 2.5th and 97.5th
    percentiles of the fits of ``resamples`` round robins drawn from it (each pair's matches
    played again, each won with the chance the fitted ratings give; a pair of which one won
    every match still varies so)."""
    fitted = fit_elo(results)
    rng = random.Random(seed)
    samples: dict[str, list[float]] = {player: [] for player in fitted}
    for _ in range(resamples):
        drawn = {}
        for (a, b), (won_a, won_b) in results.items():
            chance = 1 / (1 + math.exp((fitted[b] - fitted[a]) / ELO))
            again = sum(rng.random() < chance for _ in range(won_a + won_b))
            drawn[(a, b)] = (again, won_a + won_b - again)
        for player, value in fit_elo(drawn, iterations=60).items():
            samples[player].append(value)
    ratings = {}
    for player, value in fitted.items():
        ordered = sorted(samples[player])
        ratings[player] = Rating(
            value, min(_percentile(ordered, 0.025), value), max(_percentile(ordered, 0.975), value)
        )
    return ratings


def _percentile(ordered: Sequence[float], share: float) -> float:
    position = share * (len(ordered) - 1)
    below = math.floor(position)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (ordered[above] - ordered[below]) * (position - below)


def rated_game(rules: RuleSet) -> str | None:
    """The game whose ratings apply to ``rules`` (``escoba`` for the sum-to-15 games, ``scopa``
    for the matching games dealt three cards at a time), None where the levels are not rated
    yet (Scopone's long hands)."""
    if rules.hand_cards != 3:
        return None
    return "escoba" if rules.capture == "sum15" else "scopa"


def level_rating(level: str, rules: RuleSet) -> Rating | None:
    """A level's measured rating in the game of ``rules`` (a former name: its level's), None
    where there is none."""
    game = rated_game(rules)
    if game is None:
        return None
    measured = RATINGS.get(game, {}).get(FORMER_LEVELS.get(level, level))
    return None if measured is None else Rating(*measured)
