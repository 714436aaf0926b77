"""Environment speed: steps per second of random legal play through the PettingZoo
environment, against the bare engine, on one core.

Both play whole matches with a uniformly random legal move at every step. The engine picks
among ``legal_keys()`` and plays with ``play_key()``; the environment loop is the usual one
(``agent_iter``, ``last()``, then ``step()``), so every step builds the observation and the
action mask. The random agent draws its action in two ways, measured apart: from the
observation's ``action_mask`` (numpy's ``nonzero`` over its 3744 entries, the agent's own
work), and from ``legal_actions()`` (the list the mask marks, as the engine's loop draws from
its list). Rounds alternate, so that other work on the machine disturbs all alike; the best
round counts.

    python benchmarks/env.py [--rounds 5] [--seconds 1] [--json FILE]
"""

from __future__ import annotations

import json
import random
import statistics
import time
from collections.abc import Callable
from functools import partial

import numpy as np
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from escoba import RULESETS, Game
from escoba.env import EscobaEnv, env
from rounds import round_options

CONFIGURATIONS: tuple[tuple[str, str, int, bool], ...] = (
    ("2-player Escoba", "escoba", 2, False),
    ("2-player Scopa", "scopa", 2, False),
    ("4-player Escoba, partnerships", "escoba", 4, True),
    ("4-player Scopone scientifico, partnerships", "scopone-scientifico", 4, True),
)
GOAL = 3.0  # the environment should cost less than this many times the engine per step


def engine_match(
    preset: str, players: int, partnerships: bool, pick: Callable[[], float], seed: int
) -> int:
    """One match of random play on the bare engine; the number of moves."""
    game = Game(RULESETS[preset], players, partnerships, seed=seed)
    legal, play_key = game.legal_keys, game.play_key
    steps = 0
    while game.to_move is not None:
        keys = legal()
        play_key(keys[int(pick() * len(keys))])
        steps += 1
    return steps


def env_match(environment: EscobaEnv, pick: Callable[[], float], seed: int) -> int:
    """One match of random play through the environment, each action drawn from the
    action mask; the number of moves."""
    e = environment
    e.reset(seed=seed)
    last, step = e.last, e.step
    boolean = np.bool_
    steps = 0
    for _ in e.agent_iter():
        observation, _reward, terminated, truncated, _info = last()
        if terminated or truncated:
            step(None)
            continue
        legal = observation["action_mask"].view(boolean).nonzero()[0]
        step(int(legal[int(pick() * len(legal))]))
        steps += 1
    return steps


def env_match_listed(environment: EscobaEnv, pick: Callable[[], float], seed: int) -> int:
    """As :func:`env_match`, each action drawn from ``legal_actions()``; the observation
    and the mask are built at every step all the same."""
    e = environment
    e.reset(seed=seed)
    last, step, legal_actions = e.last, e.step, e.legal_actions
    steps = 0
    for _ in e.agent_iter():
        _observation, _reward, terminated, truncated, _info = last()
        if terminated or truncated:
            step(None)
            continue
        legal = legal_actions()
        step(legal[int(pick() * len(legal))])
        steps += 1
    return steps


def rate(play: Callable[[int], int], seconds: float, first_seed: int) -> float:
    """Moves per CPU second over about ``seconds``."""
    steps = 0
    seed = first_seed
    start = time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
        steps += play(seed)
        seed += 1
    return steps / elapsed


def main() -> None:
    args = round_options(__doc__)
    results: list[dict[str, object]] = []
    with Progress(transient=True) as progress:
        task = progress.add_task("random play", total=args.rounds * len(CONFIGURATIONS))
        for label, preset, players, partnerships in CONFIGURATIONS:
            progress.update(task, description=label)
            on_engine = partial(
                engine_match, preset, players, partnerships, random.Random(1).random
            )
            environment = env(preset, players, partnerships)
            on_env = partial(env_match, environment, random.Random(2).random)
            on_listed = partial(env_match_listed, environment, random.Random(3).random)
            for seed in range(-300, 0):  # warm the capture memo and the caches
                on_engine(seed)
                on_env(seed)
                on_listed(seed)
            engine_rates, env_rates, listed_rates = [], [], []
            for r in range(args.rounds):
                engine_rates.append(rate(on_engine, args.seconds, 10_000 * r))
                env_rates.append(rate(on_env, args.seconds, 10_000 * r))
                listed_rates.append(rate(on_listed, args.seconds, 10_000 * r))
                progress.advance(task)
            engine_best = max(engine_rates)
            env_best, listed_best = max(env_rates), max(listed_rates)
            results.append(
                {
                    "configuration": label,
                    "engine_steps_per_second": round(engine_best),
                    "env_steps_per_second": round(env_best),
                    "env_listed_steps_per_second": round(listed_best),
                    "engine_median": round(statistics.median(engine_rates)),
                    "env_median": round(statistics.median(env_rates)),
                    "env_listed_median": round(statistics.median(listed_rates)),
                    "ratio": round(engine_best / env_best, 2),
                    "ratio_listed": round(engine_best / listed_best, 2),
                }
            )
    table = Table(
        title="Random legal play, one core: moves per second (best round); ratio: engine / env"
    )
    table.add_column("configuration")
    table.add_column("bare engine", justify="right")
    table.add_column("env, mask", justify="right")
    table.add_column("ratio", justify="right")
    table.add_column("env, list", justify="right")
    table.add_column("ratio", justify="right")
    for r in results:
        table.add_row(
            str(r["configuration"]),
            f"{r['engine_steps_per_second']:,}",
            f"{r['env_steps_per_second']:,}",
            f"{r['ratio']:.2f}x",
            f"{r['env_listed_steps_per_second']:,}",
            f"{r['ratio_listed']:.2f}x",
        )
    console = Console()
    console.print(table)
    console.print(
        f"Goal: the environment under {GOAL:g}x the engine's time per move. Each environment "
        "step builds the acting seat's observation and action mask; the agent draws from "
        "the mask (numpy nonzero) or from legal_actions(). "
        f"Rounds of {args.seconds:g} s CPU time, engine and environment alternating."
    )
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
