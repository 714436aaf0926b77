"""The pages' layout in a real Chromium (see ``web_browser.py``), at the two sizes a newcomer
played at: a 1280x800 laptop, where the table should use the room, and a 390x844 phone, where
nothing may scroll sideways, the header takes one compact row, the seats' names are read whole,
your partner is marked, and the capture choice and the hint open where they can be seen.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from escoba.rules import RULESETS
from web_browser import FREE_LIMITS, Server, room_where, seat_state, sit_down

TIMEOUT = 20_000  # ms
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}

# Every preset four at the table in partnerships (the longest names: two in each total), and
# the other seatings with Escoba's and Scopone's (no stock, a hand of 9 or 10 cards).
SEATINGS = [(rules, 4, True) for rules in RULESETS] + [
    ("escoba", 2, False),
    ("escoba", 3, False),
    ("escoba", 4, False),
    ("scopone-scientifico", 2, False),
    ("scopone-classico", 4, False),
]

# What a person sees of the page: whether it scrolls sideways, the header's height, and each
# seat's name, cut short or whole.
MEASURE = """
() => ({
  scrollWidth: document.documentElement.scrollWidth,
  width: innerWidth,
  header: document.querySelector("#site-header").getBoundingClientRect().height,
  cut: [...document.querySelectorAll(".seat:not([hidden]) .seat-name")]
    .filter((name) => name.getClientRects().length && name.scrollWidth > name.clientWidth + 1)
    .map((name) => name.innerText),
})
"""

INSIDE = """
(selector) => {
  const box = document.querySelector(selector).getBoundingClientRect();
  return box.height > 0 && box.top >= 0 && box.bottom <= innerHeight;
}
"""


def inside_soon(page: Any, selector: str) -> bool:
    """Whether the element is inside the window within a second (it may scroll there)."""
    deadline = time.monotonic() + 1
    while not page.evaluate(INSIDE, selector):
        if time.monotonic() > deadline:
            return False
        page.wait_for_timeout(50)
    return True


@pytest.fixture(scope="module")
def layout_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("layout"), limits=FREE_LIMITS)
    running.start()
    yield running
    running.stop()


@pytest.fixture
def phone(chromium: Any) -> Iterator[Any]:
    made = chromium.new_context(viewport=PHONE, reduced_motion="reduce")
    yield made.new_page()
    made.close()


def open_computer_room(
    page: Any, server: Server, rules: str, players: int, partnerships: bool
) -> None:
    """Opens a room of the player and medium computers (whose seats have the longest names),
    and waits for the player's turn."""
    seats = ["person"] + ["medium"] * (players - 1)
    body = {"nickname": "Ana", "players": players, "seats": seats, "rules": rules}
    made = httpx.post(server.url + "/api/rooms", json={**body, "partnerships": partnerships})
    assert made.status_code == 201, made.text
    ticket = made.json()
    page.goto(server.url + "/")
    page.evaluate(
        "([key, ticket]) => localStorage.setItem(key, JSON.stringify(ticket))",
        [f"escoba.ticket.{ticket['room']}", {**ticket, "nickname": "Ana", "at": 1}],
    )
    page.goto(server.url + f"/room/{ticket['room']}")
    page.locator("[data-testid=hand-card][data-moves]").first.wait_for(timeout=TIMEOUT)


@pytest.mark.parametrize(
    ("rules", "players", "partnerships"),
    SEATINGS,
    ids=[f"{rules}-{n}{'-partners' if p else ''}" for rules, n, p in SEATINGS],
)
def test_a_phone_shows_the_whole_table_width(
    phone: Any, layout_server: Server, rules: str, players: int, partnerships: bool
) -> None:
    """At 390x844, in every seating: no sideways scrolling (Scopone's sides cut the opponents'
    score off), a header of one row, every seat's name whole, and the partner's seat marked
    with a visible tag that a screen reader names too."""
    open_computer_room(phone, layout_server, rules, players, partnerships)
    seen = phone.evaluate(MEASURE)
    assert seen["scrollWidth"] <= seen["width"], f"the page scrolls sideways: {seen}"
    assert seen["header"] <= 60, f"the header is {seen['header']}px high"
    assert not seen["cut"], f"seat names cut short: {seen['cut']}"

    tags = phone.get_by_test_id("partner-tag")
    if partnerships:
        expect(tags).to_have_count(1)
        expect(tags).to_be_visible()
        expect(tags).to_have_text("partner")
        partner = phone.locator(".seat.partner")
        expect(partner).to_have_attribute("aria-label", "Computer 2 (medium), your partner")
        # across the table: the seat opposite yours
        expect(partner).to_have_attribute("data-pos", "north")
    else:
        expect(tags).to_have_count(0)


