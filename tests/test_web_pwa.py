"""The installable web app: the manifest and its icons (drawn by scripts/icons.py), the service
worker's list of what it keeps, and in Chromium: pages that open from the worker's copies while
the server is stopped, saying so, with the game's actions disabled and no API answer served
from a cache."""

from __future__ import annotations

import importlib.util
import json
import struct
import sys
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import expect

from escoba.catalogue import LANGUAGES
from escoba.server.config import Settings
from escoba.server.http.app import WEB, create_app
from escoba.server.offline import service_worker
from test_web_history import finish_a_match, hold
from web_browser import Server

TIMEOUT = 20_000  # ms
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Any:
    database = tmp_path_factory.mktemp("pwa") / "escoba.db"
    with TestClient(create_app(Settings(database_url=f"sqlite:///{database}", pace=0))) as client:
        yield client


def test_the_manifest_makes_the_game_installable(client: TestClient) -> None:
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/manifest+json")
    manifest = response.json()
    assert manifest["name"] and manifest["short_name"]
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["theme_color"].startswith("#")
    sizes = set()
    for icon in manifest["icons"]:
        answer = client.get(icon["src"])
        assert answer.status_code == 200, icon["src"]
        assert answer.headers["content-type"].startswith(icon["type"])
        if icon["type"] == "image/png":
            assert answer.content[:8] == b"\x89PNG\r\n\x1a\n"
            width, height = struct.unpack(">II", answer.content[16:24])
            assert icon["sizes"] == f"{width}x{height}"
            sizes.add(width)
    assert {192, 512} <= sizes, "an installable app needs 192 and 512 pixel icons"
    assert any("maskable" in icon.get("purpose", "") for icon in manifest["icons"])
    for page in ("/", "/history", "/scorepad", "/learn", "/room/x", "/replay/1"):
        html = client.get(page).text
        assert '<link rel="manifest" href="/manifest.webmanifest">' in html, page
        assert '<meta name="theme-color"' in html, page


@pytest.mark.slow
def test_the_icons_are_the_ones_the_script_draws() -> None:
    spec = importlib.util.spec_from_file_location("icons", ROOT / "scripts" / "icons.py")
    assert spec is not None and spec.loader is not None
    icons = importlib.util.module_from_spec(spec)
    sys.modules["icons"] = icons  # its dataclasses look their module up
    spec.loader.exec_module(icons)
    for path, data in icons.drawn().items():
        assert path.read_bytes() == data, f"{path.name}: run python scripts/icons.py"


def worker_config(script: bytes) -> dict[str, Any]:
    head, _, _ = script.partition(b"\n")
    prefix, suffix = b"self.ESCOBA_OFFLINE = ", b";"
    assert head.startswith(prefix) and head.endswith(suffix)
    config: dict[str, Any] = json.loads(head[len(prefix) : -len(suffix)])
    return config


def test_the_service_worker_keeps_every_page_file_and_the_texts(client: TestClient) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/javascript")
    assert response.headers["cache-control"] == "no-cache"
    config = worker_config(response.content)
    assert response.content.endswith((WEB / "sw.js").read_bytes())
    kept = set(config["files"])
    for path in WEB.iterdir():
        if path.name != "sw.js":
            assert f"/static/{path.name}" in kept, path.name
    assert {f"/api/texts?language={language}" for language in LANGUAGES} <= kept
    assert not any(f.startswith("/api/") and not f.startswith("/api/texts?") for f in kept)
    for file in kept:  # everything kept answers, or the worker would not install
        assert client.get(file).status_code == 200, file
    pages = config["pages"]
    assert pages["/"] == "/static/index.html"
    assert pages["/history"] == "/static/history.html"
    assert pages["/room/"] == "/static/room.html"
    assert pages["/replay/"] == "/static/replay.html"


def test_a_changed_file_is_a_new_version(tmp_path: Path) -> None:
    web, locale = tmp_path / "web", tmp_path / "locale"
    web.mkdir()
    (locale / "en").mkdir(parents=True)
    (web / "sw.js").write_text("// the worker\n")
    (web / "index.html").write_text("<p>one</p>")
    (locale / "en" / "web.mo").write_bytes(b"texts")
    pages = {"/": "index.html"}
    first = worker_config(service_worker(web, locale, pages))
    assert first["files"][0] == "/static/index.html"
    assert worker_config(service_worker(web, locale, pages)) == first
    (web / "index.html").write_text("<p>two</p>")
    second = worker_config(service_worker(web, locale, pages))
    assert second["version"] != first["version"]
    (locale / "en" / "web.mo").write_bytes(b"other texts")
    assert worker_config(service_worker(web, locale, pages))["version"] != second["version"]


