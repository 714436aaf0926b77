"""``escoba puzzles``: a position, an answer, right or wrong, the rating and streak kept."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from escoba.cards import card_name
from escoba.cli import app
from escoba.puzzles import Puzzle, PuzzleRating, pick_puzzle

runner = CliRunner(env={"COLUMNS": "200", "NO_COLOR": "1"})


@pytest.fixture(autouse=True)
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    monkeypatch.setenv("ESCOBA_DATA_DIR", str(folder))
    return folder


def puzzles(*args: str, input: str = "") -> tuple[int, str, str]:
    result = runner.invoke(app, ["puzzles", *args], input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.stdout, result.stderr


def first(seed: int, rating: float = 1500, **choice: str) -> Puzzle:
    """The puzzle a session of ``--seed seed`` shows first (the command's own choice)."""
    return pick_puzzle(rating, seed=f"{seed}:1", **choice)  # type: ignore[arg-type]


def number_of(puzzle: Puzzle, solve: bool) -> int:
    moves = list(puzzle.observation().legal_moves)
    if solve:
        return moves.index(puzzle.move) + 1
    return next(i for i, m in enumerate(moves, start=1) if m != puzzle.move)


def saved(data: Path) -> dict[str, object]:
    return dict(json.loads((data / "puzzles.json").read_text()))


def test_a_solved_puzzle_raises_the_rating_and_the_streak(data: Path) -> None:
    puzzle = first(3)
    code, out, _ = puzzles("--seed", "3", "--count", "1", input=f"{number_of(puzzle, True)}\n")
    assert code == 0
    assert f"Puzzle 1 of 1: {puzzle.title()} ({puzzle.preset}, rated {puzzle.rating})." in out
    assert "Match points: " in out and "Table: " in out and "Your hand: " in out
    assert "Your moves:" in out and "Right! " in out
    assert puzzle.explanation("en", "french") in out
    state = saved(data)
    rating = PuzzleRating.from_dict(state["rating"])  # type: ignore[arg-type]
    assert rating.shown() > 1500
    assert state["streak"] == 1 and state["best_streak"] == 1 and state["solved"] == [puzzle.id]
    assert f"Puzzle rating: {rating.shown()} (+{rating.shown() - 1500}). Streak: 1." in out
    assert "Solved 1 of 1." in out


def test_a_failed_puzzle_lowers_the_rating_ends_the_streak_and_shows_the_answer(
    data: Path,
) -> None:
    puzzle = first(3)
    puzzles("--seed", "3", "--count", "1", input=f"{number_of(puzzle, True)}\n")
    after_solve = PuzzleRating.from_dict(saved(data)["rating"])  # type: ignore[arg-type]
    # The next session: the solved puzzle is not asked again.
    nxt = pick_puzzle(after_solve.shown(), seed="4:1", exclude={puzzle.id})
    code, out, _ = puzzles("--seed", "4", "--count", "1", input=f"{number_of(nxt, False)}\n")
    assert code == 0 and nxt.id != puzzle.id
    assert "Puzzle rating: " in out and "Streak: 1 (best 1)." in out
    assert "Not this time: the best move is " in out
    assert nxt.explanation("en", "french") in out
    state = saved(data)
    rating = PuzzleRating.from_dict(state["rating"])  # type: ignore[arg-type]
    assert rating.shown() < after_solve.shown()
    assert state["streak"] == 0 and state["best_streak"] == 1
    assert "Solved 0 of 1." in out


def test_the_move_may_be_typed_and_a_bad_answer_is_asked_again(data: Path) -> None:
    puzzle = first(8)
    code, out, _ = puzzles("--seed", "8", "--count", "1", input=f"seven\n99\n{puzzle.answer}\n")
    assert code == 0
    assert "'seven' is neither a number from 1 to" in out
    assert "There is no move 99." in out
    assert "Right! " in out


def test_reset_starts_afresh_and_a_bad_file_is_named(data: Path) -> None:
    data.mkdir(parents=True)
    (data / "puzzles.json").write_text('{"rating": {"mu": "high"}}')
    code, _, err = puzzles("--seed", "1", input="")
    assert code == 2 and "puzzles.json" in err and "mu" in err and "--reset" in err
    code, out, _ = puzzles("--seed", "1", "--reset", input="")
    assert code == 0 and "Puzzle rating and streak reset." in out
    assert saved(data)["rating"] == PuzzleRating().to_dict()


def test_end_of_input_ends_the_session(data: Path) -> None:
    code, out, _ = puzzles("--seed", "2", "--count", "3", input="")
    assert code == 0 and "Puzzle 1 of 3" in out and "Puzzle 2 of 3" not in out
    assert "Solved 0 of 0." in out
    assert not (data / "puzzles.json").exists()


def test_theme_and_preset_choose_the_puzzles() -> None:
    puzzle = first(5, theme="seven_of_coins", preset="scopa")
    code, out, _ = puzzles(
        "--seed",
        "5",
        "--theme",
        "seven_of_coins",
        "--preset",
        "scopa",
        "--count",
        "1",
        input=f"{number_of(puzzle, True)}\n",
    )
    assert code == 0 and f"{puzzle.title()} (scopa, rated {puzzle.rating})" in out


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["--theme", "sweeping"], "unknown theme 'sweeping'"),
        (["--preset", "briscola"], "unknown preset 'briscola'"),
        (["--preset", "scopone-scientifico"], "no puzzle"),
        (["--count", "0"], "--count"),
    ],
)
def test_a_bad_choice_is_a_clear_error(args: list[str], named: str, data: Path) -> None:
    code, _, err = puzzles(*args)
    assert code == 2 and named in err and "Traceback" not in err
    assert not (data / "puzzles.json").exists()


def test_spanish_words_and_deck() -> None:
    puzzle = first(6)
    code, out, _ = puzzles(
        "--seed",
        "6",
        "--count",
        "1",
        "--language",
        "es",
        "--deck",
        "spanish",
        input=f"{number_of(puzzle, True)}\n",
    )
    assert code == 0
    assert f"Problema 1 de 1: {puzzle.title('es')}" in out
    assert "Tus jugadas:" in out and "¡Bien! " in out
    assert puzzle.explanation("es", "spanish") in out
    hand = puzzle.observation().hand
    assert all(card_name(card, "spanish", "es") in out for card in hand)
    assert "Puntuación de problemas: " in out
