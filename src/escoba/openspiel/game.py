"""Escoba, Scopa and Escova as OpenSpiel games: the game, its parameters and its states.

A state drives an :class:`escoba.Game` (the engine) through its public API; OpenSpiel sees
explicit chance (the first dealer, then every shuffle one card at a time, see
:mod:`escoba.openspiel.deals`), the research environment's action numbers
(:mod:`escoba.env.actions`) and each seat's information state and observation
(:mod:`escoba.openspiel.observer`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

import pyspiel

from ..cards import DECK, Card
from ..errors import EscobaError
from ..game import Game
from ..moves import Move
from ..observation import InitialSweep, Observation, Play
from ..rules import BOOL_OPTIONS, INT_OPTIONS, PRESET_SEATING, RULESETS, RuleSet
from .deals import (
    CHANCE_PICKS,
    Sampler,
    chance_outcomes,
    deck_from_picks,
    picks_of_deck,
    sample_deck,
)
from .observer import EscobaObserver
from .setup import Setup

__all__ = [
    "GAMES",
    "RETURNS",
    "EscobaGame",
    "EscobaState",
    "Setup",
    "game_string",
    "hand_points_bound",
]

RETURNS: Final = ("hand", "match")
"""``hand``: the game is one hand, each player's return its side's point margin;
``match``: the game is a match, +1 to the winning side's players, the rest share -1."""

GAMES: Final[Mapping[str, str]] = {
    "python_escoba": "escoba",
    "python_scopa": "scopa",
    "python_escova": "escova",
    "python_scopone": "scopone-scientifico",
}
"""The registered short names and the preset each starts from (Scopone seated as it is
usually played: four players in two partnerships)."""

_RULE_OPTIONS: Final = ("capture", "sevens", *BOOL_OPTIONS, *INT_OPTIONS)
_DEFAULT_MAX_HANDS: Final = 100
_MAX_HANDS_LIMIT: Final = 10_000
_NO_DEALER: Final = -1


def hand_points_bound(rules: RuleSet) -> int:
    """More points than any side can score in one hand: every category at its most (re bello
    1, napola 10 for the ten coins in a run), a sweep for each play and two for the first
    table."""
    regional = (1 if rules.re_bello else 0) + (10 if rules.napola else 0)
    return 6 + rules.all_sevens_bonus + 2 + regional + rules.plays_per_hand + 2


def _parameter_spec(preset: str) -> dict[str, Any]:
    rules = RULESETS[preset]
    players, partnerships = PRESET_SEATING.get(preset, (2, False))
    spec: dict[str, Any] = {
        "players": players,
        "partnerships": partnerships,
        "returns": "hand",
        "max_hands": _DEFAULT_MAX_HANDS,
    }
    for name in _RULE_OPTIONS:
        spec[name] = getattr(rules, name)
    return spec


def _game_type(short_name: str, preset: str) -> Any:
    return pyspiel.GameType(
        short_name=short_name,
        long_name=f"Python {preset.replace('-', ' ').capitalize()}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameter_spec(preset),
        default_loadable=True,
        provides_factored_observation_string=False,
    )


GAME_TYPES: Final[Mapping[str, Any]] = {
    name: _game_type(name, preset) for name, preset in GAMES.items()
}


def _setup_of(short_name: str, params: Mapping[str, Any]) -> Setup:
    """Check the parameters and make the rule set; a bad value raises ValueError naming it."""
    preset = GAMES[short_name]
    spec = _parameter_spec(preset)
    unknown = sorted(set(params) - set(spec))
    if unknown:
        raise ValueError(
            f"{short_name}: unknown parameter {unknown[0]!r}; the parameters are {', '.join(spec)}"
        )
    values = {**spec, **params}
    players = values["players"]
    if not isinstance(players, int) or isinstance(players, bool) or players not in (2, 3, 4):
        raise ValueError(f"{short_name}: players: must be 2, 3 or 4, got {players!r}")
    partnerships = values["partnerships"]
    if not isinstance(partnerships, bool):
        raise ValueError(f"{short_name}: partnerships: must be true or false, got {partnerships!r}")
    if partnerships and players != 4:
        raise ValueError(f"{short_name}: partnerships: need players=4, got players={players}")
    returns = values["returns"]
    if returns not in RETURNS:
        raise ValueError(
            f"{short_name}: returns: {returns!r} is not one of {', '.join(map(repr, RETURNS))}"
        )
    max_hands = values["max_hands"]
    if (
        not isinstance(max_hands, int)
        or isinstance(max_hands, bool)
        or not 1 <= max_hands <= _MAX_HANDS_LIMIT
    ):
        raise ValueError(
            f"{short_name}: max_hands: must be a whole number from 1 to {_MAX_HANDS_LIMIT}, "
            f"got {max_hands!r}"
        )
    try:
        rules = RULESETS[preset].replace(**{name: values[name] for name in _RULE_OPTIONS})
        rules.deals_per_hand(players)  # the deck must share out among the seats
    except EscobaError as error:
        raise ValueError(f"{short_name}: {error}") from None
    return Setup(rules, players, partnerships, returns, max_hands)


