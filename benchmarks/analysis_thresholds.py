"""How the analysis classes each level's moves: the calibration of its thresholds.

Every level of the ladder plays two-player matches against ``hard`` (seats alternating, seeds
fixed); the analysis (:mod:`escoba.ai.analysis`, its own budget unless ``--budget``) values
the level's moves, and the table shows, per level, the mean loss a move that had a choice, the
share of those moves at or past each threshold (inaccuracy, mistake, blunder), and the mean
accuracy. Thresholds are well placed when ``hard`` (the analysis' own kind of search, with
a quarter of its budget) is rarely past them and each weaker level more often: the classes
then tell a player's slips from a level's.

    python benchmarks/analysis_thresholds.py [--matches 3] [--games escoba,scopa]
        [--budget 40000] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from escoba import RULESETS, Game
from escoba.ai import LEVELS, make_player
from escoba.ai.analysis import (
    ANALYSIS_BUDGET,
    ANALYSIS_DEALS,
    BLUNDER,
    INACCURACY,
    MISTAKE,
    Analyst,
    accuracy_of,
    positions,
)

SEED = 36


def play(game_name: str, level: str, seat: int, seed: int) -> Game:
    """A match of ``level`` at ``seat`` against ``hard``."""
    game = Game(RULESETS[game_name], players=2, seed=seed)
    players = {seat: make_player(level, seed), 1 - seat: make_player("hard", seed + 1)}
    while game.to_move is not None:
        observation = game.observation(game.to_move)
        game.play(players[game.to_move].choose(observation, observation.legal_moves))
    return game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=3, help="matches a level, per game")
    parser.add_argument("--games", default="escoba,scopa")
    parser.add_argument("--budget", type=int, default=ANALYSIS_BUDGET)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    games = args.games.split(",")
    console = Console()
    analyst = Analyst(seed=SEED, budget=args.budget, min_deals=ANALYSIS_DEALS)
    losses: dict[str, list[float]] = {level: [] for level in LEVELS}
    jobs = [(g, level, m) for level in LEVELS for g in games for m in range(args.matches)]
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
    ) as bar:
        task = bar.add_task("matches analysed", total=len(jobs))
        for game_name, level, number in jobs:
            seat = number % 2
            game = play(game_name, level, seat, SEED * 1000 + number)
            for position in positions(game.record()):
                if position.observation.seat != seat or len(position.observation.legal_moves) < 2:
                    continue
                losses[level].append(analyst.analyse_position(position).loss)
            bar.advance(task)
    table = Table(title=f"the levels' moves as the analysis classes them ({', '.join(games)})")
    for column in ("level", "moves", "mean loss", f"≥ {INACCURACY}", f"≥ {MISTAKE}"):
        table.add_column(column, justify="right")
    table.add_column(f"≥ {BLUNDER}", justify="right")
    table.add_column("accuracy", justify="right")
    rows = {}
    for level in LEVELS:
        found = losses[level]
        share = {
            t: sum(loss >= t for loss in found) / len(found) for t in (INACCURACY, MISTAKE, BLUNDER)
        }
        accuracy = accuracy_of(found) or 0.0
        rows[level] = {
            "moves": len(found),
            "mean_loss": statistics.fmean(found),
            "inaccuracy_or_worse": share[INACCURACY],
            "mistake_or_worse": share[MISTAKE],
            "blunder": share[BLUNDER],
            "accuracy": accuracy,
        }
        table.add_row(
            level,
            str(len(found)),
            f"{statistics.fmean(found):.3f}",
            *(f"{share[t]:.1%}" for t in (INACCURACY, MISTAKE, BLUNDER)),
            f"{accuracy:.1f}",
        )
    console.print(table)
    if args.json:
        args.json.write_text(
            json.dumps({"games": games, "budget": args.budget, "levels": rows}, indent=2)
        )


if __name__ == "__main__":
    main()
