"""The first-match tutorial (escoba.tutorial, `escoba learn`): its lessons teach only legal
moves, accept exactly the moves they ask for and explain every other try; the terminal
tutorial is driven through Textual's pilot, the plain one line by line."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable

import pytest
from typer.testing import CliRunner

from escoba import DECK_STYLES, RULESETS, Card, InvalidMoveError, Move, card_name, parse_cards
from escoba.catalogue import LANGUAGES
from escoba.cli import app
from escoba.cli.learn import plain_tutorial
from escoba.tutorial import (
    LESSONS,
    STEPS,
    Step,
    every_try,
    hand_points,
    judge,
    legal_moves,
    lessons_done,
    score_rows,
    step_text,
)

PLAY_STEPS = [step for step in STEPS if step.kind == "play"]


def by_the_rules(step: Step, move: Move) -> bool:
    """Whether a move is legal, worked out here from RULES.md ("A move"), not by the engine's
    capture search: a sum of 15 (Escoba), or an equal card alone, else a sum of two or more
    equal to the card's value (Scopa); a drop only when the card can take nothing."""
    rules = step.rules

    def takes(card: Card, taken: Iterable[Card]) -> bool:
        chosen = list(taken)
        if not chosen:
            return False
        total = sum(c.value for c in chosen)
        if rules.capture == "sum15":
            return card.value + total == 15
        equal = [c for c in step.table if c.value == card.value]
        if equal:
            return len(chosen) == 1 and chosen[0] in equal
        return len(chosen) >= 2 and total == card.value

    if move.is_capture:
        return takes(move.card, move.captures)
    return not any(takes(m.card, m.captures) for m in every_try(step) if m.card == move.card)


def test_the_lessons_cover_the_brief() -> None:
    assert len(LESSONS) == 6
    assert len(STEPS) == sum(len(lesson.steps) for lesson in LESSONS)
    kinds = {step.kind for step in STEPS}
    assert kinds == {"read", "play", "score"}
    assert {step.preset for step in STEPS} == {"escoba", "scopa"}


@pytest.mark.parametrize("number", range(len(PLAY_STEPS)))
def test_every_try_is_judged_as_the_rules_say(number: int) -> None:
    """The expected moves are legal (by the engine and by RULES.md), and exactly they are
    accepted; every other try is refused with a reason."""
    step = PLAY_STEPS[number]
    assert step.expected <= legal_moves(step)
    for move in every_try(step):
        verdict = judge(step, move)
        assert verdict.legal == (move in legal_moves(step)) == by_the_rules(step, move), move
        assert verdict.accepted == (move in step.expected), move
        assert verdict.text("en"), move


def test_a_lesson_cannot_expect_an_illegal_move() -> None:
    with pytest.raises(InvalidMoveError, match="illegal"):
        Step(
            "tutorial.fifteen.body",
            hand=parse_cards("4h"),
            table=parse_cards("As 3h 4c 7d"),
            expected=frozenset({Move.parse("4h:As+3h")}),  # 4 + 1 + 3 = 8
            done="tutorial.fifteen.done",
            other="tutorial.fifteen.other",
        )


def test_wrong_tries_are_explained() -> None:
    """The seeds' examples: a sum that is not 15, Scopa's single-card priority, the forced
    capture, a sum that is not the card's value, and a legal move the step is not about."""
    fifteen, match, match_sum = STEPS[1], STEPS[2], STEPS[3]
    assert judge(fifteen, Move.parse("4h:3h+4c")).text("en") == "4 + 3 + 4 = 11, not 15."
    forced = judge(fifteen, Move.parse("4h"))
    assert not forced.legal
    assert forced.text("en") == (
        "Your 4♥ can take 4♣ + 7♦, so it must: a card that can take may not be dropped."
    )
    priority = judge(match, Move.parse("5d:Ah+4s"))
    assert not priority.legal and "5♣" in priority.text("en") and "alone" in priority.text("en")
    assert judge(match_sum, Move.parse("Jd:Ac+6s")).text("en") == (
        "1 + 6 = 7, but your J♦ is worth 8."
    )
    other = judge(fifteen, Move.parse("Qs"))
    assert other.legal and not other.accepted
    assert other.text("en").startswith("That is allowed: your Q♠ takes nothing here")
    right = judge(fifteen, Move.parse("4h:As+3h+7d"))
    assert right.accepted and right.text("en").startswith("Right: 4♥ + A♠ + 3♥ + 7♦ make 15.")


