"""The OpenSpiel games (escoba.openspiel): registration and parameters, explicit chance, the
engine's rules step by step, information states that hold only what a seat may know, worlds
resampled for OpenSpiel's ISMCTS, OpenSpiel's own checks and the golden playthroughs.

Rules: RULES.md, as the engine plays them (the agreement tests compare every step with
escoba.Game); "Dealing" for the deal order and the redeal on three kings."""

from __future__ import annotations

import importlib.util
import random
import subprocess
import sys
import unittest
import zlib
from math import comb
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.integration_tests import api_test
from open_spiel.python.algorithms import ismcts, mcts
from open_spiel.python.tests import games_sim_test
from typer.testing import CliRunner

import escoba.openspiel
from escoba import DECK, RULESETS, Card, Game, Rank, RuleSet
from escoba.arena import Entrant, play_arena
from escoba.cli import app
from escoba.openspiel import CHANCE_PICKS, chance_order, game_string
from escoba.openspiel.deals import chance_outcomes, deck_from_picks
from escoba.openspiel.players import OpenSpielISMCTS, entrant, state_of

ROOT = Path(__file__).resolve().parent.parent
SEATINGS = [(2, False), (3, False), (4, False), (4, True)]
KINGS = {card.index for card in DECK if card.rank is Rank.KING}
REGIONAL = {"ace_takes_all": True, "re_bello": True, "napola": True}


def seatings(preset: str) -> list[tuple[int, bool]]:
    """The seatings a preset is checked at: every one for the usual games; Scopone as it is
    played (four in partnerships) and by two (dealt in two halves), never by three (the deck
    does not share out)."""
    if "scopone" in preset:
        return [(2, False), (4, True)]
    return SEATINGS


PRESET_SEATINGS = [
    (preset, players, partnerships)
    for preset in sorted(RULESETS)
    for players, partnerships in seatings(preset)
]


def load(
    preset: str | RuleSet, players: int = 2, partnerships: bool = False, **extra: object
) -> Any:
    return pyspiel.load_game(game_string(preset, players, partnerships, **extra))


