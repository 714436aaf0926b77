"""The player interface (issue: computer opponents): players get an observation and the legal
moves, never the game, and return one of the moves."""

from __future__ import annotations

import pytest

from escoba import RULESETS, EscobaError, Game
from escoba.ai import LEVELS, Player, RandomPlayer, make_player


def test_beginner_plays_only_legal_moves_through_a_whole_match() -> None:
    game = Game(RULESETS["scopa"], 3, seed=4)
    players = [make_player("beginner", seed=seat) for seat in range(3)]
    while (seat := game.to_move) is not None:
        legal = game.legal_moves()
        move = players[seat].choose(game.observation(seat), legal)
        assert move in legal
        game.play(move)
    assert game.winner is not None


def test_the_same_seed_gives_the_same_choices() -> None:
    game = Game(RULESETS["escoba"], 2, seed=9)
    seat = game.to_move
    assert seat is not None
    obs, legal = game.observation(seat), game.legal_moves()
    first = [RandomPlayer(5).choose(obs, legal) for _ in range(3)]
    again = [RandomPlayer(5).choose(obs, legal) for _ in range(3)]
    assert first == again


def test_unknown_level_is_named() -> None:
    with pytest.raises(EscobaError, match="'grandmaster'"):
        make_player("grandmaster")


def test_a_player_is_a_player() -> None:
    assert isinstance(RandomPlayer(), Player)
    assert LEVELS[0] == "beginner"
