"""Computer players: the player interface and the levels from beginner to expert.

Importing this package registers every level with :func:`make_player`.
"""

from . import heuristics as heuristics  # registers easy and medium
from . import search as search  # registers hard and expert
from .base import LEVELS, Player, PlayerFactory, RandomPlayer, make_player, register

__all__ = ["LEVELS", "Player", "PlayerFactory", "RandomPlayer", "make_player", "register"]
