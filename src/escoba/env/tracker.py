"""Every seat's observation array of one match, kept up to date move by move.

The environment hands out an observation at every step, so making one must cost little.
:class:`Tracker` keeps every seat's array (in the layout of :mod:`escoba.env.observations`)
in one buffer that lives as long as the environment. A move changes a few entries of each
array (the card played, the cards taken, the hand size, who is to move); the places and new
values of those entries, in all the arrays at once, are worked out when the tracker is made,
so following a move is one numpy assignment (and one more per card taken). An observation is
a copy of one array. Each array is read in full from the engine only at a new match or
hand.

The tests check the kept arrays against :func:`~escoba.env.observations.encode_observation`,
which reads nothing but the seat's :class:`~escoba.Observation`, at every step of random
matches of every rule set and seat count.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Final

import numpy as np
from numpy.typing import NDArray

from ..rules import RuleSet
from .observations import CAP, MAX_STOCK, OBSERVATION_SIZE, SLICES, static_features

if TYPE_CHECKING:
    from ..game import Game
    from ..observation import Play
    from ..snapshot import Snapshot

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
_ALL_UNSEEN: Final = bytes(_UNSEEN) + bytes([1] * 40) + bytes(_CARD_ENTRIES - _UNSEEN - 40)


Change = tuple[NDArray[np.intp], NDArray[np.int8]]
"""Places in the tracker's buffer and the values they take."""


class _Changes:
    """What a move changes in the arrays of every seat, by the seat that moves (precomputed
    once per seat count, kind of sides and cards dealt to a seat at a time)."""

    __slots__ = (
        "bases",
        "capture",
        "dealt",
        "drop",
        "hand_cards",
        "players",
        "seat_slots",
        "side_slots",
        "sides",
        "sweep_counts",
        "taken",
    )

    def __init__(self, players: int, sides: int, hand_cards: int) -> None:
        self.players = players
        self.sides = sides
        self.hand_cards = hand_cards
        # Where each viewer's array starts in the buffer, and its slot of every seat and side.
        bases = self.bases = tuple(OBSERVATION_SIZE * viewer for viewer in range(players))
        self.seat_slots = tuple(
            tuple((seat - viewer) % players for seat in range(players)) for viewer in range(players)
        )
        self.side_slots = tuple(
            tuple((side - viewer % sides) % sides for side in range(sides))
            for viewer in range(players)
        )

        def seat_slot(viewer: int, seat: int) -> int:
            return self.seat_slots[viewer][seat]

        def side_slot(viewer: int, seat: int) -> int:
            """The viewer's slot of the seat's side."""
            return self.side_slots[viewer][seat % sides]

        def everywhere(place: Callable[[int], int], value: int) -> list[tuple[int, int]]:
            """One entry of every viewer's array (``place(viewer)``) set to ``value``."""
            return [(base + place(viewer), value) for viewer, base in enumerate(bases)]

        def change(*entries: list[tuple[int, int]]) -> Change:
            places = [place for part in entries for place, _ in part]
            values = [value for part in entries for _, value in part]
            return np.array(places, dtype=np.intp), np.array(values, dtype=np.int8)

        def common(seat: int, size: int, card: int) -> list[tuple[int, int]]:
            """Any move: the card is among the seat's played cards and no longer where it
            was (the viewer's hand if the viewer moved, else the cards it has not seen); the
            seat holds ``size`` cards; the next seat is to move (within a hand the next seat
            always follows)."""
            after = (seat + 1) % players
            return (
                everywhere(lambda v: _PLAYED + 40 * seat_slot(v, seat) + card, 1)
                + everywhere(lambda v: (_HAND if v == seat else _UNSEEN) + card, 0)
                + hand_size(seat, size)
                + everywhere(lambda v: _TO_MOVE + seat_slot(v, seat), 0)
                + everywhere(lambda v: _TO_MOVE + seat_slot(v, after), 1)
            )

        def on_table(card: int, value: int) -> list[tuple[int, int]]:
            return everywhere(lambda v: _TABLE + card, value)

        def into_pile(seat: int, card: int) -> list[tuple[int, int]]:
            return everywhere(lambda v: _CAPTURED + 40 * side_slot(v, seat) + card, 1)

        def last_capturer(seat: int) -> list[tuple[int, int]]:
            """The seat marked as the last to capture, every other seat unmarked."""
            return [entry for other in range(players) for entry in last_mark(other, other == seat)]

        def last_mark(seat: int, marked: bool) -> list[tuple[int, int]]:
            return everywhere(lambda v: _LAST_CAPTURER + seat_slot(v, seat), int(marked))

        def hand_size(seat: int, size: int) -> list[tuple[int, int]]:
            return everywhere(lambda v: _HAND_SIZES + seat_slot(v, seat), size)

        # By seat, the seat's hand size after the move (0..hand_cards - 1), and the card: a
        # drop puts the card on the table, a capture into the side's pile, marking the last
        # capturer.
        self.drop = tuple(
            tuple(
                tuple(change(common(seat, size, card), on_table(card, 1)) for card in range(40))
                for size in range(hand_cards)
            )
            for seat in range(players)
        )
        self.capture = tuple(
            tuple(
                tuple(
                    change(common(seat, size, card), into_pile(seat, card), last_capturer(seat))
                    for card in range(40)
                )
                for size in range(hand_cards)
            )
            for seat in range(players)
        )
        # A card taken from the table into the pile of the seat's side.
        self.taken = tuple(
            tuple(change(into_pile(seat, card), on_table(card, 0)) for card in range(40))
            for seat in range(players)
        )
        # After a deal within a hand, by the cards left in the stock: every seat holds
        # hand_cards again.
        self.dealt = tuple(
            change(
                *(hand_size(seat, hand_cards) for seat in range(players)),
                everywhere(lambda v: _STOCK, stock),
            )
            for stock in range(MAX_STOCK + 1)
        )
        self.sweep_counts = tuple(
            tuple(base + _SWEEPS + side_slot(viewer, seat) for viewer, base in enumerate(bases))
            for seat in range(players)
        )


