"""The puzzles page in a real Chromium against `escoba serve`: a puzzle solved by playing its
known answer through the page (the verdict, the rating up, a streak of one), another failed by
a wrong legal move (the answer highlighted and named, its explanation, the rating down, the
streak back to 0), the position fitting a phone's width, the cards named in Spanish for a
Spanish reader with the Spanish deck, no serious accessibility problem, and a signed-in
player's rating and streak kept by the account."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import expect

from escoba.messages import move_name
from escoba.puzzles import Puzzle, PuzzleRating, puzzle_by_id
from test_web_a11y import audit
from web_browser import Server

TIMEOUT = 20_000  # ms
PHONE = {"width": 390, "height": 844}


def shown_puzzle(page: Any) -> Puzzle:
    """The puzzle the page shows, once it is drawn."""
    page.get_by_test_id("hand-card").first.wait_for(timeout=TIMEOUT)
    return puzzle_by_id(page.get_by_test_id("puzzle").get_attribute("data-id"))


def play(page: Any, move: str) -> None:
    """Play a move through the page: its card from the hand, then the way to play it."""
    card = move.split(":", maxsplit=1)[0]
    page.locator(f"[data-testid=hand-card][data-card='{card}']").click()
    page.locator(f"[data-testid=move-choice][data-move='{move}']").click()


def wrong_move(puzzle: Puzzle) -> str:
    return next(
        str(move) for move in puzzle.observation().legal_moves if str(move) != puzzle.answer
    )


def kept(page: Any) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(page.evaluate("localStorage.getItem('escoba.puzzles')"))
    return found


def answer_marked(page: Any, puzzle: Puzzle) -> None:
    move = puzzle.move
    marked = page.locator("[data-answer=true]")
    expect(marked).to_have_count(1 + len(move.captures), timeout=TIMEOUT)
    cards = {marked.nth(index).get_attribute("data-card") for index in range(marked.count())}
    assert cards == {str(move.card), *(str(card) for card in move.captures)}


def test_a_puzzle_solved_then_one_failed(page: Any, server: Server) -> None:
    page.goto(server.url + "/puzzles")
    expect(page.get_by_test_id("puzzle-standing")).to_contain_text("1500", timeout=TIMEOUT)
    puzzle = shown_puzzle(page)
    expect(page.get_by_test_id("puzzle-title")).to_have_text(puzzle.title("en"))
    play(page, puzzle.answer)
    verdict = page.get_by_test_id("verdict")
    expect(verdict).to_have_attribute("data-solved", "true", timeout=TIMEOUT)
    expect(verdict).to_contain_text("Solved")
    after = PuzzleRating().after(puzzle, True).shown()
    assert after > 1500
    change = page.get_by_test_id("rating-change")
    expect(change).to_contain_text(f"1500 → {after} (+{after - 1500})")
    expect(page.get_by_test_id("streak")).to_have_attribute("data-streak", "1")
    answer_marked(page, puzzle)
    assert kept(page)["rating"] == after and kept(page)["streak"] == 1

    # The next one is another; a wrong move shows the answer, why, and the rating down.
    page.get_by_test_id("next-puzzle").click()
    expect(page.get_by_test_id("outcome")).to_be_hidden(timeout=TIMEOUT)
    second = shown_puzzle(page)
    assert second.id != puzzle.id
    play(page, wrong_move(second))
    expect(verdict).to_have_attribute("data-solved", "false", timeout=TIMEOUT)
    expect(page.get_by_test_id("answer")).to_contain_text(move_name(second.move, "french", "en"))
    expect(page.get_by_test_id("explanation")).to_have_text(second.explanation("en", "french"))
    lower = PuzzleRating.from_dict(kept(page)).shown()
    assert lower < after
    expect(change).to_contain_text(f"{after} → {lower} (\u2212{after - lower})")
    expect(page.get_by_test_id("streak")).to_have_attribute("data-streak", "0")
    answer_marked(page, second)
    assert kept(page)["streak"] == 0 and kept(page)["best"] == 1
    expect(page.get_by_test_id("puzzle-standing")).to_contain_text(str(lower))


def test_a_phone_shows_the_hand_and_the_table_without_scrolling_sideways(
    chromium: Any, server: Server
) -> None:
    context = chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(server.url + "/puzzles")
        puzzle = shown_puzzle(page)
        wide = page.evaluate("document.documentElement.scrollWidth > window.innerWidth")
        assert not wide, "the page scrolls sideways at 390 px"
        for testid in ("hand-card", "table-card"):
            cards = page.get_by_test_id(testid)
            for index in range(cards.count()):
                box = cards.nth(index).bounding_box()
                assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, (
                    testid,
                    index,
                    box,
                )
        play(page, puzzle.answer)
        expect(page.get_by_test_id("verdict")).to_have_attribute("data-solved", "true")
        assert not page.evaluate("document.documentElement.scrollWidth > window.innerWidth")
    finally:
        context.close()


def test_a_spanish_reader_with_the_spanish_deck_reads_spanish_cards(
    page: Any, server: Server
) -> None:
    page.goto(server.url + "/puzzles")
    page.evaluate(
        "localStorage.setItem('escoba.language', 'es');"
        " localStorage.setItem('escoba.deck', 'spanish')"
    )
    page.reload()
    puzzle = shown_puzzle(page)
    expect(page.get_by_test_id("puzzle-title")).to_have_text(puzzle.title("es"), timeout=TIMEOUT)
    expect(page.locator("h1")).to_have_text("Problemas")
    card = str(puzzle.move.card)
    page.locator(f"[data-testid=hand-card][data-card='{card}']").click()
    choices = page.get_by_test_id("choices")
    expect(choices).to_contain_text(re.compile(r" de (oros|copas|espadas|bastos)"))
    page.locator(f"[data-testid=move-choice][data-move='{puzzle.answer}']").click()
    expect(page.get_by_test_id("verdict")).to_have_text("¡Resuelto: es la mejor jugada!")
    expect(page.get_by_test_id("answer")).to_contain_text(
        move_name(puzzle.move, "spanish", "es"), timeout=TIMEOUT
    )
    expect(page.get_by_test_id("explanation")).to_have_text(puzzle.explanation("es", "spanish"))
    label = page.locator(f"[data-testid=hand-card][data-card='{card}'] svg")
    assert re.search(r" de (oros|copas|espadas|bastos)$", label.get_attribute("aria-label") or "")


def test_no_serious_accessibility_problem_on_the_puzzles_page(
    chromium: Any, server: Server, axe_script: Path
) -> None:
    # The pages' Content-Security-Policy forbids injected scripts: the audit's own is let in.
    context = chromium.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    try:
        page = context.new_page()
        page.goto(server.url + "/puzzles")
        puzzle = shown_puzzle(page)
        audit(page, axe_script, "a puzzle", also=("page-has-heading-one",))
        page.locator(f"[data-testid=hand-card][data-card='{puzzle.move.card}']").click()
        audit(page, axe_script, "a puzzle's choice of capture")
        # Keyboard: the first way to play the card has the focus; Enter plays it.
        expect(page.locator("[data-testid=move-choice]").first).to_be_focused()
        page.locator(f"[data-testid=move-choice][data-move='{puzzle.answer}']").focus()
        page.keyboard.press("Enter")
        expect(page.get_by_test_id("verdict")).to_have_attribute("data-solved", "true")
        audit(page, axe_script, "a puzzle answered")
        # After a try the next puzzle has the focus: Enter loads one.
        expect(page.get_by_test_id("next-puzzle")).to_be_focused()
        page.keyboard.press("Enter")
        expect(page.get_by_test_id("outcome")).to_be_hidden(timeout=TIMEOUT)
    finally:
        context.close()


def test_a_signed_in_player_keeps_the_accounts_rating_and_streak(
    chromium: Any, server: Server
) -> None:
    person = httpx.Client(base_url=server.url)
    body = {"username": "Puzzler", "password": "a long enough secret"}
    person.post("/api/account/register", json=body).raise_for_status()
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    try:
        session = person.cookies.get("escoba_session")
        context.add_cookies([{"name": "escoba_session", "value": session, "url": server.url}])
        page = context.new_page()
        page.goto(server.url + "/puzzles")
        puzzle = shown_puzzle(page)
        standing = page.get_by_test_id("puzzle-standing")
        expect(standing).to_have_text("Puzzle rating 1500 · Streak 0", timeout=TIMEOUT)
        play(page, puzzle.answer)  # sent with the session's CSRF token
        expect(page.get_by_test_id("verdict")).to_have_attribute("data-solved", "true")
        after = PuzzleRating().after(puzzle, True).shown()
        expect(standing).to_have_text(f"Puzzle rating {after} · Streak 1")
        expect(page.get_by_test_id("streak")).to_have_attribute("data-streak", "1")
        assert page.evaluate("localStorage.getItem('escoba.puzzles')") is None
        exported = person.get("/api/account/export").json()
        assert exported["puzzle_rating"]["streak"] == 1
        assert [row["puzzle"] for row in exported["puzzles"]] == [puzzle.id]
    finally:
        context.close()
        person.close()
