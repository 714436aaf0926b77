"""``escoba simulate``: random matches, and a table of what happens on average."""

from __future__ import annotations

from typing import Annotated

import typer
from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..cheatsheet import category_label
from ..errors import EscobaError
from ..scoring import categories_in_play
from ..simulate import SimulationSummary, simulate
from .errors import fail
from .options import (
    BASE_PRESET,
    Partnerships,
    Players,
    RulesPreset,
    Seed,
    Settings,
    check_table,
    rules_from,
    rules_title,
)
from .progress import progress_bar
from .root import app

__all__ = ["simulate_command"]


@app.command("simulate")
def simulate_command(
    games: Annotated[
        int, typer.Option("--games", "-n", help="Number of matches to play (1 or more).")
    ] = 1000,
    rules_name: RulesPreset = BASE_PRESET,
    players: Players = 2,
    partnerships: Partnerships = False,
    seed: Seed = 0,
    settings: Settings = None,
) -> None:
    """Play random matches (every move a random legal one) and show what happens on average."""
    if games < 1:
        fail(f"--games: must be 1 or more, got {games}")
    check_table(players, partnerships)
    rules = rules_from(rules_name, settings)
    progress = progress_bar("simulating")
    with progress:
        task = progress.add_task("simulating", total=games)
        try:
            result = simulate(
                rules,
                matches=games,
                players=players,
                partnerships=partnerships,
                seed=seed,
                on_match=lambda done: progress.update(task, completed=done),
            )
        except EscobaError as error:
            fail(str(error))
    Console().print(_simulation_table(rules_title(rules_name, rules), result))


def _side_label(seats: tuple[int, ...]) -> str:
    if len(seats) == 1:
        return f"seat {seats[0]}"
    return "seats " + "+".join(map(str, seats))


def _simulation_table(title: str, result: SimulationSummary) -> Table:
    rules = result.rules
    setup = f"{result.players} players"
    if result.partnerships:
        setup += " in partnerships"
    table = Table(
        title=(
            f"Random play: {result.matches} matches of {title}, {setup}, seed {result.seed} "
            f"({result.hands} hands)"
        ),
        title_justify="left",
        box=box.SIMPLE_HEAD,
    )
    table.add_column("", no_wrap=True)
    table.add_column("mean", justify="right", no_wrap=True)
    table.add_column("meaning")
    notes = {"sweeps": "1 point each: also the sweeps per hand"}
    table.add_row(Text("points per hand", style="bold"), "", "all sides together")
    # The categories these rules score only: the others are always 0.
    for category in categories_in_play(rules):
        table.add_row(
            f"  {category_label(category, rules)}",
            f"{result.category_means[category]:.2f}",
            notes.get(category, ""),
        )
    table.add_row(
        Text("  total", style="bold"),
        Text(f"{result.mean_points_per_hand:.2f}", style="bold"),
        "the sum of the categories",
        end_section=True,
    )
    table.add_row(
        Text("first player's edge", style="bold"),
        f"{result.first_player_edge:+.2f}",
        f"per hand: side playing first ({result.opener_points_per_hand:.2f}) minus "
        f"dealer's side ({result.dealer_points_per_hand:.2f}); > 0 favours playing first",
        end_section=True,
    )
    fair = f"fair share {result.fair_share:.1%}"
    table.add_row(Text("per match", style="bold"), "", "")
    table.add_row("  hands", f"{result.mean_hands_per_match:.2f}", "hands until a side wins")
    table.add_row(
        "  opener of hand 1 wins",
        f"{result.opener_win_rate:.1%}",
        f"the side that played first in the first hand ({fair})",
    )
    for seats, share in zip(result.sides, result.win_share, strict=True):
        verb = "wins" if len(seats) == 1 else "win"
        table.add_row(f"  {_side_label(seats)} {verb}", f"{share:.1%}", fair)
    return table
