"""Computer players: the player interface and the levels from beginner to master.

Importing this package registers every level with :func:`make_player`, and the frozen
``baseline`` player that new levels are measured against.
"""

from . import baseline as baseline  # registers baseline (not a level)
from . import heuristics as heuristics  # registers easy and medium
from . import ismcts as ismcts  # registers hard, expert and master
from .base import LEVELS, Player, PlayerFactory, RandomPlayer, make_player, register

__all__ = ["LEVELS", "Player", "PlayerFactory", "RandomPlayer", "make_player", "register"]
