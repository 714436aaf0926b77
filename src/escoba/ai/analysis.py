"""The analysis of a finished match: every move valued against the best one, and classed.

Each move that stood in the match (a move taken back is not judged) is valued from the
position its player saw, by the search the coach uses (:class:`~escoba.ai.search.SearchPlayer`,
perfect-information Monte Carlo over inferred deals, which gives every legal move a value of
its own), with a larger budget; where the position is exact (two players, an empty stock:
:mod:`escoba.ai.exact`) by exhaustive search instead. A move's value is the expected points
of the hand for the mover's side, less the other sides' mean, after it; its *loss* is what it
gives up against the best move's.

A loss is classed as lichess classes a chess move, in points of the hand:

- under :data:`INACCURACY` (0.3): good, as good as the best give or take the search's noise;
- an *inaccuracy* from 0.3: a tenth of the sweeps' or the seven's point, often;
- a *mistake* from :data:`MISTAKE` (0.7): most of a point;
- a *blunder* from :data:`BLUNDER` (1.5): a point and a half or more, a sweep given away and
  a point category with it.

The thresholds are calibrated on the ladder (``benchmarks/analysis_thresholds.py``; docs/ai.md,
"Analysis"): the top level's own moves, valued by the deeper analysis, lose 0.3 points or more
in few of its moves and the beginner's in many. A player's *accuracy* is the mean over their
moves that had a choice of ``100 * exp(-loss)``: 100 for the best move, 74 for a loss of 0.3,
50 for 0.7, 22 for 1.5.

The analysis is a pure function of the record and the analyst's seed, so it is computed once
and stored; :func:`positions` and :meth:`Analyst.analyse_position` let a server analyse a match
a move at a time and resume where it stopped.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from ..cards import DeckStyle
from ..errors import EscobaError
from ..game import Game
from ..messages import Message, move_name, text
from ..moves import Move
from ..observation import Observation, Play, TakeBack
from ..records import replay
from .coach import Evaluator, advice_sentence, reasons_for
from .exact import exact_values, is_exact

__all__ = [
    "ANALYSIS_BUDGET",
    "ANALYSIS_VERSION",
    "BLUNDER",
    "INACCURACY",
    "JUDGEMENTS",
    "MISTAKE",
    "Analyst",
    "Judgement",
    "MatchAnalysis",
    "MoveAnalysis",
    "Position",
    "accuracy_of",
    "judgement_of",
    "positions",
]

INACCURACY: Final = 0.3
"""From this loss (points of the hand) a move is an inaccuracy."""
MISTAKE: Final = 0.7
"""From this loss a move is a mistake."""
BLUNDER: Final = 1.5
"""From this loss a move is a blunder."""
ANALYSIS_BUDGET: Final = 40_000
"""Positions the search visits a move (twice the coach's: the analysis is not in a hurry)."""
ANALYSIS_DEALS: Final = 100
"""Deals searched a move at least."""
ANALYSIS_VERSION: Final = 1
"""Bumped when the analysis would value moves differently: a stored one of an older version
is made again."""

Judgement = Literal["only", "best", "good", "inaccuracy", "mistake", "blunder"]
"""``only``: the one legal move; ``best``: the best move (or one of equal value)."""
JUDGEMENTS: Final[tuple[Judgement, ...]] = (
    "only",
    "best",
    "good",
    "inaccuracy",
    "mistake",
    "blunder",
)
_TIE: Final = 1e-6


def judgement_of(loss: float, *, choices: int = 2) -> Judgement:
    """The class of a move that gives up ``loss`` points against the best, among
    ``choices`` legal moves.

    >>> judgement_of(0.0), judgement_of(0.2), judgement_of(0.3), judgement_of(0.9)
    ('best', 'good', 'inaccuracy', 'mistake')
    >>> judgement_of(1.5), judgement_of(0.0, choices=1)
    ('blunder', 'only')
    """
    if choices <= 1:
        return "only"
    if loss <= _TIE:
        return "best"
    if loss < INACCURACY:
        return "good"
    if loss < MISTAKE:
        return "inaccuracy"
    if loss < BLUNDER:
        return "mistake"
    return "blunder"


def accuracy_of(losses: Iterable[float]) -> float | None:
    """A player's accuracy (0 to 100) from the losses of their moves that had a choice: the
    mean of ``100 * exp(-loss)``; None without any such move.

    >>> accuracy_of([0.0, 0.0]), round(accuracy_of([0.0, 1.5]) or 0, 1)
    (100.0, 61.2)
    """
    scores = [100.0 * math.exp(-max(0.0, loss)) for loss in losses]
    return sum(scores) / len(scores) if scores else None


@dataclass(frozen=True, slots=True)
class Position:
    """A move that stood in a match, and the position its player saw."""

    index: int
    """Its place among the match's moves that stood (0 for the first)."""
    step: int
    """Its place among the replay's steps (0 is the deal before any move; a move taken back
    and its take back are steps too): the step that shows the position after it."""
    observation: Observation
    move: Move
    totals: tuple[int, ...]
    """The match points of each side before the move's hand was scored."""


def positions(record: Mapping[str, Any]) -> list[Position]:
    """Every move that stood in a recorded match, in order, with what its player saw; a move
    taken back is left out (its take back is a step of the replay all the same)."""
    found: list[Position] = []
    step = 0
    before: Observation | None = None

    def seen(game: Game, event: Play | TakeBack | None) -> None:
        nonlocal step, before
        if isinstance(event, Play):
            step += 1
            if before is None:
                raise EscobaError(f"the record's move {event.move} came with no seat to move")
            found.append(Position(len(found), step, before, event.move, before.totals))
        elif isinstance(event, TakeBack):
            step += 1
            found.pop()  # the last move: the others keep their places
        seat = game.to_move
        before = None if seat is None else game.observation(seat)

    replay(record, on_move=seen)
    return found


def _message_data(message: Message) -> dict[str, Any]:
    return {"key": message.key, "params": dict(message.params)}


def _message_of(data: Mapping[str, Any]) -> Message:
    return Message(str(data["key"]), dict(data.get("params", {})))


@dataclass(frozen=True, slots=True)
class MoveAnalysis:
    """One move of a match, valued against the best move of its position."""

    index: int
    step: int
    hand_number: int
    seat: int
    side: int
    move: Move
    best: Move
    value: float
    """The move's expected points of the hand for the mover's side (less the others' mean)."""
    best_value: float
    choices: int
    """How many legal moves the position had."""
    exact: bool
    """Valued by exhaustive search (every card known), not estimated."""
    lead: float | None
    """With two sides: the first side's expected lead in match points after the move (the
    points scored in earlier hands, and this hand's expected points); None with three."""
    reasons: tuple[Message, ...] = ()
    """The coach's reasons on the move played, what went wrong first."""
    best_reasons: tuple[Message, ...] = ()
    """The coach's reasons on the best move."""

    @property
    def loss(self) -> float:
        return max(0.0, self.best_value - self.value)

    @property
    def judgement(self) -> Judgement:
        return judgement_of(self.loss, choices=self.choices)

    @property
    def is_costly(self) -> bool:
        """An inaccuracy, a mistake or a blunder."""
        return self.judgement in ("inaccuracy", "mistake", "blunder")

    def explanation(self, language: str = "en", deck: DeckStyle = "french") -> str:
        """What the move gave up and why, every card named in the reader's deck: "Costs about
        1.2 points against 7♦ taking 5♠ and 3♥. Leaves 11 on the table, which any 4 sweeps.
        Sweeps the table: a point of its own." (the played move's fault, then the best
        move's merit)."""
        verdict = text(
            "coach.costs_points",
            language,
            points=round(self.loss, 1),
            best=move_name(self.best, deck, language),
        )
        bad = [m for m in self.reasons if m.key in _FAULTS]
        good = [m for m in self.best_reasons if m.key not in _FAULTS | _PLAIN]
        words = [advice_sentence(m, deck, language) for m in (*bad[:1], *good[:1])]
        return " ".join([verdict, *words])

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "step": self.step,
            "hand_number": self.hand_number,
            "seat": self.seat,
            "side": self.side,
            "move": str(self.move),
            "best": str(self.best),
            "value": self.value,
            "best_value": self.best_value,
            "choices": self.choices,
            "exact": self.exact,
            "lead": self.lead,
            "reasons": [_message_data(m) for m in self.reasons],
            "best_reasons": [_message_data(m) for m in self.best_reasons],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MoveAnalysis:
        """Read back :meth:`to_dict`; raises :class:`~escoba.errors.EscobaError` naming a
        missing or bad field."""
        try:
            lead = data["lead"]
            return cls(
                index=int(data["index"]),
                step=int(data["step"]),
                hand_number=int(data["hand_number"]),
                seat=int(data["seat"]),
                side=int(data["side"]),
                move=Move.parse(str(data["move"])),
                best=Move.parse(str(data["best"])),
                value=float(data["value"]),
                best_value=float(data["best_value"]),
                choices=int(data["choices"]),
                exact=bool(data["exact"]),
                lead=None if lead is None else float(lead),
                reasons=tuple(_message_of(m) for m in data.get("reasons", ())),
                best_reasons=tuple(_message_of(m) for m in data.get("best_reasons", ())),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise EscobaError(f"a stored move analysis is malformed: {error!r}") from error


_FAULTS: Final = frozenset(
    {
        "coach.high_card_on_empty_table",
        "coach.leaves_sweep",
        "coach.leaves_match_sweep",
        "coach.gives_seven_of_coins",
    }
)
"""The coach's reasons that say what a move does wrong."""
_PLAIN: Final = frozenset({"coach.drops", "coach.takes_cards"})
"""Reasons too plain to say why the best move was better."""


@dataclass(frozen=True, slots=True)
class MatchAnalysis:
    """Every move of a match that stood, valued; and each seat's figures."""

    players: int
    moves: tuple[MoveAnalysis, ...]
    version: int = ANALYSIS_VERSION

    def of_seat(self, seat: int) -> list[MoveAnalysis]:
        """The moves a seat played."""
        return [m for m in self.moves if m.seat == seat]

    def accuracy(self, seat: int) -> float | None:
        """The seat's accuracy (:func:`accuracy_of`) over its moves that had a choice."""
        return accuracy_of(m.loss for m in self.of_seat(seat) if m.choices > 1)

    def counts(self, seat: int) -> dict[Judgement, int]:
        """How many of the seat's moves fell in each class."""
        counted: dict[Judgement, int] = dict.fromkeys(JUDGEMENTS, 0)
        for move in self.of_seat(seat):
            counted[move.judgement] += 1
        return counted

    def costly(self, seat: int | None = None) -> list[MoveAnalysis]:
        """The inaccuracies, mistakes and blunders (of one seat, or of all)."""
        return [m for m in self.moves if m.is_costly and (seat is None or m.seat == seat)]

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "players": self.players,
            "moves": [m.to_dict() for m in self.moves],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MatchAnalysis:
        try:
            return cls(
                players=int(data["players"]),
                moves=tuple(MoveAnalysis.from_dict(m) for m in data["moves"]),
                version=int(data.get("version", ANALYSIS_VERSION)),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise EscobaError(f"a stored match analysis is malformed: {error!r}") from error


class Analyst:
    """Values the moves of a match: exact where every card is known, else by ``evaluator``
    (by default the coach's search with :data:`ANALYSIS_BUDGET`)."""

    def __init__(
        self,
        evaluator: Evaluator | None = None,
        *,
        seed: int = 0,
        budget: int = ANALYSIS_BUDGET,
        min_deals: int = ANALYSIS_DEALS,
    ) -> None:
        if evaluator is None:
            from .search import SearchPlayer

            evaluator = SearchPlayer(seed, name="analysis", budget=budget, min_deals=min_deals)
        self._evaluator = evaluator

    def values(self, observation: Observation) -> tuple[list[tuple[Move, float]], bool]:
        """Every legal move of the position with its value, best first, and whether the
        values are exact."""
        if is_exact(observation):
            return exact_values(observation), True
        return self._evaluator.evaluate(observation, list(observation.legal_moves)), False

    def analyse_position(self, position: Position) -> MoveAnalysis:
        observation = position.observation
        ranked, exact = self.values(observation)
        best, best_value = ranked[0]
        value = next((v for m, v in ranked if m == position.move), None)
        if value is None:
            raise EscobaError(f"{position.move} is not a legal move of its position")
        if value >= best_value - _TIE:
            best, best_value = position.move, value  # the move played was as good as any
        good, bad = reasons_for(observation, position.move)
        best_good, best_bad = reasons_for(observation, best)
        side = observation.side
        lead = None
        if len(observation.sides) == 2:
            totals = position.totals
            lead = totals[0] - totals[1] + (value if side == 0 else -value)
        return MoveAnalysis(
            index=position.index,
            step=position.step,
            hand_number=observation.hand_number,
            seat=observation.seat,
            side=side,
            move=position.move,
            best=best,
            value=value,
            best_value=best_value,
            choices=len(ranked),
            exact=exact,
            lead=lead,
            reasons=(*bad, *good),
            best_reasons=(*best_good, *best_bad),
        )

    def analyse(
        self,
        record: Mapping[str, Any],
        *,
        done: Sequence[MoveAnalysis] = (),
        on_move: Callable[[MoveAnalysis, int], None] | None = None,
    ) -> MatchAnalysis:
        """The whole match's analysis. ``done``: the moves already analysed (a stored analysis
        cut short), kept and not searched again; ``on_move`` sees each new move's analysis
        and how many moves the match has (a progress bar, a store)."""
        found = positions(record)
        moves = list(done[: len(found)])
        for position in found[len(moves) :]:
            analysed = self.analyse_position(position)
            moves.append(analysed)
            if on_move is not None:
                on_move(analysed, len(found))
        return MatchAnalysis(players=int(record["players"]), moves=tuple(moves))
