"""``escoba learn``: the first-match tutorial, full screen on a terminal, plain lines otherwise.

In plain mode each step is printed, and the player types a line: a move as the card's number
and the letters of the table cards it takes (``1 ac``; the number alone drops the card), ``n``
for the next step, ``p`` for the one before, ``q`` to stop. The end of input stops too.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Annotated

import typer

from ..cards import Card, DeckStyle, card_name
from ..catalogue import LANGUAGES, text
from ..moves import Move
from ..tutorial import (
    LESSONS,
    STEP_LESSONS,
    STEPS,
    TABLE_LETTERS,
    Step,
    hand_points,
    judge,
    lessons_done,
    score_rows,
    scored_text,
    side_names,
    step_text,
)
from .options import FrenchDeck, Plain, parse_language
from .root import app, full_screen

__all__ = ["learn_command", "plain_tutorial"]


LearnLanguage = Annotated[
    str | None,
    typer.Option(
        "--language",
        metavar="LANG",
        parser=parse_language,
        help=f"Language of the lessons: {', '.join(LANGUAGES)} (default: en).",
        show_default=False,
    ),
]


@app.command("learn")
def learn_command(
    plain: Plain = False, deck: FrenchDeck = None, language: LearnLanguage = None
) -> None:
    """Learn to play: lessons on adding up to 15, sweeps, the forced capture, the cards left
    on the table, scoring and a few tips, one step at a time."""
    deck_style: DeckStyle = deck or "french"
    chosen = language or "en"
    if full_screen(plain):
        try:
            from ..tui.tutorial import TutorialApp
        except ImportError:
            pass  # no Textual: plain lines
        else:
            TutorialApp(deck_style, chosen).run()
            return
    for line in plain_tutorial(_lines(), deck_style, chosen):
        typer.echo(line)


def _lines() -> Iterator[str]:
    while True:
        try:
            yield input()
        except EOFError:
            return


def _step_lines(index: int, deck: DeckStyle, language: str) -> list[str]:
    step = STEPS[index]

    def name(card: Card) -> str:
        return card_name(card, deck, language)

    lines = [
        "",
        text(
            "tutorial.ui.progress",
            language,
            n=index + 1,
            total=len(STEPS),
            lesson=text(LESSONS[STEP_LESSONS[index]].title, language),
        ),
        step_text(step, language, deck),
    ]
    if step.kind == "play":
        table = "   ".join(f"{TABLE_LETTERS[i]}) {name(c)}" for i, c in enumerate(step.table))
        hand = "   ".join(f"{i + 1}) {name(c)}" for i, c in enumerate(step.hand))
        lines.append(text("tutorial.ui.table", language) + ": " + (table or "—"))
        lines.append(text("tutorial.ui.hand", language) + ": " + hand)
        lines.append(text("tutorial.plain.prompt_play", language))
    else:
        if step.kind == "score":
            lines.extend(_score_lines(step, deck, language))
        lines.append(text("tutorial.plain.prompt_read", language))
    return lines


def _score_lines(step: Step, deck: DeckStyle, language: str) -> list[str]:
    sides = side_names(language)
    lines = []
    for row in score_rows(step, language, deck):
        held = " | ".join(f"{side}: {shown}" for side, shown in zip(sides, row.shown, strict=True))
        lines.append(f"  {row.label}: {held} → {scored_text(row.points, language)}")
    points = zip(sides, hand_points(step), strict=True)
    total = " | ".join(f"{side}: {p}" for side, p in points)
    lines.append(f"  {text('tutorial.score.total', language)}: {total}")
    return lines


def _parse_move(step: Step, line: str) -> Move | None:
    """``1 ac`` as a move of the step, None if the line is no move of it."""
    words = line.replace(",", " ").split()
    if not words or not words[0].isdigit() or not 1 <= int(words[0]) <= len(step.hand):
        return None
    letters = "".join(words[1:]).lower()
    allowed = TABLE_LETTERS[: len(step.table)]
    if any(letter not in allowed for letter in letters) or len(set(letters)) != len(letters):
        return None
    return Move(step.hand[int(words[0]) - 1], [step.table[allowed.index(x)] for x in letters])


def _end_text(done: set[int], language: str) -> str:
    """The tutorial finished, or the lessons whose exercises are still to do."""
    lessons = lessons_done(done)
    if all(lessons):
        return text("tutorial.ui.finished", language)
    left = ", ".join(text(LESSONS[n].title, language) for n, ok in enumerate(lessons) if not ok)
    return text("tutorial.ui.unfinished", language, lessons=left)


def plain_tutorial(lines: Iterable[str], deck: DeckStyle, language: str) -> Iterator[str]:
    """The tutorial as plain lines, answering the player's ``lines`` (see the module's doc)."""
    index = 0
    solved = False
    done: set[int] = set()  # the steps played right, or shown when there is nothing to play
    yield from _step_lines(index, deck, language)
    for line in lines:
        if STEPS[index].kind != "play":
            done.add(index)
        answer = line.strip().lower()
        step = STEPS[index]
        if answer == "q":
            return
        if answer in ("n", "p") or (not answer and (solved or step.kind != "play")):
            solved = False
            if answer == "p":
                index = max(0, index - 1)
            elif index == len(STEPS) - 1:
                yield _end_text(done, language)
                return
            else:
                index += 1
            yield from _step_lines(index, deck, language)
            continue
        move = _parse_move(step, answer) if step.kind == "play" else None
        if move is None:
            if step.kind == "play":
                last = TABLE_LETTERS[max(0, len(step.table) - 1)]
                yield text("tutorial.plain.bad_input", language, count=len(step.hand), last=last)
            else:
                yield text("tutorial.plain.prompt_read", language)
            continue
        verdict = judge(step, move)
        mark = "✓" if verdict.accepted else "✗"
        yield f"{mark} {verdict.text(language, deck)}"
        if verdict.accepted:
            solved = True
            done.add(index)
            yield text("tutorial.plain.prompt_read", language)
