"""Rule-based computer players: ``easy`` (greedy) and ``medium`` (a club player's rules of thumb).

``easy`` takes the capture worth most by a fixed card value and otherwise drops its least
valuable card. ``medium`` scores every legal move with small pure functions that a coach can
reuse to explain a move:

- :func:`card_weights` and :func:`card_worth`: what one card is worth to a side, in points, for
  the categories the rule set scores (cards, coins, the 7 of coins, the sevens category, and
  where played the king of coins and the run of coins of napola), less for categories the
  captured piles already decide;
- :func:`capture_value`: the cards a move takes, the played card and a sweep;
- :func:`sweep_risk`: how likely the next opponent can sweep the table a move leaves, and with
  which values (counted from the unseen cards);
- :func:`reply_threat`: the expected worth of the next opponent's best capture on that table;
- :func:`drop_cost` and :func:`leftover_value`: keeping good cards in hand, no high card onto an
  empty table, and the leftovers that go to the last capturer;
- :func:`evaluate_move` combines them into a :class:`MoveEvaluation` with every term.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from math import comb
from typing import Final

from .._bits import KING_OF_COINS
from ..captures import captures
from ..cards import Card, Suit, mask_of
from ..errors import EscobaError
from ..moves import Move
from ..observation import Observation
from ..rules import RuleSet
from .base import register
from .simulation import napola_expected

__all__ = [
    "CardWeights",
    "ClubPlayer",
    "GreedyPlayer",
    "MoveEvaluation",
    "SweepRisk",
    "capture_value",
    "card_weights",
    "card_worth",
    "drop_cost",
    "evaluate_move",
    "greedy_value",
    "leftover_value",
    "plays_left",
    "reply_threat",
    "sweep_risk",
]

_EPSILON = 1e-9
_KING_OF_COINS: Final = KING_OF_COINS.bit_length() - 1  # its card index


def _pick(scored: Sequence[tuple[float, Move]], rng: random.Random) -> Move:
    """The best-scored move; ties broken by ``rng`` so that equal moves vary by seed."""
    best = max(score for score, _ in scored)
    tied = [move for score, move in scored if score >= best - _EPSILON]
    return tied[rng.randrange(len(tied))] if len(tied) > 1 else tied[0]


def _check(observation: Observation, legal: Sequence[Move]) -> None:
    if not legal:
        raise EscobaError(f"seat {observation.seat} has no legal move to choose from")


# -- easy --------------------------------------------------------------------------------


def greedy_value(card: Card) -> int:
    """``easy``'s fixed worth of a card: 1, a coin 1 more, a seven 2 more, the 7 of coins 5 more."""
    worth = 1
    if card.suit is Suit.COINS:
        worth += 1
    if card.value == 7:
        worth += 2
        if card.suit is Suit.COINS:
            worth += 5
    return worth


class GreedyPlayer:
    """``easy``: the capture worth most right now (a sweep worth 10 cards), else the cheapest
    drop."""

    name = "easy"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, observation: Observation, legal: Sequence[Move]) -> Move:
        _check(observation, legal)
        table = len(observation.table)
        takes = [m for m in legal if m.is_capture]
        if takes:
            aces_take_all = observation.rules.ace_takes_all
            scored = [
                (
                    greedy_value(m.card)
                    + sum(map(greedy_value, m.captures))
                    + (10 if len(m.captures) == table and not _takes_all(m, aces_take_all) else 0),
                    m,
                )
                for m in takes
            ]
        else:
            scored = [(-greedy_value(m.card), m) for m in legal]
        return _pick(scored, self._rng)


# -- medium: the pieces ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CardWeights:
    """What a card is worth to a side in points, by category (see :func:`card_weights`)."""

    card: float
    """Any card, towards most cards."""
    coin: float
    """A coin, towards most coins."""
    seven_of_coins: float
    """The 7 of coins' own point."""
    by_value: tuple[float, ...]
    """Extra worth by value 1..10 (index 0 unused) for the sevens category."""
    sweep: float
    """A sweep (one point)."""
    by_card: tuple[float, ...] = ()
    """Extra worth by card index (40 of them) where the rules play re bello or napola: the
    king of coins, and the coins of the run from the ace; empty when they play neither."""


