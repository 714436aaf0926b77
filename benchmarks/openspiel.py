"""OpenSpiel speed: states per second of random play through pyspiel, against the bare engine.

A random hand through pyspiel visits 76 states (the first dealer, 39 picks of the shuffle,
36 plays; 80 in Scopone scientifico, with 40 plays): each is a ``chance_outcomes`` or
``legal_actions`` call and an ``apply_action``, through OpenSpiel's C++ layer into our Python
state. The bare engine deals a hand from a fresh seed and plays its moves by move keys. Both
pick uniformly. Configurations: 2-player Escoba, 2-player Scopa, 4-player Escoba in
partnerships, 4-player Scopone scientifico in partnerships. Figures are
hands per second and states per second on one core (best and median of the rounds), and how
many times slower a hand is through pyspiel.

    python benchmarks/openspiel.py [--rounds 5] [--seconds 1] [--json FILE]
"""

from __future__ import annotations

import json
import random
import statistics
import time
from collections.abc import Callable

import pyspiel
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from escoba import RULESETS, Game, RuleSet
from escoba.openspiel import game_string
from rounds import round_options

CONFIGURATIONS: tuple[tuple[str, str, int, bool], ...] = (
    ("2-player Escoba", "escoba", 2, False),
    ("2-player Scopa", "scopa", 2, False),
    ("4-player Escoba, partnerships", "escoba", 4, True),
    ("4-player Scopone scientifico, partnerships", "scopone-scientifico", 4, True),
)


def states_per_hand(rules: RuleSet) -> int:
    """The first dealer, 39 picks of the shuffle and the hand's plays."""
    return 1 + 39 + rules.plays_per_hand


def pyspiel_hand(game: object, rng: random.Random) -> None:
    """One hand of random play through pyspiel, chance included."""
    state = game.new_initial_state()  # type: ignore[attr-defined]
    pick = rng.random
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[int(pick() * len(outcomes))][0])
        else:
            actions = state.legal_actions()
            state.apply_action(actions[int(pick() * len(actions))])


def engine_hand(setup: tuple[RuleSet, int, bool], rng: random.Random) -> None:
    """One hand of random play by the engine's move keys, dealt from a fresh seed."""
    game = Game(*setup, seed=rng.getrandbits(32))
    pick = rng.random
    legal, play_key = game.legal_keys, game.play_key
    while game.hand_number == 0 and game.to_move is not None:
        keys = legal()
        play_key(keys[int(pick() * len(keys))])


def measure(play: Callable[[random.Random], None], rounds: int, seconds: float) -> list[float]:
    """Hands per second in each of ``rounds`` rounds of about ``seconds`` CPU time."""
    rng = random.Random(1)
    for _ in range(50):  # warm caches
        play(rng)
    rates = []
    for _ in range(rounds):
        hands = 0
        start = time.process_time()
        while (elapsed := time.process_time() - start) < seconds:
            play(rng)
            hands += 1
        rates.append(hands / elapsed)
    return rates


def main() -> None:
    args = round_options(__doc__)
    rows: list[dict[str, object]] = []
    with Progress(transient=True) as progress:
        task = progress.add_task("random play", total=2 * len(CONFIGURATIONS))
        for label, preset, players, partnerships in CONFIGURATIONS:
            rules = RULESETS[preset]
            progress.update(task, description=f"{label} (pyspiel)")
            game = pyspiel.load_game(game_string(rules, players, partnerships))
            through = measure(lambda rng, g=game: pyspiel_hand(g, rng), args.rounds, args.seconds)
            progress.advance(task)
            progress.update(task, description=f"{label} (engine)")
            setup = (rules, players, partnerships)
            bare = measure(lambda rng, s=setup: engine_hand(s, rng), args.rounds, args.seconds)
            progress.advance(task)
            rows.append(
                {
                    "configuration": label,
                    "pyspiel_hands": [round(max(through), 1), round(statistics.median(through), 1)],
                    "engine_hands": [round(max(bare), 1), round(statistics.median(bare), 1)],
                    "pyspiel_states": round(max(through) * states_per_hand(rules)),
                    "engine_moves": round(max(bare) * rules.plays_per_hand),
                    "slower": round(max(bare) / max(through), 1),
                }
            )
    table = Table(title="Random play, one core: hands per second (best / median round)")
    for column in (
        "configuration",
        "through pyspiel",
        "states/s",
        "bare engine",
        "moves/s",
        "pyspiel slower",
    ):
        table.add_column(column, justify="left" if column == "configuration" else "right")
    for row in rows:
        ph, eh = row["pyspiel_hands"], row["engine_hands"]
        table.add_row(
            str(row["configuration"]),
            f"{ph[0]:,} / {ph[1]:,}",  # type: ignore[index]
            f"{row['pyspiel_states']:,}",
            f"{eh[0]:,} / {eh[1]:,}",  # type: ignore[index]
            f"{row['engine_moves']:,}",
            f"{row['slower']}x",
        )
    console = Console()
    console.print(table)
    console.print(
        "A hand through pyspiel is 76 states (the dealer, 39 chance picks, 36 plays; 80 with "
        "Scopone's 40 plays); the engine's is a seeded deal and its moves. Rounds of "
        f"{args.seconds:g} s CPU."
    )
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2) + "\n")


if __name__ == "__main__":
    main()
