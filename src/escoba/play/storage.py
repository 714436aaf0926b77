"""Where matches are saved: the unfinished match (``current.json``) and finished ones.

The folder is ``platformdirs.user_data_dir("escoba")``, or the folder named by the
environment variable ``ESCOBA_DATA_DIR`` when it is set.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Final

from .session import Session

__all__ = ["DATA_DIR_VARIABLE", "Storage", "data_dir"]

DATA_DIR_VARIABLE: Final = "ESCOBA_DATA_DIR"
CURRENT: Final = "current.json"
FINISHED: Final = "matches"


def data_dir() -> Path:
    """The folder for saved matches."""
    chosen = os.environ.get(DATA_DIR_VARIABLE)
    if chosen:
        return Path(chosen)
    import platformdirs

    return Path(platformdirs.user_data_dir("escoba"))


class Storage:
    """Saved matches in one folder (made when first written to)."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = data_dir() if root is None else root

    @property
    def current_path(self) -> Path:
        return self.root / CURRENT

    def save_current(self, session: Session) -> Path:
        """Save the unfinished match, replacing the one saved before."""
        path = self.current_path
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(".tmp")
        temporary.write_text(session.dumps(), encoding="utf-8")
        temporary.replace(path)
        return path

    def has_current(self) -> bool:
        return self.current_path.is_file()

    def load_current(self) -> Session | None:
        """The saved unfinished match, None if there is none (SessionError if unreadable)."""
        path = self.current_path
        if not path.is_file():
            return None
        return Session.loads(path.read_text(encoding="utf-8"))

    def clear_current(self) -> None:
        """Forget the saved unfinished match (when it has ended)."""
        self.current_path.unlink(missing_ok=True)

    def save_finished(self, session: Session) -> Path:
        """Keep a finished match for replay, as ``matches/match-NNNN-seed-S.json``."""
        folder = self.root / FINISHED
        folder.mkdir(parents=True, exist_ok=True)
        number = 1 + sum(1 for _ in folder.glob("match-*.json"))
        while True:
            path = folder / f"match-{number:04d}-seed-{session.seed}.json"
            if not path.exists():
                break
            number += 1
        path.write_text(session.dumps(), encoding="utf-8")
        return path
