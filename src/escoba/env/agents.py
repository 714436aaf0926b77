"""Agents for the environment: the engine's computer players, and a random agent.

An agent is asked for an action with ``agent.act(env, name)`` when ``name`` is the agent to
move. :class:`LevelAgent` plays a computer level (``beginner`` .. ``expert``): it gets the
seat's :class:`~escoba.Observation` through the environment (what that seat may know, never
the game), lets the level choose among the legal moves, and returns the chosen move's action.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

import numpy as np

from ..ai import make_player
from ..ai.base import Player
from ..errors import IllegalMoveError
from ..observation import Observation

__all__ = ["Agent", "LevelAgent", "RandomAgent"]


class Agent(Protocol):
    """Anything that picks an action for the agent to move."""

    def act(self, env: Any, agent: str) -> int: ...


class LevelAgent:
    """A computer level as an agent, reproducible from ``seed``.

    >>> from escoba.env import env
    >>> e = env("scopa")
    >>> e.reset(seed=3)
    >>> agent = LevelAgent("medium", seed=1)
    >>> action = agent.act(e, e.agent_selection)
    >>> e.unwrapped.move_of(action) in e.unwrapped.seat_observation(e.agent_selection).legal_moves
    True
    """

    def __init__(self, level: str, seed: int = 0) -> None:
        self.level = level
        self.player: Player = make_player(level, seed)

    def act(self, env: Any, agent: str) -> int:
        base = env.unwrapped  # the EscobaEnv, beneath any wrappers
        seen: Observation = base.seat_observation(agent)
        if not seen.legal_moves:
            raise IllegalMoveError(f"{agent} is not to move, so it has no action to choose")
        move = self.player.choose(seen, seen.legal_moves)
        return int(base.action_of(move))

    def __repr__(self) -> str:
        return f"LevelAgent({self.level!r})"


class RandomAgent:
    """A uniformly random legal action, from the action mask alone."""

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def act(self, env: Any, agent: str) -> int:
        mask = env.observe(agent)["action_mask"]
        legal = mask.view(np.bool_).nonzero()[0]
        if not len(legal):
            raise IllegalMoveError(f"{agent} is not to move, so it has no action to choose")
        return int(legal[self._rng.randrange(len(legal))])

    def __repr__(self) -> str:
        return "RandomAgent()"
