"""The full-screen terminal game, driven through Textual's pilot (pace 0, 80x24)."""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

import pytest

pytest.importorskip("textual")

from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Static

from conftest import build_deck, game_with_deck
from escoba import RULESETS, Game, Move, Observation, Play, RuleSet, card_name
from escoba.ai.coach import Coach, MoveAdvice
from escoba.cards import DeckStyle
from escoba.catalogue import keys as catalogue_keys
from escoba.catalogue import own_texts
from escoba.cheatsheet import cheat_sheet_lines
from escoba.messages import Message
from escoba.observation import Deal
from escoba.play import LocalMatch, Saves
from escoba.tui import EscobaApp, ReplayApp, run_app, run_replay
from escoba.tui.replay import match_steps
from escoba.tui.texts import UI_LANGUAGES, t
from escoba.tui.widgets import CheatSheetScreen, ScorePadScreen, plain_text, score_tables

SIZE = (80, 24)

Test = Callable[[EscobaApp, Pilot[None]], Awaitable[None]]


class Flat:
    """An evaluator that finds every move as good as the best (quick: no search)."""

    def evaluate(self, observation: Observation, legal: Sequence[Move]) -> list[tuple[Move, float]]:
        return [(move, 0.0) for move in legal]


class Costly:
    """An evaluator to which one move (by its text) costs two points."""

    def __init__(self, costly: str) -> None:
        self.costly = costly

    def evaluate(self, observation: Observation, legal: Sequence[Move]) -> list[tuple[Move, float]]:
        scored = [(move, -2.0 if str(move) == self.costly else 0.0) for move in legal]
        return sorted(scored, key=lambda pair: -pair[1])


def new_session(**options: object) -> LocalMatch:
    return LocalMatch.new(
        options.get("rules", RULESETS["escoba"]),  # type: ignore[arg-type]
        players=options.get("players", 2),  # type: ignore[arg-type]
        partnerships=options.get("partnerships", False),  # type: ignore[arg-type]
        seed=options.get("seed", 42),  # type: ignore[arg-type]
        opponents=options.get("levels", ["beginner"]),  # type: ignore[arg-type]
        deck=options.get("deck_style", "french"),  # type: ignore[arg-type]
        language=options.get("language", "en"),  # type: ignore[arg-type]
    )


def run(
    test: Test,
    match: LocalMatch | None = None,
    saves: Saves | None = None,
    coach: Coach | None = None,
    **options: object,
) -> EscobaApp:
    app = EscobaApp(
        match or new_session(**options),
        saves,
        pace=0,
        coach=coach or Coach(Flat()),
    )

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
    # The position the tests below rely on (docs/library.md: seed 42, Escoba, 2 players).
    async def check(app: EscobaApp, pilot: Pilot[None]) -> None:
        assert app.game.to_move == 0
        assert [str(c) for c in app.observation.hand] == ["Ad", "3h", "2c"]
        assert "Hand 1" in app.screen_text() and "Your turn" in app.screen_text()
        assert "[3] 2♣" in app.screen_text()

    run(check)


@pytest.mark.slow
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
        assert "Hand 1: no costly moves." in text  # the Flat coach finds every move fine
        await pilot.press("escape")
        assert not app.modal_open
        assert "Hand 2" in app.screen_text()

    run(check)


@pytest.mark.slow
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


@pytest.mark.slow
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


@pytest.mark.slow
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


@pytest.mark.slow
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


@pytest.mark.slow
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


@pytest.mark.slow
def test_four_players_in_partnership_fit_the_screen() -> None:
    async def check(app: EscobaApp, pilot: Pilot[None]) -> None:
        for _ in range(60):
            await step(app, pilot)
        for widget in app.screen.query("Static"):
            if widget.display:
                assert widget.region.bottom <= SIZE[1]
        assert "Computer 3 (easy)" in app.screen_text()

    run(check, players=4, partnerships=True, levels=["beginner", "medium", "easy"])


