"""``escoba arena``: computer players against each other on duplicate deals."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Annotated

import typer
from rich import box
from rich.console import Console
from rich.table import Table

from ..ai import FORMER_LEVELS, LEVELS
from ..ai.ratings import level_rating
from ..arena import ArenaGame, ArenaResult, Entrant, play_arena
from ..errors import EscobaError
from .errors import fail
from .options import BASE_PRESET, Partnerships, RulesPreset, Seed, Settings, rules_from, rules_title
from .progress import progress_bar
from .root import app

__all__ = ["arena_command"]

OPENSPIEL = "openspiel-"
"""How the names of OpenSpiel's searchers begin; the openspiel extra knows which there are."""


def _player_name(text: str) -> str:
    """A computer level, or an OpenSpiel searcher (checked when it is made)."""
    name = text.strip().lower()
    if name in LEVELS or name.startswith(OPENSPIEL):
        return name
    if name in FORMER_LEVELS:
        return FORMER_LEVELS[name]
    raise typer.BadParameter(
        f"unknown player level {text!r}; choose one of {', '.join(LEVELS)}, "
        f"or an OpenSpiel searcher ({OPENSPIEL}...)"
    )


@app.command("arena")
def arena_command(
    names: Annotated[
        list[str],
        typer.Argument(
            metavar="PLAYER...",
            parser=_player_name,
            help=(
                "Computer levels, one per seat (e.g. beginner easy), or OpenSpiel's searchers "
                "openspiel-ismcts and openspiel-mcts (which sees every hand; both need the "
                "openspiel extra). With --partnerships: 2 (one per side, playing both its "
                "seats) or 4 (one per seat: the 1st and 3rd against the 2nd and 4th)."
            ),
            show_default=False,
        ),
    ],
    hands: Annotated[
        int,
        typer.Option(
            "--hands", "-n", help="Duplicate hands: decks, each played in every seat rotation."
        ),
    ] = 200,
    rules_name: RulesPreset = BASE_PRESET,
    players: Annotated[
        int | None,
        typer.Option(
            "--players",
            "-p",
            help="Seats at the table: 2, 3 or 4 (default: one per PLAYER, 4 with --partnerships).",
            show_default=False,
        ),
    ] = None,
    partnerships: Partnerships = False,
    seed: Seed = 0,
    json_file: Annotated[
        Path | None,
        typer.Option(
            "--json", metavar="FILE", help="Also write the figures to FILE as JSON.", dir_okay=False
        ),
    ] = None,
    simulations: Annotated[
        int,
        typer.Option(
            "--simulations", help="Budget of the openspiel-* players: simulations per move."
        ),
    ] = 100,
    rollouts: Annotated[
        int,
        typer.Option(
            "--rollouts", help="Random rollouts per leaf of the openspiel-* players' search."
        ),
    ] = 1,
    settings: Settings = None,
) -> None:
    """Play computer levels against each other on duplicate deals (every deck in every seat
    rotation, so the luck of the cards cancels) and compare them."""
    if hands < 1:
        fail(f"--hands: must be 1 or more, got {hands}")
    if players is not None and players not in (2, 3, 4):
        fail(f"--players: must be 2, 3 or 4, got {players}")
    seats = players if players is not None else (4 if partnerships else len(names))
    if partnerships and seats != 4:
        fail(f"--partnerships: needs --players 4, got --players {seats}")
    if partnerships and len(names) not in (2, 4):
        fail(
            f"--partnerships: give 2 players (one per side) or 4 (one per seat), "
            f"got {len(names)}: {' '.join(names)}"
        )
    if not partnerships and players is None and len(names) not in (2, 3, 4):
        fail(f"give 2, 3 or 4 PLAYERs, one per seat, got {len(names)}: {' '.join(names)}")
    if not partnerships and len(names) != seats:
        fail(f"--players {seats}: give one PLAYER per seat, got {len(names)}: {' '.join(names)}")
    rules = rules_from(rules_name, settings)
    entrants = _arena_entrants(names, simulations, rollouts)
    progress = progress_bar("arena")

    def advance(game: ArenaGame) -> None:
        progress.update(task, completed=game.number, total=game.total)

    with progress:
        task = progress.add_task("arena", total=None)
        try:
            result = play_arena(
                entrants,
                rules=rules,
                hands=hands,
                seats=seats,
                partnerships=partnerships,
                seed=seed,
                on_game=advance,
            )
        except EscobaError as error:
            fail(str(error))
    if json_file is not None:
        try:
            json_file.write_text(json.dumps(result.to_json(), indent=2) + "\n", encoding="utf-8")
        except OSError as error:
            fail(f"--json: cannot write {json_file}: {error.strerror or error}")
    Console().print(_arena_table(rules_title(rules_name, rules), result))


