"""Browser tests of a match's analysis on the replay page (/replay/<id>): asked for there, from
the history page or at the end of the match, it shows the evaluation graph with a point per
move and a mark per costly move as the server's analysis has them, each player's accuracy and
counts, and the costly moves named in the reader's deck and language; a mark or an entry moves
the replay to its move, and the graph fits a phone's screen.

The server analyses with a tiny budget (a match in well under a second) and the page asks
again every 50 ms (?poll=50) instead of every two seconds."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect
from websockets.sync.client import connect

from server_helpers import RemotePeer, play_until
from test_web_a11y import audit
from web_browser import Server

pytestmark = pytest.mark.slow

TIMEOUT = 20_000  # ms
COSTLY = ("inaccuracy", "mistake", "blunder")
SPANISH_SUITS = re.compile(r"\bde (oros|copas|espadas|bastos)\b")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose analyses search a few hundred positions a move."""
    running = Server(
        tmp_path_factory.mktemp("serve"),
        options=("--analysis-budget", "300", "--analysis-min-deals", "2"),
    )
    running.start()
    yield running
    running.stop()


def finished_match(server: Server) -> tuple[str, dict[str, Any], int]:
    """Ana's whole match against a beginner (to 1 point), played over the protocol with the
    first legal move each turn: its room, Ana's ticket and the match's id."""
    made = httpx.post(
        server.url + "/api/rooms",
        json={"nickname": "Ana", "seats": ["person", "beginner"], "options": {"target_score": 1}},
    )
    assert made.status_code == 201, made.text
    ticket = made.json()
    with connect(server.url.replace("http", "ws") + f"/ws/rooms/{ticket['room']}") as socket:
        peer = RemotePeer(socket)
        peer.join(ticket["token"])
        play_until([peer], lambda state: state["match"]["over"])
    held = {"tokens": [ticket["token"]]}
    matches = httpx.post(server.url + "/api/matches/mine", json=held).json()["matches"]
    return ticket["room"], ticket, int(matches[0]["id"])


def analysis(server: Server, match_id: int, token: str, language: str = "es") -> dict[str, Any]:
    """The match's analysis once done, as the server answers it (asked for, then read)."""
    body = {"tokens": [token], "language": language, "deck": "spanish"}
    url = server.url + f"/api/matches/{match_id}/analysis"
    for _ in range(400):
        answer = httpx.post(url, json=body)
        assert answer.status_code == 200, answer.text
        if answer.json()["status"] == "done":
            return dict(answer.json())
        httpx.get(server.url + "/api/presets")  # a round trip between two asks
    raise AssertionError(f"the analysis of match {match_id} did not finish: {answer.json()}")


def analysed_match_with_costly_moves(server: Server) -> tuple[str, dict[str, Any], int]:
    """A finished match whose analysis has a costly move (most have, played this way)."""
    for _ in range(6):
        room, ticket, match_id = finished_match(server)
        done = analysis(server, match_id, ticket["token"])
        if any(move["judgement"] in COSTLY for move in done["moves"]):
            return room, ticket, match_id
    raise AssertionError("six matches played without a costly move")


def hold(page: Any, server: Server, room: str, ticket: dict[str, Any], language: str) -> None:
    """Ana's seat's ticket in the page's browser, as the lobby keeps it, and her language."""
    page.goto(server.url + "/")
    page.evaluate(
        "([key, ticket, language]) => {"
        " localStorage.setItem(key, JSON.stringify(ticket));"
        " localStorage.setItem('escoba.language', language); }",
        [
            f"escoba.ticket.{room}",
            {"seat": ticket["seat"], "token": ticket["token"], "nickname": "Ana", "at": 1},
            language,
        ],
    )


def wait_done(page: Any) -> None:
    page.locator("[data-testid=analysis][data-status=done]").wait_for(timeout=TIMEOUT)


def test_the_graph_marks_and_list_follow_the_analysis(
    chromium: Any, server: Server, axe_script: Path
) -> None:
    # The pages' Content-Security-Policy forbids injected scripts: the audit's own is let in.
    context = chromium.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        graph_marks_and_list(page, server, axe_script)
        assert not errors, errors
    finally:
        context.close()


