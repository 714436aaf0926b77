"""The tree search (issue "Opponents that play like masters", deliverable 2): information-set
Monte Carlo tree search over inferred deals."""

from __future__ import annotations

import pytest

from conftest import build_deck, game_with_deck
from escoba import RULESETS, Game, Move, RuleSet
from escoba.ai.ismcts import TreeSearchPlayer
from escoba.errors import EscobaError

SEATINGS = [(2, False), (3, False), (4, False), (4, True)]
THREE_CARD_PRESETS = sorted(name for name, rules in RULESETS.items() if rules.hand_cards == 3)
"""The presets dealt three cards at a time (Scopone has tests of its own: test_ai_scopone)."""


def small(seed: int) -> TreeSearchPlayer:
    return TreeSearchPlayer(seed, name="small", iterations=40, depth=4)


@pytest.mark.slow
@pytest.mark.parametrize(("players", "partnerships"), SEATINGS)
@pytest.mark.parametrize("preset", THREE_CARD_PRESETS)
def test_the_tree_search_plays_only_legal_moves_through_a_match(
    preset: str, players: int, partnerships: bool
) -> None:
    rules: RuleSet = RULESETS[preset].replace(target_score=3)  # a short match, a few hands
    game = Game(rules, players, partnerships, seed=players)
    seats = [small(seat) for seat in range(players)]
    while (seat := game.to_move) is not None:
        legal = game.legal_moves()
        move = seats[seat].choose(game.observation(seat), legal)
        assert move in legal
        game.play(move)
    assert game.winner is not None


def test_every_move_is_ranked_and_the_walks_are_counted() -> None:
    game = Game(RULESETS["escoba"], 2, seed=5)
    player = TreeSearchPlayer(1, iterations=300)
    for _ in range(8):
        seat = game.to_move
        assert seat is not None
        legal = game.legal_moves()
        ranked = player.evaluate(game.observation(seat), legal)
        assert sorted(m for m, _ in ranked) == sorted(legal)
        assert player.walks == 300
        move = player.choose(game.observation(seat), legal)
        assert move == (ranked[0][0] if len(legal) > 1 else legal[0])
        game.play(move)


def test_the_same_seed_gives_the_same_choices_and_another_may_not() -> None:
    def choices(seed: int) -> list[Move]:
        game = Game(RULESETS["scopa"], 2, seed=2)
        player = TreeSearchPlayer(seed, iterations=60)
        chosen = []
        while not game.results:
            seat = game.to_move
            assert seat is not None
            move = player.choose(game.observation(seat), game.legal_moves())
            chosen.append(move)
            game.play(move)
        return chosen

    assert choices(4) == choices(4)


def test_a_time_limit_still_answers_after_one_walk_per_move() -> None:
    game = Game(RULESETS["escoba"], 2, seed=8)
    seat = game.to_move
    assert seat is not None
    player = TreeSearchPlayer(0, iterations=10_000_000, time_limit=0.05)
    legal = game.legal_moves()
    assert player.choose(game.observation(seat), legal) in legal
    assert len(legal) <= player.walks < 10_000_000


def test_bad_budgets_are_refused() -> None:
    with pytest.raises(EscobaError, match="iterations=0"):
        TreeSearchPlayer(iterations=0)
    with pytest.raises(EscobaError, match="exploration=-1"):
        TreeSearchPlayer(exploration=-1)


def best_move(rules: RuleSet, hand: str, table: str) -> Move:
    game = game_with_deck(rules, 2, build_deck(2, 0, hands={1: hand}, table=table))
    assert game.to_move == 1
    return TreeSearchPlayer(0, iterations=400).choose(game.observation(1), game.legal_moves())


def test_the_tree_search_takes_the_obvious_sweep() -> None:
    # RULES.md "A move": 5 + A + 2 + 3 + 4 = 15 empties the table.
    assert best_move(RULESETS["escoba"], "5h Kc Qs", "2s 3h 4c Ad") == Move.parse("5h:Ad+2s+3h+4c")
    # Matching: a king (10) takes A + 2 + 3 + 4 = 10, the whole table.
    assert best_move(RULESETS["scopa"], "Kh 5c 6s", "As 2h 3c 4d") == Move.parse("Kh:As+2h+3c+4d")


def test_the_tree_search_takes_the_seven_of_coins() -> None:
    # The jack (8) takes 7d or 7c (8 + 7 = 15); 7d is a point of its own.
    assert best_move(RULESETS["escoba"], "Jh 3s 2c", "7d 7c Kh Qs") == Move.parse("Jh:7d")
    # Single-card priority: the 7 takes one 7, and the 7 of coins is the one worth a point.
    assert best_move(RULESETS["scopa"], "7h Kc Ks", "7d 7c 4h 2s") == Move.parse("7h:7d")
