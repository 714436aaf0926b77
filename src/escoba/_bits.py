"""Bit-level tables for the engine's hot paths: a set of cards is an int with bit ``index``;
and :func:`capture_effect`, what a capture does to a hand held so, for the game and the search
alike.

Card index = suit * 10 + rank, suits in canonical order (coins first), ranks A..K; the
value of index ``i`` is ``i % 10 + 1``. A table's *signature* counts its cards per value,
3 bits per value (at most 4 cards share a value), so tables that differ only in suits share
one signature and one entry of the capture memo.
"""

from __future__ import annotations

import hashlib
import struct
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from .rules import RuleSet

VALUE: Final[tuple[int, ...]] = tuple(i % 10 + 1 for i in range(40))
SIG_SHIFT: Final[tuple[int, ...]] = tuple(3 * v for v in range(11))  # by value; 0 unused
SIG: Final[tuple[int, ...]] = tuple(1 << SIG_SHIFT[VALUE[i]] for i in range(40))
VALUE_MASK: Final[tuple[int, ...]] = tuple(
    sum(1 << (s * 10 + v - 1) for s in range(4)) if v else 0 for v in range(11)
)
SUIT_MASK: Final[tuple[int, ...]] = tuple(((1 << 10) - 1) << (10 * s) for s in range(4))
COINS_MASK: Final = SUIT_MASK[0]
SEVENS_MASK: Final = VALUE_MASK[7]
KINGS_MASK: Final = VALUE_MASK[10]
ACES_MASK: Final = VALUE_MASK[1]
SEVEN_OF_COINS: Final = 1 << 6
KING_OF_COINS: Final = 1 << 9
FULL_DECK: Final = (1 << 40) - 1


def _chunk_table(per_rank: tuple[int, ...]) -> tuple[int, ...]:
    """Sum of ``per_rank`` over the ranks in every 10-bit suit chunk."""
    return tuple(sum(per_rank[r] for r in range(10) if chunk >> r & 1) for chunk in range(1024))


_SIG_CHUNK: Final = _chunk_table(tuple(1 << SIG_SHIFT[r + 1] for r in range(10)))
_VALUE_CHUNK: Final = _chunk_table(tuple(r + 1 for r in range(10)))


def signature(mask: int) -> int:
    """The per-value count signature of a set of cards."""
    return (
        _SIG_CHUNK[mask & 1023]
        + _SIG_CHUNK[mask >> 10 & 1023]
        + _SIG_CHUNK[mask >> 20 & 1023]
        + _SIG_CHUNK[mask >> 30]
    )


_SIG_OF: dict[int, int] = {}


def signature_of(taken: int) -> int:
    """``signature`` of a captured set, memoised (captures repeat far more than tables)."""
    if len(_SIG_OF) >= 1 << 18:
        _SIG_OF.clear()
    sig = _SIG_OF[taken] = signature(taken)
    return sig


def value_sum(mask: int) -> int:
    """The sum of the capture values of a set of cards."""
    return (
        _VALUE_CHUNK[mask & 1023]
        + _VALUE_CHUNK[mask >> 10 & 1023]
        + _VALUE_CHUNK[mask >> 20 & 1023]
        + _VALUE_CHUNK[mask >> 30]
    )


SWEPT: Final = 1 << 40
"""Set beside the cards a capture takes (:func:`capture_effect`) when it scores a sweep."""


def sweep_limit(rules: RuleSet) -> int:
    """How many plays of a hand come before the first that can no longer score a sweep: all
    of them when the last play's sweep counts (``last_play_sweep_counts``), else all but the
    last."""
    return rules.plays_per_hand - (0 if rules.last_play_sweep_counts else 1)


def capture_effect(
    key: int, table: int, sig: int, played: int, limit: int, ace_takes_all: bool
) -> tuple[int, int, int]:
    """What the capture ``key`` (card index | taken cards << 6) does, on a ``table`` of
    signature ``sig`` after ``played`` plays of the hand: the table after it, that table's
    signature, and the cards that go to the mover's side's pile (the card and those it takes),
    with :data:`SWEPT` set when the capture scores a sweep; the caller adds them to the pile
    and makes the mover the hand's last capturer. (A drop has no rule to apply: its card
    joins the table.)

    The one place of the sweep rule (RULES.md "A move"): a capture that empties the table
    sweeps, but not by a play from ``limit`` on (:func:`sweep_limit`: the hand's last play,
    unless ``last_play_sweep_counts``), nor by an ace that takes the whole table under
    ``ace_takes_all`` (asso piglia tutto) without taking an ace. :class:`escoba.Game` and the
    search's simulation both play captures through it.
    """
    card = key & 63
    taken = key >> 6
    table ^= taken
    sig -= _SIG_OF.get(taken) or signature_of(taken)
    if table or played >= limit or (ace_takes_all and VALUE[card] == 1 and not taken & ACES_MASK):
        return table, sig, taken | 1 << card
    return table, sig, taken | 1 << card | SWEPT


_INDEX_CHUNK: Final = tuple(tuple(r for r in range(10) if chunk >> r & 1) for chunk in range(1024))


_DRAWS: Final = struct.Struct("<39I")


def shuffled_deck(seed_text: str) -> tuple[int, ...]:
    """The 40 card indices shuffled by a hash of ``seed_text`` (pure, and the same anywhere).

    Fisher-Yates with 32 random bits per step; the modulo bias is below 40 / 2**32.
    """
    draws = _DRAWS.unpack(hashlib.shake_256(seed_text.encode()).digest(_DRAWS.size))
    deck = list(range(40))
    for i in range(39, 0, -1):
        j = draws[i - 1] % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


def indices(mask: int) -> list[int]:
    """The card indices of a set, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