def graph_marks_and_list(page: Any, server: Server, axe_script: Path) -> None:
    room, ticket, match_id = analysed_match_with_costly_moves(server)
    done = analysis(server, match_id, ticket["token"])
    replay = httpx.post(
        server.url + f"/api/matches/{match_id}/replay", json={"tokens": [ticket["token"]]}
    ).json()
    hold(page, server, room, ticket, "es")
    page.goto(server.url + f"/replay/{match_id}?analyse=1&poll=50")
    wait_done(page)

    # A point per move, a mark per costly move, at the steps the server names.
    moves = done["moves"]
    costly = [move for move in moves if move["judgement"] in COSTLY]
    graph = page.get_by_test_id("analysis-graph")
    expect(graph).to_be_visible()
    assert graph.get_attribute("data-points") == str(len(moves))
    points = page.get_by_test_id("analysis-point")
    assert points.count() == len(moves)
    marks = page.get_by_test_id("analysis-mark")
    assert marks.count() == len(costly)
    shown = [(m.get_attribute("data-step"), m.get_attribute("data-judgement")) for m in marks.all()]
    assert shown == [(str(move["step"]), move["judgement"]) for move in costly]
    for mark in marks.all():
        assert mark.locator("title").text_content(), "a mark says what it marks"

    # Each player's accuracy and counts, as the server counted them.
    for player in done["players"]:
        row = page.locator(f"[data-testid=analysis-player][data-seat='{player['seat']}']")
        for judgement in COSTLY:
            cell = row.locator(f"[data-count={judgement}]")
            assert cell.inner_text() == str(player["counts"][judgement]), (player, judgement)
        if player["accuracy"] is not None:
            assert str(round(player["accuracy"])) in row.inner_text()

    # The costly moves in Spanish, the cards named in the Spanish deck, with the server's words.
    entries = page.get_by_test_id("analysis-mistake")
    assert entries.count() == len(costly)
    for entry, move in zip(entries.all(), costly, strict=True):
        words = entry.inner_text()
        assert SPANISH_SUITS.search(words), words
        assert not re.search("[♦♥♠♣]", words), words
        assert move["text"] and move["text"] in words
        assert f"Mano {move['hand_number'] + 1}" in words

    # A mark moves the replay to its move: the step, the address and the board.
    target = costly[-1]
    page.locator(f"[data-testid=analysis-mark][data-step='{target['step']}']").click()
    steps = len(replay["steps"])
    expect(page.get_by_test_id("replay-step")).to_have_text(f"paso {target['step'] + 1} / {steps}")
    assert page.url.endswith(f"#step={target['step'] + 1}")
    position = replay["steps"][target["step"]]
    table = page.locator("[data-testid=replay-table] svg.card")
    assert table.count() == len(position["table"])
    for seat, hand in enumerate(position["hands"]):
        held = page.locator(f"[data-testid=replay-hand][data-seat='{seat}'] svg.card")
        assert held.count() == len(hand)
    # Beside the board, the costly move the replay is at; the graph's line is there too.
    current = page.get_by_test_id("analysis-current")
    expect(current).to_be_visible()
    assert current.get_attribute("data-step") == str(target["step"])
    assert target["text"] in current.inner_text()
    assert page.get_by_test_id("analysis-now").get_attribute("data-step") == str(target["step"])
    chosen = page.locator(f"[data-testid=analysis-mistake][data-step='{target['step']}'] button")
    expect(chosen).to_have_attribute("aria-current", "step")

    # An entry of the list moves it too; a move that cost nothing shows no entry beside the board.
    first = costly[0]
    page.locator(f"[data-testid=analysis-mistake][data-step='{first['step']}'] button").click()
    expect(page.get_by_test_id("replay-step")).to_have_text(f"paso {first['step'] + 1} / {steps}")
    page.get_by_test_id("replay-first").click()
    expect(current).to_be_hidden()

    audit(page, axe_script, "a replay with its analysis")


