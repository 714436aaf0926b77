"""The research environment (``escoba.env``): PettingZoo's own API and seed tests for every
preset and seat count, the action encoding (exact: every legal move has exactly one action,
the mask marks exactly the legal ones; the bound behind its size), the observation encoding
(the environment's fast encoder equals the reference built from ``game.observation(seat)``;
hidden cards change nothing a seat observes), rewards against ``game.results``, the agents,
the example script, rendering and bad input.

Rules: RULES.md "A move" (which moves exist; two sets differing in suits are different
moves), "A hand" (what is dealt and what each seat sees), "Scoring a hand" and "Winning the
match" (what the rewards pay). The encodings: docs/environment.md.
"""

from __future__ import annotations

import random
import subprocess
import sys
import warnings
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from conftest import SEATINGS, build_deck, current_deck, game_with_deck, hidden_from, shares_out
from escoba import DECK, RULESETS, EscobaError, Game, IllegalMoveError, Move, Play, RulesError
from escoba.env import (
    FIELDS,
    FORCED,
    FREE,
    OBSERVATION_SIZE,
    SLICES,
    EscobaEnv,
    LevelAgent,
    RandomAgent,
    encode_observation,
    env,
    layout_for,
    raw_env,
)
from escoba.env.actions import BOUNDS_FORCED, BOUNDS_FREE
from escoba.env.bounds import capture_set_bounds, reachable_tables
from escoba.env.tracker import Tracker

ROOT = Path(__file__).resolve().parent.parent
REGIONAL = {"ace_takes_all": True, "re_bello": True, "napola": True}
# The presets, and two with the regional options of Scopa and Scopone on (RULES.md "Regional
# options": asso piglia tutto, re bello, napola).
RULES = {
    **RULESETS,
    "scopa/regional": RULESETS["scopa"].replace(**REGIONAL),
    "scopone-scientifico/regional": RULESETS["scopone-scientifico"].replace(**REGIONAL),
}


# Every preset at every seating its deck shares out to; Scopone (a game of two partnerships,
# dealt whole) is also played by two, in two deals; the regional options in one seating each.
CONFIGS = [
    (name, n, partners)
    for name in RULES
    for n, partners in SEATINGS
    if shares_out(RULES[name], n)
    and ("/" not in name or (n, partners) == ((4, True) if "scopone" in name else (3, False)))
    and ("scopone" not in name or (n, partners) != (4, False))
]
# Warnings api_test gives every environment whose observation is a dict with an action mask,
# as PettingZoo's own card and board games have (it names those games in a list of its own).
DICT_OBSERVATION_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box",
)


def config_id(config: tuple[str, int, bool]) -> str:
    name, players, partnerships = config
    return f"{name.replace('/', '-')}-{players}p" + ("-partners" if partnerships else "")


def make_env(config: tuple[str, int, bool], **options: Any) -> EscobaEnv:
    name, players, partnerships = config
    return raw_env(RULES[name], players, partnerships, **options)


def random_positions(game: Game, rng: random.Random, moves: int) -> Iterator[Game]:
    """The game before each of up to ``moves`` random moves (and at the end)."""
    for _ in range(moves):
        if game.is_over():
            break
        yield game
        keys = sorted(game.legal_keys())
        game.play_key(keys[rng.randrange(len(keys))])
    yield game


def play_random(e: EscobaEnv, rng: random.Random) -> Iterator[str]:
    """Step an environment to the end of its episode with random legal actions from the
    mask, yielding the agent before each of its moves."""
    for agent in e.agent_iter():
        observation, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        yield agent
        legal = np.flatnonzero(observation["action_mask"])
        e.step(int(legal[rng.randrange(len(legal))]))


# -- PettingZoo's tests ---------------------------------------------------------------------


def checked_api_test(e: EscobaEnv, num_cycles: int) -> None:
    """PettingZoo's api_test, with no warning beyond those of every dict observation."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(e, num_cycles=num_cycles)
    unexpected = {
        str(w.message) for w in caught if not str(w.message).startswith(DICT_OBSERVATION_WARNINGS)
    }
    assert not unexpected


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_pettingzoo_api_test(
    config: tuple[str, int, bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    """PettingZoo's api_test, long enough to play at least one whole match (termination and
    the dead agents' steps included)."""
    ended: list[int] = []
    end_of_hand = EscobaEnv._end_of_hand

    def counting(self: EscobaEnv, points: tuple[int, ...]) -> None:
        end_of_hand(self, points)
        if self.game.is_over():
            ended.append(self.hands_played)

    monkeypatch.setattr(EscobaEnv, "_end_of_hand", counting)
    checked_api_test(make_env(config), num_cycles=400)
    assert ended, "api_test ended before the end of a match"


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_pettingzoo_seed_test(config: tuple[str, int, bool]) -> None:
    seed_test(lambda: make_env(config), num_cycles=60)