def play_randomly(state: Any, rng: np.random.RandomState, stop: int | None = None) -> Any:
    """Random chance and random moves until the end (or ``stop`` history entries)."""
    while not state.is_terminal() and (stop is None or len(state.history()) < stop):
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def a_position(game: Any, seed: int, at_least: int = 50) -> Any:
    """A state with a seat to play, some plays into the hand, and a choice of moves."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while (
        state.is_chance_node() or len(state.history()) < at_least or len(state.legal_actions()) < 2
    ):
        assert not state.is_terminal()
        play_randomly(state, rng, stop=len(state.history()) + 1)
    return state


# -- registration and parameters


def test_the_four_games_are_registered_with_their_presets_as_defaults() -> None:
    """Scopone is seated as it is played: four players in two partnerships."""
    for name, preset in escoba.openspiel.GAMES.items():
        assert name in pyspiel.registered_names()
        game = pyspiel.load_game(name)
        params = game.get_parameters()
        rules = RULESETS[preset]
        assert game.setup.rules == rules
        assert params["capture"] == rules.capture and params["sevens"] == rules.sevens
        assert params["target_score"] == rules.target_score
        players = 4 if name == "python_scopone" else 2
        assert params["players"] == players and params["returns"] == "hand"
        assert params["partnerships"] == (players == 4)
        assert game.num_players() == players
        assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION


def test_the_issues_example_loads_four_players_in_partnerships() -> None:
    game = pyspiel.load_game("python_scopa(players=4,partnerships=True)")
    assert game.num_players() == 4
    assert game.num_distinct_actions() == 3744  # the research environment's encoding
    assert game.max_chance_outcomes() == 40
    state = play_randomly(game.new_initial_state(), np.random.RandomState(3))
    returns = state.returns()
    assert returns[0] == returns[2] and returns[1] == returns[3]  # partners share a result


def test_rule_options_reach_the_engine() -> None:
    game = pyspiel.load_game("python_escoba(sevens=primiera,big_wins=True,target_score=15)")
    rules = game.setup.rules
    assert (rules.sevens, rules.big_wins, rules.target_score) == ("primiera", True, 15)
    assert rules.capture == "sum15"
    free = pyspiel.load_game("python_escoba(forced_capture=False)")
    assert free.num_distinct_actions() == 95212  # FREE layout of escoba.env.actions


def test_game_string_names_every_preset_by_its_differences() -> None:
    for preset, players, partnerships in PRESET_SEATINGS:
        text = game_string(preset, players, partnerships)
        game = pyspiel.load_game(text)
        assert game.setup.rules == RULESETS[preset], preset
        assert (game.num_players(), game.setup.partnerships) == (players, partnerships)
    assert game_string("scopone-scientifico", 4, True) == "python_scopone"
    assert game_string("scopone-classico", 4, True) == (
        "python_scopa(hand_cards=9,partnerships=True,players=4)"
    )
    regional = RULESETS["scopone-scientifico"].replace(**REGIONAL)
    assert game_string(regional, 4, True) == (
        "python_scopone(ace_takes_all=True,napola=True,re_bello=True)"
    )
    assert pyspiel.load_game(game_string(regional, 4, True)).setup.rules == regional


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("python_escoba(foo=1)", "Unknown parameter 'foo'"),
        ("python_escoba(sevens=foo)", "sevens: 'foo' is not one of"),
        ("python_escoba(players=5)", "players: must be 2, 3 or 4, got 5"),
        ("python_escoba(players=3,partnerships=True)", "partnerships: need players=4"),
        ("python_scopa(returns=points)", "returns: 'points' is not one of 'hand', 'match'"),
        ("python_escova(target_score=0)", "target_score: must be a whole number from 1"),
        ("python_escoba(max_hands=0)", "max_hands: must be a whole number from 1"),
        ("python_escoba(capture=match)", "initial_table_sweeps"),
        ("python_scopone(players=3,partnerships=False)", "do not share out the 40 cards"),
        ("python_scopa(hand_cards=4)", "do not share out the 36 cards"),
        ("python_escoba(ace_takes_all=True)", "ace_takes_all: only makes sense with capture"),
        ("python_escoba(players=two)", "Wrong type for parameter players"),
        ("python_scopa(big_wins=3)", "Wrong type for parameter big_wins"),
    ],
)
def test_bad_parameters_are_refused_naming_what_was_wrong(text: str, fragment: str) -> None:
    with pytest.raises((pyspiel.SpielError, ValueError), match=fragment.replace("(", r"\(")):
        pyspiel.load_game(text)


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    state = a_position(load("escoba"), 1)
    before, history = str(state), state.history()
    legal = state.legal_actions()
    illegal = next(a for a in range(3744) if a not in legal)
    with pytest.raises(ValueError, match=rf"action {illegal} \(.*\) is not legal here; legal:"):
        state.apply_action(illegal)
    with pytest.raises(ValueError, match=r"outside the action space 0\.\.3743"):
        state.apply_action(99_999)
    assert str(state) == before and state.history() == history
    assert state.legal_actions() == legal


def test_an_impossible_chance_outcome_is_refused_and_changes_nothing() -> None:
    state = load("escoba").new_initial_state()
    with pytest.raises(ValueError, match="chance action 2 is not a possible outcome here"):
        state.apply_action(2)  # two players: the dealer is seat 0 or 1
    state.apply_action(1)
    state.apply_action(5)
    with pytest.raises(ValueError, match="chance action 5 is not a possible outcome"):
        state.apply_action(5)  # already placed
    with pytest.raises(ValueError, match="chance action 40 is not a possible outcome"):
        state.apply_action(40)
    assert state.history() == [1, 5]


# -- chance


def test_chance_is_the_first_dealer_then_the_shuffle_one_card_at_a_time() -> None:
    game = load("scopa", 3)
    state = game.new_initial_state()
    assert state.chance_outcomes() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]
    state.apply_action(2)
    for placed in range(CHANCE_PICKS):
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 40 - placed
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        assert [a for a, _ in outcomes] == sorted(a for a, _ in outcomes)
        state.apply_action(outcomes[0][0])
    assert not state.is_chance_node()
    assert state.current_player() == 0  # the dealer's left plays first
    # Sorted picks: the four table places take cards 0..3 (chance fills the table first).
    assert [c.index for c in state.match.table] == [0, 1, 2, 3]


def test_the_deck_order_is_the_records_dealing_order() -> None:
    """RULES.md "Dealing": three cards to each seat from the dealer's left, four to the table,
    then three to each seat per round; the engine's record keeps the deck in that order."""
    rng = np.random.RandomState(8)
    for preset, players, partnerships in PRESET_SEATINGS:
        rules = RULESETS[preset]
        game = load(preset, players, partnerships)
        state = play_randomly(game.new_initial_state(), rng, 40)
        picks = state.history()[1:40]
        deck = deck_from_picks(rules, players, picks)
        recorded = state.match.record()["hands"][0]["deals"][0]
        assert [DECK[c] for c in deck] == [Card.parse(t) for t in recorded]
        first = rules.hand_cards * players  # the table's cards follow the first round
        table = tuple(range(first, first + rules.table_cards))
        assert chance_order(rules, players)[: len(table)] == table
        assert set(state.tables[0]) == {deck[place] for place in table}  # before any sweep
        assert state.match.hand_sizes == (rules.hand_cards,) * players


