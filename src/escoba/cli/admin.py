"""``escoba admin``: the accounts of a server's database, for whoever runs the site.

``accounts`` and ``flags`` list; ``disable``, ``enable``, ``rename`` and ``reset-password``
change one account. Each opens the database as ``escoba serve`` does (``--database``, by
default the same SQLite file, upgraded to the newest schema first), so it may run beside a
running server: what it changes, the server reads at the next request (a disabled account's
sessions and a reset password's are ended in the database).

A password is read with hidden input, typed twice, or from standard input
(``--password-stdin``), and checked by the site's own rules; no password and no hash is ever
printed. Errors are one line on stderr, ``Error: ...``: exit code 2 for a bad argument (a
username nobody may have, a weak password, a bad URL), 1 for what the database says (no such
account, a name taken, a database that cannot be written now).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, TypeVar

import typer

from .errors import echo_error, fail
from .root import app

if TYPE_CHECKING:
    from ..server.storage.accounts import AccountStore
    from ..server.storage.tables import AccountRow

__all__ = ["admin_app"]

REFUSED = 1
"""The exit code of an action the database refuses (no such account, a name taken)."""

_T = TypeVar("_T")

admin_app = typer.Typer(
    name="admin",
    help="Look after a web server's accounts: list them and the fair-play flags, disable, "
    "enable, rename, reset a password.",
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
app.add_typer(admin_app, name="admin")


@admin_app.callback(invoke_without_command=True)
def _admin(ctx: typer.Context) -> None:
    """Look after a web server's accounts: list them and the fair-play flags, disable,
    enable, rename, reset a password."""
    if ctx.invoked_subcommand is None:
        help_text = ctx.get_help()  # rich prints the help itself and returns ""
        if help_text:
            typer.echo(help_text)


Database = Annotated[
    str | None,
    typer.Option(
        "--database",
        metavar="URL",
        help="SQLAlchemy database URL, as given to escoba serve; default SQLite in the user's "
        "data directory (the server's default).",
        show_default=False,
    ),
]
Name = Annotated[str, typer.Argument(metavar="NAME", help="The account's username.")]


def refuse(message: str) -> NoReturn:
    """Stop with ``message``: the database said no (exit code 1)."""
    echo_error(message)
    raise typer.Exit(REFUSED)


def _said(error: BaseException) -> str:
    """The first line of what failed, the driver's own words where SQLAlchemy wraps them."""
    cause = getattr(error, "orig", None)
    text = str(cause if isinstance(cause, BaseException) else error).strip()
    return text.splitlines()[0] if text else type(error).__name__


@contextmanager
def open_accounts(database: str | None) -> Iterator[AccountStore]:
    """The accounts of ``database`` (the server's default when None), its schema upgraded
    first as the server's start does; a database that cannot be opened is said in one line.
    Its connections are closed when the block ends."""
    try:
        from sqlalchemy.engine import make_url

        from ..server.storage.accounts import AccountStore
        from ..server.storage.repository import Storage, default_database_url
    except ImportError as missing:
        fail(
            f"the accounts need {missing.name!r}; install it with: "
            "python3 -m pip install 'escoba[web]'"
        )
    url = database or default_database_url()
    try:
        hidden = make_url(url).render_as_string(hide_password=True)  # never print a password
    except Exception:
        fail(f"--database: not a database URL such as sqlite:///path or postgresql://...: {url!r}")
    storage: Storage | None = None
    try:
        storage = Storage(url)
        with storage.engine.connect():
            pass  # a database that cannot be reached is said now, not as a traceback later
        storage.migrate()  # and one that is not a database, or too new
    except Exception as error:  # a missing driver, a server that does not answer
        if storage is not None:
            storage.close()
        fail(f"--database: cannot open {hidden}: {_said(error)}")
    try:
        yield AccountStore(storage)
    finally:
        storage.close()


def stored(action: Callable[..., _T], *args: Any) -> _T:
    """``action(*args)`` on the database; a database that cannot do it now is said in one line
    (exit code 1), never as a traceback."""
    from ..server.errors import StorageUnavailable

    try:
        return action(*args)
    except StorageUnavailable as error:
        refuse(str(error))


def folded(name: str) -> str:
    """The folded form of a username as typed (what accounts are found by); a text no
    username can be is a bad argument."""
    from ..server.accounts import clean_username
    from ..server.errors import Refusal

    try:
        return clean_username(name)[1]
    except Refusal as refusal:
        if refusal.code == "username_taken":  # a reserved name: no account has it
            refuse(f"there is no account named {name.strip()!r}")
        fail(f"{refusal.message}: {name!r}")


def account_named(store: AccountStore, name: str) -> AccountRow:
    """The account whose username reads as ``name`` (any case), or a clear error."""
    found = stored(store.by_key, folded(name))
    if found is None or found.username is None:
        refuse(f"there is no account named {name.strip()!r}")
    return found


def shown_time(text: str) -> str:
    """An ISO time as the tables show it: to the minute, in UTC."""
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return text
    return moment.strftime("%Y-%m-%d %H:%M UTC")


def sign_in_ways(row: dict[str, Any]) -> str:
    ways = ["password"] if row["password"] else []
    keys = row["passkeys"]
    if keys:
        ways.append(f"{keys} passkey" + ("s" if keys != 1 else ""))
    return ", ".join(ways) or "none"


def _console() -> Any:
    from rich.console import Console

    return Console(highlight=False, soft_wrap=False)