@pytest.mark.parametrize(
    "options",
    [{"reward": "difference"}, {"reward": "match", "hands": 2}, {"hands": 1}],
    ids=["difference", "match-2-hands", "one-hand"],
)
def test_pettingzoo_api_test_with_options(options: dict[str, Any]) -> None:
    checked_api_test(env("escoba", 3, **options), num_cycles=300)
    checked_api_test(env("scopa", 4, True, **options), num_cycles=300)


# -- actions ----------------------------------------------------------------------------------


def test_action_space_is_fixed_for_every_preset_and_seat_count() -> None:
    """One Discrete(3744) for every rule set with forced capture (all presets), whatever the
    capture mode and the seats; without forced capture every table is reachable and the
    layout is the larger FREE one."""
    for config in CONFIGS:
        e = make_env(config)
        for agent in e.possible_agents:
            assert e.action_space(agent).n == 3744
            assert e.observation_space(agent)["action_mask"].shape == (3744,)
            assert e.observation_space(agent)["observation"].shape == (OBSERVATION_SIZE,)
    assert FORCED.size == 4 * sum(b + 1 for b in BOUNDS_FORCED) == 3744
    assert FREE.size == 4 * sum(b + 1 for b in BOUNDS_FREE) == 95212
    free = RULESETS["escoba"].replace(forced_capture=False)
    assert layout_for(free) is FREE
    assert env(free).action_space("player_0").n == FREE.size


def test_action_layout_follows_the_deck() -> None:
    """docs/environment.md: the slots of the 40 cards follow one another in DECK order; a
    card of value v has bound(v) + 1 slots, slot 0 its drop."""
    start = 0
    for card in DECK:
        assert FORCED.offset(card) == start
        assert FORCED.slots(card) == BOUNDS_FORCED[card.value - 1] + 1
        assert FORCED.describe(start).card == card
        assert FORCED.describe(start).slot == 0
        last = FORCED.describe(start + FORCED.slots(card) - 1)
        assert (last.card, last.slot) == (card, BOUNDS_FORCED[card.value - 1])
        start += FORCED.slots(card)
    assert start == FORCED.size
    for bad in (-1, FORCED.size, 2.0, True):
        with pytest.raises(ValueError, match="action"):
            FORCED.describe(bad)  # type: ignore[arg-type]


def test_capture_sets_are_numbered_by_their_card_mask() -> None:
    """RULES.md "A move", worked example: table A♠ 3♥ 4♣ 7♦, a 4 takes {4♣, 7♦} or
    {A♠, 3♥, 7♦}. Slot k is the k-th set by ascending sum of 2**index: {A♠ 3♥ 7♦} (highest
    index 20, A♠) comes before {4♣ 7♦} (highest index 33, 4♣). (That table sums to 15, so
    the dealer would take it at once: initial_table_sweeps is off here.)"""
    rules = RULESETS["escoba"].replace(initial_table_sweeps=False)
    deck = build_deck(2, 1, hands={0: "4d Qd Kd"}, table="As 3h 4c 7d")
    game = game_with_deck(rules, 2, deck, dealer=1)
    e = raw_env(rules)
    e.reset(options={"record": game.record()})
    four = DECK[3]
    assert str(four) == "4d"
    by_action = {a: str(e.move_of(a)) for a in e.legal_actions()}
    offset = FORCED.offset(four)
    assert by_action[offset + 1] == "4d:7d+3h+As"
    assert by_action[offset + 2] == "4d:7d+4c"
    assert offset not in by_action  # forced capture: the 4 may not be dropped
    queen, king = DECK[8], DECK[9]
    assert by_action[FORCED.offset(queen)] == "Qd"  # 9 + nothing makes 15: only a drop
    assert by_action[FORCED.offset(king) + 1] == "Kd:As+4c"