@pytest.mark.slow
def test_a_scopone_hand_of_ten_cards_fits_and_plays_to_its_score_pad() -> None:
    """Issue 18: Scopone scientifico deals the whole deck, 10 cards to each of four seats; the
    ten cards show at 80x24 even with long card names, 0 picks the tenth, and the hand plays
    to its end with no further deal."""

    async def check(app: EscobaApp, pilot: Pilot[None]) -> None:
        hand = app.observation.hand
        assert len(hand) == 10 and app.observation.stock_size == 0
        slots = [app.query_one(f"#hand-{n}") for n in range(1, 11)]
        assert all(slot.display and slot.region.height for slot in slots)
        for widget in app.screen.query("Static"):
            if widget.display and widget.region.height:
                assert widget.region.right <= SIZE[0] and widget.region.bottom <= SIZE[1]
        text = app.screen_text()
        assert "[0] " + card_name(hand[9], "spanish") in text
        await pilot.press("0")
        if app.choosing:
            await pilot.press("1")
        mine = [e for e in app.game.history() if isinstance(e, Play) and e.seat == 0]
        assert mine[0].move.card == hand[9]
        for _ in range(200):
            if app.game.results:
                break
            await step(app, pilot)
        assert len(app.game.results) == 1 and isinstance(app.screen, ScorePadScreen)
        assert [e.round for e in app.game.history(0) if isinstance(e, Deal)] == [1]

    run(
        check,
        rules=RULESETS["scopone-scientifico"],
        players=4,
        partnerships=True,
        levels=["beginner"],
        deck_style="spanish",
        seed=3,
    )


@pytest.mark.slow
def test_full_match_against_a_beginner_completes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ESCOBA_DATA_DIR", str(tmp_path))
    saves = Saves()
    saves.save_current(new_session())  # an older saved match: forgotten at the end

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

    app = run(check, saves=saves, rules=RULESETS["scopa"], deck_style="italian", seed=7)
    assert not saves.current_path.is_file() and app.saved_path is None
    kept = list((tmp_path / "matches").glob("match-*.json"))
    assert kept == [app.kept_path]
    assert LocalMatch.loads(kept[0].read_text()).game.record() == app.game.record()


def test_every_text_has_english_and_known_languages() -> None:
    tui_keys = [key for key in catalogue_keys() if key.startswith("tui.")]
    assert len(tui_keys) > 50
    for key in tui_keys:
        assert key in own_texts("en"), key
        assert all(key in own_texts(language) for language in UI_LANGUAGES), key
    assert t("stock", "it", n=3) == "Mazzo: 3"
    assert t("stock", "xx", n=3) == "Stock: 3"


def test_run_app_and_run_replay_are_exported() -> None:
    assert callable(run_app) and callable(run_replay)


