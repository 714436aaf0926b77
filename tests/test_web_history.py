"""Browser tests of "Your matches" (/history): a browser lists the finished matches of the seats
it holds, with their statistics, and replays them; another browser sees none of them until a
player makes one public with the switch in its row."""

from __future__ import annotations

import re
from typing import Any

import httpx
from playwright.sync_api import expect
from websockets.sync.client import connect

from server_helpers import RemotePeer, play_until
from web_browser import Server

TIMEOUT = 20_000  # ms


def finish_a_match(server: Server) -> tuple[str, dict[str, Any], int]:
    """Ana's whole match against a beginner (to 1 point), played over the protocol: its room,
    Ana's ticket and the match id."""
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
    (match,) = httpx.post(server.url + "/api/matches/mine", json=held).json()["matches"]
    return ticket["room"], ticket, int(match["id"])


def hold(page: Any, server: Server, room: str, ticket: dict[str, Any]) -> None:
    """Keep the seat's ticket in the page's browser, as the lobby does when a room is made."""
    page.goto(server.url + "/")
    page.evaluate(
        "([key, ticket]) => localStorage.setItem(key, JSON.stringify(ticket))",
        [f"escoba.ticket.{room}", {"seat": ticket["seat"], "token": ticket["token"], "at": 1}],
    )


def test_your_matches_list_count_and_replay(page: Any, server: Server) -> None:
    room, ticket, match_id = finish_a_match(server)
    hold(page, server, room, ticket)
    page.goto(server.url + "/history")
    row = page.locator(f"[data-testid=history-row][data-match='{match_id}']")
    row.wait_for(timeout=TIMEOUT)
    assert "Ana" in row.inner_text()
    # The statistics: one match against a beginner, and the total.
    expected = httpx.post(
        server.url + "/api/matches/mine", json={"tokens": [ticket["token"]]}
    ).json()
    for kind, line in (("beginner", expected["by_opponents"][0]), ("all", expected["total"])):
        stats = page.locator(f"[data-testid=stats-row][data-opponents='{kind}']")
        for name in ("matches", "wins", "points", "sweeps"):
            shown = stats.locator(f"[data-stat={name}]").inner_text()
            assert shown == str(line[name]), (kind, name)
    assert expected["total"]["matches"] == 1
    expect(page.get_by_test_id("public-empty")).to_be_visible()
    row.click()
    page.wait_for_url(re.compile(rf"/replay/{match_id}"), timeout=TIMEOUT)
    step = page.get_by_test_id("replay-step")
    step.wait_for(timeout=TIMEOUT)
    first = step.inner_text()
    assert re.search(r"1\s*/\s*\d+", first)
    # Every hand is open in a replay: both seats show their three cards at the start.
    for seat in (0, 1):
        hand = page.locator(f"[data-testid=replay-hand][data-seat='{seat}'] svg.card")
        assert hand.count() == 3
    page.get_by_test_id("replay-next").click()
    assert page.get_by_test_id("replay-step").inner_text() != first
    assert page.get_by_test_id("replay-event").inner_text().strip()
    page.get_by_test_id("replay-last").click()
    page.get_by_test_id("replay-result").wait_for(timeout=TIMEOUT)


def test_other_browsers_see_a_match_once_made_public(
    page: Any, chromium: Any, server: Server
) -> None:
    room, ticket, match_id = finish_a_match(server)
    other = chromium.new_context(viewport={"width": 390, "height": 844})
    try:
        stranger = other.new_page()
        stranger.goto(server.url + "/history")
        expect(stranger.get_by_test_id("history-empty")).to_be_visible(timeout=TIMEOUT)
        mine = stranger.locator(f"[data-testid=history-row][data-match='{match_id}']")
        assert mine.count() == 0
        stranger.goto(server.url + f"/replay/{match_id}")
        expect(stranger.get_by_test_id("replay-error")).to_be_visible(timeout=TIMEOUT)
        assert "Ana" not in stranger.locator("main").inner_text()

        hold(page, server, room, ticket)
        page.goto(server.url + "/history")
        switch = page.locator(
            f"[data-testid=history-row][data-match='{match_id}'] [data-testid=history-public]"
        )
        switch.wait_for(timeout=TIMEOUT)
        expect(switch).not_to_be_checked()
        switch.check()
        public_row = page.locator(f"[data-testid=public-row][data-match='{match_id}']")
        public_row.wait_for(timeout=TIMEOUT)
        expect(switch).to_be_checked()
        expect(switch).to_be_focused()

        stranger.goto(server.url + "/history")
        stranger.locator(f"[data-testid=public-row][data-match='{match_id}']").wait_for(
            timeout=TIMEOUT
        )
        stranger.goto(server.url + f"/replay/{match_id}")
        stranger.get_by_test_id("replay-step").wait_for(timeout=TIMEOUT)

        switch.uncheck()
        public_row.wait_for(state="detached", timeout=TIMEOUT)
        stranger.goto(server.url + f"/replay/{match_id}")
        expect(stranger.get_by_test_id("replay-error")).to_be_visible(timeout=TIMEOUT)
    finally:
        other.close()
