"""The game screen's table in a real Chromium (see ``web_browser.py``): what must stay in
sight at every screen size, messages that go when their moment has passed, the computers'
names, the sound switch and the sweep.

Positions come from real deals: rooms of two person seats, both held by the test, opened until
one fits (or played on until one comes), so that nothing moves while the page is measured.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect
from websockets.sync.client import connect

from server_helpers import RemotePeer, play_message
from web_browser import (
    FREE_LIMITS,
    Server,
    person_room,
    played_to,
    press_play,
    room_where,
    seat_state,
    sit_down,
)

TIMEOUT = 20_000  # ms

SIZES = [(1280, 800), (1366, 768), (1920, 1080), (390, 844)]

# Every corner (a little inside) and the centre of each element: the element itself must be
# the one drawn there, inside the window, with nothing over it. A card that the next one of
# its row overlaps (a long hand, Scopone's 10 cards) is checked on the strip left uncovered,
# which must be wide enough to show its corner and take a click.
UNCOVERED = """
(selectors) => {
  const problems = [];
  if (document.documentElement.scrollWidth > innerWidth) {
    problems.push(`the page scrolls sideways: ${document.documentElement.scrollWidth}px wide`);
  }
  for (const selector of selectors) {
    const nodes = [...document.querySelectorAll(selector)]
      .filter((node) => node.getClientRects().length);
    if (!nodes.length) problems.push(`${selector}: not shown`);
    for (const node of nodes) {
      const box = node.getBoundingClientRect();
      const name = `${selector}${node.dataset.card ? " " + node.dataset.card : ""}`;
      if (box.left < 0 || box.top < 0 || box.right > innerWidth || box.bottom > innerHeight) {
        const window = `${innerWidth}x${innerHeight}`;
        problems.push(`${name} is outside the ${window} window: ${JSON.stringify(box)}`);
        continue;
      }
      const next = node.nextElementSibling?.matches(selector)
        ? node.nextElementSibling.getBoundingClientRect() : null;
      const overlapped = next && next.top < box.bottom && next.left < box.right;
      const right = overlapped ? next.left : box.right;
      if (right - box.left < 24) {
        problems.push(`${name} shows only ${right - box.left}px from under the next card`);
        continue;
      }
      const inset = 4;
      const points = [
        [box.left + inset, box.top + inset], [right - inset, box.top + inset],
        [box.left + inset, box.bottom - inset], [right - inset, box.bottom - inset],
        [(box.left + right) / 2, (box.top + box.bottom) / 2],
      ];
      for (const [x, y] of points) {
        const hit = document.elementFromPoint(x, y);
        if (!hit || !(hit === node || node.contains(hit))) {
          const over = hit ? hit.outerHTML.slice(0, 90) : "nothing";
          problems.push(`${name} is covered at (${x}, ${y}) by ${over}`);
        }
      }
    }
  }
  return problems;
}
"""
WATCHED = ["[data-testid=hand-card]", "[data-testid=table-card]", "[data-testid=turn-indicator]"]


def assert_in_sight(page: Any, when: str) -> None:
    problems = page.evaluate(UNCOVERED, WATCHED)
    assert not problems, f"{when}: " + "; ".join(problems)


def several_captures(match: dict[str, Any]) -> bool:
    """A card of the hand with two or more capture sets (RULES.md "A move": the player
    chooses)."""
    cards = [move["card"] for move in match["legal"] if move["captures"]]
    return any(cards.count(card) > 1 for card in cards)


def choice_card(match: dict[str, Any]) -> str:
    cards = [move["card"] for move in match["legal"] if move["captures"]]
    return next(card for card in cards if cards.count(card) > 1)


@pytest.fixture(scope="module")
def table_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("table"), limits=FREE_LIMITS)
    running.start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def choice_room(table_server: Server) -> tuple[str, dict[int, str], int, dict[str, Any]]:
    """A room whose seat to move holds a card with several capture sets; nobody plays in it."""
    room, tokens, seat = room_where(table_server, several_captures)
    return room, tokens, seat, seat_state(table_server, room, tokens[seat])["match"]


@pytest.fixture(scope="module")
def scopone_room(table_server: Server) -> tuple[str, dict[int, str], int]:
    """A Scopone scientifico room of four people in partnerships (docs/rules.md, Scopone: 10
    cards each, nothing on the table) after its first play: the seat to move holds 10 cards
    and the table the one card played. Nobody plays in it after that."""
    room, tokens = person_room(
        table_server, players=4, rules="scopone-scientifico", partnerships=True
    )
    first = seat_state(table_server, room, tokens[0])["match"]
    mover = first["to_move"]
    with connect(table_server.url.replace("http", "ws") + f"/ws/rooms/{room}") as socket:
        peer = RemotePeer(socket)
        _, state = peer.join(tokens[mover])
        assert len(state["match"]["hand"]) == 10 and not state["match"]["table"]
        peer.send(play_message(state["match"]["legal"][0]))
        peer.until(lambda m: m["type"] == "state" and m["match"]["to_move"] != mover)
    seat = (mover + 1) % 4
    return room, tokens, seat


@pytest.mark.parametrize(("width", "height"), SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_hand_table_and_turn_stay_in_sight(
    chromium: Any,
    table_server: Server,
    choice_room: Any,
    scopone_room: Any,
    width: int,
    height: int,
) -> None:
    """Issue 16, item 1: with the hint open, during a capture choice and with a refusal shown,
    the player's cards, the table and whose turn it is are inside the window, uncovered; and
    (issue 18) a 10-card Scopone hand too."""
    room, tokens, seat, match = choice_room
    context = chromium.new_context(
        viewport={"width": width, "height": height}, reduced_motion="reduce"
    )
    try:
        page = context.new_page()
        sit_down(page, table_server, room, seat, tokens[seat])
        expect(page.get_by_test_id("turn-indicator")).to_have_attribute("data-seat", str(seat))
        assert_in_sight(page, "at the start")

        page.get_by_test_id("hint-button").click()
        page.locator("#hint-text p").first.wait_for(timeout=TIMEOUT)
        assert_in_sight(page, "with the hint open")
        page.keyboard.press("Escape")
        expect(page.get_by_test_id("hint-text")).to_be_hidden()

        page.locator(f"[data-testid=hand-card][data-card='{choice_card(match)}']").click()
        expect(page.get_by_test_id("capture-choice").first).to_be_visible()
        assert page.get_by_test_id("capture-choice").count() >= 2
        for button in page.get_by_test_id("capture-choice").all():
            expect(button).to_be_in_viewport()
        assert_in_sight(page, "during a capture choice")
        page.keyboard.press("Escape")
        expect(page.locator("#choice")).to_be_hidden()

        # The other seat's player tries to play out of turn: refused, on screen.
        other = next(s for s in tokens if s != seat)
        sit_down(page, table_server, room, other, tokens[other])
        page.get_by_test_id("hand-card").first.click()
        toast = page.get_by_test_id("error-toast")
        expect(toast).to_be_visible()
        expect(toast).to_be_in_viewport()
        assert_in_sight(page, "with a refusal shown")

        # Four players: four sides in the bar, three seats around the felt (and cards on the
        # table: a dealer's initial sweep may have taken them all).
        for _ in range(20):
            crowded, four = person_room(table_server, players=4)
            first = seat_state(table_server, crowded, next(iter(four.values())))["match"]
            if first["table"]:
                break
        mover = first["to_move"]
        sit_down(page, table_server, crowded, mover, four[mover])
        page.get_by_test_id("hint-button").click()
        page.locator("#hint-text p").first.wait_for(timeout=TIMEOUT)
        assert_in_sight(page, "with four players and the hint open")

        # Issue 18: Scopone's 10-card hand, every card in sight and clickable, the hint open;
        # the whole deck is dealt at once, so no stock is shown.
        room, tokens, seat = scopone_room
        sit_down(page, table_server, room, seat, tokens[seat])
        expect(page.get_by_test_id("hand-card")).to_have_count(10)
        expect(page.get_by_test_id("turn-indicator")).to_have_attribute("data-seat", str(seat))
        expect(page.get_by_test_id("stock-size")).to_be_hidden()
        assert_in_sight(page, "with a 10-card hand")
        page.get_by_test_id("hint-button").click()
        page.locator("#hint-text p").first.wait_for(timeout=TIMEOUT)
        assert_in_sight(page, "with a 10-card hand and the hint open")
    finally:
        context.close()


def test_messages_go_when_their_moment_has_passed(page: Any, table_server: Server) -> None:
    """A refusal ("It is not your turn.") goes once the turn comes; the hint goes with the
    move it was about."""
    room, tokens, seat = room_where(table_server, lambda match: bool(match["legal"]))
    other = next(s for s in tokens if s != seat)
    sit_down(page, table_server, room, other, tokens[other])
    page.get_by_test_id("hand-card").first.click()
    toast = page.get_by_test_id("error-toast")
    expect(toast).to_be_visible()
    assert toast.inner_text().strip()

    # The seat to move plays (from its own connection): the refusal was about that position.
    with connect(table_server.url.replace("http", "ws") + f"/ws/rooms/{room}") as socket:
        mover = RemotePeer(socket)
        _, state = mover.join(tokens[seat])
        mover.send(play_message(state["match"]["legal"][0]))
        mover.until(lambda m: m["type"] == "state" and m["match"]["to_move"] == other)
    expect(page.get_by_test_id("turn-indicator")).to_have_attribute(
        "data-seat", str(other), timeout=TIMEOUT
    )
    expect(toast).to_be_hidden()

    page.get_by_test_id("hint-button").click()
    hint = page.get_by_test_id("hint-text")
    page.locator("#hint-text p").first.wait_for(timeout=TIMEOUT)
    playable = page.locator("[data-testid=hand-card][data-moves]").first
    moves = int(playable.get_attribute("data-moves") or "1")
    playable.click()
    if moves > 1:
        page.get_by_test_id("capture-choice").first.click()
    expect(hint).to_be_hidden()
    expect(page.get_by_test_id("turn-indicator")).to_have_attribute("data-seat", str(seat))
    expect(hint).to_be_hidden()


def test_several_computers_are_numbered(page: Any, table_server: Server) -> None:
    """Issue 16, item 3: three computers are "Computer 1 (easy)", "Computer 2 (easy)" and
    "Computer 3 (medium)" in seat order, in the seats, turn and move lines; a lone computer
    is "Computer (easy)"."""
    made = httpx.post(
        table_server.url + "/api/rooms",
        json={"nickname": "Ana", "players": 4, "seats": ["person", "easy", "easy", "medium"]},
    ).json()
    sit_down(page, table_server, made["room"], made["seat"], made["token"])
    names = {
        seat: page.locator(f".seat[data-seat='{seat}'] .seat-name .long").inner_text()
        for seat in (1, 2, 3)
    }
    assert names == {1: "Computer 1 (easy)", 2: "Computer 2 (easy)", 3: "Computer 3 (medium)"}
    # Whoever plays, the move line and the turn line name the computers by number (when the
    # lot makes Ana first to move, she plays first so that a computer moves next).
    first = seat_state(table_server, made["room"], made["token"])["match"]
    if first["to_move"] == made["seat"]:
        move = first["legal"][0]
        page.locator(f"[data-testid=hand-card][data-card='{move['card']}']").click()
        choices = [m for m in first["legal"] if m["card"] == move["card"]]
        if len(choices) > 1:
            wanted = " ".join(move["captures"])
            page.locator(f"[data-testid=capture-choice][data-captures='{wanted}']").click()
    expect(page.locator("#last-play")).to_have_text(
        re.compile(r"Computer [123] \("), timeout=TIMEOUT
    )

    page.goto(table_server.url + "/")
    page.get_by_test_id("nickname").fill("Ana")
    page.get_by_test_id("seat-kind-1").select_option("easy")
    press_play(page, table_server)
    lone = page.locator(".seat[data-seat='1'] .seat-name .long")
    expect(lone).to_have_text("Computer (easy)", timeout=TIMEOUT)


def test_the_sound_switch_is_kept_and_off_under_reduced_motion(
    chromium: Any, table_server: Server
) -> None:
    room, tokens, seat = room_where(table_server, lambda match: True)
    context = chromium.new_context()
    try:
        page = context.new_page()
        sit_down(page, table_server, room, seat, tokens[seat])
        switch = page.get_by_test_id("sound-button")
        expect(switch).to_have_attribute("aria-pressed", "false")  # sound on by default
        switch.click()
        expect(switch).to_have_attribute("aria-pressed", "true")
        page.reload()
        expect(page.get_by_test_id("sound-button")).to_have_attribute("aria-pressed", "true")
        page.get_by_test_id("sound-button").click()
        page.reload()
        expect(page.get_by_test_id("sound-button")).to_have_attribute("aria-pressed", "false")
    finally:
        context.close()
    quiet = chromium.new_context(reduced_motion="reduce")
    try:
        page = quiet.new_page()
        sit_down(page, table_server, room, seat, tokens[seat])
        # Muted until the player turns the sound on.
        expect(page.get_by_test_id("sound-button")).to_have_attribute("aria-pressed", "true")
    finally:
        quiet.close()


def sweep_move(match: dict[str, Any]) -> dict[str, Any] | None:
    """A legal move taking every card on the table (RULES.md "Sweeps")."""
    table = set(match["table"])
    return next((m for m in match["legal"] if table and set(m["captures"]) == table), None)


def test_a_sweep_shows_its_banner_and_sounds(page: Any, table_server: Server) -> None:
    room, tokens, seat = played_to(table_server, lambda match: sweep_move(match) is not None)
    sit_down(page, table_server, room, seat, tokens[seat])
    match_moves = page.locator("[data-testid=hand-card][data-moves]")
    match_moves.first.wait_for(timeout=TIMEOUT)
    move = sweep_move(seat_state(table_server, room, tokens[seat])["match"])
    assert move is not None
    banner = page.get_by_test_id("sweep-banner")
    expect(banner).to_be_hidden()
    card = page.locator(f"[data-testid=hand-card][data-card='{move['card']}']")
    moves = int(card.get_attribute("data-moves") or "1")
    card.click()
    if moves > 1:
        page.locator(
            f"[data-testid=capture-choice][data-captures='{' '.join(move['captures'])}']"
        ).click()
    expect(banner).to_be_visible(timeout=TIMEOUT)
    expect(banner).to_contain_text("Sweep!")
    expect(page.get_by_test_id("sound-button")).to_have_attribute("data-last-sound", "sweep")
    expect(banner).to_be_hidden(timeout=TIMEOUT)  # a moment, then the table again
