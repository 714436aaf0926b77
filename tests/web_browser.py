"""Fixtures for the browser tests: a real `escoba serve` process, and Chromium via Playwright.

`.ci/run` installs Chromium and sets ESCOBA_BROWSER_TESTS=required, which makes a missing
browser an error there. Elsewhere these tests are skipped, saying what is missing.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import database_fixtures
from server_helpers import free_port

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
REQUIRED = os.environ.get("ESCOBA_BROWSER_TESTS") == "required"


def chromium_path() -> str | None:
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


def _missing() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the Python package playwright is not installed (pip install -e '.[test]')"
    if chromium_path() is None:
        return "Chromium is not installed (Debian: apt-get install chromium; .ci/run does this)"
    return None


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    missing = _missing()
    if missing:
        if REQUIRED:
            pytest.fail(f"browser tests are required here, but {missing}")
        pytest.skip(f"browser tests skipped: {missing}")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
        yield browser
        browser.close()


class Server:
    """A running `escoba serve` on a free port with its own database."""

    def __init__(self, folder: Path, pace: float = 0.05) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        # SQLite, or PostgreSQL in a server test's [postgresql] run (database_fixtures).
        self.database = database_fixtures.current().url(folder / "escoba.db")
        self.pace = pace
        self.process: subprocess.Popen[bytes] | None = None
        self.log = folder / "server.log"

    def start(self) -> None:
        command = [sys.executable, "-m", "escoba", "serve", "--port", str(self.port)]
        command += ["--pace", str(self.pace), "--database", self.database]
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"escoba serve exited: {self.log.read_text()}")
            try:
                if httpx.get(f"{self.url}/api/presets", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("escoba serve did not answer within 30 s")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.process = None


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("serve"))
    running.start()
    yield running
    running.stop()


@pytest.fixture
def context(chromium: Any) -> Iterator[Any]:
    """A fresh browser profile (its own local storage) per test."""
    made = chromium.new_context(viewport={"width": 1280, "height": 800})
    yield made
    made.close()


@pytest.fixture
def page(context: Any) -> Iterator[Any]:
    """A page that fails the test on any script error in the browser."""
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))

    def console(message: Any) -> None:
        # A refusal the test provokes (409, 422) is logged by the browser; a 404 or 500 is not
        # expected anywhere, nor any script error.
        if message.type == "error" and not re.search(r"status of (409|422)\b", message.text):
            errors.append(message.text)

    opened.on("console", console)
    yield opened
    assert not errors, f"errors in the browser: {errors}"
