"""Computer players: milliseconds per move for every level, and the strength ladder.

The ladder plays each level against the one below it on duplicate deals (every deck played
once with the seats swapped) in 2-player Escoba and 2-player Scopa, and prints the mean point
difference per hand with its 95% confidence interval: a level beats the one below when the
whole interval is above zero. Pairs run in parallel, one process per core.

    python benchmarks/ai.py [--hands 400] [--timing-hands 6] [--pairs hard-medium,...]
                            [--workers 2] [--json FILE]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import statistics
import time
from pathlib import Path
from queue import Empty
from typing import Any

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from escoba import RULESETS, Game
from escoba.ai import LEVELS, make_player
from escoba.arena import play_arena

GAMES = ("escoba", "scopa")


def time_level(level: str, preset: str, hands: int) -> list[float]:
    """Seconds per move of ``level`` playing seat 0 against ``medium`` for a few hands."""
    times: list[float] = []
    rules = RULESETS[preset].replace(target_score=1000)
    for deck in range(hands):
        game = Game(rules, 2, seed=f"timing:{deck}")
        players = [make_player(level, seed=deck), make_player("medium", seed=deck)]
        while game.hand_number == 0 and (seat := game.to_move) is not None:
            observation, legal = game.observation(seat), game.legal_moves()
            start = time.perf_counter()
            move = players[seat].choose(observation, legal)
            if seat == 0:
                times.append(time.perf_counter() - start)
            game.play(move)
    return times


def ladder_task(job: tuple[str, str, str, int, Any]) -> dict[str, Any]:
    """One rung: ``stronger`` against ``weaker`` in one game."""
    stronger, weaker, preset, hands, progress = job
    result = play_arena(
        [stronger, weaker],
        rules=RULESETS[preset],
        hands=hands,
        seed=2026,
        on_game=lambda _game: progress.put(1),
    )
    low, high = result.difference_ci95 or (float("nan"), float("nan"))
    return {
        "game": preset,
        "stronger": stronger,
        "weaker": weaker,
        "hands": result.hands,
        "mean_difference": result.mean_difference,
        "ci95": [low, high],
        "elo": result.elo[0],
        "seconds": result.seconds,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=400, help="duplicate hands per rung")
    parser.add_argument("--timing-hands", type=int, default=6, help="hands per level timed")
    parser.add_argument("--pairs", default="", help="rungs to play, e.g. hard-medium (default all)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    console = Console()
    rungs = [(LEVELS[i + 1], LEVELS[i]) for i in range(len(LEVELS) - 1)]
    if args.pairs:
        wanted = {tuple(p.split("-")) for p in args.pairs.split(",")}
        rungs = [r for r in rungs if r in wanted]

    timing: list[dict[str, Any]] = []
    levels = LEVELS if args.timing_hands > 0 else ()
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("timing moves", total=len(levels) * len(GAMES))
        for level in levels:
            for preset in GAMES:
                seconds = time_level(level, preset, args.timing_hands)
                ms = sorted(s * 1000 for s in seconds)
                timing.append(
                    {
                        "level": level,
                        "game": preset,
                        "moves": len(ms),
                        "median_ms": statistics.median(ms),
                        "p95_ms": ms[min(len(ms) - 1, int(0.95 * len(ms)))],
                    }
                )
                progress.advance(task)
    table = Table(title="Milliseconds per move (2 players, against medium)")
    for column in ("level", "game", "moves", "median", "95th percentile"):
        table.add_column(column, justify="left" if column in ("level", "game") else "right")
    for row in timing:
        table.add_row(
            row["level"],
            row["game"],
            str(row["moves"]),
            f"{row['median_ms']:.1f}",
            f"{row['p95_ms']:.1f}",
        )
    if timing:
        console.print(table)

    ladder: list[dict[str, Any]] = []
    if rungs:
        manager = multiprocessing.Manager()
        queue = manager.Queue()
        jobs = [(s, w, g, args.hands, queue) for s, w in rungs for g in GAMES]
        total = sum(2 * args.hands for _ in jobs)
        with (
            Progress(console=console, transient=True) as progress,
            multiprocessing.Pool(args.workers) as pool,
        ):
            task = progress.add_task("ladder", total=total)
            pending = pool.map_async(ladder_task, jobs)
            while not pending.ready():
                with contextlib.suppress(Empty):
                    progress.advance(task, queue.get(timeout=0.5))
            ladder = pending.get()
        table = Table(title=f"Strength ladder: duplicate hands, 2 players, {args.hands} per rung")
        for column in ("game", "rung", "points per hand", "95% interval", "Elo", "beats"):
            table.add_column(column)
        for row in ladder:
            low, high = row["ci95"]
            table.add_row(
                row["game"],
                f"{row['stronger']} vs {row['weaker']}",
                f"{row['mean_difference']:+.2f}",
                f"{low:+.2f} .. {high:+.2f}",
                f"{row['elo']:+.0f}",
                "yes" if low > 0 else "no",
            )
        console.print(table)
    if args.json:
        args.json.write_text(json.dumps({"timing": timing, "ladder": ladder}, indent=2) + "\n")


if __name__ == "__main__":
    main()
