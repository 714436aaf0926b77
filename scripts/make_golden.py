"""Regenerate the golden playthrough files in ``tests/golden/``.

Each file pins one seeded match for its first hand or two: at every step, the legal moves of
the seat to move, the move chosen (by ``random.Random(move_seed)`` among the legal moves
sorted by text) and every seat's observation, serialised to plain JSON (cards as text such as
``"7d"``, moves as text such as ``"4h:4c+7d"``). ``tests/test_golden.py`` plays the same
matches again and compares.

Run ``python scripts/make_golden.py`` after an intended change of behaviour, and
``python scripts/make_golden.py --check`` to compare without writing.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from escoba import (
    RULESETS,
    Card,
    Deal,
    Event,
    Game,
    HandResult,
    InitialSweep,
    Move,
    Observation,
    Play,
    Redeal,
    RuleSet,
    preset_name,
)

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "tests" / "golden"

# name -> (preset, players, partnerships, seed, hands): seeds picked so that the files show an
# initial-table sweep and sweeps (escoba-2p), a kings redeal (scopa-2p), three players
# (escova-3p) and partners (escoba-4p-partners).
CASES: dict[str, dict[str, Any]] = {
    "escoba-2p": {"preset": "escoba", "players": 2, "partnerships": False, "seed": 17, "hands": 2},
    "scopa-2p": {"preset": "scopa", "players": 2, "partnerships": False, "seed": 145, "hands": 2},
    "escova-3p": {"preset": "escova", "players": 3, "partnerships": False, "seed": 3, "hands": 1},
    "escoba-4p-partners": {
        "preset": "escoba",
        "players": 4,
        "partnerships": True,
        "seed": 0,
        "hands": 1,
    },
    "scopone-scientifico-4p": {
        "preset": "scopone-scientifico",
        "players": 4,
        "partnerships": True,
        "seed": 1,
        "hands": 1,
    },
    # The regional options together; seed 7 has an ace take the table, a napola of 6 and
    # re bello in its first hand.
    "scopone-classico-regional": {
        "preset": "scopone-classico",
        "options": {"ace_takes_all": True, "re_bello": True, "napola": True},
        "players": 4,
        "partnerships": True,
        "seed": 7,
        "hands": 1,
    },
}


def cards_json(cards: Iterable[Card]) -> list[str]:
    """Cards as texts, in canonical deck order."""
    return [str(c) for c in sorted(cards, key=lambda c: c.index)]


def moves_json(moves: Iterable[Move]) -> list[str]:
    """Moves as texts, sorted (the engine's order of legal moves is not part of the API)."""
    return sorted(str(m) for m in moves)


def event_json(event: Event) -> str:
    """One public event as a short text."""
    if isinstance(event, Play):
        return f"play {event.seat} {event.move}" + (" sweep" if event.sweep else "")
    if isinstance(event, Deal):
        return f"deal {event.round}"
    if isinstance(event, InitialSweep):
        taken = "+".join(cards_json(event.cards))
        return f"initial_sweep {event.dealer} {taken} x{event.sweeps}"
    if isinstance(event, Redeal):
        return "redeal " + " ".join(cards_json(event.table))
    raise TypeError(f"unknown event {event!r}")


def result_json(result: HandResult) -> dict[str, Any]:
    return {
        "dealer": result.dealer,
        "piles": [cards_json(pile) for pile in result.piles],
        "sweeps": list(result.sweeps),
        "points": list(result.points),
        "breakdown": {name: list(points) for name, points in result.breakdown.items()},
        "leftovers": cards_json(result.leftovers),
        "last_capturer": result.last_capturer,
    }


def rules_json(rules: RuleSet) -> str | dict[str, Any]:
    """A preset's name, or the options that differ from the ``escoba`` base."""
    return preset_name(rules) or rules.differences(RuleSet())


def observation_json(obs: Observation) -> dict[str, Any]:
    """An observation as plain JSON data: every field, cards and moves as text."""
    return {
        "seat": obs.seat,
        "rules": rules_json(obs.rules),
        "players": obs.players,
        "partnerships": obs.partnerships,
        "sides": [list(side) for side in obs.sides],
        "hand_number": obs.hand_number,
        "dealer": obs.dealer,
        "to_move": obs.to_move,
        "hand": cards_json(obs.hand),
        "table": cards_json(obs.table),
        "stock_size": obs.stock_size,
        "hand_sizes": list(obs.hand_sizes),
        "captured": [cards_json(pile) for pile in obs.captured],
        "sweeps": list(obs.sweeps),
        "history": [event_json(e) for e in obs.history],
        "totals": list(obs.totals),
        "results": [result_json(r) for r in obs.results],
        "legal_moves": moves_json(obs.legal_moves),
        "winner": obs.winner,
    }


def playthrough(name: str) -> dict[str, Any]:
    """Play a case's match (its first hands) and note every step."""
    case = CASES[name]
    rules = RULESETS[case["preset"]].replace(**case.get("options", {}))
    game = Game(rules, case["players"], case["partnerships"], seed=case["seed"])
    chooser = random.Random(case["seed"])
    steps: list[dict[str, Any]] = []
    while True:
        step: dict[str, Any] = {
            "to_move": game.to_move,
            "legal": moves_json(game.legal_moves()),
            "observations": [observation_json(game.observation(s)) for s in range(game.players)],
        }
        steps.append(step)
        if game.is_over() or game.hand_number >= case["hands"]:
            break
        chosen = chooser.choice(step["legal"])
        step["move"] = chosen
        game.play(chosen)
    return {"name": name, "case": case, "steps": steps}


def render(data: dict[str, Any]) -> str:
    """JSON text with one step per line (small diffs, readable in review)."""
    lines = [
        "{",
        f'"name": {json.dumps(data["name"])},',
        f'"case": {json.dumps(data["case"])},',
        '"steps": [',
    ]
    steps = data["steps"]
    for i, step in enumerate(steps):
        comma = "," if i < len(steps) - 1 else ""
        lines.append(json.dumps(step, ensure_ascii=False, separators=(",", ":")) + comma)
    lines += ["]", "}"]
    return "\n".join(lines) + "\n"


def golden_path(name: str) -> Path:
    return GOLDEN_DIR / f"{name}.json"


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    for name in CASES:
        text = render(playthrough(name))
        path = golden_path(name)
        if check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
            continue
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path} ({len(text.encode()) // 1024} KB)")
    if stale:
        print("out of date: " + ", ".join(stale) + " (run python scripts/make_golden.py)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
