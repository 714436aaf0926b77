"""Computer players: the player interface and the levels from beginner to hard.

Importing this package registers every level with :func:`make_player`, and the frozen
``baseline`` player that new levels are measured against.
"""

from . import baseline as baseline  # registers baseline (not a level)
from . import hard as hard  # registers hard
from . import heuristics as heuristics  # registers easy and medium
from .base import (
    FORMER_LEVELS,
    LEVELS,
    Player,
    PlayerFactory,
    RandomPlayer,
    level_named,
    make_player,
    register,
)

__all__ = [
    "FORMER_LEVELS",
    "LEVELS",
    "Player",
    "PlayerFactory",
    "RandomPlayer",
    "level_named",
    "make_player",
    "register",
]
