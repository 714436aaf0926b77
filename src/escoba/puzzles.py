"""Puzzles: positions cut from matches where one move is clearly the best, to find it.

Each puzzle is a match record cut at a position (:meth:`Puzzle.game` replays it), the one
best move in the engine's notation, by how many points it beats the second best, and what it
teaches (its *theme*): take the sweep, deny the sweep, the seven of coins, primiera (or
setenta), the last capture, or counting the cards to the end of the hand. A person sees only
the observation of the seat to move (:meth:`Puzzle.observation`), never the record, which
holds the deck's order.

The shipped set (``escoba/data/puzzles.json``) is written by ``scripts/puzzles.py``, which
plays matches between the computer levels and keeps the positions whose best move is proven:
by exact search where every card is known, else by two large searches from different seeds.
A puzzle's ``rating`` is its difficulty on the ladder's Elo scale (``beginner`` at 1000, a new
player at 1500): the rating at which a player finds the answer half the time, fitted from how
often each computer level finds it.

A player's puzzle rating (:class:`PuzzleRating`) is an OpenSkill Plackett-Luce rating, shown on
the same scale as the server's ladder: each puzzle is a match against a settled opponent
rated at the puzzle's rating, won when solved.

>>> puzzle = puzzle_by_id(load_puzzles()[0].id)
>>> puzzle.theme in THEMES, puzzle.is_solved_by(puzzle.answer)
(True, True)
"""

from __future__ import annotations

import functools
import json
import math
import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.resources import files
from typing import Any, Final

from .ai.coach import advice_sentence, reasons_for
from .ai.exact import exact_values, is_exact
from .ai.ratings import ELO
from .cards import Card, DeckStyle, card_name
from .catalogue import message_key
from .errors import EscobaError, IllegalMoveError
from .game import Game
from .messages import text
from .moves import Move
from .observation import Observation
from .rules import RULESETS, RuleSet

__all__ = [
    "THEMES",
    "Puzzle",
    "PuzzleRating",
    "load_puzzles",
    "pick_puzzle",
    "possible_themes",
    "puzzle_by_id",
    "puzzle_from_dict",
    "theme_of",
]

THEMES: Final[tuple[str, ...]] = (
    "take_the_sweep",
    "deny_the_sweep",
    "seven_of_coins",
    "primiera",
    "last_capture",
    "counting",
)
"""What a puzzle teaches. ``primiera`` is the sevens category, whatever the rules call it:
primiera, setenta or most sevens (:meth:`Puzzle.title` says it by the rules' name)."""

SOURCES: Final = ("self-play", "match")
"""Where a puzzle's position came from: the generator's matches between computer levels, or
a match played on the server."""

_TITLES: Final[Mapping[str, str]] = {
    "take_the_sweep": message_key("puzzles.theme.take_the_sweep"),
    "deny_the_sweep": message_key("puzzles.theme.deny_the_sweep"),
    "seven_of_coins": message_key("puzzles.theme.seven_of_coins"),
    "primiera": message_key("puzzles.theme.primiera"),
    "setenta": message_key("puzzles.theme.setenta"),
    "sevens": message_key("puzzles.theme.sevens"),
    "last_capture": message_key("puzzles.theme.last_capture"),
    "counting": message_key("puzzles.theme.counting"),
}
"""Each theme's title (the sevens category's by the rules' name of it)."""

_WHY: Final[Mapping[str, str]] = {
    "take_the_sweep": message_key("puzzles.why.take_the_sweep"),
    "deny_the_sweep": message_key("puzzles.why.deny_the_sweep"),
    "seven_of_coins": message_key("puzzles.why.seven_of_coins"),
    "primiera": message_key("puzzles.why.primiera"),
    "setenta": message_key("puzzles.why.setenta"),
    "sevens": message_key("puzzles.why.sevens"),
    "last_capture": message_key("puzzles.why.last_capture"),
    "counting": message_key("puzzles.why.counting"),
}
"""Each theme's sentence: why moves of that kind are worth finding."""

_SEVEN_OF_COINS: Final = Card.parse("7d")


def _theme_key(theme: str, rules: RuleSet) -> str:
    """The key of a theme's texts: the sevens category goes by the rules' name of it."""
    if theme != "primiera":
        return theme
    return {"ranking": "setenta", "sevens": "sevens"}.get(rules.sevens, "primiera")


