"""What a person reads and sees around the table, in a real Chromium (see ``web_browser.py``):
the names of rooms and rules in the lobby, the deck that follows the game chosen, the card
names of a hint and of a screen reader, the matches with take backs in the history, and the
card pictures of the explained score pad."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect
from websockets.sync.client import connect

from escoba.ai.coach import MoveAdvice
from escoba.messages import Message
from escoba.moves import Move
from escoba.server.rooms.actor import _advice_text
from server_helpers import RemotePeer, is_state, play_until
from test_web_scoring import at_a_hands_last_card
from web_browser import FREE_LIMITS, Server, person_room, room_where, seat_state, sit_down

TIMEOUT = 20_000  # ms


@pytest.fixture(scope="module")
def words_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("words"), limits=FREE_LIMITS)
    running.start()
    yield running
    running.stop()


def test_the_explained_score_pad_shows_cards_big_enough_to_read(
    page: Any, words_server: Server
) -> None:
    """The hand's score pad names cards by their pictures (the sevens, the leftovers): they are
    drawn big enough to tell their rank and suit, on a laptop and on a phone."""
    room, token, seat = at_a_hands_last_card(words_server)
    before = seat_state(words_server, room, token)["match"]
    sit_down(page, words_server, room, seat, token)
    card = before["hand"][0]
    page.locator(f"[data-testid=hand-card][data-card='{card}']").click()
    if len([move for move in before["legal"] if move["card"] == card]) > 1:
        page.get_by_test_id("capture-choice").first.click()
    dialog = page.get_by_test_id("scorepad-dialog")
    dialog.get_by_test_id("explained").wait_for(timeout=TIMEOUT)
    pictures = dialog.locator(".mini-card")
    assert pictures.count() > 0
    for viewport, least in (
        ({"width": 1280, "height": 800}, 36),
        ({"width": 390, "height": 844}, 30),
    ):
        page.set_viewport_size(viewport)
        widths = pictures.evaluate_all("nodes => nodes.map(n => n.getBoundingClientRect().width)")
        assert min(widths) >= least, (viewport, widths)


# -- a hint's words -------------------------------------------------------------------------


def test_a_hints_words_name_every_card_in_one_deck_and_language() -> None:
    """The coach's sentences name the seven of coins by the game's word ("the 7 of coins",
    "settebello"); the hint says it as the reader's deck names it, like every other card."""
    best = Move.parse("7h:7d")
    advice = MoveAdvice(
        Move.parse("Kd"),
        gain=0.1,
        loss=1.2,
        verdict=Message("coach.costs_points", {"points": 1.2, "best": best}),
        reasons=(Message("coach.takes_seven_of_coins"), Message("coach.gives_seven_of_coins")),
    )
    spanish = _advice_text(advice, "en", "spanish")
    assert spanish.count("7 de oros") == 3 and "7 de copas" in spanish, spanish
    assert "coins" not in spanish, spanish
    french = _advice_text(advice, "en", "french")
    assert french.count("7♦") == 3 and "7♥" in french and "coins" not in french, french
    italian = _advice_text(advice, "it", "spanish")
    assert italian.count("7 de oros") == 3 and "settebello" not in italian, italian
    assert "Costs about 1.2 points against 7 de copas" in spanish


def prefer(page: Any, server: Server, **kept: str) -> None:
    """Open the lobby with these choices kept in the browser (language, deck)."""
    page.goto(server.url + "/")
    page.evaluate(
        "(kept) => { for (const [k, v] of Object.entries(kept)) localStorage.setItem(k, v); }",
        {f"escoba.{name}": value for name, value in kept.items()},
    )


def seven_of_coins_to_take(match: dict[str, Any]) -> bool:
    """The 7 of coins lies on the table and a card of the hand can take it."""
    return any("7d" in move["captures"] for move in match["legal"])


def test_a_hint_in_english_with_spanish_cards_names_spanish_cards_only(
    page: Any, words_server: Server
) -> None:
    room, tokens, seat = room_where(words_server, seven_of_coins_to_take)
    prefer(page, words_server, language="en", deck="spanish")
    sit_down(page, words_server, room, seat, tokens[seat])
    page.get_by_test_id("hint-button").click()
    hint = page.get_by_test_id("hint-text")
    page.locator("#hint-text p").first.wait_for(timeout=TIMEOUT)
    said = hint.inner_text()
    assert "7 de oros" in said, said
    assert "of coins" not in said and "♦" not in said, said


def test_french_cards_are_spoken_as_the_french_deck_names_them(
    page: Any, words_server: Server
) -> None:
    """A screen reader hears 7♦ as "7 of diamonds", the card shown, not "7 of coins"."""

    def seven_in_sight(match: dict[str, Any]) -> bool:
        return "7d" in match["hand"] or "7d" in match["table"]

    room, tokens, seat = room_where(words_server, seven_in_sight)
    prefer(page, words_server, language="en", deck="french")
    sit_down(page, words_server, room, seat, tokens[seat])
    card = page.locator("[data-card='7d']").first
    spoken = card.locator(".card-name").all_inner_texts() or [card.get_attribute("aria-label")]
    assert spoken == ["7 of diamonds"], spoken
    names = page.locator(".card-name").all_inner_texts()
    assert names and not any(word in " ".join(names) for word in ("coins", "cups", "swords"))


# -- the lobby ------------------------------------------------------------------------------


