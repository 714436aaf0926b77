"""Computer players: the player interface and the levels from beginner to expert."""

from .base import LEVELS, Player, PlayerFactory, RandomPlayer, make_player, register

__all__ = ["LEVELS", "Player", "PlayerFactory", "RandomPlayer", "make_player", "register"]