@dataclass(frozen=True, slots=True)
class Puzzle:
    """A position where one move is clearly best."""

    id: str
    """Stable short id ("e0042": the preset's initial and a number)."""
    preset: str
    """The rules: a key of :data:`escoba.RULESETS`."""
    theme: str
    """One of :data:`THEMES`."""
    rating: int
    """Difficulty on the ladder's Elo scale (``beginner`` 1000, a new player 1500)."""
    record: Mapping[str, Any] = field(hash=False)
    """A match record cut at the position (it holds the deck's order: never shown); left out
    of the hash (a mapping has none), so puzzles may be kept in sets."""
    answer: str
    """The one best move in the engine's notation ("7d:3s+4h"; "Qd" for a drop)."""
    gap: float
    """Points by which the answer beats the second-best move."""
    exact: bool
    """Proven by exhaustive search (every card known), else by two large searches."""
    source: str
    """"self-play" or "match" (:data:`SOURCES`)."""

    def game(self) -> Game:
        """The match at the position, the seat to move being the puzzle's."""
        return Game.from_record(self.record)

    def observation(self) -> Observation:
        """What the seat to move sees: the only view of the puzzle a player is given."""
        game = self.game()
        if game.to_move is None:
            raise EscobaError(f"puzzle {self.id}: its record ends with the match over")
        return game.observation(game.to_move)

    @property
    def seat(self) -> int:
        return self.observation().seat

    @property
    def rules(self) -> RuleSet:
        return RULESETS[self.preset]

    @property
    def move(self) -> Move:
        """The answer as a :class:`~escoba.moves.Move`."""
        return Move.parse(self.answer)

    def is_solved_by(self, move: Move | str) -> bool:
        """Whether ``move`` is the answer; :class:`~escoba.errors.IllegalMoveError` naming it if
        it is not a legal move of the position (a malformed text: the parse's error)."""
        played = Move.parse(move) if isinstance(move, str) else move
        if played not in self.observation().legal_moves:
            raise IllegalMoveError(f"{played} is not a legal move of puzzle {self.id}")
        return played == self.move

    def title(self, language: str = "en") -> str:
        """The theme's title in ``language`` ("Take the sweep"; "Setenta" in Escoba)."""
        return text(_TITLES[_theme_key(self.theme, self.rules)], language)

    def explanation(self, language: str = "en", deck: DeckStyle = "french") -> str:
        """Why the answer is best, in the reader's language and deck: the theme's sentence,
        what the answer does (the coach's reasons) and by how much it beats the next best."""
        observation = self.observation()
        seven = card_name(_SEVEN_OF_COINS, deck, language)
        sentences = [text(_WHY[_theme_key(self.theme, self.rules)], language, card=seven)]
        good, _ = reasons_for(observation, self.move)
        sentences.extend(advice_sentence(reason, deck, language) for reason in good)
        sentences.append(text("puzzles.gap", language, points=float(self.gap)))
        return " ".join(sentences)

    def to_dict(self) -> dict[str, Any]:
        """The puzzle as JSON-able data (:func:`puzzle_from_dict` reads it back)."""
        return {
            "id": self.id,
            "preset": self.preset,
            "theme": self.theme,
            "rating": self.rating,
            "answer": self.answer,
            "gap": self.gap,
            "exact": self.exact,
            "source": self.source,
            "record": dict(self.record),
        }


def puzzle_from_dict(data: Mapping[str, Any]) -> Puzzle:
    """A puzzle from its data; :class:`~escoba.errors.EscobaError` naming what is wrong."""
    try:
        puzzle = Puzzle(
            id=str(data["id"]),
            preset=str(data["preset"]),
            theme=str(data["theme"]),
            rating=int(data["rating"]),
            record=data["record"],
            answer=str(data["answer"]),
            gap=float(data["gap"]),
            exact=bool(data["exact"]),
            source=str(data["source"]),
        )
    except (KeyError, TypeError, ValueError) as error:
        raise EscobaError(f"a puzzle's data lacks or mangles {error}") from None
    if puzzle.preset not in RULESETS:
        raise EscobaError(f"puzzle {puzzle.id}: unknown preset {puzzle.preset!r}")
    if puzzle.theme not in THEMES:
        raise EscobaError(f"puzzle {puzzle.id}: unknown theme {puzzle.theme!r}")
    if puzzle.source not in SOURCES:
        raise EscobaError(f"puzzle {puzzle.id}: unknown source {puzzle.source!r}")
    if not isinstance(puzzle.record, Mapping):
        raise EscobaError(f"puzzle {puzzle.id}: its record is not a mapping")
    return puzzle


@functools.cache
def load_puzzles() -> tuple[Puzzle, ...]:
    """The shipped puzzles, by id."""
    data = json.loads(files("escoba").joinpath("data/puzzles.json").read_text("utf-8"))
    return tuple(puzzle_from_dict(item) for item in data["puzzles"])


