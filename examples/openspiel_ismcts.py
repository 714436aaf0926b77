"""OpenSpiel's information-set MCTS against the computer level ``medium``, in OpenSpiel's API.

Loads ``python_escoba`` (or ``--game``) with pyspiel, samples chance, lets OpenSpiel's
``ISMCTSBot`` choose for one seat and ``medium`` for the other (from its seat's observation
only), alternating seats hand by hand, then prints each side's mean points per hand and the
bot's mean return (its point margin) with a 95% confidence interval.

    python examples/openspiel_ismcts.py [--hands 20] [--simulations 100] [--game python_scopa]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import escoba.openspiel  # noqa: F401  (registers the games with OpenSpiel)
from escoba.ai import make_player


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=20, help="hands to play")
    parser.add_argument("--simulations", type=int, default=100, help="ISMCTS budget a move")
    parser.add_argument("--game", default="python_escoba", help="an OpenSpiel game string")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    game = pyspiel.load_game(args.game)
    rng = np.random.RandomState(args.seed)
    sample = random.Random(args.seed).random
    bot = ismcts.ISMCTSBot(
        game, mcts.RandomRolloutEvaluator(1, rng), 2.0, args.simulations, random_state=rng
    )
    # The bot deals the unseen cards again for every walk; a seeded sampler keeps runs equal.
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, sample))
    medium = make_player("medium", args.seed)
    margins: list[float] = []
    points = {"ismcts": 0, "medium": 0}
    for hand in range(args.hands):
        bot_seat = hand % 2
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probabilities = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(actions, p=probabilities)))
            elif state.current_player() == bot_seat:
                state.apply_action(int(bot.step(state)))
            else:
                seen = state.observation(state.current_player())
                state.apply_action(state.action_of(medium.choose(seen, seen.legal_moves)))
        result = state.match.results[0]
        points["ismcts"] += result.points[bot_seat]
        points["medium"] += result.points[1 - bot_seat]
        margins.append(state.returns()[bot_seat])
    n = len(margins)
    mean = statistics.fmean(margins)
    half = 1.96 * statistics.stdev(margins) / math.sqrt(n) if n > 1 else math.inf
    print(
        f"{n} hands of {args.game}: OpenSpiel's ISMCTS ({args.simulations} simulations) "
        "against medium"
    )
    print(
        f"points per hand: ISMCTS {points['ismcts'] / n:.2f}, medium {points['medium'] / n:.2f}; "
        f"ISMCTS margin {mean:+.2f} (95% {mean - half:+.2f} .. {mean + half:+.2f})"
    )


if __name__ == "__main__":
    main()
