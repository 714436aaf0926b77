"""OpenSpiel's searchers as players of our arena and games.

``openspiel-ismcts`` is OpenSpiel's information-set MCTS (``ISMCTSBot``): a fair player that
sees its seat's observation only and searches worlds dealt by
:meth:`~escoba.openspiel.EscobaState.resample_from_infostate`. ``openspiel-mcts`` is its
perfect-information MCTS (``MCTSBot``) run on the true deal: it sees every hand, so it is an
upper bound that fair players are measured against, never an opponent for people.

Both search one hand (the game ``returns=hand``: the point margin) from the position the
seat sees, with random rollouts; ``simulations`` is the budget of a move.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from typing import Any, Final

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from ..arena import Entrant
from ..cards import Card
from ..errors import EscobaError
from ..game import Game
from ..moves import Move
from ..observation import Observation, Play
from ..rules import RuleSet
from .deals import sample_deck
from .game import EscobaState, game_string, replay_hand

__all__ = [
    "DEFAULT_SIMULATIONS",
    "KINDS",
    "OpenSpielISMCTS",
    "OpenSpielMCTS",
    "entrant",
    "hand_game",
    "state_of",
]

KINDS: Final = ("openspiel-ismcts", "openspiel-mcts")
DEFAULT_SIMULATIONS: Final = 100
DEFAULT_UCT_C: Final = 2.0


@cache
def hand_game(rules: RuleSet, players: int, partnerships: bool) -> Any:
    """The OpenSpiel game of one hand under these rules (``returns=hand``)."""
    return pyspiel.load_game(game_string(rules, players, partnerships))


def state_of(
    game: Any, observation: Observation, deck: Sequence[int] | None = None, seed: int = 0
) -> EscobaState:
    """A state of the one-hand ``game`` at the position ``observation`` shows: dealt from
    ``deck`` (card indices in dealing order) or, without it, from a deck that deals the
    cards the seat has not seen at random (by ``seed``)."""
    if deck is None:
        deck = sample_deck(observation, random.Random(seed).random)
    state: EscobaState = game.new_initial_state()
    state.apply_action(observation.dealer)
    replay_hand(state, deck, [e for e in observation.history if isinstance(e, Play)])
    return state


def _check_budget(simulations: int, rollouts: int, uct_c: float) -> None:
    if not isinstance(simulations, int) or isinstance(simulations, bool) or simulations < 1:
        raise EscobaError(f"simulations: must be a whole number >= 1, got {simulations!r}")
    if not isinstance(rollouts, int) or isinstance(rollouts, bool) or rollouts < 1:
        raise EscobaError(f"rollouts: must be a whole number >= 1, got {rollouts!r}")
    if not isinstance(uct_c, (int, float)) or isinstance(uct_c, bool) or not uct_c > 0:
        raise EscobaError(f"uct_c: must be a number > 0, got {uct_c!r}")


class _Searcher:
    """What both searchers share: a budget, a name that shows it, seeded randomness."""

    kind = ""

    def __init__(
        self,
        seed: int = 0,
        *,
        simulations: int = DEFAULT_SIMULATIONS,
        rollouts: int = 1,
        uct_c: float = DEFAULT_UCT_C,
    ) -> None:
        _check_budget(simulations, rollouts, uct_c)
        self.name = f"{self.kind}:{simulations}"
        self.simulations = simulations
        self.rollouts = rollouts
        self.uct_c = uct_c
        self._rng = random.Random(seed)
        self._np = np.random.RandomState(seed % 2**32)

    def choose(self, observation: Observation, legal: Sequence[Move]) -> Move:
        raise NotImplementedError


class OpenSpielISMCTS(_Searcher):
    """OpenSpiel's ``ISMCTSBot`` as a player (fair: it sees its observation only)."""

    kind = "openspiel-ismcts"

    def choose(self, observation: Observation, legal: Sequence[Move]) -> Move:
        if not legal:
            raise EscobaError(f"seat {observation.seat} has no legal move to choose from")
        if len(legal) == 1:
            return legal[0]
        game = hand_game(observation.rules, observation.players, observation.partnerships)
        state = state_of(game, observation, seed=self._rng.getrandbits(32))
        evaluator = mcts.RandomRolloutEvaluator(self.rollouts, self._np)
        bot = ismcts.ISMCTSBot(game, evaluator, self.uct_c, self.simulations, random_state=self._np)
        sample = self._rng.random
        bot.set_resampler(lambda s, player: s.resample_from_infostate(player, sample))
        return state.move_of(int(bot.step(state)))


class OpenSpielMCTS(_Searcher):
    """OpenSpiel's ``MCTSBot`` on the true deal: it sees every hand (an upper bound)."""

    kind = "openspiel-mcts"

    def choose(self, observation: Observation, legal: Sequence[Move]) -> Move:
        raise EscobaError("openspiel-mcts sees every hand: it plays through choose_seeing()")

    def choose_seeing(self, match: Game, legal: Sequence[Move]) -> Move:
        """The move for the seat to play in ``match`` (a copy: every hand shows)."""
        if len(legal) == 1:
            return legal[0]
        seat = match.to_move
        assert seat is not None
        observation = match.observation(seat)
        deck = [Card.parse(text).index for text in match.record()["hands"][-1]["deals"][-1]]
        game = hand_game(match.rules, match.players, match.partnerships)
        state = state_of(game, observation, deck)
        evaluator = mcts.RandomRolloutEvaluator(self.rollouts, self._np)
        bot = mcts.MCTSBot(game, self.uct_c, self.simulations, evaluator, random_state=self._np)
        return state.move_of(int(bot.step(state)))


def entrant(
    kind: str,
    *,
    simulations: int = DEFAULT_SIMULATIONS,
    rollouts: int = 1,
    uct_c: float = DEFAULT_UCT_C,
) -> Entrant:
    """An arena entrant of one of ``KINDS`` with its budget."""
    _check_budget(simulations, rollouts, uct_c)
    searcher = {cls.kind: cls for cls in (OpenSpielISMCTS, OpenSpielMCTS)}.get(kind)
    if searcher is None:
        raise EscobaError(f"unknown OpenSpiel player {kind!r}; they are {', '.join(KINDS)}")

    def player(seed: int) -> _Searcher:
        return searcher(seed, simulations=simulations, rollouts=rollouts, uct_c=uct_c)

    return Entrant(f"{kind}:{simulations}", player, sees_all=searcher is OpenSpielMCTS)
