"""The console script's entry, and errors of questions about a match."""

from __future__ import annotations

import subprocess
import sys

import pytest

from escoba import RULESETS, EscobaError, Game, InvalidQueryError
from escoba.__main__ import main


def test_entry_point_without_the_cli_extra_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """README "Dependencies": the engine needs nothing; the command asks for the cli extra."""
    monkeypatch.setitem(sys.modules, "escoba.cli", None)
    with pytest.raises(SystemExit) as stopped:
        main()
    assert "escoba[cli]" in str(stopped.value.code)


@pytest.mark.slow
def test_python_dash_m_runs_the_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "escoba", "rules"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0
    assert "escova" in done.stdout


@pytest.mark.parametrize("seat", [-1, 2, 9, True, "0"])
def test_a_seat_that_does_not_exist_is_named(seat: object) -> None:
    game = Game(RULESETS["escoba"], 2, seed=3)
    for ask in (game.hand, game.observation, game.side_of):
        with pytest.raises(InvalidQueryError, match="seat must be 0 to 1") as error:
            ask(seat)  # type: ignore[arg-type]
        assert isinstance(error.value, ValueError)
        assert isinstance(error.value, EscobaError)


def test_a_hand_that_was_not_played_is_named() -> None:
    game = Game(RULESETS["escoba"], 2, seed=3)
    with pytest.raises(InvalidQueryError, match="hand_number must be 0 to 0, got 1"):
        game.history(1)
    assert game.history(0) == game.history()
