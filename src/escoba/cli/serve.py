"""``escoba serve``: the web game's server, with its limits, database and origins."""

from __future__ import annotations

import dataclasses
import errno
import ipaddress
import math
import os
import socket
from collections.abc import Sequence
from typing import Annotated

import typer

from ..server.config import DEFAULT_LIMITS, DEFAULT_SETTINGS, Limits, Settings, Timings
from .errors import fail
from .root import app

__all__ = ["MAX_COMPUTER_WORKERS", "serve_command"]

LIMIT_HELP = (
    "Change a server limit, e.g. --limit header_bytes=8192 --limit rooms_total=500 "
    "(repeatable; a positive number, seconds for times). The limits: "
    + ", ".join(item.name for item in dataclasses.fields(Limits))
    + "."
)


SITE_INSTALL = "python3 -m pip install 'escoba[site]'"
"""What a site of several processes adds to one (escoba[web]): PostgreSQL's and Redis's clients."""

MAX_COMPUTER_WORKERS = 256
"""More worker processes than this is a typo, not a machine."""


def _default_workers() -> int:
    """One computer worker per core this process may run on: the workers run at a lower
    priority than the server's event loop, so they take only the CPU it leaves."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        cores = os.cpu_count() or 1
    return max(1, cores)


def _limit_value(name: str, text: str, default: float) -> float:
    """``text`` as a value of the limit ``name``: a whole number where the default is one."""
    cleaned = text.strip()
    if isinstance(default, int):
        try:
            return int(cleaned)
        except ValueError:
            fail(f"--limit: {name}: must be a whole number, got {text!r}")
    try:
        value = float(cleaned)
    except ValueError:
        fail(f"--limit: {name}: must be a number (of seconds), got {text!r}")
    if not math.isfinite(value):
        fail(f"--limit: {name}: must be a finite number, got {text!r}")
    return value


def _server_limits(items: Sequence[str], computer_workers: int | None) -> Limits:
    """The :class:`Limits` of ``--limit NAME=VALUE`` options and ``--computer-workers``
    (which wins over ``--limit computer_workers=``)."""
    defaults: dict[str, float] = dataclasses.asdict(DEFAULT_LIMITS)
    changes: dict[str, float] = {}
    for item in items:
        name, equals, text = item.partition("=")
        name = name.strip().lower().replace("-", "_")
        if not equals or not name:
            fail(f"--limit: expected NAME=VALUE (e.g. header_bytes=8192), got {item!r}")
        if name not in defaults:
            fail(f"--limit: unknown limit {name!r}; the limits are: {', '.join(defaults)}")
        changes[name] = _limit_value(name, text, defaults[name])
    if computer_workers is not None:
        changes["computer_workers"] = computer_workers
    changes.setdefault("computer_workers", _default_workers())
    if changes["computer_workers"] > MAX_COMPUTER_WORKERS:
        fail(f"--limit: computer_workers: at most {MAX_COMPUTER_WORKERS}")
    try:
        return DEFAULT_LIMITS.replace(**changes)
    except ValueError as error:
        fail(f"--limit: {error}")


def _said(error: BaseException) -> str:
    """The first line of what failed, the driver's own words where SQLAlchemy wraps them."""
    cause = getattr(error, "orig", None)
    text = str(cause if isinstance(cause, BaseException) else error).strip()
    return text.splitlines()[0] if text else type(error).__name__


