"""Computer players: milliseconds per move for every level, and the strength ladder.

The timing plays a few hands of each level (and of the frozen ``baseline``) against
``medium`` and prints the median and 95th percentile of its time per move, over every move and
over the moves with a choice. The ladder plays each level against the one below it on
duplicate deals (every deck played in every seat rotation, as ``benchmarks/duel.py`` does)
in 2-player Escoba and 2-player Scopa (``--games``: any presets, such as
``scopone-scientifico``), and prints the mean point difference per hand with its 95%
confidence interval: a level beats the one below when the whole interval is above zero.
``--seats 4`` seats four in two partnerships, for the timing and the ladder (each level
plays both seats of its side).

    python benchmarks/ai.py [--hands 200] [--timing-hands 6] [--seats 2]
                            [--games escoba,scopa] [--pairs hard-medium,medium-easy:40,...]
                            [--workers 2] [--json FILE]

``--pairs ''`` skips the ladder; ``medium-easy:40`` plays that rung on 40 hands only. The
whole ladder at the default 200 hands takes a few minutes on two cores.
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

GAMES = "escoba,scopa"


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
    parser.add_argument(
        "--seats", type=int, default=2, choices=(2, 4), help="2, or 4 in partnerships"
    )
    parser.add_argument("--games", default=GAMES, help="presets, comma-separated")
    parser.add_argument("--levels", default=",".join((*LEVELS, "baseline")), help="to time")
    parser.add_argument(
        "--pairs", default=None, help="rungs to play, e.g. hard-medium (default: each level "
        "against the one below)"
    )  # fmt: skip
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    console = Console()
    games = [game for game in args.games.split(",") if game]
    unknown = [game for game in games if game not in RULESETS]
    if unknown:
        parser.error(f"--games: unknown {', '.join(unknown)}; presets: {', '.join(RULESETS)}")
    partnerships = args.seats == 4
    # (stronger, weaker, hands)
    rungs: list[tuple[str, str, int]] = []
    if args.pairs is None:
        rungs = [(LEVELS[i + 1], LEVELS[i], args.hands) for i in range(len(LEVELS) - 1)]
    else:
        for pair in filter(None, args.pairs.split(",")):
            names, _, hands = pair.partition(":")
            stronger, _, weaker = names.partition("-")
            rungs.append((stronger, weaker, int(hands) if hands else args.hands))

    timing: list[dict[str, Any]] = []
    levels = [level for level in args.levels.split(",") if level] if args.timing_hands else []
    with Progress(console=console, transient=True) as progress:
        bar = progress.add_task("timing moves", total=len(levels) * len(games))
        for level in levels:
            for preset in games:
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
    seating = f"{args.seats} players" + (" in partnerships" if partnerships else "")
    table = Table(title=f"Milliseconds per move ({seating}, against medium)")
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
            (stronger, weaker, game, args.seats, partnerships, 2026, first)
            for stronger, weaker, hands in rungs
            for game in games
            for first in range(0, hands, CHUNK)
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
        table = Table(title=f"Strength ladder: duplicate hands, {seating}")
        for column in ("game", "rung", "hands", "points per hand", "95% interval", "beats"):
            table.add_column(column)
        for (stronger, weaker, game), found in margins.items():
            mean, low, high, _sd = summary(found)
            ladder.append(
                {
                    "game": game,
                    "seats": args.seats,
                    "partnerships": partnerships,
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
                str(len(found)),
                f"{mean:+.2f}",
                f"{low:+.2f} .. {high:+.2f}",
                "yes" if low > 0 else "no",
            )
        console.print(table)
    if args.json:
        args.json.write_text(json.dumps({"timing": timing, "ladder": ladder}, indent=2) + "\n")


if __name__ == "__main__":
    main()
