"""Determinization, the simulation of a hand, and the perfect-information Monte Carlo players:
the frozen ``baseline`` (issue "Computer opponents") and the PIMC search over inferred deals
(issue "Opponents that play like masters"). Players only ever get an observation and the legal
moves; the tests look at the Game to check them."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from conftest import SEATED_PRESETS, SEATINGS, build_deck, game_with_deck, true_simulation
from escoba import DECK, RULESETS, Card, Game, Move, RuleSet
from escoba.ai import Player, make_player
from escoba.ai.baseline import BaselinePlayer
from escoba.ai.sampling import sample_deal
from escoba.ai.search import SearchPlayer

THREE_CARD_PRESETS = sorted(name for name, rules in RULESETS.items() if rules.hand_cards == 3)
"""The presets dealt three cards at a time (Scopone has tests of its own: test_ai_scopone)."""


def mask(cards: Sequence[Card] | frozenset[Card]) -> int:
    return sum(1 << c.index for c in cards)


def advance(game: Game, rng: random.Random, plays: int) -> None:
    """Play ``plays`` random moves, staying within the current hand."""
    hand = game.hand_number
    for _ in range(plays):
        if game.stock_size == 0 and sum(game.hand_sizes) == 1:
            break
        game.play(rng.choice(game.legal_moves()))
        assert game.hand_number == hand


# -- sampling ----------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "partnerships"), SEATINGS)
@pytest.mark.parametrize("preset", ["escoba", "scopa"])
def test_sampled_deals_agree_with_what_the_seat_has_seen(
    preset: str, players: int, partnerships: bool
) -> None:
    rng = random.Random(1)
    for seed in range(8):
        game = Game(RULESETS[preset], players, partnerships, seed=seed)
        advance(game, rng, rng.randrange(0, 30))
        for seat in range(players):
            obs = game.observation(seat)
            deal = sample_deal(obs, random.Random(seed))
            sizes = tuple(len(h) for h in deal.hands)
            assert sizes == obs.hand_sizes == game.hand_sizes
            assert len(deal.stock) == obs.stock_size
            assert deal.hands[seat] == tuple(sorted(c.index for c in obs.hand))
            dealt = [c for h in deal.hands for c in h] + list(deal.stock)
            assert len(set(dealt)) == len(dealt)
            others = {c for s, h in enumerate(deal.hands) if s != seat for c in h}
            assert others | set(deal.stock) == {c.index for c in obs.unseen}
            seen = mask(obs.table) | mask(obs.hand) | sum(mask(p) for p in obs.captured)
            assert not any(seen >> c & 1 for c in others | set(deal.stock))
            assert seen | mask([DECK[c] for c in dealt]) == (1 << 40) - 1


def test_sampling_is_reproducible_and_varies() -> None:
    game = Game(RULESETS["escoba"], 2, seed=3)
    obs = game.observation(0)
    assert sample_deal(obs, random.Random(7)) == sample_deal(obs, random.Random(7))
    assert len({sample_deal(obs, random.Random(s)) for s in range(10)}) > 1


# -- the simulation replays the engine exactly --------------------------------------------


@pytest.mark.parametrize(("preset", "players", "partnerships"), SEATED_PRESETS)
def test_the_simulation_replays_a_real_hand(preset: str, players: int, partnerships: bool) -> None:
    rng = random.Random(preset + str(players))
    for seed in range(6):
        game = Game(RULESETS[preset], players, partnerships, seed=seed)
        advance(game, rng, seed * 5)
        sim = true_simulation(game)
        before = game.hand_number
        undo_checked = False
        while game.hand_number == before:
            assert sorted(sim.legal_keys()) == sorted(game.legal_keys())
            assert sim.table == mask(game.table)
            assert sim.to_move == game.to_move
            assert [sorted(h) for h in sim.hands] == [
                sorted(c.index for c in game.hand(s)) for s in range(players)
            ]
            key = rng.choice(game.legal_keys())
            if not undo_checked and sim.stock_pos == 0 and len(sim.legal_keys()) > 1:
                # apply and undo leave the state as it was, even across a new round
                state = (sim.table, list(sim.piles), list(sim.sweeps), sim.played)
                sim.apply(key)
                sim.undo()
                assert state == (sim.table, sim.piles, sim.sweeps, sim.played)
                undo_checked = True
            sim.apply(key)
            game.play_key(key)
        result = game.results[before]
        assert sim.is_over and sim.table == 0
        assert sim.piles == [mask(p) for p in result.piles]
        assert tuple(sim.sweeps) == result.sweeps
        assert sim.points() == result.points
        side = seed % len(game.sides)
        others = [p for s, p in enumerate(result.points) if s != side]
        assert sim.value(side) == result.points[side] - sum(others) / len(others)


def test_undo_restores_a_whole_hand() -> None:
    game = Game(RULESETS["escoba"], 3, seed=11)
    sim = true_simulation(game)
    start = (sim.table, list(sim.piles), list(sim.sweeps), [list(h) for h in sim.hands])
    rng = random.Random(0)
    steps = 0
    while not sim.is_over:
        sim.apply(rng.choice(sim.legal_keys()))
        steps += 1
    for _ in range(steps):
        sim.undo()
    assert (sim.table, sim.piles, sim.sweeps, sim.hands) == start
    assert sorted(sim.legal_keys()) == sorted(game.legal_keys())


@pytest.mark.parametrize("preset", sorted(RULESETS))
def test_the_estimate_between_two_sides_is_the_general_one_to_the_last_bit(preset: str) -> None:
    """The searches' leaf estimate has a fast path for two sides (every 2-player game and
    every partnership game); it must give the general computation's value exactly, or the
    same deals would be searched to different moves. Over random hands of every preset, with
    re bello and napola, at every position and for both sides."""
    rules = RULESETS[preset]
    regional = rules.replace(re_bello=True, napola=True) if rules.sevens == "primiera" else rules
    players, partnerships = (4, True) if rules.hand_cards > 3 else (2, False)
    rng = random.Random(preset)
    compared = 0
    for variant in (rules, regional):
        for deck in range(4):
            sim = true_simulation(Game(variant, players, partnerships, seed=f"{preset}:{deck}"))
            assert sim.sides == 2
            while not sim.is_over:
                for side in (0, 1):
                    assert sim.estimate(side) == sim._estimate_any(side)
                    compared += 1
                sim.apply(rng.choice(sim.legal_keys()))
    assert compared > 100


# -- the players --------------------------------------------------------------------------


def small(seed: int) -> SearchPlayer:
    return SearchPlayer(seed, name="small", budget=1, min_deals=3, max_deals=3, depth=2)


@pytest.mark.slow
@pytest.mark.parametrize(("players", "partnerships"), SEATINGS)
@pytest.mark.parametrize("preset", THREE_CARD_PRESETS)
def test_search_players_play_only_legal_moves_through_a_match(
    preset: str, players: int, partnerships: bool
) -> None:
    rules: RuleSet = RULESETS[preset].replace(target_score=4)  # a short match, several hands
    game = Game(rules, players, partnerships, seed=players)
    seats: list[Player] = [small(seat) for seat in range(players)]
    seats[0] = make_player("baseline", 0)
    while (seat := game.to_move) is not None:
        legal = game.legal_moves()
        move = seats[seat].choose(game.observation(seat), legal)
        assert move in legal
        game.play(move)
    assert game.winner is not None


@pytest.mark.parametrize("level", ["baseline", "pimc"])
def test_pimc_plays_legal_moves_and_ranks_every_move(level: str) -> None:
    game = Game(RULESETS["scopa"], 2, seed=5)
    expert = make_player(level, 1) if level == "baseline" else SearchPlayer(1, budget=2_000)
    assert isinstance(expert, (BaselinePlayer, SearchPlayer))
    for _ in range(6):
        seat = game.to_move
        assert seat is not None
        legal = game.legal_moves()
        ranked = expert.evaluate(game.observation(seat), legal)
        assert sorted(m for m, _ in ranked) == sorted(legal)
        values = [v for _, v in ranked]
        assert values == sorted(values, reverse=True)
        move = expert.choose(game.observation(seat), legal)
        assert move == ranked[0][0]
        game.play(move)


@pytest.mark.slow
def test_the_same_seed_gives_the_same_choices() -> None:
    def choices(seed: int) -> list[Move]:
        game = Game(RULESETS["escoba"], 3, seed=2)
        player = SearchPlayer(seed, budget=500)
        chosen = []
        while not game.results:
            seat = game.to_move
            assert seat is not None
            move = player.choose(game.observation(seat), game.legal_moves())
            chosen.append(move)
            game.play(move)
        return chosen

    assert choices(4) == choices(4)


def test_a_time_limit_still_answers() -> None:
    game = Game(RULESETS["escoba"], 2, seed=8)
    seat = game.to_move
    assert seat is not None
    player = SearchPlayer(0, budget=10**9, max_deals=10**6, depth=6, time_limit=0.05)
    assert player.choose(game.observation(seat), game.legal_moves()) in game.legal_moves()


# -- strength -----------------------------------------------------------------------------


def duplicate_gain(rules: RuleSet, hands: int, hero: str, foe: str) -> float:
    """Mean hand points of ``hero`` less ``foe`` over the first hands of ``hands`` matches,
    each dealt twice with the players swapping seats."""
    total = 0
    for seed in range(hands):
        for hero_seat in (0, 1):
            seats = [make_player(hero if s == hero_seat else foe, seed) for s in (0, 1)]
            game = Game(rules, 2, seed=seed)
            while not game.results:
                seat = game.to_move
                assert seat is not None
                game.play(seats[seat].choose(game.observation(seat), game.legal_moves()))
            points = game.results[0].points
            total += points[hero_seat] - points[1 - hero_seat]
    return total / (2 * hands)


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["escoba", "scopa"])
def test_baseline_beats_beginner(preset: str) -> None:
    assert duplicate_gain(RULESETS[preset], 10, "baseline", "beginner") > 1.0


# -- constructed positions ----------------------------------------------------------------


def best_move(rules: RuleSet, hand: str, table: str, level: str = "hard") -> Move:
    game = game_with_deck(rules, 2, build_deck(2, 0, hands={1: hand}, table=table))
    assert game.to_move == 1
    return make_player(level, 0).choose(game.observation(1), game.legal_moves())


@pytest.mark.parametrize("level", ["baseline", "hard"])
def test_the_search_takes_the_obvious_sweep(level: str) -> None:
    # 5 + A + 2 + 3 + 4 = 15 empties the table; the king and queen take only part of it.
    move = best_move(RULESETS["escoba"], "5h Kc Qs", "2s 3h 4c Ad", level)
    assert move == Move.parse("5h:Ad+2s+3h+4c")
    # A king (10) takes A + 2 + 3 + 4 = 10; the 5 and 6 take only pairs.
    move = best_move(RULESETS["scopa"], "Kh 5c 6s", "As 2h 3c 4d", level)
    assert move == Move.parse("Kh:As+2h+3c+4d")


@pytest.mark.parametrize("level", ["baseline", "hard"])
def test_the_search_takes_the_seven_of_coins(level: str) -> None:
    # The jack (8) takes 7d or 7c (8 + 7 = 15), nothing else can take; 7d is a point.
    move = best_move(RULESETS["escoba"], "Jh 3s 2c", "7d 7c Kh Qs", level)
    assert move == Move.parse("Jh:7d")
    # Single-card priority: the 7 takes one 7, the kings take nothing.
    move = best_move(RULESETS["scopa"], "7h Kc Ks", "7d 7c 4h 2s", level)
    assert move == Move.parse("7h:7d")


@pytest.mark.parametrize(("players", "partnerships"), [(2, False), (4, True)])
def test_searching_past_a_new_deal_plays_legal_moves(players: int, partnerships: bool) -> None:
    """With ``cross_rounds`` the search goes on into the sampled next round."""
    game = Game(RULESETS["escoba"], players, partnerships, seed=5)
    deep = SearchPlayer(1, budget=1, min_deals=2, max_deals=2, depth=3 * players + 2)
    while game.hand_number == 0 and (seat := game.to_move) is not None:
        legal = game.legal_moves()
        move = deep.choose(game.observation(seat), legal) if seat == 0 else legal[0]
        assert move in legal
        game.play(move)
    assert len(game.results) == 1
