"""``escoba replay FILE``: a recorded match move by move, every seat's cards shown."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from .errors import fail
from .options import Deck, Language, Plain
from .root import app, full_screen

if TYPE_CHECKING:
    from ..ai.analysis import MatchAnalysis, MoveAnalysis
    from ..game import Game
    from ..play.render import Words

__all__ = ["replay_command"]


@app.command("replay")
def replay_command(
    file: Annotated[
        Path,
        typer.Argument(
            metavar="FILE",
            help="A finished or saved match (escoba play keeps them), or a match record.",
            show_default=False,
            dir_okay=False,
        ),
    ],
    plain: Plain = False,
    deck: Deck = None,
    language: Language = None,
    analyse: Annotated[
        bool,
        typer.Option(
            "--analyse",
            help="Value every move against the best one first (about a minute a match): "
            "each side's accuracy, a chart of the expected lead, and each costly move with "
            "the best move and why.",
        ),
    ] = False,
    analysis_budget: Annotated[
        int,
        typer.Option(
            "--analysis-budget",
            min=100,
            help="Positions the analysis searches a move: fewer is quicker and rougher.",
        ),
    ] = 40_000,  # ANALYSIS_BUDGET (not imported: the command starts without the search)
) -> None:
    """Show a recorded match move by move, every seat's cards shown (full screen on a
    terminal; plain lines with --plain or when piped). With --analyse, the analysis of
    every move too."""
    from ..play.local_match import LocalMatchError
    from ..play.render import Words
    from ..play.replay import load, replay_lines

    try:
        text = file.read_text(encoding="utf-8")
    except OSError as error:
        fail(f"cannot read {file}: {error.strerror or error}")
    except UnicodeDecodeError:
        fail(f"{file}: not a text file")
    try:
        game, levels, person, saved_deck, saved_language = load(text)
    except LocalMatchError as error:
        fail(f"{file}: {error}")
    deck_style = deck or saved_deck
    chosen_language = language or saved_language
    words = Words(deck_style, chosen_language, game.sides, levels, you=person, rules=game.rules)
    analysis = _analysis(game, words, analysis_budget) if analyse else None
    if full_screen(plain):
        try:
            from ..tui import run_replay
        except ImportError:
            pass  # no Textual: plain lines
        else:
            run_replay(game, levels, person, deck_style, chosen_language, analysis)
            return
    for line in replay_lines(game, words):
        typer.echo(line)
    if analysis is not None:
        from ..play.analysis import analysis_lines

        typer.echo("")
        for line in analysis_lines(game, analysis, words):
            typer.echo(line)


def _analysis(game: Game, words: Words, budget: int) -> MatchAnalysis:
    """The match's analysis, with a progress bar on a terminal."""
    from ..play.analysis import analyse_game
    from .progress import progress_bar

    with progress_bar(words.text("analysis.progress")) as bar:
        task = bar.add_task("", total=None)

        def advance(_: MoveAnalysis, total: int) -> None:
            bar.update(task, advance=1, total=total)

        return analyse_game(game, budget, on_move=advance)
