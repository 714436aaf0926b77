"""The lobby's open tables in a real browser (issue 33, "Open tables"): a table Ana opens
appears in the lobby of a stranger already looking at it, without reloading; one click seats
the stranger and takes both to the match; the full table then shows as a match to watch, and
it leaves every lobby when its people leave. Phone and desktop widths alike.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from web_browser import Server, press_play

TIMEOUT = 20_000  # ms: a page, a state message and a push from the lobby fit well inside


def open_table(page: Any, server: Server) -> str:
    """Ana opens a table for two people (Scopa) from the lobby: the room's id."""
    page.goto(server.url + "/")
    page.get_by_test_id("nickname").fill("Ana")
    page.get_by_test_id("preset").select_option("scopa")
    page.get_by_test_id("seat-kind-1").select_option("person")
    page.get_by_test_id("listed").check()
    return press_play(page, server)


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_a_stranger_sits_at_an_open_table_from_the_lobby(
    chromium: Any, server: Server, width: int, height: int
) -> None:
    contexts = [chromium.new_context(viewport={"width": width, "height": height}) for _ in range(3)]
    try:
        ana, bea, cy = (context.new_page() for context in contexts)
        bea.goto(server.url + "/")
        tables = bea.get_by_test_id("open-table")
        expect(bea.get_by_test_id("open-tables-none")).to_be_visible(timeout=TIMEOUT)
        # The watchable box follows the open one: nothing to watch at a private table.
        ana.goto(server.url + "/")
        expect(ana.get_by_test_id("watchable")).to_be_disabled()
        room = open_table(ana, server)
        ana.get_by_test_id("hand-card").first.wait_for(timeout=TIMEOUT)

        # Bea, who had the lobby open all along, sees it come: Scopa, Ana and a free seat.
        table = tables.filter(has_text="Ana")
        expect(table).to_have_count(1, timeout=TIMEOUT)
        expect(table).to_have_attribute("data-room", room)
        expect(table).to_contain_text("Scopa")
        expect(table).to_contain_text("a free seat")
        expect(bea.get_by_test_id("open-tables-none")).to_be_hidden()
        sit = table.get_by_test_id("take-seat")
        expect(sit).to_be_in_viewport()

        # Without a nickname she is asked for one, and nothing is taken.
        sit.click()
        expect(bea.locator("#open-tables-section .error")).to_be_visible()
        expect(bea.get_by_test_id("nickname")).to_be_focused()
        bea.get_by_test_id("nickname").fill("Bea")
        sit.click()
        bea.wait_for_url(f"**/room/{room}", timeout=TIMEOUT)
        bea.get_by_text("Ana", exact=True).filter(visible=True).first.wait_for(timeout=TIMEOUT)
        ana.get_by_text("Bea", exact=True).filter(visible=True).first.wait_for(timeout=TIMEOUT)

        # Cy, arriving now, finds the match to watch, not a seat to take.
        cy.goto(server.url + "/")
        playing = cy.locator(f"[data-testid=open-table][data-room='{room}']")
        expect(playing).to_have_attribute("data-status", "playing", timeout=TIMEOUT)
        expect(playing.get_by_test_id("take-seat")).to_have_count(0)
        watch = playing.get_by_test_id("watch-table")
        expect(watch).to_have_attribute("href", f"/room/{room}")

        # Both leave: the table leaves Cy's lobby at once.
        ana.close()
        bea.close()
        expect(playing).to_have_count(0, timeout=TIMEOUT)
        expect(cy.get_by_test_id("open-tables-none")).to_be_visible()
    finally:
        for context in contexts:
            context.close()


def test_two_strangers_meet_through_play_now(chromium: Any, server: Server) -> None:
    """Ana presses Play now and waits, seeing for how long; Bea, on a phone, asks for the same
    game and both land in one room, each seeing the other."""
    contexts = [
        chromium.new_context(viewport={"width": 1280, "height": 800}),
        chromium.new_context(viewport={"width": 390, "height": 844}),
    ]
    try:
        ana, bea = (context.new_page() for context in contexts)
        for page, name in ((ana, "Ana"), (bea, "Bea")):
            page.goto(server.url + "/")
            page.get_by_test_id("nickname").fill(name)
            page.get_by_test_id("quick-game").select_option("escova")
            expect(page.get_by_test_id("play-now")).to_be_in_viewport()
        ana.get_by_test_id("play-now").click()
        status = ana.get_by_test_id("quick-status")
        expect(status).to_contain_text("Looking for players for Escova", timeout=TIMEOUT)
        expect(ana.get_by_test_id("cancel-seek")).to_be_visible()
        expect(ana.get_by_test_id("play-now")).to_be_hidden()
        bea.get_by_test_id("play-now").click()
        for page in (ana, bea):
            page.wait_for_url("**/room/**", timeout=TIMEOUT)
        assert ana.url == bea.url
        ana.get_by_text("Bea", exact=True).filter(visible=True).first.wait_for(timeout=TIMEOUT)
        bea.get_by_text("Ana", exact=True).filter(visible=True).first.wait_for(timeout=TIMEOUT)
    finally:
        for context in contexts:
            context.close()


def test_waiting_alone_the_free_seats_go_to_computers(page: Any, tmp_path: Path) -> None:
    """With nobody else coming, the wait ends in an offer: Play with computers seats Ana with
    a computer of the level she picks (the server's wait is cut to 1 s here)."""
    quick = Server(tmp_path, options=["--quick-match-wait", "1"])
    quick.start()
    try:
        page.goto(quick.url + "/")
        page.get_by_test_id("nickname").fill("Ana")
        page.get_by_test_id("play-now").click()
        fill = page.get_by_test_id("fill-seats")
        expect(fill).to_be_visible(timeout=TIMEOUT)
        page.get_by_test_id("fill-level").select_option("easy")
        fill.click()
        page.wait_for_url("**/room/**", timeout=TIMEOUT)
        page.get_by_text("Computer (easy)").filter(visible=True).first.wait_for(timeout=TIMEOUT)
    finally:
        quick.stop()


def test_four_strangers_meet_for_escoba_in_pairs(chromium: Any, server: Server) -> None:
    """Four people ask Play now for 4-player Escoba, one after another: all four land in
    one room, two partnerships, each seeing the three others by name."""
    contexts = [chromium.new_context(viewport={"width": 1280, "height": 800}) for _ in range(4)]
    names = ["Ana", "Bea", "Cy", "Dan"]
    try:
        pages = [context.new_page() for context in contexts]
        for page, name in zip(pages, names, strict=True):
            page.goto(server.url + "/")
            page.get_by_test_id("nickname").fill(name)
            page.get_by_test_id("quick-game").select_option("escoba")
            page.get_by_test_id("quick-players").select_option("4")
            page.get_by_test_id("play-now").click()
            # Waiting, or already seated: the fourth completes the table at once (and so may
            # an earlier one, when someone from another test of this server still waits).
            page.wait_for_function(
                """() => location.pathname.startsWith("/room/") || Boolean(
                    document.querySelector('[data-testid="quick-status"]')?.checkVisibility())""",
                timeout=TIMEOUT,
            )
        for page in pages:
            page.wait_for_url("**/room/**", timeout=TIMEOUT)
        assert len({page.url for page in pages}) == 1
        for page, name in zip(pages, names, strict=True):
            for other in names:
                if other != name:
                    page.get_by_text(other, exact=True).filter(visible=True).first.wait_for(
                        timeout=TIMEOUT
                    )
        expect(pages[0].get_by_test_id("partner-tag")).to_have_count(1)
    finally:
        for context in contexts:
            context.close()
