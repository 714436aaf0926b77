"""A local match: the Game, which seats are people and which are computer players, and
the saved form of both. A UI drives it; it prints nothing and reads nothing.

Computer players are made afresh for every move, seeded from the match's seed and the
number of moves played, so a resumed match continues exactly as it would have.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, cast

from ..ai import FORMER_LEVELS, LEVELS, make_player
from ..cards import DECK_STYLES, DeckStyle
from ..errors import EscobaError, RecordError
from ..game import Game
from ..messages import LANGUAGES
from ..moves import Move
from ..observation import Observation, Play, TakeBack
from ..rules import RuleSet

__all__ = [
    "SAVE_FORMAT",
    "SAVE_VERSION",
    "ComputerTurn",
    "LocalMatch",
    "LocalMatchError",
    "Played",
]

SAVE_FORMAT: Final = "escoba-session"
SAVE_VERSION: Final = 1


class LocalMatchError(EscobaError):
    """Bad settings of a local match, or a saved match that cannot be read."""


@dataclass(frozen=True, slots=True)
class Played:
    """A move that was played: the engine's event, with who played it and in which hand."""

    event: Play
    """The engine's event of the move, with what followed it (deal, result, winner)."""
    level: str | None
    """The computer level of the seat, None for a person."""
    hand_number: int
    """The hand it was played in (hands finished before it)."""

    @property
    def seat(self) -> int:
        return self.event.seat

    @property
    def move(self) -> Move:
        return self.event.move

    @property
    def sweep(self) -> bool:
        return self.event.sweep

    @property
    def hand_ended(self) -> bool:
        """This move ended the hand (its result is ``game.results[hand_number]``)."""
        return self.event.result is not None


@dataclass(frozen=True, slots=True)
class ComputerTurn:
    """Everything a computer seat's choice depends on: a small value that can be sent to
    another process (a server thinks there) and gives the same move wherever it is chosen."""

    seat: int
    level: str
    seed: int
    observation: Observation
    legal: tuple[Move, ...]

    def choose(self) -> Move:
        return make_player(self.level, self.seed).choose(self.observation, list(self.legal))