@functools.cache
def _by_id() -> dict[str, Puzzle]:
    return {puzzle.id: puzzle for puzzle in load_puzzles()}


def puzzle_by_id(puzzle_id: str) -> Puzzle:
    """The shipped puzzle of that id; :class:`~escoba.errors.EscobaError` naming it if none."""
    found = _by_id().get(puzzle_id)
    if found is None:
        raise EscobaError(f"no puzzle has the id {puzzle_id!r}")
    return found


NEAREST: Final = 5
""":func:`pick_puzzle` chooses among this many puzzles nearest the rating."""


def pick_puzzle(
    rating: float,
    *,
    seed: int | str,
    theme: str | None = None,
    preset: str | None = None,
    exclude: Collection[str] = (),
    puzzles: Sequence[Puzzle] | None = None,
) -> Puzzle:
    """A puzzle near ``rating``: one of the :data:`NEAREST` closest in rating (of ``theme``
    and ``preset`` if given), chosen by ``seed``; never one whose id is in ``exclude`` unless
    every one is. :class:`~escoba.errors.EscobaError` names a bad theme or preset."""
    if not math.isfinite(rating):
        raise EscobaError(f"a puzzle rating must be a number, got {rating!r}")
    if theme is not None and theme not in THEMES:
        raise EscobaError(f"unknown puzzle theme {theme!r}; the themes are {', '.join(THEMES)}")
    if preset is not None and preset not in RULESETS:
        raise EscobaError(f"unknown preset {preset!r}; the presets are {', '.join(RULESETS)}")
    chosen = [
        puzzle
        for puzzle in (load_puzzles() if puzzles is None else puzzles)
        if (theme is None or puzzle.theme == theme) and (preset is None or puzzle.preset == preset)
    ]
    if not chosen:
        raise EscobaError(
            f"no puzzle of theme {theme or 'any'} in preset {preset or 'any'}; try another"
        )
    fresh = [puzzle for puzzle in chosen if puzzle.id not in exclude] or chosen
    fresh.sort(key=lambda puzzle: (abs(puzzle.rating - rating), puzzle.id))
    nearest = fresh[:NEAREST]
    return nearest[random.Random(f"{seed}").randrange(len(nearest))]


# -- themes ----------------------------------------------------------------------------------


def theme_of(game: Game, ranked: Sequence[tuple[Move, float]], *, exact: bool) -> str | None:
    """What the best move of ``game``'s position teaches, from what it does and what the
    other moves do (``ranked``: every legal move with its value, best first); None when it
    fits no theme. In order: it sweeps (take the sweep); it takes the 7 of coins or keeps it
    from the next player while the next best move gives it away (seven of coins); it leaves no
    sweep while the next best and most other moves do (deny the sweep); in the hand's last
    round, with both playing their best from there, it makes its side the last to capture
    while the next best does not (last capture); it takes more of the sevens (and sixes where
    they count) than the next best (primiera); an exact position that fits none: counting.
    """
    if game.to_move is None or len(ranked) < 2:
        return None
    observation = game.observation(game.to_move)
    (answer, _), (second, _) = ranked[0], ranked[1]
    good, bad = _reasons(observation, answer)
    if "coach.sweeps" in good:
        return "take_the_sweep"
    _, second_bad = _reasons(observation, second)
    if "coach.takes_seven_of_coins" in good or (
        "coach.gives_seven_of_coins" in second_bad and "coach.gives_seven_of_coins" not in bad
    ):
        return "seven_of_coins"
    if not bad & _LEAVES_SWEEP and second_bad & _LEAVES_SWEEP:
        others = [move for move, _ in ranked[1:]]
        leaving = sum(bool(_reasons(observation, move)[1] & _LEAVES_SWEEP) for move in others)
        if 2 * leaving >= len(others):
            return "deny_the_sweep"
    if exact and _last_capturer(game, answer) and not _last_capturer(game, second):
        return "last_capture"
    rules = observation.rules
    if rules.sevens != "none" and _sevens(answer, rules) > _sevens(second, rules):
        return "primiera"
    return "counting" if exact else None


def possible_themes(observation: Observation) -> frozenset[str]:
    """The themes :func:`theme_of` could give this position, whichever move is best: what
    its moves do, without valuing them (a generator asks before a search, which is dear)."""
    reasons = [_reasons(observation, move) for move in observation.legal_moves]
    if len(reasons) < 2:
        return frozenset()
    rules = observation.rules
    possible = set()
    if any("coach.sweeps" in good for good, _ in reasons):
        possible.add("take_the_sweep")
    gives = ["coach.gives_seven_of_coins" in bad for _, bad in reasons]
    if any("coach.takes_seven_of_coins" in good for good, _ in reasons) or (
        any(gives) and not all(gives)
    ):
        possible.add("seven_of_coins")
    leaves = [bool(bad & _LEAVES_SWEEP) for _, bad in reasons]
    if any(leaves) and not all(leaves):
        possible.add("deny_the_sweep")
    if rules.sevens != "none" and any(
        _sevens(move, rules) > (0, 0) for move in observation.legal_moves
    ):
        possible.add("primiera")
    if is_exact(observation):
        possible.update(("last_capture", "counting"))
    return frozenset(possible)


