"""Match records: the JSON-able event log of a match, and its replay.

A record holds the rules with every option, the seats, the deck of every hand (and of every
voided deal) and every move, so a match is rebuilt exactly by replaying it; the seed is kept
too, so that a replayed unfinished match deals its later hands as the original would have.
A move taken back stays in its hand's moves, followed by the entry ``"take back"``.

The record's format, its builder and its reader live in :mod:`escoba.record_format`, below
the game (which writes and reads records through them); this module is their public home,
beside the replay. It imports the game, never the other way round.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .game import Game, OnMove, replay_moves
from .record_format import (
    RECORD_FORMAT,
    RECORD_VERSION,
    TAKE_BACK,
    HandRecord,
    MatchRecord,
    RecordedMatch,
    hand_record,
    match_record,
    parse_record,
)

__all__ = [
    "RECORD_FORMAT",
    "RECORD_VERSION",
    "TAKE_BACK",
    "HandRecord",
    "MatchRecord",
    "OnMove",
    "RecordedMatch",
    "hand_record",
    "match_record",
    "parse_record",
    "replay",
    "replay_moves",
]


def replay(record: Mapping[str, Any], on_move: OnMove | None = None) -> Game:
    """Rebuild a match from its record; raise RecordError naming what does not replay.

    ``on_move``, if given, sees the game once before the first move (with None) and after
    every move and take back, with its event (the replay viewers take their steps from it).
    """
    return Game.from_record(record, on_move)
