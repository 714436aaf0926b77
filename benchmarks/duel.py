"""Two players on duplicate hands, spread over the cores: the mean point difference per hand
with its 95% interval, and each player's time per move.

Every deck is played in every seat rotation (``escoba.arena.seat_lines``), so the luck of the
cards cancels; the decks are the arena's (``arena:SEED:i``), so a run with the same seed and
hands plays the same decks. A player is a level name (``hard``), the frozen ``baseline``,
a former level (``former-hard``, ``former-expert``, ``former-master``: the tree search with
2,000, 4,000 and 16,000 walks), ``cheater`` (the baseline's search seeing every hand: a
benchmark-only player, never a level), a search with options:

    tree:iterations=8000,exploration=0.7,depth=8,inference=True,evaluation='fitted'
    pimc:budget=20000,min_deals=100,max_deals=100,depth=6,cross_rounds=False,inference=True
    flat:determinizations=100,depth=6,positions=10000,min_deals=30

or OpenSpiel's searchers (the ``openspiel`` extra), ``openspiel-mcts`` seeing every hand:

    openspiel-ismcts:simulations=300,rollouts=1,uct_c=2.0
    openspiel-mcts:simulations=100

    python benchmarks/duel.py hard former-expert --game escoba --hands 1000 [--seats 4
        --partnerships] [--seed 2026] [--workers 2] [--json FILE]

One line of results is also appended to ``--log`` (default ``benchmarks/duels.log``).
"""

from __future__ import annotations

import argparse
import ast
import json
import math
import multiprocessing
import random
import statistics
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import Progress

from escoba import RULESETS, Game, Move, Observation
from escoba.ai import Player, make_player
from escoba.ai.baseline import BaselinePlayer
from escoba.ai.ismcts import FORMER_LEVEL_WALKS, TreeSearchPlayer
from escoba.ai.sampling import Determinization
from escoba.ai.search import SearchPlayer
from escoba.arena import SeeingPlayer, seat_lines

CHUNK = 5  # duplicate hands per task
FORMER = {f"former-{level}": walks for level, walks in FORMER_LEVEL_WALKS.items()}
"""The levels the tree search once was (``former-expert``: 4,000 walks), to measure against."""


