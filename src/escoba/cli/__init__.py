"""The ``escoba`` command: ``escoba rules``, ``simulate``, ``arena``, ``play``, ``replay``,
``learn`` and ``serve``.

A typer app with one subcommand a job, each in its own module here; the options they share are
in :mod:`escoba.cli.options`. The commands only parse arguments and render with rich: the words
come from :mod:`escoba.cheatsheet` and the figures from :mod:`escoba.simulate` and
:mod:`escoba.arena`.

Errors are one line on stderr, ``Error: ...``, with exit code 2 for bad arguments (including
bad rule options) and no traceback (:mod:`escoba.cli.errors`).
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from .. import __version__
from .errors import OneLineErrors
from .options import parse_settings

__all__ = ["app", "full_screen", "main", "parse_settings"]

app = typer.Typer(
    cls=OneLineErrors,
    name="escoba",
    help="Escoba, Scopa and Escova: play against the computer, the rules, and the arena.",
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"escoba {__version__}")
        raise typer.Exit()


@app.callback(invoke_without_command=True)
def _root(
    ctx: typer.Context,
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            help="Show the version and exit.",
            callback=_show_version,
            is_eager=True,
        ),
    ] = False,
) -> None:
    """Escoba, Scopa and Escova: play against the computer, the rules, and the arena."""
    if ctx.invoked_subcommand is None:
        help_text = ctx.get_help()  # rich prints the help itself and returns ""
        if help_text:
            typer.echo(help_text)


def full_screen(plain: bool) -> bool:
    """Whether to show the full-screen game: not --plain, and a terminal on both ends.

    It looks at this module's ``sys``, so that a test can hand ``escoba.cli`` a terminal.
    """
    return not plain and sys.stdin.isatty() and sys.stdout.isatty()


def main() -> None:
    """The ``escoba`` console script."""
    app()


# Each command module registers its command on ``app``, so they are imported once it exists,
# in the order ``escoba --help`` lists them.
# isort: off
from . import rules, simulate, arena, serve, play, replay, learn  # noqa: E402, F401
# isort: on
