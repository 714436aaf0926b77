"""The observation encoding: what one seat may know, as a fixed-size int8 array.

Every field is listed in ``FIELDS`` (name, length, largest value) and laid out in that order;
``SLICES[name]`` is its place in the array. Seats and sides are *relative to the observing
seat*: seat slot ``r`` is the seat ``r`` places after it in the order of play (slot 0 is the
seat itself), side slot ``j`` is the ``j``-th side after its own (slot 0 is its own side).
Slots of seats or sides that do not exist hold 0. Card fields hold 40 entries, one per card
in ``DECK`` order (card index), 1 where the card is in the set. Counts are plain numbers,
not scaled; numbers that a rule set leaves unbounded are capped at ``CAP``.

:func:`encode_observation` builds the array from a :class:`~escoba.Observation` alone, so it
cannot use what the seat may not know; the environment uses :class:`Encoder`, a faster
equivalent reading the engine's int state, which the tests check against
:func:`encode_observation` at every step of random matches of every rule set.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Final

import numpy as np
from numpy.typing import NDArray

from ..cards import Card
from ..observation import InitialSweep, Observation, Play
from ..rules import RuleSet

if TYPE_CHECKING:
    from ..game import Game

__all__ = [
    "CAP",
    "FIELDS",
    "OBSERVATION_SIZE",
    "RULE_FEATURES",
    "SLICES",
    "Encoder",
    "encode_observation",
    "observation_high",
]

CAP: Final = 127
"""The cap of unbounded numbers: match totals, hand number, target score, win_by, bonus."""

RULE_FEATURES: Final[tuple[str, ...]] = (
    "capture_match",
    "forced_capture",
    "last_play_sweep_counts",
    "initial_table_sweeps",
    "kings_redeal",
    "sevens_ranking",
    "sevens_sevens",
    "sevens_primiera",
    "sevens_none",
    "primiera_needs_all_suits",
    "all_coins_two",
    "all_sevens_bonus",
    "big_wins",
    "target_score",
    "win_by",
)
"""The entries of the ``rules`` field, in order: 1/0 flags, except ``all_sevens_bonus``,
``target_score`` and ``win_by``, which are numbers (capped)."""

FIELDS: Final[tuple[tuple[str, int, int], ...]] = (
    ("hand", 40, 1),  # the seat's own cards
    ("table", 40, 1),  # the cards face up on the table
    ("captured", 160, 1),  # 4 side slots x 40: each side's captured cards this hand
    ("unseen", 40, 1),  # cards the seat has not seen this hand: other hands and the stock
    ("played", 160, 1),  # 4 seat slots x 40: the cards each seat has played this hand
    ("hand_sizes", 4, 3),  # by seat slot: cards in hand
    ("stock_size", 1, 36),  # cards left to deal
    ("sweeps", 4, 40),  # by side slot: sweeps this hand
    ("totals", 4, CAP),  # by side slot: match points so far (finished hands)
    ("hand_number", 1, CAP),  # hands finished before this one
    ("dealer", 4, 1),  # one-hot seat slot of the dealer
    ("to_move", 4, 1),  # one-hot seat slot of the seat to move (all 0 once the match is over)
    ("last_capturer", 4, 1),  # one-hot seat slot of the last seat to capture this hand
    ("players", 3, 1),  # one-hot: 2, 3 or 4 players
    ("partnerships", 1, 1),  # 1 for 4 players in two partnerships
    ("rules", len(RULE_FEATURES), CAP),  # the rule options (RULE_FEATURES)
)


def _slices() -> dict[str, slice]:
    out = {}
    start = 0
    for name, size, _ in FIELDS:
        out[name] = slice(start, start + size)
        start += size
    return out


SLICES: Final[dict[str, slice]] = _slices()
OBSERVATION_SIZE: Final = sum(size for _, size, _ in FIELDS)
_FULL: Final = (1 << 40) - 1
_DIGITS: Final = bytes.maketrans(b"01", b"\0\1")


def observation_high() -> NDArray[np.int8]:
    """The largest value of every entry (the observation space's upper bound)."""
    high = np.zeros(OBSERVATION_SIZE, dtype=np.int8)
    for name, _, top in FIELDS:
        high[SLICES[name]] = top
    rules = SLICES["rules"].start
    for i, feature in enumerate(RULE_FEATURES):
        numeric = feature in ("all_sevens_bonus", "target_score", "win_by")
        high[rules + i] = CAP if numeric else 1
    return high


def _static_features(rules: RuleSet, players: int, partnerships: bool) -> list[int]:
    """The fields that never change in a match: players, partnerships, rules."""
    values = [int(players == n) for n in (2, 3, 4)]
    values.append(int(partnerships))
    values += [
        int(rules.capture == "match"),
        int(rules.forced_capture),
        int(rules.last_play_sweep_counts),
        int(rules.initial_table_sweeps),
        int(rules.kings_redeal),
    ]
    values += [int(rules.sevens == mode) for mode in ("ranking", "sevens", "primiera", "none")]
    values += [
        int(rules.primiera_needs_all_suits),
        int(rules.all_coins_two),
        min(rules.all_sevens_bonus, CAP),
        int(rules.big_wins),
        min(rules.target_score, CAP),
        min(rules.win_by, CAP),
    ]
    return values


def encode_observation(obs: Observation) -> NDArray[np.int8]:
    """The array of an observation (the reference encoding, from the Observation alone)."""
    out = np.zeros(OBSERVATION_SIZE, dtype=np.int8)
    seat, players = obs.seat, obs.players
    sides = len(obs.sides)
    own_side = obs.side
    seat_slot = [(s - seat) % players for s in range(players)]
    side_slot = [(s - own_side) % sides for s in range(sides)]

    def put_cards(name: str, slot: int, cards: Iterable[Card]) -> None:
        start = SLICES[name].start + 40 * slot
        for card in cards:
            out[start + card.index] = 1

    put_cards("hand", 0, obs.hand)
    put_cards("table", 0, obs.table)
    for side, pile in enumerate(obs.captured):
        put_cards("captured", side_slot[side], pile)
    put_cards("unseen", 0, obs.unseen)
    last_capturer: int | None = None
    for event in obs.history:
        if isinstance(event, Play):
            put_cards("played", seat_slot[event.seat], (event.card,))
            if event.captures:
                last_capturer = event.seat
        elif isinstance(event, InitialSweep):
            last_capturer = event.dealer
    for s in range(players):
        out[SLICES["hand_sizes"].start + seat_slot[s]] = obs.hand_sizes[s]
    out[SLICES["stock_size"].start] = obs.stock_size
    for side in range(sides):
        out[SLICES["sweeps"].start + side_slot[side]] = obs.sweeps[side]
        out[SLICES["totals"].start + side_slot[side]] = min(obs.totals[side], CAP)
    out[SLICES["hand_number"].start] = min(obs.hand_number, CAP)
    out[SLICES["dealer"].start + seat_slot[obs.dealer]] = 1
    if obs.to_move is not None:
        out[SLICES["to_move"].start + seat_slot[obs.to_move]] = 1
    if last_capturer is not None:
        out[SLICES["last_capturer"].start + seat_slot[last_capturer]] = 1
    static = _static_features(obs.rules, players, obs.partnerships)
    out[SLICES["players"].start :] = static
    return out


class Encoder:
    """The environment's fast encoder for one match's settings: the same array as
    :func:`encode_observation`, built from the engine's int state.

    It reads the seat's own hand, the table, the captured piles, the sweeps, the totals and
    who captured last, all of which the seat knows; ``played`` (the cards each seat has
    played this hand, as bit sets) is kept by the environment from the moves it plays.
    """

    __slots__ = ("_relative", "_seats", "_sides", "_static")

    def __init__(self, rules: RuleSet, players: int, partnerships: bool) -> None:
        sides = 2 if partnerships else players
        # For each observing seat: its sides in slot order, with the shift of their pile in
        # the card bits and the places of their sweeps and totals among the numbers; its
        # seats in slot order, with the shift of their played cards; every seat's slot.
        self._sides = tuple(
            tuple(((seat % sides + j) % sides, 80 + 40 * j, 5 + j, 9 + j) for j in range(sides))
            for seat in range(players)
        )
        self._seats = tuple(
            tuple(((seat + r) % players, 280 + 40 * r, r) for r in range(players))
            for seat in range(players)
        )
        self._relative = tuple(
            tuple((other - seat) % players for other in range(players)) for seat in range(players)
        )
        self._static = bytes(_static_features(rules, players, partnerships))

    def encode(self, game: Game, seat: int, played: list[int]) -> NDArray[np.int8]:
        """The seat's observation array (a new one)."""
        return np.frombuffer(self.encode_bytes(game, seat, played), dtype=np.int8)

    def encode_bytes(self, game: Game, seat: int, played: list[int]) -> bytearray:
        """The seat's observation as the bytes of the array."""
        hands = game._hands
        hand = 0
        for card in hands[seat]:
            hand |= 1 << card
        table = game._table
        piles = game._piles
        sweeps = game._sweeps
        totals = game._totals
        # 26 numbers after the 440 card entries: hand sizes 4, stock 1, sweeps 4, totals 4,
        # hand number 1, dealer 4, to move 4, last capturer 4.
        numbers = bytearray(26)
        seen = hand | table
        bits = hand | table << 40
        for side, shift, at_sweeps, at_totals in self._sides[seat]:
            pile = piles[side]
            seen |= pile
            bits |= pile << shift
            numbers[at_sweeps] = sweeps[side]
            total = totals[side]
            numbers[at_totals] = total if total < CAP else CAP
        bits |= (_FULL ^ seen) << 240
        for other, shift, slot in self._seats[seat]:
            bits |= played[other] << shift
            numbers[slot] = len(hands[other])
        numbers[4] = 40 - game._stock_pos
        number = game._hand_number
        numbers[13] = number if number < CAP else CAP
        relative = self._relative[seat]
        numbers[14 + relative[game._dealer]] = 1
        if game._to_move >= 0:
            numbers[18 + relative[game._to_move]] = 1
        if game._last_capturer >= 0:
            numbers[22 + relative[game._last_capturer]] = 1
        # One buffer and one numpy call: the card entries are the binary digits of ``bits``
        # (lowest first) turned into bytes 0 and 1; then the numbers, then the fixed fields.
        data = bytearray(format(bits, "0440b")[::-1].encode().translate(_DIGITS))
        data += numbers
        data += self._static
        return data


# Where the fields start in the array (the card fields, then the numbers).
_TABLE, _CAPTURED, _UNSEEN, _PLAYED = 40, 80, 240, 280
_HAND_SIZES, _STOCK, _SWEEPS, _TO_MOVE, _LAST_CAPTURER = 440, 444, 445, 458, 462


class Tracker:
    """Every seat's observation of one match, kept up to date move by move.

    The environment tells it each move it plays (:meth:`moved`) and each change it cannot
    follow move by move (:meth:`invalidate`: a new match or hand); a seat's
    array is then rebuilt in full by :class:`Encoder` when next asked for. Between those,
    a move changes only a few entries of each seat's array: the card played, the cards
    taken, the hand sizes, the sweeps, who is to move and who captured last, and, when the
    hands are dealt again, the hands and the stock. The tests check the kept arrays against
    :func:`encode_observation` at every step of random matches of every rule set.
    """

    __slots__ = ("_arrays", "_encoder", "_plans", "_players", "_relative", "_views")

    def __init__(self, encoder: Encoder, players: int, partnerships: bool) -> None:
        sides = 2 if partnerships else players
        self._encoder = encoder
        self._players = players
        relative = self._relative = encoder._relative  # [viewer][seat]: the seat's slot
        # For each seat that moves, for each viewer: where the move changes the viewer's
        # array: the mover's played cards, its hand size, where its card is hidden (the
        # viewer's hand if the viewer moved, else the unseen cards), its side's pile and
        # sweeps, and the mover's to-move and last-capturer marks; and every seat's marks.
        self._plans = tuple(
            tuple(
                (
                    viewer,
                    _PLAYED + 40 * relative[viewer][seat],
                    _HAND_SIZES + relative[viewer][seat],
                    0 if viewer == seat else _UNSEEN,
                    _CAPTURED + 40 * ((seat % sides - viewer % sides) % sides),
                    _SWEEPS + (seat % sides - viewer % sides) % sides,
                    _TO_MOVE + relative[viewer][seat],
                    _LAST_CAPTURER + relative[viewer][seat],
                    tuple(_TO_MOVE + r for r in relative[viewer]),
                    tuple(_LAST_CAPTURER + r for r in relative[viewer]),
                )
                for viewer in range(players)
            )
            for seat in range(players)
        )
        # Each seat's array as bytes (cheap to change one at a time) and a numpy view of them
        # (cheap to copy out); None until asked for after a new match or hand.
        self._arrays: list[bytearray | None] = [None] * players
        self._views: list[NDArray[np.int8] | None] = [None] * players

    def invalidate(self) -> None:
        """Forget every seat's array: each is rebuilt in full when next asked for."""
        self._arrays = [None] * self._players
        self._views = [None] * self._players

    def observation(self, game: Game, seat: int, played: list[int]) -> NDArray[np.int8]:
        """The seat's observation array (a new one, the seat's own copy)."""
        view = self._views[seat]
        if view is None:
            data = self._arrays[seat] = self._encoder.encode_bytes(game, seat, played)
            view = self._views[seat] = np.frombuffer(data, dtype=np.int8)
        return view.copy()

    def moved(self, game: Game, seat: int, key: int, last_capturer: int, dealt: bool) -> None:
        """Follow a move within a hand: ``seat`` played ``key``; ``last_capturer`` is the
        seat that had captured last before it (-1 if none); ``dealt``: the hands were dealt
        again after it."""
        card = key & 63
        taken = key >> 6
        arrays = self._arrays
        to_move = game._to_move
        if taken:
            captured: list[int] = []
            while taken:
                low = taken & -taken
                captured.append(low.bit_length() - 1)
                taken ^= low
            sweeps = game._sweeps[game._side_of[seat]]
            for viewer, played, size, hide, pile, swept, moved, mark, moves, marks in self._plans[
                seat
            ]:
                data = arrays[viewer]
                if data is None:
                    continue
                data[played + card] = 1
                data[size] -= 1
                data[hide + card] = 0
                data[pile + card] = 1
                for taken_card in captured:
                    data[_TABLE + taken_card] = 0
                    data[pile + taken_card] = 1
                data[swept] = sweeps
                if last_capturer >= 0:
                    data[marks[last_capturer]] = 0
                data[mark] = 1
                data[moved] = 0
                data[moves[to_move]] = 1
        else:
            table = _TABLE + card
            for viewer, played, size, hide, _, _, moved, _, moves, _ in self._plans[seat]:
                data = arrays[viewer]
                if data is None:
                    continue
                data[played + card] = 1
                data[size] -= 1
                data[hide + card] = 0
                data[table] = 1
                data[moved] = 0
                data[moves[to_move]] = 1
        if dealt:
            self._dealt(game)

    def _dealt(self, game: Game) -> None:
        """Follow a new deal of three cards to every seat, within a hand."""
        hands = game._hands
        stock = 40 - game._stock_pos
        for viewer, data in enumerate(self._arrays):
            if data is None:
                continue
            for card in hands[viewer]:
                data[card] = 1
                data[_UNSEEN + card] = 0
            for other, hand in enumerate(hands):
                data[_HAND_SIZES + self._relative[viewer][other]] = len(hand)
            data[_STOCK] = stock
