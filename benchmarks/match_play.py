"""Playing for the match, not the hand: does ``hard`` win more matches when it weighs each
hand's margin by what it is worth to the match?

Near the target a point is worth more or less than elsewhere: a side at 20 of 21 needs one
point, a side far behind needs risk. ``match-hard`` is ``hard`` (the flat search over deals)
whose deals' margins count by a match-equity table instead of as points: the chance of winning
the match from the score after the hand, worked out from how hands end between two ``hard``
players (``--hands-table`` self-play hands, both seatings, in the game's rules) and the game's
target and ``win_by``. ``hard`` ranks the moves by their mean margin over the deals;
``match-hard`` by their mean chance of winning the match (and, where that is equal, by the
margin), so near the end it takes a sure point over a likely two, or a long chance when only a
sweep saves it.

The two play duplicate matches: each deck's sequence of hands (``match:SEED:i``) is played as
a whole match twice, each player in each seat, so the luck of the cards cancels; the figure
is ``match-hard``'s share of the matches won, with its 95% interval. It wins more matches when
the whole interval lies above 50%.

    python benchmarks/match_play.py --game escoba --matches 500 [--hands-table 400]
        [--seed 2026] [--workers 2] [--json FILE]
"""

from __future__ import annotations

import argparse
import bisect
import functools
import json
import math
import multiprocessing
import statistics
import time
from collections import Counter
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from escoba import RULESETS, Game, Observation, RuleSet
from escoba.ai import make_player
from escoba.ai.baseline import BaselinePlayer
from escoba.ai.hard import DEALS, LEAST_DEALS, POSITIONS

CHUNK = 4  # decks per task

Outcomes = Mapping[tuple[int, int], float]
"""How hands end: (points of one side, of the other) -> its share of hands."""


def hand_outcomes(game: str, hands: int, seed: int, first: int = 0) -> Counter[tuple[int, int]]:
    """Hands ``first`` .. ``first + hands`` between two ``hard`` players: how many ended with
    each pair of points, counted from both sides (so the table is symmetric)."""
    rules = RULESETS[game]
    counted: Counter[tuple[int, int]] = Counter()
    for deck in range(first, first + hands):
        match = Game(rules, 2, seed=f"equity:{seed}:{deck}")
        players = [make_player("hard", seed * 1000 + deck * 2 + seat) for seat in range(2)]
        while match.hand_number == 0 and (seat := match.to_move) is not None:
            observation = match.observation(seat)
            match.play(players[seat].choose(observation, observation.legal_moves))
        mine, theirs = match.results[0].points
        counted[mine, theirs] += 1
        counted[theirs, mine] += 1
    return counted


class Equity:
    """The chance that a side wins the match from a score, at the start of a hand, when hands
    end as ``outcomes`` says (the same for both sides)."""

    def __init__(self, outcomes: Outcomes, rules: RuleSet) -> None:
        scoring = {pair: share for pair, share in outcomes.items() if pair != (0, 0) and share}
        total = sum(scoring.values())
        # A hand nobody scores in leaves the score as it was: it only delays the match.
        self.outcomes = {pair: share / total for pair, share in scoring.items()}
        self.target = rules.target_score
        self.win_by = rules.win_by
        self.ceiling = self.target + 60  # past this, a tied match is a coin toss
        by_margin: dict[int, list[tuple[tuple[int, int], float]]] = {}
        for (mine, theirs), share in self.outcomes.items():
            by_margin.setdefault(mine - theirs, []).append(((mine, theirs), share))
        self.margins = sorted(by_margin)
        self._by_margin = by_margin

    def winner(self, mine: int, theirs: int) -> int | None:
        """0 if this side has won, 1 if the other has, None if the match goes on."""
        if mine >= self.target and mine - theirs >= self.win_by:
            return 0
        if theirs >= self.target and theirs - mine >= self.win_by:
            return 1
        return None

    @functools.cache  # noqa: B019 (one table a run; it lives as long as the run)
    def before_hand(self, mine: int, theirs: int) -> float:
        """The chance of winning the match from this score, before a hand."""
        if mine >= self.ceiling or theirs >= self.ceiling:
            return 0.5 if mine == theirs else float(mine > theirs)
        return sum(
            share * self.after_hand(mine + x, theirs + y) for (x, y), share in self.outcomes.items()
        )

    def after_hand(self, mine: int, theirs: int) -> float:
        """The chance of winning the match from the score a hand left."""
        winner = self.winner(mine, theirs)
        if winner is not None:
            return 1.0 - winner
        return self.before_hand(mine, theirs)

    def of_margin(self, mine: int, theirs: int) -> Callable[[float], float]:
        """What a hand's margin (this side's points less the other's) is worth to the match
        from the score before it: the chance of winning the match, over the hands that end
        with that margin, between the margins measured; a hair of the margin itself breaks
        ties (a decided match still prefers points)."""
        worth = []
        for margin in self.margins:
            pairs = self._by_margin[margin]
            weight = sum(share for _, share in pairs)
            chance = sum(share * self.after_hand(mine + x, theirs + y) for (x, y), share in pairs)
            worth.append(chance / weight)
        margins = self.margins

        def value(margin: float) -> float:
            if margin <= margins[0]:
                chance = worth[0]
            elif margin >= margins[-1]:
                chance = worth[-1]
            else:
                high = bisect.bisect_left(margins, margin)
                low = high - 1
                part = (margin - margins[low]) / (margins[high] - margins[low])
                chance = worth[low] + part * (worth[high] - worth[low])
            return chance + 1e-4 * margin

        return value


