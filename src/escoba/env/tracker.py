"""Every seat's observation array of one match, kept up to date move by move.

The environment hands out an observation at every step, so making one must cost little.
:class:`Tracker` keeps each seat's array (in the layout of :mod:`escoba.env.observations`)
as bytes that live as long as the environment: a move changes a few entries of each (the
card played, the cards taken, the counts, who is to move), and an observation is a copy of
one. Each array is read in full from the engine only at a new match or hand.

The tests check the kept arrays against :func:`~escoba.env.observations.encode_observation`,
which reads nothing but the seat's :class:`~escoba.Observation`, at every step of random
matches of every rule set and seat count.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

import numpy as np
from numpy.typing import NDArray

from ..rules import RuleSet
from .observations import CAP, OBSERVATION_SIZE, SLICES, static_features

if TYPE_CHECKING:
    from ..game import Game

__all__ = ["Tracker"]

_HAND: Final = SLICES["hand"].start
_TABLE: Final = SLICES["table"].start
_CAPTURED: Final = SLICES["captured"].start
_UNSEEN: Final = SLICES["unseen"].start
_PLAYED: Final = SLICES["played"].start
_CARD_ENTRIES: Final = SLICES["hand_sizes"].start
_HAND_SIZES: Final = SLICES["hand_sizes"].start
_STOCK: Final = SLICES["stock_size"].start
_SWEEPS: Final = SLICES["sweeps"].start
_TOTALS: Final = SLICES["totals"].start
_HAND_NUMBER: Final = SLICES["hand_number"].start
_DEALER: Final = SLICES["dealer"].start
_TO_MOVE: Final = SLICES["to_move"].start
_LAST_CAPTURER: Final = SLICES["last_capturer"].start
_STATIC: Final = SLICES["players"].start

_FULL: Final = (1 << 40) - 1
_DIGITS: Final = bytes.maketrans(b"01", b"\0\1")
_CARD_FORMAT: Final = f"0{_CARD_ENTRIES}b"
_NO_NUMBERS: Final = bytes(_STATIC - _CARD_ENTRIES)


class Tracker:
    """Every seat's observation of one match (see the module's docstring).

    The environment calls :meth:`rebuild` at a new match or hand and :meth:`moved` after
    each move within a hand; :meth:`observation` then gives any seat's array.
    """

    __slots__ = (
        "_arrays",
        "_captures",
        "_dealt_sizes",
        "_plays",
        "_seat_slots",
        "_side_slots",
        "_views",
    )

    def __init__(self, rules: RuleSet, players: int, partnerships: bool) -> None:
        sides = 2 if partnerships else players
        static = bytes(static_features(rules, players, partnerships))
        arrays = self._arrays = [bytearray(OBSERVATION_SIZE) for _ in range(players)]
        for data in arrays:
            data[_STATIC:] = static
        self._views = [np.frombuffer(data, dtype=np.int8) for data in arrays]

        def seat_slot(viewer: int, seat: int) -> int:
            return (seat - viewer) % players

        def side_slot(viewer: int, side: int) -> int:
            return (side - viewer % sides) % sides

        # For a full read: each viewer's slots of every seat and side.
        self._seat_slots = tuple(
            tuple(seat_slot(viewer, seat) for seat in range(players)) for viewer in range(players)
        )
        self._side_slots = tuple(
            tuple(side_slot(viewer, side) for side in range(sides)) for viewer in range(players)
        )
        # For each seat that moves, for each viewer: where the move changes the viewer's
        # array. Any move: the seat's played cards, its hand size, where its card was (the
        # viewer's hand if the viewer moved, else the cards it has not seen), the mark of the
        # seat to move (within a hand the next seat always follows).
        self._plays = tuple(
            tuple(
                (
                    arrays[viewer],
                    _PLAYED + 40 * seat_slot(viewer, seat),
                    _HAND_SIZES + seat_slot(viewer, seat),
                    _HAND if viewer == seat else _UNSEEN,
                    _TO_MOVE + seat_slot(viewer, seat),
                    _TO_MOVE + seat_slot(viewer, (seat + 1) % players),
                )
                for viewer in range(players)
            )
            for seat in range(players)
        )
        # A capture: the seat's side's pile and sweeps, and the marks of the last capturer.
        self._captures = tuple(
            tuple(
                (
                    arrays[viewer],
                    _CAPTURED + 40 * side_slot(viewer, seat % sides),
                    _SWEEPS + side_slot(viewer, seat % sides),
                    tuple(_LAST_CAPTURER + seat_slot(viewer, s) for s in range(players)),
                    _LAST_CAPTURER + seat_slot(viewer, seat),
                )
                for viewer in range(players)
            )
            for seat in range(players)
        )
        # After a deal within a hand every seat holds three cards.
        self._dealt_sizes = bytes([3] * players)

    def observation(self, seat: int) -> NDArray[np.int8]:
        """The seat's observation array (a new one, the seat's own)."""
        return self._views[seat].copy()

    def rebuild(self, game: Game, played: list[int]) -> None:
        """Read every seat's array in full from the engine; ``played`` holds, as bit sets,
        the cards each seat has played this hand."""
        hands = game._hands
        table = game._table
        piles = game._piles
        sweeps = game._sweeps
        totals = game._totals
        taken = 0
        for pile in piles:
            taken |= pile
        for viewer, data in enumerate(self._arrays):
            seat_slots = self._seat_slots[viewer]
            hand = 0
            for card in hands[viewer]:
                hand |= 1 << card
            bits = hand | table << _TABLE | (_FULL ^ (hand | table | taken)) << _UNSEEN
            data[_CARD_ENTRIES:_STATIC] = _NO_NUMBERS
            for side, slot in enumerate(self._side_slots[viewer]):
                bits |= piles[side] << (_CAPTURED + 40 * slot)
                data[_SWEEPS + slot] = sweeps[side]
                data[_TOTALS + slot] = min(totals[side], CAP)
            for seat, slot in enumerate(seat_slots):
                bits |= played[seat] << (_PLAYED + 40 * slot)
                data[_HAND_SIZES + slot] = len(hands[seat])
            data[_STOCK] = 40 - game._stock_pos
            data[_HAND_NUMBER] = min(game._hand_number, CAP)
            data[_DEALER + seat_slots[game._dealer]] = 1
            if game._to_move >= 0:
                data[_TO_MOVE + seat_slots[game._to_move]] = 1
            if game._last_capturer >= 0:
                data[_LAST_CAPTURER + seat_slots[game._last_capturer]] = 1
            # The card entries are the binary digits of ``bits``, lowest first, as bytes.
            data[:_CARD_ENTRIES] = format(bits, _CARD_FORMAT)[::-1].encode().translate(_DIGITS)

    def moved(self, game: Game, seat: int, key: int, last_capturer: int, dealt: bool) -> None:
        """Follow a move within a hand: ``seat`` played ``key``; ``last_capturer`` is the
        seat that had captured last before it (-1 if none); ``dealt``: the hands were dealt
        again after it."""
        card = key & 63
        taken = key >> 6
        if taken:
            for data, played, size, was, mark, next_mark in self._plays[seat]:
                data[played + card] = 1
                data[size] -= 1
                data[was + card] = 0
                data[mark] = 0
                data[next_mark] = 1
            captured = []
            while taken:
                low = taken & -taken
                captured.append(low.bit_length() - 1)
                taken ^= low
            # Only a capture that empties the table can be a sweep.
            sweeps = -1 if game._table else game._sweeps[seat % len(game._sweeps)]
            for data, pile, swept, marks, capturer in self._captures[seat]:
                data[pile + card] = 1
                for taken_card in captured:
                    data[_TABLE + taken_card] = 0
                    data[pile + taken_card] = 1
                if sweeps >= 0:
                    data[swept] = sweeps
                if last_capturer >= 0:
                    data[marks[last_capturer]] = 0
                data[capturer] = 1
        else:
            on_table = _TABLE + card
            for data, played, size, was, mark, next_mark in self._plays[seat]:
                data[played + card] = 1
                data[size] -= 1
                data[was + card] = 0
                data[on_table] = 1
                data[mark] = 0
                data[next_mark] = 1
        if dealt:
            hands = game._hands
            stock = 40 - game._stock_pos
            sizes = self._dealt_sizes
            for viewer, data in enumerate(self._arrays):
                for dealt_card in hands[viewer]:
                    data[_HAND + dealt_card] = 1
                    data[_UNSEEN + dealt_card] = 0
                data[_HAND_SIZES : _HAND_SIZES + len(sizes)] = sizes
                data[_STOCK] = stock
