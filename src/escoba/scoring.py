"""Scoring a hand: most cards, most coins, the seven of coins, the sevens category, sweeps,
and where the rules say so the king of coins (re bello) and the run of coins (napola).

A tie at the top of a category gives nobody the point, with any number of sides.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final

from ._bits import COINS_MASK, KING_OF_COINS, SEVEN_OF_COINS, SEVENS_MASK
from .cards import Card, mask_of
from .errors import InvalidCardError, InvalidScoreError, RulesError
from .rules import RuleSet

__all__ = [
    "CATEGORIES",
    "HandScore",
    "categories_in_play",
    "coin_run",
    "match_winner",
    "napola_points",
    "primiera",
    "score_counts",
    "score_hand",
    "score_masks",
    "setenta_key",
]

CATEGORIES: Final[tuple[str, ...]] = (
    "cards",
    "coins",
    "seven_of_coins",
    "sevens",
    "all_sevens",
    "re_bello",
    "napola",
    "sweeps",
)
"""The scoring categories, in score-pad order (see :func:`categories_in_play`)."""


def categories_in_play(rules: RuleSet) -> tuple[str, ...]:
    """The categories that can score under ``rules``, in score-pad order: the rest are
    always 0 (the sevens category with ``sevens="none"``, the bonus for all four sevens
    without it, re bello and napola unless the rules play them)."""
    left_out = set()
    if rules.sevens == "none":
        left_out.add("sevens")
    if not rules.all_sevens_bonus and not rules.big_wins:
        left_out.add("all_sevens")
    if not rules.re_bello:
        left_out.add("re_bello")
    if not rules.napola:
        left_out.add("napola")
    return tuple(category for category in CATEGORIES if category not in left_out)


def coin_run(pile: int) -> int:
    """How many coins from the ace up a pile holds unbroken (A, 2, 3, ... of coins)."""
    coins = pile & COINS_MASK
    return ((coins ^ (coins + 1)) >> 1).bit_length()


def napola_points(run: int) -> int:
    """Napola for a run of coins from the ace: 3 for A-2-3, one more for each coin after."""
    return run if run >= 3 else 0


# Rank indices 0..9 are A 2 3 4 5 6 7 J Q K.
_SETENTA_RANK: Final = (6, 2, 3, 4, 5, 7, 8, 1, 1, 1)  # 7 > 6 > A > 5 > 4 > 3 > 2 > faces
_PRIMIERA_POINTS: Final = (16, 12, 13, 14, 15, 18, 21, 10, 10, 10)


def _best_per_chunk(points: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(
        max((points[r] for r in range(10) if chunk >> r & 1), default=0) for chunk in range(1024)
    )


_SETENTA_BEST: Final = _best_per_chunk(_SETENTA_RANK)
_PRIMIERA_BEST: Final = _best_per_chunk(_PRIMIERA_POINTS)


def setenta_key(pile: int) -> list[int]:
    """Comparable key of a pile for setenta: its best card per suit, best first (0 = none)."""
    best = _SETENTA_BEST
    return sorted(
        [best[pile & 1023], best[pile >> 10 & 1023], best[pile >> 20 & 1023], best[pile >> 30]],
        reverse=True,
    )


def primiera(pile: int, needs_all_suits: bool = False) -> int:
    """Primiera of a pile: the sum of each suit's best card (7=21 ... face=10).

    With ``needs_all_suits`` a pile missing a suit gets -1, below every complete pile.
    """
    table = _PRIMIERA_BEST
    best = [
        table[pile & 1023],
        table[pile >> 10 & 1023],
        table[pile >> 20 & 1023],
        table[pile >> 30],
    ]
    if needs_all_suits and 0 in best:
        return -1
    return sum(best)


@dataclass(frozen=True, slots=True)
class HandScore:
    """The points of one hand per side, and the breakdown by category."""

    points: tuple[int, ...]
    breakdown: Mapping[str, tuple[int, ...]]


def _top(values: Sequence[Any], points: int, sides: int) -> list[int]:
    """``points`` to the side with the single best value; a tie at the top gives nothing."""
    out = [0] * sides
    best = max(values)
    if values.count(best) == 1:
        out[values.index(best)] = points
    return out


def score_counts(
    cards: Sequence[int],
    coins: Sequence[int],
    seven_of_coins: Sequence[bool],
    sevens: Sequence[Any],
    all_sevens: Sequence[bool],
    sweeps: Sequence[int],
    rules: RuleSet,
    king_of_coins: Sequence[bool] | None = None,
    coin_runs: Sequence[int] | None = None,
) -> tuple[tuple[int, ...], dict[str, tuple[int, ...]]]:
    """Score a hand from what each side took, counted: the one place the categories are decided
    (inputs are trusted; :func:`score_masks` and the score pad both come here).

    One value per side: ``cards`` and ``coins`` taken, whether it took the seven of coins,
    its standing in the sevens category (a setenta key, a primiera with -1 for "may not win",
    or a number of sevens: compared as the rule set's category compares; ignored with
    ``sevens="none"``), whether it took all four sevens, and its sweeps; and for re bello
    and napola, whether it took the king of coins and its run of coins from the ace (both
    may be left out when the rules do not play them).
    """
    n = len(cards)
    card_points = _top(cards, 1, n)
    coin_points = _top(coins, 1, n)
    if rules.big_wins:
        for side, count in enumerate(cards):
            if card_points[side] and count >= 30 and sorted(cards)[-2] < 10:
                card_points[side] = 2
    if rules.all_coins_two or rules.big_wins:
        for side, count in enumerate(coins):
            if count == 10:
                coin_points[side] = 2
    mode = rules.sevens
    if mode == "none" or (mode == "primiera" and max(sevens) < 0):
        seven_points = [0] * n
    else:
        seven_points = _top(sevens, 1, n)
    # big_wins and all_sevens_bonus name the same extra point; together they give the larger.
    bonus = max(rules.all_sevens_bonus, 1 if rules.big_wins else 0)
    breakdown = {
        "cards": tuple(card_points),
        "coins": tuple(coin_points),
        "seven_of_coins": tuple([1 if held else 0 for held in seven_of_coins]),
        "sevens": tuple(seven_points),
        "all_sevens": tuple([bonus if held else 0 for held in all_sevens]),
        "re_bello": tuple(
            [1 if rules.re_bello and held else 0 for held in king_of_coins or [False] * n]
        ),
        "napola": tuple(
            [napola_points(run) if rules.napola else 0 for run in coin_runs or [0] * n]
        ),
        "sweeps": tuple(sweeps),
    }
    return tuple(map(sum, zip(*breakdown.values(), strict=True))), breakdown


def score_masks(
    piles: Sequence[int], sweeps: Sequence[int], rules: RuleSet
) -> tuple[tuple[int, ...], dict[str, tuple[int, ...]]]:
    """Score piles given as bit sets (the engine's fast path; inputs are trusted)."""
    mode = rules.sevens
    standing: list[Any]
    if mode == "ranking":
        standing = [setenta_key(p) for p in piles]
    elif mode == "sevens":
        standing = [(p & SEVENS_MASK).bit_count() for p in piles]
    elif mode == "primiera":
        standing = [primiera(p, rules.primiera_needs_all_suits) for p in piles]
    else:
        standing = []
    return score_counts(
        [p.bit_count() for p in piles],
        [(p & COINS_MASK).bit_count() for p in piles],
        [bool(p & SEVEN_OF_COINS) for p in piles],
        standing,
        [p & SEVENS_MASK == SEVENS_MASK for p in piles],
        sweeps,
        rules,
        [bool(p & KING_OF_COINS) for p in piles],
        [coin_run(p) for p in piles],
    )


def score_hand(piles: Sequence[Iterable[Card]], sweeps: Sequence[int], rules: RuleSet) -> HandScore:
    """Score one hand: ``piles`` holds each side's captured cards, ``sweeps`` each side's sweeps.

    >>> from escoba import RULESETS, parse_cards
    >>> anna = parse_cards("7s 7h 6d 5c")
    >>> ben = parse_cards("7d 7c As Ah")
    >>> score = score_hand([anna, ben], [0, 0], RULESETS["escoba"])
    >>> score.breakdown["sevens"], score.breakdown["seven_of_coins"], score.points
    ((1, 0), (0, 1), (1, 1))
    """
    if not isinstance(rules, RuleSet):
        raise RulesError(f"rules must be a RuleSet, got {rules!r}")
    if isinstance(piles, (str, bytes)) or not isinstance(piles, Sequence):
        raise InvalidCardError(f"piles must be a sequence with one collection per side: {piles!r}")
    if not 2 <= len(piles) <= 4:
        raise InvalidScoreError(f"piles: there are 2 to 4 sides, got {len(piles)} piles")
    if isinstance(sweeps, (str, bytes)) or not isinstance(sweeps, Sequence):
        raise InvalidScoreError(f"sweeps must be a sequence of whole numbers: {sweeps!r}")
    if len(sweeps) != len(piles):
        raise InvalidScoreError(f"sweeps: {len(sweeps)} numbers for {len(piles)} sides")
    for side, count in enumerate(sweeps):
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise InvalidScoreError(
                f"sweeps of side {side} must be a whole number >= 0, got {count!r}"
            )
    masks: list[int] = []
    seen = 0
    for side, pile in enumerate(piles):
        if isinstance(pile, (str, bytes)):
            raise InvalidCardError(f"pile of side {side} must hold Cards, not text {pile!r}")
        cards = list(pile)
        for item in cards:
            if not isinstance(item, Card):
                raise InvalidCardError(f"pile of side {side} holds {item!r}, not a Card")
        mask = mask_of(cards)
        if mask.bit_count() != len(cards) or mask & seen:
            raise InvalidCardError(f"pile of side {side}: a card is counted twice")
        seen |= mask
        masks.append(mask)
    points, breakdown = score_masks(masks, sweeps, rules)
    return HandScore(points, MappingProxyType(breakdown))


def match_winner(totals: Sequence[int], rules: RuleSet) -> int | None:
    """The side that has won the match with these running totals, or None.

    A side wins when it has at least ``rules.target_score`` points and leads every other
    side by at least ``rules.win_by`` (RULES.md, "Winning the match"). Among equal best
    totals the first side is the candidate, and a tie at the top is no win when
    ``win_by`` is positive.
    """
    best = max(range(len(totals)), key=totals.__getitem__)
    if totals[best] >= rules.target_score and all(
        totals[best] - total >= rules.win_by for side, total in enumerate(totals) if side != best
    ):
        return best
    return None


@dataclass(frozen=True, slots=True)
class HandResult:
    """A finished hand: who dealt, what each side captured, and what it scored."""

    dealer: int
    """The seat that dealt this hand."""
    piles: tuple[frozenset[Card], ...]
    """Each side's captured cards, leftovers included."""
    sweeps: tuple[int, ...]
    """Each side's sweeps (initial-table sweeps included)."""
    points: tuple[int, ...]
    """Each side's points for the hand."""
    breakdown: Mapping[str, tuple[int, ...]]
    """Points per category (see ``CATEGORIES``), one number per side."""
    leftovers: frozenset[Card]
    """The table cards that went to the last capturer when the hand ended."""
    last_capturer: int | None
    """The seat that captured last (it took the leftovers), None if nobody captured."""

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # The breakdown is a read-only view, which does not pickle: it travels as a dict.
        return (
            _hand_result,
            (
                self.dealer,
                self.piles,
                self.sweeps,
                self.points,
                dict(self.breakdown),
                self.leftovers,
                self.last_capturer,
            ),
        )


def _hand_result(
    dealer: int,
    piles: tuple[frozenset[Card], ...],
    sweeps: tuple[int, ...],
    points: tuple[int, ...],
    breakdown: dict[str, tuple[int, ...]],
    leftovers: frozenset[Card],
    last_capturer: int | None,
) -> HandResult:
    return HandResult(
        dealer, piles, sweeps, points, MappingProxyType(breakdown), leftovers, last_capturer
    )