class LocalMatch:
    """One match: a Game and, per seat, a computer level or None for a person."""

    def __init__(
        self,
        game: Game,
        levels: Sequence[str | None],
        *,
        person: int = 0,
        deck: DeckStyle = "french",
        language: str = "en",
        seed: int = 0,
    ) -> None:
        if len(levels) != game.players:
            raise LocalMatchError(f"give one level per seat: {game.players} seats, {len(levels)}")
        for level in levels:
            if level is not None and FORMER_LEVELS.get(level, level) not in LEVELS:
                raise LocalMatchError(
                    f"unknown player level {level!r}; the levels are {', '.join(LEVELS)}"
                )
        if not 0 <= person < game.players or levels[person] is not None:
            raise LocalMatchError(f"seat {person} must be a seat played by a person")
        if deck not in DECK_STYLES:
            raise LocalMatchError(f"unknown deck {deck!r}; choose one of {', '.join(DECK_STYLES)}")
        if language not in LANGUAGES:
            raise LocalMatchError(
                f"unknown language {language!r}; choose one of {', '.join(LANGUAGES)}"
            )
        self.game = game
        # A former level's name (a saved match from before the merge) plays as its level.
        self.levels: tuple[str | None, ...] = tuple(
            None if level is None else FORMER_LEVELS.get(level, level) for level in levels
        )
        self.person = person
        self.deck: DeckStyle = deck
        self.language = language
        self.seed = seed

    @classmethod
    def new(
        cls,
        rules: RuleSet,
        *,
        players: int = 2,
        partnerships: bool = False,
        seed: int = 0,
        opponents: Sequence[str] = ("medium",),
        person: int = 0,
        deck: DeckStyle = "french",
        language: str = "en",
    ) -> LocalMatch:
        """A new match: the person at ``person``, the other seats computer players.

        ``opponents`` gives one level for every other seat, or one level for all of them.
        """
        others = players - 1
        if len(opponents) == 1:
            chosen = list(opponents) * others
        elif len(opponents) == others:
            chosen = list(opponents)
        else:
            raise LocalMatchError(
                f"give one opponent level, or one per computer seat ({others}), "
                f"got {len(opponents)}: {' '.join(opponents)}"
            )
        levels: list[str | None] = list(chosen)
        levels.insert(person, None)
        game = Game(rules, players, partnerships, seed=seed)
        return cls(game, levels, person=person, deck=deck, language=language, seed=seed)

    # -- whose turn

    @property
    def to_move(self) -> int | None:
        return self.game.to_move

    def is_over(self) -> bool:
        return self.game.is_over()

    def is_person(self, seat: int) -> bool:
        return self.levels[seat] is None

    def person_to_move(self) -> bool:
        seat = self.game.to_move
        return seat is not None and self.is_person(seat)

    def observation(self, seat: int | None = None) -> Observation:
        """What the person (or another person's ``seat``) may see."""
        seat = self.person if seat is None else seat
        if not self.is_person(seat):
            raise LocalMatchError(f"seat {seat} is a computer player: its view is not shown")
        return self.game.observation(seat)

    def legal_moves(self) -> list[Move]:
        """The moves of the person to move (empty when a computer seat or nobody is to move)."""
        return self.game.legal_moves() if self.person_to_move() else []

    # -- moves

    def play(self, move: Move | str) -> Played:
        """Play the person's move; an illegal one raises IllegalMoveError and changes nothing."""
        if not self.person_to_move():
            raise LocalMatchError("it is not a person's turn")
        return self._play(move)

    def advance(self, move: Move | None = None) -> Played | None:
        """Play one move of the computer seat to move; None if a person or nobody is to move.

        ``move``, if given, is the one :meth:`computer_choice` chose (a server thinks in a
        worker thread, then plays it here); it must be legal.
        """
        seat = self.game.to_move
        if seat is None or self.is_person(seat):
            return None
        return self._play(self.computer_choice() if move is None else move)

    def takes_back(self, seat: int | None = None) -> bool:
        """Whether ``seat`` (the person's by default) may take back moves: only in a match
        where every other seat is a computer player's."""
        seat = self.person if seat is None else seat
        return all(level is not None for other, level in enumerate(self.levels) if other != seat)

    def take_back(self) -> tuple[TakeBack, ...]:
        """Take back the person's last move of the current hand and every computer move
        after it, so that it is the person's turn again; the take backs' events, in order.
        Only where the person :meth:`takes_back`; with no move of the person in the current
        hand or once the match is over, raises LocalMatchError and changes nothing."""
        if not self.takes_back():
            raise LocalMatchError(
                "moves are taken back only in a match where every other seat is a computer"
            )
        game = self.game
        if game.is_over():
            raise LocalMatchError("the match is over: no move can be taken back")
        if not any(
            isinstance(event, Play) and event.seat == self.person for event in game.history()
        ):
            raise LocalMatchError("you have no move to take back in this hand")
        taken: list[TakeBack] = []
        while not taken or taken[-1].seat != self.person:
            taken.append(game.take_back())
        return tuple(taken)

    def computer_choice(self) -> Move:
        """The move the computer seat to move chooses; changes nothing."""
        return self.computer_turn().choose()

    def computer_turn(self) -> ComputerTurn:
        """What the computer seat to move chooses from; changes nothing."""
        seat = self.game.to_move
        if seat is None or self.is_person(seat):
            raise LocalMatchError("no computer seat is to move")
        level = self.levels[seat]
        assert level is not None
        return ComputerTurn(
            seat,
            level,
            self._player_seed(seat),
            self.game.observation(seat),
            tuple(self.game.legal_moves()),
        )

    def _player_seed(self, seat: int) -> int:
        game = self.game
        played = game.hand_number * game.rules.plays_per_hand + sum(
            isinstance(event, Play) for event in game.history()
        )
        return (self.seed * 1_000_003 + played * 7 + seat) & 0x7FFFFFFF

    def _play(self, move: Move | str) -> Played:
        game = self.game
        seat = game.to_move
        assert seat is not None
        number = game.hand_number
        event = game.play(move)
        return Played(event=event, level=self.levels[seat], hand_number=number)

    # -- saving

    def to_json(self) -> dict[str, Any]:
        """The match as JSON-able data: the match record and the settings."""
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "levels": list(self.levels),
            "person": self.person,
            "deck": self.deck,
            "language": self.language,
            "seed": self.seed,
            "record": self.game.record(),
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1) + "\n"

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> LocalMatch:
        """Rebuild a saved match; bad data raises LocalMatchError."""
        if not isinstance(data, Mapping):
            raise LocalMatchError("a saved match must be a JSON object")
        if data.get("format") != SAVE_FORMAT or data.get("version") != SAVE_VERSION:
            raise LocalMatchError(
                f"not an {SAVE_FORMAT} version {SAVE_VERSION}: "
                f"format={data.get('format')!r}, version={data.get('version')!r}"
            )
        levels = data.get("levels")
        person = data.get("person")
        deck = data.get("deck")
        language = data.get("language")
        seed = data.get("seed")
        if not isinstance(levels, list) or not all(
            level is None or isinstance(level, str) for level in levels
        ):
            raise LocalMatchError("levels: must list a level or null per seat")
        for name, value, kind in (
            ("person", person, int),
            ("deck", deck, str),
            ("language", language, str),
            ("seed", seed, int),
        ):
            if not isinstance(value, kind) or isinstance(value, bool):
                raise LocalMatchError(f"{name}: bad value {value!r}")
        try:
            game = Game.from_record(data.get("record", {}))
        except RecordError as error:
            raise LocalMatchError(f"record: {error}") from None
        return cls(
            game,
            levels,
            person=cast(int, person),
            deck=cast(DeckStyle, deck),
            language=cast(str, language),
            seed=cast(int, seed),
        )

    @classmethod
    def loads(cls, text: str) -> LocalMatch:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise LocalMatchError(f"not JSON: {error}") from None
        return cls.from_json(data)
