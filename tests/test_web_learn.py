"""The tutorial in the browser: GET /api/tutorial (every step and every try, already in the
reader's words) and the /learn page, walked in a real Chromium against `escoba serve`."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from escoba import DECK_STYLES, Move
from escoba.catalogue import LANGUAGES
from escoba.tutorial import STEPS, every_try, judge
from web_browser import Server

TIMEOUT = 20_000  # ms


def test_the_api_has_every_step_and_every_try(client: TestClient) -> None:
    answer = client.get("/api/tutorial", params={"language": "de", "deck": "spanish"})
    assert answer.status_code == 200
    assert answer.headers["content-language"] == "de"
    view = answer.json()
    assert [lesson["title"] for lesson in view["lessons"]][:2] == ["Zusammen 15", "Eine Escoba"]
    assert len(view["steps"]) == len(STEPS)
    for step, shown in zip(STEPS, view["steps"], strict=True):
        assert shown["kind"] == step.kind and shown["rules"] == step.preset
        if step.kind != "play":
            assert "tries" not in shown
            continue
        codes = [card["code"] for card in shown["table"]]
        assert codes == sorted(codes, key=lambda code: Move.parse(code).card.index)
        tries = {Move.parse(text): verdict for text, verdict in shown["tries"].items()}
        assert set(tries) == set(every_try(step))
        for move, verdict in tries.items():
            judged = judge(step, move)
            assert verdict == {
                "accepted": judged.accepted,
                "legal": judged.legal,
                "text": judged.text("de", "spanish"),
            }
    fifteen = view["steps"][1]
    assert fifteen["hand"][0] == {"code": "4h", "name": "4 de copas"}
    assert fifteen["tries"]["4h:3h+4c"]["text"] == "4 + 3 + 4 = 11, nicht 15."
    score = view["steps"][8]
    assert score["sides"] == ["Du", "Gegner"] and score["points"] == [4, 2]


def test_the_api_refuses_what_it_does_not_know(client: TestClient) -> None:
    for params, code in (
        ({"language": "xx"}, "unknown_language"),
        ({"deck": "tarot"}, "unknown_deck"),
    ):
        answer = client.get("/api/tutorial", params=params)
        assert answer.status_code == 404
        assert answer.json()["code"] == code
    assert client.get("/api/tutorial").json()["language"] == "en"
    assert client.get("/learn").status_code == 200
    for language in LANGUAGES:
        for deck in DECK_STYLES:
            assert client.get(
                "/api/tutorial", params={"language": language, "deck": deck}
            ).is_success


@pytest.mark.usefixtures("server")
def test_a_first_visitor_learns_the_first_lesson(page: Any, server: Server) -> None:
    """From the lobby's invitation through the first lesson: a wrong try is explained, the
    right one accepted, and the step reached is kept over a reload."""
    from playwright.sync_api import expect

    page.goto(server.url + "/")
    invite = page.get_by_test_id("learn-invite")
    expect(invite).to_have_text("New here? Learn to play, step by step")
    invite.click()
    page.wait_for_url(server.url + "/learn", timeout=TIMEOUT)
    expect(page.locator(".site-header a[href='/learn']")).to_have_text("Learn to play")
    expect(page.get_by_test_id("progress")).to_have_text("Step 1 of 13 · Adding up to 15")
    expect(page.get_by_test_id("back")).to_be_disabled()
    page.get_by_test_id("next").click()
    expect(page.get_by_test_id("progress")).to_have_text("Step 2 of 13 · Adding up to 15")

    hand = page.get_by_test_id("hand-card")
    table = page.get_by_test_id("table-card")
    expect(hand).to_have_count(3)
    expect(table).to_have_count(4)
    page.get_by_test_id("play").click()
    verdict = page.get_by_test_id("verdict")
    expect(verdict).to_have_text("First choose a card of your hand.")

    # A wrong try: 4 + 1 + 3 is not 15.
    page.locator("[data-testid=hand-card][data-card='4h']").click()
    page.locator("[data-testid=table-card][data-card='As']").click()
    page.locator("[data-testid=table-card][data-card='3h']").click()
    expect(page.locator("[data-testid=table-card][aria-pressed=true]")).to_have_count(2)
    page.get_by_test_id("play").click()
    expect(verdict).to_have_text("4 + 1 + 3 = 8, not 15.")
    expect(verdict).to_have_attribute("data-accepted", "false")
    # Dropping a card that can take is refused, with the capture it could make: the 4♥
    # stays chosen, the table cards are put back one by one.
    page.locator("[data-testid=table-card][data-card='As']").click()
    page.locator("[data-testid=table-card][data-card='3h']").click()
    page.get_by_test_id("play").click()
    expect(verdict).to_contain_text("Your 4♥ can take 4♣ + 7♦, so it must")
    # The right move, the 4♥ still chosen.
    expect(page.locator("[data-testid=hand-card][data-card='4h']")).to_have_attribute(
        "aria-pressed", "true"
    )
    page.locator("[data-testid=table-card][data-card='4c']").click()
    page.locator("[data-testid=table-card][data-card='7d']").click()
    page.get_by_test_id("play").click()
    expect(verdict).to_have_attribute("data-accepted", "true")
    expect(verdict).to_contain_text("Right: 4♥ + 4♣ + 7♦ make 15.")
    page.get_by_test_id("next").click()
    expect(page.get_by_test_id("progress")).to_have_text("Step 3 of 13 · Adding up to 15")
    expect(verdict).to_have_text("")

    page.reload()
    expect(page.get_by_test_id("progress")).to_have_text("Step 3 of 13 · Adding up to 15")
    # Another language and deck: the same step, in those words and cards.
    page.locator("#deck-picker").select_option("italian")
    page.locator("#language-picker").select_option("it")
    expect(page.get_by_test_id("progress")).to_have_text("Passo 3 di 13 · Fare 15")
    expect(page.get_by_test_id("step-text")).to_contain_text("5 di denari")
    page.get_by_test_id("lesson-4").click()
    expect(page.get_by_test_id("progress")).to_have_text(
        "Passo 9 di 13 · Contare i punti di una mano"
    )
    expect(page.locator("[data-testid=score] tfoot td")).to_have_text(
        ["Punti della mano", "4", "2", ""]
    )
    page.locator(".piles summary").click()
    expect(page.locator("[data-testid=pile-0] svg")).to_have_count(23)
    expect(page.locator("[data-testid=pile-1] svg")).to_have_count(17)


def _lesson_ticks(page: Any) -> list[bool]:
    ticks: list[bool] = page.eval_on_selector_all(
        "[data-testid^=lesson-]", "buttons => buttons.map(b => b.classList.contains('done'))"
    )
    return ticks


@pytest.mark.usefixtures("server")
def test_reading_past_an_exercise_does_not_tick_its_lesson(page: Any, server: Server) -> None:
    """Next through every step ticks only the lesson that has nothing to play (the scoring);
    a lesson is ticked once each of its exercises got its right move, and stays so."""
    from playwright.sync_api import expect

    page.goto(server.url + "/learn")
    progress = page.get_by_test_id("progress")
    for number in range(1, len(STEPS)):
        expect(progress).to_contain_text(f"Step {number} of 13")
        page.get_by_test_id("next").click()
    expect(progress).to_contain_text("Step 13 of 13")
    assert _lesson_ticks(page) == [False, False, False, False, True, False]

    page.get_by_test_id("lesson-1").click()  # the sweep: one exercise
    expect(progress).to_have_text("Step 5 of 13 · A sweep")
    page.locator("[data-testid=hand-card][data-card='5s']").click()
    for card in ("Ah", "4d", "3s", "2c"):
        page.locator(f"[data-testid=table-card][data-card='{card}']").click()
    page.get_by_test_id("play").click()
    expect(page.get_by_test_id("verdict")).to_have_attribute("data-accepted", "true")
    expect(page.get_by_test_id("lesson-1")).to_have_class("done")
    assert _lesson_ticks(page) == [False, True, False, False, True, False]
    page.reload()
    expect(page.get_by_test_id("lesson-1")).to_have_class("done")
    assert _lesson_ticks(page) == [False, True, False, False, True, False]


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
@pytest.mark.usefixtures("server")
def test_a_wrong_try_is_explained_in_view_and_stays_chosen(
    page: Any, server: Server, size: tuple[int, int]
) -> None:
    """The answer to a wrong try shows on the screen where it is made, and the cards tried
    stay chosen: one more table card makes it right."""
    from playwright.sync_api import expect

    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto(server.url + "/learn")
    page.get_by_test_id("next").click()
    expect(page.get_by_test_id("progress")).to_have_text("Step 2 of 13 · Adding up to 15")
    page.locator("[data-testid=hand-card][data-card='4h']").click()
    page.locator("[data-testid=table-card][data-card='As']").click()
    page.locator("[data-testid=table-card][data-card='3h']").click()
    page.get_by_test_id("play").click()
    verdict = page.get_by_test_id("verdict")
    expect(verdict).to_have_text("4 + 1 + 3 = 8, not 15.")
    expect(verdict).to_be_in_viewport(ratio=1)
    chosen = page.locator("[data-testid=table-card][aria-pressed=true]")
    expect(chosen).to_have_count(2)
    expect(page.locator("[data-testid=hand-card][aria-pressed=true]")).to_have_attribute(
        "data-card", "4h"
    )
    page.locator("[data-testid=table-card][data-card='7d']").click()
    page.get_by_test_id("play").click()
    expect(verdict).to_have_attribute("data-accepted", "true")
    expect(verdict).to_be_in_viewport(ratio=1)
    expect(page.get_by_test_id("lesson-0")).not_to_have_class("done")  # three more to play
