"""The engine's whole state as plain ints: a read-only view for fast clients.

A :class:`Snapshot` holds every hand, so it is for clients that own the whole match (the
research environment that builds every seat's array, tests); a seat gets its
:class:`~escoba.Observation` and nothing more. Cards are indices into :data:`escoba.DECK`;
a set of cards is a bit set (bit ``i`` for ``DECK[i]``).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Snapshot"]


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A match at one moment, as :meth:`escoba.Game.snapshot` gives it."""

    hands: tuple[tuple[int, ...], ...]
    """Each seat's cards in hand, ascending indices."""
    table: int
    """The cards face up on the table (bit set)."""
    piles: tuple[int, ...]
    """Each side's captured cards this hand (bit sets)."""
    sweeps: tuple[int, ...]
    """Each side's sweeps this hand."""
    totals: tuple[int, ...]
    """Each side's match points."""
    stock_size: int
    """Cards left to deal."""
    hand_number: int
    """Hands finished before the current one."""
    dealer: int
    """The seat dealing the current (or last) hand."""
    to_move: int | None
    """The seat to play, None once the match is over."""
    last_capturer: int | None
    """The seat that captured last this hand, None if nobody has."""
    played: tuple[int, ...]
    """The cards each seat has played this hand (bit sets)."""