def test_a_room_with_a_changed_option_is_named_by_its_game(page: Any, words_server: Server) -> None:
    """Scopa played to 6 is "Scopa · to 6" on the room page and in "Your rooms", which says
    whom the room is against and as whom the browser sits there."""
    prefer(page, words_server, language="en")
    page.goto(words_server.url + "/")
    page.get_by_test_id("nickname").fill("Marta")
    page.get_by_test_id("preset").select_option("scopa")
    page.locator("#options summary").click()
    page.get_by_test_id("option-target_score").fill("6")
    page.get_by_test_id("seat-kind-1").select_option("medium")
    page.get_by_test_id("create-room").click()
    page.wait_for_url("**/room/**", timeout=TIMEOUT)
    expect(page.locator("#game-name")).to_have_text("Scopa · to 6", timeout=TIMEOUT)
    page.goto(words_server.url + "/")
    link = page.get_by_test_id("my-room-link")
    expect(link).to_have_text("Scopa · to 6 vs Computer (medium) · as Marta", timeout=TIMEOUT)


def test_your_rooms_say_what_each_room_is(page: Any, words_server: Server) -> None:
    """A room this browser holds a seat in, found by its ticket alone: its game and the
    others at the table, never its id."""
    room, tokens = person_room(words_server)
    prefer(page, words_server, language="en")
    page.evaluate(
        "([key, ticket]) => localStorage.setItem(key, JSON.stringify(ticket))",
        [f"escoba.ticket.{room}", {"seat": 0, "token": tokens[0], "nickname": "Ana", "at": 1}],
    )
    page.goto(words_server.url + "/")
    link = page.get_by_test_id("my-room-link")
    expect(link).to_have_text("Escoba with Bea · as Ana", timeout=TIMEOUT)
    assert room[:8] not in page.get_by_test_id("my-room").inner_text()


def test_the_deck_follows_the_game_until_one_is_picked(page: Any, words_server: Server) -> None:
    """Escoba is dealt Spanish cards, Scopa and Scopone Italian ones, Escova the French deck
    Brazilian players use; a deck the player picks stays, whatever the game."""
    prefer(page, words_server, language="en")
    page.goto(words_server.url + "/")
    deck = page.locator("#deck-picker")
    game = page.get_by_test_id("preset")
    for preset, style in (
        ("scopa", "italian"),
        ("escova", "french"),
        ("scopone-scientifico", "italian"),
        ("escoba-classic", "spanish"),
        ("escova", "french"),
    ):
        game.select_option(preset)
        expect(deck).to_have_value(style)
    # Escoba chosen and played: its room shows Spanish cards.
    page.get_by_test_id("nickname").fill("Marta")
    game.select_option("escoba")
    page.get_by_test_id("seat-kind-1").select_option("medium")
    page.get_by_test_id("create-room").click()
    page.locator("[data-testid=hand-card] svg.card-spanish").first.wait_for(timeout=TIMEOUT)
    # A deck picked by the player stays, whatever game comes next.
    page.goto(words_server.url + "/")
    page.locator("#deck-picker").select_option("french")
    for preset in ("scopa", "escoba"):
        page.get_by_test_id("preset").select_option(preset)
        expect(page.locator("#deck-picker")).to_have_value("french")
    page.reload()
    page.get_by_test_id("preset").select_option("scopa")
    expect(page.locator("#deck-picker")).to_have_value("french")


# -- the history ----------------------------------------------------------------------------


def finished(server: Server, take_back: bool) -> dict[str, Any]:
    """A match against a beginner to 1 point, played through the protocol, with one move taken
    back or none: its ticket."""
    body = {"nickname": "Ana", "seats": ["person", "beginner"], "options": {"target_score": 1}}
    ticket: dict[str, Any] = httpx.post(server.url + "/api/rooms", json=body).json()
    with connect(server.url.replace("http", "ws") + f"/ws/rooms/{ticket['room']}") as socket:
        peer = RemotePeer(socket)
        peer.join(ticket["token"])
        seat = ticket["seat"]
        if take_back:

            def played_once(state: dict[str, Any]) -> bool:
                match = state["match"]
                mine = [e for e in match["history"] if e["kind"] == "play" and e["seat"] == seat]
                return bool(match["to_move"] == seat and mine)

            play_until([peer], played_once)
            peer.send({"type": "take_back"})
            peer.until(lambda m: is_state(m) and (m.get("event") or {}).get("kind") == "take_back")
        play_until([peer], lambda state: state["match"]["over"])
    return ticket


def test_matches_with_take_backs_are_marked_and_left_out_of_the_statistics(
    page: Any, words_server: Server
) -> None:
    plain = finished(words_server, take_back=False)
    taken = finished(words_server, take_back=True)
    prefer(page, words_server, language="en")
    for at, ticket in enumerate((plain, taken)):
        page.evaluate(
            "([key, ticket]) => localStorage.setItem(key, JSON.stringify(ticket))",
            [
                f"escoba.ticket.{ticket['room']}",
                {"seat": ticket["seat"], "token": ticket["token"], "nickname": "Ana", "at": at},
            ],
        )
    page.goto(words_server.url + "/history")
    rows = page.get_by_test_id("history-row")
    expect(rows).to_have_count(2, timeout=TIMEOUT)
    marks = [row.get_by_test_id("take-backs") for row in rows.all()]
    assert [mark.count() for mark in marks] == [1, 0]  # newest first: the one taken back
    # The person's move and the computer's after it: the moves taken back, as the record has them.
    mine = httpx.post(words_server.url + "/api/matches/mine", json={"tokens": [taken["token"]]})
    count = mine.json()["matches"][0]["take_backs"]
    assert count >= 1
    assert marks[0].inner_text() == f"↶ {count} move{'s' if count > 1 else ''} taken back"
    assert all(
        text.startswith("Escoba · to 1") for text in rows.locator(".preset").all_inner_texts()
    )
    total = page.locator("[data-testid=stats-row][data-opponents=all]")
    assert total.locator("[data-stat=matches]").inner_text() == "1"
    note = page.get_by_test_id("history-left-out")
    expect(note).to_have_text("Not counted here: 1 match in which moves were taken back.")
