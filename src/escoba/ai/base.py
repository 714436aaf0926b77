"""The player interface: a player sees its seat's observation and the legal moves, and
returns one of the moves. It never receives the Game, so it cannot see hidden cards.

The same interface serves computer opponents, the terminal and web games (a person is a
player whose ``choose`` waits for input) and the arena.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Protocol, runtime_checkable

from ..errors import EscobaError
from ..moves import Move
from ..observation import Observation

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


@runtime_checkable
class Player(Protocol):
    """Anything that picks a move for a seat."""

    @property
    def name(self) -> str:
        """A short name for tables and logs (the level for computer players)."""
        ...

    def choose(self, observation: Observation, legal: Sequence[Move]) -> Move:
        """One of ``legal``, for the seat whose ``observation`` this is."""
        ...


PlayerFactory = Callable[[int], Player]
"""Makes a player from a seed."""

_FACTORIES: dict[str, PlayerFactory] = {}


def register(level: str, factory: PlayerFactory) -> None:
    """Make a level available to :func:`make_player` (and so to the arena and the games)."""
    _FACTORIES[level] = factory


def make_player(level: str, seed: int = 0) -> Player:
    """A computer player of a level (``beginner``, ``easy``, ...; a former name plays as the
    level it became), reproducible from ``seed``."""
    factory = _FACTORIES.get(FORMER_LEVELS.get(level, level))
    if factory is None:
        raise EscobaError(f"unknown player level {level!r}; the levels are {', '.join(LEVELS)}")
    return factory(seed)


def level_named(name: str) -> str:
    """The level a name stands for: a level, or the level a former name became.

    >>> level_named("medium"), level_named("master")
    ('medium', 'hard')
    """
    level = FORMER_LEVELS.get(name, name)
    if level not in LEVELS:
        raise EscobaError(f"unknown player level {name!r}; the levels are {', '.join(LEVELS)}")
    return level


class RandomPlayer:
    """``beginner``: a random legal move."""

    name = "beginner"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, observation: Observation, legal: Sequence[Move]) -> Move:
        if not legal:
            raise EscobaError(f"seat {observation.seat} has no legal move to choose from")
        return legal[self._rng.randrange(len(legal))]


register("beginner", RandomPlayer)

LEVELS: tuple[str, ...] = ("beginner", "easy", "medium", "hard")
"""The computer levels, weakest first: each beats the one below it by a measured margin
(docs/ai.md, "The ladder")."""

FORMER_LEVELS: Mapping[str, str] = MappingProxyType({"expert": "hard", "master": "hard"})
"""Names of levels that were merged into another because no measurement could tell them apart:
records, rooms and saved settings that name them still load, and play as the level named."""