class Cheater(BaselinePlayer):
    """The baseline's search, dealt the true hands (the stock stays unknown): what seeing
    every card is worth. For benchmarks only: it reads the game, which no player may."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed, name="cheater", determinizations=100, depth=6)
        self.game: Game | None = None

    def deal(self, observation: Observation, rng: random.Random) -> Determinization:
        game = self.game
        assert game is not None, "the duel gives the cheater its game"
        hands = tuple(tuple(sorted(c.index for c in game.hand(s))) for s in range(game.players))
        held = {card for hand in hands for card in hand}
        stock = sorted(c.index for c in observation.unseen if c.index not in held)
        rng.shuffle(stock)
        return Determinization(hands=hands, stock=tuple(stock))


def factory(spec: str) -> Callable[[int], Player]:
    """Players from a spec (see the module's docs)."""
    kind, _, options = spec.partition(":")
    kwargs: dict[str, Any] = {}
    if options:
        call = ast.parse(f"f({options})", mode="eval").body
        assert isinstance(call, ast.Call)
        kwargs = {k.arg: ast.literal_eval(k.value) for k in call.keywords if k.arg}
    if kind == "cheater":
        return Cheater
    if spec in FORMER:
        # As they were: Scopone's hands weighed only in their last few cards.
        return lambda seed: TreeSearchPlayer(
            seed, name=spec, iterations=FORMER[spec], whole_hand=False
        )
    if kind == "flat":
        return lambda seed: BaselinePlayer(seed, name=spec, **kwargs)
    if kind == "tree":
        return lambda seed: TreeSearchPlayer(seed, name=spec, **kwargs)
    if kind == "pimc":
        return lambda seed: SearchPlayer(seed, name=spec, **kwargs)
    if kind in ("openspiel-ismcts", "openspiel-mcts"):
        from escoba.openspiel.players import OpenSpielISMCTS, OpenSpielMCTS

        searcher = OpenSpielISMCTS if kind == "openspiel-ismcts" else OpenSpielMCTS
        return lambda seed: searcher(seed, **kwargs)
    make_player(kind, 0)  # an unknown level fails here, before any process starts
    return lambda seed: make_player(kind, seed)


def task(job: tuple[str, str, str, int, bool, int, int]) -> tuple[list[float], list[list[float]]]:
    """``CHUNK`` duplicate hands from deck ``first``: the first player's margin on each, and
    each player's seconds per move."""
    first_spec, second_spec, game_name, seats, partnerships, seed, first = job
    makers = (factory(first_spec), factory(second_spec))
    rules = RULESETS[game_name]
    lines = seat_lines(2, seats, partnerships)
    sides = 2 if partnerships else seats
    margins: list[float] = []
    seconds: list[list[float]] = [[], []]
    for deck in range(first, first + CHUNK):
        template = Game(rules, seats, partnerships, seed=f"arena:{seed}:{deck}").record()
        total = 0.0
        for seating in lines:
            game = Game.from_record(template)
            # A seat's player has the same seed in every rotation, whoever sits there.
            players = [makers[e](seed * 7919 + deck * 8 + seat) for seat, e in enumerate(seating)]
            for player in players:
                if isinstance(player, Cheater):
                    player.game = game
            while game.hand_number == 0 and (seat := game.to_move) is not None:
                observation = game.observation(seat)
                start = time.perf_counter()
                player = players[seat]
                if isinstance(player, SeeingPlayer):  # a benchmark player shown every hand
                    move: Move = player.choose_seeing(game.copy(), observation.legal_moves)
                else:
                    move = player.choose(observation, observation.legal_moves)
                seconds[seating[seat]].append(time.perf_counter() - start)
                game.play(move)
            points = game.results[0].points
            mine = next(s % sides for s, e in enumerate(seating) if e == 0)
            total += (points[mine] * sides - sum(points)) / (sides - 1)
        margins.append(total / len(lines))
    return margins, seconds


def label(spec: str) -> str:
    """The spec, with the walks of a former search level."""
    walks = FORMER.get(spec)
    return spec if walks is None else f"{spec} ({walks:,} walks)"


def summary(margins: Sequence[float]) -> tuple[float, float, float, float]:
    n = len(margins)
    mean = math.fsum(margins) / n
    sd = statistics.stdev(margins) if n > 1 else math.inf
    half = 1.96 * sd / math.sqrt(n)
    return mean, mean - half, mean + half, sd


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("first")
    parser.add_argument("second")
    parser.add_argument("--game", default="escoba", choices=sorted(RULESETS))
    parser.add_argument("--hands", type=int, default=400, help="duplicate hands")
    parser.add_argument("--seats", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--partnerships", action="store_true")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--log", type=Path, default=Path(__file__).with_name("duels.log"))
    args = parser.parse_args()
    if args.seats == 3 or (args.seats == 4 and not args.partnerships):
        parser.error("two players share the seats only with 2 seats or 4 in partnerships")
    factory(args.first), factory(args.second)
    console = Console()
    jobs = [
        (args.first, args.second, args.game, args.seats, args.partnerships, args.seed, first)
        for first in range(0, args.hands, CHUNK)
    ]
    margins: list[float] = []
    seconds: list[list[float]] = [[], []]
    started = time.perf_counter()
    with Progress(console=console) as progress, multiprocessing.Pool(args.workers) as pool:
        bar = progress.add_task(f"{args.first} vs {args.second}", total=len(jobs) * CHUNK)
        for found, timed in pool.imap_unordered(task, jobs):
            margins.extend(found)
            for mine, more in zip(seconds, timed, strict=True):
                mine.extend(more)
            progress.advance(bar, len(found))
    mean, low, high, sd = summary(margins)
    medians = [1000 * statistics.median(s) for s in seconds]
    setting = f"{args.game}, {args.seats} players" + (", partnerships" if args.partnerships else "")
    line = (
        f"{label(args.first)} vs {label(args.second)} [{setting}, seed {args.seed}]: "
        f"{len(margins)} hands, "
        f"{mean:+.3f} points a hand (95% {low:+.3f} .. {high:+.3f}, sd {sd:.2f}); "
        f"ms a move (median) {medians[0]:.1f} / {medians[1]:.1f}; "
        f"{time.perf_counter() - started:.0f} s"
    )
    console.print(line, markup=False, highlight=False)
    with args.log.open("a") as log:
        log.write(line + "\n")
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "first": args.first,
                    "second": args.second,
                    "game": args.game,
                    "seats": args.seats,
                    "partnerships": args.partnerships,
                    "seed": args.seed,
                    "hands": len(margins),
                    "mean": mean,
                    "ci95": [low, high],
                    "sd": sd,
                    "median_ms": medians,
                },
                indent=2,
            )
            + "\n"
        )


if __name__ == "__main__":
    main()
