"""Generate the shipped puzzles (``src/escoba/data/puzzles.json``) from self-play.

    python scripts/puzzles.py --seed 2026 --count 150      # writes the shipped set
    python scripts/puzzles.py --seed 7 --count 12 --out /tmp/p.json --budget 20000

Matches between the computer levels (easy, medium and hard, paired in turn) are played in
each preset (escoba, scopa, escova by default); every position of their first hand with two or
more legal moves is a candidate. A position is kept when one move is clearly best:

- where every card is known (two players, an empty stock: :func:`escoba.ai.exact.is_exact`),
  the exact values (:func:`escoba.ai.exact.exact_values`) must put the best move at least
  ``GAP`` (1 point) above the second;
- elsewhere a quick search (budget 20,000) must see such a gap, then two large searches
  (``--budget``, default 200,000 positions, at least ``--min-deals`` 300 deals) from two
  different seeds must agree on the best move, each with a gap of at least ``GAP``; the gap
  kept is the smaller.

Its theme is :func:`escoba.puzzles.theme_of`'s (a position that fits none is dropped); the
same position (hand, table, what each side took) is kept once. Its rating is the rating at
which a player finds the answer half the time, fitted by maximum likelihood from how often
each level finds it (``TRIES`` seeds of each of easy, medium and hard, at their ladder
ratings; beginner, who plays at random, finds it one time in as many as there are moves),
with a prior of one found and one missed at 1500 (a new player).

Candidates are gathered until every theme has its share (``--count`` over the themes) or
``--matches`` matches per preset have been played; the set is then chosen theme by theme in
turn, preset by preset within a theme, so that rare themes are all kept. The output is sorted
by id and depends only on the arguments: the same seed gives the same file, byte for byte.

``--database URL`` (the ``web`` extra) first cuts positions from the newest ``--stored``
finished matches of two players in those presets stored in a server's database, read through
``escoba.server.storage``: puzzles of source ``match``. ``python scripts/puzzles.py --seed 2026
--count 150`` took 4 min 23 s of one core for the shipped set.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Final

from rich.console import Console
from rich.progress import Progress

from escoba import RULESETS, Game
from escoba.ai import make_player
from escoba.ai.exact import exact_values, is_exact
from escoba.ai.ratings import ELO, level_rating
from escoba.ai.search import SearchPlayer
from escoba.moves import Move
from escoba.observation import Observation
from escoba.puzzles import THEMES, possible_themes, theme_of
from escoba.rules import preset_name

ROOT: Final = Path(__file__).resolve().parent.parent
OUT: Final = ROOT / "src" / "escoba" / "data" / "puzzles.json"
PRESETS: Final = ("escoba", "scopa", "escova")
INITIALS: Final = {"escoba": "e", "scopa": "s", "escova": "v"}
PAIRS: Final = (("easy", "medium"), ("medium", "hard"), ("hard", "easy"), ("hard", "hard"))
"""The levels who play the generator's matches, in turn."""
GAP: Final = 1.0
"""Points by which the best move must beat the second."""
QUICK_BUDGET: Final = 20_000
TRIES: Final = 6
"""Seeds of each level asked for the answer (for the rating)."""
RATED_LEVELS: Final = ("easy", "medium", "hard")


@dataclass(frozen=True, slots=True)
class Candidate:
    preset: str
    theme: str
    record: dict[str, Any]
    answer: Move
    gap: float
    exact: bool
    rating: int
    source: str = "self-play"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--count", type=int, default=150, help="puzzles to keep")
    parser.add_argument("--matches", type=int, default=400, help="most matches per preset")
    parser.add_argument("--budget", type=int, default=200_000, help="the large searches'")
    parser.add_argument("--min-deals", type=int, default=300)
    parser.add_argument("--presets", default=",".join(PRESETS))
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument(
        "--database",
        metavar="URL",
        help="also cut positions from the finished matches stored there (the server's database)",
    )
    parser.add_argument("--stored", type=int, default=500, help="most stored matches to read")
    args = parser.parse_args(argv)
    presets = tuple(args.presets.split(","))
    for preset in presets:
        if preset not in INITIALS:
            parser.error(f"--presets: {preset!r} is not one of {', '.join(INITIALS)}")
    if args.count < 1 or args.matches < 1 or args.budget < 1 or args.min_deals < 1:
        parser.error("--count, --matches, --budget and --min-deals must be at least 1")
    console = Console(stderr=True)
    records = [] if args.database is None else stored_records(args.database, args.stored, presets)
    if args.database is not None:
        console.print(f"{len(records)} finished matches of two players read from the database")
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("matches", total=args.matches * len(presets))
        data = generate(
            args.seed,
            args.count,
            presets=presets,
            records=records,
            matches=args.matches,
            budget=args.budget,
            min_deals=args.min_deals,
            advance=lambda found: progress.update(
                task, advance=1, description=" ".join(f"{n}" for n in found.values())
            ),
        )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(dump(data), encoding="utf-8")
    themes: dict[tuple[str, str], int] = defaultdict(int)
    for puzzle in data["puzzles"]:
        themes[(puzzle["preset"], puzzle["theme"])] += 1
    console.print(f"{len(data['puzzles'])} puzzles written to {args.out}")
    for preset in presets:
        shares = ", ".join(f"{theme} {themes[(preset, theme)]}" for theme in THEMES)
        console.print(f"  {preset}: {shares}")
    return 0


