"""The puzzles' messages over HTTP: a puzzle as its player sees it (the seat's observation,
never the answer or another hand), a try of it, and what the try did to the puzzle rating."""

from __future__ import annotations

import math
from typing import Annotated, Any

from pydantic import AfterValidator, Field

from ...cards import DeckStyle
from .messages import Language, MatchView, _Message

__all__ = [
    "PuzzleAttempt",
    "PuzzleOutcome",
    "PuzzlePlayer",
    "PuzzleRatingValue",
    "PuzzleView",
]


def _finite(value: float) -> float:
    if not math.isfinite(value):
        raise ValueError(f"a rating's numbers are finite, not {value}")
    return value


class PuzzleRatingValue(_Message):
    """A puzzle rating as OpenSkill holds it: ``mu`` (the skill believed) and ``sigma`` (how
    unsure that is). A browser not signed in keeps its own and sends it with each try."""

    mu: Annotated[float, Field(ge=-100.0, le=150.0), AfterValidator(_finite)]
    sigma: Annotated[float, Field(gt=0.0, le=50.0), AfterValidator(_finite)]


class PuzzlePlayer(_Message):
    """A signed-in account's puzzle standing."""

    rating: int
    """On the ladder's Elo scale (1500 for a new account)."""
    value: PuzzleRatingValue
    streak: int
    """Puzzles solved in a row at their first try."""
    best_streak: int
    solved: int
    attempted: int


class PuzzleView(_Message):
    """A puzzle as its player sees it: the position from the seat to move (its own hand, the
    table, what each side has taken, the score, its legal moves) and what kind of puzzle it is.
    Never its answer, its record, another seat's hand or the stock."""

    id: str
    preset: str
    rules: dict[str, Any]
    players: int
    partnerships: bool
    deals_per_hand: int
    sides: list[list[int]]
    theme: str
    """One of ``take_the_sweep``, ``deny_the_sweep``, ``seven_of_coins``, ``primiera``,
    ``last_capture``, ``counting``."""
    title: str
    """The theme's title in the asked language."""
    rating: int
    """The puzzle's difficulty, on the ladder's Elo scale."""
    match: MatchView
    """The seat to move's view of the position (``match.seat``)."""
    player: PuzzlePlayer | None = None
    """The signed-in account's puzzle standing (None: not signed in)."""


class PuzzleAttempt(_Message):
    """A try: the move (the engine's text, ``7d:3s+4h``, ``Qd`` for a drop); the browser's own
    rating when not signed in (None: a new player's); the reader's language and deck, in which
    the answer is named and explained."""

    move: Annotated[str, Field(min_length=1, max_length=64)]
    rating: PuzzleRatingValue | None = None
    language: Language = "en"
    deck: DeckStyle = "french"


class PuzzleOutcome(_Message):
    """What a try did: whether it solved the puzzle, the answer (the engine's text and named
    in the reader's deck and language) with why it is best, and the rating before and after
    (signed in: the account's, else the one sent). ``counted``: False for a puzzle the account
    had tried before, which changes nothing."""

    solved: bool
    move: str
    """The move tried, as the engine writes it."""
    answer: str
    answer_name: str
    explanation: str
    rating_before: int
    rating_after: int
    rating: PuzzleRatingValue
    streak: int | None
    """The account's streak after the try; None when not signed in (the browser keeps it)."""
    counted: bool = True
