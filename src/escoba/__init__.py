"""Escoba, Scopa and Escova: a rules engine for the fishing card games of the 15 and the match.

The public API, re-exported; see docs/library.md for a tour.
"""

from .captures import captures
from .cards import DECK, DECK_STYLES, Card, DeckStyle, Rank, Suit, card_name, parse_cards
from .errors import (
    EscobaError,
    IllegalMoveError,
    InvalidCardError,
    InvalidMoveError,
    InvalidQueryError,
    InvalidScoreError,
    RecordError,
    RulesError,
)
from .explanation import HandExplanation, SideTally, explain_hand
from .game import Game
from .moves import Move
from .observation import (
    Deal,
    Event,
    InitialSweep,
    Observation,
    Play,
    PublicView,
    Redeal,
    TakeBack,
)
from .rules import RULESETS, RuleSet, preset_name
from .scoring import CATEGORIES, HandResult, HandScore, score_hand
from .snapshot import Snapshot

__all__ = [
    "CATEGORIES",
    "DECK",
    "DECK_STYLES",
    "RULESETS",
    "Card",
    "Deal",
    "DeckStyle",
    "EscobaError",
    "Event",
    "Game",
    "HandExplanation",
    "HandResult",
    "HandScore",
    "IllegalMoveError",
    "InitialSweep",
    "InvalidCardError",
    "InvalidMoveError",
    "InvalidQueryError",
    "InvalidScoreError",
    "Move",
    "Observation",
    "Play",
    "PublicView",
    "Rank",
    "RecordError",
    "Redeal",
    "RuleSet",
    "RulesError",
    "SideTally",
    "Snapshot",
    "Suit",
    "TakeBack",
    "captures",
    "card_name",
    "explain_hand",
    "parse_cards",
    "preset_name",
    "score_hand",
]

__version__ = "0.1.0"