def game_string(
    rules: RuleSet | str,
    players: int = 2,
    partnerships: bool = False,
    **extra: object,
) -> str:
    """The ``pyspiel.load_game`` string of a rule set (a preset name or a RuleSet) and seats:
    the registered game of its capture mode that it differs from least, with every option
    and seating that differs from that game's defaults.

    >>> game_string("scopa", players=4, partnerships=True)
    'python_scopa(partnerships=True,players=4)'
    >>> game_string("escoba-classic")
    'python_escoba(all_sevens_bonus=1,sevens=sevens)'
    >>> game_string("scopone-scientifico", players=4, partnerships=True)
    'python_scopone'
    """
    if isinstance(rules, str):
        rules = RULESETS[rules]
    chosen: tuple[str, dict[str, object]] | None = None
    for short_name, preset in GAMES.items():
        spec = _parameter_spec(preset)
        if spec["capture"] != rules.capture:
            continue
        seats = {"players": players, "partnerships": partnerships}
        params = {
            name: value
            for name, value in [*((n, getattr(rules, n)) for n in _RULE_OPTIONS), *seats.items()]
            if value != spec[name]
        }
        if chosen is None or len(params) < len(chosen[1]):
            chosen = (short_name, params)
    assert chosen is not None  # every capture mode has a registered game
    short_name, params = chosen
    params.update(extra)
    if not params:
        return short_name
    inner = ",".join(f"{key}={value}" for key, value in sorted(params.items()))
    return f"{short_name}({inner})"


