"""The ``escoba`` command: ``escoba rules``, ``simulate``, ``arena``, ``play``, ``replay``,
``learn``, ``puzzles``, ``serve`` and ``admin`` (a web server's accounts).

A typer app with one subcommand a job, each in its own module here; the options they share are
in :mod:`escoba.cli.options`. The commands only parse arguments and render with rich: the words
come from :mod:`escoba.cheatsheet` and the figures from :mod:`escoba.simulate` and
:mod:`escoba.arena`.

Errors are one line on stderr, ``Error: ...``, with exit code 2 for bad arguments (including
bad rule options) and no traceback (:mod:`escoba.cli.errors`).
"""

from __future__ import annotations

from .options import parse_settings
from .root import app, full_screen, main

__all__ = ["app", "full_screen", "main", "parse_settings"]

# Each command module registers its command on ``app`` when imported, in the order
# ``escoba --help`` lists them.
# isort: off
from . import rules, simulate, arena, serve, admin, play, replay, learn, puzzles  # noqa: F401
# isort: on