# Points a card of each value adds towards the sevens category (index = value, 0 unused).
_SEVENS_CATEGORY: dict[str, tuple[float, ...]] = {
    # setenta: the best card per suit, 7 > 6 > A > 5 > ...: sevens decide it, sixes often.
    "ranking": (0, 0.06, 0.01, 0.01, 0.02, 0.04, 0.16, 0.34, 0, 0, 0),
    "sevens": (0, 0, 0, 0, 0, 0, 0, 0.36, 0, 0, 0),
    # primiera: 7=21, 6=18, A=16, 5=15 over the face cards' 10.
    "primiera": (0, 0.09, 0.02, 0.03, 0.04, 0.06, 0.16, 0.3, 0, 0, 0),
    "none": (0,) * 11,
}


def card_weights(rules: RuleSet, captured: Sequence[Collection[Card]], side: int) -> CardWeights:
    """The worth of a card to ``side`` now, counting what every side has captured: a category
    a side has already won (21+ cards, 6+ coins, 3+ sevens in "most sevens") is worth little
    more, so the player turns to what is still open."""
    piles = list(captured)
    decided_cards = any(len(p) > 20 for p in piles)
    coins = [sum(1 for c in p if c.suit is Suit.COINS) for p in piles]
    decided_coins = max(coins, default=0) > 5
    coin = 0.02 if decided_coins else 0.16
    if (rules.all_coins_two or rules.big_wins) and all(
        n == 0 for s, n in enumerate(coins) if s != side
    ):
        coin += 0.08  # all ten coins score double: still possible for this side
    by_value = list(_SEVENS_CATEGORY[rules.sevens])
    sevens = [sum(1 for c in p if c.value == 7) for p in piles]
    if rules.sevens == "sevens" and max(sevens, default=0) > 2:
        by_value[7] = 0.02
    bonus = max(rules.all_sevens_bonus, 1 if rules.big_wins else 0)
    if bonus and all(n == 0 for s, n in enumerate(sevens) if s != side):
        by_value[7] += 0.1 * bonus
    return CardWeights(
        card=0.01 if decided_cards else 0.05,
        coin=coin,
        seven_of_coins=1.0,
        by_value=tuple(by_value),
        sweep=1.0,
        by_card=_regional_worth(rules, [mask_of(p) for p in piles], side),
    )


def _regional_worth(rules: RuleSet, piles: list[int], side: int) -> tuple[float, ...]:
    """Per card index, what re bello and napola make a card worth to ``side``: the king of
    coins a point; a coin of the run from the ace what it adds to the side's expected napola
    plus what it takes from the others' (taking their missing coin blocks their run)."""
    if not (rules.re_bello or rules.napola):
        return ()
    worth = [0.0] * 40
    if rules.re_bello:
        worth[_KING_OF_COINS] = 1.0
    if rules.napola:
        captured = 0
        for pile in piles:
            captured |= pile
        others = len(piles) - 1
        for index in range(10):  # the coins, ace first
            bit = 1 << index
            if captured & bit:
                continue
            change = 0.0
            for owner, pile in enumerate(piles):
                rest = captured & ~pile
                if owner == side:
                    change += napola_expected(pile | bit, rest) - napola_expected(pile, rest)
                else:
                    change += (
                        napola_expected(pile, rest) - napola_expected(pile, rest | bit)
                    ) / others
            worth[index] += change
    return tuple(worth)


def _takes_all(move: Move, ace_takes_all: bool) -> bool:
    """An ace taking the whole table under asso piglia tutto: no sweep (no ace taken)."""
    return (
        ace_takes_all
        and move.card.value == 1
        and move.is_capture
        and all(card.value != 1 for card in move.captures)
    )


def card_worth(card: Card, weights: CardWeights) -> float:
    """Points one card is worth in a side's pile."""
    worth = weights.card + weights.by_value[card.value]
    if weights.by_card:
        worth += weights.by_card[card.index]
    if card.suit is Suit.COINS:
        worth += weights.coin
        if card.value == 7:
            worth += weights.seven_of_coins
    return worth


def capture_value(
    move: Move, table: Collection[Card], weights: CardWeights, sweep_counts: bool
) -> float:
    """Points a move puts in its side's pile: the cards taken, the played card (it joins the
    pile) and a sweep if it empties the table and the sweep scores. A drop is worth 0."""
    if not move.is_capture:
        return 0.0
    worth = card_worth(move.card, weights) + sum(card_worth(c, weights) for c in move.captures)
    if sweep_counts and len(move.captures) == len(table):
        worth += weights.sweep
    return worth


