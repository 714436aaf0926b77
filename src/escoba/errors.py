"""The exception types of the engine.

Every error the engine raises derives from :class:`EscobaError`; those about bad input also
derive from :class:`ValueError`, so ``except ValueError`` catches them as well.
"""

from __future__ import annotations

__all__ = [
    "EscobaError",
    "IllegalMoveError",
    "InvalidCardError",
    "InvalidMoveError",
    "InvalidQueryError",
    "InvalidScoreError",
    "RecordError",
    "RulesError",
]


class EscobaError(Exception):
    """Base of every error raised by the engine."""


class InvalidCardError(EscobaError, ValueError):
    """A card's text is malformed, or a value is not a card."""


class InvalidMoveError(EscobaError, ValueError):
    """A move's text is malformed (it names no card, or a capture is not a card)."""


class InvalidScoreError(EscobaError, ValueError):
    """Input to scoring is malformed: wrong number of sides, bad sweep counts."""


class IllegalMoveError(EscobaError, ValueError):
    """A well-formed move that the rules forbid in this position (or no move is possible now, or
    none can be taken back)."""


class InvalidQueryError(EscobaError, ValueError):
    """A question about a match names a seat or a hand that does not exist."""


class RulesError(EscobaError, ValueError):
    """A rule set option has a bad value, or options combine into nonsense."""


class RecordError(EscobaError, ValueError):
    """A match record is malformed or does not replay."""
