"""A PettingZoo environment for game-AI research: Escoba, Scopa, Escova and Scopone as AEC
games.

Needs the ``env`` extra (``pip install '.[env]'``: pettingzoo, gymnasium, numpy);
``import escoba`` itself does not.

>>> from escoba.env import env
>>> e = env("escoba", players=2)
>>> e.reset(seed=42)
>>> e.agent_selection
'player_0'
>>> observation, reward, terminated, truncated, info = e.last()
>>> observation["observation"].shape, observation["action_mask"].shape
((490,), (3744,))

The encodings of actions and observations: ``docs/environment.md``, :mod:`escoba.env.actions`
and :mod:`escoba.env.observations`.
"""

from .actions import FORCED, FREE, ActionLayout, layout_for
from .aec import REWARDS, EscobaEnv, Reward, env, raw_env
from .agents import Agent, LevelAgent, RandomAgent
from .observations import FIELDS, OBSERVATION_SIZE, SLICES, encode_observation

__all__ = [
    "FIELDS",
    "FORCED",
    "FREE",
    "OBSERVATION_SIZE",
    "REWARDS",
    "SLICES",
    "ActionLayout",
    "Agent",
    "EscobaEnv",
    "LevelAgent",
    "RandomAgent",
    "Reward",
    "encode_observation",
    "env",
    "layout_for",
    "raw_env",
]