def _chance_of_any(special: int, unseen: int, drawn: int) -> float:
    """Chance that ``drawn`` cards out of ``unseen`` hold at least one of ``special`` cards."""
    if special <= 0 or drawn <= 0 or unseen <= 0:
        return 0.0
    drawn = min(drawn, unseen)
    return 1.0 - comb(unseen - special, drawn) / comb(unseen, drawn)


def _unseen_by_value(unseen: Iterable[Card]) -> dict[int, list[Card]]:
    out: dict[int, list[Card]] = {}
    for card in unseen:
        out.setdefault(card.value, []).append(card)
    return out


@dataclass(frozen=True, slots=True)
class SweepRisk:
    """How likely the next opponent can sweep a table, and the card values that would."""

    probability: float
    values: tuple[int, ...]
    """Values 1..10 of which an unseen card takes the whole table."""


def sweep_risk(
    table_after: Collection[Card], unseen: Collection[Card], rules: RuleSet, hand_size: int = 3
) -> SweepRisk:
    """The chance that an opponent holding ``hand_size`` of the ``unseen`` cards can take the
    whole ``table_after``: Escoba's 15 - sum, Scopa's equal single card or sum. Each sweeping
    value counts with as many cards as are still unseen."""
    if not table_after:
        return SweepRisk(0.0, ())
    values: list[int] = []
    sweepers = 0
    whole = frozenset(table_after)
    if rules.capture == "sum15":
        # The table needs exactly 15 - sum, and that must be a card value.
        need = 15 - sum(c.value for c in table_after)
        candidates = [need] if 1 <= need <= 10 else []
    else:
        candidates = list(range(1, 11))
    by_value = _unseen_by_value(unseen)
    # Under asso piglia tutto an ace takes a table without aces whole, but sweeps nothing.
    if rules.ace_takes_all and all(card.value != 1 for card in table_after):
        candidates = [value for value in candidates if value != 1]
    for value in candidates:
        cards = by_value.get(value)
        if cards and whole in captures(cards[0], table_after, rules):
            values.append(value)
            sweepers += len(cards)
    return SweepRisk(_chance_of_any(sweepers, len(unseen), hand_size), tuple(values))


def reply_threat(
    table_after: Collection[Card],
    unseen: Collection[Card],
    rules: RuleSet,
    weights: CardWeights,
    hand_size: int = 3,
) -> float:
    """Expected worth of the cards (without the sweep, see :func:`sweep_risk`) the next
    opponent takes from ``table_after`` with its best capture, each value of card held with
    the chance that its ``hand_size`` unseen cards include one."""
    if not table_after or hand_size <= 0:
        return 0.0
    options: list[tuple[float, float]] = []  # (worth of the best capture by a value, chance)
    for cards in _unseen_by_value(unseen).values():
        sets = captures(cards[0], table_after, rules)
        if not sets:
            continue
        best = max(sum(card_worth(c, weights) for c in taken) for taken in sets)
        options.append((best, _chance_of_any(len(cards), len(unseen), hand_size)))
    # The opponent plays its best option: E[max] over values held independently (a fair
    # approximation of the hypergeometric draw).
    options.sort(reverse=True)
    expected, none_better = 0.0, 1.0
    for worth, chance in options:
        expected += worth * chance * none_better
        none_better *= 1 - chance
    return expected


THREAT_WEIGHT = 1.0
"""Weight of the reply threat against the gain of a move."""
KEEP_WEIGHT = 0.3
"""Share of a dropped card's worth given up: kept, a seven or the 7 of coins would likely join
our pile with a capture (the reply threat already prices a card left exposed on the table)."""
KEEP_FROM = 0.3
"""Cards worth at least this (sevens, the 7 of coins) are the ones kept in hand."""
HIGH_ON_EMPTY = 0.15
"""Extra cost of a 5 or more onto an empty table in the 15 game (seed 000's tip), on top of
the sweep risk: the opponent's next cards are not the only ones that can sweep it."""


