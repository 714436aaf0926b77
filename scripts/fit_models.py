"""Fit the computer players' models on self-play, and write them to ``escoba/ai/fitted.py``.

Three steps, each a subcommand:

    python scripts/fit_models.py selfplay --preset escoba --players 2 --hands 3000 \\
        --level baseline --out selfplay/escoba-2p.jsonl
    python scripts/fit_models.py play selfplay/*.jsonl [--write]
    python scripts/fit_models.py evaluation selfplay/*.jsonl [--write]

``selfplay`` plays single hands between copies of a level and keeps each hand's seed and moves
(one JSON line a hand; the hand replays from them). ``play`` fits the play model of
:mod:`escoba.ai.policy` by maximum likelihood on every choice with two or more legal moves,
one weight set per capture rule and one for Scopone (``escoba.ai.policy.model_kind``).
``evaluation`` fits the evaluation of :mod:`escoba.ai.evaluation` by least squares on the
hands' outcomes. Each prints its fit
against a simple reference; ``--write`` rewrites the weights in ``escoba/ai/fitted.py``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import re
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console
from rich.progress import Progress

from escoba import RULESETS, Game
from escoba.ai import fitted as fitted_module
from escoba.ai import make_player
from escoba.ai.evaluation import FEATURES as EVALUATION_FEATURES
from escoba.ai.evaluation import Evaluation
from escoba.ai.policy import FEATURES, Position, model_kind, move_features
from escoba.ai.sampling import Determinization
from escoba.ai.simulation import Simulation

FITTED = Path(__file__).resolve().parent.parent / "src" / "escoba" / "ai" / "fitted.py"
FULL_DECK = (1 << 40) - 1
console = Console()


# -- self-play ---------------------------------------------------------------------------


def play_hand(job: tuple[str, int, bool, str, str]) -> dict[str, Any]:
    """One hand between copies of ``level``; its seed and moves."""
    preset, players, partnerships, level, seed = job
    game = Game(RULESETS[preset], players, partnerships, seed=seed)
    seats = [make_player(level, zlib.crc32(f"{seed}:{s}".encode())) for s in range(players)]
    keys: list[int] = []
    while game.hand_number == 0:
        seat = game.to_move
        assert seat is not None
        move = seats[seat].choose(game.observation(seat), game.legal_moves())
        keys.append(move.key)
        game.play(move)
    return {
        "preset": preset,
        "players": players,
        "partnerships": partnerships,
        "seed": seed,
        "keys": keys,
    }


def selfplay(args: argparse.Namespace) -> None:
    jobs = [
        (args.preset, args.players, args.partnerships, args.level, f"selfplay:{args.tag}:{i}")
        for i in range(args.hands)
    ]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with (
        args.out.open("a") as out,
        multiprocessing.Pool(args.workers) as pool,
        Progress(console=console) as progress,
    ):
        task = progress.add_task(f"self-play {args.preset} {args.players}p", total=len(jobs))
        for hand in pool.imap_unordered(play_hand, jobs, chunksize=4):
            out.write(json.dumps(hand) + "\n")
            progress.advance(task)


def hands_of(paths: list[Path]) -> Iterator[dict[str, Any]]:
    for path in paths:
        with path.open() as lines:
            for line in lines:
                yield json.loads(line)


def replay(hand: dict[str, Any]) -> Iterator[tuple[Game, int]]:
    """The game before each move of a recorded hand, with the key played (the game is the
    same object, moved on after each yield)."""
    game = Game(RULESETS[hand["preset"]], hand["players"], hand["partnerships"], seed=hand["seed"])
    for key in hand["keys"]:
        yield game, key
        game.play_key(key)


def _mask(cards: Any) -> int:
    mask = 0
    for card in cards:
        mask |= card.bit
    return mask


# -- the play model ----------------------------------------------------------------------


def position_of(game: Game) -> Position:
    """The mover's position as the play model sees it (what the mover could not see)."""
    seat = game.to_move
    assert seat is not None
    obs = game.observation(seat)
    visible = _mask(obs.table) | _mask(obs.hand)
    for pile in obs.captured:
        visible |= _mask(pile)
    plays_after = sum(obs.hand_sizes) + obs.stock_size - 1
    nxt = (seat + 1) % obs.players
    next_hand = obs.hand_sizes[nxt]
    if nxt != seat and next_hand == 0 and obs.stock_size > 0:
        next_hand = obs.rules.hand_cards  # a new round is dealt
    if plays_after == 0:
        next_hand = 0
    return Position(obs.rules, _mask(obs.table), FULL_DECK & ~visible, plays_after, next_hand)


