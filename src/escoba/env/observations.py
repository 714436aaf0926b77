"""The observation encoding: what one seat may know, as a fixed-size int8 array.

Every field is listed in ``FIELDS`` (name, length, largest value) and laid out in that order;
``SLICES[name]`` is its place in the array. Seats and sides are *relative to the observing
seat*: seat slot ``r`` is the seat ``r`` places after it in the order of play (slot 0 is the
seat itself), side slot ``j`` is the ``j``-th side after its own (slot 0 is its own side).
Slots of seats or sides that do not exist hold 0. Card fields hold 40 entries, one per card
in ``DECK`` order (card index), 1 where the card is in the set. Counts are plain numbers,
not scaled; numbers that a rule set leaves unbounded are capped at ``CAP``.

:func:`encode_observation` builds the array from a :class:`~escoba.Observation` alone, so it
cannot use what the seat may not know; the environment keeps the same arrays faster, move
by move, in :class:`escoba.env.tracker.Tracker`, which the tests check against
:func:`encode_observation` at every step of random matches of every rule set.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

import numpy as np
from numpy.typing import NDArray

from ..cards import Card
from ..observation import InitialSweep, Observation, Play
from ..rules import INT_OPTIONS, MAX_ALL_SEVENS_BONUS, RuleSet

__all__ = [
    "CAP",
    "FIELDS",
    "MAX_HAND",
    "MAX_STOCK",
    "OBSERVATION_SIZE",
    "RULE_FEATURES",
    "RULE_NUMBERS",
    "SLICES",
    "encode_observation",
    "observation_high",
    "static_features",
]

CAP: Final = 127
"""The cap of unbounded numbers: match totals, hand number, target score, win_by."""

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
    "hand_cards",
    "table_cards",
    "ace_takes_all",
    "re_bello",
    "napola",
)
"""The entries of the ``rules`` field, in order: 1/0 flags, except the numbers in
``RULE_NUMBERS``."""

RULE_NUMBERS: Final[dict[str, int]] = {
    "all_sevens_bonus": MAX_ALL_SEVENS_BONUS,
    "target_score": CAP,
    "win_by": CAP,
    "hand_cards": INT_OPTIONS["hand_cards"][1],
    "table_cards": INT_OPTIONS["table_cards"][1],
}
"""The entries of ``RULE_FEATURES`` that are numbers, with their largest value (``target_score``
and ``win_by`` capped at ``CAP``)."""

MAX_HAND: Final = INT_OPTIONS["hand_cards"][1]
"""The most cards a hand holds: 10, in Scopone scientifico."""
MAX_STOCK: Final = 40 - 2 * INT_OPTIONS["hand_cards"][0]
"""The most cards left to deal: 38, one card to each of 2 players and no table cards."""

FIELDS: Final[tuple[tuple[str, int, int], ...]] = (
    ("hand", 40, 1),  # the seat's own cards
    ("table", 40, 1),  # the cards face up on the table
    ("captured", 160, 1),  # 4 side slots x 40: each side's captured cards this hand
    ("unseen", 40, 1),  # cards the seat has not seen this hand: other hands and the stock
    ("played", 160, 1),  # 4 seat slots x 40: the cards each seat has played this hand
    ("hand_sizes", 4, MAX_HAND),  # by seat slot: cards in hand
    ("stock_size", 1, MAX_STOCK),  # cards left to deal
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


def observation_high() -> NDArray[np.int8]:
    """The largest value of every entry (the observation space's upper bound)."""
    high = np.zeros(OBSERVATION_SIZE, dtype=np.int8)
    for name, _, top in FIELDS:
        high[SLICES[name]] = top
    rules = SLICES["rules"].start
    for i, feature in enumerate(RULE_FEATURES):
        high[rules + i] = RULE_NUMBERS.get(feature, 1)
    return high


def static_features(rules: RuleSet, players: int, partnerships: bool) -> list[int]:
    """The fields that never change in a match, in order: players, partnerships, rules."""
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
        rules.all_sevens_bonus,
        int(rules.big_wins),
        min(rules.target_score, CAP),
        min(rules.win_by, CAP),
        rules.hand_cards,
        rules.table_cards,
        int(rules.ace_takes_all),
        int(rules.re_bello),
        int(rules.napola),
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
    static = static_features(obs.rules, players, obs.partnerships)
    out[SLICES["players"].start :] = static
    return out
