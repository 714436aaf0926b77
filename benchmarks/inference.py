"""Inference about hidden hands: how often sampled deals put each card in the right hand.

Plays hands between copies of a level and, at every decision where another seat has played
this round and still holds cards, draws deals of the unseen cards: uniformly, with the
weights of :class:`escoba.ai.inference.Beliefs`, and (what differs in Scopone, whose hands
are dealt whole) weighing only the hands of seats down to their last few cards. For every
card truly in another seat's hand it counts how often a drawn deal puts it there, and for
every card it counts how often the deal puts it in its true place (a hand or the stock).
Prints a table per game.

    python benchmarks/inference.py [--hands 200] [--deals 100] [--level baseline]
                                   [--games escoba:2,scopa:2,escoba:4p] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import zlib
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from escoba import RULESETS, Game
from escoba.ai import make_player
from escoba.ai.inference import Beliefs
from escoba.ai.policy import PlayModel
from escoba.ai.sampling import Determinization

KINDS = ("uniform", "inferred", "late")
"""Deals drawn uniformly; with the inference the players use; and, in hands dealt whole
(Scopone), weighing only the hands of seats down to their last few cards (as before the chain
of deals weighed every play of the hand: ``whole_hand=False``; the same as inferred elsewhere)."""


def placed(deal: Determinization, truth: dict[int, int]) -> tuple[int, int, int, int]:
    """(hand cards placed right, hand cards, all cards placed right, all cards) of one deal;
    ``truth`` maps each unseen card to its seat, or -1 for the stock."""
    where = {card: seat for seat, hand in enumerate(deal.hands) for card in hand}
    right_hand = hands = right = 0
    for card, seat in truth.items():
        guess = where.get(card, -1)
        right += guess == seat
        if seat >= 0:
            hands += 1
            right_hand += guess == seat
    return right_hand, hands, right, len(truth)


def measure(job: tuple[str, int, bool, str, int, int]) -> dict[str, list[int]]:
    """Counts for one hand of self-play: [uniform, inferred] x (hand right, hand, all right,
    all), over the decisions with evidence."""
    preset, players, partnerships, level, number, deals = job
    rules = RULESETS[preset]
    game = Game(rules, players, partnerships, seed=f"inference:{number}")
    seats = [make_player(level, zlib.crc32(f"{number}:{s}".encode())) for s in range(players)]
    model = PlayModel.fitted(rules)
    counts = {name: [0, 0, 0, 0] for name in KINDS} | {"decisions": [0]}
    rng = random.Random(number)
    while game.hand_number == 0:
        seat = game.to_move
        assert seat is not None
        observation = game.observation(seat)
        inferred = Beliefs(observation, model)
        if inferred.weighed:
            uniform = Beliefs(observation)
            late = Beliefs(observation, model, whole_hand=False)
            truth = {c.index: s for s in range(players) if s != seat for c in game.hand(s)}
            unseen = {c.index for c in observation.unseen}
            truth |= {card: -1 for card in unseen - truth.keys()}
            for name, beliefs in (("uniform", uniform), ("inferred", inferred), ("late", late)):
                for _ in range(deals):
                    for i, value in enumerate(placed(beliefs.sample(rng), truth)):
                        counts[name][i] += value
            counts["decisions"][0] += 1
        game.play(seats[seat].choose(observation, game.legal_moves()))
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=200, help="hands of self-play per game")
    parser.add_argument("--deals", type=int, default=100, help="deals drawn per decision")
    parser.add_argument("--level", default="baseline", help="the level that plays")
    parser.add_argument("--games", default="escoba:2,scopa:2,escoba:4p")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    console = Console()
    rows: list[dict[str, Any]] = []
    games = []
    for spec in args.games.split(","):
        preset, seats = spec.split(":")
        games.append((preset, int(seats.rstrip("p")), seats.endswith("p")))
    with (
        Progress(console=console, transient=True) as progress,
        multiprocessing.Pool(args.workers) as pool,
    ):
        for preset, players, partnerships in games:
            task = progress.add_task(f"{preset} {players} players", total=args.hands)
            jobs = [
                (preset, players, partnerships, args.level, number, args.deals)
                for number in range(args.hands)
            ]
            total = {name: [0, 0, 0, 0] for name in KINDS} | {"decisions": [0]}
            for counts in pool.imap_unordered(measure, jobs):
                for name, values in counts.items():
                    total[name] = [a + b for a, b in zip(total[name], values, strict=True)]
                progress.advance(task)
            uniform, inferred, late = total["uniform"], total["inferred"], total["late"]
            rows.append(
                {
                    "game": preset,
                    "players": players,
                    "partnerships": partnerships,
                    "decisions": total["decisions"][0],
                    "hand_cards_uniform": uniform[0] / max(1, uniform[1]),
                    "hand_cards_inferred": inferred[0] / max(1, inferred[1]),
                    "hand_cards_last_cards_only": late[0] / max(1, late[1]),
                    "all_cards_uniform": uniform[2] / max(1, uniform[3]),
                    "all_cards_inferred": inferred[2] / max(1, inferred[3]),
                }
            )
    table = Table(
        title=f"Cards placed right by sampled deals ({args.level} self-play, decisions where "
        "another seat has shown cards this round)"
    )
    for column in (
        "game",
        "decisions",
        "hand cards: uniform",
        "hand cards: inferred",
        "hand cards: last cards only",
        "all cards: uniform",
        "all cards: inferred",
    ):
        table.add_column(column, justify="left" if column == "game" else "right")
    for row in rows:
        label = f"{row['game']}, {row['players']} players" + (
            ", partnerships" if row["partnerships"] else ""
        )
        table.add_row(
            label,
            str(row["decisions"]),
            f"{row['hand_cards_uniform']:.1%}",
            f"{row['hand_cards_inferred']:.1%}",
            f"{row['hand_cards_last_cards_only']:.1%}",
            f"{row['all_cards_uniform']:.1%}",
            f"{row['all_cards_inferred']:.1%}",
        )
    console.print(table)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
