"""A model of how a seat plays: a probability over its legal moves.

Each move is described by a few features a player weighs (what it takes, whether it sweeps,
what it drops, the sweep and the 7 of coins it leaves to the next seat), and the model is a
softmax over a weighted sum of them: ``P(move) ∝ exp(weights · features)``. The weights are
fitted by maximum likelihood on the moves of self-play (``scripts/fit_models.py``), one set
for the games of the 15 and one for the matching games.

The features of one card's moves depend only on that card, the table and what the mover could
not see, never on the rest of its hand (a card that can take must take, whatever else the hand
holds). So the chance of a whole hand choosing a move factors into one sum per card
(:meth:`PlayModel.card_mass`), which is what lets :mod:`escoba.ai.inference` weigh every
possible hand of another seat quickly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

from .._bits import (
    COINS_MASK,
    SEVEN_OF_COINS,
    SEVENS_MASK,
    VALUE,
    VALUE_MASK,
    signature,
    value_sum,
)
from ..captures import legal_keys
from ..rules import RuleSet
from . import fitted

__all__ = ["FEATURES", "PlayModel", "Position", "move_features", "sweep_chance"]

FEATURES: Final[tuple[str, ...]] = (
    "cards",
    "coins",
    "sevens",
    "seven_of_coins",
    "sixes",
    "aces",
    "sweep",
    "drop",
    "drop_seven",
    "drop_coin",
    "drop_value",
    "sweep_risk",
    "risk_cards",
    "seven_of_coins_left",
    "sevens_left",
    "table_left",
)
"""The names of :func:`move_features`' values, in order."""

_SIXES: Final = VALUE_MASK[6]
_ACES: Final = VALUE_MASK[1]


def _any_of(special: int, unseen: int, drawn: int) -> float:
    """Chance that ``drawn`` of ``unseen`` cards hold at least one of ``special`` cards."""
    special = min(special, unseen)
    if special <= 0 or drawn <= 0:
        return 0.0
    if drawn > unseen - special:
        return 1.0
    return 1.0 - math.comb(unseen - special, drawn) / math.comb(unseen, drawn)


# _ANY[unseen][special][drawn] for unseen <= 40, special <= 4, drawn <= 10 (a Scopone hand)
_ANY: Final = tuple(
    tuple(tuple(_any_of(k, n, h) for h in range(11)) for k in range(5)) for n in range(41)
)


def sweep_chance(table: int, unseen: int, match: bool, drawn: int) -> float:
    """Chance that a seat holding ``drawn`` of the ``unseen`` cards can take the whole
    ``table`` (all as bit sets): a card of 15 less its sum, or of its sum when matching."""
    if not table or drawn <= 0:
        return 0.0
    total = value_sum(table)
    value = total if match else 15 - total
    if not 1 <= value <= 10:
        return 0.0
    return _ANY[unseen.bit_count()][(unseen & VALUE_MASK[value]).bit_count()][min(drawn, 10)]


def _takes(table: int, unseen: int, match: bool, wanted: int, ace_takes_all: bool) -> bool:
    """Whether some unseen card could take a table card in ``wanted`` next turn."""
    sig = signature(table)
    seen_values = 0
    rest = unseen
    while rest:
        low = rest & -rest
        rest ^= low
        card = low.bit_length() - 1
        value = VALUE[card]
        if seen_values >> value & 1:
            continue
        seen_values |= 1 << value
        for key in legal_keys([card], table, sig, match, True, ace_takes_all):
            if key >> 6 & wanted:
                return True
    return False


@dataclass(frozen=True, slots=True)
class Position:
    """What a seat saw when it chose a move, as bit sets of cards."""

    rules: RuleSet
    table: int
    unseen: int
    """Cards the mover could not see (other hands and the stock)."""
    plays_after: int
    """Plays left in the hand after this one."""
    next_hand: int
    """Cards the next seat holds when it plays (a whole new hand after a deal)."""