@cache
def _changes(players: int, sides: int, hand_cards: int) -> _Changes:
    return _Changes(players, sides, hand_cards)


class Tracker:
    """Every seat's observation of one match (see the module's docstring).

    The environment calls :meth:`rebuild` at a new match or hand and :meth:`moved` after
    each move within a hand; :meth:`observation` then gives any seat's array.
    """

    __slots__ = ("_changes", "_data", "_flat", "_plays", "views")

    def __init__(self, rules: RuleSet, players: int, partnerships: bool) -> None:
        changes = self._changes = _changes(
            players, 2 if partnerships else players, rules.hand_cards
        )
        # The seats' arrays one after another: bytes for reading a hand in full, numpy for
        # a move's few changes in all of them at once.
        data = self._data = bytearray(players * OBSERVATION_SIZE)
        bases = changes.bases
        static = bytes(static_features(rules, players, partnerships))
        for base in bases:
            data[base + _STATIC : base + OBSERVATION_SIZE] = static
        flat = self._flat = np.frombuffer(data, dtype=np.int8)
        # Each seat's array, a view into the buffer: an observation is a copy of one.
        self.views = [flat[base : base + OBSERVATION_SIZE] for base in bases]
        self._plays = 0  # moves played this hand

    def observation(self, seat: int) -> NDArray[np.int8]:
        """The seat's observation array (a new one, the seat's own)."""
        return self.views[seat].copy()

    def rebuild(self, state: Snapshot) -> None:
        """Read every seat's array in full from the engine's snapshot (at a new match or
        hand, or from a record)."""
        hands = state.hands
        table = state.table
        piles = state.piles
        sweeps = state.sweeps
        totals = state.totals
        played = state.played
        self._plays = sum(cards.bit_count() for cards in played)
        data = self._data
        changes = self._changes
        taken = 0
        for pile in piles:
            taken |= pile
        # At the start of a hand most cards are unseen: from that pattern, only the cards in
        # hand and on the table change (the usual case, unless the dealer swept the table).
        fresh = not taken and not any(played)
        if fresh:
            cards = bytearray(_ALL_UNSEEN)
            rest = table
            while rest:
                low = rest & -rest
                card = low.bit_length() - 1
                cards[_TABLE + card] = 1
                cards[_UNSEEN + card] = 0
                rest ^= low
        sizes = [len(hand) for hand in hands]
        capped = [min(total, CAP) for total in totals]
        stock = state.stock_size
        hand_number = min(state.hand_number, CAP)
        dealer, to_move, last_capturer = state.dealer, state.to_move, state.last_capturer
        numbers = bytearray(_STATIC - _CARD_ENTRIES)
        for viewer, base in enumerate(changes.bases):
            seat_slots = changes.seat_slots[viewer]
            side_slots = changes.side_slots[viewer]
            numbers[:] = _NO_NUMBERS
            for side, slot in enumerate(side_slots):
                numbers[_SWEEPS - _CARD_ENTRIES + slot] = sweeps[side]
                numbers[_TOTALS - _CARD_ENTRIES + slot] = capped[side]
            for seat, slot in enumerate(seat_slots):
                numbers[_HAND_SIZES - _CARD_ENTRIES + slot] = sizes[seat]
            numbers[_STOCK - _CARD_ENTRIES] = stock
            numbers[_HAND_NUMBER - _CARD_ENTRIES] = hand_number
            numbers[_DEALER - _CARD_ENTRIES + seat_slots[dealer]] = 1
            if to_move is not None:
                numbers[_TO_MOVE - _CARD_ENTRIES + seat_slots[to_move]] = 1
            if last_capturer is not None:
                numbers[_LAST_CAPTURER - _CARD_ENTRIES + seat_slots[last_capturer]] = 1
            data[base + _CARD_ENTRIES : base + _STATIC] = numbers
            if fresh:
                data[base : base + _CARD_ENTRIES] = cards
                for card in hands[viewer]:
                    data[base + _HAND + card] = 1
                    data[base + _UNSEEN + card] = 0
                continue
            hand = 0
            for card in hands[viewer]:
                hand |= 1 << card
            bits = hand | table << _TABLE | (_FULL ^ (hand | table | taken)) << _UNSEEN
            for side, slot in enumerate(side_slots):
                bits |= piles[side] << (_CAPTURED + 40 * slot)
            for seat, slot in enumerate(seat_slots):
                bits |= played[seat] << (_PLAYED + 40 * slot)
            # The card entries are the binary digits of ``bits``, lowest first, as bytes.
            data[base : base + _CARD_ENTRIES] = (
                format(bits, _CARD_FORMAT)[::-1].encode().translate(_DIGITS)
            )

    def moved(self, key: int, play: Play, game: Game) -> None:
        """Follow a move within a hand: ``key`` played, ``play`` its event."""
        flat = self._flat
        changes = self._changes
        seat = play.seat
        card = key & 63
        taken = key >> 6
        plays = self._plays
        self._plays = plays + 1
        # Rounds go from the dealer's left: the seat's hand holds hand_cards - 1, ..., 1,
        # then 0 cards after its moves of the round.
        players = changes.players
        hand_cards = changes.hand_cards
        size = hand_cards - 1 - plays % (hand_cards * players) // players
        dealt = play.deal is not None
        if taken:
            places, values = changes.capture[seat][size][card]
            flat[places] = values
            taken_here = changes.taken[seat]
            while taken:
                low = taken & -taken
                places, values = taken_here[low.bit_length() - 1]
                flat[places] = values
                taken ^= low
            if play.sweep:
                sweeps = game.sweeps[seat % changes.sides]
                data = self._data
                for place in changes.sweep_counts[seat]:
                    data[place] = sweeps
        else:
            places, values = changes.drop[seat][size][card]
            flat[places] = values
        if dealt:
            data = self._data
            state = game.snapshot()
            for base, hand in zip(changes.bases, state.hands, strict=True):
                for dealt_card in hand:
                    data[base + _HAND + dealt_card] = 1
                    data[base + _UNSEEN + dealt_card] = 0
            places, values = changes.dealt[state.stock_size]
            flat[places] = values