@pytest.mark.parametrize(
    "rules_name",
    [*RULES, "escoba/free", "scopa/free", "scopone-scientifico/regional/free"],
)
def test_every_legal_move_has_exactly_one_action(rules_name: str) -> None:
    """RULES.md "A move": on many random positions the actions of the legal moves are as many
    as the moves, stand for exactly those moves, name the move's card, slot 0 exactly for a
    drop, capture slots numbered 1.. by ascending capture mask, all within the bounds, whatever
    the order in which the keys are listed (an ace that takes the whole table under asso
    piglia tutto included)."""
    name = rules_name.removesuffix("/free")
    rules = RULES[name]
    if name != rules_name:
        rules = rules.replace(forced_capture=False)
    layout = layout_for(rules)
    rng = random.Random(rules_name)
    positions = 0
    for players, partnerships in SEATINGS:
        if not shares_out(RULES[name], players):
            continue
        for match in range(3):
            game = Game(rules, players, partnerships, seed=f"{rules_name}-{match}")
            for position in random_positions(game, rng, 150):
                legal = position.legal_moves()
                keys = position.legal_keys()
                actions = layout.actions(keys)
                assert len(actions) == len(legal)
                rng.shuffle(keys)  # the numbering does not depend on the order of the keys
                assert layout.actions(keys) == actions
                assert sorted(map(Move.of_key, actions.values())) == sorted(legal)
                sets: dict[int, list[tuple[int, int]]] = defaultdict(list)
                for action, key in actions.items():
                    meaning = layout.describe(action)
                    assert meaning.card.index == key & 63
                    assert (meaning.slot == 0) == (key < 64)
                    assert meaning.slot <= layout.bounds[meaning.card.value - 1]
                    if meaning.slot:
                        sets[key & 63].append((meaning.slot, key >> 6))
                for numbered in sets.values():
                    numbered.sort()
                    assert [slot for slot, _ in numbered] == list(range(1, len(numbered) + 1))
                    masks = [mask for _, mask in numbered]
                    assert masks == sorted(masks)
                positions += 1
    assert positions > 700


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_mask_marks_exactly_the_legal_moves(config: tuple[str, int, bool]) -> None:
    """Through the environment: the acting agent's mask has a 1 for each legal move and
    nowhere else, move_of and action_of translate both ways, other agents' masks are empty."""
    e = make_env(config)
    e.reset(seed=11)
    rng = random.Random(11)
    steps = 0
    for agent in play_random(e, rng):
        seat = int(agent.removeprefix("player_"))
        game = e.game
        assert game.to_move == seat
        legal = game.legal_moves()
        mask = e.observe(agent)["action_mask"]
        assert mask.dtype == np.int8
        marked = np.flatnonzero(mask).tolist()
        assert len(marked) == len(legal) == int(mask.sum())
        assert sorted(e.move_of(a) for a in marked) == sorted(legal)
        assert [e.action_of(m) for m in legal] == [e.action_of(str(m)) for m in legal]
        assert sorted(e.action_of(m) for m in legal) == marked == e.legal_actions()
        for other in e.agents:
            if other != agent:
                assert not e.observe(other)["action_mask"].any()
        steps += 1
    assert steps > 36


@pytest.mark.slow
def test_the_bounds_are_proven_by_the_closure_of_tables() -> None:
    """The action space's bounds are those computed by exhausting every table a game can
    reach (escoba.env.bounds), and every table met in play, random or hoarding cards on the
    table (drops whenever allowed, else the smallest capture), lies in that closure."""
    reachable = {capture: reachable_tables(capture, True) for capture in ("sum15", "match")}
    bounds = {
        capture: capture_set_bounds(capture, True, reachable[capture])
        for capture in ("sum15", "match")
    }
    assert tuple(map(max, bounds["sum15"], bounds["match"])) == BOUNDS_FORCED
    assert bounds["match"] == (3, 6, 4, 7, 10, 12, 14, 16, 21, 25)
    free = tuple(map(max, capture_set_bounds("sum15", False), capture_set_bounds("match", False)))
    assert free == BOUNDS_FREE
    rng = random.Random(5)
    seen = 0
    # Asso piglia tutto only takes drops away (an ace is dropped on an empty table alone),
    # and Scopone deals the table no cards: their tables lie in the same closure.
    for name in ("escoba", "scopa", "scopa/regional", "scopone-scientifico/regional"):
        rules = RULES[name]
        closure = reachable[rules.capture]
        for match in range(12 if "/" not in name else 2):
            players = 4 if "scopone" in name else 2 + match % 3
            game = Game(rules, players, seed=f"hoard-{match}")
            hoard = match % 2 == 0
            while not game.is_over():
                counts = tuple(sum(c.value == v for c in game.table) for v in range(1, 11))
                assert closure[counts], f"{name}: table {game.table} is outside the closure"
                keys = game.legal_keys()
                if hoard:
                    key = min(keys, key=lambda k: ((k >> 6).bit_count(), rng.random()))
                else:
                    key = rng.choice(keys)
                game.play_key(key)
                seen += 1
    assert seen > 3000


