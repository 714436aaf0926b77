"""A random agent against the computer level ``medium``, through the PettingZoo environment.

Plays ``--matches`` matches (the random agent sits first in even matches, second in odd
ones, so neither gains from the seat), then prints the mean points per hand of each agent,
the random agent's mean margin per hand with a 95% confidence interval (hands counted as
independent samples), and its share of matches won. Nothing is trained: this is the loop a
learning agent would take the random agent's place in.

    python examples/random_vs_medium.py [--matches 100] [--rules escoba] [--seed 0]
"""

from __future__ import annotations

import argparse
import math
import statistics

from escoba import RULESETS
from escoba.env import LevelAgent, RandomAgent, env


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--matches", type=int, default=100, help="matches to play")
    parser.add_argument("--rules", default="escoba", choices=sorted(RULESETS), help="rule set")
    parser.add_argument("--seed", type=int, default=0, help="first match seed")
    args = parser.parse_args()

    game_env = env(args.rules, players=2, reward="points")
    base = game_env.unwrapped
    margins: list[float] = []  # the random agent's points less medium's, per hand
    points = {"random": 0.0, "medium": 0.0}
    wins = 0
    for match in range(args.matches):
        random_seat = match % 2
        names = {f"player_{random_seat}": "random", f"player_{1 - random_seat}": "medium"}
        agents = {
            f"player_{random_seat}": RandomAgent(seed=args.seed + match),
            f"player_{1 - random_seat}": LevelAgent("medium", seed=args.seed + match),
        }
        game_env.reset(seed=args.seed + match)
        hands = 0
        for agent in game_env.agent_iter():
            _, _, terminated, truncated, _ = game_env.last(observe=False)
            if terminated or truncated:
                game_env.step(None)
                continue
            game_env.step(agents[agent].act(game_env, agent))
            if base.hands_played > hands:  # a hand ended: every agent got its side's points
                hands = base.hands_played
                hand = {names[a]: reward for a, reward in game_env.rewards.items()}
                points["random"] += hand["random"]
                points["medium"] += hand["medium"]
                margins.append(hand["random"] - hand["medium"])
        wins += base.game.winner == random_seat  # the match result, once it is over
    n = len(margins)
    mean = statistics.fmean(margins)
    half = 1.96 * statistics.stdev(margins) / math.sqrt(n) if n > 1 else math.inf
    print(f"{args.matches} matches of {args.rules}, {n} hands: random agent against medium")
    print(
        f"  mean points per hand: random {points['random'] / n:.2f}, "
        f"medium {points['medium'] / n:.2f}"
    )
    print(
        f"  random's margin per hand: {mean:+.2f} (95% CI {mean - half:+.2f} .. {mean + half:+.2f})"
    )
    print(f"  random's win rate: {wins / args.matches:.1%} ({wins} of {args.matches} matches)")


if __name__ == "__main__":
    main()