def dump(data: dict[str, Any]) -> str:
    """The file's text: one puzzle a line, keys sorted (small diffs, stable bytes)."""
    lines = [json.dumps(p, sort_keys=True, separators=(",", ":")) for p in data["puzzles"]]
    head = json.dumps({k: v for k, v in data.items() if k != "puzzles"}, sort_keys=True)
    return head[:-1] + ', "puzzles": [\n' + ",\n".join(lines) + "\n]}\n"


def generate(
    seed: int,
    count: int,
    *,
    presets: Sequence[str] = PRESETS,
    matches: int = 400,
    budget: int = 200_000,
    min_deals: int = 300,
    records: Sequence[Mapping[str, Any]] = (),
    advance: Callable[[dict[str, int]], object] | None = None,
) -> dict[str, Any]:
    """The puzzles' data (``{"format", "version", "generator", "puzzles"}``): the positions
    of the stored matches' ``records`` first, then self-play's."""
    share = math.ceil(count / len(THEMES))
    found: dict[str, list[Candidate]] = defaultdict(list)
    seen: set[tuple[Any, ...]] = set()
    for record in records:
        for game in _record_games(record):
            candidate = _position_candidate(game, budget, min_deals, found, share, seen)
            if candidate is not None:
                found[candidate.theme].append(replace(candidate, source="match"))
    for number in range(matches):
        for preset in presets:
            for candidate in _match_candidates(
                f"{seed}:{preset}:{number}", preset, budget, min_deals, found, share, seen
            ):
                found[candidate.theme].append(candidate)
            if advance is not None:
                advance({theme: len(found[theme]) for theme in THEMES})
        if all(len(found[theme]) >= share for theme in THEMES):
            break
    chosen = _choose(found, count, presets)
    puzzles: list[dict[str, Any]] = []
    for preset in presets:
        mine = [c for c in chosen if c.preset == preset]
        for index, candidate in enumerate(mine, start=1):
            puzzles.append(
                {
                    "id": f"{INITIALS[preset]}{index:04d}",
                    "preset": preset,
                    "theme": candidate.theme,
                    "rating": candidate.rating,
                    "answer": str(candidate.answer),
                    "gap": round(candidate.gap, 2),
                    "exact": candidate.exact,
                    "source": candidate.source,
                    "record": candidate.record,
                }
            )
    puzzles.sort(key=lambda p: str(p["id"]))
    return {
        "format": "escoba-puzzles",
        "version": 1,
        "generator": {
            "seed": seed,
            "count": count,
            "matches": matches,
            "budget": budget,
            "min_deals": min_deals,
            "presets": list(presets),
        },
        "puzzles": puzzles,
    }


def _choose(
    found: dict[str, list[Candidate]], count: int, presets: Sequence[str]
) -> list[Candidate]:
    """Up to ``count`` candidates, a theme at a time in turn, a preset at a time within it."""
    queues = {}
    for theme in THEMES:
        by_preset = [[c for c in found[theme] if c.preset == p] for p in presets]
        queues[theme] = iter(
            [c for group in itertools.zip_longest(*by_preset) for c in group if c is not None]
        )
    chosen: list[Candidate] = []
    while len(chosen) < count:
        took = False
        for theme in THEMES:
            candidate = next(queues[theme], None)
            if candidate is not None and len(chosen) < count:
                chosen.append(candidate)
                took = True
        if not took:
            break
    return chosen


def _match_candidates(
    seed: str,
    preset: str,
    budget: int,
    min_deals: int,
    found: dict[str, list[Candidate]],
    share: int,
    seen: set[tuple[Any, ...]],
) -> Iterator[Candidate]:
    """The puzzles of one match's first hand, its levels paired by the seed."""
    rules = RULESETS[preset]
    game = Game(rules, players=2, seed=seed)
    pair = PAIRS[sum(map(ord, seed)) % len(PAIRS)]
    players = [make_player(level, seed=index) for index, level in enumerate(pair)]
    while not game.results and game.to_move is not None:
        candidate = _position_candidate(game, budget, min_deals, found, share, seen)
        if candidate is not None:
            yield candidate
        observation = game.observation(game.to_move)
        game.play(players[game.to_move].choose(observation, observation.legal_moves))


