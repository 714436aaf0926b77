"""The setup screen of ``escoba play``, driven through Textual's pilot (80x24)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

pytest.importorskip("textual")

from textual.pilot import Pilot
from textual.widgets import Button, Checkbox, Input, Select, Static
from typer.testing import CliRunner

from escoba import RULESETS
from escoba.ai.ratings import level_rating
from escoba.errors import RulesError
from escoba.messages import level_name
from escoba.play import LocalMatch, Saves
from escoba.tui.setup import BOOL_OPTIONS, SetupApp, SetupChoice
from escoba.tui.texts import t

SIZE = (80, 24)

Test = Callable[[SetupApp, Pilot[SetupChoice | None]], Awaitable[None]]


def run(test: Test, initial: SetupChoice | None = None) -> SetupApp:
    app = SetupApp(initial)

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await test(app, pilot)
            await pilot.pause()

    asyncio.run(main())
    return app


def fits(app: SetupApp) -> None:
    for widget in app.screen.query("*"):
        if widget.display and widget.region.height:
            assert widget.region.bottom <= SIZE[1], widget
            assert widget.region.right <= SIZE[0], widget


def screen_text(app: SetupApp) -> str:
    parts = [str(widget.render()) for widget in app.screen.query(Static)]
    parts += [str(box.label) for box in app.screen.query(Checkbox)]
    parts += [str(button.label) for button in app.screen.query(Button)]
    return "\n".join(parts)


async def choose(pilot: Pilot[SetupChoice | None], selector: str, value: object) -> None:
    pilot.app.query_one(selector, Select).value = value
    await pilot.pause()


@pytest.mark.slow
def test_the_screen_fits_80x24_with_four_players() -> None:
    async def test(app: SetupApp, pilot: Pilot[SetupChoice | None]) -> None:
        fits(app)
        await choose(pilot, "#players", 4)
        fits(app)
        for seat in (1, 2, 3):
            assert app.query_one(f"#level-{seat}", Select).region.height == 1
        # The person is seat 1, as in the web lobby: the computers are seats 2 to 4.
        labels = [str(app.query_one(f"#label-level-{n}", Static).render()) for n in (1, 2, 3)]
        assert labels == ["Seat 2", "Seat 3", "Seat 4"]
        assert app.query_one("#play", Button).region.height == 1
        await pilot.press("escape")

    assert run(test).return_value is None


@pytest.mark.slow
def test_prefilled_from_the_command_line_options() -> None:
    initial = SetupChoice(
        preset="escova",
        rules=RULESETS["escova"].replace(target_score=41, big_wins=True),
        players=3,
        opponents=("hard", "easy"),
        deck="italian",
        language="it",
    )

    async def test(app: SetupApp, pilot: Pilot[SetupChoice | None]) -> None:
        assert app.query_one("#target_score", Input).value == "41"
        assert app.query_one("#big_wins", Checkbox).value
        assert app.query_one("#partnerships", Checkbox).disabled
        assert not app.query_one("#row-level-3").display
        assert t("setup.play", "it") in screen_text(app)
        await pilot.click("#play")

    chosen = run(test, initial).return_value
    assert chosen is not None
    assert chosen.rules == initial.rules and chosen.preset == "escova"
    assert chosen.players == 3 and chosen.opponents == ("hard", "easy")
    assert chosen.deck == "italian" and chosen.language == "it"


@pytest.mark.slow
def test_scopa_four_players_partnerships_levels_spanish_deck_german() -> None:
    async def test(app: SetupApp, pilot: Pilot[SetupChoice | None]) -> None:
        assert t("setup.play", "en") in screen_text(app)
        await choose(pilot, "#preset", "scopa")
        assert app.query_one("#target_score", Input).value == "11"
        assert not app.query_one("#initial_table_sweeps", Checkbox).value
        await choose(pilot, "#players", 4)
        partnerships = app.query_one("#partnerships", Checkbox)
        assert not partnerships.disabled
        partnerships.focus()
        await pilot.press("space")
        for seat, level in ((1, "hard"), (2, "beginner"), (3, "medium")):
            await choose(pilot, f"#level-{seat}", level)
        await choose(pilot, "#deck", "spanish")
        await choose(pilot, "#language", "de")
        text = screen_text(app)
        for key in ("setup.title", "setup.players", "setup.deck", "setup.play", "setup.keys"):
            assert t(key, "de") in text, key
        assert t("opt.forced_capture", "de") in text and "Schlagzwang" in text
        assert t("setup.players", "en") + "\n" not in text
        fits(app)
        assert app.error is None
        await pilot.click("#play")

    chosen = run(test).return_value
    assert chosen is not None
    assert chosen.rules == RULESETS["scopa"] and chosen.preset == "scopa"
    assert chosen.players == 4 and chosen.partnerships
    assert chosen.opponents == ("hard", "beginner", "medium")
    assert chosen.deck == "spanish" and chosen.language == "de"
    match = LocalMatch.new(
        chosen.rules,
        players=chosen.players,
        partnerships=chosen.partnerships,
        opponents=chosen.opponents,
        deck=chosen.deck,
        language=chosen.language,
    )
    assert match.levels == (None, "hard", "beginner", "medium")


@pytest.mark.slow
def test_options_target_and_win_by_are_taken() -> None:
    async def test(app: SetupApp, pilot: Pilot[SetupChoice | None]) -> None:
        app.query_one("#target_score", Input).value = "15"
        app.query_one("#win_by", Input).value = "2"
        app.query_one("#big_wins", Checkbox).value = True
        app.query_one("#forced_capture", Checkbox).value = False
        await pilot.pause()
        await pilot.click("#play")

    chosen = run(test).return_value
    assert chosen is not None
    assert chosen.rules == RULESETS["escoba"].replace(
        target_score=15, win_by=2, big_wins=True, forced_capture=False
    )
    assert set(BOOL_OPTIONS) < set(chosen.rules.to_dict())


@pytest.mark.slow
def test_a_nonsense_combination_shows_the_engine_error_and_does_not_start() -> None:
    with pytest.raises(RulesError) as refused:
        RULESETS["scopa"].replace(initial_table_sweeps=True)

    async def test(app: SetupApp, pilot: Pilot[SetupChoice | None]) -> None:
        await choose(pilot, "#preset", "scopa")
        sweeps = app.query_one("#initial_table_sweeps", Checkbox)
        sweeps.focus()
        await pilot.press("space")
        assert sweeps.value
        await pilot.click("#play")
        assert app.error == str(refused.value)
        assert str(refused.value) in str(app.query_one("#error", Static).render())
        assert app.is_running and app.return_value is None
        fits(app)
        app.query_one("#target_score", Input).value = ""
        await pilot.pause()
        await pilot.click("#play")
        assert app.is_running and app.error is not None
        # Fixing it clears the error; escape then cancels.
        app.query_one("#target_score", Input).value = "11"
        sweeps.value = False
        await pilot.pause()
        assert app.error is None
        await pilot.press("escape")

    assert run(test).return_value is None


@pytest.mark.slow
def test_scopone_is_seated_four_in_partnerships_and_a_seating_the_deck_refuses_is_shown() -> None:
    """Issue 18: Scopone, four players in two partnerships, 10 cards each and an empty table;
    three players cannot share out 40 cards by 10 (the engine's RulesError, on the screen)."""
    with pytest.raises(RulesError) as refused:
        RULESETS["scopone-scientifico"].deals_per_hand(3)

    async def test(app: SetupApp, pilot: Pilot[SetupChoice | None]) -> None:
        await choose(pilot, "#preset", "scopone-scientifico")
        assert app.query_one("#players", Select).value == 4
        assert app.query_one("#partnerships", Checkbox).value
        assert app.query_one("#hand_cards", Input).value == "10"
        assert app.query_one("#table_cards", Select).value == 0
        assert t("setup.hand_cards", "en") in screen_text(app)
        fits(app)
        await choose(pilot, "#players", 3)
        await pilot.click("#play")
        assert app.error == str(refused.value) and app.is_running
        fits(app)
        await choose(pilot, "#players", 4)
        app.query_one("#partnerships", Checkbox).value = True
        app.query_one("#napola", Checkbox).value = True
        app.query_one("#ace_takes_all", Checkbox).value = True
        await pilot.pause()
        assert app.error is None
        # Pressed as a click would, once the error's line has gone: a click aimed at where
        # the button stood while the screen was still laid out with it would miss.
        app.query_one("#play", Button).press()
        await pilot.pause()

    chosen = run(test).return_value
    assert chosen is not None and chosen.players == 4 and chosen.partnerships
    assert chosen.rules == RULESETS["scopone-scientifico"].replace(napola=True, ace_takes_all=True)


@pytest.mark.slow
def test_cancel_returns_none() -> None:
    async def by_q(app: SetupApp, pilot: Pilot[SetupChoice | None]) -> None:
        await pilot.press("q")

    async def by_button(app: SetupApp, pilot: Pilot[SetupChoice | None]) -> None:
        await pilot.click("#cancel")

    assert run(by_q).return_value is None
    assert run(by_button).return_value is None


@pytest.fixture
def terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[LocalMatch]:
    """A faked terminal for ``escoba play``; the local matches handed to the game are listed."""
    import sys
    import types

    import escoba.cli.root
    import escoba.tui

    monkeypatch.setenv("ESCOBA_DATA_DIR", str(tmp_path))
    tty = types.SimpleNamespace(isatty=lambda: True)
    monkeypatch.setattr(
        escoba.cli.root, "sys", types.SimpleNamespace(stdin=tty, stdout=tty, exit=sys.exit)
    )
    started: list[LocalMatch] = []
    monkeypatch.setattr(escoba.tui, "run_app", lambda match, saves: started.append(match))
    return started


def test_play_on_a_terminal_shows_the_setup_screen(
    terminal: list[LocalMatch], monkeypatch: pytest.MonkeyPatch
) -> None:
    import escoba.cli.root

    shown: list[SetupChoice] = []
    chosen = SetupChoice(
        preset="scopa",
        rules=RULESETS["scopa"].replace(target_score=16),
        players=4,
        partnerships=True,
        opponents=("hard", "easy", "expert"),
        deck="spanish",
        language="de",
    )

    def fake_run(self: SetupApp) -> SetupChoice | None:
        shown.append(self.initial)
        return chosen

    monkeypatch.setattr(SetupApp, "run", fake_run)
    args = ["play", "--rules", "escova", "--opponent", "hard", "--deck", "italian", "--seed", "5"]
    result = CliRunner().invoke(escoba.cli.app, args)
    assert result.exit_code == 0, result.output
    assert shown == [
        SetupChoice(
            preset="escova",
            rules=RULESETS["escova"],
            players=2,
            opponents=("hard",),
            deck="italian",
            language="en",
        )
    ]
    match = terminal[-1]
    assert match.game.rules == chosen.rules and match.game.players == 4
    assert match.game.partnerships
    # A saved setting that names a former level (expert) plays as the level it became.
    assert match.levels == (None, "hard", "easy", "hard")
    assert match.deck == "spanish" and match.language == "de" and match.seed == 5

    # Cancelled: no match.
    monkeypatch.setattr(SetupApp, "run", lambda self: None)
    result = CliRunner().invoke(escoba.cli.app, ["play"])
    assert result.exit_code == 0, result.output
    assert len(terminal) == 1


def test_quick_skips_the_setup_screen(
    terminal: list[LocalMatch], monkeypatch: pytest.MonkeyPatch
) -> None:
    import escoba.cli.root

    def never(self: SetupApp) -> SetupChoice | None:
        raise AssertionError("the setup screen was shown")

    monkeypatch.setattr(SetupApp, "run", never)
    args = ["play", "--quick", "--rules", "scopa", "--players", "3", "--opponent", "easy"]
    result = CliRunner().invoke(escoba.cli.app, args)
    assert result.exit_code == 0, result.output
    match = terminal[-1]
    assert match.game.rules == RULESETS["scopa"] and match.levels == (None, "easy", "easy")
    # --resume never shows it either.
    Saves().save_current(match)
    result = CliRunner().invoke(escoba.cli.app, ["play", "--resume"])
    assert len(terminal) == 2 and result.exit_code == 0, result.output


def test_play_on_a_terminal_seats_scopone_four_in_partnerships(
    terminal: list[LocalMatch], monkeypatch: pytest.MonkeyPatch
) -> None:
    import escoba.cli.root

    shown: list[SetupChoice] = []

    def fake_run(self: SetupApp) -> SetupChoice | None:
        shown.append(self.initial)
        return self.initial

    monkeypatch.setattr(SetupApp, "run", fake_run)
    result = CliRunner().invoke(escoba.cli.app, ["play", "--rules", "scopone-classico"])
    assert result.exit_code == 0, result.output
    assert (shown[-1].players, shown[-1].partnerships) == (4, True)
    assert shown[-1].opponents == ("medium",)
    match = terminal[-1]
    assert match.game.players == 4 and match.game.partnerships
    assert match.observation().hand_sizes == (9, 9, 9, 9)
    # Said otherwise on the command line: two players, or four without partnerships.
    args = ["play", "--quick", "--rules", "scopone-scientifico", "--no-partnerships"]
    assert CliRunner().invoke(escoba.cli.app, args).exit_code == 0
    assert terminal[-1].game.players == 4 and not terminal[-1].game.partnerships
    args = ["play", "--quick", "--rules", "scopone-scientifico", "--players", "2"]
    assert CliRunner().invoke(escoba.cli.app, args).exit_code == 0
    assert terminal[-1].game.players == 2 and terminal[-1].observation().hand_sizes == (10, 10)


@pytest.mark.slow
def test_a_level_is_shown_with_its_rating_in_the_chosen_game() -> None:
    """The ladder's ratings (docs/ai.md): "hard · about 1600" in a rated game, following the
    preset chosen; in Scopone, whose levels are not rated yet, the name alone."""

    def shown(rules: str) -> str:
        rating = level_rating("hard", RULESETS[rules])
        assert rating is not None
        return t("level.rated", "en", level=level_name("hard", "en"), rating=rating.about)

    async def test(app: SetupApp, pilot: Pilot[SetupChoice | None]) -> None:
        await choose(pilot, "#level-1", "hard")
        assert shown("escoba") in screen_text(app)
        await choose(pilot, "#preset", "scopa")
        assert shown("scopa") in screen_text(app)
        await choose(pilot, "#preset", "scopone-scientifico")
        text = screen_text(app)
        assert level_name("hard", "en") in text and "· about" not in text
        fits(app)

    run(test)