def choices(paths: list[Path], kind: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Features of every legal move of every choice with two or more moves, in the games
    of one model kind (``escoba.ai.policy.model_kind``): rows, the choice each row belongs
    to, and whether the row is the move chosen."""
    rows: list[tuple[float, ...]] = []
    group: list[int] = []
    chosen: list[bool] = []
    count = 0
    for hand in hands_of(paths):
        if model_kind(RULESETS[hand["preset"]]) != kind:
            continue
        for game, played in replay(hand):
            keys = game.legal_keys()
            if len(keys) < 2:
                continue
            position = position_of(game)
            for key in keys:
                rows.append(move_features(position, key))
                group.append(count)
                chosen.append(key == played)
            count += 1
    return np.array(rows), np.array(group), np.array(chosen)


def fit_logit(
    x: np.ndarray, group: np.ndarray, chosen: np.ndarray, l2: float = 1e-3
) -> tuple[np.ndarray, float]:
    """Conditional logit by Newton's method: weights and the mean log-likelihood a choice."""
    groups = int(group.max()) + 1
    w = np.zeros(x.shape[1])
    for _ in range(50):
        s = x @ w
        s -= np.repeat(np.maximum.reduceat(s, _starts(group)), np.diff(_edges(group)))
        e = np.exp(s)
        z = np.add.reduceat(e, _starts(group))
        p = e / np.repeat(z, np.diff(_edges(group)))
        grad = x[chosen].sum(axis=0) - (p[:, None] * x).sum(axis=0) - l2 * groups * w
        mean = np.add.reduceat(p[:, None] * x, _starts(group))  # per group E[x]
        xc = x - np.repeat(mean, np.diff(_edges(group)), axis=0)
        hess = -(xc * p[:, None]).T @ xc - l2 * groups * np.eye(x.shape[1])
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    s = x @ w
    s -= np.repeat(np.maximum.reduceat(s, _starts(group)), np.diff(_edges(group)))
    log_z = np.log(np.add.reduceat(np.exp(s), _starts(group)))
    return w, float((s[chosen] - log_z).sum() / groups)


def _starts(group: np.ndarray) -> np.ndarray:
    return _edges(group)[:-1]


def _edges(group: np.ndarray) -> np.ndarray:
    change = np.flatnonzero(np.diff(group)) + 1
    return np.concatenate(([0], change, [len(group)]))


def fit_play(args: argparse.Namespace) -> None:
    fitted: dict[str, tuple[float, ...]] = {}
    for capture in ("sum15", "match", "scopone"):
        x, group, chosen = choices(args.data, capture)
        if not len(x):
            continue
        # Every choice's moves are contiguous rows, so groups are runs.
        w, ll = fit_logit(x, group, chosen)
        sizes = np.diff(_edges(group))
        uniform = float(-np.log(sizes).mean())
        s = x @ w
        best = np.maximum.reduceat(s, _starts(group))
        top = s == np.repeat(best, sizes)
        accuracy = float(top[chosen].mean())
        console.print(
            f"{capture}: {len(sizes)} choices; mean log-likelihood {ll:.3f} "
            f"(uniform {uniform:.3f}); the model's favourite is the move played "
            f"{accuracy:.1%} of the time"
        )
        for name, weight in zip(FEATURES, w, strict=True):
            console.print(f"  {name:>20} {weight:+.3f}")
        fitted[capture] = tuple(round(float(v), 4) for v in w)
    if args.write:
        write_fitted("PLAY_WEIGHTS", fitted)


# -- the evaluation ----------------------------------------------------------------------


def simulation_of(game: Game) -> Simulation:
    """The search's simulation of the game's hand, every card where it is (the stock's order
    does not matter to the evaluation)."""
    seat = game.to_move
    assert seat is not None
    obs = game.observation(seat)
    hands = tuple(tuple(sorted(c.index for c in game.hand(s))) for s in range(game.players))
    placed = _mask(obs.table)
    for pile in obs.captured:
        placed |= _mask(pile)
    for hand in hands:
        placed |= sum(1 << c for c in hand)
    stock = tuple(c for c in range(40) if not placed >> c & 1)
    return Simulation.from_observation(obs, Determinization(hands=hands, stock=stock))


def positions(paths: list[Path], capture: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For every position of every hand and every side: the evaluation's features, the
    points still to come (the hand's final margin less the sweeps already made), and the
    reference estimate of the search's first version."""
    rows: list[tuple[float, ...]] = []
    targets: list[float] = []
    reference: list[float] = []
    for hand in hands_of(paths):
        rules = RULESETS[hand["preset"]]
        if rules.capture != capture:
            continue
        evaluation = Evaluation(rules)
        before: list[tuple[Simulation, int]] = []
        game = None
        for game, _key in replay(hand):
            sim = simulation_of(game)
            for side in range(len(game.sides)):
                before.append((sim, side))
        assert game is not None
        points = game.results[0].points
        for sim, side in before:
            n = sim.sides
            margin = points[side] - (sum(points) - points[side]) / (n - 1)
            banked = sim.sweeps[side] - (sum(sim.sweeps) - sim.sweeps[side]) / (n - 1)
            rows.append(evaluation.features(sim, side))
            targets.append(margin - banked)
            reference.append(sim.estimate(side) - banked)
    return np.array(rows), np.array(targets), np.array(reference)


def fit_evaluation(args: argparse.Namespace) -> None:
    fitted: dict[str, tuple[float, ...]] = {}
    for capture in ("sum15", "match"):
        x, y, reference = positions(args.data, capture)
        if not len(x):
            continue
        rng = np.random.default_rng(0)
        test = rng.random(len(y)) < 0.2
        w, *_ = np.linalg.lstsq(x[~test], y[~test], rcond=None)
        mse = float(((x[test] @ w - y[test]) ** 2).mean())
        ref = float(((reference[test] - y[test]) ** 2).mean())
        zero = float((y[test] ** 2).mean())
        console.print(
            f"{capture}: {len(y)} positions; held-out mean squared error {mse:.3f} "
            f"(the first estimate {ref:.3f}, zero {zero:.3f})"
        )
        for name, weight in zip(EVALUATION_FEATURES, w, strict=True):
            console.print(f"  {name:>20} {weight:+.3f}")
        w, *_ = np.linalg.lstsq(x, y, rcond=None)
        fitted[capture] = tuple(round(float(v), 4) for v in w)
    if args.write:
        write_fitted("EVALUATION_WEIGHTS", fitted)


def write_fitted(name: str, values: dict[str, tuple[float, ...]]) -> None:
    """Replace the entries ``values`` names in the dictionary ``name`` of fitted.py (the
    others stay as they are)."""
    values = {**getattr(fitted_module, name), **values}
    text = FITTED.read_text()
    # One number a line, as ruff formats a tuple too long for one.
    body = "".join(
        f'    "{key}": (\n' + "".join(f"        {v!r},\n" for v in value) + "    ),\n"
        for key, value in values.items()
    )
    pattern = re.compile(rf"^({name}: Final\[.*?\] = {{\n).*?^(}})", re.M | re.S)
    new, count = pattern.subn(lambda m: m.group(1) + body + m.group(2), text)
    if count != 1:
        raise SystemExit(f"{name} not found in {FITTED}")
    FITTED.write_text(new)
    console.print(f"wrote {name} to {FITTED}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("selfplay", help="play and keep hands")
    play.add_argument("--preset", default="escoba", choices=sorted(RULESETS))
    play.add_argument("--players", type=int, default=2)
    play.add_argument("--partnerships", action="store_true")
    play.add_argument("--hands", type=int, default=1000)
    play.add_argument("--level", default="baseline")
    play.add_argument("--tag", default="0", help="distinguishes the seeds of separate runs")
    play.add_argument("--workers", type=int, default=2)
    play.add_argument("--out", type=Path, required=True)
    fit = sub.add_parser("play", help="fit the play model")
    fit.add_argument("data", type=Path, nargs="+")
    fit.add_argument("--write", action="store_true")
    fit = sub.add_parser("evaluation", help="fit the evaluation")
    fit.add_argument("data", type=Path, nargs="+")
    fit.add_argument("--write", action="store_true")
    args = parser.parse_args()
    if args.command == "selfplay":
        selfplay(args)
    elif args.command == "play":
        fit_play(args)
    else:
        fit_evaluation(args)


if __name__ == "__main__":
    main()
