"""Accessibility of the pages in a real Chromium (see ``web_browser.py``): the game played with
the keyboard alone, what a screen reader is told, and an axe-core audit of every page.

axe-core is the npm package pinned in package-lock.json (`npm ci` installs it; .ci/run does),
injected into each page by Playwright.
"""

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
from web_browser import FREE_LIMITS, Server, room_where, seat_state, sit_down

TIMEOUT = 20_000  # ms


@pytest.fixture(scope="module")
def a11y_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("a11y"), limits=FREE_LIMITS)
    running.start()
    yield running
    running.stop()


def several_captures(match: dict[str, Any]) -> bool:
    """A card of the hand with two or more capture sets (RULES.md "A move")."""
    cards = [move["card"] for move in match["legal"] if move["captures"]]
    return any(cards.count(card) > 1 for card in cards)


def test_the_game_by_keyboard_alone(page: Any, a11y_server: Server) -> None:
    """Issue 16, item 6: Tab reaches the hand at once (the skip link), keys 1-4 choose a card,
    then 1-n a capture set, Escape cancels, h asks a hint, r opens the rules (which list the
    keys) and s the score pad; the live region says the move and whose turn it is."""
    room, tokens, seat = room_where(a11y_server, several_captures)
    match = seat_state(a11y_server, room, tokens[seat])["match"]
    sit_down(page, a11y_server, room, seat, tokens[seat])
    expect(page.get_by_test_id("announcer")).to_have_text("Your turn.", timeout=TIMEOUT)

    page.keyboard.press("Tab")
    expect(page.locator("#skip-to-hand")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("hand-card").first).to_be_focused()

    page.keyboard.press("h")
    page.locator("#hint-text p").first.wait_for(timeout=TIMEOUT)
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("hint-text")).to_be_hidden()

    cards = [move["card"] for move in match["legal"] if move["captures"]]
    card = next(card for card in cards if cards.count(card) > 1)
    key = str(match["hand"].index(card) + 1)
    page.keyboard.press(key)
    choices = page.get_by_test_id("capture-choice")
    expect(choices.first).to_be_visible()
    assert choices.count() == cards.count(card)
    expect(choices.first).to_be_focused()  # the keyboard follows into the choice
    expect(page.get_by_test_id("announcer")).to_contain_text("1: ")
    page.keyboard.press("Escape")
    expect(page.locator("#choice")).to_be_hidden()
    page.keyboard.press(key)
    expect(choices.first).to_be_visible()
    taken = choices.nth(1).get_attribute("data-captures") or ""
    page.keyboard.press("2")
    page.locator(f"[data-testid=hand-card][data-card='{card}']").wait_for(state="detached")
    # The table lost exactly the second set's cards: the play the keys chose.
    for each in taken.split():
        expect(page.locator(f"[data-testid=table-card][data-card='{each}']")).to_have_count(0)
    announcer = page.get_by_test_id("announcer")
    other = "Bea" if seat == 0 else "Ana"
    expect(announcer).to_have_text(re.compile(rf"^You played .+ and took .+\. {other} to play\.$"))

    page.keyboard.press("r")
    rules = page.get_by_test_id("rules-dialog")
    expect(rules).to_be_visible()
    legend = page.get_by_test_id("key-legend")
    expect(legend).to_contain_text("ask for a hint")
    page.keyboard.press("Escape")
    expect(rules).to_be_hidden()
    page.keyboard.press("s")
    expect(page.get_by_test_id("scorepad-dialog")).to_be_visible()


def test_cards_piles_and_the_dealer_have_spoken_names(page: Any, a11y_server: Server) -> None:
    """Every card, back, pile and mark is named in words, in the player's language and deck:
    "7 of diamonds" with French cards in English, "7 de oros" with Spanish cards."""
    made = httpx.post(
        a11y_server.url + "/api/rooms", json={"nickname": "Ana", "seats": ["person", "beginner"]}
    ).json()
    sit_down(page, a11y_server, made["room"], made["seat"], made["token"])
    label = page.locator("[data-testid=hand-card] .card-name").first.text_content() or ""
    assert re.fullmatch(r"(ace|[2-7]|jack|queen|king) of (diamonds|hearts|spades|clubs)", label)
    for card in page.get_by_test_id("table-card").all():
        expect(card).to_have_accessible_name(re.compile(r" of "))
    backs = page.locator(".seat:not(.mine) .backs[role=img]").first
    expect(backs).to_have_attribute("aria-label", re.compile(r"^\d cards? in hand$"))
    piles = page.locator(".pile-taken[role=img]")
    assert piles.count() == 2
    for pile in piles.all():
        assert re.search(r"\d+ cards? taken", pile.get_attribute("aria-label") or "")
    expect(page.locator(".chip.dealer[role=img]")).to_have_attribute("aria-label", "Dealer")
    expect(page.locator("#stock")).to_have_attribute(
        "aria-label", re.compile(r"^\d+ cards? left in the stock$")
    )

    page.locator("#deck-picker").select_option("spanish")
    page.locator("[data-testid=hand-card] svg.card-spanish").first.wait_for(timeout=TIMEOUT)
    label = page.locator("[data-testid=hand-card] .card-name").first.text_content() or ""
    assert re.fullmatch(r"(as|[2-7]|sota|caballo|rey) de (oros|copas|espadas|bastos)", label)
    page.locator("#deck-picker").select_option("french")
    page.locator("#language-picker").select_option("de")
    expect(page.locator("html")).to_have_attribute("lang", "de", timeout=TIMEOUT)
    label = page.locator("[data-testid=hand-card] .card-name").first.text_content() or ""
    assert re.fullmatch(r"(Karo|Herz|Pik|Kreuz) (Ass|[2-7]|Bube|Dame|König)", label)