ACTIVE_WORKER = """async () => {
  const registration = await navigator.serviceWorker.getRegistration();
  return registration?.active?.state === "activated";
}"""

# Whether the worker's copies hold the lessons (the browser's own HTTP cache may too, briefly).
KEPT_LESSONS = """async () => {
  for (const name of await caches.keys()) {
    for (const request of await (await caches.open(name)).keys()) {
      if (new URL(request.url).pathname === "/api/tutorial") return true;
    }
  }
  return false;
}"""


def test_pages_open_without_the_server_and_say_so(context: Any, tmp_path: Path) -> None:
    """Open the history and a replay of one's match (in German), then the lobby; stop the
    server, reload: the pages come from the worker's copies, in German, with the notice;
    playing is disabled and an API answer is never served from a cache, but the match last
    seen is listed and replays, and the lessons opened before are there; the server back, the
    notice goes."""
    server = Server(tmp_path)
    server.start()
    try:
        room, ticket, match_id = finish_a_match(server)
        page = context.new_page()  # no watch for console errors: failed requests are expected
        hold(page, server, room, ticket)
        page.evaluate("() => localStorage.setItem('escoba.language', 'de')")
        page.goto(server.url + "/history")
        row = page.locator(f"[data-testid=history-row][data-match='{match_id}']")
        row.wait_for(timeout=TIMEOUT)
        row.click()
        page.get_by_test_id("replay-step").wait_for(timeout=TIMEOUT)
        page.goto(server.url + "/")
        # The worker installs in the background, keeping every page file first (slow on a
        # loaded machine): wait until it is active, and load the page again under it if it
        # became active too late to take this page.
        page.wait_for_function(ACTIVE_WORKER, timeout=3 * TIMEOUT, polling=250)
        if not page.evaluate("() => navigator.serviceWorker.controller !== null"):
            page.reload()
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=TIMEOUT)
        expect(page.get_by_test_id("offline-banner")).to_be_hidden()
        expect(page.get_by_test_id("create-room")).to_be_enabled()
        page.goto(server.url + "/learn")
        expect(page.get_by_test_id("progress")).to_contain_text("1", timeout=TIMEOUT)
        assert page.evaluate(KEPT_LESSONS), "the worker keeps the lessons it fetched"
        page.goto(server.url + "/")
        server.stop()

        page.reload()
        banner = page.get_by_test_id("offline-banner")
        expect(banner).to_be_visible(timeout=TIMEOUT)
        assert "Server ist nicht erreichbar" in banner.inner_text()
        assert page.locator("h1").inner_text().strip() not in ("", "lobby.title")
        expect(page.get_by_test_id("create-room")).to_be_disabled()
        answered = page.evaluate(
            "() => fetch('/api/presets').then(() => 'answered', () => 'failed')"
        )
        assert answered == "failed", "an API request must never be answered from a cache"

        page.goto(server.url + "/history")
        expect(page.get_by_test_id("offline-banner")).to_be_visible(timeout=TIMEOUT)
        expect(page.get_by_test_id("history-saved")).to_be_visible()  # the list last seen
        row.wait_for(timeout=TIMEOUT)
        expect(row.get_by_test_id("history-public")).to_be_disabled()
        row.click()
        page.get_by_test_id("replay-step").wait_for(timeout=TIMEOUT)  # the replay kept
        page.goto(server.url + "/room/not-reachable")
        expect(page.get_by_test_id("offline-banner")).to_be_visible(timeout=TIMEOUT)
        page.goto(server.url + "/learn")  # the lessons, once opened, are kept
        expect(page.get_by_test_id("offline-banner")).to_be_visible(timeout=TIMEOUT)
        expect(page.get_by_test_id("progress")).to_contain_text("1", timeout=TIMEOUT)
        expect(page.get_by_test_id("load-error")).to_be_hidden()

        server.start()
        page.goto(server.url + "/")
        expect(page.get_by_test_id("create-room")).to_be_enabled(timeout=TIMEOUT)
        expect(page.get_by_test_id("offline-banner")).to_be_hidden()
    finally:
        server.stop()
