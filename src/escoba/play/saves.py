"""Saved matches: the unfinished match (``current.json``) and the finished ones (``matches/``),
kept in the user's data folder (:func:`escoba.userdata.data_dir`) or another one given.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from ..userdata import data_dir
from .local_match import LocalMatch

__all__ = ["Saves"]

CURRENT: Final = "current.json"
FINISHED: Final = "matches"


class Saves:
    """The saved matches in one folder (made when first written to)."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = data_dir() if root is None else root

    @property
    def current_path(self) -> Path:
        return self.root / CURRENT

    def save_current(self, match: LocalMatch) -> Path:
        """Save the unfinished match, replacing the one saved before."""
        path = self.current_path
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(".tmp")
        temporary.write_text(match.dumps(), encoding="utf-8")
        temporary.replace(path)
        return path

    def load_current(self) -> LocalMatch | None:
        """The saved unfinished match, None if there is none (LocalMatchError if unreadable)."""
        path = self.current_path
        if not path.is_file():
            return None
        return LocalMatch.loads(path.read_text(encoding="utf-8"))

    def clear_current(self) -> None:
        """Forget the saved unfinished match (when it has ended)."""
        self.current_path.unlink(missing_ok=True)

    def save_finished(self, match: LocalMatch) -> Path:
        """Keep a finished match for replay, as ``matches/match-NNNN-seed-S.json``."""
        folder = self.root / FINISHED
        folder.mkdir(parents=True, exist_ok=True)
        number = 1 + sum(1 for _ in folder.glob("match-*.json"))
        while True:
            path = folder / f"match-{number:04d}-seed-{match.seed}.json"
            if not path.exists():
                break
            number += 1
        path.write_text(match.dumps(), encoding="utf-8")
        return path
