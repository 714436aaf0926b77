"""The evaluation where a search stops: a hand's expected outcome from a position, fitted on
self-play.

The value of a position for a side is its sweeps so far less the others' mean, plus a weighted
sum of features (:data:`FEATURES`): for every card category, the side's expected share of its
point given what each side has captured and how many of its cards are still to be taken (a
smooth step in the lead, wider the more is left); and what the table offers to the seat that
plays next (a sweep, the 7 of coins, sevens and coins to take), and to whoever deals and so
plays last. The weights are fitted by least squares on the outcomes of self-play hands
(``scripts/fit_models.py``), one set per capture rule.

Features look only at what every seat will know at that point (piles, sweeps, table, whose
turn it is), never at the hidden hands or the stock of the deal being searched, so the value
of a round's end does not depend on which cards the next round happens to bring.
"""

from __future__ import annotations

import math
from typing import Final

from .._bits import COINS_MASK, FULL_DECK, SEVEN_OF_COINS, SEVENS_MASK, VALUE_MASK
from ..rules import RuleSet
from . import fitted
from .policy import sweep_chance
from .simulation import Simulation, regional_estimate

__all__ = ["FEATURES", "Evaluation"]

FEATURES: Final[tuple[str, ...]] = (
    "cards",
    "coins",
    "seven_of_coins",
    "sevens",
    "sweep_next",
    "seven_of_coins_next",
    "sevens_next",
    "coins_next",
    "table_next",
    "dealer",
    "last_capturer",
)
"""The names of :meth:`Evaluation.features`' values, in order."""

_SIXES: Final = VALUE_MASK[6]
_ACES: Final = VALUE_MASK[1]


def _share(strengths: list[float], side: int, spread: float) -> float:
    """Expected points of ``side`` less the others' mean in a 1-point category won by the
    single strongest side, when each side's final strength is its current one plus noise of
    size ``spread`` (a logistic stand-in for the normal)."""
    if len(strengths) == 2:
        diff = strengths[side] - strengths[1 - side]
        if spread <= 0.0:
            return float((diff > 0) - (diff < 0))
        return math.tanh(0.85 * diff / spread)
    chances = []
    for i, mine in enumerate(strengths):
        chance = 1.0
        for j, theirs in enumerate(strengths):
            if i != j:
                if spread <= 0.0:
                    chance *= 1.0 if mine > theirs else 0.0
                else:
                    chance /= 1.0 + math.exp(-1.7 * (mine - theirs) / spread)
        chances.append(chance)
    others = (sum(chances) - chances[side]) / (len(chances) - 1)
    return chances[side] - others


def _for(owner: int, side: int, sides: int) -> float:
    """What one point of side ``owner`` is worth to ``side`` against the others' mean."""
    return 1.0 if owner == side else -1.0 / (sides - 1)


def _tanh_share(diff: float, spread: float) -> float:
    """:func:`_share` for two sides."""
    if spread <= 0.0:
        return float((diff > 0) - (diff < 0))
    return math.tanh(0.85 * diff / spread)


# Spreads by the number of cards, coins and sevens still to be taken.
_CARD_SPREAD: Final = tuple(1.5 * math.sqrt(n) for n in range(41))
_COIN_SPREAD: Final = tuple(1.2 * math.sqrt(n) for n in range(41))
_SEVENS_SPREAD: Final = tuple(1.2 * math.sqrt(n) for n in range(41))


