"""The room page's Take back button, in a real Chromium against `escoba serve` (see
``web_browser.py``): shown only where every other seat is a computer, enabled once the person
has a move in the hand, and a click (or the u key) gives the card back and the turn."""

from __future__ import annotations

from typing import Any

import httpx
from playwright.sync_api import expect

from web_browser import Server

TIMEOUT = 20_000  # ms


def seated(page: Any, server: Server, seats: list[str]) -> dict[str, Any]:
    """A new room with these seats, Ana in the first person seat, open in ``page`` with her
    ticket (kept in the browser's storage, as the lobby keeps it): her ticket."""
    made = httpx.post(server.url + "/api/rooms", json={"nickname": "Ana", "seats": seats})
    assert made.status_code == 201, made.text
    ticket: dict[str, Any] = made.json()
    page.goto(server.url + "/")
    page.evaluate(
        "([key, ticket]) => localStorage.setItem(key, JSON.stringify(ticket))",
        [f"escoba.ticket.{ticket['room']}", {**ticket, "nickname": "Ana", "at": 1}],
    )
    page.goto(server.url + ticket["invite"])
    page.locator("[data-testid=status][data-state=connected]").wait_for(timeout=TIMEOUT)
    page.get_by_test_id("hand-card").first.wait_for(timeout=TIMEOUT)
    return ticket


def hand(page: Any) -> list[str]:
    cards = page.get_by_test_id("hand-card").evaluate_all("els => els.map(e => e.dataset.card)")
    return sorted(cards)


def play_a_card(page: Any) -> str:
    """Click the first playable card (and the first capture set, if asked); once it has left
    the hand, the card."""
    playable = page.locator("[data-testid=hand-card][data-moves]").first
    card = str(playable.get_attribute("data-card"))
    moves = int(playable.get_attribute("data-moves") or "1")
    playable.click()
    if moves > 1:
        page.get_by_test_id("capture-choice").first.click()
    page.locator(f'[data-testid=hand-card][data-card="{card}"]').wait_for(
        state="detached", timeout=TIMEOUT
    )
    return card


def test_take_back_gives_the_card_back_and_the_turn(page: Any, server: Server) -> None:
    ticket = seated(page, server, ["person", "beginner"])
    button = page.get_by_test_id("take-back")
    expect(button).to_be_visible()
    expect(button).to_have_text("Take back")

    page.locator("[data-testid=hand-card][data-moves]").first.wait_for(timeout=TIMEOUT)
    expect(button).to_be_disabled()  # our turn, and no move of ours in this hand yet
    before = hand(page)
    turn = page.get_by_test_id("turn-indicator")
    for take_back in (button.click, lambda: page.keyboard.press("u")):
        card = play_a_card(page)
        # the computer answers, then it is our turn again, with a move to take back
        page.locator("[data-testid=hand-card][data-moves]").first.wait_for(timeout=TIMEOUT)
        expect(button).to_be_enabled()
        take_back()
        page.locator(f'[data-testid=hand-card][data-card="{card}"]').wait_for(timeout=TIMEOUT)
        assert hand(page) == before
        expect(turn).to_have_attribute("data-seat", str(ticket["seat"]))
        playable = f'[data-testid=hand-card][data-card="{card}"][data-moves]'
        expect(page.locator(playable)).to_have_count(1)
        expect(button).to_be_disabled()


def test_no_take_back_between_friends(page: Any, server: Server) -> None:
    seated(page, server, ["person", "person"])
    expect(page.get_by_test_id("take-back")).to_be_hidden()