def drop_cost(
    card: Card, table_before: Collection[Card], rules: RuleSet, weights: CardWeights
) -> float:
    """What dropping ``card`` gives up beyond the table it leaves: a good card out of the hand
    (kept, it would go to our pile with a capture), and in the 15 game a 5 or more onto an
    empty table, which invites a sweep."""
    worth = card_worth(card, weights)
    # Only the cards that decide a category are worth holding back; keeping ordinary cards
    # measured worse (benchmarks/ai.py).
    cost = KEEP_WEIGHT * worth if worth >= KEEP_FROM else 0.0
    if rules.capture == "sum15" and not table_before and card.value >= 5:
        cost += HIGH_ON_EMPTY
    return cost


def leftover_value(
    table_after: Collection[Card], weights: CardWeights, plays_after: int, last_capture: bool
) -> float:
    """Worth of the cards a capture leaves on the table once the stock is empty: the last
    capturer takes them at the end. Certain if nobody plays after (``plays_after`` 0), else
    a share that shrinks with the plays still to come."""
    if not last_capture or not table_after:
        return 0.0
    share = 1.0 if plays_after == 0 else 0.5 / plays_after
    return share * sum(card_worth(c, weights) for c in table_after)


def plays_left(observation: Observation) -> int:
    """Plays still to come in the hand, the one to make now included."""
    return sum(observation.hand_sizes) + observation.stock_size


def _next_hand_size(observation: Observation) -> int:
    """Cards the next seat holds when it plays: a new hand from a deal if the hands are out."""
    nxt = (observation.seat + 1) % observation.players
    size = observation.hand_sizes[nxt]
    if size == 0 and observation.stock_size > 0:
        return observation.rules.hand_cards
    return size


@dataclass(frozen=True, slots=True)
class MoveEvaluation:
    """The terms of :func:`evaluate_move`, each in points (positive is good for the mover)."""

    move: Move
    gain: float
    """:func:`capture_value`."""
    sweep: SweepRisk
    """The next opponent's chance to sweep the table the move leaves."""
    sweep_cost: float
    threat: float
    """:func:`reply_threat` (counted against the move)."""
    drop: float
    """:func:`drop_cost` (counted against a drop)."""
    leftovers: float
    """:func:`leftover_value`."""
    total: float


def evaluate_move(
    observation: Observation, move: Move, weights: CardWeights | None = None
) -> MoveEvaluation:
    """Score one move for the seat of ``observation``, term by term."""
    rules = observation.rules
    if weights is None:
        weights = card_weights(rules, observation.captured, observation.side)
    table = observation.table
    unseen = observation.unseen
    remaining = plays_left(observation) - 1  # after this move
    if move.is_capture:
        table_after: tuple[Card, ...] = tuple(c for c in table if c not in move.captures)
    else:
        table_after = (*table, move.card)
    sweep_counts = (remaining > 0 or rules.last_play_sweep_counts) and not _takes_all(
        move, rules.ace_takes_all
    )
    gain = capture_value(move, table, weights, sweep_counts)
    hand_size = _next_hand_size(observation) if remaining > 0 else 0
    if hand_size and (remaining > 1 or rules.last_play_sweep_counts):
        risk = sweep_risk(table_after, unseen, rules, hand_size)
    else:
        risk = SweepRisk(0.0, ())
    # A sweep costs its point and the table's cards.
    sweep_cost = risk.probability * (
        weights.sweep + sum(card_worth(c, weights) for c in table_after)
    )
    threat = THREAT_WEIGHT * reply_threat(table_after, unseen, rules, weights, hand_size)
    drop = 0.0 if move.is_capture else drop_cost(move.card, table, rules, weights)
    leftovers = leftover_value(
        table_after, weights, remaining, move.is_capture and observation.stock_size == 0
    )
    total = gain - sweep_cost - threat - drop + leftovers
    return MoveEvaluation(move, gain, risk, sweep_cost, threat, drop, leftovers, total)


class ClubPlayer:
    """``medium``: every legal move scored by :func:`evaluate_move` (captures by what they
    are worth in this rule set, the risk of the table left behind counted from the unseen
    cards, good cards kept, leftovers at the end); the best one, ties by a seeded random."""

    name = "medium"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, observation: Observation, legal: Sequence[Move]) -> Move:
        _check(observation, legal)
        if len(legal) == 1:
            return legal[0]
        weights = card_weights(observation.rules, observation.captured, observation.side)
        scored = [(evaluate_move(observation, m, weights).total, m) for m in legal]
        return _pick(scored, self._rng)


register("easy", GreedyPlayer)
register("medium", ClubPlayer)