class Evaluation:
    """A fitted evaluation for one rule set: ``evaluation(sim, side)`` is the expected hand
    points of ``side`` less the other sides' mean."""

    __slots__ = ("_match", "_regional", "_rules", "_sevens", "weights")

    def __init__(self, rules: RuleSet, weights: tuple[float, ...] | None = None) -> None:
        if weights is None:
            weights = fitted.EVALUATION_WEIGHTS[rules.capture]
        if len(weights) != len(FEATURES):
            raise ValueError(f"an evaluation needs {len(FEATURES)} weights, got {len(weights)}")
        self.weights = weights
        self._match = rules.capture == "match"
        self._sevens = rules.sevens
        self._rules = rules
        # Re bello and napola are not among the fitted features: counted as they stand.
        self._regional = rules.re_bello or rules.napola

    def __call__(self, sim: Simulation, side: int) -> float:
        if sim.sides == 2:
            return self._two_sides(sim, side)
        sweeps = sim.sweeps
        value = sweeps[side] - (sum(sweeps) - sweeps[side]) / (sim.sides - 1)
        for weight, feature in zip(self.weights, self.features(sim, side), strict=True):
            value += weight * feature
        if self._regional:
            value += regional_estimate(self._rules, sim.piles, side)
        return value

    def _two_sides(self, sim: Simulation, side: int) -> float:
        """:meth:`__call__` for two sides, written out: the search's hottest path."""
        (w_cards, w_coins, w_seven, w_sevens, w_sweep, w_seven_next, w_sevens_next,
         w_coins_next, w_table_next, w_dealer, w_last) = self.weights  # fmt: skip
        other = 1 - side
        mine = sim.piles[side]
        theirs = sim.piles[other]
        captured = mine | theirs
        table = sim.table
        free = ~captured & FULL_DECK
        value = float(sim.sweeps[side] - sim.sweeps[other])
        value += w_cards * _tanh_share(
            mine.bit_count() - theirs.bit_count(), _CARD_SPREAD[free.bit_count()]
        )
        value += w_coins * _tanh_share(
            (mine & COINS_MASK).bit_count() - (theirs & COINS_MASK).bit_count(),
            _COIN_SPREAD[(free & COINS_MASK).bit_count()],
        )
        if captured & SEVEN_OF_COINS:
            value += w_seven if mine & SEVEN_OF_COINS else -w_seven
        mode = self._sevens
        if mode != "none":
            sevens_free = (free & SEVENS_MASK).bit_count()
            diff = float((mine & SEVENS_MASK).bit_count() - (theirs & SEVENS_MASK).bit_count())
            if mode == "sevens":
                spread = _SEVENS_SPREAD[sevens_free]
            else:
                diff += 0.3 * ((mine & _SIXES).bit_count() - (theirs & _SIXES).bit_count())
                diff += 0.1 * ((mine & _ACES).bit_count() - (theirs & _ACES).bit_count())
                spread = 0.2 + _SEVENS_SPREAD[sevens_free]
            value += w_sevens * _tanh_share(diff, spread)
        mover = sim.to_move
        if mover >= 0 and table:
            sign = 1.0 if sim.side_of[mover] == side else -1.0
            pool = free & ~table
            value += sign * (
                w_sweep * sweep_chance(table, pool, self._match, len(sim.hands[mover]))
                + (w_seven_next if table & SEVEN_OF_COINS else 0.0)
                + w_sevens_next * (table & SEVENS_MASK).bit_count()
                + w_coins_next * (table & COINS_MASK).bit_count()
                + w_table_next * table.bit_count()
            )
        left_share = (sim.plays_per_hand - sim.played) / sim.plays_per_hand
        value += w_dealer * left_share * (1.0 if sim.side_of[sim.dealer] == side else -1.0)
        last = sim.last_capturer
        if last >= 0 and table:
            value += (
                w_last
                * table.bit_count()
                * (1.0 - left_share)
                * (1.0 if sim.side_of[last] == side else -1.0)
            )
        if self._regional:
            value += regional_estimate(self._rules, sim.piles, side)
        return value

    def features(self, sim: Simulation, side: int) -> tuple[float, ...]:
        """The values of :data:`FEATURES` for ``side`` in the position of ``sim``."""
        piles = sim.piles
        n = sim.sides
        captured = 0
        for pile in piles:
            captured |= pile
        table = sim.table
        pool = FULL_DECK & ~captured & ~table  # in the hands or the stock
        free = pool | table
        left = free.bit_count()
        cards = _share([p.bit_count() for p in piles], side, 1.5 * math.sqrt(left))
        coins_left = (free & COINS_MASK).bit_count()
        coins = _share([(p & COINS_MASK).bit_count() for p in piles], side, 1.2 * coins_left**0.5)
        seven_of_coins = 0.0
        if captured & SEVEN_OF_COINS:
            seven_of_coins = 1.0 if piles[side] & SEVEN_OF_COINS else -1.0 / (n - 1)
        mode = self._sevens
        sevens = 0.0
        if mode != "none":
            sevens_free = (free & SEVENS_MASK).bit_count()
            if mode == "sevens":
                strengths = [float((p & SEVENS_MASK).bit_count()) for p in piles]
                spread = 1.2 * sevens_free**0.5
            else:
                strengths = [
                    (p & SEVENS_MASK).bit_count()
                    + 0.3 * (p & _SIXES).bit_count()
                    + 0.1 * (p & _ACES).bit_count()
                    for p in piles
                ]
                spread = 0.2 + 1.2 * sevens_free**0.5
            sevens = _share(strengths, side, spread)
        # What the table offers the seat to move: counted for it, against the others.
        mover = sim.to_move
        sign = 0.0 if mover < 0 else _for(sim.side_of[mover], side, n)
        drawn = len(sim.hands[mover]) if mover >= 0 else 0
        sweep_next = sign * sweep_chance(table, pool, self._match, drawn)
        dealer = _for(sim.side_of[sim.dealer], side, n)
        left_share = (sim.plays_per_hand - sim.played) / sim.plays_per_hand
        last = sim.last_capturer
        last_sign = 0.0 if last < 0 else _for(sim.side_of[last], side, n)
        return (
            cards,
            coins,
            seven_of_coins,
            sevens,
            sweep_next,
            sign if table & SEVEN_OF_COINS else 0.0,
            sign * (table & SEVENS_MASK).bit_count(),
            sign * (table & COINS_MASK).bit_count(),
            sign * table.bit_count(),
            dealer * left_share,
            last_sign * table.bit_count() * (1.0 - left_share),
        )
