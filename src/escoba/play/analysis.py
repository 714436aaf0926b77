"""The analysis of a match as the terminal shows it: each side's accuracy, a chart of the
expected lead over the match with the costly moves marked, and each costly move with the
best move and the coach's reason, in the reader's language and deck.

The analysis itself is :mod:`escoba.ai.analysis`; this module only words and draws it.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterator, Sequence
from typing import Final

from ..ai.analysis import (
    ANALYSIS_BUDGET,
    ANALYSIS_DEALS,
    Analyst,
    Judgement,
    MatchAnalysis,
    MoveAnalysis,
)
from ..catalogue import message_key
from ..game import Game
from .render import Words

__all__ = [
    "JUDGEMENT_KEYS",
    "MARKS",
    "analyse_game",
    "analysis_lines",
    "lead_chart",
    "lead_sparkline",
]

MARKS: Final[dict[Judgement, str]] = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
"""How a costly move is marked beside its text, as chess players write it."""
JUDGEMENT_KEYS: Final[dict[Judgement, str]] = {
    "only": message_key("analysis.judgement_only"),
    "best": message_key("analysis.judgement_best"),
    "good": message_key("analysis.judgement_good"),
    "inaccuracy": message_key("analysis.judgement_inaccuracy"),
    "mistake": message_key("analysis.judgement_mistake"),
    "blunder": message_key("analysis.judgement_blunder"),
}
"""The name of each class, in the catalogue."""
_CHART_MARKS: Final[dict[Judgement, str]] = {"inaccuracy": "·", "mistake": "?", "blunder": "!"}
"""One character for each class on the chart (its key is printed under it)."""


def analyse_game(
    game: Game,
    budget: int = ANALYSIS_BUDGET,
    on_move: Callable[[MoveAnalysis, int], None] | None = None,
) -> MatchAnalysis:
    """The analysis of a recorded match (its moves that stood), searching ``budget``
    positions a move; seeded by the match, so the same file gives the same analysis."""
    seed = game.seed if isinstance(game.seed, int) else zlib.crc32(str(game.seed).encode())
    # A small budget draws fewer deals too: else the least deals would set the cost.
    deals = min(ANALYSIS_DEALS, max(2, budget // 400))
    analyst = Analyst(seed=seed, budget=budget, min_deals=deals)
    return analyst.analyse(game.record(), on_move=on_move)


def lead_chart(analysis: MatchAnalysis, width: int = 60, height: int = 9) -> list[str]:
    """The first side's expected lead over the match as lines of text: a column for every
    move (or for a few moves in turn on a narrow terminal), ``█`` from the zero line up
    where the first side leads and down where the other does, the costly moves marked on
    the top line. Empty where the analysis has no lead (three sides)."""
    leads = [(m.lead, m) for m in analysis.moves if m.lead is not None]
    if not leads or width < 1 or height < 3:
        return []
    columns = min(width, len(leads))
    per_column = len(leads) / columns
    values: list[float] = []
    marks: list[str] = []
    for column in range(columns):
        group = leads[int(column * per_column) : max(int((column + 1) * per_column), 1)]
        group = group or leads[-1:]
        values.append(sum(lead for lead, _ in group if lead is not None) / len(group))
        worst = max(
            (m for _, m in group if m.judgement in _CHART_MARKS),
            key=lambda m: m.loss,
            default=None,
        )
        marks.append(" " if worst is None else _CHART_MARKS[worst.judgement])
    half = (height - 1) // 2
    top = max(1.0, *(abs(v) for v in values))
    rows = []
    for row in range(half, -half - 1, -1):
        line = []
        for value in values:
            level = round(value / top * half)
            if row == 0:
                line.append("█" if level == 0 and value != 0 else "─")
            elif (row > 0 and 0 < row <= level) or (row < 0 and level <= row < 0):
                line.append("█")
            else:
                line.append(" ")
        label = f"{top:+.0f}" if row == half else f"{-top:+.0f}" if row == -half else ""
        rows.append(f"{label:>4} " + "".join(line).rstrip())
    rows.append("     " + "".join(marks).rstrip())
    return rows


_LEVELS: Final = "▁▂▃▄▅▆▇█"


def lead_sparkline(analysis: MatchAnalysis, width: int = 60) -> tuple[str, list[int]]:
    """The expected lead as one line of bars (low: the other side leads, high: the first
    side does; the middle bar is even), and for each move which column of the line shows it
    (for a cursor under the line). Empty where the analysis has no lead."""
    leads = [m.lead for m in analysis.moves]
    if not leads or any(lead is None for lead in leads) or width < 1:
        return "", []
    values = [lead or 0.0 for lead in leads]
    columns = min(width, len(values))
    column_of = [index * columns // len(values) for index in range(len(values))]
    top = max(1.0, *(abs(v) for v in values))
    line = []
    for column in range(columns):
        group = [v for v, c in zip(values, column_of, strict=True) if c == column]
        mean = sum(group) / len(group)
        level = round((mean / top + 1) / 2 * (len(_LEVELS) - 1))
        line.append(_LEVELS[level])
    return "".join(line), column_of


def analysis_lines(game: Game, analysis: MatchAnalysis, words: Words) -> Iterator[str]:
    """The analysis in words: the title, each side's seats' accuracy and costly moves, the
    chart and its key, then every costly move with the best move and the reason."""
    w = words
    yield w.text("analysis.title")
    for seat in range(game.players):
        accuracy = analysis.accuracy(seat)
        counts = analysis.counts(seat)
        figures = ", ".join(
            (
                w.plural("analysis.count_inaccuracy", counts["inaccuracy"]),
                w.plural("analysis.count_mistake", counts["mistake"]),
                w.plural("analysis.count_blunder", counts["blunder"]),
            )
        )
        shown = "—" if accuracy is None else f"{accuracy:.0f}"
        yield "  " + w.text("analysis.accuracy", who=w.seat(seat), accuracy=shown, counts=figures)
    chart = lead_chart(analysis)
    if chart:
        yield ""
        yield w.text("analysis.chart", side=w.side(0))
        yield from chart
        yield "     " + w.text(
            "analysis.chart_key",
            inaccuracy=_CHART_MARKS["inaccuracy"],
            mistake=_CHART_MARKS["mistake"],
            blunder=_CHART_MARKS["blunder"],
        )
    costly = analysis.costly()
    yield ""
    if not costly:
        yield w.text("analysis.none")
        return
    for move in costly:
        yield from costly_lines(move, words)


def costly_lines(move: MoveAnalysis, words: Words) -> Sequence[str]:
    """A costly move: where, who, what was played and its class; then the coach's words."""
    w = words
    head = w.text(
        "analysis.costly_move",
        hand=move.hand_number + 1,
        who=w.seat(move.seat),
        move=w.move_phrase(move.move),
        mark=MARKS.get(move.judgement, ""),
        judgement=w.text(JUDGEMENT_KEYS[move.judgement]),
    )
    return ["  " + head, "    " + move.explanation(w.language, w.deck)]
