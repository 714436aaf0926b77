"""The Redis the tests of leases (and of rooms across processes) run on.

``ESCOBA_TEST_REDIS`` names one by URL (``redis://127.0.0.1:6379/0`` or
``unix:///path/to/redis.sock?db=0``); ``.ci/run`` starts Debian's ``redis-server`` and sets
it. Without it, the tests start a private ``redis-server`` of their own for the session (on a
Unix socket in a temporary folder, keeping nothing on disk) when the program is installed,
and skip otherwise: but not under ``ESCOBA_BROWSER_TESTS=required``, as ``.ci/run`` sets,
where every test must run and a missing Redis fails them.

Each test gets a key prefix of its own (:class:`TestRedis`), and its keys are deleted when it
ends: tests never see each other's keys, and a Redis shared with other things keeps those.
"""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
import redis

REDIS_VARIABLE = "ESCOBA_TEST_REDIS"
"""The URL of the Redis the tests run on."""

REQUIRED = os.environ.get("ESCOBA_BROWSER_TESTS") == "required"
"""Whether every test must run here (CI), so that a missing Redis fails instead of skipping."""


@dataclass(frozen=True, slots=True)
class TestRedis:
    """A Redis for one test: its URL and the prefix every key of the test starts with."""

    __test__ = False  # not a test class, despite its name

    url: str
    prefix: str


def private_server(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    """Start a ``redis-server`` on a Unix socket in ``folder``: it and its URL."""
    socket = folder / "redis.sock"
    log = (folder / "redis.log").open("wb")
    process = subprocess.Popen(
        [
            "redis-server",
            "--port", "0",
            "--unixsocket", str(socket),
            "--unixsocketperm", "700",
            "--save", "",
            "--appendonly", "no",
            "--dir", str(folder),
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
    )  # fmt: skip
    log.close()
    url = f"unix://{socket}?db=0"
    deadline = time.monotonic() + 10
    while True:
        if process.poll() is not None:
            said = (folder / "redis.log").read_text(errors="replace")
            pytest.fail(f"redis-server ended at start (status {process.returncode}): {said}")
        try:
            with redis.Redis.from_url(url) as client:
                client.ping()
            return process, url
        except (redis.ConnectionError, FileNotFoundError):
            if time.monotonic() > deadline:
                process.kill()
                pytest.fail("redis-server did not answer within 10 seconds")
            time.sleep(0.02)


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The URL of the tests' Redis: ``ESCOBA_TEST_REDIS``, or a private server."""
    named = os.environ.get(REDIS_VARIABLE)
    if named:
        yield named
        return
    if shutil.which("redis-server") is None:
        missing = f"there is no redis-server to start and {REDIS_VARIABLE} is not set"
        if REQUIRED:
            pytest.fail(f"every test must run here, but {missing}")
        pytest.skip(f"{missing} (apt-get install redis-server)")
    process, url = private_server(tmp_path_factory.mktemp("redis"))
    try:
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@contextmanager
def prefixed(redis_url: str) -> Iterator[TestRedis]:
    """The Redis at ``redis_url`` with a key prefix of its own; its keys go on leaving (for a
    fixture of wider scope than a test's)."""
    store = TestRedis(redis_url, f"escoba-test-{secrets.token_hex(6)}:")
    try:
        yield store
    finally:
        with redis.Redis.from_url(redis_url) as client:
            keys = list(client.scan_iter(match=f"{store.prefix}*", count=1000))
            if keys:
                client.delete(*keys)


@pytest.fixture
def redis_store(redis_url: str) -> Iterator[TestRedis]:
    """The tests' Redis with a key prefix of this test's own; its keys go when it ends."""
    with prefixed(redis_url) as store:
        yield store
