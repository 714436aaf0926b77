"""The ``escoba`` command's typer app, its root options and the console script's entry point;
each command module registers its command on :data:`app`."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from .. import __version__
from .errors import OneLineErrors

__all__ = ["app", "full_screen", "main"]

app = typer.Typer(
    cls=OneLineErrors,
    name="escoba",
    help="Escoba, Scopa and Escova: play against the computer, the rules, and the arena.",
    add_completion=False,
    # Docstrings are wrapped in the source: markdown joins a paragraph's lines again and shows
    # ``--deck`` as code, where rich's mode kept the source's breaks and the backquotes.
    rich_markup_mode="markdown",
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

    It looks at this module's ``sys``, so that a test can hand ``escoba.cli.root`` a terminal.
    """
    return not plain and sys.stdin.isatty() and sys.stdout.isatty()


def main() -> None:
    """The ``escoba`` console script."""
    app()
