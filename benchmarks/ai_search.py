"""Search players: time per move and strength in duplicate hands.

Time: ms per ``choose`` call of ``hard`` and ``expert`` (median and 95th percentile) over
the decisions of whole hands against a random player, calls with a single legal move
excluded (they return at once). Strength: duplicate hands (each deal played twice, the
players swapping seats) against ``beginner`` (random) and a one-ply greedy player; the figure
is the mean hand-point difference per hand (search side minus the other).

    python benchmarks/ai_search.py [--hands 40] [--levels hard expert] [--rules escoba scopa]
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import statistics
import time
from collections.abc import Callable, Sequence

from escoba import RULESETS, Game, Move, Observation, RuleSet
from escoba.ai import Player, make_player
from escoba.ai.search import SearchPlayer

with contextlib.suppress(ImportError):  # the easy and medium levels, where present
    import escoba.ai.heuristics  # noqa: F401

_WORTH = {7: 3.0, 6: 1.5, 1: 1.0}


class Greedy:
    """One ply, no lookahead: the capture worth most (cards, coins, 7d, sevens, a sweep),
    else drop the lowest card."""

    name = "greedy"

    def choose(self, observation: Observation, legal: Sequence[Move]) -> Move:
        table = len(observation.table)

        def worth(move: Move) -> float:
            if not move.is_capture:
                return -move.card.value / 100
            taken = [*move.captures, move.card]
            score = 10.0 * (len(move.captures) == table) + len(taken)
            for card in taken:
                score += (card.suit.value == "d") + 3 * (str(card) == "7d")
                score += _WORTH.get(card.value, 0.0) / 2
            return score

        return max(legal, key=worth)


Factory = Callable[[int], Player]


def play_hand(
    rules: RuleSet,
    players: int,
    partnerships: bool,
    seed: int,
    seats: Sequence[Player],
    timings: dict[str, list[float]] | None = None,
) -> tuple[int, ...]:
    """Play the first hand of match ``seed``; return the hand's points per side."""
    game = Game(rules, players, partnerships, seed=seed)
    while not game.results:
        seat = game.to_move
        assert seat is not None
        legal = game.legal_moves()
        player = seats[seat]
        begun = time.perf_counter()
        move = player.choose(game.observation(seat), legal)
        if timings is not None and len(legal) > 1 and isinstance(player, SearchPlayer):
            timings.setdefault(player.name, []).append(time.perf_counter() - begun)
        game.play(move)
    return game.results[0].points


def duplicate(
    rules: RuleSet,
    players: int,
    partnerships: bool,
    hands: int,
    hero: Factory,
    foe: Factory,
    timings: dict[str, list[float]] | None = None,
) -> float:
    """Mean points per hand of hero's side less the foe's, each deal played from both sides
    (with more than two sides, hero sits at one seat and the foe at all the others)."""
    total = 0.0
    for seed in range(hands):
        for hero_seat in (0, 1):
            seats = [
                hero(seed) if seat % len_sides(players, partnerships) == hero_seat else foe(seed)
                for seat in range(players)
            ]
            points = play_hand(rules, players, partnerships, seed, seats, timings)
            mine = points[hero_seat]
            others = [p for side, p in enumerate(points) if side != hero_seat]
            total += mine - sum(others) / len(others)
    return total / (2 * hands)


def level_player(level: str, seed: int) -> Player:
    return make_player(level, seed)


def len_sides(players: int, partnerships: bool) -> int:
    return 2 if partnerships else players


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--levels", nargs="+", default=["hard", "expert"])
    parser.add_argument("--rules", nargs="+", default=["escoba", "scopa"])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--partnerships", action="store_true")
    parser.add_argument("--foes", nargs="+", default=["beginner", "greedy"])
    args = parser.parse_args()
    foes: dict[str, Factory] = {"greedy": lambda seed: Greedy()}
    for preset in args.rules:
        rules = RULESETS[preset]
        for level in args.levels:
            timings: dict[str, list[float]] = {}
            for foe_name in args.foes:
                foe = foes.get(foe_name) or functools.partial(level_player, foe_name)
                began = time.perf_counter()
                gain = duplicate(
                    rules,
                    args.players,
                    args.partnerships,
                    args.hands,
                    functools.partial(level_player, level),
                    foe,
                    timings,
                )
                print(
                    f"{preset:8} {args.players}p {level:6} vs {foe_name:8}: "
                    f"{gain:+.2f} points/hand over {2 * args.hands} hands "
                    f"({time.perf_counter() - began:.0f} s)",
                    flush=True,
                )
            times = sorted(timings.get(level, [0.0]))
            p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
            print(
                f"{preset:8} {args.players}p {level:6}: {1000 * statistics.median(times):.0f} ms "
                f"median, {1000 * p95:.0f} ms p95 per move ({len(times)} moves)",
                flush=True,
            )


if __name__ == "__main__":
    main()
