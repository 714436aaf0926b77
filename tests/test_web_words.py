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

from test_web_scoring import at_a_hands_last_card, seat_state, sit_down
from web_browser import FREE_LIMITS, Server

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
    for viewport, least in (({"width": 1280, "height": 800}, 36), ({"width": 390, "height": 844}, 30)):
        page.set_viewport_size(viewport)
        widths = pictures.evaluate_all("nodes => nodes.map(n => n.getBoundingClientRect().width)")
        assert min(widths) >= least, (viewport, widths)
