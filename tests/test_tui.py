"""The full-screen terminal game, driven through Textual's pilot (pace 0, 80x24)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest

pytest.importorskip("textual")

from textual.pilot import Pilot

from escoba import RULESETS, Move, Play, card_name
from escoba.cheatsheet import cheat_sheet_lines
from escoba.tui import EscobaApp, run_app
from escoba.tui.texts import TEXTS, UI_LANGUAGES, t
from escoba.tui.widgets import CheatSheetScreen, ScorePadScreen

SIZE = (80, 24)

Test = Callable[[EscobaApp, Pilot[None]], Awaitable[None]]


def run(test: Test, **options: object) -> EscobaApp:
    settings: dict[str, object] = {
        "rules": RULESETS["escoba"],
        "players": 2,
        "levels": ["beginner"],
        "seed": 42,
        "pace": 0,
    }
    settings.update(options)
    app = EscobaApp(**settings)  # type: ignore[arg-type]

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await test(app, pilot)

    asyncio.run(main())
    return app


async def step(app: EscobaApp, pilot: Pilot[None]) -> None:
    """One step of a person who always plays the first card and the first set."""
    if app.modal_open:
        await pilot.press("escape")
    elif app.game.to_move == 0:
        await pilot.press("1")
        if app.choosing:
            await pilot.press("1")
    else:
        await pilot.pause()


def first_play(app: EscobaApp) -> Move:
    return next(e.move for e in app.game.history() if isinstance(e, Play))


def test_seed_42_position() -> None:
    # The position the tests below rely on (README: seed 42, Escoba, 2 players).
    async def check(app: EscobaApp, pilot: Pilot[None]) -> None:
        assert app.game.to_move == 0
        assert [str(c) for c in app.observation.hand] == ["Ad", "3h", "2c"]
        assert "Hand 1" in app.screen_text() and "Your turn" in app.screen_text()
        assert "[3] 2♣" in app.screen_text()

    run(check)


def test_full_hand_by_number_keys_then_score_pad() -> None:
    async def check(app: EscobaApp, pilot: Pilot[None]) -> None:
        for _ in range(400):
            if app.game.results:
                break
            await step(app, pilot)
        assert len(app.game.results) == 1
        await pilot.pause()
        assert isinstance(app.screen, ScorePadScreen)  # shown by itself after the hand
        text = app.screen_text()
        assert "Score pad" in text
        await pilot.press("escape")
        assert not app.modal_open
        assert "Hand 2" in app.screen_text()

    run(check)


def test_capture_set_choice_by_key_and_bad_choice_explained() -> None:
    async def check(app: EscobaApp, pilot: Pilot[None]) -> None:
        await pilot.press("3")  # 2c takes 6h+7c or Qh+4c
        assert len(app.choosing) == 2
        text = app.screen_text()
        assert "[1] take 6♥ + 7♣" in text and "[2] take Q♥ + 4♣" in text
        assert "more than one set" in text
        await pilot.press("5")
        assert "no choice 5" in app.message and app.game.to_move == 0
        await pilot.press("2")
        assert first_play(app) == Move.parse("2c:Qh+4c")
        assert app.choosing == []

    run(check)


def test_capture_set_choice_by_click_and_escape_cancels() -> None:
    async def check(app: EscobaApp, pilot: Pilot[None]) -> None:
        await pilot.click("#hand-3")
        assert len(app.choosing) == 2
        await pilot.press("escape")
        assert app.choosing == [] and app.game.to_move == 0
        await pilot.click("#hand-3")
        await pilot.click("#choice-1")
        assert first_play(app) == Move.parse("2c:6h+7c")

    run(check)


def test_illegal_choices_are_explained_never_played() -> None:
    async def check(app: EscobaApp, pilot: Pilot[None]) -> None:
        await pilot.press("7")
        assert "no card 7" in app.message
        assert app.message in app.screen_text()
        app.try_move("Kd")
        assert app.message.startswith("Not allowed:") and "does not hold" in app.message
        app.try_move("2c:6h+Qh")
        assert "cannot take that set" in app.message
        assert app.game.to_move == 0 and len(app.game.hand(0)) == 3

    run(check)


def test_click_on_a_card_plays_it() -> None:
    async def check(app: EscobaApp, pilot: Pilot[None]) -> None:
        await pilot.click("#hand-1")  # Ad takes nothing: dropped
        assert first_play(app) == Move.parse("Ad")

    run(check)


def test_hint_shows_the_coach_advice() -> None:
    async def check(app: EscobaApp, pilot: Pilot[None]) -> None:
        await pilot.press("h")
        assert app.message.startswith("Hint: ")
        assert "best move" in app.message
        assert app.message in app.screen_text()

    run(check)


def test_hint_in_german() -> None:
    async def check(app: EscobaApp, pilot: Pilot[None]) -> None:
        await pilot.press("h")
        assert app.message.startswith("Tipp: ")
        assert "Der beste Zug" in app.message

    run(check, language="de")


def test_score_pad_and_rules_open_and_close() -> None:
    async def check(app: EscobaApp, pilot: Pilot[None]) -> None:
        await pilot.press("s")
        assert isinstance(app.screen, ScorePadScreen)
        assert "No hand finished yet." in app.screen_text()
        await pilot.press("1")  # keys of the game do nothing under a modal
        assert app.game.to_move == 0 and len(app.game.hand(0)) == 3
        await pilot.press("s")
        assert not app.modal_open
        await pilot.press("r")
        assert isinstance(app.screen, CheatSheetScreen)
        sheet = app.screen.query_one("#cheat-sheet")
        assert cheat_sheet_lines(RULESETS["escoba"])[0] in str(sheet.content)  # type: ignore[attr-defined]
        await pilot.press("escape")
        assert not app.modal_open

    run(check)


def test_screen_never_shows_seat_1_cards() -> None:
    async def check(app: EscobaApp, pilot: Pilot[None]) -> None:
        checked = 0
        for _ in range(200):
            if app.game.hand_number >= 2:
                break
            if not app.modal_open and app.game.to_move == 0:
                shown = app.screen_text()
                for card in app.game.hand(1):
                    assert card_name(card, "spanish") not in shown
                checked += 1
            await step(app, pilot)
        assert checked >= 30

    run(check, deck_style="spanish", language="es")


def test_four_players_in_partnership_fit_the_screen() -> None:
    async def check(app: EscobaApp, pilot: Pilot[None]) -> None:
        for _ in range(60):
            await step(app, pilot)
        for widget in app.screen.query("Static"):
            if widget.display:
                assert widget.region.bottom <= SIZE[1]
        assert "Seat 3 (easy)" in app.screen_text()

    run(check, players=4, partnerships=True, levels=["beginner", "medium", "easy"])


def test_full_match_against_a_beginner_completes() -> None:
    async def check(app: EscobaApp, pilot: Pilot[None]) -> None:
        for _ in range(3000):
            if app.game.is_over():
                break
            await step(app, pilot)
        assert app.game.is_over() and app.game.winner is not None
        await pilot.pause()
        assert isinstance(app.screen, ScorePadScreen)
        assert "Match over" in app.screen_text()
        assert len(app.screen.results) == len(app.game.results)
        await pilot.press("escape")
        await pilot.press("1")
        assert "match is over" in app.message
        await pilot.press("q")

    run(check, rules=RULESETS["scopa"], deck_style="italian", seed=7)


def test_every_text_has_english_and_known_languages() -> None:
    for key, texts in TEXTS.items():
        assert "en" in texts, key
        assert set(texts) <= set(UI_LANGUAGES), key
    assert t("stock", "it", n=3) == "Mazzo: 3"
    assert t("stock", "xx", n=3) == "Stock: 3"


def test_run_app_is_exported() -> None:
    assert callable(run_app)
