"""The ladder's round robin: every level against every other on duplicate hands, the matches
they make turned into Elo ratings with their 95% intervals (``escoba.ai.ratings``).

Each pair plays ``--hands`` duplicate hands of each game, in blocks of ``--block`` hands spread
over the cores; a block's hands are chained into matches to the game's target in each seating
(a match left unfinished at a block's end is not counted). ``--write`` puts the table into
``src/escoba/ai/rated.py``, which the lobby, the terminal's setup and ``escoba arena`` show.

    python benchmarks/ladder.py --hands 400 --games escoba,scopa [--workers 2] [--write]
        [--json FILE]
"""

from __future__ import annotations

import argparse
import itertools
import json
import multiprocessing
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from escoba import RULESETS
from escoba.ai import LEVELS
from escoba.ai.ratings import Rating, rate_round_robin
from escoba.arena import play_arena

RATED = Path(__file__).resolve().parent.parent / "src" / "escoba" / "ai" / "rated.py"
SEED = 2026


def block(job: tuple[str, str, str, int, int]) -> tuple[str, str, str, int, int, int]:
    """One block of a pair's duplicate hands: (game, a, b, hands, won by a, won by b)."""
    game, a, b, hands, seed = job
    result = play_arena([a, b], rules=RULESETS[game], hands=hands, seed=seed)
    return game, a, b, hands, result.match_wins[0], result.match_wins[1]


def round_robin(
    games: list[str], hands: int, size: int, workers: int, console: Console
) -> dict[str, dict[tuple[str, str], tuple[int, int]]]:
    """Matches won by each of every pair of levels, per game."""
    jobs = []
    for game in games:
        for a, b in itertools.combinations(LEVELS, 2):
            for start in range(0, hands, size):
                seed = SEED * 100_000 + start
                jobs.append((game, a, b, min(size, hands - start), seed))
    results: dict[str, dict[tuple[str, str], tuple[int, int]]] = {game: {} for game in games}
    with (
        Progress(
            TextColumn("round robin"),
            BarColumn(),
            TextColumn("{task.completed}/{task.total} hands"),
            TimeRemainingColumn(),
            console=console,
        ) as progress,
        multiprocessing.Pool(workers) as pool,
    ):
        bar = progress.add_task("hands", total=sum(job[3] for job in jobs))
        for game, a, b, played, won_a, won_b in pool.imap_unordered(block, jobs):
            before = results[game].get((a, b), (0, 0))
            results[game][(a, b)] = (before[0] + won_a, before[1] + won_b)
            progress.advance(bar, played)
    return results


def write(tables: dict[str, dict[str, Rating]], measured: dict[str, dict[str, int]]) -> None:
    """Rewrite ``escoba/ai/rated.py`` with the ratings."""
    lines = [
        '"""The computer levels\' measured ratings '
        '(written by ``benchmarks/ladder.py --write``)."""',
        "",
        "from __future__ import annotations",
        "",
        "from typing import Final",
        "",
        "RATINGS: Final[dict[str, dict[str, tuple[float, float, float]]]] = {",
    ]
    for game, table in tables.items():
        lines.append(f'    "{game}": {{')
        for level in LEVELS:
            r = table[level]
            lines.append(f'        "{level}": ({r.rating:.1f}, {r.low:.1f}, {r.high:.1f}),')
        lines.append("    },")
    lines += [
        "}",
        '"""Each rated game\'s levels: (rating, low, high), the interval at 95%."""',
        "",
        "MEASURED: Final[dict[str, dict[str, int]]] = {",
    ]
    for game, facts in measured.items():
        inner = ", ".join(f'"{key}": {value}' for key, value in facts.items())
        lines.append(f'    "{game}": {{{inner}}},')
    lines += [
        "}",
        '"""How each game\'s table was measured: duplicate hands per pair, matches, seed."""',
        "",
    ]
    RATED.write_text("\n".join(lines), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=400, help="duplicate hands per pair")
    parser.add_argument("--games", default="escoba,scopa", help="presets, comma-separated")
    parser.add_argument("--block", type=int, default=50, help="hands per task")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--write", action="store_true", help="rewrite escoba/ai/rated.py")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    games = [game.strip() for game in args.games.split(",") if game.strip()]
    console = Console()
    started = time.perf_counter()
    results = round_robin(games, args.hands, args.block, args.workers, console)
    tables = {game: rate_round_robin(found, seed=SEED) for game, found in results.items()}
    measured = {
        game: {"hands": args.hands, "matches": sum(map(sum, found.values())), "seed": SEED}
        for game, found in results.items()
    }
    for game in games:
        table = Table(title=f"{game}: {args.hands} duplicate hands a pair")
        table.add_column("level")
        table.add_column("rating", justify="right")
        table.add_column("95% interval", justify="right")
        for level in LEVELS:
            r = tables[game][level]
            table.add_row(level, f"{r.rating:.0f}", f"{r.low:.0f} .. {r.high:.0f}")
        pairs = Table(title=f"{game}: matches won")
        pairs.add_column("pair")
        pairs.add_column("won", justify="right")
        for (a, b), (won_a, won_b) in sorted(results[game].items()):
            pairs.add_row(f"{a} v {b}", f"{won_a}–{won_b}")
        console.print(table, pairs)
    console.print(f"{time.perf_counter() - started:.0f} s")
    if args.write:
        write(tables, measured)
        console.print(f"written to {RATED}")
    if args.json:
        data: dict[str, Any] = {
            game: {
                "ratings": {level: [r.rating, r.low, r.high] for level, r in tables[game].items()},
                "pairs": {f"{a} v {b}": list(won) for (a, b), won in results[game].items()},
                **measured[game],
            }
            for game in games
        }
        args.json.write_text(json.dumps(data, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
