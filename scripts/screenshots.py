"""Take the web game's screenshots of the docs (python scripts/screenshots.py [--out DIR]).

Starts `escoba serve` on a free port with a fresh database, drives Debian's Chromium with
Playwright through the lobby with two open tables (desktop and phone), a game (desktop and
phone), the score pad after a hand, the history, a replay and its analysis, the score pad for
real cards, a lesson of Learn to play, a puzzle answered, a Scopone game with its 10-card hand
(desktop and phone) and two people at a table with a clock, one greeting the other, and writes
one PNG per screen.
"""

from __future__ import annotations

import argparse
import json
import random
import socket
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import expect, sync_playwright
from websockets.sync.client import connect

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
WAIT = 20_000


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_server(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "escoba", "serve", "--port", str(port), "--pace", "0.1"]
    command += ["--database", f"sqlite:///{folder / 'escoba.db'}"]
    process = subprocess.Popen(command)
    for _ in range(300):
        try:
            if httpx.get(url + "/api/presets", timeout=1).status_code == 200:
                return process, url
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("escoba serve did not start")


def finish_match(url: str, rules: str, players: int) -> dict[str, Any]:
    """A finished match for the history and the replay, played through the protocol; the
    seat ticket of its player (the history lists a browser's own matches)."""
    seats = ["person"] + ["easy"] * (players - 1)
    body = {"nickname": "Ana", "seats": seats, "rules": rules, "players": players}
    body["partnerships"] = players == 4
    ticket = httpx.post(url + "/api/rooms", json=body).json()
    with connect(url.replace("http", "ws") + f"/ws/rooms/{ticket['room']}") as ws:
        ws.send(json.dumps({"type": "join", "token": ticket["token"]}))
        while True:
            message = json.loads(ws.recv(timeout=30))
            if message["type"] != "state":
                continue
            match = message["match"]
            if match["over"]:
                return dict(ticket)
            if match["to_move"] == ticket["seat"] and match["legal"]:
                move = match["legal"][-1]
                ws.send(json.dumps({"type": "play", **{k: move[k] for k in ("card", "captures")}}))


def pick(page: Any, picker: str, value: str) -> None:
    """Choose in a header picker; on a phone they are in the menu, opened first."""
    menu = page.locator(".menu-button")
    if menu.is_visible():
        menu.click()
    page.locator(picker).select_option(value)
    if menu.is_visible() and menu.get_attribute("aria-expanded") == "true":
        menu.click()


def play_cards(page: Any, count: int) -> None:
    for _ in range(count):
        card = page.locator("[data-testid=hand-card][data-moves]").first
        card.wait_for(timeout=WAIT)
        moves = int(card.get_attribute("data-moves") or "1")
        card.click()
        if moves > 1:
            page.get_by_test_id("capture-choice").first.click()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/screenshots"))
    out: Path = parser.parse_args().out
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        process, url = start_server(Path(folder))
        try:
            tickets = [finish_match(url, "scopa", 2), finish_match(url, "escoba", 4)]
            # One of them public, so that the history shows that list too.
            held = {"tokens": [tickets[1]["token"]]}
            (public,) = httpx.post(url + "/api/matches/mine", json=held).json()["matches"]
            httpx.put(url + f"/api/matches/{public['id']}/public", json={**held, "public": True})
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path="/usr/bin/chromium", args=FLAGS
                )
                shoot(browser, url, out, tickets)
                shoot_card_room(browser, url, out)
                shoot_profile(browser, url, out)
                shoot_puzzle(browser, url, out)
                browser.close()
        finally:
            process.terminate()
            process.wait()
    for path in sorted(out.glob("*.png")):
        print(path)


def open_tables(url: str, seated: ExitStack) -> None:
    """Two open tables with their people there: Bea's Scopa with a free seat, and a match of
    Escoba to watch, listed while ``seated`` holds their connections."""
    scopa = {"rules": "scopa", "seats": ["person", "person"], "nickname": "Bea", "listed": True}
    scopa["language"] = "it"
    escoba = {"seats": ["person", "person"], "nickname": "Dino", "listed": True, "language": "es"}
    for body, guest in ((scopa, None), (escoba, "Eva")):
        ticket = httpx.post(url + "/api/rooms", json=body).json()
        tokens = [ticket["token"]]
        if guest is not None:
            joined = httpx.post(url + f"/api/rooms/{ticket['room']}/join", json={"nickname": guest})
            tokens.append(joined.json()["token"])
        for token in tokens:
            address = url.replace("http", "ws") + f"/ws/rooms/{ticket['room']}"
            connection = seated.enter_context(connect(address))
            connection.send(json.dumps({"type": "join", "token": token}))


