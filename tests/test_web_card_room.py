"""Table talk and clocks in a real browser (issue 33): a quick phrase one person picks shows
on the other's screen in their own language, naming who said it; free text at a private table
is shown as text, never as markup; a muted person's talk shows no more; a spectator reads but
has nothing to say with (one screen is a phone). A table's clock runs on the seat to move for
everybody, red in its last seconds, and when it is out a card is played for that seat. A seat
abandoned is given to a computer, or the match claimed, by whoever is left.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import expect

from web_browser import Server, person_room, press_play, sit_down

TIMEOUT = 20_000  # ms


def test_two_people_talk_at_a_private_table(chromium: Any, server: Server) -> None:
    room, tokens = person_room(server)
    contexts = [
        chromium.new_context(viewport={"width": 1280, "height": 800}),
        chromium.new_context(viewport={"width": 390, "height": 844}),
        chromium.new_context(viewport={"width": 1280, "height": 800}),
    ]
    try:
        ana, bea, cy = (context.new_page() for context in contexts)
        sit_down(ana, server, room, 0, tokens[0])
        bea.goto(server.url + "/")
        bea.evaluate("localStorage.setItem('escoba.language', 'es')")  # Bea reads Spanish
        sit_down(bea, server, room, 1, tokens[1])
        expect(bea.locator("html")).to_have_attribute("lang", "es", timeout=TIMEOUT)

        ana.get_by_test_id("talk-button").click()
        expect(ana.get_by_test_id("talk-panel")).to_be_visible()
        ana.get_by_test_id("phrase-good_luck").click()
        bubble = bea.get_by_test_id("talk-bubble")
        expect(bubble).to_have_text("Ana: ¡Suerte!", timeout=TIMEOUT)  # in Bea's language
        expect(bubble).to_be_in_viewport()
        # the bubble covers none of Bea's cards
        box, hand = bubble.bounding_box(), bea.get_by_test_id("hand-card").first.bounding_box()
        assert box["y"] + box["height"] <= hand["y"] or box["y"] >= hand["y"] + hand["height"]

        bea.get_by_test_id("talk-button").click()
        bea.get_by_test_id("talk-text").fill("<b>hola</b> ¿otra?")
        bea.get_by_test_id("talk-text").press("Enter")
        expect(ana.get_by_test_id("talk-bubble")).to_have_text(
            "Bea: <b>hola</b> ¿otra?", timeout=TIMEOUT
        )
        assert ana.locator("#talk-bubble b, #talk-lines b").count() == 0
        expect(ana.get_by_test_id("talk-lines").locator("li")).to_have_count(2)

        # Saying something closed the panel: the table is in sight again
        expect(ana.get_by_test_id("talk-panel")).to_be_hidden()
        # Ana mutes Bea: Bea's next phrase shows neither in a bubble nor in the lines
        ana.get_by_test_id("talk-button").click()
        ana.get_by_test_id("mute-1").check()
        expect(ana.get_by_test_id("talk-lines").locator("li")).to_have_count(1)
        bea.get_by_test_id("talk-button").click()
        bea.get_by_test_id("phrase-thanks").click()
        expect(bea.get_by_test_id("talk-lines").locator("li")).to_have_count(3, timeout=TIMEOUT)
        ana.get_by_test_id("phrase-oops").click()  # after Bea's: when it shows, hers came
        expect(ana.get_by_test_id("talk-bubble")).to_have_text("You: Oops!", timeout=TIMEOUT)
        expect(ana.get_by_test_id("talk-lines").locator("li")).to_have_count(2)

        # A spectator reads what was said before coming, and has no phrase to say
        cy.goto(server.url + f"/room/{room}")
        cy.get_by_test_id("watch-room").click()
        cy.get_by_test_id("talk-button").click()
        expect(cy.get_by_test_id("talk-lines").locator("li")).to_have_count(4, timeout=TIMEOUT)
        expect(cy.get_by_test_id("phrase-hello")).to_be_hidden()
        expect(cy.get_by_test_id("talk-form")).to_be_hidden()
    finally:
        for context in contexts:
            context.close()


def test_the_seat_to_move_sees_its_time_run_out(chromium: Any, server: Server) -> None:
    """A table of 5 s a move and no reserve: both people see the seat to move's clock run,
    red in its last seconds; when it is out, the server plays a card for that seat and both
    are told so. (The wait is the table's own clock: 5 s.)"""
    room, tokens = person_room(server, clock={"per_move": 5, "reserve": 0})
    contexts = [chromium.new_context(viewport={"width": 1280, "height": 800}) for _ in range(2)]
    try:
        ana, bea = (context.new_page() for context in contexts)
        sit_down(ana, server, room, 0, tokens[0])
        sit_down(bea, server, room, 1, tokens[1])
        running = ana.locator(".seat-clock[data-running=true]")
        expect(running).to_have_count(1, timeout=TIMEOUT)
        mover = int((running.get_attribute("data-testid") or "clock-0").split("-")[1])
        for page in (ana, bea):
            clock = page.get_by_test_id(f"clock-{mover}")
            expect(clock).to_have_attribute("data-running", "true", timeout=TIMEOUT)
            expect(clock).to_have_class("seat-clock low")  # 5 s or less from the start
            expect(clock).to_be_in_viewport()
        for page in (ana, bea):
            expect(page.locator(".toast.info")).to_contain_text("time ran out", timeout=TIMEOUT)
            expect(page.get_by_test_id(f"clock-{mover}")).to_have_attribute("data-running", "false")
            expect(page.get_by_test_id(f"clock-{1 - mover}")).to_have_attribute(
                "data-running", "true"
            )
    finally:
        for context in contexts:
            context.close()


def test_a_clock_is_chosen_when_a_game_is_made(page: Any, server: Server) -> None:
    page.goto(server.url + "/")
    page.get_by_test_id("nickname").fill("Ana")
    page.get_by_test_id("clock").select_option("custom")
    page.get_by_test_id("clock-per-move").fill("30")
    page.get_by_test_id("clock-reserve").fill("90")
    room = press_play(page, server)
    info = httpx.get(server.url + f"/api/rooms/{room}").json()
    assert (info["clock"]["per_move"], info["clock"]["reserve"]) == (30.0, 90.0)
    page.get_by_test_id("hand-card").first.wait_for(timeout=TIMEOUT)
    # against a computer, the person's clock shows beside their name, and there is nobody
    # to talk with: no Talk button takes room in the bar
    expect(page.locator(".seat-clock")).to_have_count(1, timeout=TIMEOUT)
    expect(page.get_by_test_id("talk-button")).to_be_hidden()


def test_the_players_left_decide_for_an_abandoned_seat(chromium: Any, tmp_path: Path) -> None:
    """Bea closes her page in two rooms; once the grace period is over (5 s here, the
    server's --abandon-after), Ana sees who left and chooses: in one room a computer takes
    Bea's seat and the match goes on (on a phone), in the other she claims the match, shown
    as won because the other side left."""
    quick = Server(tmp_path, options=["--abandon-after", "5"])
    quick.start()
    contexts = [
        chromium.new_context(viewport={"width": 1280, "height": 800}),
        chromium.new_context(viewport={"width": 390, "height": 844}),
        chromium.new_context(viewport={"width": 1280, "height": 800}),
    ]
    try:
        claimed, claim_tokens = person_room(quick)
        replaced, replace_tokens = person_room(quick)
        ana, ana_phone, bea = (context.new_page() for context in contexts)
        sit_down(ana, quick, claimed, 0, claim_tokens[0])
        sit_down(ana_phone, quick, replaced, 0, replace_tokens[0])
        sit_down(bea, quick, claimed, 1, claim_tokens[1])
        expect(ana.get_by_test_id("abandoned-banner")).to_be_hidden()
        bea.close()  # Bea leaves; in the other room she never came

        banner = ana.get_by_test_id("abandoned-banner")
        expect(banner).to_contain_text("Bea left the table", timeout=TIMEOUT)
        ana.get_by_test_id("claim-match").click()
        expect(ana.get_by_test_id("winner")).to_contain_text(
            "The other side left the table", timeout=TIMEOUT
        )
        expect(ana.get_by_test_id("rematch-button")).to_be_visible()
        expect(banner).to_be_hidden()

        phone_banner = ana_phone.get_by_test_id("abandoned-banner")
        expect(phone_banner).to_be_visible(timeout=TIMEOUT)
        expect(phone_banner).to_be_in_viewport()
        ana_phone.get_by_test_id("replace-level").select_option("easy")
        ana_phone.get_by_test_id("replace-seat").click()
        expect(phone_banner).to_be_hidden(timeout=TIMEOUT)
        ana_phone.get_by_text("Computer (easy)").filter(visible=True).first.wait_for(
            timeout=TIMEOUT
        )
        expect(ana_phone.get_by_test_id("claim-match")).to_be_hidden()
    finally:
        for context in contexts:
            context.close()
        quick.stop()