def test_a_try_with_cards_the_step_has_not_is_refused() -> None:
    step = STEPS[1]
    with pytest.raises(InvalidMoveError, match="7c is not in the hand"):
        judge(step, Move.parse("7c"))
    with pytest.raises(InvalidMoveError, match="Kd is not on the table"):
        judge(step, Move.parse("4h:Kd+As"))
    with pytest.raises(InvalidMoveError, match="nothing to play"):
        judge(STEPS[0], Move.parse("4h"))


@pytest.mark.parametrize("deck", DECK_STYLES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_text_in_every_language_and_deck(language: str, deck: str) -> None:
    """Every step and every answer reads in each language, its cards named in the deck."""
    for step in STEPS:
        said = step_text(step, language, deck)  # type: ignore[arg-type]
        assert said and "{" not in said
        for name, value in step.params.items():
            if isinstance(value, Card):
                assert card_name(value, deck, language) in said or name not in step.body  # type: ignore[arg-type]
        if step.kind == "play":
            for move in every_try(step):
                answer = judge(step, move).text(language, deck)  # type: ignore[arg-type]
                assert answer and "{" not in answer
        if step.kind == "score":
            rows = score_rows(step, language, deck)  # type: ignore[arg-type]
            assert all(len(row.shown) == 2 and all(row.shown) for row in rows)
    spanish = judge(STEPS[1], Move.parse("4h:4c+7d")).text(language, "spanish")
    assert "4 de copas" in spanish and "7 de oros" in spanish


def test_scoring_steps_are_the_seeds_examples() -> None:
    """Seed 000: Anna's 7♠ 7♥ 6♦ 5♣ beat Ben's 7♦ 7♣ A♠ A♥, she scores 4 and he 2; seed 002:
    7♦ 6♥ 7♠ A♣ make a primiera of 76."""
    setenta, primiera = (step for step in STEPS if step.kind == "score")
    assert setenta.rules == RULESETS["escoba"] and hand_points(setenta) == (4, 2)
    rows = {row.category: row for row in score_rows(setenta)}
    assert rows["sevens"].shown == ("7♥ 7♠ 6♦ 5♣", "7♦ 7♣ A♥ A♠")
    assert rows["sevens"].points == (1, 0)
    assert rows["cards"].shown == ("23 cards", "17 cards")
    assert sum(len(pile) for pile in setenta.piles) == 40
    rows = {row.category: row for row in score_rows(primiera)}
    assert primiera.rules == RULESETS["scopa"]
    assert rows["sevens"].shown[0].endswith("21 + 21 + 18 + 16 = 76")
    assert rows["sevens"].points == (0, 1)
    assert rows["coins"].points == (0, 0)  # 5 to 5: nobody


def test_plain_tutorial_walks_the_first_lesson() -> None:
    answers = ["", "1 ab", "1", "1 cd", "n", "q"]
    lines = list(plain_tutorial(answers, "french", "en"))
    shown = "\n".join(lines)
    assert "Step 1 of 13 · Adding up to 15" in shown
    assert "Step 2 of 13" in shown and "Table: a) A♠   b) 3♥   c) 4♣   d) 7♦" in shown
    assert "✗ 4 + 1 + 3 = 8, not 15." in shown
    assert "✗ Your 4♥ can take 4♣ + 7♦, so it must" in shown
    assert "✓ Right: 4♥ + 4♣ + 7♦ make 15." in shown
    assert "Step 3 of 13" in shown


def test_escoba_learn_plain_in_another_language() -> None:
    result = CliRunner().invoke(
        app, ["learn", "--plain", "--language", "es", "--deck", "spanish"], input="\n1 cd\n"
    )
    assert result.exit_code == 0, result.output
    assert "Paso 2 de 13" in result.output
    assert "✓ Bien: 4 de copas + 4 de bastos + 7 de oros suman 15." in result.output
    refused = CliRunner().invoke(app, ["learn", "--plain", "--deck", "german"])
    assert refused.exit_code == 2 and "unknown deck 'german'" in refused.output


@pytest.mark.slow
def test_terminal_tutorial_through_a_lesson() -> None:
    pytest.importorskip("textual")
    from escoba.tui.tutorial import TutorialApp, TutorialScreen

    async def main() -> None:
        app_ = TutorialApp("french", "en")
        async with app_.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            screen = app_.screen
            assert isinstance(screen, TutorialScreen)
            assert "Step 1 of 13 · Adding up to 15" in screen.screen_text()
            await pilot.press("enter")
            assert "Step 2 of 13" in screen.screen_text()
            assert "a A♠" in screen.screen_text() and "1 4♥" in screen.screen_text()
            await pilot.press("enter")  # no card chosen yet
            assert "First choose a card" in screen.screen_text()
            # Four table cards: the key help names a to d, the hand's three cards 1 to 3.
            assert "1-3 card · a-d table cards · Enter play" in screen.screen_text()
            await pilot.press("1", "a", "b", "enter")
            assert "✗ 4 + 1 + 3 = 8, not 15." in screen.screen_text()
            # The try stays chosen: one more table card (a click) makes it right.
            assert "▶ 1 4♥" in screen.screen_text()
            assert "[x] a A♠" in screen.screen_text() and "[x] b 3♥" in screen.screen_text()
            assert "Adding up to 15 ✓" not in screen.screen_text()  # three exercises to do
            await pilot.click("#table-d")
            await pilot.press("enter")
            assert "✓ Right: 4♥ + A♠ + 3♥ + 7♦ make 15." in screen.screen_text()
            assert "[x]" not in screen.screen_text()
            assert screen.done == {0, 1}
            await pilot.press("n")
            assert "Step 3 of 13" in screen.screen_text()
            await pilot.press("1", "enter")
            assert "✗ Your 5♦ can take 5♣, so it must" in screen.screen_text()
            await pilot.press("1", "c", "enter")
            assert "✓ Right: the 5♦ takes the single 5, never 4 + 1." in screen.screen_text()
            for _ in range(6):
                await pilot.press("right")
            assert "Step 9 of 13 · Scoring a hand" in screen.screen_text()
            assert "Points for the hand" in screen.screen_text()
            await pilot.press("p")
            assert "Step 8 of 13" in screen.screen_text()
            await pilot.press("q")

    asyncio.run(main())


@pytest.mark.slow
def test_reading_past_the_exercises_does_not_finish_the_tutorial() -> None:
    """Next through every step: only the lesson with nothing to play is done, and the last
    step names the lessons whose exercises are still to do, in the terminal and in plain
    lines; the sweep played right ticks its lesson."""
    pytest.importorskip("textual")
    from escoba.tui.tutorial import TutorialApp, TutorialScreen

    assert lessons_done(set(range(len(STEPS)))) == (True,) * len(LESSONS)
    read = {i for i, step in enumerate(STEPS) if step.kind != "play"}
    assert lessons_done(read) == (False, False, False, False, True, False)

    async def main() -> None:
        app_ = TutorialApp("french", "en")
        async with app_.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app_.screen
            assert isinstance(screen, TutorialScreen)
            await pilot.press(*["n"] * 4)
            assert "Step 5 of 13 · A sweep" in screen.screen_text()
            assert "A sweep ✓" not in screen.screen_text()
            await pilot.press("1", "a", "b", "c", "d", "enter")
            assert "A sweep ✓" in screen.screen_text()
            await pilot.press(*["n"] * 8)
            assert "Step 13 of 13 · Beginner tips" in screen.screen_text()
            shown = screen.screen_text()
            assert "You have finished" not in shown
            assert (
                "Lessons with an exercise still to do: Adding up to 15, The forced capture, "
                "The cards left on the table, Beginner tips." in shown
            )
            # The step with an empty table has no table keys to name.
            await pilot.press("p", "p")
            assert "Step 11 of 13" in screen.screen_text()
            assert "1-3 card · Enter play" in screen.screen_text()
            await pilot.press("q")

    asyncio.run(main())
    lines = list(plain_tutorial(["n"] * len(STEPS), "french", "en"))
    assert "You have finished the tutorial. Start a match with: escoba play" not in lines
    assert lines[-1].startswith("Lessons with an exercise still to do: Adding up to 15, A sweep")