# -- observations -----------------------------------------------------------------------------


def test_observation_fields_fill_the_array() -> None:
    assert [name for name, _, _ in FIELDS][:5] == ["hand", "table", "captured", "unseen", "played"]
    assert sum(size for _, size, _ in FIELDS) == OBSERVATION_SIZE == 490
    ends = [SLICES[name].stop for name, _, _ in FIELDS]
    assert ends == sorted(ends) and ends[-1] == OBSERVATION_SIZE


def test_observation_of_a_known_position() -> None:
    """The library guide's match (docs/library.md: escoba, seed 42): seat 0 holds Ad 3h 2c,
    the table is 6h Qh 4c 7c, seat 1 deals, 30 cards in the stock; seat 1 sees the same table
    and public numbers, its own hand, and seat 0 as the seat after it."""
    e = env("escoba")
    e.reset(seed=42)
    first = e.observe("player_0")["observation"]

    def cards(obs: np.ndarray[Any, Any], name: str, slot: int = 0) -> set[str]:
        part = obs[SLICES[name]][40 * slot : 40 * slot + 40]
        return {str(DECK[i]) for i in np.flatnonzero(part)}

    assert first.dtype == np.int8 and first.shape == (OBSERVATION_SIZE,)
    assert cards(first, "hand") == {"Ad", "3h", "2c"}
    assert cards(first, "table") == {"6h", "Qh", "4c", "7c"}
    assert len(cards(first, "unseen")) == 33
    assert first[SLICES["hand_sizes"]].tolist() == [3, 3, 0, 0]
    assert first[SLICES["stock_size"]].tolist() == [30]
    assert first[SLICES["dealer"]].tolist() == [0, 1, 0, 0]
    assert first[SLICES["to_move"]].tolist() == [1, 0, 0, 0]
    assert first[SLICES["players"]].tolist() == [1, 0, 0]
    assert first[SLICES["rules"]].tolist() == [
        *(0, 1, 1, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 21, 1),
        *(3, 4, 0, 0, 0),  # three cards a deal, four to the table, no regional options
    ]
    e.step(e.action_of("2c:6h+7c"))
    second = e.observe("player_1")["observation"]
    assert cards(second, "table") == {"Qh", "4c"}
    assert cards(second, "captured", 1) == {"2c", "6h", "7c"}  # the other side's pile
    assert cards(second, "played", 1) == {"2c"}  # seat 0 is the seat after seat 1
    assert second[SLICES["dealer"]].tolist() == [1, 0, 0, 0]
    assert second[SLICES["last_capturer"]].tolist() == [0, 1, 0, 0]
    assert cards(second, "hand") == {"5h", "5s", "6c"}


def test_observation_of_a_scopone_deal() -> None:
    """RULES.md "Scopone": the whole deck dealt at the start, ten cards to each of the four
    seats and none to the table, so nothing is left to deal; the rules field says so."""
    e = env("scopone-scientifico", 4, True)
    e.reset(seed=7)
    seat = e.game.to_move
    assert seat is not None
    first = e.observe(f"player_{seat}")["observation"]
    hand = {e.game.hand(seat)[i].index for i in range(10)}
    assert set(np.flatnonzero(first[SLICES["hand"]]).tolist()) == hand
    assert not first[SLICES["table"]].any()
    assert int(first[SLICES["unseen"]].sum()) == 30
    assert first[SLICES["hand_sizes"]].tolist() == [10, 10, 10, 10]
    assert first[SLICES["stock_size"]].tolist() == [0]
    assert first[SLICES["rules"]].tolist()[-5:] == [10, 0, 0, 0, 0]
    e.step(e.legal_actions()[0])
    after = e.observe(f"player_{seat}")["observation"]
    assert after[SLICES["hand_sizes"]].tolist() == [9, 10, 10, 10]
    regional = env(RULES["scopone-scientifico/regional"], 4, True)
    regional.reset(seed=7)
    assert regional.observe("player_0")["observation"][SLICES["rules"]].tolist()[-3:] == [1, 1, 1]