def _arena_entrants(names: list[str], simulations: int, rollouts: int) -> list[str | Entrant]:
    """Level names as they are; OpenSpiel's searchers made with their budgets."""
    if simulations < 1:
        fail(f"--simulations: must be 1 or more, got {simulations}")
    if rollouts < 1:
        fail(f"--rollouts: must be 1 or more, got {rollouts}")
    entrants: list[str | Entrant] = []
    for name in names:
        if not name.startswith(OPENSPIEL):
            entrants.append(name)
            continue
        try:
            from ..openspiel.players import entrant
        except ImportError:
            fail(f"{name} needs the openspiel extra: pip install 'escoba[openspiel]'")
        try:
            entrants.append(entrant(name, simulations=simulations, rollouts=rollouts))
        except EscobaError as error:
            fail(str(error))
    return entrants


def _plus_minus(mean: float, ci: tuple[float, float], signed: bool = False) -> str:
    text = f"{mean:+.2f}" if signed else f"{mean:.2f}"
    half = (ci[1] - ci[0]) / 2
    return f"{text} ± {half:.2f}" if math.isfinite(half) else f"{text} ± ?"


def _arena_table(title: str, result: ArenaResult) -> Table:
    setup = f"{result.seats} players"
    if result.partnerships:
        setup += " in partnerships"
    table = Table(
        title=(
            f"Arena: {result.hands} duplicate hands of {title}, {setup}, {result.rotations} "
            f"seat rotations each ({result.games} hands played), seed {result.seed}, "
            f"{result.seconds:.1f} s"
        ),
        title_justify="left",
        caption=(
            "points and margin: per hand played, ± the 95% confidence interval over the duplicate "
            "hands; margin: own points minus the opponents' mean; W-D-L: duplicate hands won, "
            "drawn and lost, by points over all rotations; matches: each rotation's hands "
            f"chained into matches to {result.rules.target_score} ({result.matches} completed); "
            "Elo: difference to the average opponent, from the score rate, draws counting half; "
            "rated: the level's rating in this game from the ladder's round robin (docs/ai.md)"
        ),
        caption_justify="left",
        box=box.SIMPLE_HEAD,
        expand=True,
    )
    table.add_column("player", style="bold", no_wrap=True)
    table.add_column("points/hand", justify="right", no_wrap=True)
    table.add_column("margin", justify="right", no_wrap=True)
    table.add_column("W-D-L", justify="right", no_wrap=True)
    table.add_column("matches", justify="right", no_wrap=True)
    table.add_column("score", justify="right", no_wrap=True)
    table.add_column("Elo", justify="right", no_wrap=True)
    table.add_column("rated", justify="right", no_wrap=True)
    for index, name in enumerate(result.players):
        rating = level_rating(name, result.rules)
        table.add_row(
            name,
            _plus_minus(result.mean_points[index], result.ci95[index]),
            _plus_minus(result.margin[index], result.margin_ci95[index], signed=True),
            f"{result.wins[index]}-{result.draws[index]}-{result.losses[index]}",
            str(result.match_wins[index]),
            f"{result.score_rate[index]:.0%}",
            f"{result.elo[index]:+.0f}",
            "—" if rating is None else f"{rating.about}",
        )
    return table