def _position_candidate(
    game: Game,
    budget: int,
    min_deals: int,
    found: dict[str, list[Candidate]],
    share: int,
    seen: set[tuple[Any, ...]],
) -> Candidate | None:
    """The position of ``game`` as a puzzle, if it is one and was not seen before."""
    assert game.to_move is not None
    observation = game.observation(game.to_move)
    if len(observation.legal_moves) < 2:
        return None
    key = _position_key(observation)
    if key in seen:
        return None
    seen.add(key)
    return _candidate(game, observation, budget, min_deals, found, share)


def _record_games(record: Mapping[str, Any]) -> list[Game]:
    """The match of ``record`` at each of its positions with a seat to move."""
    games: list[Game] = []

    def seen(game: Game, _event: object) -> None:
        if game.to_move is not None:
            games.append(game.copy())

    Game.from_record(record, on_move=seen)
    return games


def stored_records(url: str, limit: int, presets: Sequence[str]) -> list[dict[str, Any]]:
    """The records of the newest ``limit`` finished matches of two players stored at ``url``
    (the server's database) whose rules are one of ``presets``, oldest first."""
    from escoba.server.storage.repository import Storage

    storage = Storage(url)
    try:
        records = []
        for match, _room, _seats in storage.finished_matches(limit):
            found = storage.finished_match_record(match.id)
            if found is None:
                continue
            record = dict(found[2])
            game = Game.from_record(record)
            if game.players == 2 and preset_name(game.rules) in presets:
                records.append((match.id, record))
    finally:
        storage.close()
    return [record for _, record in sorted(records, key=lambda pair: pair[0])]


def _position_key(observation: Observation) -> tuple[Any, ...]:
    return (
        observation.rules,
        frozenset(observation.hand),
        frozenset(observation.table),
        tuple(observation.captured),
        observation.hand_sizes,
        observation.stock_size,
    )


def _candidate(
    game: Game,
    observation: Observation,
    budget: int,
    min_deals: int,
    found: dict[str, list[Candidate]],
    share: int,
) -> Candidate | None:
    exact = is_exact(observation)
    if not exact and all(len(found[t]) >= share for t in possible_themes(observation)):
        return None  # no theme still wanted could come of it: spare the search
    if exact:
        ranked = exact_values(observation)
    else:
        quick = SearchPlayer(0, budget=min(QUICK_BUDGET, budget), min_deals=min(50, min_deals))
        ranked = quick.evaluate(observation, observation.legal_moves)
    gap = ranked[0][1] - ranked[1][1]
    if gap < GAP:
        return None
    theme = theme_of(game, ranked, exact=exact)
    if theme is None or (not exact and len(found[theme]) >= share):
        return None  # a search's proof is dear: spend it only on a theme still wanted
    if not exact:
        gaps = []
        for search_seed in (1, 2):
            large = SearchPlayer(search_seed, budget=budget, min_deals=min_deals).evaluate(
                observation, observation.legal_moves
            )
            if large[0][0] != ranked[0][0] or large[0][1] - large[1][1] < GAP:
                return None
            gaps.append(large[0][1] - large[1][1])
        gap = min(gaps)
    preset = preset_name(observation.rules)
    if preset not in INITIALS:
        return None
    answer = ranked[0][0]
    return Candidate(
        preset, theme, dict(game.record()), answer, gap, exact, _rating(observation, answer)
    )


def _rating(observation: Observation, answer: Move) -> int:
    """The rating at which a player finds ``answer`` half the time (maximum likelihood over
    the levels' tries, with a prior of one found and one missed at 1500)."""
    legal = list(observation.legal_moves)
    tries: list[tuple[float, float, float]] = [(1500.0, 1.0, 1.0)]
    beginner = level_rating("beginner", observation.rules)
    if beginner is not None:
        tries.append((beginner.rating, TRIES / len(legal), TRIES * (1 - 1 / len(legal))))
    for level in RATED_LEVELS:
        rated = level_rating(level, observation.rules)
        if rated is None:
            continue
        found = sum(
            make_player(level, seed=100 + s).choose(observation, legal) == answer
            for s in range(TRIES)
        )
        tries.append((rated.rating, float(found), float(TRIES - found)))

    def likelihood(rating: float) -> float:
        total = 0.0
        for level, won, lost in tries:
            chance = 1 / (1 + math.exp((rating - level) / ELO))
            total += won * math.log(chance) + lost * math.log(1 - chance)
        return total

    return max(range(600, 2601, 5), key=likelihood)


if __name__ == "__main__":
    sys.exit(main())