@admin_app.command("accounts")
def accounts_command(database: Database = None) -> None:
    """List every account: when it was made, how it signs in, whether it is disabled, its
    rated matches and the fair-play flags raised on its matches."""
    from rich.table import Table

    with open_accounts(database) as store:
        rows = stored(store.listing)
    if not rows:
        typer.echo("No accounts.")
        return
    table = Table(title=f"{len(rows)} account" + ("s" if len(rows) != 1 else ""))
    table.add_column("username")
    table.add_column("created", no_wrap=True)
    table.add_column("signs in with")
    table.add_column("disabled")
    table.add_column("rated matches", justify="right")
    table.add_column("fair-play flags", justify="right")
    for row in rows:
        table.add_row(
            row["username"],
            shown_time(row["created_at"]),
            sign_in_ways(row),
            "disabled" if row["disabled"] else "",
            str(row["rated_matches"]),
            str(row["flags"]) if row["flags"] else "",
        )
    _console().print(table)


@admin_app.command("flags")
def flags_command(database: Database = None) -> None:
    """List the fair-play flags, newest first: rated matches in which accounts of different
    sides sat down from one address."""
    from rich.table import Table

    with open_accounts(database) as store:
        rows = stored(store.flags)
    if not rows:
        typer.echo("No fair-play flags.")
        return
    table = Table(title=f"{len(rows)} fair-play flag" + ("s" if len(rows) != 1 else ""))
    table.add_column("match", justify="right")
    table.add_column("reason")
    table.add_column("accounts")
    table.add_column("when", no_wrap=True)
    for row in rows:
        names = [name if name is not None else "(deleted player)" for name in row["accounts"]]
        table.add_row(
            str(row["match"]),
            row["reason"].replace("_", " "),
            ", ".join(names),
            shown_time(row["at"]),
        )
    _console().print(table)


def _set_disabled(name: str, database: str | None, disabled: bool) -> None:
    with open_accounts(database) as store:
        account = account_named(store, name)
        if account.disabled == disabled:
            state = "disabled" if disabled else "enabled"
            typer.echo(f"{account.username!r} is {state} already.")
            return
        sessions = stored(store.end_sessions, account.id) if disabled else 0
        stored(store.set_disabled, account.id, disabled)
    if disabled:
        typer.echo(f"Disabled {account.username!r}: it cannot sign in ({_sessions(sessions)}).")
    else:
        typer.echo(f"Enabled {account.username!r}: it may sign in again.")


def _sessions(count: int) -> str:
    return f"{count} session{'' if count == 1 else 's'} ended"


@admin_app.command("disable")
def disable_command(name: Name, database: Database = None) -> None:
    """Disable an account: it cannot sign in, its sessions end, it leaves the leaderboards
    (its matches and ratings stay)."""
    _set_disabled(name, database, True)


@admin_app.command("enable")
def enable_command(name: Name, database: Database = None) -> None:
    """Enable a disabled account again."""
    _set_disabled(name, database, False)


@admin_app.command("rename")
def rename_command(
    old: Annotated[str, typer.Argument(metavar="OLD", help="The account's username now.")],
    new: Annotated[str, typer.Argument(metavar="NEW", help="Its new username.")],
    database: Database = None,
) -> None:
    """Give an account another username (by the same rules as registering): its profile
    and leaderboard places show the new one; the old one is free for anybody."""
    from ..server.accounts import clean_username
    from ..server.errors import Refusal
    from ..server.storage.accounts import NameTaken

    try:
        username, key = clean_username(new)
    except Refusal as refusal:
        if refusal.code == "username_taken":
            refuse(f"the username {new.strip()!r} is reserved: choose another")
        fail(f"{refusal.message}: {new!r}")
    with open_accounts(database) as store:
        account = account_named(store, old)
        if username == account.username:
            typer.echo(f"{account.username!r} has that username already.")
            return
        holder = stored(store.by_key, key)
        if holder is not None and holder.id != account.id:
            refuse(f"the username {username!r} is taken by another account")
        try:
            stored(store.rename, account.id, username, key)
        except NameTaken:  # taken meanwhile
            refuse(f"the username {username!r} is taken by another account")
    typer.echo(f"Renamed {account.username!r} to {username!r}.")


def _read_password(from_stdin: bool) -> str:
    if from_stdin:
        line = sys.stdin.readline()
        password = line[:-1] if line.endswith("\n") else line
        if password.endswith("\r"):
            password = password[:-1]
        if not password:
            fail("--password-stdin: no password on standard input")
        return password
    entered: str = typer.prompt("New password", hide_input=True, confirmation_prompt="Repeat it")
    return entered


@admin_app.command("reset-password")
def reset_password_command(
    name: Name,
    password_stdin: Annotated[
        bool,
        typer.Option(
            "--password-stdin",
            help="Read the new password from the first line of standard input instead of "
            "asking for it (twice, hidden).",
        ),
    ] = False,
    database: Database = None,
) -> None:
    """Set a new password on an account (one who lost theirs): every session of the
    account ends, and it signs in with the new password only."""
    from ..server.accounts import check_password, hash_password
    from ..server.errors import Refusal

    with open_accounts(database) as store:
        account = account_named(store, name)
        assert account.username is not None
        password = _read_password(password_stdin)
        try:
            check_password(password, account.username)
        except Refusal as refusal:
            fail(refusal.message)  # the rule it breaks, never the password
        stored(store.set_password, account.id, hash_password(password))
        sessions = stored(store.end_sessions, account.id)
    typer.echo(f"New password set for {account.username!r} ({_sessions(sessions)}).")