def test_the_graph_fits_a_phone(chromium: Any, server: Server) -> None:
    room, ticket, match_id = finished_match(server)
    phone = chromium.new_context(viewport={"width": 390, "height": 844})
    try:
        page = phone.new_page()
        hold(page, server, room, ticket, "en")
        page.goto(server.url + f"/replay/{match_id}?analyse=1&poll=50")
        wait_done(page)
        graph = page.get_by_test_id("analysis-graph")
        graph.scroll_into_view_if_needed()
        box = graph.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
        wide = page.evaluate("document.scrollingElement.scrollWidth")
        assert wide <= 390, f"the page scrolls sideways on a phone ({wide} px)"
    finally:
        phone.close()


def test_analyse_from_the_history_page_and_the_end_of_the_match(page: Any, server: Server) -> None:
    room, ticket, match_id = finished_match(server)
    hold(page, server, room, ticket, "en")

    # The history page: each finished match has an "Analyse" link to its replay, asking for it.
    page.goto(server.url + "/history")
    link = page.locator(
        f"[data-testid=history-row][data-match='{match_id}'] [data-testid=history-analyse]"
    )
    link.click()
    page.wait_for_url(re.compile(rf"/replay/{match_id}\?analyse=1$"), timeout=TIMEOUT)
    page.locator("[data-testid=analysis]:not([data-status=none])").wait_for(timeout=TIMEOUT)
    wait_done(page)  # asked again every two seconds until done
    expect(page.get_by_test_id("analysis-graph")).to_be_visible()

    # The end of a match in the game: "Analyse" beside the rematch opens the same.
    page.goto(server.url + f"/room/{room}")
    button = page.get_by_test_id("analyse-button")
    expect(button).to_be_visible(timeout=TIMEOUT)
    button.click()
    page.wait_for_url(re.compile(rf"/replay/{match_id}\?analyse=1$"), timeout=TIMEOUT)
    wait_done(page)
    assert page.get_by_test_id("analysis-point").count() > 0


def test_a_match_not_yet_analysed_offers_the_button(page: Any, server: Server) -> None:
    room, ticket, match_id = finished_match(server)
    hold(page, server, room, ticket, "fr")
    page.goto(server.url + f"/replay/{match_id}?poll=50")
    section = page.locator("[data-testid=analysis][data-status=none]")
    section.wait_for(timeout=TIMEOUT)
    # Nothing was asked for by opening the replay.
    state = httpx.get(server.url + f"/api/matches/{match_id}/analysis")
    assert state.status_code == 404 or state.json()["status"] == "none"
    request = page.get_by_test_id("analysis-request")
    expect(request).to_have_text("Analyser")
    request.click()
    wait_done(page)
    # Opened again, the match this browser asked to analyse shows its analysis at once.
    page.goto(server.url + f"/replay/{match_id}")
    wait_done(page)
    assert page.get_by_test_id("analysis-mistakes").is_visible()


def test_progress_is_shown_until_the_analysis_is_done(page: Any, server: Server) -> None:
    room, ticket, match_id = finished_match(server)
    total = len(analysis(server, match_id, ticket["token"], "en")["moves"])
    hold(page, server, room, ticket, "en")
    answers: list[str] = []

    def halfway(route: Any) -> None:
        # The server's first two answers, as if it were still working: the page shows how far
        # it has got and asks again.
        answer = route.fetch()
        body = answer.json()
        if len(answers) < 2:
            body = {**body, "status": "running", "done": 3, "moves": body["moves"][:3]}
        answers.append(body["status"])
        route.fulfill(response=answer, json=body)

    page.route(f"**/api/matches/{match_id}/analysis", halfway)
    page.goto(server.url + f"/replay/{match_id}?analyse=1&poll=300")
    expect(page.get_by_test_id("analysis-progress")).to_have_text(
        f"Analysing… 3 / {total} moves", timeout=TIMEOUT
    )
    wait_done(page)
    assert answers[:3] == ["running", "running", "done"]
    assert page.get_by_test_id("analysis-point").count() == total
