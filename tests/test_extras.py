"""What each extra installs is enough: ``escoba[web]`` (one process on SQLite) runs without
psycopg and redis, which only ``escoba[site]`` (several processes) adds, and asking a site of
it says so in one line.

Each test runs a fresh interpreter in which importing ``redis`` or ``psycopg`` fails as if
they were not installed (a finder ahead of every other refuses them).
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

HIDE = textwrap.dedent(
    """
    import importlib.abc
    import sys

    HIDDEN = ("redis", "psycopg", "psycopg_binary", "psycopg_c", "psycopg2")


    class Refuse(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in HIDDEN:
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
            return None


    sys.meta_path.insert(0, Refuse())
    """
)

SITE_INSTALL = "python3 -m pip install 'escoba[site]'"


def run_hidden(code: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """``code`` run by a fresh Python that cannot import redis or psycopg."""
    env = {
        "PATH": "/usr/bin:/bin",
        "ESCOBA_DATA_DIR": str(tmp_path / "data"),
        "COLUMNS": "200",
        "NO_COLOR": "1",
        "PYTHONPATH": str(Path(__file__).parents[1] / "src"),
    }
    return subprocess.run(
        [sys.executable, "-c", HIDE + textwrap.dedent(code)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


def serve(args: list[str]) -> str:
    """The code that runs ``escoba serve ARGS`` as the console script does."""
    return f"""
    import sys
    from escoba.__main__ import main

    sys.argv = ["escoba", "serve", *{args!r}]
    main()
    """


def test_the_hider_hides(tmp_path: Path) -> None:
    result = run_hidden(
        """
        for name in ("redis", "redis.asyncio", "psycopg"):
            try:
                __import__(name)
            except ModuleNotFoundError as error:
                print("refused", error.name)
        """,
        tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n")[:3] == [
        "refused redis",
        "refused redis",  # redis.asyncio: its package first
        "refused psycopg",
    ]


@pytest.mark.slow
def test_one_process_on_sqlite_needs_neither_redis_nor_psycopg(tmp_path: Path) -> None:
    """The app is built, started and answers the lobby and its API on SQLite, and nothing
    imported redis or psycopg on the way."""
    database = tmp_path / "escoba.sqlite"
    result = run_hidden(
        f"""
        import sys
        from fastapi.testclient import TestClient
        from escoba.server.config import Settings
        from escoba.server.http.app import create_app

        app = create_app(Settings(database_url={f"sqlite:///{database}"!r}))
        with TestClient(app) as client:
            assert client.get("/").status_code == 200
            assert client.get("/api/texts?language=fr").status_code == 200
        loaded = sorted(
            name for name in sys.modules if name.split(".")[0] in ("redis", "psycopg")
        )
        print("loaded:", loaded)
        """,
        tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "loaded: []"
    assert database.exists()


@pytest.mark.slow
def test_a_site_without_redis_says_which_extra_in_one_line(tmp_path: Path) -> None:
    result = run_hidden(
        serve(
            [
                "--redis",
                "redis://127.0.0.1:1/0",
                "--database",
                "postgresql+psycopg://escoba:secret@127.0.0.1:1/escoba",
            ]
        ),
        tmp_path,
    )
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: --redis: ")
    assert lines[0].endswith(SITE_INSTALL)
    assert "secret" not in result.stderr


@pytest.mark.slow
def test_postgresql_without_psycopg_says_which_extra_in_one_line(tmp_path: Path) -> None:
    result = run_hidden(
        serve(["--database", "postgresql+psycopg://escoba:secret@127.0.0.1:1/escoba"]),
        tmp_path,
    )
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: --database: postgresql+psycopg://escoba:***@")
    assert "'psycopg'" in lines[0]
    assert lines[0].endswith(SITE_INSTALL)
    assert "secret" not in result.stderr