def _table_king_distribution(rules_name: str) -> list[float]:
    """P(the first table holds j kings), j = 0..4, summed exactly over the chance tree of the
    table's four picks: kings are alike and so are the other cards, so each king/other pattern
    is walked with one card standing for its kind, then counted for every card it stands for."""
    rules = RULESETS[rules_name]
    out = [0.0] * 5
    kings = sorted(KINGS)
    others = [c for c in range(40) if c not in KINGS]
    for pattern in range(16):
        is_king = [bool(pattern >> i & 1) for i in range(4)]
        picks: list[int] = []
        p = 1.0
        for king in is_king:
            card = (
                kings[len([c for c in picks if c in KINGS])]
                if king
                else others[len([c for c in picks if c not in KINGS])]
            )
            p *= dict(chance_outcomes(rules, picks)).get(card, 0.0)
            if p == 0.0:  # chance never comes here: the rest of the pattern cannot happen
                break
            picks.append(card)
        k = sum(is_king)
        out[k] += p * _ordered(k)
    return out


def _ordered(kings: int) -> int:
    """Ordered choices of specific cards for one king/other pattern with ``kings`` kings."""
    count = 1
    for i in range(kings):
        count *= 4 - i
    for i in range(4 - kings):
        count *= 36 - i
    return count


def test_kings_redeal_deals_exactly_the_decks_that_stand() -> None:
    """RULES.md "Dealing": with three or more kings among the first four table cards the deal
    is void and dealt again, so the deck that stands is uniform among those with at most two
    kings on the table. Chance deals that distribution directly."""
    redealt = _table_king_distribution("scopa")  # scopa: kings_redeal
    valid = sum(comb(4, j) * comb(36, 4 - j) for j in range(3))
    for j in range(3):
        assert redealt[j] == pytest.approx(comb(4, j) * comb(36, 4 - j) / valid)
    assert redealt[3] == 0.0 and redealt[4] == 0.0
    plain = _table_king_distribution("escoba")  # escoba: no redeal, plain hypergeometric
    for j in range(5):
        assert plain[j] == pytest.approx(comb(4, j) * comb(36, 4 - j) / comb(40, 4))


# -- the engine's rules, step by step