class MatchHard(BaselinePlayer):
    """``hard``'s search over deals, each deal's margin weighed by the match equity."""

    def __init__(self, seed: int, equity: Equity) -> None:
        super().__init__(
            seed,
            name="match-hard",
            determinizations=DEALS,
            depth=6,
            positions=POSITIONS,
            min_deals=LEAST_DEALS,
        )
        self.equity = equity

    def worth(self, observation: Observation) -> Callable[[float], float] | None:
        side = observation.side
        mine = observation.totals[side]
        theirs = observation.totals[1 - side]
        return self.equity.of_margin(mine, theirs)


def play_matches(job: tuple[str, dict[tuple[int, int], float], int, int]) -> list[dict[str, Any]]:
    """``CHUNK`` decks from ``first``, each a duplicate pair of matches: who won each."""
    game, outcomes, seed, first = job
    rules = RULESETS[game]
    equity = Equity(outcomes, rules)
    played = []
    for deck in range(first, first + CHUNK):
        wins = 0
        hands = 0
        started = time.perf_counter()
        for seat_of_match_hard in (0, 1):
            match = Game(rules, 2, seed=f"match:{seed}:{deck}")
            players = [
                MatchHard(seed * 1000 + deck * 2 + seat, equity)
                if seat == seat_of_match_hard
                else make_player("hard", seed * 1000 + deck * 2 + seat)
                for seat in range(2)
            ]
            while (seat := match.to_move) is not None:
                observation = match.observation(seat)
                match.play(players[seat].choose(observation, observation.legal_moves))
            wins += match.winner == seat_of_match_hard
            hands += len(match.results)
        played.append(
            {"deck": deck, "wins": wins, "hands": hands, "seconds": time.perf_counter() - started}
        )
    return played


def interval(shares: list[float]) -> tuple[float, float, float]:
    """The mean of the decks' shares of matches won, and its 95% interval."""
    mean = statistics.fmean(shares)
    half = 1.96 * statistics.stdev(shares) / math.sqrt(len(shares)) if len(shares) > 1 else math.inf
    return mean, mean - half, mean + half


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--game", default="escoba", choices=sorted(RULESETS))
    parser.add_argument("--matches", type=int, default=200, help="decks (each two matches)")
    parser.add_argument("--hands-table", type=int, default=400, help="self-play hands")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=multiprocessing.cpu_count())
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    if RULESETS[args.game].hand_cards > 3:
        parser.error("match-hard plays the 3-card games (hard's flat search)")
    if args.matches < 1 or args.hands_table < 1:
        parser.error("--matches and --hands-table: 1 or more")
    console = Console(stderr=True)
    matches = -(-args.matches // CHUNK) * CHUNK
    with multiprocessing.Pool(args.workers) as pool, Progress(console=console) as progress:
        size = -(-args.hands_table // args.workers)
        firsts = range(0, args.hands_table, size)
        table = progress.add_task("hands between two 'hard'", total=len(firsts))
        outcomes: Counter[tuple[int, int]] = Counter()
        jobs = [
            (args.game, min(size, args.hands_table - first), args.seed, first) for first in firsts
        ]
        for counted in pool.imap_unordered(_outcomes_job, jobs):
            outcomes.update(counted)
            progress.advance(table)
        shares = {pair: count / sum(outcomes.values()) for pair, count in outcomes.items()}
        task = progress.add_task("duplicate matches", total=matches)
        played: list[dict[str, Any]] = []
        jobs2 = [(args.game, shares, args.seed, first) for first in range(0, matches, CHUNK)]
        for chunk in pool.imap_unordered(play_matches, jobs2):
            played.extend(chunk)
            progress.advance(task, len(chunk))
    mean, low, high = interval([deck["wins"] / 2 for deck in played])
    hands = statistics.fmean(deck["hands"] / 2 for deck in played)
    result = Table(title=f"match-hard against hard, {args.game}, seed {args.seed}")
    for column in (
        "matches",
        "match-hard's share of matches won (95%)",
        "hands a match",
        "wins more?",
    ):
        result.add_column(column, justify="right")
    result.add_row(
        str(2 * len(played)),
        f"{100 * mean:.1f}% ({100 * low:.1f} .. {100 * high:.1f})",
        f"{hands:.1f}",
        "yes" if low > 0.5 else ("no: fewer" if high < 0.5 else "not told apart"),
    )
    Console().print(result)
    if args.json:
        figures = {
            "game": args.game,
            "seed": args.seed,
            "matches": 2 * len(played),
            "share": mean,
            "interval": [low, high],
            "hands_per_match": hands,
            "table_hands": args.hands_table,
        }
        args.json.write_text(json.dumps(figures, indent=1) + "\n")


def _outcomes_job(job: tuple[str, int, int, int]) -> Counter[tuple[int, int]]:
    game, hands, seed, first = job
    return hand_outcomes(game, hands, seed, first)


if __name__ == "__main__":
    main()
