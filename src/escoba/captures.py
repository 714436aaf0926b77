"""Which table cards a played card may take.

Captures are found by value first: a table's signature (its count of cards per value) maps,
through a memo shared by every game, to the multisets of values that make each target sum.
Only then are those values turned into the actual table cards, which is a single ``&`` when
the multiset uses every table card of its values (the common case).
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations
from typing import Final

from ._bits import SIG_SHIFT, VALUE, VALUE_MASK, indices, signature
from .cards import Card, cards_of_mask, mask_of
from .errors import InvalidCardError, RulesError
from .rules import RuleSet

__all__ = ["capture_masks", "captures"]

# One way to make a target from a table's values: the values used in full (as one mask of
# all their cards, to be ANDed with the table) and those that use only k of the table's cards
# of that value (value mask, k), which need a choice of cards.
Part = tuple[int, tuple[tuple[int, int], ...]]
PartsByTarget = tuple[tuple[Part, ...], ...]

_MAX_TARGET: Final = 14  # 15 - ace; in match mode the target is at most 10
_PARTS: dict[int, PartsByTarget] = {}
_MEMO_LIMIT: Final = 1 << 18


def parts_for(sig: int) -> PartsByTarget:
    """All value multisets within a table's counts, by target sum 0..14 (memoised)."""
    parts = _PARTS.get(sig)
    if parts is None:
        if len(_PARTS) >= _MEMO_LIMIT:
            _PARTS.clear()
        parts = _PARTS[sig] = _build_parts(sig)
    return parts


def _build_parts(sig: int) -> PartsByTarget:
    counts = [sig >> SIG_SHIFT[v] & 7 if v else 0 for v in range(11)]
    found: list[list[Part]] = [[] for _ in range(_MAX_TARGET + 1)]
    chosen: list[tuple[int, int]] = []  # (value, how many)

    def extend(value: int, total: int) -> None:
        if value > 10:
            if total:
                full = 0
                partial: list[tuple[int, int]] = []
                for v, k in chosen:
                    if k == counts[v]:
                        full |= VALUE_MASK[v]
                    else:
                        partial.append((VALUE_MASK[v], k))
                found[total].append((full, tuple(partial)))
            return
        extend(value + 1, total)
        for k in range(1, counts[value] + 1):
            if total + k * value > _MAX_TARGET:
                break
            chosen.append((value, k))
            extend(value + 1, total + k * value)
            chosen.pop()

    extend(1, 0)
    return tuple(tuple(p) for p in found)


def expand(table: int, part: Part) -> list[int]:
    """The table-card sets of one value multiset."""
    full, partial = part
    sets = [table & full]
    for value_mask, k in partial:
        choices = [mask_of_indices(c) for c in combinations(indices(table & value_mask), k)]
        sets = [s | c for s in sets for c in choices]
    return sets


def mask_of_indices(chosen: Iterable[int]) -> int:
    mask = 0
    for i in chosen:
        mask |= 1 << i
    return mask


def capture_masks(card: int, table: int, sig: int, match: bool) -> list[int]:
    """Every set of table cards (as a mask) that card index ``card`` may take."""
    value = VALUE[card]
    if match:
        if sig >> SIG_SHIFT[value] & 7:
            # Single-card priority: a card of equal value must be taken, alone.
            return [1 << i for i in indices(table & VALUE_MASK[value])]
        target = value
    else:
        target = 15 - value
    out: list[int] = []
    for part in parts_for(sig)[target]:
        if part[1]:
            out.extend(expand(table, part))
        else:
            out.append(table & part[0])
    return out


def captures(card: Card, table: Iterable[Card], rules: RuleSet) -> list[frozenset[Card]]:
    """Every set of table cards that ``card`` may take; ``[]`` means it can only be dropped.

    >>> from escoba import RULESETS, parse_cards
    >>> table = parse_cards("As 3h 4c 7d")
    >>> [sorted(s) for s in captures(Card.parse("4d"), table, RULESETS["escoba"])]
    [[Card('7d'), Card('3h'), Card('As')], [Card('7d'), Card('4c')]]
    """
    if not isinstance(card, Card):
        raise InvalidCardError(f"the played card must be a Card, got {card!r}")
    if not isinstance(rules, RuleSet):
        raise RulesError(f"rules must be a RuleSet, got {rules!r}")
    table_cards = tuple(table)
    for position, item in enumerate(table_cards, start=1):
        if not isinstance(item, Card):
            raise InvalidCardError(f"table card {position} is not a Card: {item!r}")
    table_mask = mask_of(table_cards)
    if table_mask.bit_count() != len(table_cards):
        raise InvalidCardError("the table holds the same card twice")
    if table_mask & card.bit:
        raise InvalidCardError(f"the played card {card} is also on the table")
    masks = capture_masks(card.index, table_mask, signature(table_mask), rules.capture == "match")
    masks.sort(key=indices)
    return [frozenset(cards_of_mask(m)) for m in masks]