def rules_of(name: str) -> RuleSet:
    """A preset, or with ``+regional`` the preset with asso piglia tutto, re bello and napola."""
    preset, _, regional = name.partition("+")
    return RULESETS[preset].replace(**REGIONAL) if regional else RULESETS[preset]


AGREEMENT = [
    *PRESET_SEATINGS,
    ("scopa+regional", 3, False),
    ("scopone-scientifico+regional", 4, True),
    ("scopone-classico+regional", 4, True),
]


@pytest.mark.parametrize(("preset", "players", "partnerships"), AGREEMENT)
def test_every_step_agrees_with_the_engine(preset: str, players: int, partnerships: bool) -> None:
    """Every rule set, Scopone and the regional options included: the same seat to move,
    the same legal moves, table and piles as the engine at every step, and the returns of
    the engine's score (re bello and napola included)."""
    rules = rules_of(preset)
    game = load(rules, players, partnerships)
    rng = np.random.RandomState(zlib.crc32(f"{preset}:{players}:{partnerships}".encode()))
    state = play_randomly(game.new_initial_state(), rng, 40)
    dealer, picks = state.history()[0], state.history()[1:40]
    reference = Game(rules, players, partnerships, seed=0).record()
    reference["first_dealer"] = dealer
    reference["hands"] = [
        {
            "dealer": dealer,
            "deals": [[str(DECK[c]) for c in deck_from_picks(rules, players, picks)]],
            "moves": [],
        }
    ]
    engine = Game.from_record(reference)
    while not state.is_terminal():
        assert state.current_player() == engine.to_move
        legal = state.legal_actions()
        assert sorted(map(str, map(state.move_of, legal))) == sorted(map(str, engine.legal_moves()))
        action = int(rng.choice(legal))
        engine.play(state.move_of(action))
        state.apply_action(action)
        if not state.is_terminal():
            assert state.match.table == engine.table
            assert state.match.captured == engine.captured
    points = engine.results[0].points
    sides = len(points)
    expected = [
        points[engine.side_of(s)] - (sum(points) - points[engine.side_of(s)]) / (sides - 1)
        for s in range(players)
    ]
    assert state.returns() == pytest.approx(expected)
    assert sum(state.returns()) == pytest.approx(0.0)
    assert len(state.history()) - 40 == rules.plays_per_hand == game.max_game_length()
    assert max(state.returns()) <= game.max_utility()


def test_a_whole_match_returns_the_winner() -> None:
    game = load("scopa", returns="match")
    state = play_randomly(game.new_initial_state(), np.random.RandomState(4))
    match = state.match
    assert match.is_over() and max(match.totals) >= 11
    winner = match.winner
    assert state.returns() == [1.0 if s == winner else -1.0 for s in range(2)]
    shuffles = sum(1 for h in state.full_history() if h.player == pyspiel.PlayerId.CHANCE)
    assert shuffles == 1 + CHANCE_PICKS * len(match.results)
    three = play_randomly(
        load("escova", 3, returns="match").new_initial_state(), np.random.RandomState(5)
    )
    assert sorted(three.returns()) == [-0.5, -0.5, 1.0]  # zero-sum: the losers share -1


def test_a_match_cut_at_max_hands_goes_to_the_leader() -> None:
    for seed in range(6):
        state = play_randomly(
            load("escoba", returns="match", max_hands=1).new_initial_state(),
            np.random.RandomState(seed),
        )
        totals = state.match.totals
        assert len(state.match.results) == 1
        if totals[0] == totals[1]:
            assert state.returns() == [0.0, 0.0]
        else:
            leader = 0 if totals[0] > totals[1] else 1
            assert state.returns()[leader] == 1.0


# -- what a seat may know