def seat_page(browser: Any, url: str, room: str, seat: int, token: str, nickname: str) -> Any:
    """A page holding ``seat`` of ``room`` (its ticket put where the lobby keeps it)."""
    page = browser.new_context(viewport=DESKTOP).new_page()
    page.goto(url + "/")
    ticket = {"seat": seat, "token": token, "nickname": nickname, "at": 1}
    page.evaluate(
        "([key, ticket]) => localStorage.setItem(key, JSON.stringify(ticket))",
        [f"escoba.ticket.{room}", ticket],
    )
    page.goto(url + f"/room/{room}")
    page.get_by_test_id("hand-card").first.wait_for(timeout=WAIT)
    return page


def shoot_card_room(browser: Any, url: str, out: Path) -> None:
    """Two people at a table with a clock: Bea's "Good luck!" on Ana's screen, the seat to
    move's time running down."""
    body = {
        "nickname": "Ana",
        "seats": ["person", "person"],
        "clock": {"per_move": 20, "reserve": 60},
    }
    ticket = httpx.post(url + "/api/rooms", json=body).json()
    room = ticket["room"]
    guest = httpx.post(url + f"/api/rooms/{room}/join", json={"nickname": "Bea"}).json()
    ana = seat_page(browser, url, room, ticket["seat"], ticket["token"], "Ana")
    bea = seat_page(browser, url, room, guest["seat"], guest["token"], "Bea")
    bea.get_by_test_id("talk-button").click()
    bea.get_by_test_id("phrase-good_luck").click()
    ana.get_by_test_id("talk-bubble").wait_for(timeout=WAIT)
    ana.wait_for_timeout(2500)  # the clock has run a little
    ana.screenshot(path=out / "game-clock-talk.png")
    bea.close()
    ana.close()


def rated_match(url: str, host: httpx.Client, guest: httpx.Client, seed: int) -> None:
    """A rated match of Escoba between two signed-in people, played to its end through the
    protocol (each seat a random legal move, from ``seed``)."""
    rated = {"rated": True, "listed": True, "clock": {"per_move": 60, "reserve": 600}}
    body = {"nickname": "-", "seats": ["person", "person"], **rated}
    csrf = {"X-CSRF-Token": host.get("/api/account").json()["csrf"]}
    first = host.post("/api/rooms", json=body, headers=csrf).json()
    csrf = {"X-CSRF-Token": guest.get("/api/account").json()["csrf"]}
    second = guest.post(f"/api/rooms/{first['room']}/join", json={"nickname": "-"}, headers=csrf)
    address = url.replace("http", "ws") + f"/ws/rooms/{first['room']}"
    choose = random.Random(seed)
    with connect(address) as one, connect(address) as two:
        sockets = [one, two]
        for socket_, ticket in zip(sockets, [first, second.json()], strict=True):
            socket_.send(json.dumps({"type": "join", "token": ticket["token"]}))
        while True:
            for seat, socket_ in enumerate(sockets):
                try:
                    message = json.loads(socket_.recv(timeout=0.05))
                except TimeoutError:
                    continue
                match = message.get("match") if message["type"] == "state" else None
                if match is None:
                    continue
                if match["over"]:
                    return
                if match["to_move"] == seat and match["legal"]:
                    move = choose.choice(match["legal"])
                    play = {"type": "play", "card": move["card"], "captures": move["captures"]}
                    socket_.send(json.dumps(play))


def shoot_puzzle(browser: Any, url: str, out: Path) -> None:
    """A puzzle in Spanish with Spanish cards after a wrong try: the answer marked on the
    board, named and explained, the rating's change and the streak."""
    from escoba.puzzles import puzzle_by_id

    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.goto(url + "/puzzles")
    page.evaluate(
        "localStorage.setItem('escoba.language', 'es');"
        " localStorage.setItem('escoba.deck', 'spanish')"
    )
    page.reload()
    page.get_by_test_id("hand-card").first.wait_for(timeout=WAIT)
    puzzle = puzzle_by_id(page.get_by_test_id("puzzle").get_attribute("data-id"))
    wrong = next(
        str(move) for move in puzzle.observation().legal_moves if str(move) != puzzle.answer
    )
    page.locator(f"[data-testid=hand-card][data-card='{wrong.split(':', maxsplit=1)[0]}']").click()
    page.locator(f"[data-testid=move-choice][data-move='{wrong}']").click()
    page.get_by_test_id("verdict").wait_for(timeout=WAIT)
    page.wait_for_timeout(300)
    page.screenshot(path=out / "puzzles.png", full_page=True)
    context.close()


