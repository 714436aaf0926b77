"""``escoba puzzles``: find the best move of positions where one move is clearly best.

Each puzzle is shown as ``escoba play --plain`` shows a position (scores, the last moves, the
table, the hand, the other's cards and the stock, what each side took), with its theme's title
and its rating, then the numbered legal moves. The player answers with a move's number or its
text (``7d:3s+4h``); the command says whether it was the best, shows the best move and why,
and moves the player's puzzle rating and streak, which are kept in the user data folder
(``puzzles.json`` in :func:`escoba.userdata.data_dir`) from one session to the next. The end
of input ends the session.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Final, TextIO

import typer

from ..cards import DeckStyle
from ..errors import EscobaError
from ..messages import LANGUAGES
from ..moves import Move
from ..observation import Play
from ..play.render import Words, capital
from ..puzzles import THEMES, Puzzle, PuzzleRating, pick_puzzle
from ..rules import RULESETS
from ..userdata import data_dir
from .errors import fail
from .options import FrenchDeck, choice, parse_language
from .root import app

__all__ = ["PuzzleProgress", "puzzles_command"]

STATE_FILE: Final = "puzzles.json"
"""The player's puzzle rating, streak and solved puzzles, in the user data folder."""
RECENT: Final = 6
"""At most this many of the hand's last moves are shown with the position."""

_parse_theme = choice("theme", THEMES)
_parse_preset = choice("preset", RULESETS)


@dataclass(slots=True)
class PuzzleProgress:
    """What the command keeps between sessions."""

    rating: PuzzleRating = field(default_factory=PuzzleRating)
    streak: int = 0
    best_streak: int = 0
    solved: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "rating": self.rating.to_dict(),
            "streak": self.streak,
            "best_streak": self.best_streak,
            "solved": self.solved,
        }

    @classmethod
    def from_dict(cls, data: Any) -> PuzzleProgress:
        """The progress from its data; :class:`~escoba.errors.EscobaError` naming what is
        wrong."""
        if not isinstance(data, dict):
            raise EscobaError(f"expected an object, got {type(data).__name__}")
        streak, best = data.get("streak", 0), data.get("best_streak", 0)
        solved = data.get("solved", [])
        for name, value in (("streak", streak), ("best_streak", best)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise EscobaError(f"{name} must be a whole number from 0, got {value!r}")
        if not isinstance(solved, list) or not all(isinstance(i, str) for i in solved):
            raise EscobaError(f"solved must be a list of puzzle ids, got {solved!r}")
        return cls(PuzzleRating.from_dict(data.get("rating", {})), streak, best, solved)

    def tried(self, puzzle: Puzzle, solved: bool) -> None:
        self.rating = self.rating.after(puzzle, solved)
        if solved:
            self.streak += 1
            self.best_streak = max(self.best_streak, self.streak)
            if puzzle.id not in self.solved:
                self.solved.append(puzzle.id)
        else:
            self.streak = 0


def state_path() -> Path:
    return data_dir() / STATE_FILE


def load_progress(path: Path) -> PuzzleProgress:
    """The saved progress, a new one if there is none; a bad file fails, naming it."""
    if not path.exists():
        return PuzzleProgress()
    try:
        return PuzzleProgress.from_dict(json.loads(path.read_text(encoding="utf-8")))
    except (ValueError, EscobaError) as error:
        fail(f"{path}: not a puzzle progress file ({error}); --reset starts afresh")


def save_progress(path: Path, progress: PuzzleProgress) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(progress.to_dict(), indent=1) + "\n", encoding="utf-8")
    temporary.replace(path)  # a crash mid-write leaves the last good file


Theme = Annotated[
    str | None,
    typer.Option(
        "--theme",
        metavar="THEME",
        parser=_parse_theme,
        help=f"Only puzzles of one theme: {', '.join(THEMES)}.",
        show_default=False,
    ),
]
PuzzlePreset = Annotated[
    str | None,
    typer.Option(
        "--preset",
        metavar="PRESET",
        parser=_parse_preset,
        help="Only puzzles of one game: escoba, scopa or escova.",
        show_default=False,
    ),
]

PuzzleLanguage = Annotated[
    str | None,
    typer.Option(
        "--language",
        metavar="LANG",
        parser=parse_language,
        help=f"Language of the texts: {', '.join(LANGUAGES)} (default: en).",
        show_default=False,
    ),
]


@app.command("puzzles")
def puzzles_command(
    theme: Theme = None,
    preset: PuzzlePreset = None,
    count: Annotated[int, typer.Option("--count", "-n", help="Puzzles in this session.")] = 5,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            help="Seed of the puzzles' choice (default: a random one).",
            show_default=False,
        ),
    ] = None,
    reset: Annotated[
        bool, typer.Option("--reset", help="Start the puzzle rating and streak afresh.")
    ] = False,
    deck: FrenchDeck = None,
    language: PuzzleLanguage = None,
) -> None:
    """Puzzles: find the best move of a position where one move is clearly best (take the
    sweep, deny the sweep, the seven of coins, primiera, the last capture, counting). Your
    puzzle rating and streak are kept from one session to the next."""
    if count < 1:
        fail(f"--count: must be at least 1, got {count}")
    chosen_seed: int | str = seed if seed is not None else random.randrange(2**32)
    words_language = language or "en"
    style: DeckStyle = deck or "french"
    try:
        pick_puzzle(1500, seed=0, theme=theme, preset=preset)  # refuses a choice with none
    except EscobaError as error:
        fail(str(error))
    path = state_path()
    if reset:
        progress = PuzzleProgress()
        save_progress(path, progress)
        typer.echo(Words(style, words_language, ((0,), (1,)), (None, None)).text("puzzles.reset"))
    else:
        progress = load_progress(path)
    session = PuzzleSession(
        progress, path, style, words_language, sys.stdin, chosen_seed, theme, preset
    )
    session.run(count)


