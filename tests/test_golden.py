"""Golden playthroughs (DESIGN.md "Examples to learn from": golden playthrough files pin
behaviour): seeded matches replayed step by step against the files in tests/golden/, which
``python scripts/make_golden.py`` writes. The files' contents are also checked against the
rules on their own, so a regenerated file cannot pin a wrong behaviour unnoticed."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from conftest import reference_legal_moves
from escoba import DECK, RULESETS, Card, Game

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "make_golden.py"
REGENERATE = (
    "If the change is intended, rerun `python scripts/make_golden.py` and commit the files."
)


def load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_golden", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


make_golden = load_script()
CASES: dict[str, dict[str, Any]] = make_golden.CASES


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(make_golden.golden_path(name).read_text(encoding="utf-8"))
    return data


def short(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 200 else text[:200] + "..."


def first_difference(old: object, new: object, path: str = "") -> str | None:
    """Where two JSON values first differ, as a path and both values."""
    if type(old) is not type(new):
        return f"{path or '/'}: file has {short(old)}, engine gives {short(new)}"
    if isinstance(old, dict) and isinstance(new, dict):
        for key in list(old) + [k for k in new if k not in old]:
            if key not in new:
                return f"{path}/{key}: in the file, no longer given by the engine"
            if key not in old:
                return f"{path}/{key}: given by the engine, not in the file"
            found = first_difference(old[key], new[key], f"{path}/{key}")
            if found:
                return found
        return None
    if isinstance(old, list) and isinstance(new, list):
        for i, (a, b) in enumerate(zip(old, new, strict=False)):
            found = first_difference(a, b, f"{path}/{i}")
            if found:
                return found
        if len(old) != len(new):
            return f"{path or '/'}: file has {len(old)} items, engine gives {len(new)}"
        return None
    if old != new:
        return f"{path or '/'}: file has {short(old)}, engine gives {short(new)}"
    return None


@pytest.mark.parametrize("name", sorted(CASES))
def test_engine_matches_the_golden_playthrough(name: str) -> None:
    """DESIGN.md: the seeded playthroughs behave exactly as pinned, step by step: legal moves,
    chosen moves and every seat's observation."""
    expected = load(name)
    actual = json.loads(make_golden.render(make_golden.playthrough(name)))
    difference = first_difference(expected, actual)
    assert difference is None, (
        f"golden playthrough {name} differs from the engine at {difference}. {REGENERATE}"
    )
    assert expected == actual


def test_golden_files_are_exactly_the_cases_and_small() -> None:
    """The golden directory holds one file per case, each under 300 KB."""
    files = {p.stem for p in make_golden.GOLDEN_DIR.glob("*.json")}
    assert files == set(CASES), f"golden files {sorted(files)} vs cases {sorted(CASES)}"
    for name in CASES:
        assert make_golden.golden_path(name).stat().st_size < 300_000


def test_first_difference_names_the_path() -> None:
    """The mismatch message points at the first differing place."""
    old = {"steps": [{"legal": ["4h", "Qd"]}]}
    new = {"steps": [{"legal": ["4h", "Qh"]}]}
    found = first_difference(old, new)
    assert found is not None
    assert found.startswith("/steps/0/legal/1")
    assert '"Qd"' in found and '"Qh"' in found
    assert first_difference(old, json.loads(json.dumps(old))) is None
    assert first_difference([1], [1, 2]) == "/: file has 1 items, engine gives 2"


def test_serialised_observations_are_plain_json() -> None:
    """The serialisation holds only JSON types, cards and moves as their text."""
    game = Game(RULESETS["escoba"], 2, seed=1)
    data = make_golden.observation_json(game.observation(game.to_move or 0))
    assert json.loads(json.dumps(data)) == data
    assert data["hand"] == sorted(data["hand"], key=lambda t: Card.parse(t).index)
    assert all(Card.parse(t) in DECK for t in data["hand"] + data["table"])
    assert data["legal_moves"] == sorted(str(m) for m in game.legal_moves())


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough_follows_the_rules(name: str) -> None:
    """The pinned data obeys RULES.md on its own: the legal moves of every step are exactly
    those the rules give for the mover's hand and table; the 40 cards are all somewhere;
    every seat sees the same public part; each move shows up in the next step's history;
    the seat after the dealer leads."""
    data = load(name)
    case = data["case"]
    rules = RULESETS[case["preset"]].replace(**case.get("options", {}))
    players = case["players"]
    steps = data["steps"]
    assert len(steps) > 36
    for i, step in enumerate(steps):
        observations = step["observations"]
        assert len(observations) == players
        public = [
            {k: v for k, v in o.items() if k not in ("seat", "hand", "legal_moves")}
            for o in observations
        ]
        assert all(p == public[0] for p in public)
        first = observations[0]
        counted = (
            sum(first["hand_sizes"])
            + len(first["table"])
            + first["stock_size"]
            + sum(len(p) for p in first["captured"])
        )
        assert counted == 40, f"step {i}: {counted} cards"
        for seat, obs in enumerate(observations):
            assert obs["seat"] == seat
            assert len(obs["hand"]) == obs["hand_sizes"][seat]
            if seat != step["to_move"]:
                assert obs["legal_moves"] == []
        if "move" not in step:
            continue
        mover = observations[step["to_move"]]
        hand = [Card.parse(t) for t in mover["hand"]]
        table = [Card.parse(t) for t in mover["table"]]
        expected = sorted(str(m) for m in reference_legal_moves(hand, table, rules))
        assert step["legal"] == expected, f"step {i}"
        assert mover["legal_moves"] == step["legal"]
        assert step["move"] in step["legal"]
        plays = [e for e in first["history"] if e.startswith("play ")]
        if not plays:
            assert step["to_move"] == (first["dealer"] + 1) % players
        after = steps[i + 1]["observations"][0]
        if after["hand_number"] == first["hand_number"]:
            # The history is an event log: the play is appended, then the next deal if the
            # hands were dealt again.
            before = first["history"]
            assert after["history"][: len(before)] == before, f"step {i}"
            added = after["history"][len(before) :]
            played = f"play {step['to_move']} {step['move']}"
            assert added and added[0] in (played, played + " sweep"), f"step {i}: {added}"
            dealt = after["stock_size"] < first["stock_size"]
            dealt_cards = rules.plays_per_hand - after["stock_size"]
            expected_deal = [f"deal {dealt_cards // (rules.hand_cards * players)}"]
            assert added[1:] == (expected_deal if dealt else []), f"step {i}: {added}"
