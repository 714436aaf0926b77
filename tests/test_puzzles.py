"""The puzzles: the shipped set holds what it says, themes, choice, ratings, the generator."""

from __future__ import annotations

import importlib.util
import random
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

from conftest import build_deck, game_with_deck
from escoba import RULESETS, EscobaError, Game, IllegalMoveError, Move
from escoba.ai.exact import exact_values, is_exact
from escoba.ai.search import SearchPlayer
from escoba.cards import DECK_STYLES, Card, card_name
from escoba.messages import LANGUAGES
from escoba.puzzles import (
    THEMES,
    Puzzle,
    PuzzleRating,
    load_puzzles,
    pick_puzzle,
    possible_themes,
    puzzle_by_id,
    puzzle_from_dict,
    theme_of,
)

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = load_puzzles()
EXACT = [p for p in PUZZLES if p.exact]
SEARCHED = [p for p in PUZZLES if not p.exact]


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("puzzles_script", ROOT / "scripts" / "puzzles.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


# -- the shipped set ---------------------------------------------------------------------------


def test_the_shipped_set_covers_every_theme_and_the_three_presets() -> None:
    assert len(PUZZLES) >= 40
    assert {p.theme for p in PUZZLES} == set(THEMES)
    assert {p.preset for p in PUZZLES} == {"escoba", "scopa", "escova"}
    assert len({p.id for p in PUZZLES}) == len(PUZZLES)
    assert [p.id for p in PUZZLES] == sorted(p.id for p in PUZZLES)
    assert all(p.gap >= 1.0 and 600 <= p.rating <= 2600 for p in PUZZLES)


@pytest.mark.parametrize("puzzle", PUZZLES, ids=lambda p: p.id)
def test_every_puzzle_replays_to_a_position_where_its_answer_is_legal(puzzle: Puzzle) -> None:
    game = puzzle.game()
    assert game.to_move is not None and game.to_move == puzzle.seat
    observation = puzzle.observation()
    assert observation == game.observation(game.to_move)
    assert puzzle.move in observation.legal_moves
    assert len(observation.legal_moves) >= 2
    assert puzzle.is_solved_by(puzzle.answer) and puzzle.is_solved_by(puzzle.move)
    wrong = next(m for m in observation.legal_moves if m != puzzle.move)
    assert not puzzle.is_solved_by(wrong)
    assert observation.rules == RULESETS[puzzle.preset]


@pytest.mark.parametrize("puzzle", EXACT, ids=lambda p: p.id)
def test_every_exact_puzzle_is_the_exact_best_move_by_its_gap(puzzle: Puzzle) -> None:
    observation = puzzle.observation()
    assert is_exact(observation)
    ranked = exact_values(observation)
    assert ranked[0][0] == puzzle.move
    assert ranked[0][1] - ranked[1][1] == pytest.approx(puzzle.gap, abs=0.01)
    assert puzzle.gap >= 1.0


@pytest.mark.slow
def test_a_sample_of_the_searched_puzzles_are_the_best_of_a_moderate_search() -> None:
    """A search smaller than the generator's and from another seed agrees on the answer."""
    sample = random.Random(5).sample(SEARCHED, min(4, len(SEARCHED)))
    for puzzle in sample:
        observation = puzzle.observation()
        assert not is_exact(observation)
        ranked = SearchPlayer(11, budget=40_000, min_deals=80).evaluate(
            observation, observation.legal_moves
        )
        assert ranked[0][0] == puzzle.move, puzzle.id


def test_a_puzzle_refuses_an_illegal_move_by_name() -> None:
    puzzle = PUZZLES[0]
    illegal = next(
        card
        for card in (Card.parse(t) for t in ("Ac", "2c", "3c", "4c", "5c"))
        if card not in puzzle.observation().hand
    )
    with pytest.raises(IllegalMoveError, match=f"{illegal}.*{puzzle.id}"):
        puzzle.is_solved_by(str(illegal))


def test_puzzles_by_id_and_from_their_data() -> None:
    puzzle = PUZZLES[-1]
    assert puzzle_by_id(puzzle.id) is puzzle
    assert len(set(PUZZLES)) == len(PUZZLES)  # hashable, by all but the record
    assert puzzle_from_dict(puzzle.to_dict()) == puzzle
    with pytest.raises(EscobaError, match="'z9999'"):
        puzzle_by_id("z9999")
    with pytest.raises(EscobaError, match="theme 'sweeping'"):
        puzzle_from_dict({**puzzle.to_dict(), "theme": "sweeping"})
    with pytest.raises(EscobaError, match="'answer'"):
        puzzle_from_dict({k: v for k, v in puzzle.to_dict().items() if k != "answer"})


# -- texts -------------------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_explanations_in_every_language_name_cards_in_every_deck(language: str) -> None:
    seven = next(p for p in PUZZLES if p.theme == "seven_of_coins")
    chosen = {p.id: p for p in (seven, *(next(p for p in PUZZLES if p.theme == t) for t in THEMES))}
    for puzzle in chosen.values():
        title = puzzle.title(language)
        assert title and "puzzles." not in title
        for deck in DECK_STYLES:
            explained = puzzle.explanation(language, deck)
            assert explained and "puzzles." not in explained and "coach." not in explained
    english = seven.explanation("en")
    assert seven.explanation(language) != english or language == "en"
    for deck in DECK_STYLES:
        assert card_name(Card.parse("7d"), deck, language) in seven.explanation(language, deck)


def test_the_sevens_theme_goes_by_the_rules_name() -> None:
    primiera = Puzzle("x", "scopa", "primiera", 1500, {}, "7d", 1.0, True, "self-play")
    setenta = Puzzle("x", "escoba", "primiera", 1500, {}, "7d", 1.0, True, "self-play")
    assert primiera.title("en") == "Primiera: sevens and sixes"
    assert setenta.title("en") == "Setenta: sevens and sixes"
    assert setenta.title("es") == "Setenta: sietes y seises"


# -- themes on constructed positions -----------------------------------------------------------

ESCOBA = RULESETS["escoba"]


def _ranked(game: Game, best: str) -> list[tuple[Move, float]]:
    """The legal moves with ``best`` first, the others after it (the values are made up: a
    theme looks only at what the moves do)."""
    assert game.to_move is not None
    moves = game.observation(game.to_move).legal_moves
    first = Move.parse(best)
    assert first in moves
    return [(first, 2.0), *((m, 0.0) for m in moves if m != first)]


def test_a_sweep_to_take_is_take_the_sweep() -> None:
    deck = build_deck(2, 1, hands={0: "5c Qh Jd"}, table="3s 4c 2h Ah")
    game = game_with_deck(ESCOBA, 2, deck, dealer=1)
    assert theme_of(game, _ranked(game, "5c:3s+4c+2h+Ah"), exact=False) == "take_the_sweep"


def test_the_one_move_that_leaves_no_sweep_is_deny_the_sweep() -> None:
    """Every other move leaves a table one unseen card sweeps; dropping the 6 does not."""
    deck = build_deck(2, 1, hands={0: "6h Qc Jd"}, table="5c Ad 2c Ks")
    game = game_with_deck(ESCOBA, 2, deck, dealer=1)
    assert theme_of(game, _ranked(game, "6h"), exact=False) == "deny_the_sweep"
    # The same position with a move that leaves a sweep as the best: no theme at all.
    assert theme_of(game, _ranked(game, "Jd:2c+5c"), exact=False) is None


def test_taking_the_seven_of_coins_is_its_theme() -> None:
    deck = build_deck(2, 1, hands={0: "Jh 3c 2s"}, table="7d Qs 4h Ah")
    game = game_with_deck(ESCOBA, 2, deck, dealer=1)
    assert theme_of(game, _ranked(game, "Jh:7d"), exact=False) == "seven_of_coins"


def test_an_exact_position_fitting_no_other_theme_is_counting() -> None:
    counted = [p for p in EXACT if p.theme == "counting"]
    assert counted
    for puzzle in counted:
        observation = puzzle.observation()
        assert theme_of(puzzle.game(), exact_values(observation), exact=True) == "counting"
        assert theme_of(puzzle.game(), exact_values(observation), exact=False) is None


def test_possible_themes_foresee_the_theme_before_any_search() -> None:
    deck = build_deck(2, 1, hands={0: "6h Qc Jd"}, table="5c Ad 2c Ks")
    game = game_with_deck(ESCOBA, 2, deck, dealer=1)
    assert possible_themes(game.observation(0)) == {"deny_the_sweep"}
    deck = build_deck(2, 1, hands={0: "Jh 3c 2s"}, table="7d Qs 4h Ah")
    game = game_with_deck(ESCOBA, 2, deck, dealer=1)
    assert {"seven_of_coins", "primiera"} <= possible_themes(game.observation(0))
    assert "take_the_sweep" not in possible_themes(game.observation(0))
    for puzzle in PUZZLES:
        assert puzzle.theme in possible_themes(puzzle.observation()), puzzle.id


def test_the_shipped_themes_are_theme_of() -> None:
    for puzzle in EXACT:
        assert theme_of(puzzle.game(), exact_values(puzzle.observation()), exact=True) == (
            puzzle.theme
        ), puzzle.id


# -- choosing a puzzle -------------------------------------------------------------------------


def test_pick_puzzle_chooses_near_the_rating_by_the_seed() -> None:
    for rating in (900, 1500, 2100):
        nearest = sorted(abs(p.rating - rating) for p in PUZZLES)[4]
        for seed in range(10):
            chosen = pick_puzzle(rating, seed=seed)
            assert abs(chosen.rating - rating) <= nearest
    assert pick_puzzle(1500, seed="a") == pick_puzzle(1500, seed="a")
    assert len({pick_puzzle(1500, seed=s).id for s in range(30)}) > 1


def test_pick_puzzle_honours_theme_preset_and_exclude() -> None:
    for theme in THEMES:
        assert pick_puzzle(1500, seed=1, theme=theme).theme == theme
    assert pick_puzzle(1500, seed=1, preset="scopa").preset == "scopa"
    chosen = pick_puzzle(1500, seed=1, theme="take_the_sweep", preset="escoba")
    assert (chosen.theme, chosen.preset) == ("take_the_sweep", "escoba")
    everyone = {p.id for p in PUZZLES}
    for seed in range(10):
        kept = {p.id for p in PUZZLES if p.theme == "counting"}
        assert pick_puzzle(1500, seed=seed, exclude=everyone - kept).id in kept
    # All excluded: one comes round again rather than none.
    assert pick_puzzle(1500, seed=2, exclude=everyone).id in everyone


def test_pick_puzzle_rejects_a_bad_theme_or_preset() -> None:
    with pytest.raises(EscobaError, match="theme 'sweeps'"):
        pick_puzzle(1500, seed=1, theme="sweeps")
    with pytest.raises(EscobaError, match="preset 'briscola'"):
        pick_puzzle(1500, seed=1, preset="briscola")
    with pytest.raises(EscobaError, match="scopone-scientifico"):
        pick_puzzle(1500, seed=1, preset="scopone-scientifico")  # a preset with no puzzle


# -- the player's rating -----------------------------------------------------------------------


def _at(rating: int) -> Puzzle:
    return Puzzle("t0001", "escoba", "counting", rating, {}, "7d", 1.0, True, "self-play")


def test_a_rating_moves_up_on_a_solve_and_down_on_a_fail() -> None:
    new = PuzzleRating()
    assert new.shown() == 1500
    up, down = new.after(_at(1500), True), new.after(_at(1500), False)
    assert up.shown() > 1500 > down.shown()
    assert up.sigma < new.sigma and down.sigma < new.sigma
    # A harder puzzle gives more for a solve and takes less for a fail.
    assert new.after(_at(1900), True).mu > up.mu
    assert new.after(_at(1900), False).mu > down.mu
    assert new.after(_at(1100), False).mu < down.mu


def test_a_rating_round_trips_and_refuses_bad_data() -> None:
    rating = PuzzleRating().after(_at(1700), True)
    assert PuzzleRating.from_dict(rating.to_dict()) == rating
    for bad, named in (
        ({"mu": "25", "sigma": 8}, "mu"),
        ({"mu": 25}, "sigma"),
        ({"mu": 25, "sigma": -1}, "sigma"),
        ({"mu": float("nan"), "sigma": 1}, "mu"),
        ({"mu": True, "sigma": 1}, "mu"),
    ):
        with pytest.raises(EscobaError, match=named):
            PuzzleRating.from_dict(bad)


# -- the generator -----------------------------------------------------------------------------


@pytest.mark.slow
def test_the_generator_is_reproducible_from_its_seed() -> None:
    generator = _generator()
    settings = {"presets": ("escova",), "matches": 1, "budget": 2_000, "min_deals": 10}
    data = generator.generate(7, 6, **settings)
    assert generator.dump(data) == generator.dump(generator.generate(7, 6, **settings))
    assert data["generator"]["seed"] == 7 and 0 < len(data["puzzles"]) <= 6
    for item in data["puzzles"]:
        puzzle = puzzle_from_dict(item)
        assert puzzle.move in puzzle.observation().legal_moves
    themes = Counter(p["theme"] for p in data["puzzles"])
    assert set(themes) <= set(THEMES)


@pytest.mark.slow
def test_the_generator_cuts_puzzles_from_stored_matches(tmp_path: Path) -> None:
    """``--database``: the finished matches of two players in a preset, read through the
    server's storage, give puzzles of source "match" (and nothing else when no match is
    played by the levels)."""
    from escoba.server.storage.repository import MoveWrite, Storage

    url = f"sqlite:///{tmp_path / 'site.sqlite'}"
    storage = Storage(url)
    storage.migrate()
    stored = []
    for room, (rules, players) in enumerate(
        [(RULESETS["escova"], 2), (RULESETS["escova"].replace(target_score=5), 2)]
    ):
        game = Game(rules, players=players, seed=room + 3)
        match = storage.create_room(f"room{room}", game, [None] * players, seed=room + 3)
        chooser = random.Random(room)
        known = 1
        for number in range(36):  # the first hand, then one of them walks away
            hand = game.hand_number
            play = game.play(chooser.choice(game.legal_moves()))
            write = MoveWrite.of(match.id, number, hand, play, game, known)
            storage.write_moves([write])
            known += len(write.hands)
        storage.end_match(match.id, 0, list(game.totals), "abandoned", left=[1])
        stored.append(game)
    storage.close()
    generator = _generator()
    records = generator.stored_records(url, 10, ("escoba", "scopa", "escova"))
    # The match of changed rules is no preset's: left out.
    assert [Game.from_record(r).record() for r in records] == [stored[0].record()]
    data = generator.generate(
        1, 8, presets=("escova",), matches=0, budget=2_000, min_deals=10, records=records
    )
    assert data["puzzles"] and {p["source"] for p in data["puzzles"]} == {"match"}
    for item in data["puzzles"]:
        puzzle = puzzle_from_dict(item)
        assert puzzle.move in puzzle.observation().legal_moves
