"""The game table at the moments that matter, in a real Chromium against `escoba serve` (see
``web_browser.py``): a sweep's banner beside the cards, never over them nor stale; the
computer waiting while a score pad or another dialog is open; the end of a match in order
(the last hand's pad, then the winner); the hand dimmed while it is not your turn; each
capture set lit by its own choice; the hint's box fitting its words; a take back shown
without the computer's reply; the dialogs' frames and the rules' title.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect
from websockets.sync.client import connect

from server_helpers import RemotePeer, play_message, play_until
from web_browser import FREE_LIMITS, Server, played_to, room_where, seat_state, sit_down

TIMEOUT = 20_000  # ms
PACE = 0.2  # seconds per computer move


@pytest.fixture(scope="module")
def moments_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("moments"), pace=PACE, limits=FREE_LIMITS)
    running.start()
    yield running
    running.stop()


def ws_url(server: Server, room: str) -> str:
    return server.url.replace("http", "ws") + f"/ws/rooms/{room}"


def computer_room(
    server: Server, wanted: Callable[[dict[str, Any]], bool], **options: Any
) -> dict[str, Any]:
    """A new room of Ana against a beginner computer whose first state pleases ``wanted``
    (deals are random: rooms are opened until one does): Ana's ticket."""
    for _ in range(40):
        body = {"nickname": "Ana", "seats": ["person", "beginner"], "options": options}
        made = httpx.post(server.url + "/api/rooms", json=body)
        assert made.status_code == 201, made.text
        ticket: dict[str, Any] = made.json()
        if wanted(seat_state(server, ticket["room"], ticket["token"])["match"]):
            return ticket
    raise AssertionError("no room gave the position wanted")


def play_to(server: Server, ticket: dict[str, Any], stop: Callable[[dict[str, Any]], bool]) -> None:
    """Play Ana's first legal moves over a WebSocket (the computer answering) until ``stop``
    holds for a position where she is to move."""
    with connect(ws_url(server, ticket["room"])) as socket:
        peer = RemotePeer(socket)
        peer.join(ticket["token"])
        seat = ticket["seat"]
        play_until([peer], lambda state: state["match"]["to_move"] == seat and stop(state["match"]))


def open_seat(page: Any, server: Server, ticket: dict[str, Any]) -> None:
    sit_down(page, server, ticket["room"], ticket["seat"], ticket["token"])


def last_card_of_hand(match: dict[str, Any]) -> bool:
    return bool(match["stock_size"] == 0 and len(match["hand"]) == 1)


def table_cards(page: Any) -> list[str]:
    cards: list[str] = page.get_by_test_id("table-card").evaluate_all(
        "els => els.map(e => e.dataset.card)"
    )
    return cards


def play_card(page: Any, card: str | None = None, captures: list[str] | None = None) -> None:
    """Click ``card`` (the first playable one by default), and its capture set if asked."""
    selector = "[data-testid=hand-card][data-moves]"
    button = page.locator(f'{selector}[data-card="{card}"]' if card else selector).first
    moves = int(button.get_attribute("data-moves") or "1")
    button.click()
    if moves > 1:
        choices = page.get_by_test_id("capture-choice")
        if captures is not None:
            wanted = " ".join(captures)
            choices = page.locator(f"[data-testid=capture-choice][data-captures='{wanted}']")
        choices.first.click()


def boxes_meet(page: Any, first: str, others: str) -> list[str]:
    """The elements matching ``others`` whose box meets the box of ``first``."""
    found: list[str] = page.evaluate(
        """([first, others]) => {
          const box = document.querySelector(first).getBoundingClientRect();
          return [...document.querySelectorAll(others)].filter((node) => {
            const r = node.getBoundingClientRect();
            const across = r.left < box.right && box.left < r.right;
            return r.width && across && r.top < box.bottom && box.top < r.bottom;
          }).map((node) => node.dataset.card ?? node.className);
        }""",
        [first, others],
    )
    return found


