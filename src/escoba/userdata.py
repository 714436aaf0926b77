"""The user's data folder: where the terminal keeps its saved matches and the web server its
SQLite database by default.

It is ``platformdirs.user_data_dir("escoba")`` (``~/.local/share/escoba`` on Linux), or the
folder named by the environment variable ``ESCOBA_DATA_DIR`` when that is set.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Final

__all__ = ["DATA_DIR_VARIABLE", "data_dir"]

DATA_DIR_VARIABLE: Final = "ESCOBA_DATA_DIR"


def data_dir() -> Path:
    """The user's data folder (not made here: whoever writes there makes it)."""
    chosen = os.environ.get(DATA_DIR_VARIABLE)
    if chosen:
        return Path(chosen)
    import platformdirs  # the cli extra's: needed only when no folder is named

    return Path(platformdirs.user_data_dir("escoba"))