@app.command("serve")
def serve_command(
    host: Annotated[str, typer.Option(help="Address to listen on (0.0.0.0: every network).")] = (
        "127.0.0.1"
    ),
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port to listen on.")] = 8000,
    database: Annotated[
        str | None,
        typer.Option(help="SQLAlchemy database URL; default SQLite in the user's data directory."),
    ] = None,
    pace: Annotated[
        float, typer.Option(min=0.0, max=10.0, help="Seconds before each computer move.")
    ] = 0.7,
    limit: Annotated[
        list[str] | None,
        typer.Option(
            "--limit",
            metavar="NAME=VALUE",
            help=LIMIT_HELP,
            show_default=False,
        ),
    ] = None,
    computer_workers: Annotated[
        int | None,
        typer.Option(
            "--computer-workers",
            min=1,
            max=MAX_COMPUTER_WORKERS,
            metavar="N",
            help="Worker processes that think for computer seats and hints "
            "(default: one per core, at a lower priority than the server).",
            show_default=False,
        ),
    ] = None,
    analysis_budget: Annotated[
        int,
        typer.Option(
            "--analysis-budget",
            min=1,
            metavar="N",
            help="Positions the analysis of a finished match searches a move.",
        ),
    ] = DEFAULT_SETTINGS.analysis_budget,
    analysis_min_deals: Annotated[
        int,
        typer.Option(
            "--analysis-min-deals",
            min=1,
            metavar="N",
            help="Deals the analysis of a finished match looks at a move, at least.",
        ),
    ] = DEFAULT_SETTINGS.analysis_min_deals,
    analysis_workers: Annotated[
        int,
        typer.Option(
            "--analysis-workers",
            min=1,
            max=MAX_COMPUTER_WORKERS,
            metavar="N",
            help="Moves of finished matches' analyses worked out at once, at most, and only "
            "on computer workers no room needs.",
        ),
    ] = DEFAULT_SETTINGS.analysis_workers,
    origin: Annotated[
        list[str] | None,
        typer.Option(
            "--origin",
            metavar="URL",
            help="Another site whose pages may open this server's rooms, such as "
            "https://cards.example.org (repeatable; the server's own is always allowed).",
            show_default=False,
        ),
    ] = None,
    redis: Annotated[
        str | None,
        typer.Option(
            "--redis",
            metavar="URL",
            help="Join a site of several server processes sharing this Redis "
            "(redis://host:6379/0 or unix:///path/redis.sock) and a PostgreSQL --database: "
            "any of them serves any room.",
            show_default=False,
        ),
    ] = None,
    redis_prefix: Annotated[
        str,
        typer.Option(
            "--redis-prefix",
            metavar="TEXT",
            help="The start of every key and channel of the site in Redis "
            "(several sites may share one Redis).",
        ),
    ] = "escoba:",
    quick_match_wait: Annotated[
        float,
        typer.Option(
            "--quick-match-wait",
            min=1.0,
            max=600.0,
            metavar="SECONDS",
            help="How long a person waits for a quick match before being offered to fill the "
            "free seats with computers (they may keep waiting).",
        ),
    ] = 20.0,
    abandon_after: Annotated[
        float,
        typer.Option(
            "--abandon-after",
            min=5.0,
            max=3600.0,
            metavar="SECONDS",
            help="How long a player may be away (no connection) before their seat is "
            "abandoned: the others may then give it to a computer or claim the match.",
        ),
    ] = 60.0,
    passkey_site: Annotated[
        str | None,
        typer.Option(
            "--passkey-site",
            metavar="HOST",
            help="The host name people open (play.example.org): passkeys are made for it "
            "and refused from any other. Default: the host each request names.",
            show_default=False,
        ),
    ] = None,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            "--forwarded-allow-ips",
            metavar="ADDRESSES",
            help="The reverse proxies in front of the server, by address or network, "
            "comma-separated (127.0.0.1,10.0.0.0/8): their X-Forwarded-For names the client "
            "that limits count (the address the last of them saw). Default: none, every "
            "client is its socket's address.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Start the web game: open the printed address in a browser, create a room, play."""
    try:
        import uvicorn
        from sqlalchemy.engine import make_url

        from ..server.http.app import create_app
        from ..server.http.transport import TrustedProxies, raise_open_files_limit, server_config
        from ..server.storage.repository import default_database_url
    except ImportError as missing:
        fail(
            f"the web game needs {missing.name!r}; install it with: "
            "python3 -m pip install 'escoba[web]'"
        )
    limits = _server_limits(limit or (), computer_workers)
    try:
        proxies = TrustedProxies(filter(None, (forwarded_allow_ips or "").split(",")))
    except ValueError as error:
        fail(f"--forwarded-allow-ips: {error}")
    origins = [_origin(value) for value in origin or ()]
    url = database or default_database_url()
    try:
        hidden = make_url(url).render_as_string(hide_password=True)  # never print a password
    except Exception:
        fail(f"--database: not a database URL such as sqlite:///path or postgresql://...: {url!r}")
    if redis is not None:
        _check_site(redis, redis_prefix, make_url(url).get_backend_name())
    settings = Settings(
        database_url=url,
        pace=pace,
        limits=limits,
        origins=tuple(origins),
        redis_url=redis,
        redis_prefix=redis_prefix,
        timings=Timings(quick_match_wait=quick_match_wait, abandon_after=abandon_after),
        passkey_site=_passkey_site(passkey_site),
        analysis_budget=analysis_budget,
        analysis_min_deals=analysis_min_deals,
        analysis_workers=analysis_workers,
    )
    try:
        application = create_app(settings)
        with application.state.storage.engine.connect():
            pass  # a database that cannot be reached is said now, not as a traceback later
        application.state.storage.migrate()  # and one that is not a database, or too new
    except ModuleNotFoundError as missing:  # PostgreSQL's psycopg is escoba[site]'s
        fail(f"--database: {hidden} needs {missing.name!r}; install it with: {SITE_INSTALL}")
    except Exception as error:  # a server that does not answer, a file that is no database
        fail(f"--database: cannot open {hidden}: {_said(error)}")
    files = raise_open_files_limit()
    if files is not None and files < limits.connections_total + 100:
        typer.echo(
            f"escoba: warning: at most {files} open files, fewer than "
            f"--limit connections_total={limits.connections_total} needs",
            err=True,
        )
    listening = _listen(host, port)  # taken before saying where: a busy port is said instead
    shown = "localhost" if host in {"127.0.0.1", "0.0.0.0"} else host
    site = "" if redis is None else "; one of the processes sharing its Redis"
    typer.echo(
        f"escoba: playing at http://{shown}:{port}/  (database {hidden}{site}; Ctrl+C stops)"
    )
    config = server_config(application, host=host, port=port, limits=limits, proxies=proxies)
    uvicorn.Server(config).run(sockets=[listening])


def _listen(host: str, port: int) -> socket.socket:
    """The server's socket, bound to ``host`` and ``port``; a port in use or an address not
    this machine's is one line and exit code 2."""
    try:
        family = socket.AF_INET6 if ipaddress.ip_address(host).version == 6 else socket.AF_INET
    except ValueError:  # a host name: its first address
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
    listening = socket.socket(family, socket.SOCK_STREAM)
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listening.bind((host, port))
        listening.listen(128)  # at once: another server cannot bind it meanwhile
    except OSError as error:
        listening.close()
        if error.errno == errno.EADDRINUSE:
            fail(f"--port: {port} is in use on {host}: stop what uses it, or choose another port")
        fail(f"--host: cannot listen on {host}:{port}: {error.strerror or error}")
    return listening


def _check_site(redis: str, prefix: str, backend: str) -> None:
    """Refuse a site of several processes that cannot work, before anything starts."""
    if backend == "sqlite":
        fail(
            "--redis: several processes share one database, and SQLite is one machine's file: "
            "give a PostgreSQL --database (postgresql+psycopg://user:password@host/escoba)"
        )
    if not prefix or any(character.isspace() for character in prefix):
        fail(f"--redis-prefix: must be non-empty and without spaces, got {prefix!r}")
    import asyncio

    try:
        from ..server.replication.leases import connect
    except ModuleNotFoundError as missing:
        if missing.name != "redis" and not (missing.name or "").startswith("redis."):
            raise
        fail(f"--redis: a site of several processes needs redis; install it with: {SITE_INSTALL}")

    async def ping() -> None:
        client = connect(redis)
        try:
            await client.ping()
        finally:
            await client.aclose()

    try:
        asyncio.run(ping())
    except Exception as error:
        fail(f"--redis: cannot reach {redis.rsplit('@', maxsplit=1)[-1]}: {_said(error)}")


def _passkey_site(value: str | None) -> str | None:
    """A host name as WebAuthn takes it: no scheme, port or path; an address is refused."""
    if value is None:
        return None
    host = value.strip().lower().rstrip(".")
    try:
        ipaddress.ip_address(host)
    except ValueError:
        pass
    else:
        fail(f"--passkey-site: passkeys need a host name, not an address: {value!r}")
    if not host or any(char in host for char in ":/?#@ ") or host.startswith("."):
        fail(f"--passkey-site: not a host name such as play.example.org: {value!r}")
    return host


def _origin(value: str) -> str:
    """A web origin as browsers send it: scheme and host (and port), nothing more."""
    from urllib.parse import urlsplit

    parts = urlsplit(value.strip())
    if parts.scheme not in {"http", "https"} or not parts.netloc or parts.path not in {"", "/"}:
        fail(f"--origin: not a web origin such as https://cards.example.org: {value!r}")
    return f"{parts.scheme}://{parts.netloc}".lower()