def shoot_profile(browser: Any, url: str, out: Path) -> None:
    """Ana's profile after a few rated matches against Bea and Cai: her rating's history as
    a chart, her statistics and last matches."""
    people = {}
    for name in ("Ana", "Bea", "Cai"):
        person = httpx.Client(base_url=url)
        body = {"username": name, "password": "a long secret here"}
        person.post("/api/account/register", json=body).raise_for_status()
        people[name] = person
    for number in range(5):
        rated_match(url, people["Ana"], people["Bea" if number % 2 else "Cai"], number)
    context = browser.new_context(viewport=DESKTOP)
    session = people["Ana"].cookies.get("escoba_session")
    context.add_cookies([{"name": "escoba_session", "value": session, "url": url}])
    page = context.new_page()
    page.goto(url + "/players/Ana")
    page.locator("svg").first.wait_for(timeout=WAIT)
    page.wait_for_timeout(300)
    page.screenshot(path=out / "profile.png")
    context.close()


def shoot(browser: Any, url: str, out: Path, tickets: list[dict[str, Any]]) -> None:
    seated = ExitStack()
    open_tables(url, seated)
    desktop = browser.new_context(viewport=DESKTOP).new_page()
    desktop.goto(url + "/")
    desktop.get_by_test_id("nickname").fill("Ana")
    expect(desktop.get_by_test_id("open-table")).to_have_count(2, timeout=WAIT)
    desktop.evaluate("window.scrollTo(0, 0)")
    desktop.wait_for_timeout(300)
    desktop.screenshot(path=out / "lobby.png")
    phone = browser.new_context(viewport=PHONE).new_page()
    phone.goto(url + "/")
    expect(phone.get_by_test_id("open-table")).to_have_count(2, timeout=WAIT)
    phone.wait_for_timeout(300)
    phone.screenshot(path=out / "lobby-phone.png")
    phone.close()
    seated.close()

    desktop.get_by_test_id("seat-kind-1").select_option("medium")
    desktop.get_by_test_id("create-room").click()
    desktop.wait_for_url("**/room/**", timeout=WAIT)
    desktop.locator("#deck-picker").select_option("spanish")
    play_cards(desktop, 2)
    desktop.locator("[data-testid=hand-card][data-moves]").first.wait_for(timeout=WAIT)
    desktop.wait_for_timeout(800)
    desktop.screenshot(path=out / "game-spanish.png")

    dialog = desktop.get_by_test_id("scorepad-dialog")
    while not dialog.is_visible():
        play_cards(desktop, 1)
        desktop.locator("[data-testid=hand-card][data-moves]").or_(dialog).first.wait_for(
            timeout=WAIT
        )
    desktop.wait_for_timeout(800)
    desktop.screenshot(path=out / "hand-score.png")
    room = desktop.url

    phone = browser.new_context(viewport=PHONE, device_scale_factor=2)
    friend = phone.new_page()
    friend.goto(url + "/")
    pick(friend, "#deck-picker", "italian")
    pick(friend, "#language-picker", "it")
    friend.get_by_test_id("nickname").fill("Bea")
    friend.get_by_test_id("preset").select_option("scopa")
    friend.get_by_test_id("seat-kind-1").select_option("hard")
    friend.get_by_test_id("create-room").click()
    friend.wait_for_url("**/room/**", timeout=WAIT)
    play_cards(friend, 2)
    friend.locator("[data-testid=hand-card][data-moves]").first.wait_for(timeout=WAIT)
    friend.get_by_test_id("hint-button").click()
    friend.get_by_test_id("hint-text").wait_for(state="visible", timeout=WAIT)
    friend.wait_for_timeout(800)
    friend.screenshot(path=out / "game-phone-italian.png")

    # Scopone classico on the phone, in Spanish with Spanish cards: four in partnerships, the
    # partner's seat tagged, nothing wider than the screen.
    pick(friend, "#language-picker", "es")
    pick(friend, "#deck-picker", "spanish")
    friend.goto(url + "/")
    friend.get_by_test_id("nickname").fill("Bea")
    friend.get_by_test_id("preset").select_option("scopone-classico")
    for seat in (1, 2, 3):
        friend.get_by_test_id(f"seat-kind-{seat}").select_option("medium")
    friend.get_by_test_id("create-room").click()
    friend.wait_for_url("**/room/**", timeout=WAIT)
    card = friend.locator("[data-testid=hand-card][data-moves]").first
    card.wait_for(timeout=WAIT)
    moves = int(card.get_attribute("data-moves") or "1")
    card.click(position={"x": 12, "y": 40})  # the hand's cards overlap: near the left edge
    if moves > 1:
        friend.get_by_test_id("capture-choice").first.click()
    expect(friend.get_by_test_id("hand-card")).to_have_count(8, timeout=WAIT)
    friend.locator("[data-testid=hand-card][data-moves]").first.wait_for(timeout=WAIT)
    friend.get_by_test_id("partner-tag").wait_for(timeout=WAIT)
    friend.wait_for_timeout(800)
    friend.screenshot(path=out / "game-phone-scopone.png")

    for ticket in tickets:  # the browser holds the finished matches' seats, as its player's does
        desktop.evaluate(
            "([key, ticket]) => localStorage.setItem(key, JSON.stringify(ticket))",
            [f"escoba.ticket.{ticket['room']}", {"seat": ticket["seat"], "token": ticket["token"]}],
        )
    desktop.goto(url + "/history")
    desktop.get_by_test_id("history-row").first.wait_for(timeout=WAIT)
    desktop.get_by_test_id("public-row").first.wait_for(timeout=WAIT)
    desktop.screenshot(path=out / "history.png")
    desktop.get_by_test_id("history-row").first.click()
    desktop.get_by_test_id("replay-step").wait_for(timeout=WAIT)
    for _ in range(9):
        desktop.get_by_test_id("replay-next").click()
    desktop.wait_for_timeout(300)
    desktop.screenshot(path=out / "replay.png")

    # The match's analysis (the server's own budget: it takes a while), the replay taken to
    # the first costly move and the page scrolled to show the analysis under the controls.
    desktop.goto(desktop.url.split("#")[0] + "?analyse=1")
    desktop.locator("[data-testid=analysis][data-status=done]").wait_for(timeout=600_000)
    marks = desktop.get_by_test_id("analysis-mark")
    if marks.count():
        marks.first.click()
    desktop.evaluate(
        """() => {
          const controls = document.getElementById("replay-controls").getBoundingClientRect();
          const top = document.getElementById("analysis-section").getBoundingClientRect().top;
          window.scrollTo(0, top + window.scrollY - controls.height - 8);
        }"""
    )
    desktop.wait_for_timeout(300)
    desktop.screenshot(path=out / "replay-analysis.png")

    desktop.goto(url + "/scorepad")
    desktop.get_by_test_id("side-name-0").fill("Ana & Bea")
    desktop.get_by_test_id("side-name-1").fill("Carlos & Dani")
    for cards, coins, seven, winner, sweeps in ((24, 6, 0, 0, (1, 0)), (17, 3, 1, 1, (0, 2))):
        desktop.get_by_test_id("entry-cards-0").fill(str(cards))
        desktop.get_by_test_id("entry-coins-0").fill(str(coins))
        desktop.get_by_test_id(f"entry-seven_of_coins-{seven}").check()
        desktop.get_by_test_id(f"entry-sevens_winner-{winner}").check()
        desktop.get_by_test_id("entry-sweeps-0").fill(str(sweeps[0]))
        desktop.get_by_test_id("entry-sweeps-1").fill(str(sweeps[1]))
        desktop.get_by_test_id("save-hand").click()
        desktop.wait_for_timeout(400)
    desktop.screenshot(path=out / "scorepad.png")

    # The first lesson with French cards, in French, after a wrong try.
    desktop.locator("#deck-picker").select_option("french")
    desktop.locator("#language-picker").select_option("fr")
    desktop.goto(url + "/learn")
    desktop.get_by_test_id("step").wait_for(timeout=WAIT)
    desktop.get_by_test_id("next").click()
    for card in ("[data-testid=hand-card][data-card='4h']", "[data-card='As']", "[data-card='3h']"):
        desktop.locator(card).first.click()
    desktop.get_by_test_id("play").click()
    desktop.wait_for_timeout(400)
    desktop.screenshot(path=out / "learn-french.png", full_page=True)

    # Scopone scientifico in Italian with Italian cards: four in partnerships, a 10-card hand
    # (its cards overlap: clicked near their left edge), the hint open.
    desktop.locator("#deck-picker").select_option("italian")
    desktop.locator("#language-picker").select_option("it")
    desktop.goto(url + "/")
    desktop.get_by_test_id("nickname").fill("Ana")
    desktop.get_by_test_id("preset").select_option("scopone-scientifico")
    for seat in (1, 2, 3):
        desktop.get_by_test_id(f"seat-kind-{seat}").select_option("easy")
    desktop.get_by_test_id("create-room").click()
    desktop.wait_for_url("**/room/**", timeout=WAIT)
    playable = desktop.locator("[data-testid=hand-card][data-moves]")
    playable.first.wait_for(timeout=WAIT)
    if (
        desktop.get_by_test_id("hand-card").count() == 10
        and desktop.locator("#table-cards .card-slot").count() == 0
    ):
        playable.first.click(position={"x": 12, "y": 40})  # something on the table first
        if desktop.get_by_test_id("capture-choice").count():
            desktop.get_by_test_id("capture-choice").first.click()
        expect(desktop.get_by_test_id("hand-card")).to_have_count(9, timeout=WAIT)
        playable.first.wait_for(timeout=WAIT)
    desktop.get_by_test_id("hint-button").click()
    desktop.get_by_test_id("hint-text").wait_for(state="visible", timeout=WAIT)
    desktop.wait_for_timeout(800)
    desktop.screenshot(path=out / "game-scopone.png")
    desktop.goto(room)


if __name__ == "__main__":
    main()
