"""How the ``escoba`` command fails: one line on stderr, ``Error: ...``, no traceback.

Bad arguments (bad rule options too) exit with code 2, as Click's own usage errors do.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any, NoReturn

import typer
from typer.core import TyperGroup

__all__ = ["USAGE_ERROR", "OneLineErrors", "echo_error", "fail"]

USAGE_ERROR = 2


def echo_error(message: str) -> None:
    """``message`` as one line on stderr, its whitespace (newlines too) folded."""
    typer.echo(f"Error: {' '.join(message.split())}", err=True)


def fail(message: str) -> NoReturn:
    """Stop the command with ``message`` and the exit code of a usage error."""
    echo_error(message)
    raise typer.Exit(USAGE_ERROR)


def _click_exception_class() -> type[Exception]:
    """Click's ``ClickException``: typer vendors Click since 0.26 and re-exports only a few of
    its exceptions, but ``typer.BadParameter`` derives from it in every version."""
    for cls in typer.BadParameter.__mro__:
        if cls.__name__ == "ClickException":
            return cls
    return typer.BadParameter  # pragma: no cover - every typer so far has it


_ClickException = _click_exception_class()


class OneLineErrors(TyperGroup):
    """The root command group; it prints every usage error as one line on stderr."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        if not standalone_mode:
            return super().main(
                args, prog_name, complete_var, standalone_mode, windows_expand_args, **extra
            )
        try:
            code = super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
        except typer.Abort:
            echo_error("aborted")
            sys.exit(1)
        except _ClickException as error:
            message = str(getattr(error, "format_message", error.__str__)())
            context = getattr(error, "ctx", None)
            if context is not None and isinstance(getattr(context, "command_path", None), str):
                message += f" (see '{context.command_path} --help')"
            echo_error(message)
            sys.exit(int(getattr(error, "exit_code", 1)))
        sys.exit(code if isinstance(code, int) else 0)
