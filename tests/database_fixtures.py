"""The database the server tests run on: SQLite always, PostgreSQL as well when asked.

Set ``ESCOBA_TEST_POSTGRES`` to the URL of a PostgreSQL database whose role may create
databases and end the connections to them (``CREATEDB`` and a member of
``pg_signal_backend``, or a superuser; ``.ci/run`` makes one on Debian's server), for example
``postgresql+psycopg://escoba:escoba@127.0.0.1:5432/postgres``. Every test of a
``tests/test_server_*.py`` module then runs twice, as ``[sqlite]`` and ``[postgresql]``.
Without it the server tests run on SQLite only, with their plain names.

A test names its database by a path in its temporary folder (``tmp_path / "escoba.db"``);
``server_helpers.database_url(path)`` turns the path into a URL. On SQLite that is the file
at the path. On PostgreSQL it is an empty database of its own, taken the first time the path
is named (naming the same path again, as a restart does, finds the same database). A
database a test took is given back when the test ends; one a module-scoped fixture took (the
fixture must ask for ``database_backend``, so that it runs again for each backend) when the
module's run on that backend ends. A database given back is emptied for the next test, which
finds it as a new one (see :class:`PostgresServer`); they are all dropped when the session
ends. Their time zone is not UTC, so that no time the server hands out may depend on it.

The two backends are a module-scoped parameter, so a module runs all its tests on SQLite,
then all on PostgreSQL. A module-scoped fixture that does not ask for ``database_backend``
would keep its SQLite server for the PostgreSQL run: the backend refuses to end while an app
it started is still running, which makes that mistake an error instead of a silent pass.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

POSTGRES_VARIABLE = "ESCOBA_TEST_POSTGRES"
"""The admin URL of the PostgreSQL server the server tests also run on."""

SERVER_TESTS = "test_server_"
"""The modules whose tests run on every backend."""

TEST_TIME_ZONE = "Asia/Kathmandu"
"""The PostgreSQL test databases' session time zone (UTC+05:45): anything but UTC."""


class PostgresServer:
    """The PostgreSQL server the tests also run on: it makes their databases, empties each
    one a test is done with for the next test, and drops them all at the end of the session.

    Emptying (dropping the ``public`` schema with everything in it, then making it again)
    leaves a database as a new one is, and takes a few milliseconds where making and dropping
    a database takes a few hundred. The migrations still run in full on every test.
    """

    def __init__(self, admin_url: str) -> None:
        from sqlalchemy import create_engine

        self.admin_url = admin_url
        self.admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
        self.made: list[str] = []
        self.free: list[tuple[str, str]] = []
        """Emptied databases, ready for a test: (name, URL)."""

    def take(self) -> tuple[str, str]:
        """An empty database: (name, URL)."""
        if self.free:
            return self.free.pop()
        from sqlalchemy import make_url, text

        name = f"escoba_test_{secrets.token_hex(8)}"
        with self.admin.connect() as connection:
            connection.execute(text(f"CREATE DATABASE {name}"))
            self.made.append(name)
            connection.execute(text(f"ALTER DATABASE {name} SET timezone TO '{TEST_TIME_ZONE}'"))
        url = make_url(self.admin_url).set(database=name)
        return name, url.render_as_string(hide_password=False)

    def give_back(self, name: str, url: str) -> None:
        """Empty a database a test is done with (ending the connections left open to it) and
        keep it for the next."""
        from sqlalchemy import create_engine, text
        from sqlalchemy.pool import NullPool

        with self.admin.connect() as connection:
            connection.execute(
                text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = :name"
                    " AND backend_type = 'client backend' AND pid <> pg_backend_pid()"
                ),
                {"name": name},
            )
        engine = create_engine(url, poolclass=NullPool, isolation_level="AUTOCOMMIT")
        try:
            with engine.connect() as connection:
                connection.execute(text("DROP SCHEMA public CASCADE"))
                connection.execute(text("CREATE SCHEMA public"))
        finally:
            engine.dispose()
        self.free.append((name, url))

    def close(self) -> None:
        """Drop every database made (with the connections still open to them)."""
        from sqlalchemy import text

        try:
            with self.admin.connect() as connection:
                for name in self.made:
                    connection.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        finally:
            self.made.clear()
            self.free.clear()
            self.admin.dispose()


class Databases:
    """The databases of one backend's run of a module, by the path that names each."""

    def __init__(self, backend: str, server: PostgresServer | None = None) -> None:
        self.backend = backend
        self.server = server
        self.urls: dict[Path, tuple[str, str]] = {}
        """The database each path names: (name, URL)."""
        self.taken: list[Path] = []
        """The paths naming a PostgreSQL database, in the order they were first named."""
        self.apps = 0
        """Apps started on these databases and still running."""

    def url(self, path: Path) -> str:
        """The URL of the database ``path`` names (a new one if the path is new)."""
        if self.backend == "sqlite":
            return f"sqlite:///{path}"
        if path not in self.urls:
            assert self.server is not None
            self.urls[path] = self.server.take()
            self.taken.append(path)
        return self.urls[path][1]

    @contextmanager
    def running(self) -> Iterator[None]:
        """Count an app as running while the block runs."""
        self.apps += 1
        try:
            yield
        finally:
            self.apps -= 1

    def give_back(self, since: int = 0) -> None:
        """Give back the databases first named since ``since`` were (all by default)."""
        done = self.taken[since:]
        del self.taken[since:]
        for path in done:
            name, url = self.urls.pop(path)
            assert self.server is not None
            self.server.give_back(name, url)


_backends: list[Databases] = [Databases("sqlite")]
"""The backends in use, the running test's last (outside of tests: SQLite)."""


def current() -> Databases:
    """The databases of the backend the running test is on."""
    return _backends[-1]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if os.environ.get(POSTGRES_VARIABLE) and metafunc.definition.path.name.startswith(SERVER_TESTS):
        # A module of tests that only a database server can run (several processes on one
        # database) names its backends: ``DATABASE_BACKENDS = ("postgresql",)``.
        backends = getattr(metafunc.module, "DATABASE_BACKENDS", ("sqlite", "postgresql"))
        metafunc.parametrize("database_backend", list(backends), indirect=True, scope="module")


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer | None]:
    """The PostgreSQL server of ``ESCOBA_TEST_POSTGRES``, or None when it is not set."""
    admin_url = os.environ.get(POSTGRES_VARIABLE)
    if not admin_url:
        yield None
        return
    server = PostgresServer(admin_url)
    try:
        yield server
    finally:
        server.close()


@pytest.fixture(scope="module", autouse=True)
def database_backend(
    request: pytest.FixtureRequest, postgres_server: PostgresServer | None
) -> Iterator[str]:
    """The backend this module's tests run on now: ``sqlite`` or ``postgresql``."""
    backend: str = getattr(request, "param", "sqlite")
    databases = Databases(backend, postgres_server)
    _backends.append(databases)
    try:
        yield backend
    finally:
        _backends.remove(databases)
        databases.give_back()
    assert databases.apps == 0, (
        f"an app on the {backend} test databases outlived them: a module-scoped fixture "
        "that starts one must ask for the database_backend fixture"
    )


@pytest.fixture(autouse=True)
def _give_back_the_tests_databases(database_backend: str) -> Iterator[None]:
    """Give back the databases first named while a test ran when it ends (autouse fixtures
    are set up before the test's others, so this covers what its own fixtures name)."""
    databases = current()
    before = len(databases.taken)
    yield
    databases.give_back(before)
