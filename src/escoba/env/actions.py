"""The action encoding: every legal move of every position as one int of a fixed range.

A move is a card from the hand and the exact set of table cards it takes. The table can hold
many cards, so the capture set is named *relative to the position*: an action is a card and a
slot,

- slot 0: drop the card (take nothing);
- slot k >= 1: take the k-th capture set this card may take now, the sets ordered by the
  number ``sum(2 ** card.index)`` over their cards (ascending; ``card.index`` is the card's
  place in ``DECK``).

Each card has a fixed number of slots: one for the drop plus the most capture sets a card of
its value can ever have, a bound proven in :mod:`escoba.env.bounds` by exhausting every table
a game can reach. The slots of the 40 cards follow one another in ``DECK`` order, so

    action = OFFSETS[card.index] + slot

With ``forced_capture`` (all six presets) the bounds by value A..K are
``(324, 56, 186, 56, 100, 29, 51, 40, 44, 40)`` and the action space is ``Discrete(3744)``,
whatever the capture mode, the seat count or the other options. Without ``forced_capture``
every table is reachable and the space is ``Discrete(95212)`` (see ``FREE``).

>>> from escoba import Card, Game, Move, RULESETS
>>> layout = layout_for(RULESETS["escoba"])
>>> layout.size, layout.offset(Card.parse("2d")), layout.slots(Card.parse("Ad"))
(3744, 325, 325)
>>> game = Game(RULESETS["escoba"], players=2, seed=42)
>>> game.legal_moves()
[Move('Ad'), Move('3h'), Move('2c:6h+7c'), Move('2c:Qh+4c')]
>>> for action, key in sorted(layout.actions(game.legal_keys()).items()):
...     print(action, layout.describe(action), Move.of_key(key))
0 Ad drop Ad
1318 3h drop 3h
3134 2c set 1 2c:Qh+4c
3135 2c set 2 2c:6h+7c
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from ..cards import DECK, Card
from ..errors import IllegalMoveError, InvalidMoveError
from ..moves import Move
from ..rules import RuleSet

__all__ = [
    "BOUNDS_FORCED",
    "BOUNDS_FREE",
    "FORCED",
    "FREE",
    "ActionLayout",
    "Slot",
    "layout_for",
]

BOUNDS_FORCED: Final[tuple[int, ...]] = (324, 56, 186, 56, 100, 29, 51, 40, 44, 40)
"""With forced capture: the most capture sets a card of value 1..10 can have (sum15 and
match alike; match's are smaller: 3, 6, 4, 7, 10, 12, 14, 16, 21, 25)."""
BOUNDS_FREE: Final[tuple[int, ...]] = (6405, 4884, 3545, 2444, 1603, 1000, 597, 597, 1020, 1698)
"""Without forced capture: the same bound over every possible table."""


@dataclass(frozen=True, slots=True)
class Slot:
    """What an action means: a card and a slot (0 = drop, k = the k-th capture set)."""

    card: Card
    slot: int

    def __str__(self) -> str:
        return f"{self.card} drop" if self.slot == 0 else f"{self.card} set {self.slot}"


class ActionLayout:
    """The fixed action space of one family of rule sets: the slots of each card.

    ``bounds[v - 1]`` is the most capture sets a card of value ``v`` can have; a card of
    that value has ``bounds[v - 1] + 1`` slots.
    """

    __slots__ = ("_offsets", "bounds", "size")

    def __init__(self, bounds: tuple[int, ...]) -> None:
        if len(bounds) != 10 or any(b < 1 for b in bounds):
            raise ValueError(f"bounds: one positive count per value 1..10, got {bounds!r}")
        self.bounds = bounds
        offsets = [0]
        for card in DECK:
            offsets.append(offsets[-1] + bounds[card.value - 1] + 1)
        self._offsets: tuple[int, ...] = tuple(offsets)
        self.size: int = offsets[-1]

    def offset(self, card: Card) -> int:
        """The action that drops ``card``; its capture sets follow."""
        return self._offsets[card.index]

    def slots(self, card: Card) -> int:
        """How many actions belong to ``card`` (the drop and its capture sets)."""
        return self.bounds[card.value - 1] + 1

    def describe(self, action: int) -> Slot:
        """The card and slot an action names (whether legal now or not)."""
        if not isinstance(action, int) or isinstance(action, bool):
            raise InvalidMoveError(f"an action must be an int, got {action!r}")
        if not 0 <= action < self.size:
            raise InvalidMoveError(
                f"action {action} is outside the action space 0..{self.size - 1}"
            )
        index = bisect_right(self._offsets, action) - 1
        return Slot(DECK[index], action - self._offsets[index])

    def actions(self, keys: Sequence[int]) -> dict[int, int]:
        """The actions of the legal moves (engine keys, ``Game.legal_keys()``): a dict from
        action to key (in no particular order)."""
        offsets = self._offsets
        out: dict[int, int] = {}
        # The engine lists each card's moves together. Most cards have at most one capture
        # set, which takes slot 1; a card with several has them gathered, then ordered.
        card = -1
        first = 0
        group: list[int] | None = None
        for key in keys:
            if key < 64:
                out[offsets[key]] = key
            elif key & 63 != card:
                if group is not None:
                    self._number(out, first, group)
                    group = None
                card = key & 63
                first = offsets[card] + 1
                out[first] = key
            elif group is None:
                group = [out[first], key]
            else:
                group.append(key)
        if group is not None:
            self._number(out, first, group)
        if len(out) != len(keys):  # a card's moves were not listed together
            out = {}
            groups: dict[int, list[int]] = {}
            for key in keys:
                if key < 64:
                    out[offsets[key]] = key
                else:
                    groups.setdefault(key & 63, []).append(key)
            for card, group in groups.items():
                self._number(out, offsets[card] + 1, group)
        return out

    def _number(self, out: dict[int, int], first: int, group: list[int]) -> None:
        """Number one card's capture sets from ``first``, ordered by mask (a card's keys
        order as their masks do)."""
        card = group[0] & 63
        if len(group) > self.bounds[card % 10]:
            raise AssertionError(
                f"{DECK[card]} has {len(group)} capture sets, more than the proven bound "
                f"{self.bounds[card % 10]}"
            )
        group.sort()
        for slot, key in enumerate(group, first):
            out[slot] = key

    def action_of(self, move: Move, legal_keys: Iterable[int]) -> int:
        """The action of ``move`` among the legal moves (engine keys); an illegal move raises
        IllegalMoveError."""
        key = move.key
        for action, legal in self.actions(list(legal_keys)).items():
            if legal == key:
                return action
        raise IllegalMoveError(f"{move}: not a legal move now, so it has no action")

    def __repr__(self) -> str:
        return f"ActionLayout(bounds={self.bounds!r}, size={self.size})"


FORCED: Final = ActionLayout(BOUNDS_FORCED)
"""The action space of rule sets with ``forced_capture`` (every preset): 3744 actions."""
FREE: Final = ActionLayout(BOUNDS_FREE)
"""The action space of rule sets without ``forced_capture``: 95212 actions."""


def layout_for(rules: RuleSet) -> ActionLayout:
    """The action layout of a rule set (it depends only on ``forced_capture``)."""
    return FORCED if rules.forced_capture else FREE