_LEAVES_SWEEP: Final = frozenset({"coach.leaves_sweep", "coach.leaves_match_sweep"})


def _reasons(observation: Observation, move: Move) -> tuple[frozenset[str], frozenset[str]]:
    good, bad = reasons_for(observation, move)
    return frozenset(m.key for m in good), frozenset(m.key for m in bad)


def _sevens(move: Move, rules: RuleSet) -> tuple[int, int]:
    """The sevens a move takes, then the sixes where they count (primiera and setenta)."""
    won = [*move.captures, move.card] if move.is_capture else []
    sixes = sum(card.value == 6 for card in won) if rules.sevens != "sevens" else 0
    return sum(card.value == 7 for card in won), sixes


def _last_capturer(game: Game, move: Move) -> bool:
    """Whether, after ``move`` and both seats' best play to the hand's end, the mover's side
    captured last and took cards left on the table (exact positions only)."""
    played = game.copy()
    mover = played.to_move
    hands = len(played.results)
    if mover is None:
        return False
    side = next(i for i, seats in enumerate(played.sides) if mover in seats)
    played.play(move)
    while len(played.results) == hands and played.to_move is not None:
        played.play(exact_values(played.observation(played.to_move))[0][0])
    result = played.results[hands]
    capturer = result.last_capturer
    return capturer is not None and bool(result.leftovers) and capturer in played.sides[side]


# -- the player's rating ---------------------------------------------------------------------

MU: Final = 25.0
SIGMA: Final = MU / 3
BETA: Final = MU / 6
"""OpenSkill's defaults, as the server's ladder (:mod:`escoba.server.ratings`) uses them."""
START: Final = 1500.0
"""A new player's rating as shown (``mu`` = 25), as on the ladder."""
POINTS_PER_MU: Final = ELO / (math.sqrt(2) * BETA)
"""Elo points for one unit of ``mu``: the model's logistic read as Elo's."""
PUZZLE_SIGMA: Final = 2.0
"""A puzzle's own ``sigma``: a settled opponent, its rating well known."""


def _elo(mu: float) -> float:
    return START + (mu - MU) * POINTS_PER_MU


def _mu(elo: float) -> float:
    return MU + (elo - START) / POINTS_PER_MU


@dataclass(frozen=True, slots=True)
class PuzzleRating:
    """A player's puzzle rating: OpenSkill's ``mu`` and ``sigma``."""

    mu: float = MU
    sigma: float = SIGMA

    def shown(self) -> int:
        """The rating on the ladder's Elo scale (1500 for a new player)."""
        return round(_elo(self.mu))

    def after(self, puzzle: Puzzle, solved: bool) -> PuzzleRating:
        """The rating after trying ``puzzle``: a match against a settled opponent rated at the
        puzzle's rating, won if ``solved``."""
        from openskill.models import PlackettLuce

        model = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA)
        player = model.rating(mu=self.mu, sigma=self.sigma)
        opponent = model.rating(mu=_mu(puzzle.rating), sigma=PUZZLE_SIGMA)
        ranks = [0.0, 1.0] if solved else [1.0, 0.0]
        [[rated], _] = model.rate([[player], [opponent]], ranks=ranks)
        return PuzzleRating(rated.mu, rated.sigma)

    def to_dict(self) -> dict[str, float]:
        return {"mu": self.mu, "sigma": self.sigma}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PuzzleRating:
        """A rating from :meth:`to_dict`'s data; :class:`~escoba.errors.EscobaError` naming
        what is wrong."""
        if not isinstance(data, Mapping):
            raise EscobaError(f"a puzzle rating is a mapping of mu and sigma, got {data!r}")
        values = []
        for name in ("mu", "sigma"):
            value = data.get(name)
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise EscobaError(f"a puzzle rating's {name} must be a number, got {value!r}")
            if not math.isfinite(value):
                raise EscobaError(f"a puzzle rating's {name} must be finite, got {value!r}")
            values.append(float(value))
        mu, sigma = values
        if sigma <= 0:
            raise EscobaError(f"a puzzle rating's sigma must be above 0, got {sigma!r}")
        return cls(mu, sigma)
