"""``escoba replay FILE``: a recorded match move by move, every seat's cards shown."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .errors import fail
from .options import Deck, Language, Plain
from .root import app, full_screen

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
) -> None:
    """Show a recorded match move by move, every seat's cards shown (full screen on a
    terminal; plain lines with --plain or when piped)."""
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
    if full_screen(plain):
        try:
            from ..tui import run_replay
        except ImportError:
            pass  # no Textual: plain lines
        else:
            run_replay(game, levels, person, deck_style, chosen_language)
            return
    words = Words(deck_style, chosen_language, game.sides, levels, you=person, rules=game.rules)
    for line in replay_lines(game, words):
        typer.echo(line)
