"""Table talk in a real browser (issue 33, "Table talk"): a quick phrase one person picks shows
on the other's screen in their own language, naming who said it; free text at a private table
is shown as text, never as markup; a muted person's talk shows no more; a spectator reads but
has nothing to say with. One screen is a phone.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from web_browser import Server, person_room, sit_down

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
