"""Computer players: milliseconds per move for every level, and the strength ladder.

The timing plays a few hands of each level (and of the frozen ``baseline``) against
``medium`` and prints the median and 95th percentile of its time per move, over every move and
over the moves with a choice. The ladder plays each level against the one below it on
duplicate deals (every deck played once with the seats swapped, as ``benchmarks/duel.py``
does) in 2-player Escoba and 2-player Scopa, and prints the mean point difference per hand
with its 95% confidence interval: a level beats the one below when the whole interval is
above zero.

    python benchmarks/ai.py [--hands 200] [--timing-hands 6] [--seats 2]
                            [--pairs hard-medium,expert-baseline,...] [--workers 2] [--json FILE]

``--pairs ''`` skips the ladder; ``master`` thinks for half a second a move, so the whole
ladder at the default 200 hands takes about two hours on two cores.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from duel import CHUNK, summary, task
from escoba import RULESETS, Game
from escoba.ai import LEVELS, make_player

GAMES = ("escoba", "scopa")


def time_level(level: str, preset: str, hands: int, seats: int) -> tuple[list[float], list[float]]:
    """Seconds per move of ``level`` in seat 0 against ``medium`` for a few hands: every
    move, and the moves with more than one legal choice."""
    every: list[float] = []
    choices: list[float] = []
    rules = RULESETS[preset].replace(target_score=1000)
    partnerships = seats == 4
    for deck in range(hands):
        game = Game(rules, seats, partnerships, seed=f"timing:{deck}")
        players = [make_player(level if s == 0 else "medium", seed=deck) for s in range(seats)]
        while game.hand_number == 0 and (seat := game.to_move) is not None:
            observation, legal = game.observation(seat), game.legal_moves()
            start = time.perf_counter()
            move = players[seat].choose(observation, legal)
            if seat == 0:
                every.append(time.perf_counter() - start)
                if len(legal) > 1:
                    choices.append(every[-1])
            game.play(move)
    return every, choices


def percentiles(seconds: list[float]) -> tuple[float, float]:
    ms = sorted(s * 1000 for s in seconds)
    return statistics.median(ms), ms[min(len(ms) - 1, int(0.95 * len(ms)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=200, help="duplicate hands per rung")
    parser.add_argument("--timing-hands", type=int, default=6, help="hands per level timed")
    parser.add_argument("--seats", type=int, default=2, choices=(2, 4), help="for the timing")
    parser.add_argument("--levels", default=",".join((*LEVELS, "baseline")), help="to time")
    parser.add_argument(
        "--pairs", default=None, help="rungs to play, e.g. hard-medium (default: each level "
        "against the one below)"
    )  # fmt: skip
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    console = Console()
    if args.pairs is None:
        rungs = [(LEVELS[i + 1], LEVELS[i]) for i in range(len(LEVELS) - 1)]
    else:
        rungs = [(p.split("-")[0], p.split("-")[1]) for p in args.pairs.split(",") if p]

    timing: list[dict[str, Any]] = []
    levels = [level for level in args.levels.split(",") if level] if args.timing_hands else []
    with Progress(console=console, transient=True) as progress:
        bar = progress.add_task("timing moves", total=len(levels) * len(GAMES))
        for level in levels:
            for preset in GAMES:
                every, choices = time_level(level, preset, args.timing_hands, args.seats)
                median, p95 = percentiles(every)
                choice_median, choice_p95 = percentiles(choices)
                timing.append(
                    {
                        "level": level,
                        "game": preset,
                        "seats": args.seats,
                        "moves": len(every),
                        "median_ms": median,
                        "p95_ms": p95,
                        "choice_median_ms": choice_median,
                        "choice_p95_ms": choice_p95,
                    }
                )
                progress.advance(bar)
    table = Table(title=f"Milliseconds per move ({args.seats} players, against medium)")
    for column in ("level", "game", "moves", "median", "95th pct", "with a choice: median",
                   "95th pct"):  # fmt: skip
        table.add_column(column, justify="left" if column in ("level", "game") else "right")
    for row in timing:
        table.add_row(
            row["level"],
            row["game"],
            str(row["moves"]),
            f"{row['median_ms']:.1f}",
            f"{row['p95_ms']:.1f}",
            f"{row['choice_median_ms']:.1f}",
            f"{row['choice_p95_ms']:.1f}",
        )
    if timing:
        console.print(table)

    ladder: list[dict[str, Any]] = []
    if rungs:
        jobs = [
            (stronger, weaker, game, 2, False, 2026, first)
            for stronger, weaker in rungs
            for game in GAMES
            for first in range(0, args.hands, CHUNK)
        ]
        margins: dict[tuple[str, str, str], list[float]] = {}
        with (
            Progress(console=console, transient=True) as progress,
            multiprocessing.Pool(args.workers) as pool,
        ):
            bar = progress.add_task("ladder", total=len(jobs) * CHUNK)
            for job, (found, _seconds) in zip(jobs, pool.imap(task, jobs), strict=True):
                margins.setdefault((job[0], job[1], job[2]), []).extend(found)
                progress.advance(bar, len(found))
        table = Table(title=f"Strength ladder: duplicate hands, 2 players, {args.hands} per rung")
        for column in ("game", "rung", "points per hand", "95% interval", "beats"):
            table.add_column(column)
        for (stronger, weaker, game), found in margins.items():
            mean, low, high, _sd = summary(found)
            ladder.append(
                {
                    "game": game,
                    "stronger": stronger,
                    "weaker": weaker,
                    "hands": len(found),
                    "mean_difference": mean,
                    "ci95": [low, high],
                }
            )
            table.add_row(
                game,
                f"{stronger} vs {weaker}",
                f"{mean:+.2f}",
                f"{low:+.2f} .. {high:+.2f}",
                "yes" if low > 0 else "no",
            )
        console.print(table)
    if args.json:
        args.json.write_text(json.dumps({"timing": timing, "ladder": ladder}, indent=2) + "\n")


if __name__ == "__main__":
    main()