@pytest.mark.parametrize(
    ("preset", "players", "partnerships"),
    [
        *(("escoba", n, partners) for n, partners in SEATINGS),
        ("scopone-scientifico+regional", 4, True),
        ("scopone-classico", 2, False),
    ],
)
def test_a_resampled_world_looks_the_same_to_the_seat(
    preset: str, players: int, partnerships: bool
) -> None:
    """Every hidden card (other hands, the stock) is dealt again; what the seat saw stays:
    its own cards (ten of them in Scopone), the first table, every play."""
    rules = rules_of(preset)
    game = load(rules, players, partnerships)
    state = a_position(game, 21, at_least=40 + 3 * players)
    seat = state.current_player()
    sampler = random.Random(0).random
    others_changed = False
    for _ in range(20):
        world = state.resample_from_infostate(seat, sampler)
        assert world.information_state_string(seat) == state.information_state_string(seat)
        assert world.observation_string(seat) == state.observation_string(seat)
        assert world.information_state_tensor(seat) == state.information_state_tensor(seat)
        assert world.observation_tensor(seat) == state.observation_tensor(seat)
        assert world.legal_actions() == state.legal_actions()
        assert world.history()[40:] == state.history()[40:]  # the same plays, by number
        other = (seat + 1) % players
        if world.match.hand(other) != state.match.hand(other):
            others_changed = True
            assert world.observation_tensor(other) != state.observation_tensor(other)
    assert others_changed  # hidden cards are dealt again, so they differ in some world


def test_resampling_keeps_the_earlier_hands_of_a_match() -> None:
    game = load("escoba", returns="match")
    rng = np.random.RandomState(2)
    state = play_randomly(game.new_initial_state(), rng, 1 + 75 + 39 + 6)
    assert len(state.match.results) == 1 and not state.is_chance_node()
    seat = state.current_player()
    world = state.resample_from_infostate(seat, random.Random(1).random)
    assert world.history()[:76] == state.history()[:76]
    assert world.information_state_string(seat) == state.information_state_string(seat)
    assert "hand 1," in world.information_state_string(seat)


def test_views_hold_no_other_seats_cards() -> None:
    state = a_position(load("scopa", 4, True), 9)
    seat = state.current_player()
    text = state.observation_string(seat)
    for other in range(4):
        cards = " ".join(map(str, state.match.hand(other)))
        if other == seat:
            assert f"cards of {seat}: {cards}" in text
        else:
            assert f"cards of {other}:" not in text
    info = state.information_state_string(seat)
    assert f"({seat}: " in info and f"({(seat + 1) % 4}: " not in info
    public = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
    )
    observer = state.get_game().make_py_observer(public)
    assert "hand" not in observer.dict
    assert "cards of" not in observer.string_from(state, seat)
    assert "table" in observer.string_from(state, seat)


def test_sizes_and_tensors_follow_the_deal() -> None:
    """Scopone scientifico: one deal of ten cards to each of four seats and no table, so a
    hand is 40 plays in one round; dealt by two, two rounds. Scopone classico: 36 plays after
    four table cards. Re bello and napola raise the most a hand can score."""
    scopone = load("scopone-scientifico", 4, True)
    assert scopone.max_game_length() == 40
    recall = scopone.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    assert recall.dict["plays"].shape == (40, 84) and recall.dict["dealt"].shape == (1, 1, 40)
    by_two = load("scopone-scientifico", 2)
    recall = by_two.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    assert recall.dict["plays"].shape == (40, 82) and recall.dict["dealt"].shape == (1, 2, 40)
    classico = load("scopone-classico", 4, True)
    assert classico.max_game_length() == 36
    recall = classico.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    assert recall.dict["dealt"].shape == (1, 1, 40)
    regional = load(rules_of("scopone-scientifico+regional"), 4, True)
    assert regional.max_utility() == scopone.max_utility() + 11  # re bello 1, napola 10
    assert load("scopa", returns="match", max_hands=3).max_game_length() == 3 * 36
    state = a_position(scopone, 5, at_least=45)
    seat = state.current_player()
    observer = scopone.make_py_observer()
    observer.set_from(state, seat)
    assert observer.dict["hand"][0].sum() == len(state.match.hand(seat))
    assert observer.dict["stock_size"][0] == 0
    assert observer.dict["hand_sizes"].sum() == 40 - (len(state.history()) - 40)