def test_the_ace_that_takes_the_whole_table_is_one_action() -> None:
    """RULES.md "Asso piglia tutto": with no ace on the table an ace takes every card there
    (a capture, and no sweep), and it must: the mask marks exactly that capture, the ace's
    first capture slot."""
    rules = RULES["scopa/regional"]
    deck = build_deck(2, 1, hands={0: "Ad 2h 5c", 1: "As 3s 4s"}, table="4c 6h Jc Qs")
    e = raw_env(rules)
    e.reset(options={"record": game_with_deck(rules, 2, deck, dealer=1).record()})
    ace = DECK[0]
    whole = FORCED.offset(ace) + 1
    assert e.move_of(whole) == Move.parse("Ad:4c+6h+Jc+Qs")
    assert FORCED.offset(ace) not in e.legal_actions()  # forced: the ace may not be dropped
    e.step(whole)
    assert e.game.sweeps == (0, 0)
    e.step(e.action_of("3s"))
    e.step(e.action_of("2h"))
    e.step(e.action_of("As:2h+3s"))  # no ace on the table 2h 3s: the ace takes both
    assert not e.game.table and e.game.sweeps == (0, 0)


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_fast_encoding_equals_the_reference_from_the_seat_observation(
    config: tuple[str, int, bool],
) -> None:
    """At every step of random play, for every seat, the environment's observation equals
    encode_observation(game.observation(seat)), which is built from the seat's Observation
    alone, and lies within the observation space."""
    e = make_env(config)
    e.reset(seed=3)
    rng = random.Random(3)
    space = e.observation_space("player_0")
    checked = 0
    for _ in play_random(e, rng):
        for agent in e.agents:
            seen = e.observe(agent)
            reference = encode_observation(e.seat_observation(agent))
            assert np.array_equal(seen["observation"], reference)
            assert space.contains(seen)
            checked += 1
    assert e.game.is_over()
    for agent in e.possible_agents:  # the end of the match
        reference = encode_observation(e.seat_observation(agent))
        assert np.array_equal(e.observe(agent)["observation"], reference)


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_observations_kept_move_by_move_equal_a_full_rebuild(
    config: tuple[str, int, bool],
) -> None:
    """The environment keeps the match's facts up to date move by move (reading them in
    full only at a new hand): over many random matches, observing the agent to move at every
    step and the others now and then, each observation equals one read afresh from the
    position and, now and then, the reference built from the seat's Observation;
    observations handed out earlier never change."""
    e = make_env(config)
    rng = random.Random(config_id(config))
    fresh = Tracker(e.rules, e.players, e.partnerships)
    checked = 0
    for match in range(8):
        e.reset(seed=1000 + match)
        kept: list[tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]] = []
        for agent in play_random(e, rng):
            seat = int(agent.removeprefix("player_"))
            lookers = [agent] + [a for a in e.agents if a != agent and rng.random() < 0.2]
            for looker in lookers:
                seen = e.observe(looker)["observation"]
                state = e.game.snapshot()
                played = tuple(played_this_hand(e.game))
                assert state.played == played
                fresh.rebuild(state)
                rebuilt = fresh.observation(int(looker.removeprefix("player_")))
                assert np.array_equal(seen, rebuilt), (match, looker)
                if rng.random() < 0.1:
                    reference = encode_observation(e.seat_observation(looker))
                    assert np.array_equal(seen, reference)
                    kept.append((seen, seen.copy()))
                checked += 1
            assert seat == e.game.to_move
        for agent in e.possible_agents:
            reference = encode_observation(e.seat_observation(agent))
            assert np.array_equal(e.observe(agent)["observation"], reference)
        assert all(np.array_equal(a, b) for a, b in kept)
    assert checked > 8 * 36


def played_this_hand(game: Game) -> list[int]:
    """The cards each seat has played this hand, as bit sets, from the public history."""
    played = [0] * game.players
    for event in game.history():
        if isinstance(event, Play):
            played[event.seat] |= 1 << event.card.index
    return played


def swapped(record: dict[str, Any], first: str, second: str) -> dict[str, Any]:
    """The record with two cards exchanged in the deck of its current hand."""
    copy = {**record, "hands": [dict(h) for h in record["hands"]]}
    deals = [list(d) for d in copy["hands"][-1]["deals"]]
    deck = deals[-1]
    i, j = deck.index(first), deck.index(second)
    deck[i], deck[j] = deck[j], deck[i]
    copy["hands"][-1]["deals"] = deals
    return copy


# A third of the seatings of the usual games, and every seating of Scopone (no stock: the
# hidden cards are the other hands).
HIDDEN_CONFIGS = [c for c in CONFIGS if "scopone" in c[0] or CONFIGS.index(c) % 3 == 0]