class EscobaGame(pyspiel.Game):
    """One of the registered games, with its parameters."""

    short_name: str = "python_escoba"

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        params = dict(params or {})
        short_name = self.short_name
        self.setup = _setup_of(short_name, params)
        setup = self.setup
        bound = float(hand_points_bound(setup.rules))
        match = setup.returns == "match"
        hands = setup.max_hands if match else 1
        info = pyspiel.GameInfo(
            num_distinct_actions=setup.layout.size,
            max_chance_outcomes=40,
            num_players=setup.players,
            min_utility=-1.0 if match else -bound,
            max_utility=1.0 if match else bound,
            utility_sum=0.0,
            max_game_length=setup.rules.plays_per_hand * hands,
        )
        super().__init__(GAME_TYPES[short_name], info, params)
        self._chance_nodes = 1 + CHANCE_PICKS * hands

    def new_initial_state(self) -> EscobaState:
        return EscobaState(self)

    def max_chance_nodes_in_history(self) -> int:
        return self._chance_nodes

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> EscobaObserver:
        if params:
            raise ValueError(f"observation parameters are not supported, got {dict(params)!r}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        return EscobaObserver(self.setup, iig_obs_type)


class EscobaState(pyspiel.State):
    """A position: the first dealer's draw, a shuffle in progress, or a seat to play."""

    def __init__(self, game: EscobaGame) -> None:
        super().__init__(game)
        self.setup: Setup = game.setup
        self.match: Game | None = None
        self.first_dealer = _NO_DEALER
        self.picks: list[int] = []  # the current shuffle's chance picks so far
        self.dealing = True
        self.finished_hands = 0
        # What each hand showed: its first table and every round's hands (card indices).
        self.tables: list[tuple[int, ...]] = []
        self.rounds: list[list[tuple[tuple[int, ...], ...]]] = []
        self.legal: dict[int, int] | None = None

    # -- whose turn

    def current_player(self) -> int:
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        if self.dealing:
            return int(pyspiel.PlayerId.CHANCE)
        assert self.match is not None and self.match.to_move is not None
        return self.match.to_move

    def is_terminal(self) -> bool:
        if self.dealing or self.match is None:
            return False
        if self.setup.returns == "hand":
            return self.finished_hands >= 1
        return self.match.is_over() or self.finished_hands >= self.setup.max_hands

    # -- chance

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.dealing:
            raise ValueError("chance_outcomes: this is not a chance node")
        if self.first_dealer == _NO_DEALER:
            p = 1.0 / self.setup.players
            return [(seat, p) for seat in range(self.setup.players)]
        return chance_outcomes(self.setup.rules, self.picks)

    def _apply_chance(self, action: int) -> None:
        picks = self.picks
        if (
            self.first_dealer != _NO_DEALER
            and (len(picks) >= 4 or not self.setup.rules.kings_redeal)
            and action.__class__ is int
            and 0 <= action < 40
            and action not in picks
        ):  # the common case, without making the list of outcomes
            outcomes: Mapping[int, float] = {action: 1.0}
        else:
            outcomes = dict(self.chance_outcomes())
        if action not in outcomes:
            what = "seat" if self.first_dealer == _NO_DEALER else "card"
            raise ValueError(
                f"chance action {action} is not a possible outcome here (a {what}: "
                f"{', '.join(map(str, sorted(outcomes)))})"
            )
        if self.first_dealer == _NO_DEALER:
            self.first_dealer = action
            return
        self.picks.append(action)
        if len(self.picks) == CHANCE_PICKS:
            self._deal(deck_from_picks(self.setup.rules, self.setup.players, self.picks))
            self.picks = []

    def _deal(self, deck: list[int]) -> None:
        """Start the next hand from a complete deck: the first through the engine's
        ``decks``, each later one through :meth:`escoba.Game.deal` (the engine has begun the
        hand from its own seed: dealt again from this deck, before its first move)."""
        cards = [DECK[card] for card in deck]
        if self.match is None:
            setup = self.setup
            self.match = Game(
                setup.rules,
                setup.players,
                setup.partnerships,
                seed=0,
                first_dealer=self.first_dealer,
                decks=[cards],
            )
        else:
            self.match.deal(cards)
        self.dealing = False
        self.tables.append(tuple(card.index for card in self._first_table()))
        self.rounds.append([])
        self._note_round()

    def _first_table(self) -> tuple[Card, ...]:
        assert self.match is not None
        for event in self.match.history():
            if isinstance(event, InitialSweep):
                return tuple(sorted(event.cards))
        return self.match.table

    def _note_round(self) -> None:
        match = self.match
        assert match is not None
        self.rounds[-1].append(
            tuple(tuple(card.index for card in match.hand(seat)) for seat in range(match.players))
        )

    # -- moves

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self._legal_map())

    def _legal_map(self) -> dict[int, int]:
        if self.legal is None:
            assert self.match is not None
            self.legal = self.setup.layout.actions(self.match.legal_keys())
        return self.legal

    def _apply_action(self, action: int) -> None:
        if self.is_terminal():
            raise ValueError(f"action {action}: the game is over")
        if self.dealing:
            self._apply_chance(action)
            return
        legal = self._legal_map()
        key = legal.get(action)
        if key is None:
            raise ValueError(self._why_illegal(action))
        match = self.match
        assert match is not None
        hand_number, stock = match.hand_number, match.stock_size
        match.play_key(key)
        self.legal = None
        if match.hand_number != hand_number or match.is_over():
            self.finished_hands += 1
            if not self.is_terminal():
                self.dealing = True
        elif match.stock_size != stock:
            self._note_round()

    def observation(self, seat: int) -> Observation:
        """The engine's view for ``seat`` (:meth:`escoba.Game.observation`): what our own
        players choose from. Only once the hand is dealt and until it ends."""
        if self.dealing or self.is_terminal():
            raise ValueError("observation: no hand is being played here")
        assert self.match is not None
        return self.match.observation(seat)

    def move_of(self, action: int) -> Move:
        """The move a legal action plays here; any other action raises ValueError."""
        if self.dealing or self.is_terminal():
            raise ValueError(f"action {action}: no seat is to play here")
        key = self._legal_map().get(action)
        if key is None:
            raise ValueError(self._why_illegal(action))
        return Move.of_key(key)

    def action_of(self, move: Move | str) -> int:
        """The action of a legal move here (a Move or its text); any other raises ValueError."""
        if self.dealing or self.is_terminal():
            raise ValueError(f"{move}: no seat is to play here")
        if isinstance(move, str):
            move = Move.parse(move)
        assert self.match is not None
        return self.setup.layout.action_of(move, self.match.legal_keys())

    def _why_illegal(self, action: object) -> str:
        layout = self.setup.layout
        if not isinstance(action, int) or not 0 <= action < layout.size:
            return f"action {action!r} is outside the action space 0..{layout.size - 1}"
        legal = ", ".join(f"{a} ({self._move_text(a)})" for a in sorted(self._legal_map()))
        return f"action {action} ({layout.describe(action)}) is not legal here; legal: {legal}"

    def _move_text(self, action: int) -> str:
        key = self._legal_map().get(action)
        if key is None:
            return str(self.setup.layout.describe(action))
        return str(Move.of_key(key))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.first_dealer == _NO_DEALER and self.dealing and self.match is None:
                return f"Dealer: seat {action}"
            return f"Deal {DECK[action]}" if 0 <= action < 40 else f"Deal ?{action}"
        if not self.dealing and self.match is not None and player == self.match.to_move:
            return self._move_text(action)
        return str(self.setup.layout.describe(action))

    # -- the result

    def returns(self) -> list[float]:
        setup = self.setup
        if not self.is_terminal():
            return [0.0] * setup.players
        match = self.match
        assert match is not None
        sides = setup.sides
        if setup.returns == "hand":
            points = match.results[0].points
            total = sum(points)
            by_side = [p - (total - p) / (sides - 1) for p in points]
        else:
            winner = match.winner
            if winner is None:
                best = max(match.totals)
                leaders = [s for s, t in enumerate(match.totals) if t == best]
                winner = leaders[0] if len(leaders) == 1 else None
            if winner is None:
                by_side = [0.0] * sides
            else:
                by_side = [1.0 if s == winner else -1.0 / (sides - 1) for s in range(sides)]
        return [by_side[match.side_of(seat)] for seat in range(setup.players)]

    # -- other worlds

    def resample_from_infostate(self, player_id: int, probability_sampler: Sampler) -> Any:
        """A state that ``player_id`` cannot tell from this one: the cards it has not seen are
        dealt again at random (``probability_sampler``: uniform numbers in [0, 1)), everything
        it saw stays. Earlier hands of a match are seen whole by every seat and are kept."""
        if self.dealing or self.is_terminal():
            return self.clone()
        assert self.match is not None
        observation = self.match.observation(player_id)
        deck = sample_deck(observation, probability_sampler)
        game = self.get_game()
        state = game.new_initial_state()
        history = self.history()
        done = 1 + (CHANCE_PICKS + self.setup.rules.plays_per_hand) * self.finished_hands
        for action in history[:done]:
            state.apply_action(action)
        replay_hand(state, deck, [e for e in observation.history if isinstance(e, Play)])
        return state

    # -- text

    def __str__(self) -> str:
        if self.match is None:
            dealer = "?" if self.first_dealer == _NO_DEALER else str(self.first_dealer)
            return f"dealer {dealer}; shuffling ({len(self.picks)} of 40 placed)"
        match = self.match
        lines = [f"hands dealt {len(self.tables)}; totals {'-'.join(map(str, match.totals))}"]
        if self.dealing or self.is_terminal():
            result = match.results[self.finished_hands - 1]
            lines.append(f"hand {self.finished_hands} over, dealer {result.dealer}")
            for side, pile in enumerate(result.piles):
                lines.append(
                    f"side {side}: {result.points[side]} points, {len(pile)} cards, "
                    f"{result.sweeps[side]} sweeps: " + " ".join(map(str, sorted(pile)))
                )
            if self.dealing:
                lines.append(f"shuffling ({len(self.picks)} of 40 placed)")
            else:
                lines.append(f"returns: {' '.join(f'{r:+g}' for r in self.returns())}")
            return "\n".join(lines)
        lines.append(f"hand {self.finished_hands + 1}, dealer {match.dealer}")
        for seat in range(match.players):
            lines.append(f"seat {seat}: {' '.join(map(str, match.hand(seat))) or '-'}")
        lines.append(f"table: {' '.join(map(str, match.table)) or '-'}")
        lines.append(f"stock: {match.stock_size}")
        for side, pile in enumerate(match.captured):
            lines.append(
                f"side {side}: {len(pile)} cards, {match.sweeps[side]} sweeps: "
                + (" ".join(map(str, sorted(pile))) or "-")
            )
        return "\n".join(lines)


