"""Escoba, Scopa, Escova and Scopone as OpenSpiel games, and OpenSpiel's searchers as
opponents.

Needs the ``openspiel`` extra (``pip install 'escoba[openspiel]'``: the ``open_spiel``
wheel). Importing this package registers ``python_escoba``, ``python_scopa``,
``python_escova`` and ``python_scopone`` (Scopone scientifico, four players in partnerships)
with OpenSpiel:

>>> import pyspiel
>>> import escoba.openspiel
>>> game = pyspiel.load_game("python_scopa(players=4,partnerships=True)")
>>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()
(4, 3744, 40)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 4)

Parameters, encodings, returns and tensors: ``docs/openspiel.md``.
"""

from .deals import CHANCE_PICKS, chance_order, sample_deck
from .game import GAMES, RETURNS, EscobaGame, EscobaState, game_string, register
from .observer import EscobaObserver

register()

__all__ = [
    "CHANCE_PICKS",
    "GAMES",
    "RETURNS",
    "EscobaGame",
    "EscobaObserver",
    "EscobaState",
    "chance_order",
    "game_string",
    "sample_deck",
]
