"""Players' ratings: one per game, from OpenSkill's Plackett-Luce model, on the computer
levels' scale.

A rating is OpenSkill's ``mu`` (the skill believed) and ``sigma`` (how unsure that is). The
model rates two players, three each alone and two partnerships alike: each side is a team,
ranked by the match's result. People read it as one number on the ladder's Elo scale
(:mod:`escoba.ai.ratings`, where ``beginner`` is 1000), so that the computer levels stand on
the same scale: a difference of ``mu`` is turned into Elo points through the model's own
logistic (two settled players ``d`` apart in ``mu`` win ``1 / (1 + exp(-d / (sqrt(2) *
beta)))`` of their matches, Elo's ``1 / (1 + 10 ** (-D / 400))``). A new account starts at
1500 (``mu`` 25): above ``beginner``, below the strong levels.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from openskill.models import PlackettLuce

from ..ai.ratings import ELO
from ..rules import RuleSet, preset_name

__all__ = [
    "ACTIVE_DAYS",
    "BOARD_MATCHES",
    "DAILY_PAIR_LIMIT",
    "GAMES",
    "MODEL",
    "PROVISIONAL_DEVIATION",
    "SETTLED_SIGMA",
    "Shown",
    "elo",
    "game_of",
    "new_rating",
    "rate",
    "shown",
]

GAMES: Final = ("escoba", "scopa", "scopone", "escova")
"""The games rated apart: each preset belongs to one."""

MU: Final = 25.0
SIGMA: Final = MU / 3
BETA: Final = MU / 6
"""OpenSkill's defaults: a new rating, and the spread of one match's performance."""

MODEL: Final = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA)
"""The rating model (the tests compute expected changes with it)."""

START: Final = 1500.0
"""A new account's rating as shown (``mu`` = 25)."""
POINTS_PER_MU: Final = ELO / (math.sqrt(2) * BETA)
"""Elo points for one unit of ``mu`` (about 29.5)."""
PROVISIONAL_DEVIATION: Final = 350
"""A rating is provisional while its shown deviation (two ``sigma``) is above this."""
SETTLED_SIGMA: Final = PROVISIONAL_DEVIATION / (2 * POINTS_PER_MU)
"""The ``sigma`` at and below which a rating is settled (what the leaderboard asks of it)."""
BOARD_MATCHES: Final = 10
"""Rated matches a player needs in a game to be on its leaderboard."""
ACTIVE_DAYS: Final = 28
"""A player is on a leaderboard while their last rated match in it is this recent."""
DAILY_PAIR_LIMIT: Final = 3
"""Rated matches between the same two accounts that count in any 24 hours."""


def game_of(rules: RuleSet) -> str | None:
    """The game whose rating a match of ``rules`` changes: only a preset's rules, unchanged,
    are rated.

    >>> from escoba.rules import RULESETS
    >>> game_of(RULESETS["scopone-classico"]), game_of(RULESETS["escoba-fournier"])
    ('scopone', 'escoba')
    >>> game_of(RULESETS["scopa"].replace(target_score=21)) is None
    True
    """
    name = preset_name(rules)
    if name is None:
        return None
    return next(game for game in GAMES if name.startswith(game))


@dataclass(frozen=True, slots=True)
class Shown:
    """A rating as people read it: a number, its deviation (two ``sigma``), provisional."""

    rating: int
    deviation: int
    provisional: bool


def elo(mu: float) -> float:
    """``mu`` on the shown scale."""
    return START + (mu - MU) * POINTS_PER_MU


def shown(mu: float, sigma: float) -> Shown:
    """A rating as it is shown.

    >>> shown(25.0, 25 / 3)
    Shown(rating=1500, deviation=491, provisional=True)
    """
    deviation = round(2 * sigma * POINTS_PER_MU)
    return Shown(round(elo(mu)), deviation, sigma > SETTLED_SIGMA)


def new_rating() -> tuple[float, float]:
    """A new account's ``(mu, sigma)``."""
    return MU, SIGMA


def rate(
    sides: Sequence[Sequence[tuple[float, float]]], ranks: Sequence[int]
) -> list[list[tuple[float, float]]]:
    """Each side's players' new ``(mu, sigma)`` after a match where side ``i`` finished
    ``ranks[i]`` (0 first; equal ranks tie).

    >>> new = rate([[(25, 25 / 3)], [(25, 25 / 3)]], [0, 1])
    >>> [[round(mu, 2) for mu, _ in side] for side in new]
    [[27.64], [22.36]]
    """
    teams = [[MODEL.rating(mu=mu, sigma=sigma) for mu, sigma in side] for side in sides]
    rated = MODEL.rate(teams, ranks=[float(rank) for rank in ranks])
    return [[(player.mu, player.sigma) for player in side] for side in rated]
