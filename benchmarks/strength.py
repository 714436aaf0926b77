"""Strength against time: the search at several budgets against a fixed opponent.

Each budget plays duplicate hands (every deck once with the seats swapped, as the arena does)
against the opponent in one game, and records the searching player's seconds per move. The
table gives points per hand (mean difference with its 95% interval) against the median time
per move; the plot (matplotlib, a PNG) draws the same with the levels marked.

    python benchmarks/strength.py [--game escoba] [--opponent baseline]
                                  [--budgets 200,1000,30000:60,...] [--hands 200]
                                  [--workers 2] [--json FILE] [--png docs/strength-escoba.png]

The run is long (the top budgets think for seconds a move): about 6 hours on two cores with
the defaults; ``--hands`` and ``--budgets`` shorten it (``30000:60``: 60 hands at that budget).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import statistics
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from escoba import RULESETS, Move, Observation
from escoba.ai import Player, make_player
from escoba.ai.ismcts import FORMER_LEVEL_WALKS, TreeSearchPlayer
from escoba.arena import Entrant, play_arena

DEFAULT_BUDGETS = (300, 1_000, 3_000, 10_000, 30_000, 100_000, 300_000, 600_000)
CHUNK = 5  # duplicate hands per task


class Timed:
    """A player that keeps the seconds each of its choices took."""

    def __init__(self, player: Player, seconds: list[float]) -> None:
        self.player = player
        self.seconds = seconds
        self.name = player.name

    def choose(self, observation: Observation, legal: Sequence[Move]) -> Move:
        start = time.perf_counter()
        move = self.player.choose(observation, legal)
        self.seconds.append(time.perf_counter() - start)
        return move


def task(job: tuple[int, str, str, int]) -> tuple[int, list[float], list[float]]:
    """``CHUNK`` duplicate hands of the search at ``budget`` against ``opponent``: the
    budget, the margin of every duplicate hand and the seconds of every move."""
    budget, opponent, game, seed = job
    seconds: list[float] = []

    def searcher(player_seed: int) -> Player:
        return Timed(
            TreeSearchPlayer(player_seed, name=f"search {budget}", iterations=budget), seconds
        )

    margins: dict[int, list[int]] = {}
    play_arena(
        [Entrant(f"search {budget}", searcher), Entrant.level(opponent)],
        rules=RULESETS[game],
        hands=CHUNK,
        seed=seed,
        on_game=lambda g: margins.setdefault(g.hand, []).append(g.points[0] - g.points[1]),
    )
    return budget, [sum(m) / len(m) for m in margins.values()], seconds


def interval(values: list[float]) -> tuple[float, float, float]:
    n = len(values)
    mean = math.fsum(values) / n
    sd = statistics.stdev(values) if n > 1 else math.inf
    half = 1.96 * sd / math.sqrt(n)
    return mean, mean - half, mean + half


def plot(rows: list[dict[str, Any]], game: str, opponent: str, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.2), dpi=120)
    x = [row["median_ms"] for row in rows]
    y = [row["mean"] for row in rows]
    low = [row["mean"] - row["low"] for row in rows]
    high = [row["high"] - row["mean"] for row in rows]
    ax.errorbar(x, y, yerr=[low, high], fmt="o-", capsize=3, color="#1f5f8b", label="search")
    for row in rows:
        if row["level"]:
            ax.annotate(
                row["level"],
                (row["median_ms"], row["mean"]),
                textcoords="offset points",
                xytext=(6, -14),
                fontsize=9,
                color="#8b1f1f",
                fontweight="bold",
            )
    ax.axhline(0.0, color="grey", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_xlabel("median time per move (ms, 2-core machine)")
    ax.set_ylabel(f"points per hand against {opponent}")
    ax.set_title(f"{game}, 2 players: strength against time (95% intervals)")
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--game", default="escoba", choices=sorted(RULESETS))
    parser.add_argument("--opponent", default="baseline")
    parser.add_argument(
        "--budgets",
        default=",".join(map(str, DEFAULT_BUDGETS)),
        help="walks per move, each optionally with its own hands: 1000,30000:60",
    )
    parser.add_argument("--hands", type=int, default=200, help="duplicate hands per budget")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--png", type=Path)
    args = parser.parse_args()
    hands = {
        int(budget): int(count or args.hands)
        for budget, _, count in (b.partition(":") for b in args.budgets.split(","))
    }
    budgets = list(hands)
    console = Console()
    # The same decks for every budget, so the budgets differ by their play alone.
    jobs = [
        (budget, args.opponent, args.game, args.seed + i)
        for budget in budgets
        for i in range(max(1, hands[budget] // CHUNK))
    ]
    margins: dict[int, list[float]] = {b: [] for b in budgets}
    seconds: dict[int, list[float]] = {b: [] for b in budgets}
    with (
        Progress(console=console) as progress,
        multiprocessing.Pool(args.workers) as pool,
    ):
        bar = progress.add_task("budgets", total=len(jobs) * CHUNK)
        for budget, found, timed in pool.imap_unordered(task, jobs):
            margins[budget].extend(found)
            seconds[budget].extend(timed)
            progress.advance(bar, CHUNK)
    levels = {budget: f"former {level}" for level, budget in FORMER_LEVEL_WALKS.items()}
    rows = []
    for budget in budgets:
        mean, low, high = interval(margins[budget])
        rows.append(
            {
                "budget": budget,
                "level": levels.get(budget, ""),
                "hands": len(margins[budget]),
                "median_ms": 1000 * statistics.median(seconds[budget]),
                "mean_ms": 1000 * statistics.fmean(seconds[budget]),
                "mean": mean,
                "low": low,
                "high": high,
            }
        )
    opponent_ms = _opponent_ms(args.opponent, args.game)
    table = Table(title=f"{args.game}, 2 players: the search against {args.opponent}")
    for column in ("budget", "level", "ms per move (median)", "points per hand", "95% interval"):
        table.add_column(column, justify="left" if column == "level" else "right")
    for row in rows:
        table.add_row(
            f"{row['budget']:,}",
            row["level"],
            f"{row['median_ms']:.1f}",
            f"{row['mean']:+.3f}",
            f"{row['low']:+.3f} .. {row['high']:+.3f}",
        )
    console.print(table)
    console.print(f"{args.opponent} itself: {opponent_ms:.1f} ms per move (median)")
    if args.json:
        args.json.write_text(json.dumps({"game": args.game, "rows": rows}, indent=2))
    if args.png:
        plot(rows, args.game, args.opponent, args.png)


def _opponent_ms(level: str, game: str) -> float:
    """The opponent's own median time per move over a couple of hands against itself."""
    seconds: list[float] = []
    play_arena(
        [
            Entrant(level, lambda s: Timed(make_player(level, s), seconds)),
            Entrant.level(level),
        ],
        rules=RULESETS[game],
        hands=2,
        seed=1,
    )
    return 1000 * statistics.median(seconds)


if __name__ == "__main__":
    main()
