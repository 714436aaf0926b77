"""``escoba play``: a match against the computer, full screen on a terminal, plain lines
otherwise; saved when the player quits."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from ..cards import DeckStyle
from ..errors import EscobaError
from ..rules import PRESET_SEATING, RuleSet
from .errors import fail
from .options import (
    BASE_PRESET,
    Deck,
    Language,
    Plain,
    RandomSeed,
    RulesPreset,
    Settings,
    check_table,
    parse_level,
    rules_from,
)
from .root import app, full_screen

__all__ = ["play_command"]

_Setup = tuple[RuleSet, int, bool, list[str], DeckStyle, str]


def _setup_screen(
    preset: str,
    rules: RuleSet,
    players: int,
    partnerships: bool,
    levels: list[str],
    deck: DeckStyle,
    language: str,
) -> _Setup | None:
    """The settings chosen on the setup screen (prefilled from these), None if cancelled."""
    try:
        from ..tui.setup import SetupApp, SetupChoice
    except ImportError:  # no Textual: the options given (and the plain game)
        return rules, players, partnerships, levels, deck, language
    chosen = SetupApp(
        SetupChoice(
            preset=preset,
            rules=rules,
            players=players,
            partnerships=partnerships,
            opponents=tuple(levels),
            deck=deck,
            language=language,
        )
    ).run()
    if chosen is None:
        return None
    return (
        chosen.rules,
        chosen.players,
        chosen.partnerships,
        list(chosen.opponents),
        chosen.deck,
        chosen.language,
    )


@app.command("play")
def play_command(
    plain: Plain = False,
    resume: Annotated[
        bool, typer.Option("--resume", help="Continue the match saved when you last quit.")
    ] = False,
    seed: RandomSeed = None,
    rules_name: RulesPreset = BASE_PRESET,
    players: Annotated[
        int | None,
        typer.Option(
            "--players",
            "-p",
            help="Seats at the table: 2, 3 or 4 (default: as the preset is usually played, "
            "4 for Scopone, else 2).",
            show_default=False,
        ),
    ] = None,
    partnerships: Annotated[
        bool | None,
        typer.Option(
            "--partnerships/--no-partnerships",
            help="With 4 players: seats 1+3 against 2+4 (default: as the preset is usually "
            "played, Scopone in partnerships).",
            show_default=False,
        ),
    ] = None,
    opponents: Annotated[
        list[str] | None,
        typer.Option(
            "--opponent",
            "-o",
            metavar="LEVEL",
            parser=parse_level,
            help="Computer level: once for every opponent, or once per opponent seat "
            "(default: medium).",
            show_default=False,
        ),
    ] = None,
    deck: Deck = None,
    language: Language = None,
    settings: Settings = None,
    quick: Annotated[
        bool,
        typer.Option(
            "--quick",
            help="Start at once with the options given (no setup screen on a terminal).",
        ),
    ] = False,
) -> None:
    """Play a match against the computer: you are seat 1; saved when you quit."""
    from ..play import LocalMatch, LocalMatchError, Saves

    saves = Saves()
    if resume:
        try:
            match = saves.load_current()
        except (LocalMatchError, OSError) as error:
            fail(f"--resume: cannot read {saves.current_path}: {error}")
        if match is None:
            fail(f"--resume: no saved match in {saves.root}")
        if deck is not None:
            match.deck = deck
        if language is not None:
            match.language = language
    else:
        # Scopone is seated four in two partnerships unless the person says otherwise.
        usual_players, usual_partnerships = PRESET_SEATING.get(rules_name, (2, False))
        if players is None:
            players = usual_players
        if partnerships is None:
            partnerships = usual_partnerships and players == usual_players
        check_table(players, partnerships)
        rules = rules_from(rules_name, settings)
        try:
            rules.deals_per_hand(players)  # the deck must share out among the seats
        except EscobaError as error:
            fail(f"--players {players}: {error}")
        levels = opponents or ["medium"]
        if len(levels) not in (1, players - 1):
            fail(
                f"--opponent: give one level, or one per opponent ({players - 1}), "
                f"got {len(levels)}: {' '.join(levels)}"
            )
        if seed is None:
            import secrets

            seed = secrets.randbelow(1_000_000)
        deck_style: DeckStyle = deck or "french"
        chosen_language = language or "en"
        if not quick and full_screen(plain):
            chosen = _setup_screen(
                rules_name, rules, players, partnerships, levels, deck_style, chosen_language
            )
            if chosen is None:
                return  # cancelled: no match
            rules, players, partnerships, levels, deck_style, chosen_language = chosen
        try:
            match = LocalMatch.new(
                rules,
                players=players,
                partnerships=partnerships,
                seed=seed,
                opponents=levels,
                deck=deck_style,
                language=chosen_language,
            )
        except EscobaError as error:
            fail(str(error))
    # Piped input or output gets plain lines: the full-screen game needs a terminal.
    if full_screen(plain):
        try:
            from ..tui import run_app
        except ImportError as error:
            typer.echo(
                f"Note: the full-screen game is not available ({error}); playing in plain mode.",
                err=True,
            )
        else:
            run_app(match, saves)
            return
    from ..play.plain import PlainGame

    raise typer.Exit(PlainGame(match, saves, sys.stdin, sys.stdout, resumed=resume).run())
