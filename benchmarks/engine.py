"""Engine speed: hands per second of random legal play on one core.

Three configurations (2-player Escoba, 2-player Scopa, 4-player Escoba in partnerships),
each through the two public ways to play: Move objects (``legal_moves``/``play``) and move
keys (``legal_keys``/``play_key``, the path computer players search with). A random player
picks uniformly among the legal moves. The capture memo is warmed first, so the figures show
the steady state of a long-running process.

    python benchmarks/engine.py [--rounds 5] [--seconds 1] [--json FILE]
"""

from __future__ import annotations

import json
import random
import statistics
import time
from collections.abc import Callable

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from escoba import RULESETS, Game, RuleSet
from rounds import round_options

CONFIGURATIONS: tuple[tuple[str, str, int, bool], ...] = (
    ("2-player Escoba", "escoba", 2, False),
    ("2-player Scopa", "scopa", 2, False),
    ("4-player Escoba, partnerships", "escoba", 4, True),
)
TARGET = 5_000  # two-player Escoba hands per second, the engine's goal


def play_match(
    rules: RuleSet, players: int, partnerships: bool, seed: int, api: str, rng: random.Random
) -> int:
    """Play one match by random legal moves; return the number of hands."""
    game = Game(rules, players, partnerships, seed=seed)
    pick = rng.random
    if api == "keys":
        legal, play_key = game.legal_keys, game.play_key
        while game.to_move is not None:
            keys = legal()
            play_key(keys[int(pick() * len(keys))])
    else:
        moves_of, play = game.legal_moves, game.play
        while game.to_move is not None:
            moves = moves_of()
            play(moves[int(pick() * len(moves))])
    return len(game.results)


def measure(
    rules: RuleSet,
    players: int,
    partnerships: bool,
    api: str,
    rounds: int,
    seconds: float,
    tick: Callable[[], None],
) -> list[float]:
    """Hands per second in each of ``rounds`` rounds of about ``seconds`` CPU time."""
    rng = random.Random(1)
    for seed in range(-600, 0):  # warm the capture memo
        play_match(rules, players, partnerships, seed, api, rng)
    rates = []
    seed = 0
    for _ in range(rounds):
        hands = 0
        start = time.process_time()
        while (elapsed := time.process_time() - start) < seconds:
            hands += play_match(rules, players, partnerships, seed, api, rng)
            seed += 1
        rates.append(hands / elapsed)
        tick()
    return rates


def main() -> None:
    args = round_options(__doc__)
    results: list[dict[str, object]] = []
    runs = [(c, api) for c in CONFIGURATIONS for api in ("moves", "keys")]
    with Progress(transient=True) as progress:
        task = progress.add_task("random play", total=args.rounds * len(runs))
        for (label, preset, players, partnerships), api in runs:
            progress.update(task, description=f"{label} ({api})")
            rates = measure(
                RULESETS[preset],
                players,
                partnerships,
                api,
                args.rounds,
                args.seconds,
                lambda: progress.advance(task),
            )
            results.append(
                {
                    "configuration": label,
                    "api": api,
                    "best": round(max(rates)),
                    "median": round(statistics.median(rates)),
                }
            )
    table = Table(title="Random legal play, one core: hands per second (best / median round)")
    table.add_column("configuration")
    table.add_column("Move objects", justify="right")
    table.add_column("move keys", justify="right")
    for label, *_ in CONFIGURATIONS:
        cells = {
            r["api"]: f"{r['best']:,} / {r['median']:,}"
            for r in results
            if r["configuration"] == label
        }
        table.add_row(label, cells["moves"], cells["keys"])
    console = Console()
    console.print(table)
    console.print(
        f"Target: {TARGET:,} two-player Escoba hands per second. Rounds of {args.seconds:g} s "
        "CPU time; the best round is the least disturbed by other work on the machine."
    )
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