class PuzzleSession:
    """Puzzles one after another on text input and output, until the count or the input
    runs out."""

    def __init__(
        self,
        progress: PuzzleProgress,
        path: Path,
        deck: DeckStyle,
        language: str,
        stdin: TextIO,
        seed: int | str,
        theme: str | None,
        preset: str | None,
    ) -> None:
        self.progress = progress
        self.path = path
        self.deck: DeckStyle = deck
        self.language = language
        self.stdin = stdin
        self.seed = seed
        self.theme = theme
        self.preset = preset
        self.shown: list[str] = []

    def say(self, line: str = "") -> None:
        typer.echo(line)

    def run(self, count: int) -> None:
        solved = tried = 0
        words = self._words(None)
        self.say(
            words.text(
                "puzzles.start",
                rating=self.progress.rating.shown(),
                streak=self.progress.streak,
                best=self.progress.best_streak,
            )
        )
        told = False
        for number in range(1, count + 1):
            exclude = {*self.progress.solved, *self.shown}
            puzzle = pick_puzzle(
                self.progress.rating.shown(),
                seed=f"{self.seed}:{number}",
                theme=self.theme,
                preset=self.preset,
                exclude=exclude,
            )
            if puzzle.id in exclude and not told:
                self.say(words.text("puzzles.none_left"))
                told = True
            self.shown.append(puzzle.id)
            outcome = self.ask(puzzle, number, count)
            if outcome is None:
                break
            tried += 1
            solved += outcome
        self.say()
        self.say(
            words.text(
                "puzzles.summary",
                solved=solved,
                count=tried,
                rating=self.progress.rating.shown(),
                best=self.progress.best_streak,
            )
        )

    def _words(self, puzzle: Puzzle | None) -> Words:
        if puzzle is None:
            return Words(self.deck, self.language, ((0,), (1,)), (None, None))
        observation = puzzle.observation()
        return Words(
            self.deck,
            self.language,
            observation.sides,
            [None] * observation.players,
            you=observation.seat,
            rules=observation.rules,
        )

    def ask(self, puzzle: Puzzle, number: int, count: int) -> bool | None:
        """Show a puzzle and read the answer: whether it was solved, None at end of input."""
        w = self._words(puzzle)
        observation = puzzle.observation()
        self.say()
        self.say(
            w.text(
                "puzzles.header",
                number=number,
                count=count,
                title=puzzle.title(self.language),
                rules=puzzle.preset,
                rating=puzzle.rating,
            )
        )
        for line in position_lines(puzzle, w):
            self.say(line)
        self.say(w.text("puzzles.find"))
        moves = list(observation.legal_moves)
        self.say(w.text("play.your_moves"))
        for index, move in enumerate(moves, start=1):
            self.say(f"  {index}. {w.move(move)}")
        played = self.read_move(moves, w)
        if played is None:
            return None
        solved = puzzle.is_solved_by(played)
        before = self.progress.rating.shown()
        self.progress.tried(puzzle, solved)
        save_progress(self.path, self.progress)
        answer = w.move_phrase(puzzle.move)
        if solved:
            self.say(w.text("puzzles.right", move=answer))
        else:
            self.say(w.text("puzzles.wrong", move=answer))
        self.say(puzzle.explanation(self.language, self.deck))
        after = self.progress.rating.shown()
        self.say(
            w.text(
                "puzzles.rating",
                rating=after,
                change=f"{after - before:+d}",
                streak=self.progress.streak,
            )
        )
        return solved

    def read_move(self, moves: list[Move], w: Words) -> Move | None:
        count = len(moves)
        for answer in self._lines(w, count):
            try:
                index = int(answer)
            except ValueError:
                pass
            else:
                if 1 <= index <= count:
                    return moves[index - 1]
                self.say(w.text("play.out_of_range", number=index, count=count))
                continue
            try:
                move = Move.parse(answer)
            except (ValueError, EscobaError):
                move = None
            if move in moves:
                return move
            self.say(w.text("puzzles.not_a_move", text=answer, count=count))
        return None

    def _lines(self, w: Words, count: int) -> Iterator[str]:
        while True:
            self.say(w.text("puzzles.prompt", count=count))
            line = self.stdin.readline()
            if not line:
                return
            yield line.strip()


def position_lines(puzzle: Puzzle, w: Words) -> list[str]:
    """The position as the plain game shows it to the seat to move."""
    obs = puzzle.observation()
    lines = [w.text("play.scores", scores=w.scores(obs.totals))]
    recent = [e for e in obs.history if isinstance(e, Play)][-RECENT:]
    if recent:
        lines.append(w.text("play.last_moves"))
        lines.extend("  " + w.played(e.seat, e.move, e.sweep) for e in recent)
    lines.append(w.text("play.table", cards=w.cards(obs.table)))
    lines.append(w.text("play.your_hand", cards=w.cards(obs.hand)))
    lines.extend(
        w.text("play.hand_size", who=w.seat(seat), count=size)
        for seat, size in enumerate(obs.hand_sizes)
        if seat != obs.seat
    )
    lines.append(w.plural("play.stock", obs.stock_size))
    lines.extend(
        capital(w.plural("play.captured", len(pile), side=w.side(side), sweeps=obs.sweeps[side]))
        for side, pile in enumerate(obs.captured)
    )
    return lines