# -- 1. the sweep's banner


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_the_sweep_banner_covers_no_card_and_goes_with_the_next_move(
    chromium: Any, moments_server: Server, width: int, height: int
) -> None:
    def sweep_move(match: dict[str, Any]) -> dict[str, Any] | None:
        table = set(match["table"])
        return next((m for m in match["legal"] if table and set(m["captures"]) == table), None)

    def mid_hand_sweep(match: dict[str, Any]) -> bool:
        # Not the hand's last play: that one opens the score pad, which holds the next
        # hand's states back (the other's drop would not show until it is closed).
        last = match["stock_size"] == 0 and len(match["hand"]) <= 1
        return sweep_move(match) is not None and not last

    room, tokens, seat = played_to(moments_server, mid_hand_sweep)
    context = chromium.new_context(viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        sit_down(page, moments_server, room, seat, tokens[seat])
        move = sweep_move(seat_state(moments_server, room, tokens[seat])["match"])
        assert move is not None
        play_card(page, move["card"], move["captures"])
        banner = page.get_by_test_id("sweep-banner")
        expect(banner).to_be_visible(timeout=TIMEOUT)
        expect(banner).to_contain_text("Sweep!")
        cards = "[data-testid=table-card], [data-testid=hand-card], .empty-table, #last-play"
        assert boxes_meet(page, "#sweep-banner", cards) == []
        # the other player drops a card at once: the banner of the sweep goes with it
        other = next(each for each in tokens if each != seat)
        with connect(ws_url(moments_server, room)) as socket:
            peer = RemotePeer(socket)
            _, state = peer.join(tokens[other])
            drop = next(m for m in state["match"]["legal"] if not m["captures"])
            peer.send(play_message(drop))
            page.locator(f'[data-testid=table-card][data-card="{drop["card"]}"]').wait_for(
                timeout=TIMEOUT
            )
            assert page.evaluate("document.getElementById('sweep-banner').hidden")
    finally:
        context.close()


# -- 2. the computer waits while a dialog is open


# Every message the page's WebSocket hands its listeners, kept once they have had it.
RECEIVED = """
(() => {
  window.__received = [];
  const add = WebSocket.prototype.addEventListener;
  WebSocket.prototype.addEventListener = function (type, listener, options) {
    if (type !== "message") return add.call(this, type, listener, options);
    const kept = (event) => {
      const result = listener(event);
      window.__received.push(JSON.parse(String(event.data)));
      return result;
    };
    return add.call(this, type, kept, options);
  };
})();
"""


def test_the_computer_waits_while_the_hands_score_pad_is_open(
    page: Any, moments_server: Server
) -> None:
    # The computer deals the first hand: it plays its last card and leads the second hand.
    ticket = computer_room(moments_server, lambda match: match["dealer"] != match["seat"])
    play_to(moments_server, ticket, last_card_of_hand)
    page.add_init_script(RECEIVED)
    open_seat(page, moments_server, ticket)
    play_card(page)
    pad = page.get_by_test_id("scorepad-dialog")
    expect(pad).to_be_visible(timeout=TIMEOUT)
    seen = table_cards(page)
    last_play = page.locator("#last-play").inner_text()
    # the server's computer has led the second hand meanwhile, and the page has had it ...
    led = page.wait_for_function(
        """() => window.__received.find((message) => message.type === "state"
          && message.match.hand_number === 1
          && message.match.history.some((event) => event.kind === "play"))""",
        timeout=TIMEOUT,
    )
    match = led.json_value()["match"]
    # ... but it shows it only once the pad is closed
    assert table_cards(page) == seen
    assert page.locator("#last-play").inner_text() == last_play
    expect(page.get_by_test_id("turn-indicator")).not_to_have_attribute(
        "data-seat", str(ticket["seat"])
    )
    page.get_by_test_id("scorepad-close").click()
    expect(page.get_by_test_id("turn-indicator")).to_have_attribute(
        "data-seat", str(ticket["seat"]), timeout=TIMEOUT
    )
    assert sorted(table_cards(page)) == sorted(match["table"])


LATE_REPLY = """
(() => {
  window.__plays = new Set();
  const add = WebSocket.prototype.addEventListener;
  WebSocket.prototype.addEventListener = function (type, listener, options) {
    if (type !== "message") return add.call(this, type, listener, options);
    const late = (event) => {
      const text = String(event.data);
      if (!text.includes('"event":{"kind":"play"')) return listener(event);
      const first = window.__plays.size === 0 || window.__plays.has(text);
      window.__plays.add(text);
      if (first) listener(event);
      else setTimeout(() => { listener(event); window.__delivered = true; }, 1000);
    };
    return add.call(this, type, late, options);
  };
})();
"""
"""The first play shown at once, the next ones (the computer's reply) a second late: a dialog
opened right after a play is open when the reply comes, however fast the server answers."""


def test_the_computer_waits_while_the_log_is_open(page: Any, moments_server: Server) -> None:
    ticket = computer_room(moments_server, lambda match: match["to_move"] == match["seat"])
    page.add_init_script(LATE_REPLY)
    open_seat(page, moments_server, ticket)
    page.locator("[data-testid=hand-card][data-moves]").first.wait_for(timeout=TIMEOUT)
    play_card(page)
    page.get_by_test_id("log-button").click()
    expect(page.get_by_test_id("log-dialog")).to_be_visible()
    # the computer's reply has reached the page, the log open ...
    page.wait_for_function("() => window.__delivered === true", timeout=TIMEOUT)
    assert (
        seat_state(moments_server, ticket["room"], ticket["token"])["match"]["to_move"]
        == (ticket["seat"])
    )
    # ... and the reply is shown only once the log is closed
    expect(page.get_by_test_id("turn-indicator")).not_to_have_attribute(
        "data-seat", str(ticket["seat"])
    )
    page.locator("#log-close").click()
    expect(page.get_by_test_id("turn-indicator")).to_have_attribute(
        "data-seat", str(ticket["seat"]), timeout=TIMEOUT
    )


MOMENTS = """
() => {
  window.__moments = [];
  const seen = new Set();
  const mark = (name, holds) => {
    if (holds && !seen.has(name)) { seen.add(name); window.__moments.push(name); }
  };
  const look = () => {
    const pad = document.getElementById("scorepad-dialog");
    const winner = document.getElementById("winner");
    mark("pad", pad.open);
    const shown = winner.getClientRects().length > 0 && !pad.contains(winner);
    mark("winner-outside-pad", shown);
    mark("winner-under-pad", pad.open && shown);
    requestAnimationFrame(look);
  };
  look();
}
"""


def test_the_end_of_a_match_shows_the_last_pad_then_the_winner(
    page: Any, moments_server: Server
) -> None:
    for _ in range(5):
        ticket = computer_room(moments_server, lambda match: True, target_score=1)
        play_to(moments_server, ticket, last_card_of_hand)
        open_seat(page, moments_server, ticket)
        page.evaluate(MOMENTS)
        play_card(page)
        expect(page.get_by_test_id("scorepad-dialog")).to_be_visible(timeout=TIMEOUT)
        if seat_state(moments_server, ticket["room"], ticket["token"])["match"]["over"]:
            break
        page.get_by_test_id("scorepad-close").click()
    else:
        pytest.fail("no match ended after its first hand")
    page.wait_for_timeout(300)
    assert page.evaluate("window.__moments") == ["pad"]
    # the running totals' last row is in sight, with nothing over it
    total = page.locator("#scorepad-dialog table.running tr.sum")
    total.scroll_into_view_if_needed()
    covered = page.evaluate(
        """() => {
          const row = document.querySelector("#scorepad-dialog table.running tr.sum");
          const box = row.getBoundingClientRect();
          return [0.1, 0.5, 0.9].some((x) => {
            const middle = box.top + box.height / 2;
            const at = document.elementFromPoint(box.left + box.width * x, middle);
            return !row.contains(at);
          });
        }"""
    )
    assert not covered
    page.get_by_test_id("scorepad-close").click()
    expect(page.get_by_test_id("winner")).to_be_visible(timeout=TIMEOUT)
    expect(page.get_by_test_id("rematch-button")).to_be_visible()
    assert page.evaluate("window.__moments") == ["pad", "winner-outside-pad"]


# -- 3. the hand while it is not your turn; the focus ring


def test_the_hand_is_dimmed_while_it_is_not_your_turn(page: Any, moments_server: Server) -> None:
    room, tokens, mover = room_where(moments_server, lambda match: True)
    waiting = next(seat for seat in tokens if seat != mover)
    sit_down(page, moments_server, room, waiting, tokens[waiting])
    card = page.get_by_test_id("hand-card").first
    expect(page.locator("#hand")).to_have_class(re.compile(r"\bnot-my-turn\b"))
    expect(card).to_have_css("cursor", "default")
    opacity = float(card.evaluate("node => getComputedStyle(node).opacity"))
    assert opacity < 0.8


def test_the_focus_ring_is_not_the_chosen_cards_look(page: Any, moments_server: Server) -> None:
    room, tokens, mover = room_where(moments_server, lambda match: True)
    sit_down(page, moments_server, room, mover, tokens[mover])
    page.locator("[data-testid=hand-card][data-moves]").first.wait_for(timeout=TIMEOUT)
    page.keyboard.press("Tab")  # the skip link, then straight to the hand
    page.keyboard.press("Enter")
    focused = page.locator("[data-testid=hand-card]:focus-visible")
    expect(focused).to_have_count(1)
    look = focused.evaluate(
        """(node) => {
          const style = getComputedStyle(node);
          const gold = getComputedStyle(document.body).getPropertyValue("--gold").trim();
          const probe = document.createElement("span");
          probe.style.color = gold;
          document.body.append(probe);
          const goldColour = getComputedStyle(probe).color;
          probe.remove();
          return { outline: style.outlineStyle, colour: style.outlineColor, gold: goldColour };
        }"""
    )
    assert look["outline"] != "none"
    assert look["colour"] != look["gold"], look


# -- 4. each capture choice lights its own set


def test_each_capture_choice_lights_its_own_cards(page: Any, moments_server: Server) -> None:
    def several(match: dict[str, Any]) -> bool:
        cards = [move["card"] for move in match["legal"] if move["captures"]]
        return any(cards.count(card) > 1 for card in cards)

    room, tokens, seat = room_where(moments_server, several)
    sit_down(page, moments_server, room, seat, tokens[seat])
    match = seat_state(moments_server, room, tokens[seat])["match"]
    cards = [move["card"] for move in match["legal"] if move["captures"]]
    card = next(card for card in cards if cards.count(card) > 1)
    page.locator(f'[data-testid=hand-card][data-card="{card}"]').click()
    choices = page.get_by_test_id("capture-choice")
    expect(choices.first).to_be_visible()

    def lit() -> list[str]:
        found: list[str] = page.locator("#table-cards .card-slot.preview").evaluate_all(
            "els => els.map(e => e.dataset.card)"
        )
        return sorted(found)

    def wanted(index: int) -> list[str]:
        return sorted(str(choices.nth(index).get_attribute("data-captures")).split())

    for index in range(choices.count()):
        choices.nth(index).hover()
        assert lit() == wanted(index), f"pointing at choice {index + 1}"
    # the table is drawn anew (the other player comes online) under the pointer: still lit
    choices.nth(1).hover()
    other = next(each for each in tokens if each != seat)
    with connect(ws_url(moments_server, room)) as socket:
        RemotePeer(socket).join(tokens[other])
        expect(page.locator("#seat-north .dot.here")).to_have_count(1, timeout=TIMEOUT)
        assert lit() == wanted(1)
    page.mouse.move(1, 1)
    choices.nth(1).focus()
    assert lit() == wanted(1)
    page.keyboard.press("Shift+Tab")
    assert lit() == wanted(0)


# -- 5. the hint's box


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_the_hint_box_fits_its_words(
    chromium: Any, moments_server: Server, width: int, height: int
) -> None:
    room, tokens, seat = room_where(moments_server, lambda match: len(match["legal"]) > 1)
    context = chromium.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    sit_down(page, moments_server, room, seat, tokens[seat])
    page.get_by_test_id("hint-button").click()
    box = page.get_by_test_id("hint-text")
    box.locator("p.best").wait_for(timeout=TIMEOUT)
    # a long piece of advice, as a language with long words gives
    page.evaluate(
        """() => {
          const best = document.querySelector("#hint-text p.best");
          const words = "the card keeps the sevens for later and leaves nothing to sweep. ";
          best.append(" " + words.repeat(3));
        }"""
    )
    sizes = box.evaluate(
        """(node) => {
          const panel = node.parentElement;
          const last = node.lastElementChild.getBoundingClientRect();
          const own = node.getBoundingClientRect();
          const seen = panel.getBoundingClientRect();
          return {
            cut: node.scrollHeight - node.clientHeight,
            below: own.bottom - last.bottom,
            hidden: Math.max(0, own.bottom - seen.bottom) + Math.max(0, seen.top - own.top),
            scrolls: panel.scrollHeight - panel.clientHeight,
          };
        }"""
    )
    context.close()
    assert sizes["cut"] <= 1, sizes
    assert sizes["below"] < 20, sizes  # no empty space below the words
    # every word in sight: neither the box nor the panel around it cut it off
    assert sizes["hidden"] <= 1 and sizes["scrolls"] <= 1, sizes


# -- 6. a take back against the computer

RECORD_TABLE = """
() => {
  window.__tables = [];
  const table = document.getElementById("table-cards");
  const shown = () => [...table.querySelectorAll("[data-testid=table-card]")]
    .map((n) => n.dataset.card).join(" ");
  window.__clicked = shown();
  new MutationObserver(() => {
    window.__tables.push(shown());
  }).observe(table, { childList: true, subtree: true });
}
"""


# A slow link: plays reach the page 0.3 s late, the answer to a take back 1 s late. The
# seats whose plays have reached it are kept, in order.
SLOW_LINK = """
(() => {
  window.__played = [];
  const add = WebSocket.prototype.addEventListener;
  WebSocket.prototype.addEventListener = function (type, listener, options) {
    if (type !== "message") return add.call(this, type, listener, options);
    const late = (event) => {
      const text = String(event.data);
      const takeBack = text.includes('"kind":"take_back"');
      const delay = takeBack ? 1000 : text.includes('"kind":"play"') ? 300 : 0;
      const arrive = () => {
        listener(event);
        const message = JSON.parse(text);
        if (message.event?.kind === "play") window.__played.push(message.event.seat);
      };
      if (delay) setTimeout(arrive, delay);
      else arrive();
    };
    return add.call(this, type, late, options);
  };
})();
"""


def test_a_take_back_never_shows_the_computers_reply(page: Any, moments_server: Server) -> None:
    ticket = computer_room(moments_server, lambda match: match["to_move"] == match["seat"])
    page.add_init_script(SLOW_LINK)
    open_seat(page, moments_server, ticket)
    playable = page.locator("[data-testid=hand-card][data-moves]").first
    playable.wait_for(timeout=TIMEOUT)
    start = " ".join(table_cards(page))
    card = str(playable.get_attribute("data-card"))
    play_card(page, card)
    # the log opens before Ana's move is shown: her move and the computer's reply are held
    page.get_by_test_id("log-button").click()
    page.wait_for_function("() => window.__played.length >= 2", timeout=TIMEOUT)
    assert page.evaluate("window.__played") == [ticket["seat"], 1 - ticket["seat"]]
    page.locator("#log-close").click()
    # her move is shown at once, the computer's reply a moment later: she takes back first
    take_back = page.get_by_test_id("take-back")
    expect(take_back).to_be_enabled(timeout=TIMEOUT)
    page.evaluate(RECORD_TABLE)
    page.evaluate("document.getElementById('take-back').click()")
    page.locator(f'[data-testid=hand-card][data-card="{card}"]').wait_for(timeout=TIMEOUT)
    page.wait_for_timeout(300)
    clicked = page.evaluate("window.__clicked")
    assert clicked != start  # her move was on the table when she took it back
    assert set(page.evaluate("window.__tables")) <= {start, clicked}
    assert table_cards(page) == start.split()
    expect(page.get_by_test_id("turn-indicator")).to_have_attribute(
        "data-seat", str(ticket["seat"])
    )


# -- 7. the dialogs


@pytest.mark.parametrize("which", ["log", "rules", "piles"])
def test_the_dialogs_have_the_pages_frame(page: Any, moments_server: Server, which: str) -> None:
    room, tokens, seat = room_where(moments_server, lambda match: True)
    sit_down(page, moments_server, room, seat, tokens[seat])
    page.keyboard.press(which[0])
    dialog = page.get_by_test_id(f"{which}-dialog")
    expect(dialog).to_be_visible()
    frames = dialog.evaluate(
        """(dialog) => [dialog, ...dialog.querySelectorAll("*")].filter((node) => {
          const style = getComputedStyle(node);
          const black = (colour) => colour === "rgb(0, 0, 0)" || colour === "rgb(16, 16, 16)";
          const thick = parseFloat(style.borderTopWidth) >= 2;
          return (style.outlineStyle !== "none" && black(style.outlineColor))
            || (style.borderTopStyle !== "none" && thick && black(style.borderTopColor));
        }).map((node) => node.id || node.tagName)"""
    )
    assert frames == []
    if which == "rules":
        expect(page.locator("#rules-title")).to_have_text("Cheat sheet: Escoba", timeout=TIMEOUT)