def move_features(position: Position, key: int) -> tuple[float, ...]:
    """The values of :data:`FEATURES` for one move (``key``: card | taken << 6)."""
    rules = position.rules
    match = rules.capture == "match"
    card = key & 63
    taken = key >> 6
    table = position.table
    bit = 1 << card
    if taken:
        won = taken | bit
        sweep = (
            1.0
            if taken == table
            and (position.plays_after > 0 or rules.last_play_sweep_counts)
            # an ace that takes all under asso piglia tutto makes no sweep
            and not (rules.ace_takes_all and VALUE[card] == 1 and not taken & _ACES)
            else 0.0
        )
        after = table ^ taken
        gains = (
            float(won.bit_count()),
            float((won & COINS_MASK).bit_count()),
            float((won & SEVENS_MASK).bit_count()),
            1.0 if won & SEVEN_OF_COINS else 0.0,
            float((won & _SIXES).bit_count()),
            float((won & _ACES).bit_count()),
            sweep,
            0.0,
            0.0,
            0.0,
            0.0,
        )
    else:
        after = table | bit
        gains = (
            0.0,
            0.0,
            0.0,
            0.0,
            0.0,
            0.0,
            0.0,
            1.0,
            1.0 if bit & SEVENS_MASK else 0.0,
            1.0 if bit & COINS_MASK else 0.0,
            VALUE[card] / 10.0,
        )
    unseen = position.unseen & ~bit
    drawn = position.next_hand if position.plays_after > 0 else 0
    if drawn and (position.plays_after > 1 or rules.last_play_sweep_counts):
        risk = sweep_chance(after, unseen, match, drawn)
    else:
        risk = 0.0
    exposed_seven = (
        1.0
        if drawn
        and after & SEVEN_OF_COINS
        and _takes(after, unseen, match, SEVEN_OF_COINS, rules.ace_takes_all)
        else 0.0
    )
    sevens_left = float((after & SEVENS_MASK).bit_count()) if drawn else 0.0
    return (
        *gains,
        risk,
        risk * after.bit_count(),
        exposed_seven,
        sevens_left,
        float(after.bit_count()) / 4.0,
    )


def model_kind(rules: RuleSet) -> str:
    """Which fitted play model reads a game: ``"scopone"`` where the whole hand is dealt at
    once (its players choose among ten cards, and for the whole hand), else by how a card
    takes, ``"sum15"`` or ``"match"``."""
    return "scopone" if rules.hand_cards > 3 else rules.capture


class PlayModel:
    """``P(move) ∝ exp(weights · move_features(move))`` over a seat's legal moves."""

    __slots__ = ("weights",)

    def __init__(self, weights: tuple[float, ...]) -> None:
        if len(weights) != len(FEATURES):
            raise ValueError(f"a play model needs {len(FEATURES)} weights, got {len(weights)}")
        self.weights = weights

    @classmethod
    def fitted(cls, rules: RuleSet) -> PlayModel:
        """The model fitted on self-play for this kind of game (:func:`model_kind`; the
        capture rule's where that kind has none)."""
        weights = fitted.PLAY_WEIGHTS
        return cls(weights.get(model_kind(rules)) or weights[rules.capture])

    def score(self, position: Position, key: int) -> float:
        """The move's weighted sum of features (its log-probability up to a constant)."""
        return math.fsum(
            w * f for w, f in zip(self.weights, move_features(position, key), strict=True)
        )

    def probabilities(self, position: Position, keys: list[int]) -> list[float]:
        """The chance of each of ``keys`` (the mover's legal moves)."""
        scores = [self.score(position, key) for key in keys]
        top = max(scores)
        exps = [math.exp(s - top) for s in scores]
        total = math.fsum(exps)
        return [e / total for e in exps]

    def card_mass(self, position: Position, card: int) -> float:
        """The sum of ``exp(score)`` over the legal moves of one card: a hand's chance of
        choosing a move is that move's ``exp(score)`` over the sum of its cards' masses."""
        rules = position.rules
        table = position.table
        keys = legal_keys(
            [card],
            table,
            signature(table),
            rules.capture == "match",
            rules.forced_capture,
            rules.ace_takes_all,
        )
        return math.fsum(math.exp(min(self.score(position, key), 50.0)) for key in keys)
