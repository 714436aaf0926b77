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
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

import database_fixtures
from server_helpers import RemotePeer, free_port, play_until

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


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """Chromium, started for each module that uses it: Playwright's synchronous API keeps an
    event loop running in its thread while it is open, and a worker that goes on to other
    modules (the terminal's, the server's) runs asyncio loops of its own there."""
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

    def __init__(
        self,
        folder: Path,
        pace: float = 0.05,
        limits: Sequence[str] = (),
        options: Sequence[str] = (),
    ) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        # SQLite, or PostgreSQL in a server test's [postgresql] run (database_fixtures).
        self.database = database_fixtures.current().url(folder / "escoba.db")
        self.pace = pace
        self.limits = tuple(limits)  # "name=value", as `escoba serve --limit` takes them
        self.options = tuple(options)  # any other options of `escoba serve`
        self.process: subprocess.Popen[bytes] | None = None
        self.log = folder / "server.log"

    def start(self) -> None:
        command = [sys.executable, "-m", "escoba", "serve", "--port", str(self.port)]
        command += ["--pace", str(self.pace), "--database", self.database]
        for limit in self.limits:
            command += ["--limit", limit]
        command += self.options
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


def press_play(page: Any, server: Server, timeout: float = 20_000) -> str:
    """Press the lobby's Play and wait until the browser is on the room's page: the room's id.

    It waits for the new address only (the room exists once the browser is sent there), not
    for every file of the page; a room that does not open fails with what the page and the
    server said rather than a bare timeout."""
    page.get_by_test_id("create-room").click()
    try:
        page.wait_for_url(re.compile(r"/room/"), wait_until="commit", timeout=timeout)
    except Exception as error:  # Playwright's TimeoutError
        said = page.locator("#create-error").all_inner_texts()
        log = server.log.read_text(errors="replace")[-4000:] if server.log.exists() else ""
        raise AssertionError(
            f"no room opened from {page.url}; the page said {said}; the server's log:\n{log}"
        ) from error
    return str(page.url).rsplit("/", 1)[1]


AXE = Path(__file__).resolve().parent.parent / "node_modules" / "axe-core" / "axe.min.js"
"""axe-core, the accessibility checker, as `npm ci` installs it from package-lock.json."""


@pytest.fixture(scope="session")
def axe_script() -> Path:
    """The path of axe.min.js, to inject into a page (``page.add_script_tag(path=...)``)."""
    if not AXE.is_file():
        missing = f"axe-core is not installed ({AXE} is missing: run `npm ci`; .ci/run does)"
        if REQUIRED:
            pytest.fail(f"browser tests are required here, but {missing}")
        pytest.skip(f"accessibility audit skipped: {missing}")
    return AXE


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
        # A refusal the test provokes (400, 409, 422) is logged by the browser; a 404 or 500 is
        # not expected anywhere, nor any script error.
        if message.type == "error" and not re.search(r"status of (400|409|422)\b", message.text):
            errors.append(message.text)

    opened.on("console", console)
    yield opened
    assert not errors, f"errors in the browser: {errors}"


# -- positions for the table's tests: rooms of two people, both seats held by the test -------

FREE_LIMITS = (
    "rooms_per_address=100000",
    "computer_seats_per_address=100000",
    "hint_seconds=0.001",
)
"""Limits for a test server whose tests open many rooms and ask hints quickly."""


def person_room(server: Server, players: int = 2, **fields: Any) -> tuple[str, dict[int, str]]:
    """A room of person seats only (two by default), all taken: its id and each seat's
    token."""
    body = {"nickname": "Ana", "players": players, "seats": ["person"] * players, **fields}
    made = httpx.post(server.url + "/api/rooms", json=body)
    assert made.status_code == 201, made.text
    ticket = made.json()
    tokens = {ticket["seat"]: ticket["token"]}
    for guest in ("Bea", "Cleo", "Dani")[: players - 1]:
        joined = httpx.post(
            server.url + f"/api/rooms/{ticket['room']}/join", json={"nickname": guest}
        )
        assert joined.status_code == 200, joined.text
        tokens[joined.json()["seat"]] = joined.json()["token"]
    return ticket["room"], tokens


def seat_state(server: Server, room: str, token: str) -> dict[str, Any]:
    """The state the seat holding ``token`` is sent on joining."""
    with connect(server.url.replace("http", "ws") + f"/ws/rooms/{room}") as socket:
        _, state = RemotePeer(socket).join(token)
        return state


def room_where(
    server: Server, wanted: Callable[[dict[str, Any]], bool], tries: int = 200
) -> tuple[str, dict[int, str], int]:
    """A new two-person room whose first position gives the seat to move what ``wanted`` (a
    test on that seat's ``match``) asks for: the room, the seats' tokens, the seat to move.
    Deals are random, so rooms are opened until one fits."""
    for _ in range(tries):
        room, tokens = person_room(server)
        for seat, token in tokens.items():
            match = seat_state(server, room, token)["match"]
            if match["to_move"] == seat:
                if wanted(match):
                    return room, tokens, seat
                break
    raise AssertionError(f"no deal in {tries} rooms gave the position wanted")


def played_to(
    server: Server, wanted: Callable[[dict[str, Any]], bool]
) -> tuple[str, dict[int, str], int]:
    """A two-person room played on (first legal moves, from both seats) until its first seat is
    to move in a position where ``wanted(match)`` holds: the room, the tokens, that seat."""
    room, tokens = person_room(server, options={"target_score": 100})
    url = server.url.replace("http", "ws") + f"/ws/rooms/{room}"
    with connect(url) as first, connect(url) as second:
        peers = [RemotePeer(first), RemotePeer(second)]
        for peer, token in zip(peers, tokens.values(), strict=True):
            peer.join(token)
        seat = peers[0].seat

        def stop(state: dict[str, Any]) -> bool:
            match = state["match"]
            return bool(match["to_move"] == seat and wanted(match))

        play_until(peers, stop)
    assert seat is not None
    return room, tokens, seat


def sit_down(page: Any, server: Server, room: str, seat: int, token: str) -> None:
    """Open the room in ``page`` as the holder of ``seat`` (its ticket put in the browser's
    storage, as the lobby keeps it) and wait for the connection."""
    page.goto(server.url + "/")
    page.evaluate(
        "([key, ticket]) => localStorage.setItem(key, JSON.stringify(ticket))",
        [f"escoba.ticket.{room}", {"seat": seat, "token": token, "nickname": "Ana", "at": 1}],
    )
    page.goto(server.url + f"/room/{room}")
    page.locator("[data-testid=status][data-state=connected]").wait_for(timeout=20_000)
    page.get_by_test_id("hand-card").first.wait_for(timeout=20_000)
