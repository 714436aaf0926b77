"""The PettingZoo AEC environment: one match (or a few hands) of Escoba, Scopa or Escova.

See ``docs/environment.md`` for the encodings, the rewards and the options.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar, Final, Literal

import gymnasium
import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from ..errors import EscobaError, IllegalMoveError, RulesError
from ..game import Game
from ..moves import Move
from ..observation import Observation
from ..rules import RULESETS, RuleSet, preset_name
from .actions import ActionLayout, layout_for
from .observations import OBSERVATION_SIZE, observation_high
from .tracker import Tracker

__all__ = ["REWARDS", "EscobaEnv", "Reward", "env", "raw_env"]

Reward = Literal["points", "difference", "match"]
REWARDS: Final[tuple[Reward, ...]] = ("points", "difference", "match")
RENDER_MODES: Final = ("human", "ansi")
ObsDict = dict[str, NDArray[Any]]


class EscobaEnv(AECEnv):  # type: ignore[misc]
    """A match of Escoba, Scopa or Escova as a PettingZoo AEC environment.

    Agents ``player_0`` .. ``player_{n-1}`` are the seats. Each agent observes a dict:
    ``observation`` (int8, what its seat may know) and ``action_mask`` (int8, 1 for the
    legal actions when it is to move, else all 0). Rewards come at the end of each hand
    (``reward="points"``: the side's points of the hand; ``"difference"``: those less the
    mean of the other sides'; ``"match"``: +1 or -1 at the end of the episode). An episode is
    one match, or ``hands`` hands if given.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "escoba_v1",  # v1: the observation of 490 entries (Scopone, regional options)
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: str | RuleSet = "escoba",
        players: int = 2,
        partnerships: bool = False,
        render_mode: str | None = None,
        *,
        reward: Reward = "points",
        hands: int | None = None,
    ) -> None:
        super().__init__()
        if isinstance(rules, str):
            if rules not in RULESETS:
                raise RulesError(
                    f"rules: unknown preset {rules!r}; the presets are {', '.join(RULESETS)}"
                )
            rules = RULESETS[rules]
        if not isinstance(rules, RuleSet):
            raise RulesError(f"rules must be a preset name or a RuleSet, got {rules!r}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode: {render_mode!r} is not one of None, 'human', 'ansi'")
        if reward not in REWARDS:
            raise ValueError(f"reward: {reward!r} is not one of {', '.join(map(repr, REWARDS))}")
        if hands is not None and (
            not isinstance(hands, int) or isinstance(hands, bool) or hands < 1
        ):
            raise ValueError(f"hands: a whole number >= 1 or None, got {hands!r}")
        # Game checks players and partnerships; fail now rather than at reset.
        Game(rules, players, partnerships, seed=0)
        self.rules = rules
        self.players = players
        self.partnerships = partnerships
        self.render_mode = render_mode
        self.reward_mode: Reward = reward
        self.hands = hands
        self.layout: ActionLayout = layout_for(rules)
        self._size = self.layout.size
        self._observed: str | None = None  # the agent whose observation is _observation
        # All 0 between steps: the mask of the agent to move is set, copied out and cleared.
        self._mask = bytearray(self._size)
        self._mask_view = np.frombuffer(self._mask, dtype=np.int8)
        self._observation: ObsDict = {}
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self._seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        high = observation_high()
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0, high, (OBSERVATION_SIZE,), np.int8),
                    "action_mask": spaces.Box(0, 1, (self.layout.size,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {
            agent: spaces.Discrete(self.layout.size) for agent in self.possible_agents
        }
        # Every seat's observation array, kept up to date move by move.
        self._tracker = Tracker(rules, players, partnerships)
        self._views = self._tracker.views
        self._rng: random.Random | None = None
        self._game: Game | None = None
        self._legal: dict[int, int] | None = None
        self._hands_done = 0
        self._rewarded = False
        self._over = False

    # -- spaces

    def observation_space(self, agent: str) -> gymnasium.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.Space[Any]:
        return self.action_spaces[agent]

    # -- the match

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new episode.

        ``seed`` is the engine's match seed: ``reset(seed=42)`` deals as ``Game(rules,
        players, partnerships, seed=42)`` does; a later ``reset()`` without a seed takes its
        seed from a generator seeded by the last seed given (by the system's entropy if none
        ever was). ``options={"record": record}`` starts from a match record instead
        (``Game.record()``, for the same rules and seats, not finished): the episode goes on
        from the record's last position.
        """
        record = (options or {}).get("record")
        if record is not None:
            game = Game.from_record(record)
            if (game.rules, game.players, game.partnerships) != (
                self.rules,
                self.players,
                self.partnerships,
            ):
                raise RulesError(
                    "the record is of other rules or seats than this environment's: "
                    f"{game.players} players, partnerships {game.partnerships}"
                )
            if game.is_over():
                raise IllegalMoveError("the record's match is over: nothing left to play")
        else:
            if seed is not None:
                self._rng = random.Random(seed)
                match_seed: int = seed
            else:
                if self._rng is None:
                    self._rng = random.Random()
                match_seed = self._rng.getrandbits(63)
            game = Game(self.rules, self.players, self.partnerships, seed=match_seed)
        self._game = game
        self._legal = None
        self._observed = None
        self._tracker.rebuild(game.snapshot())
        self._hands_done = 0
        self._rewarded = False
        self._over = False
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._skip_agent_selection = None
        self._side_of = tuple(game.side_of(seat) for seat in range(game.players))
        self.agent_selection = self.possible_agents[_seat_to_move(game)]

    @property
    def game(self) -> Game:
        """The engine's whole match, hidden cards included: for tests and debugging. An
        agent must use :meth:`seat_observation` instead."""
        if self._game is None:
            raise _not_reset()
        return self._game

    @property
    def hands_played(self) -> int:
        """Hands finished in this episode (rewards come when one finishes)."""
        return self._hands_done

    def seat_observation(self, agent: str) -> Observation:
        """The engine's :class:`~escoba.Observation` for an agent's seat: what it may know."""
        game = self._game
        if game is None:
            raise _not_reset()
        return game.observation(self._seat_of[agent])

    def _legal_actions(self) -> dict[int, int]:
        legal = self._legal
        if legal is None:
            legal = self._legal = self.layout.actions(self.game.legal_keys())
        return legal

    def legal_actions(self) -> list[int]:
        """The legal actions of the agent to move, ascending."""
        legal = self._legal  # usually numbered already, for the observation's mask
        return sorted(self._legal_actions() if legal is None else legal)

    def action_of(self, move: Move | str) -> int:
        """The action of a legal move of the agent to move (a Move or its text)."""
        if not isinstance(move, Move):
            move = Move.parse(move)
        for action, key in self._legal_actions().items():
            if key == move.key:
                return action
        raise IllegalMoveError(f"{move}: not a legal move of {self.agent_selection} now")

    def move_of(self, action: int | np.integer[Any]) -> Move:
        """The move a legal action of the agent to move stands for."""
        number = _action_number(action)
        key = None if number is None else self._legal_actions().get(number)
        if key is None:
            raise IllegalMoveError(self._why_illegal(action))
        return Move.of_key(key)

    def _why_illegal(self, action: object) -> str:
        number = _action_number(action)
        if number is None or not 0 <= number < self._size:
            return f"action {action!r}: not an action (an int 0..{self._size - 1})"
        meaning = self.layout.describe(number)
        legal = ", ".join(f"{a} ({Move.of_key(k)})" for a, k in self._legal_actions().items())
        return f"action {action} ({meaning}): not legal for {self.agent_selection}; legal: {legal}"

    def observe(self, agent: str) -> ObsDict:
        if agent == self._observed:  # asked again before anything changed
            return self._observation
        game = self._game
        if game is None:
            raise _not_reset()
        seat = self._seat_of[agent]
        if seat == game.to_move:
            legal = self._legal
            if legal is None:
                legal = self._legal = self.layout.actions(game.legal_keys())
            mask = self._mask
            for action in legal:
                mask[action] = 1
            action_mask = self._mask_view.copy()
            for action in legal:
                mask[action] = 0
        else:
            action_mask = self._mask_view.copy()  # all 0 between steps
        self._observed = agent
        observation = self._observation = {
            "observation": self._views[seat].copy(),
            "action_mask": action_mask,
        }
        return observation

    def step(self, action: int | np.integer[Any] | None) -> None:
        if self._over:
            self._was_dead_step(action)
            return
        game = self._game
        if game is None:
            raise _not_reset()
        legal = self._legal
        if legal is None:
            legal = self._legal = self.layout.actions(game.legal_keys())
        if action.__class__ is int:
            key = legal.get(action)
        else:
            number = _action_number(action)
            key = None if number is None else legal.get(number)
        if key is None:
            raise IllegalMoveError(self._why_illegal(action))
        if self._rewarded:
            rewards = self.rewards
            for name in rewards:
                rewards[name] = 0.0
            self._rewarded = False
        self._cumulative_rewards[self.agent_selection] = 0.0
        play = game.play_key(key)
        self._legal = None
        self._observed = None
        if play.result is None:
            self._tracker.moved(key, play, game)
            self.agent_selection = self.possible_agents[_seat_to_move(game)]
        else:
            self._end_of_hand(play.result.points)
        if self.render_mode == "human":
            self.render()

    def _end_of_hand(self, points: tuple[int, ...]) -> None:
        game = self.game
        match_over = game.is_over()
        self._hands_done += 1
        done = match_over or (self.hands is not None and self._hands_done >= self.hands)
        # The match over, the last hand stays in view, its played cards too.
        self._tracker.rebuild(game.snapshot())
        side_of = self._side_of
        sides = len(points)
        if self.reward_mode == "points":
            by_side = [float(p) for p in points]
        elif self.reward_mode == "difference":
            total = sum(points)
            by_side = [p - (total - p) / (sides - 1) for p in points]
        elif done:
            by_side = self._match_result()
        else:
            by_side = [0.0] * sides
        rewards = self.rewards
        cumulative = self._cumulative_rewards
        for seat, agent in enumerate(self.possible_agents):
            value = by_side[side_of[seat]]
            rewards[agent] = value
            cumulative[agent] += value
        self._rewarded = True
        if done:
            self._over = True
            for agent in self.agents:
                self.terminations[agent] = True
        else:
            self.agent_selection = self.possible_agents[_seat_to_move(game)]

    def _match_result(self) -> list[float]:
        """+1 for the winner (or the sole leader after ``hands`` hands), -1 for the rest; 0
        for every side if the lead is shared."""
        game = self.game
        totals = game.totals
        winner = game.winner
        if winner is None:
            best = max(totals)
            leaders = [side for side, total in enumerate(totals) if total == best]
            if len(leaders) > 1:
                return [0.0] * len(totals)
            winner = leaders[0]
        return [1.0 if side == winner else -1.0 for side in range(len(totals))]

    # -- text

    def render(self) -> str | None:
        """The position as text: match and hand, the table, each seat's card count, each
        side's captures and sweeps, and the hand and legal actions of the seat to move only.
        ``render_mode="ansi"`` returns the text, ``"human"`` prints it."""
        if self.render_mode is None:
            gymnasium.logger.warn(
                "render() was called without a render_mode: pass render_mode='ansi' or "
                "'human' to escoba.env.env()"
            )
            return None
        text = self._text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _text(self) -> str:
        game = self.game
        lines = [
            f"{self.metadata['name']}: {preset_name(self.rules) or 'custom rules'}, "
            f"{self.players} players" + (" in partnerships" if self.partnerships else ""),
            f"hand {game.hand_number + 1}, dealer player_{game.dealer}, "
            f"totals {' '.join(map(str, game.totals))} (to {self.rules.target_score})",
            f"table: {' '.join(map(str, game.table)) or '(empty)'}    stock: {game.stock_size}",
        ]
        sizes = game.hand_sizes
        lines.append("cards in hand: " + ", ".join(f"player_{s} {n}" for s, n in enumerate(sizes)))
        for side, seats in enumerate(game.sides):
            names = "+".join(f"player_{s}" for s in seats)
            pile = sorted(game.captured[side], key=lambda c: c.index)
            lines.append(
                f"side {side} ({names}): {len(pile)} cards, {game.sweeps[side]} sweeps: "
                + (" ".join(map(str, pile)) or "-")
            )
        if game.is_over():
            lines.append(f"match over: side {game.winner} wins")
        else:
            seat = _seat_to_move(game)
            lines.append(f"to move: player_{seat}, holding {' '.join(map(str, game.hand(seat)))}")
            lines.append(
                "legal actions: "
                + ", ".join(f"{a} {Move.of_key(k)}" for a, k in self._legal_actions().items())
            )
        return "\n".join(lines)

    def close(self) -> None:
        """Nothing to release: the environment holds no window, file or process."""


def _seat_to_move(game: Game) -> int:
    """The seat to move in a match not over (the environment asks only then)."""
    seat = game.to_move
    assert seat is not None, "the match is over"
    return seat


def _action_number(action: object) -> int | None:
    """An action as a plain int, if it is an integer (Python's or numpy's, not a bool)."""
    if isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_)):
        return int(action)
    return None


def _not_reset() -> EscobaError:
    return EscobaError("the environment has not been reset: call reset() first")


def env(
    rules: str | RuleSet = "escoba",
    players: int = 2,
    partnerships: bool = False,
    render_mode: str | None = None,
    *,
    reward: Reward = "points",
    hands: int | None = None,
) -> EscobaEnv:
    """The environment (see :class:`EscobaEnv`).

    Unlike most PettingZoo environments it comes without wrappers: it refuses ``step`` and
    ``observe`` before ``reset`` and illegal actions (``IllegalMoveError``) by itself, and
    PettingZoo's ``OrderEnforcingWrapper`` would make every step up to twice as slow. Wrap it
    yourself if you want its checks.
    """
    return EscobaEnv(rules, players, partnerships, render_mode, reward=reward, hands=hands)


# PettingZoo modules offer both: ``raw_env`` unwrapped, ``env`` wrapped. Ours needs no
# wrappers, so the two are the same.
raw_env = env