@pytest.mark.parametrize("config", HIDDEN_CONFIGS, ids=config_id)
def test_hidden_cards_change_nothing_a_seat_observes(config: tuple[str, int, bool]) -> None:
    """RULES.md "A hand": a seat sees its own hand, never another's or the stock. Two matches
    that differ only in where two cards hidden from a seat lie (another hand and the stock,
    two places in the stock, or two other hands) give that seat identical observations and
    masks; the seats whose hands changed do see the difference."""
    name, players, partnerships = config
    rules = RULES[name]
    rng = random.Random(config_id(config))
    compared = 0
    for match in range(6):
        game = Game(rules, players, partnerships, seed=f"hidden-{match}")
        for _ in range(rng.randrange(1, rules.hand_cards * players)):
            game.play(rng.choice(sorted(game.legal_moves())))
        seat = game.to_move
        assert seat is not None
        hidden = {str(c) for c in hidden_from(game, seat)}
        others = [(seat + k) % players for k in range(1, players)]
        hands = [sorted(map(str, game.hand(other))) for other in others]
        stock = [str(c) for c in current_deck(game)[40 - game.stock_size :]]
        swaps: list[tuple[str, str, set[int]]] = []
        if hands[0] and stock:
            swaps.append((hands[0][0], stock[-1], {others[0]}))
        if len(stock) >= 2:
            swaps.append((stock[0], stock[-1], set()))
        for i, j in ((0, -1), (1, -1)) if players == 4 else ((0, -1),) if players == 3 else ():
            if hands[i] and hands[j]:
                swaps.append((hands[i][-1], hands[j][0], {others[i], others[j]}))
        record = game.record()
        for first, second, who_sees in swaps:
            assert {first, second} <= hidden
            a, b = make_env(config), make_env(config)
            a.reset(options={"record": record})
            b.reset(options={"record": swapped(record, first, second)})
            for agent in a.possible_agents:
                looker = int(agent.removeprefix("player_"))
                same = np.array_equal(
                    a.observe(agent)["observation"], b.observe(agent)["observation"]
                )
                assert same == (looker not in who_sees), (agent, first, second)
                assert np.array_equal(
                    a.observe(agent)["action_mask"], b.observe(agent)["action_mask"]
                )
            compared += 1
    assert compared >= 6


# -- rewards and episodes ---------------------------------------------------------------------


@pytest.mark.parametrize("config", CONFIGS[:4], ids=config_id)
def test_points_rewards_are_each_sides_points_of_each_hand(config: tuple[str, int, bool]) -> None:
    """RULES.md "Scoring a hand": with reward="points", the step that ends a hand pays every
    agent its side's points of that hand (HandResult.points); every other step pays
    nothing. The episode ends with the match (RULES.md "Winning the match")."""
    e = make_env(config)
    e.reset(seed=21)
    rng = random.Random(21)
    hands = 0
    paid_hands = 0
    for _agent in e.agent_iter():
        observation, _, terminated, _, _ = e.last()
        if terminated:
            e.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        e.step(int(legal[rng.randrange(len(legal))]))
        if e.hands_played == hands:
            assert not any(e.rewards.values())
            continue
        hands = e.hands_played
        result = e.game.results[-1]
        for other in e.possible_agents:
            side = e.game.side_of(int(other.removeprefix("player_")))
            assert e.rewards[other] == result.points[side]
        assert any(e.rewards.values())
        paid_hands += 1
    game = e.game
    assert game.is_over()
    assert paid_hands == hands == len(game.results) > 1


