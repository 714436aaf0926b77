"""Strength of the rule-based players: mean point difference per hand, duplicate hands.

Every deck is played twice with the seats swapped (the same seed gives the same dealer and
the same deck), so the luck of the deal cancels out. For each pairing the script prints the
mean of (challenger's points - opponent's points) per hand over both plays of a deck, with a
95% confidence interval over the decks.

    python benchmarks/ai_heuristics.py [--decks 250] [--seed 0]
"""

from __future__ import annotations

import argparse
import statistics
import time

from escoba import RULESETS, Game, RuleSet
from escoba.ai.base import Player, PlayerFactory, RandomPlayer
from escoba.ai.heuristics import ClubPlayer, GreedyPlayer

PAIRINGS: tuple[tuple[str, str], ...] = (("easy", "beginner"), ("medium", "easy"))
CONFIGURATIONS: tuple[tuple[str, str], ...] = (
    ("2-player Escoba", "escoba"),
    ("2-player Scopa", "scopa"),
)
FACTORIES: dict[str, PlayerFactory] = {
    "beginner": RandomPlayer,
    "easy": GreedyPlayer,
    "medium": ClubPlayer,
}


def play_hand(rules: RuleSet, seed: int, players: tuple[Player, Player]) -> tuple[int, int]:
    """Play the first hand of the match of ``seed`` (seat i plays ``players[i]``); its points."""
    # A target no hand reaches: the match goes on, and we stop after its first hand.
    game = Game(rules.replace(target_score=1000), 2, seed=seed)
    while not game.results:
        seat = game.to_move
        assert seat is not None
        game.play(players[seat].choose(game.observation(seat), game.legal_moves()))
    points = game.results[0].points
    return points[0], points[1]


def duplicate_difference(rules: RuleSet, challenger: str, opponent: str, seed: int) -> float:
    """Challenger minus opponent, points per hand, averaged over both seatings of one deck."""
    a, b = FACTORIES[challenger], FACTORIES[opponent]
    first = play_hand(rules, seed, (a(2 * seed), b(2 * seed + 1)))
    second = play_hand(rules, seed, (b(2 * seed + 1), a(2 * seed)))
    return ((first[0] - first[1]) + (second[1] - second[0])) / 2


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--decks", type=int, default=250, help="decks per pairing (2 hands each)")
    parser.add_argument("--seed", type=int, default=0, help="first deck's seed")
    args = parser.parse_args()
    print(f"{args.decks} decks x 2 seatings = {2 * args.decks} hands per line")
    for label, preset in CONFIGURATIONS:
        for challenger, opponent in PAIRINGS:
            start = time.perf_counter()
            diffs = [
                duplicate_difference(RULESETS[preset], challenger, opponent, seed)
                for seed in range(args.seed, args.seed + args.decks)
            ]
            mean = statistics.fmean(diffs)
            half = 1.96 * statistics.stdev(diffs) / len(diffs) ** 0.5
            print(
                f"{label}: {challenger} vs {opponent}: {mean:+.3f} ± {half:.3f} points per hand"
                f" ({2 * len(diffs)} hands, {time.perf_counter() - start:.1f} s)"
            )


if __name__ == "__main__":
    main()
