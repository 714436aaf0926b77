"""The full-screen terminal game (Textual): ``run_app`` plays a local match, ``run_replay``
steps through a recorded match."""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from pathlib import Path

from ..ai.analysis import MatchAnalysis
from ..cards import DeckStyle
from ..game import Game
from ..messages import text
from ..play.local_match import LocalMatch
from ..play.saves import Saves
from .app import EscobaApp
from .replay import ReplayApp

__all__ = ["EscobaApp", "ReplayApp", "run_app", "run_replay"]


def run_app(match: LocalMatch, saves: Saves | None = None, *, pace: float = 0.8) -> Path | None:
    """Play a local match full screen until the person quits or the match ends.

    An unfinished match is saved in ``saves`` when the person quits, a finished one is
    kept there; a line says where. Returns the file written, if any.
    """
    app = EscobaApp(match, saves, pace=pace)
    app.run()
    if app.saved_path is not None:
        print(text("play.saved", match.language, path=app.saved_path))
        return app.saved_path
    if app.kept_path is not None:
        print(text("play.kept", match.language, path=shlex.quote(str(app.kept_path))))
        return app.kept_path
    return None


def run_replay(
    game: Game,
    levels: Sequence[str | None],
    person: int | None,
    deck: DeckStyle,
    language: str,
    analysis: MatchAnalysis | None = None,
) -> None:
    """Step through a recorded match full screen, every seat's cards shown (and the analysis
    of each move, when given)."""
    ReplayApp(game, levels, person, deck, language, analysis).run()