def test_the_observation_tensor_shows_the_hand_table_and_piles() -> None:
    game = load("escoba")
    state = a_position(game, 12)
    seat = state.current_player()
    observer = game.make_py_observer()
    observer.set_from(state, seat)
    views = observer.dict
    assert {DECK[i] for i in np.flatnonzero(views["hand"][0])} == set(state.match.hand(seat))
    assert {DECK[i] for i in np.flatnonzero(views["table"])} == set(state.match.table)
    for side, pile in enumerate(state.match.captured):
        assert {DECK[i] for i in np.flatnonzero(views["captured"][side])} == set(pile)
    assert views["to_move"][seat] == 1 and views["stock_size"][0] == state.match.stock_size
    assert list(observer.tensor) == state.observation_tensor(seat)


# -- OpenSpiel's own checks


@pytest.mark.parametrize(("preset", "players", "partnerships"), AGREEMENT)
def test_openspiel_random_sim_test(preset: str, players: int, partnerships: bool) -> None:
    game = load(rules_of(preset), players, partnerships)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_openspiel_random_sim_test_of_whole_matches() -> None:
    for preset in ("escoba", "scopa", "escova"):
        game = load(preset, returns="match", target_score=5)
        pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_openspiel_random_sim_test_without_forced_capture() -> None:
    """RULES.md "A move": without forced capture a card that can take may be dropped; the
    action space is then the environment's FREE layout."""
    for preset in ("escoba", "scopa"):
        game = load(preset, forced_capture=False)
        assert game.num_distinct_actions() == 95212
        pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def _api_case(name: str, text: str) -> type[unittest.TestCase]:
    return type(
        f"TestOpenSpielAPI_{name}",
        (api_test.EnforceAPIOnPartialTreeBase,),
        {"game_name": name, "game": pyspiel.load_game(text), "__module__": __name__},
    )


CHECKED = {
    f"{preset.replace('-', '_')}_{players}p{'_partners' if partnerships else ''}": game_string(
        preset, players, partnerships
    )
    for preset, players, partnerships in PRESET_SEATINGS
    if preset in ("escoba", "scopa", "escova") or players == 2 or preset == "scopone-scientifico"
}
for _name, _text in CHECKED.items():
    globals()[f"TestOpenSpielAPI_{_name}"] = _api_case(_name, _text)


@pytest.mark.parametrize(
    "text",
    [
        "python_escoba",
        "python_scopa(players=4,partnerships=True)",
        "python_escova(players=3)",
        "python_escoba(returns=match,target_score=5)",
        "python_scopone(ace_takes_all=True,napola=True,re_bello=True)",
    ],
)
def test_openspiel_game_simulation_with_pickling(text: str) -> None:
    """OpenSpiel's simulation check of its games (games_sim_test): clones, pyspiel and pickle
    serialisation of the game, its type and states, returns within the utility bounds."""
    checker = games_sim_test.GamesSimTest(methodName="test_pig")
    checker.sim_game(pyspiel.load_game(text))


def _playthroughs() -> ModuleType:
    path = ROOT / "scripts" / "openspiel_playthroughs.py"
    spec = importlib.util.spec_from_file_location("openspiel_playthroughs", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    "name", ["python_escoba.txt", "python_scopa_4p_partnerships.txt", "python_scopone.txt"]
)
def test_golden_playthroughs_replay_line_by_line(name: str) -> None:
    module = _playthroughs()
    assert name in module.PLAYTHROUGHS
    expected, actual = module.replay(module.PLAYTHROUGH_DIR / name)
    assert "# Apply action" in expected and "Returns() = " in expected
    for number, (want, got) in enumerate(
        zip(expected.splitlines(), actual.splitlines(), strict=True), start=1
    ):
        assert want == got, (
            f"{name} line {number}; if intended, rerun scripts/openspiel_playthroughs.py"
        )