# -- the audit

AUDIT = """
async () => {
  const result = await axe.run(document, { resultTypes: ["violations"] });
  return result.violations.map((violation) => ({
    id: violation.id,
    impact: violation.impact,
    help: violation.help,
    nodes: violation.nodes.slice(0, 3).map((node) => node.target.join(" ")),
  }));
}
"""


EMPTY_HEADERS = """
() => [...document.querySelectorAll("th")]
  .filter((cell) => !cell.textContent.trim())
  .map((cell) => cell.closest("table").className + " " + cell.className)
"""


def audit(page: Any, axe: Path, where: str, also: tuple[str, ...] = ()) -> None:
    """No serious or critical axe-core violation on the page as it is now, nor any of the
    rules ``also`` names whatever their impact."""
    page.add_script_tag(path=str(axe))
    found = page.evaluate(AUDIT)
    bad = [v for v in found if v["impact"] in ("serious", "critical") or v["id"] in also]
    assert not bad, f"{where}: " + "; ".join(
        f"{v['id']} ({v['impact']}): {v['help']} at {v['nodes']}" for v in bad
    )


def finished_match(server: Server) -> tuple[str, dict[str, Any]]:
    """A whole match (to 1 point) played through the protocol: its room and the ticket."""
    ticket = httpx.post(
        server.url + "/api/rooms",
        json={"nickname": "Ana", "seats": ["person", "beginner"], "options": {"target_score": 1}},
    ).json()
    with connect(server.url.replace("http", "ws") + f"/ws/rooms/{ticket['room']}") as socket:
        peer = RemotePeer(socket)
        peer.join(ticket["token"])
        play_until([peer], lambda state: state["match"]["over"])
    return ticket["room"], ticket


def test_no_serious_accessibility_problem_on_any_page(
    chromium: Any, a11y_server: Server, axe_script: Path
) -> None:
    """Issue 16, item 6: axe-core finds no serious or critical violation on the lobby, a room
    in play (and its rules), the finished matches, a replay, the score pad, the cards preview
    and the tutorial."""
    # The pages' Content-Security-Policy forbids injected scripts: the audit's own is let in.
    context = chromium.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    try:
        audit_every_page(context.new_page(), a11y_server, axe_script)
    finally:
        context.close()


def audit_every_page(page: Any, a11y_server: Server, axe_script: Path) -> None:
    page.goto(a11y_server.url + "/")
    page.get_by_test_id("create-room").wait_for(timeout=TIMEOUT)
    audit(page, axe_script, "the lobby")

    room, tokens, seat = room_where(a11y_server, several_captures)
    sit_down(page, a11y_server, room, seat, tokens[seat])
    page.locator("[data-testid=hand-card][data-moves]").first.wait_for(timeout=TIMEOUT)
    # a main heading too (a moderate rule, which the game page missed)
    audit(page, axe_script, "a room in play", also=("page-has-heading-one",))
    page.get_by_test_id("rules-button").click()
    expect(page.get_by_test_id("key-legend")).to_be_visible(timeout=TIMEOUT)
    audit(page, axe_script, "the rules in a room")

    finished_room, ticket = finished_match(a11y_server)
    page.evaluate(
        "([key, ticket]) => localStorage.setItem(key, JSON.stringify(ticket))",
        [
            f"escoba.ticket.{finished_room}",
            {"seat": ticket["seat"], "token": ticket["token"], "nickname": "Ana", "at": 2},
        ],
    )
    page.goto(a11y_server.url + "/history")
    row = page.get_by_test_id("history-row").first
    row.wait_for(timeout=TIMEOUT)
    audit(page, axe_script, "the finished matches")
    row.click()
    page.wait_for_url(re.compile(r"/replay/"), timeout=TIMEOUT)
    page.get_by_test_id("replay-step").wait_for(timeout=TIMEOUT)
    audit(page, axe_script, "a replay")

    page.goto(a11y_server.url + "/scorepad")
    page.get_by_test_id("save-hand").wait_for(timeout=TIMEOUT)
    audit(page, axe_script, "the score pad")
    # Every header cell says what its column holds, if only to a screen reader (axe's
    # empty-table-header, a minor finding the audit above lets through).
    empty = page.evaluate(EMPTY_HEADERS)
    assert empty == [], f"the score pad has header cells without text: {empty}"

    page.goto(a11y_server.url + "/static/cards-preview.html")
    page.locator("svg.card").first.wait_for(timeout=TIMEOUT)
    audit(page, axe_script, "the cards preview")

    if httpx.get(a11y_server.url + "/learn").status_code == 200:
        page.goto(a11y_server.url + "/learn")
        page.wait_for_load_state("networkidle")
        audit(page, axe_script, "learning to play")
