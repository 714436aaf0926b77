"""The proof behind the action space: at most how many capture sets a card can have.

An action names a card and the k-th of that card's capture sets (see ``actions``), so the
action space needs, for every card value, a bound on the number of capture sets that holds in
every position any game can reach. This module computes the bounds exactly, by exhausting
every table a game could possibly hold, and ``actions`` keeps the results as constants (a test
checks that they agree).

Which tables can arise? Cards reach the table only by the deal of a hand (four cards, any
four) and by drops; captures take cards away. With ``forced_capture`` (every preset) a card
is dropped only when it can take nothing: in ``sum15`` when no set of table cards sums to
15 minus its value, in ``match`` when no table card has its value and no set sums to it.
Whether a card can be dropped depends on the table's values alone, and removing cards never
turns a legal drop into an illegal one. So every table a game can reach lies in the closure
``R``: all tables of at most four cards, and every table ``T + c`` where ``T`` is in ``R`` and
``c`` may be dropped onto ``T`` (any removal leads to a smaller table, and a smaller table is
in ``R`` too: remove its card dropped last, or it is four cards or fewer). Tables are counted
by value (a *signature*: how many cards of each value, 0 to 4), which is all that decides
drops and the number of capture sets: a card of value ``v`` taking a multiset of values
``(k_1 .. k_10)`` from a table with ``n_u`` cards of value ``u`` has ``prod C(n_u, k_u)``
capture sets. The bound for value ``v`` is the largest count over every table in ``R`` that
leaves a card of value ``v`` outside it (the played card).

Without ``forced_capture`` any card may be dropped, every table is reachable, and the bound is
the count on the table of all 39 other cards (the largest: 6405 for an ace in ``sum15``).

The other options only shrink what is reachable: Scopone scientifico deals the table no cards
(``table_cards=0``), and asso piglia tutto (``ace_takes_all``) lets an ace be dropped on an
empty table only and gives it one capture set (the whole table) where no ace lies there, or
the single aces where some do, so the bounds computed here hold for them too.

The closure runs over all 5**10 signatures with numpy in a few seconds:

    python -m escoba.env.bounds
"""

from __future__ import annotations

from math import comb
from typing import Literal

import numpy as np
from numpy.typing import NDArray

__all__ = ["capture_set_bounds", "reachable_tables"]

_VALUES = range(1, 11)
_SHAPE = (5,) * 10  # axis u - 1 counts the table's cards of value u (0..4)


def _subset_sums() -> NDArray[np.uint16]:
    """For every signature, the set of sums 0..15 its sub-multisets make, as bits."""
    sums = np.ones(_SHAPE, dtype=np.uint16)  # bit 0: the empty set
    for value in _VALUES:
        for count in range(1, 5):
            before = np.take(sums, count - 1, axis=value - 1)
            index: list[slice | int] = [slice(None)] * 10
            index[value - 1] = count
            sums[tuple(index)] = (before | before << value) & 0xFFFF
    return sums


def _card_counts() -> NDArray[np.int64]:
    total = np.zeros(_SHAPE, dtype=np.int64)
    for axis in range(10):
        shape = [1] * 10
        shape[axis] = 5
        total = total + np.arange(5).reshape(shape)
    return total


def _shift(index: int, axis: int) -> tuple[slice, ...]:
    """Index of the signatures with one more (index 1) or one fewer (index 0) card."""
    parts = [slice(None)] * 10
    parts[axis] = slice(1, None) if index else slice(0, 4)
    return tuple(parts)


def reachable_tables(capture: Literal["sum15", "match"], forced: bool) -> NDArray[np.bool_]:
    """The closure ``R`` of the module's docstring: a boolean per signature (shape 5**10)."""
    sums = _subset_sums()
    if not forced:
        return np.ones(_SHAPE, dtype=np.bool_)
    reach = _card_counts() <= 4
    droppable = []
    for value in _VALUES:
        if capture == "match":
            ok = (sums >> value & 1) == 0
            ok[_shift(1, value - 1)] = False  # a table card of equal value takes it
        else:
            ok = (sums >> (15 - value) & 1) == 0
        droppable.append(ok)
    while True:
        grown = reach.copy()
        for value in _VALUES:
            axis = value - 1
            grown[_shift(1, axis)] |= (reach & droppable[axis])[_shift(0, axis)]
        if (grown == reach).all():
            return reach
        reach = grown


def capture_set_bounds(
    capture: Literal["sum15", "match"],
    forced: bool,
    reachable: NDArray[np.bool_] | None = None,
) -> tuple[int, ...]:
    """The most capture sets a card of each value 1..10 can have, over every reachable table
    (``reachable``: the result of :func:`reachable_tables`, if already computed)."""
    if forced:
        if reachable is None:
            reachable = reachable_tables(capture, forced)
        tables = np.argwhere(reachable)  # rows: counts of values 1..10
    else:
        # Every table is reachable, and more cards never make fewer sets: the fullest tables
        # are the largest, with none (for match's single-card priority) or three cards of
        # the played value beside the played card.
        tables = np.array([[4 if u != v else n for u in _VALUES] for v in _VALUES for n in (0, 3)])
    choose = np.array([[comb(n, k) for k in range(5)] for n in range(5)], dtype=np.int64)
    bounds = []
    for value in _VALUES:
        held = tables[:, value - 1]
        rows = tables[held <= 3]  # a card of this value is left to be played
        target = value if capture == "match" else 15 - value
        ways = np.zeros((len(rows), target + 1), dtype=np.int64)
        ways[:, 0] = 1
        for other in _VALUES:
            counts = rows[:, other - 1]
            grown = np.zeros_like(ways)
            for k in range(5):
                step = k * other
                if step > target:
                    break
                factor = choose[counts, k][:, None]
                grown[:, step:] += ways[:, : target + 1 - step] * factor
            ways = grown
        sets = ways[:, target]
        if capture == "match":
            # Single-card priority: with a table card of equal value, only those are taken.
            equal = rows[:, value - 1]
            sets = np.where(equal > 0, equal, sets)
        bounds.append(int(sets.max()))
    return tuple(bounds)


def main() -> None:
    for forced in (True, False):
        for capture in ("sum15", "match"):
            bounds = capture_set_bounds(capture, forced)
            print(f"forced_capture={forced!s:5} capture={capture}: {bounds}")


if __name__ == "__main__":
    main()