@pytest.mark.parametrize(
    "path", ["/", "/history", "/scorepad", "/learn", "/puzzles", "/replay/unknown"]
)
def test_every_page_has_a_one_row_header_on_a_phone(
    chromium: Any, layout_server: Server, path: str
) -> None:
    """At 390 px wide the header is one compact row (it took three, about 130 px), the page
    does not scroll sideways, and its menu still opens onto every link and both pickers."""
    context = chromium.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        page.goto(layout_server.url + path)
        page.locator("#site-header .brand").wait_for(timeout=TIMEOUT)
        page.wait_for_load_state("networkidle")
        seen = page.evaluate(MEASURE)
        assert seen["header"] <= 60, f"the header is {seen['header']}px high"
        assert seen["scrollWidth"] <= seen["width"], f"the page scrolls sideways: {seen}"

        menu = page.get_by_role("button", name="Menu")
        expect(menu).to_have_attribute("aria-expanded", "false")
        expect(page.locator("#language-picker")).to_be_hidden()
        menu.click()
        expect(menu).to_have_attribute("aria-expanded", "true")
        for link in ("Play", "Your matches", "Score pad", "Learn to play", "Puzzles"):
            expect(page.get_by_role("link", name=link, exact=True)).to_be_in_viewport()
        page.locator("#language-picker").select_option("de")
        expect(page.get_by_role("link", name="Spielen lernen", exact=True)).to_be_visible()
        page.keyboard.press("Escape")
        expect(page.locator("#deck-picker")).to_be_hidden()
        assert page.evaluate(MEASURE)["header"] <= 60
    finally:
        context.close()


def test_a_laptop_keeps_the_links_and_pickers_in_the_bar(page: Any, layout_server: Server) -> None:
    """On a wide screen the links and both pickers stay in the bar, with no menu button."""
    page.goto(layout_server.url + "/")
    expect(page.locator("#language-picker")).to_be_visible()
    expect(page.locator("#deck-picker")).to_be_visible()
    expect(page.get_by_role("link", name="Your matches", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="Menu")).to_be_hidden()


def several_captures(match: dict[str, Any]) -> bool:
    cards = [move["card"] for move in match["legal"] if move["captures"]]
    return any(cards.count(card) > 1 for card in cards)


def test_the_hint_and_the_capture_choice_open_in_view_on_a_phone(
    phone: Any, layout_server: Server
) -> None:
    """On the phone the hint and the capture choice open below the hand: once open they are
    inside the window, not below the fold; and the hand stays in it too."""
    room, tokens, seat = room_where(layout_server, several_captures)
    match = seat_state(layout_server, room, tokens[seat])["match"]
    sit_down(phone, layout_server, room, seat, tokens[seat])

    phone.get_by_test_id("hint-button").click()
    phone.locator("#hint-text p").first.wait_for(timeout=TIMEOUT)
    assert inside_soon(phone, "#hint-text"), "the hint opened outside the window"
    assert phone.evaluate(INSIDE, "#hand"), "the hand went out of the window"
    phone.keyboard.press("Escape")
    expect(phone.get_by_test_id("hint-text")).to_be_hidden()

    cards = [move["card"] for move in match["legal"] if move["captures"]]
    card = next(card for card in cards if cards.count(card) > 1)
    phone.evaluate("window.scrollTo(0, 0)")
    phone.locator(f"[data-testid=hand-card][data-card='{card}']").click()
    expect(phone.get_by_test_id("capture-choice").first).to_be_visible()
    assert inside_soon(phone, "#choice"), "the capture choice opened outside the window"
    assert phone.evaluate(INSIDE, "#hand"), "the hand went out of the window"


# The card's height, and the empty band between the bottom of the board and the window's.
ROOM_USED = """
() => {
  const card = document.querySelector("[data-testid=hand-card]").getBoundingClientRect();
  const board = document.querySelector("#board").getBoundingClientRect();
  return {
    card: card.height, below: innerHeight - board.bottom,
    scrolls: document.documentElement.scrollHeight > innerHeight,
  };
}
"""


@pytest.mark.parametrize(("players", "partnerships"), [(2, False), (3, False), (4, True)])
def test_the_table_uses_the_room_on_a_laptop(
    chromium: Any, layout_server: Server, players: int, partnerships: bool
) -> None:
    """At 1280x800 the cards are large (they were 138 px high, with 150 px of empty page
    below the hand) and the table fills the window down to its bottom, without scrolling."""
    context = chromium.new_context(viewport=LAPTOP, reduced_motion="reduce")
    try:
        page = context.new_page()
        rules = "scopone-scientifico" if partnerships else "escoba"
        open_computer_room(page, layout_server, rules, players, partnerships)
        used = page.evaluate(ROOM_USED)
        assert used["card"] >= 155, f"the hand's cards are {used['card']}px high"
        assert 0 <= used["below"] <= 40, f"{used['below']}px of empty page below the table"
        assert not used["scrolls"], "the page scrolls"
    finally:
        context.close()


def test_the_game_page_has_a_main_heading(phone: Any, layout_server: Server) -> None:
    """The game page has one h1, the game's name (axe's page-has-heading-one)."""
    open_computer_room(phone, layout_server, "scopa", 2, False)
    expect(phone.get_by_role("heading", level=1)).to_have_text("Scopa")