# -- OpenSpiel's searchers


@pytest.mark.slow
def test_openspiels_ismcts_bot_plays_a_whole_hand() -> None:
    game = load("escoba")
    rng = np.random.RandomState(0)
    sample = random.Random(0).random
    bots = []
    for _ in range(2):
        bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 8, random_state=rng)
        bot.set_resampler(lambda s, p: s.resample_from_infostate(p, sample))
        bots.append(bot)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            play_randomly(state, rng, stop=len(state.history()) + 1)
        else:
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(int(action))
    assert sum(state.returns()) == pytest.approx(0.0)


def test_openspiels_default_resampler_works_too() -> None:
    state = a_position(load("scopa"), 4)
    bot = ismcts.ISMCTSBot(
        state.get_game(),
        mcts.RandomRolloutEvaluator(1),
        2.0,
        6,
        random_state=np.random.RandomState(1),
    )
    assert bot.step(state) in state.legal_actions()


def test_the_player_rebuilds_the_position_it_sees() -> None:
    match = Game(RULESETS["escoba"], 2, seed=17)
    for _ in range(9):
        match.play(match.legal_moves()[0])
    seat = match.to_move
    observation = match.observation(seat)
    state = state_of(load("escoba"), observation, seed=3)
    assert state.current_player() == seat
    assert state.match.hand(seat) == match.hand(seat)
    assert state.match.table == match.table and state.match.captured == match.captured
    assert sorted(map(str, map(state.move_of, state.legal_actions()))) == sorted(
        map(str, match.legal_moves())
    )
    player = OpenSpielISMCTS(seed=1, simulations=5)
    assert player.choose(observation, observation.legal_moves) in observation.legal_moves


def test_the_arena_plays_both_searchers() -> None:
    result = play_arena(
        [entrant("openspiel-ismcts", simulations=4), "easy"],
        rules=RULESETS["scopa"],
        hands=1,
    )
    assert result.players == ("openspiel-ismcts:4", "easy") and result.games == 2
    seeing = play_arena(
        [entrant("openspiel-mcts", simulations=4), "easy"], rules=RULESETS["escoba"], hands=1
    )
    assert seeing.players[0] == "openspiel-mcts:4" and seeing.games == 2


def test_a_seeing_entrant_without_choose_seeing_is_refused() -> None:
    from escoba.ai import make_player
    from escoba.arena import ArenaError

    fake = Entrant("peeker", lambda seed: make_player("easy", seed), sees_all=True)
    with pytest.raises(ArenaError, match="'peeker' is marked as seeing every hand"):
        play_arena([fake, "easy"], rules=RULESETS["escoba"], hands=1)


def test_the_arena_command_takes_openspiel_players_and_budgets() -> None:
    runner = CliRunner(env={"COLUMNS": "200", "NO_COLOR": "1"})
    done = runner.invoke(
        app, ["arena", "openspiel-ismcts", "medium", "--hands", "1", "--simulations", "3"]
    )
    assert done.exit_code == 0, done.output
    assert "openspiel-ismcts:3" in done.stdout and "medium" in done.stdout
    bad = runner.invoke(app, ["arena", "openspiel-nothing", "medium", "--hands", "1"])
    assert bad.exit_code == 2
    assert "unknown OpenSpiel player 'openspiel-nothing'" in bad.stderr
    zero = runner.invoke(app, ["arena", "openspiel-mcts", "medium", "--simulations", "0"])
    assert zero.exit_code == 2 and "--simulations: must be 1 or more" in zero.stderr


@pytest.mark.slow
def test_the_example_plays_ismcts_against_medium() -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "examples" / "openspiel_ismcts.py"),
            "--hands",
            "2",
            "--simulations",
            "5",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    lines = done.stdout.splitlines()
    assert lines[0].startswith("2 hands of python_escoba: OpenSpiel's ISMCTS (5 simulations)")
    assert "points per hand" in lines[1] and "95%" in lines[1]