def episode_rewards(e: EscobaEnv, seed: int) -> dict[str, float]:
    """Every agent's rewards over an episode, as the AEC loop hands them out: the reward
    returned by last() before each of its steps, the final one included."""
    e.reset(seed=seed)
    total = dict.fromkeys(e.possible_agents, 0.0)
    rng = random.Random(seed)
    for agent in e.agent_iter():
        observation, reward, terminated, truncated, _ = e.last()
        total[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        e.step(int(legal[rng.randrange(len(legal))]))
    return total


@pytest.mark.parametrize("config", [("escoba", 2, False), ("escova", 3, False), ("scopa", 4, True)])
def test_rewards_as_the_loop_sees_them(config: tuple[str, int, bool]) -> None:
    """Summed as an AEC loop receives them: "points" gives each agent its side's match total;
    "difference" its side's points less the mean of the other sides' (zero-sum over sides);
    "match" +1 to the winning side's agents and -1 to the others (RULES.md "Winning the
    match")."""
    preset, players, partnerships = config
    points = raw_env(preset, players, partnerships)
    got = episode_rewards(points, 8)
    game = points.game
    sides = len(game.sides)
    for agent, value in got.items():
        assert value == game.totals[game.side_of(int(agent.removeprefix("player_")))]
    difference = raw_env(preset, players, partnerships, reward="difference")
    got = episode_rewards(difference, 8)
    assert difference.game.totals == game.totals  # the same seed, the same random moves
    for agent, value in got.items():
        own = game.totals[game.side_of(int(agent.removeprefix("player_")))]
        assert value == pytest.approx(own - (sum(game.totals) - own) / (sides - 1))
    match = raw_env(preset, players, partnerships, reward="match")
    got = episode_rewards(match, 8)
    winner = match.game.winner
    assert winner is not None
    for agent, value in got.items():
        assert value == (1.0 if match.game.side_of(int(agent[7:])) == winner else -1.0)


def test_an_episode_of_one_hand() -> None:
    """hands=1: the episode ends (terminated) after the first hand, the match unfinished;
    "match" rewards then go to the side leading after that hand, 0 to all on a shared lead."""
    for seed in range(6):
        e = raw_env("escoba", reward="match", hands=1)
        got = episode_rewards(e, seed)
        game = e.game
        assert e.hands_played == 1 and len(game.results) == 1 and not game.is_over()
        assert not e.agents  # every agent terminated and stepped out
        totals = game.totals
        if totals[0] == totals[1]:
            assert got == {"player_0": 0.0, "player_1": 0.0}
        else:
            leader = 0 if totals[0] > totals[1] else 1
            assert got[f"player_{leader}"] == 1.0 and got[f"player_{1 - leader}"] == -1.0


# -- seeding, records, errors, rendering ----------------------------------------------------


def test_reset_seed_deals_as_the_engine_does() -> None:
    e = env("scopa", 3)
    e.reset(seed=42)
    game = Game(RULESETS["scopa"], 3, seed=42)
    assert e.game.record() == game.record()
    assert e.agent_selection == f"player_{game.to_move}"
    e.reset()
    after = e.game.record()
    again = env("scopa", 3)
    again.reset(seed=42)
    again.reset()
    assert again.game.record() == after  # unseeded resets follow the last seed
    assert after != game.record()


def test_reset_from_a_record_goes_on_from_its_position() -> None:
    game = Game(RULESETS["escova"], 2, seed=5)
    for _ in range(7):
        game.play(game.legal_moves()[-1])
    e = env("escova")
    e.reset(options={"record": game.record()})
    assert e.game.record() == game.record()
    assert e.agent_selection == f"player_{game.to_move}"
    assert np.array_equal(
        e.observe(e.agent_selection)["observation"],
        encode_observation(game.observation(game.to_move)),  # type: ignore[arg-type]
    )
    with pytest.raises(RulesError, match="other rules or seats"):
        env("escoba").reset(options={"record": game.record()})
    while not game.is_over():
        game.play(game.legal_moves()[0])
    with pytest.raises(IllegalMoveError, match="over"):
        e.reset(options={"record": game.record()})


def test_illegal_actions_are_refused_and_change_nothing() -> None:
    e = env("escoba")
    with pytest.raises(EscobaError, match="reset"):
        e.step(0)
    with pytest.raises(EscobaError, match="reset"):
        e.observe("player_0")
    e.reset(seed=42)
    before = e.game.record()
    legal = e.legal_actions()
    illegal = next(a for a in range(FORCED.size) if a not in legal)
    with pytest.raises(IllegalMoveError, match=rf"action {illegal} \(.*\): not legal for player_0"):
        e.step(illegal)
    for bad in (-1, FORCED.size, None, "x", 2.0, True):
        with pytest.raises(IllegalMoveError, match=r"not an action|not legal"):
            e.step(bad)  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError, match="not a legal move"):
        e.action_of("Kd")
    assert e.game.record() == before
    e.step(np.int64(legal[0]))  # numpy integers are actions too
    assert e.game.record() != before


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"rules": "tute"}, "unknown preset"),
        ({"rules": 3}, "preset name or a RuleSet"),
        ({"players": 5}, "players"),
        ({"players": 2, "partnerships": True}, "partnerships"),
        ({"rules": "scopone-scientifico", "players": 3}, "do not share out the 40 cards"),
        ({"reward": "money"}, "reward"),
        ({"hands": 0}, "hands"),
        ({"render_mode": "rgb_array"}, "render_mode"),
    ],
)
def test_bad_options_are_refused(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        env(**kwargs)


def test_render_shows_the_position_as_text(capsys: pytest.CaptureFixture[str]) -> None:
    """render: the table, every seat's card count, each side's captures, and the hand and
    legal actions of the seat to move only."""
    e = env("escoba", render_mode="ansi")
    e.reset(seed=42)
    text = e.render()
    assert isinstance(text, str)
    assert "table: 6h Qh 4c 7c" in text
    assert "to move: player_0, holding Ad 3h 2c" in text
    assert f"{e.action_of('2c:6h+7c')} 2c:6h+7c" in text
    assert "5h" not in text  # seat 1's cards are not shown
    human = env("escoba", render_mode="human")
    human.reset(seed=42)
    assert human.render() is None
    assert "table: 6h Qh 4c 7c" in capsys.readouterr().out
    human.step(human.action_of("2c:6h+7c"))  # human mode prints after every step
    assert "table: Qh 4c" in capsys.readouterr().out
    silent = env("escoba")
    silent.reset(seed=42)
    with pytest.warns(UserWarning, match="render_mode"):
        assert silent.render() is None


# -- agents -----------------------------------------------------------------------------------


class Spy:
    """An environment stand-in that records which attributes an agent reads."""

    def __init__(self, inner: EscobaEnv) -> None:
        self._inner = inner
        self.read: set[str] = set()

    @property
    def unwrapped(self) -> Spy:
        self.read.add("unwrapped")
        return self

    def __getattr__(self, name: str) -> Any:
        self.read.add(name)
        return getattr(self._inner, name)


@pytest.mark.slow
@pytest.mark.parametrize("level", ["beginner", "easy", "medium", "hard"])
def test_level_agents_play_legal_actions_from_their_seat_observation(level: str) -> None:
    """A level agent reads only its seat's Observation (seat_observation) and translates its
    move (action_of): never the game. Its actions are legal, and a match against a random
    agent runs to its end (one hand for the slow search level)."""
    e = raw_env("escoba", 2, hands=1 if level == "hard" else None)
    e.reset(seed=4)
    spy = Spy(e)
    agents = {"player_0": LevelAgent(level, seed=1), "player_1": RandomAgent(seed=2)}
    for agent in e.agent_iter():
        _, _, terminated, _, _ = e.last(observe=False)
        if terminated:
            e.step(None)
            continue
        action = agents[agent].act(spy if agent == "player_0" else e, agent)
        assert action in e.legal_actions()
        e.step(action)
    assert spy.read == {"unwrapped", "seat_observation", "action_of"}


def test_level_agents_reproduce_from_their_seed() -> None:
    def actions(seed: int) -> list[int]:
        e = raw_env("scopa", 3)
        e.reset(seed=9)
        agents = [LevelAgent("medium", seed=seed), LevelAgent("easy", seed=seed), RandomAgent(seed)]
        chosen = []
        for agent in e.agent_iter():
            if e.terminations[agent]:
                e.step(None)
                continue
            chosen.append(agents[int(agent[7:])].act(e, agent))
            e.step(chosen[-1])
        return chosen

    first = actions(1)
    assert actions(1) == first
    assert actions(2) != first
    with pytest.raises(IllegalMoveError, match="not to move"):
        e = raw_env()
        e.reset(seed=1)
        LevelAgent("easy").act(e, "player_1")


@pytest.mark.slow
def test_the_example_script_plays_random_against_medium() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "random_vs_medium.py"), "--matches", "2"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    lines = done.stdout.splitlines()
    assert lines[0].startswith("2 matches of escoba, ")
    assert "mean points per hand: random " in lines[1]
    assert "95% CI" in lines[2]
    assert "win rate" in lines[3] and "of 2 matches" in lines[3]


# -- packaging and documentation --------------------------------------------------------------


def test_the_engine_imports_without_the_env_extra() -> None:
    code = (
        "import sys, escoba, escoba.ai, escoba.arena; "
        "print(sorted(m for m in ('numpy', 'pettingzoo', 'gymnasium') if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.strip() == "[]"


def test_docs_describe_every_observation_field() -> None:
    """docs/environment.md lists each field of the observation with its place in the array."""
    text = (ROOT / "docs" / "environment.md").read_text()
    for name, size, _ in FIELDS:
        where = SLICES[name]
        assert f"| `{name}` | {where.start}..{where.stop - 1} | {size} |" in text, name
    assert "3744" in text and "95212" in text
    assert str(BOUNDS_FORCED) in text