def test_the_end_of_a_match_prints_the_replay_command_with_its_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The line after a finished match is a command to copy: the kept file's real path,
    quoted for the shell when it needs it, never a FILE placeholder."""
    kept = tmp_path / "my matches" / "match-1.json"

    def finished(self: EscobaApp) -> None:
        self.kept_path = kept

    monkeypatch.setattr(EscobaApp, "run", finished)
    assert run_app(new_session()) == kept
    printed = capsys.readouterr().out.strip()
    assert printed == (
        f"The match is kept; see it again with: escoba replay '{kept}' "
        "(and --analyse for the analysis of every move)"
    )


async def play_until(app: EscobaApp, pilot: Pilot[None], done: Callable[[], bool]) -> None:
    for _ in range(2000):
        if done():
            return
        await step(app, pilot)
    raise AssertionError("never got there")


@pytest.mark.slow
def test_quit_saves_and_resume_continues_the_same_match(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ESCOBA_DATA_DIR", str(tmp_path))
    seen: dict[str, object] = {}

    async def first(app: EscobaApp, pilot: Pilot[None]) -> None:
        # A whole hand, then two moves of the second hand, then quit.
        await play_until(app, pilot, lambda: len(app.game.results) == 1 and not app.modal_open)
        await play_until(app, pilot, lambda: len(app.game.hand(0)) == 2 and app.game.to_move == 0)
        seen["hand"] = app.observation.hand
        seen["table"] = app.observation.table
        seen["totals"] = app.game.totals
        seen["screen"] = app.screen_text()
        await pilot.press("q")

    before = run(first, saves=Saves())
    assert before.saved_path == tmp_path / "current.json"
    assert json.loads(before.saved_path.read_text())["format"] == "escoba-session"

    async def resumed(app: EscobaApp, pilot: Pilot[None]) -> None:
        assert app.observation.hand == seen["hand"] and app.observation.table == seen["table"]
        assert app.game.totals == seen["totals"] and app.game.hand_number == 1
        assert app.screen_text() == seen["screen"]  # the same screen, log included
        assert not app.modal_open
        await play_until(app, pilot, lambda: len(app.game.results) == 2)
        await pilot.pause()
        assert isinstance(app.screen, ScorePadScreen) and "Hand 2" in app.screen_text()
        await pilot.press("escape")
        await pilot.press("q")

    match = Saves().load_current()
    assert match is not None
    assert match.game.record() == before.game.record()
    after = run(resumed, match=match, saves=Saves())
    assert after.saved_path is not None and Saves().current_path.is_file()
    # The match goes on exactly as an unbroken one (computer moves come from the local match).
    unbroken = new_session()
    for event in [e for n in range(3) for e in after.game.history(n) if isinstance(e, Play)]:
        if unbroken.is_over():
            break
        if unbroken.person_to_move():
            unbroken.play(event.move)
        else:
            played = unbroken.advance()
            assert played is not None and played.move == event.move


@pytest.mark.slow
def test_hand_review_lists_the_costly_moves() -> None:
    async def check(app: EscobaApp, pilot: Pilot[None]) -> None:
        await pilot.press("1")  # Ad: dropped, which this coach finds costs 2 points
        assert first_play(app) == Move.parse("Ad")
        await play_until(app, pilot, lambda: bool(app.game.results))
        await pilot.pause()
        assert isinstance(app.screen, ScorePadScreen)
        text = app.screen_text()
        assert "Your moves in hand 1 that cost points:" in text
        assert "You drop A♦: Costs about 2" in text
        assert [a.move for a in app.reviews[0] if a.loss >= 0.5] == [Move.parse("Ad")]
        assert len(app.reviews[0]) == 18  # a verdict on each of the person's 18 moves
        review = app.screen.query_one("#review")
        assert review.region.bottom <= SIZE[1]  # shown on the screen, at the end of the pad

    run(check, coach=Coach(Costly("Ad")))


@pytest.mark.slow
def test_hand_review_names_a_sweep_given_away_and_the_move_that_kept_it() -> None:
    """The person's 3♠ takes 2♣ + K♦ and leaves K♥ 3♣ (13); the computer, holding only 2s,
    sweeps. Each move's expected loss is small (here nothing: a flat coach), yet the review
    names the move and the one that would have left no sweep (5♠ taking a king leaves 15)."""
    deck = build_deck(2, 1, hands={0: "3s 5s Jc", 1: "2d 2s 2h"}, table="Kd Kh 3c 2c")
    game = game_with_deck(RULESETS["escoba"], 2, deck, dealer=1)
    match = LocalMatch(game, [None, "beginner"], seed=3)

    async def check(app: EscobaApp, pilot: Pilot[None]) -> None:
        number = [str(card) for card in app.observation.hand].index("3s") + 1
        await pilot.press(str(number))
        await pilot.press("1")  # either capture leaves 13
        assert not app.game.table  # swept by a 2
        await play_until(app, pilot, lambda: bool(app.game.results))
        await pilot.pause()
        assert isinstance(app.screen, ScorePadScreen)
        review = plain_text(app.screen.query_one("#review", Static))
        assert "Hand 1: no costly moves." not in review
        assert "Your moves in hand 1 that cost points:" in review
        line = next(line for line in review.splitlines() if "You play 3♠" in line)
        assert "Computer swept next, with 2" in line
        assert "; 5♠ taking K" in line and "would have left no sweep at all." in line

    app = EscobaApp(match, None, pace=0, coach=Coach(Flat()))

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await check(app, pilot)

    asyncio.run(main())


def test_hand_review_adds_up_small_losses() -> None:
    """A hand of moves that each cost a little (under the analysis' inaccuracy, 0.3 points)
    is not reviewed as a hand without cost: the review says what they added up to; a
    move that cost 0.3 or more is listed (an inaccuracy, as the match's analysis classes it)."""

    def advice(move: str, loss: float) -> MoveAdvice:
        verdict = Message("coach.costs_points", {"points": loss, "best": Move.parse("2c")})
        return MoveAdvice(Move.parse(move), -loss, loss, verdict, ())

    async def check(app: EscobaApp, pilot: Pilot[None]) -> None:
        app.reviews = {0: [advice("Ad", 0.2), advice("3h", 0.2), advice("2c", 0.0)]}
        lines = [line.plain for line in app.review_lines(0)]
        assert lines == [
            "Hand 1: no single costly move, but small losses added up to about 0.4 points."
        ]
        app.reviews = {0: [advice("Ad", 0.05)]}
        assert [line.plain for line in app.review_lines(0)] == ["Hand 1: no costly moves."]
        app.reviews = {0: [advice("Ad", 0.3)]}
        listed = [line.plain for line in app.review_lines(0)]
        assert listed[0] == "Your moves in hand 1 that cost points:"
        assert listed[1].startswith("• You drop A♦: Costs about 0.3 points against")

    run(check)


@pytest.mark.slow
def test_hand_review_in_spanish() -> None:
    async def check(app: EscobaApp, pilot: Pilot[None]) -> None:
        await pilot.press("1")
        await play_until(app, pilot, lambda: bool(app.game.results))
        await pilot.pause()
        text = app.screen_text()
        assert "Tus jugadas de la mano 1 que costaron puntos:" in text
        assert "Tú dejas" in text

    run(check, coach=Coach(Costly("Ad")), language="es")


def finished_match() -> Game:
    game = Game(RULESETS["escoba"], 2, seed=5)
    while not game.is_over():
        game.play(game.legal_moves()[-1])
    return game


@pytest.mark.slow
def test_replay_viewer_steps_forward_and_back_with_all_hands() -> None:
    game = finished_match()
    steps = match_steps(game)
    plays = sum(isinstance(e, Play) for n in range(len(game.results)) for e in game.history(n))
    assert len(steps) == 1 + plays + len(game.results) - 1  # deals, moves
    app = ReplayApp(game, [None, "hard"], 0, "spanish", "en")

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            first = app.screen_text()
            assert "step 1/" in first and "The cards are dealt." in first
            for seat in (0, 1):  # every seat's hand is shown
                for card in steps[0].hands[seat]:
                    assert card_name(card, "spanish") in first
            assert "You:" in first and "Computer (hard):" in first
            await pilot.press("right")
            assert app.index == 1 and "step 2/" in app.screen_text()
            move = steps[1].move
            assert move is not None and card_name(move.card, "spanish") in app.screen_text()
            await pilot.press("n", "n")
            assert app.index == 3
            await pilot.press("left", "p")
            assert app.index == 1
            await pilot.press("p", "p")
            assert app.index == 0 and app.screen_text() == first
            await pilot.press("end")
            last = app.screen_text()
            assert app.index == len(steps) - 1 and "Match over" in last
            for widget in app.screen.query("Static"):
                assert widget.region.bottom <= SIZE[1]
            await pilot.press("right")
            assert app.index == len(steps) - 1
            await pilot.press("q")

    asyncio.run(main())


@pytest.mark.parametrize(
    ("preset", "deck"), [("escoba", "french"), ("scopone-classico", "italian")]
)
@pytest.mark.slow
def test_replay_of_a_four_player_match_fits(preset: str, deck: DeckStyle) -> None:
    game = Game(RULESETS[preset], 4, True, seed=3)
    for _ in range(30):
        game.play(game.legal_moves()[0])
    app = ReplayApp(game, [None, "easy", "medium", "hard"], 0, deck, "de")

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("right", "right", "right")
            text = app.screen_text()
            assert "Computer 3 (schwer)" in text and "Schritt 4/31" in text
            for widget in app.screen.query("Static"):
                assert widget.region.bottom <= SIZE[1]

    asyncio.run(main())


def test_replay_names_computer_levels_in_its_language() -> None:
    # As the game screen does (EscobaApp.seat_name): "Ordenador (difícil)", not "(hard)".
    app = ReplayApp(finished_match(), [None, "hard"], 0, "french", "es")
    assert app.seat_name(1, long=True) == "Ordenador (difícil)"
    assert app.seat_name(1) == "Ordenador" and app.seat_name(0, long=True) == "Tú"
    english = ReplayApp(finished_match(), [None, "hard"], 0, "french", "en")
    assert english.seat_name(1, long=True) == "Computer (hard)"
    people = ReplayApp(finished_match(), [None, None], None, "french", "en")
    assert people.seat_name(1, long=True) == "Seat 2"  # counted from 1, as the web does


def _pad_text(rules: RuleSet, language: str) -> str:
    game = Game(rules, 2, seed=5)
    while not game.results:
        game.play(game.legal_moves()[-1])
    console = Console(file=io.StringIO(), width=120)
    for table in score_tables(game.results, ["A", "B"], rules, language):
        console.print(table)
    out = console.file
    assert isinstance(out, io.StringIO)
    return out.getvalue()


def test_score_pad_names_the_sevens_category_in_its_language() -> None:
    sevens = RULESETS["escoba"].replace(sevens="sevens")
    assert "Sevens (most sevens)" in _pad_text(sevens, "en")
    spanish = _pad_text(sevens, "es")
    assert "Sietes (más sietes)" in spanish and "most sevens" not in spanish
    assert "Siebener (Setenta)" in _pad_text(RULESETS["escoba"], "de")


def test_score_pad_shows_the_categories_the_rules_score_only() -> None:
    """A category that cannot score under the rules has no row: no sevens category, all four
    sevens without their bonus, re bello and napola unless played."""
    none = RULESETS["escoba"].replace(sevens="none")
    for language, label, cards in (("en", "Sevens", "Most cards"), ("it", "│ Sette ", "Più carte")):
        text = _pad_text(none, language)
        assert label not in text and cards in text
        assert "no sevens category" not in text and "nessuna categoria" not in text
        assert "Re bello" not in text and "Napola" not in text
    regional = _pad_text(RULESETS["scopa"].replace(re_bello=True, napola=True), "en")
    assert "Re bello (king of coins)" in regional and "Napola (run of coins)" in regional
    assert "All four sevens" not in regional
    assert "Re bello (Karo-König)" in _pad_text(RULESETS["scopa"].replace(re_bello=True), "de")


def test_play_and_replay_commands_go_full_screen_on_a_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys
    import types

    from typer.testing import CliRunner

    import escoba.cli.root
    import escoba.tui

    monkeypatch.setenv("ESCOBA_DATA_DIR", str(tmp_path))
    terminal = types.SimpleNamespace(isatty=lambda: True)
    monkeypatch.setattr(
        escoba.cli.root,
        "sys",
        types.SimpleNamespace(stdin=terminal, stdout=terminal, exit=sys.exit),
    )
    started: list[tuple[str, object]] = []
    monkeypatch.setattr(escoba.tui, "run_app", lambda match, saves: started.append(("play", match)))
    monkeypatch.setattr(escoba.tui, "run_replay", lambda game, *_: started.append(("replay", game)))
    saved = new_session()
    saved.play(saved.legal_moves()[0])
    Saves().save_current(saved)
    runner = CliRunner()

    result = runner.invoke(escoba.cli.app, ["play", "--resume"])
    assert result.exit_code == 0, result.output
    assert "plain mode" not in result.output
    kind, resumed = started[-1]
    assert kind == "play" and isinstance(resumed, LocalMatch)
    assert resumed.game.record() == saved.game.record()

    path = tmp_path / "match.json"
    path.write_text(json.dumps(finished_match().record()))
    result = runner.invoke(escoba.cli.app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert started[-1][0] == "replay" and result.output == ""


@pytest.mark.slow
def test_a_resized_terminal_keeps_the_game_whole() -> None:
    """Issue "escoba play": it works in 80x24 and on resize: shrink, grow and play on."""

    async def check(app: EscobaApp, pilot: Pilot[None]) -> None:
        for width, height in ((60, 20), (120, 40), SIZE):
            await pilot.resize_terminal(width, height)
            await pilot.pause()
            assert app.size == (width, height)
            text = app.screen_text()
            assert "Your turn" in text and "[1]" in text
            for widget in app.screen.query("Static"):
                if widget.display and widget.region.height:
                    assert widget.region.right <= width
        await step(app, pilot)
        assert len(app.game.history()) > 1  # the game goes on after the resizes

    run(check)


def shown_lines(app: EscobaApp) -> list[str]:
    """The lines the terminal shows now, as drawn (what is scrolled out of view is not)."""
    return [strip.text.rstrip() for strip in app.screen._compositor.render_strips()]


def run_at(test: Test, size: tuple[int, int], **options: object) -> EscobaApp:
    app = EscobaApp(new_session(**options), None, pace=0, coach=Coach(Flat()))

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await test(app, pilot)

    asyncio.run(main())
    return app


@pytest.mark.slow
def test_the_score_pad_opens_at_the_hand_s_first_rows_at_80x24() -> None:
    """After each hand the pad opens at the top of that hand's score: its cards, coins and
    seven of coins rows in view, not scrolled to the bottom past them."""

    async def check(app: EscobaApp, pilot: Pilot[None]) -> None:
        for hand in (1, 2):
            for _ in range(400):
                if isinstance(app.screen, ScorePadScreen):
                    break
                await step(app, pilot)
            await pilot.pause()
            assert isinstance(app.screen, ScorePadScreen)
            shown = "\n".join(shown_lines(app))
            assert f"│ Hand {hand}" in shown, shown
            for row in ("Most cards", "Most coins", "Seven of coins"):
                assert row in shown, (row, shown)
            await pilot.press("escape")

    run_at(check, (80, 24))


@pytest.mark.parametrize("language", UI_LANGUAGES)
def test_the_key_help_is_one_line_at_80_columns(language: str) -> None:
    async def check(app: EscobaApp, pilot: Pilot[None]) -> None:
        keys = app.query_one("#keys")
        assert keys.region.height == 1
        last = [line for line in shown_lines(app) if line.strip()][-1]
        assert last.strip() == t("tui.keys", language)  # every key, none left out
        assert "0-9" in last and "q " in last

    run_at(check, (80, 24), language=language)


@pytest.mark.slow
def test_at_120x40_the_log_stands_beside_the_table_and_the_hand() -> None:
    async def check(app: EscobaApp, pilot: Pilot[None]) -> None:
        for _ in range(14):
            await step(app, pilot)
        await pilot.pause()
        log = app.query_one("#log").region
        table = app.query_one("#table-cards").region
        hand = app.query_one("#hand").region
        assert log.x >= max(table.right, hand.right) and log.y <= table.y
        lines = shown_lines(app)
        beside = [line for line in lines[table.y : hand.bottom] if line[log.x :].strip()]
        assert len(beside) >= 2  # moves of the log on the table's and the hand's lines
        moves = [line for line in lines if "You drop" in line or "You play" in line]
        assert len(moves) > 4  # more of the hand's moves than at 80×24

    run_at(check, (120, 40))


def test_the_coachs_words_name_the_seven_of_coins_in_the_players_deck() -> None:
    """With Spanish cards the review and the hint say "7 de oros" where the coach's sentence
    speaks of the seven of coins, as every other card of the advice (a hint mixed "7 de oros"
    and "the 7 of coins")."""
    from escoba.ai.coach import MoveAdvice
    from escoba.messages import Message

    advice = MoveAdvice(
        Move.parse("Kd"),
        gain=0.1,
        loss=1.2,
        verdict=Message("coach.costs_points", {"points": 1.2, "best": Move.parse("7h:7d")}),
        reasons=(Message("coach.takes_seven_of_coins"),),
    )

    async def check(app: EscobaApp, pilot: Pilot[None]) -> None:
        said = app.advice_text(advice)
        assert said.count("7 de oros") == 2, said
        assert "coins" not in said, said

    run(check, deck_style="spanish")