def replay_hand(state: Any, deck: Sequence[int], plays: Sequence[Play]) -> None:
    """Deal ``deck`` (card indices in dealing order) on a state at the start of a shuffle,
    then play ``plays``, each by its action number."""
    setup: Setup = state.setup
    for card in picks_of_deck(setup.rules, setup.players, deck):
        state.apply_action(card)
    layout = setup.layout
    for play in plays:
        match = state.match
        assert match is not None
        move = Move(play.card, play.captures)
        state.apply_action(layout.action_of(move, match.legal_keys()))


class EscobaGameScopa(EscobaGame):
    short_name = "python_scopa"


class EscobaGameEscova(EscobaGame):
    short_name = "python_escova"


class EscobaGameScopone(EscobaGame):
    short_name = "python_scopone"


_CLASSES: Final[Mapping[str, type[EscobaGame]]] = {
    "python_escoba": EscobaGame,
    "python_scopa": EscobaGameScopa,
    "python_escova": EscobaGameEscova,
    "python_scopone": EscobaGameScopone,
}


def register() -> None:
    """Register the four games with OpenSpiel (done once, on import of the package)."""
    registered = pyspiel.registered_names()
    for short_name, cls in _CLASSES.items():
        if short_name not in registered:
            pyspiel.register_game(GAME_TYPES[short_name], cls)
