"""Determinization: deal the cards a seat has not seen into the other hands and the stock.

A seat sees its own hand, the table and every capture (captures are made face up), so the
unseen cards are exactly the other seats' hands plus the stock. Forced capture tells little
about a hand in general (a drop only says the dropped card could take nothing, and any card
may be played), so a uniform deal of the unseen cards is consistent with everything the seat
has seen; no inference is made.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .._bits import FULL_DECK, indices
from ..cards import Card
from ..errors import EscobaError
from ..observation import Observation

__all__ = ["Determinization", "sample_deal", "seen_mask"]


@dataclass(frozen=True, slots=True)
class Determinization:
    """One guess at the hidden cards: every seat's hand and the stock in dealing order."""

    hands: tuple[tuple[int, ...], ...]
    """Card indices per seat, ascending; the observing seat's own hand as it is."""
    stock: tuple[int, ...]
    """The cards still to deal, first dealt first."""


def _mask(cards: tuple[Card, ...] | frozenset[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card.index
    return mask


def seen_mask(observation: Observation) -> int:
    """The cards the seat knows the place of: its hand, the table and every capture."""
    seen = _mask(observation.hand) | _mask(observation.table)
    for pile in observation.captured:
        seen |= _mask(pile)
    return seen


def sample_deal(observation: Observation, rng: random.Random) -> Determinization:
    """Deal the unseen cards uniformly at random (from ``rng``) to the other seats and the
    stock, in the sizes the observation shows."""
    unseen = indices(FULL_DECK & ~seen_mask(observation))  # ascending: rng alone decides
    seat = observation.seat
    sizes = observation.hand_sizes
    needed = sum(size for other, size in enumerate(sizes) if other != seat)
    if needed + observation.stock_size != len(unseen):
        raise EscobaError(
            f"observation of seat {seat} is inconsistent: {len(unseen)} unseen cards for "
            f"{needed} in other hands and {observation.stock_size} in the stock"
        )
    rng.shuffle(unseen)
    hands: list[tuple[int, ...]] = []
    position = 0
    for other, size in enumerate(sizes):
        if other == seat:
            hands.append(tuple(sorted(card.index for card in observation.hand)))
        else:
            hands.append(tuple(sorted(unseen[position : position + size])))
            position += size
    return Determinization(hands=tuple(hands), stock=tuple(unseen[position:]))
