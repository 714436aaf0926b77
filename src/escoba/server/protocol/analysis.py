"""The messages of match analyses (HTTP, ``docs/protocol.md``, "Match analysis")."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

__all__ = [
    "AnalysedMove",
    "AnalysisPlayer",
    "AnalysisStatus",
    "AnalysisView",
    "JudgementCounts",
]

AnalysisStatus = Literal["none", "queued", "running", "done", "failed"]
"""``none``: never asked for (or asked where no analysis is made); ``queued``: waiting for
a worker; ``running``: moves are being analysed (``done`` of ``total``); ``failed``: it could
not be made (asking again makes it anew)."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class JudgementCounts(_Model):
    """How many of a seat's moves fell in each class."""

    only: int
    best: int
    good: int
    inaccuracy: int
    mistake: int
    blunder: int


class AnalysisPlayer(_Model):
    """A seat's figures over its moves analysed so far."""

    seat: int
    accuracy: float | None
    """0 to 100: the mean of ``100 * exp(-loss)`` over its moves that had a choice; None
    without any such move."""
    counts: JudgementCounts


class AnalysedMove(_Model):
    """One move that stood in the match, valued against the best move of its position."""

    index: int
    """Its place among the match's moves that stood (0 for the first)."""
    step: int
    """The replay's step that shows the position after it (``steps[step]`` of the replay)."""
    hand_number: int
    seat: int
    side: int
    move: str
    best: str
    """The best move of the position (the move played when it was as good as any)."""
    value: float
    """The move's expected points of the hand for the mover's side, less the others' mean."""
    best_value: float
    loss: float
    """What the move gave up against the best, in points of the hand (0 or more)."""
    judgement: Literal["only", "best", "good", "inaccuracy", "mistake", "blunder"]
    exact: bool
    """Valued by exhaustive search (every card known), not estimated."""
    lead: float | None
    """With two sides: the first side's expected lead in match points after the move; None
    with three."""
    text: str | None
    """What the move gave up and why, in the asked language and deck, for an inaccuracy,
    a mistake or a blunder; None otherwise."""


class AnalysisView(_Model):
    """A finished match's analysis, as far as it has gone."""

    match: int
    status: AnalysisStatus
    done: int
    """Moves analysed so far."""
    total: int | None
    """Moves to analyse; None until the analysis has begun."""
    version: int
    players: list[AnalysisPlayer]
    """Every seat, in seat order."""
    moves: list[AnalysedMove]
    """The moves analysed so far, in order."""
