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

__all__ = ["capture_masks", "captures", "legal_keys"]

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
    # Grow every multiset value by value: (sum, values used in full, values used in part).
    ways: list[tuple[int, int, tuple[tuple[int, int], ...]]] = [(0, 0, ())]
    for value in range(1, 11):
        count = sig >> SIG_SHIFT[value] & 7
        if not count:
            continue
        value_mask = VALUE_MASK[value]
        grown = []
        for total, full, partial in ways:
            for k in range(1, count + 1):
                reached = total + k * value
                if reached > _MAX_TARGET:
                    break
                if k == count:
                    grown.append((reached, full | value_mask, partial))
                else:
                    grown.append((reached, full, (*partial, (value_mask, k))))
        ways += grown
    found: list[list[Part]] = [[] for _ in range(_MAX_TARGET + 1)]
    for total, full, partial in ways[1:]:
        found[total].append((full, partial))
    return tuple(tuple(p) for p in found)


_CHOICES: dict[tuple[int, int], tuple[int, ...]] = {}


def _choices(cards: int, k: int) -> tuple[int, ...]:
    """Every way to take ``k`` of the cards in ``cards`` (cards of one value: few)."""
    found = _CHOICES.get((cards, k))
    if found is None:
        found = _CHOICES[cards, k] = tuple(
            mask_of_indices(c) for c in combinations(indices(cards), k)
        )
    return found


def expand(table: int, part: Part) -> list[int]:
    """The table-card sets of one value multiset."""
    full, partial = part
    sets = [table & full]
    for value_mask, k in partial:
        choices = _choices(table & value_mask, k)
        sets = [s | c for s in sets for c in choices]
    return sets


def mask_of_indices(chosen: Iterable[int]) -> int:
    mask = 0
    for i in chosen:
        mask |= 1 << i
    return mask


def capture_masks(
    card: int, table: int, sig: int, match: bool, ace_takes_all: bool = False
) -> list[int]:
    """Every set of table cards (as a mask) that card index ``card`` may take."""
    value = VALUE[card]
    if match:
        if sig >> SIG_SHIFT[value] & 7:
            # Single-card priority: a card of equal value must be taken, alone.
            return [1 << i for i in indices(table & VALUE_MASK[value])]
        if ace_takes_all and value == 1:
            return [table] if table else []
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


def legal_keys(
    hand: list[int],
    table: int,
    sig: int,
    match: bool,
    forced: bool,
    ace_takes_all: bool = False,
) -> list[int]:
    """The legal moves of a hand as keys (card index | capture mask << 6).

    The one place where legality is decided; inlined for speed, since it runs on every turn
    of every simulated or searched game.
    """
    if not table:
        return list(hand)
    parts = _PARTS.get(sig)
    if parts is None:
        parts = parts_for(sig)
    keys: list[int] = []
    append = keys.append
    for card in hand:
        value = VALUE[card]
        if match and sig >> SIG_SHIFT[value] & 7:
            # Single-card priority: a card of equal value must be taken, alone.
            for i in indices(table & VALUE_MASK[value]):
                append(card | 1 << (i + 6))
            if not forced:
                append(card)
            continue
        if ace_takes_all and value == 1:
            # Asso piglia tutto: no ace on the table (that was the case above), so the ace
            # takes everything there.
            append(card | table << 6)
            if not forced:
                append(card)
            continue
        ways = parts[value if match else 15 - value]
        if not ways:
            append(card)
            continue
        for part in ways:
            if part[1]:
                for mask in expand(table, part):
                    append(card | mask << 6)
            else:
                append(card | (table & part[0]) << 6)
        if not forced:
            append(card)
    return keys


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
    masks = capture_masks(
        card.index,
        table_mask,
        signature(table_mask),
        rules.capture == "match",
        rules.ace_takes_all,
    )
    masks.sort(key=indices)
    return [frozenset(cards_of_mask(m)) for m in masks]
