"""The match record's format: what a record holds, the one builder of records, and its reader.

A record holds the rules with every option, the seats, the deck of every hand (and of every
voided deal) and every move, so a match is rebuilt exactly by replaying it; the seed is kept
too, so that a replayed unfinished match deals its later hands as the original would have.
A move taken back stays in its hand's moves, followed by the entry ``"take back"``.

This module knows nothing of :class:`escoba.Game`: the game writes its record with
:func:`match_record` and reads one with :func:`parse_record`. :mod:`escoba.records` is the
public home of these names and of the replay.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, TypedDict

from .cards import DECK, Card
from .errors import InvalidCardError, RecordError, RulesError
from .moves import Move
from .rules import RuleSet, preset_name

__all__ = [
    "RECORD_FORMAT",
    "RECORD_VERSION",
    "TAKE_BACK",
    "HandRecord",
    "MatchRecord",
    "RecordedMatch",
    "hand_record",
    "match_record",
    "parse_record",
]

RECORD_FORMAT: Final = "escoba-record"
RECORD_VERSION: Final = 1
TAKE_BACK: Final = "take back"
"""A hand's entry among its moves: the last move still standing was taken back."""


class HandRecord(TypedDict):
    """One hand of a record: its dealer, every deck dealt (voided deals first) and its moves
    (with :data:`TAKE_BACK` after each move taken back)."""

    dealer: int
    deals: list[list[str]]
    moves: list[str]


class MatchRecord(TypedDict):
    """A match record: the rules with every option, the seats, the seed and every hand."""

    format: str
    version: int
    rules: dict[str, Any]
    preset: str | None
    players: int
    partnerships: bool
    seed: int | str
    first_dealer: int
    hands: list[HandRecord]


def hand_record(
    dealer: int, decks: Iterable[Iterable[int]], moves: Iterable[Move | str]
) -> HandRecord:
    """A hand's entry: decks as card indices, moves as played (a :class:`Move`, its text or
    :data:`TAKE_BACK`)."""
    return {
        "dealer": dealer,
        "deals": [[str(DECK[card]) for card in deck] for deck in decks],
        "moves": [str(move) for move in moves],
    }


def match_record(
    rules: RuleSet,
    players: int,
    partnerships: bool,
    seed: int | str,
    first_dealer: int,
    hands: Iterable[HandRecord],
) -> MatchRecord:
    """The record of a match: the one place a record is put together."""
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "rules": rules.to_dict(),
        "preset": preset_name(rules),
        "players": players,
        "partnerships": partnerships,
        "seed": seed,
        "first_dealer": first_dealer,
        "hands": list(hands),
    }


@dataclass(frozen=True, slots=True)
class RecordedMatch:
    """A record read and checked, ready to replay."""

    rules: RuleSet
    players: int
    partnerships: bool
    seed: int | str
    first_dealer: int
    decks: tuple[tuple[tuple[Card, ...], ...], ...]
    """Each hand's decks (the 40 cards in dealing order), voided deals first."""
    dealers: tuple[object, ...]
    """Each hand's dealer as recorded (checked when replayed)."""
    moves: tuple[tuple[str, ...], ...]
    """Each hand's moves as texts."""


def parse_record(record: Mapping[str, Any]) -> RecordedMatch:
    """Read a record; raise RecordError naming what is malformed."""
    if not isinstance(record, Mapping):
        raise RecordError(f"a record must be a mapping, got {type(record).__name__}")
    if record.get("format") != RECORD_FORMAT or record.get("version") != RECORD_VERSION:
        raise RecordError(
            f"not an {RECORD_FORMAT} version {RECORD_VERSION}: "
            f"format={record.get('format')!r}, version={record.get('version')!r}"
        )
    try:
        rules = RuleSet.from_dict(_field(record, "rules", Mapping))
    except RulesError as error:
        raise RecordError(f"rules: {error}") from None
    players = _field(record, "players", int)
    partnerships = _field(record, "partnerships", bool)
    seed = _field(record, "seed", (int, str))
    first_dealer = _field(record, "first_dealer", int)
    if not isinstance(players, int) or not 2 <= players <= 4:
        raise RecordError(f"players: must be 2, 3 or 4, got {players!r}")
    if partnerships and players != 4:
        raise RecordError("partnerships: need 4 players")
    try:
        rules.deals_per_hand(players)
    except RulesError as error:
        raise RecordError(f"rules: {error}") from None
    if not 0 <= first_dealer < players:
        raise RecordError(f"first_dealer: must be a seat 0 to {players - 1}")
    hands = _field(record, "hands", list)
    if not hands:
        raise RecordError("hands: a record holds at least one hand")
    decks: list[tuple[tuple[Card, ...], ...]] = []
    moves: list[tuple[str, ...]] = []
    for number, entry in enumerate(hands, start=1):
        if not isinstance(entry, Mapping):
            raise RecordError(f"hand {number}: must be a mapping")
        deals = _field(entry, "deals", list, f"hand {number}: ")
        if not deals:
            raise RecordError(f"hand {number}: deals: at least one deck")
        decks.append(
            tuple(_deck(d, f"hand {number}, deck {k}") for k, d in enumerate(deals, start=1))
        )
        hand_moves = _field(entry, "moves", list, f"hand {number}: ")
        if not all(isinstance(m, str) for m in hand_moves):
            raise RecordError(f"hand {number}: moves must be texts such as '4h:4c+7d'")
        moves.append(tuple(hand_moves))
    return RecordedMatch(
        rules,
        players,
        partnerships,
        seed,
        first_dealer,
        tuple(decks),
        tuple(entry.get("dealer") for entry in hands),
        tuple(moves),
    )


def _field(
    data: Mapping[str, Any], name: str, kind: type | tuple[type, ...], where: str = ""
) -> Any:
    if name not in data:
        raise RecordError(f"{where}{name}: missing")
    value = data[name]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise RecordError(f"{where}{name}: bad value {value!r}")
    return value


def _deck(data: object, where: str) -> tuple[Card, ...]:
    if not isinstance(data, Sequence) or isinstance(data, (str, bytes)) or len(data) != 40:
        raise RecordError(f"{where}: must list the 40 cards")
    try:
        deck = tuple(Card.parse(text) for text in data)
    except InvalidCardError as error:
        raise RecordError(f"{where}: {error}") from None
    if len(set(deck)) != 40:
        raise RecordError(f"{where}: a card appears twice")
    return deck
