"""``escoba learn`` on a terminal: the first-match tutorial, one step at a time.

The lessons are :mod:`escoba.tutorial`'s (shared with the web page): a step to read, a hand's
scoring to look at, or a position where the player picks a card (its number key or a click)
and the table cards it takes (their letters or clicks), then plays with Enter. A wrong try is
explained, not just refused: the card and table cards tried stay chosen, to be changed, and
the step stays until the player gets it or moves on. A lesson is ticked (✓ after its title)
once its exercises were played right; the last step says which lessons still have one to do.
"""

from __future__ import annotations

import io

from rich.console import Console
from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Grid
from textual.events import Key
from textual.screen import Screen
from textual.widgets import Static

from ..cards import Card, DeckStyle
from ..moves import Move
from ..tutorial import (
    LESSONS,
    STEP_LESSONS,
    STEPS,
    TABLE_LETTERS,
    Step,
    hand_points,
    judge,
    key_range,
    lessons_done,
    score_rows,
    scored_text,
    side_names,
    step_text,
)
from .texts import t
from .widgets import Choice, card_text, plain_text

__all__ = ["TutorialApp", "TutorialScreen"]

HAND_SLOTS = 3


class TutorialScreen(Screen[None]):
    """The tutorial's steps; ``index`` is the step shown, counted from 0."""

    DEFAULT_CSS = """
    TutorialScreen { layout: vertical; padding: 0 1; }
    #progress { text-style: bold; }
    #body { margin-bottom: 1; }
    /* Three cards a line: long names (caballo de espadas) wrap onto the next line. */
    #table-row, #hand-row { layout: grid; grid-size: 3; grid-gutter: 0 2; height: auto; }
    .label { color: $text-muted; }
    #table-row { margin-bottom: 1; }
    #score { height: auto; }
    #verdict { margin-top: 1; min-height: 1; }
    #verdict.right { color: $success; }
    #verdict.wrong { color: $warning; }
    #keys { dock: bottom; color: $text-muted; }
    Choice:hover { background: $boost; }
    """
    BINDINGS = [  # noqa: RUF012 (Textual's declared class attribute)
        Binding("right,n", "step(1)", "next", show=False),
        Binding("left,p", "step(-1)", "back", show=False),
        Binding("enter", "play", "play", show=False),
        Binding("q,escape", "quit", "quit", show=False),
    ]

    def __init__(self, deck: DeckStyle = "french", language: str = "en", start: int = 0) -> None:
        super().__init__()
        self.deck: DeckStyle = deck
        self.language = language
        self.index = start
        self.card: int | None = None
        self.taken: set[int] = set()
        self.done: set[int] = set()
        """The steps played right (or, with nothing to play, shown) so far."""
        self.verdict = Text()

    # -- words

    def tr(self, key: str, **params: object) -> str:
        return t(key, self.language, **params)

    @property
    def step(self) -> Step:
        return STEPS[self.index]

    def card_label(self, card: Card) -> Text:
        return card_text(card, self.deck, self.language)

    # -- layout

    def compose(self) -> ComposeResult:
        yield Static(id="progress", markup=False)
        yield Static(id="body", markup=False)
        yield Static(id="table-label", classes="label", markup=False)
        with Grid(id="table-row"):
            for number, letter in enumerate(TABLE_LETTERS):
                yield Choice("table", number, id=f"table-{letter}")
        yield Static(id="hand-label", classes="label", markup=False)
        with Grid(id="hand-row"):
            for number in range(HAND_SLOTS):
                yield Choice("hand", number, id=f"hand-{number + 1}")
        yield Static(id="score", markup=False)
        yield Static(id="verdict", markup=False)
        yield Static(id="keys", markup=False)

    def on_mount(self) -> None:
        self.show()

    def show(self) -> None:
        step = self.step
        if step.kind != "play":
            self.done.add(self.index)  # read: nothing more to do there
        number = STEP_LESSONS[self.index]
        progress = self.tr(
            "tutorial.ui.progress",
            n=self.index + 1,
            total=len(STEPS),
            lesson=self.tr(LESSONS[number].title),
        )
        done = lessons_done(self.done)
        if done[number]:
            progress += " ✓"
        self.query_one("#progress", Static).update(Text(progress))
        self.query_one("#body", Static).update(Text(step_text(step, self.language, self.deck)))
        playing = step.kind == "play"
        for part in ("#table-label", "#table-row", "#hand-label", "#hand-row"):
            self.query_one(part).display = playing
        if playing:
            self.show_cards()
        score = self.query_one("#score", Static)
        score.display = step.kind == "score"
        if step.kind == "score":
            score.update(self.score_table())
        verdict = self.query_one("#verdict", Static)
        verdict.update(self.verdict)
        if step.kind == "play":
            numbers = key_range("123456789"[: len(step.hand)])
            letters = key_range(TABLE_LETTERS[: len(step.table)])
            if letters:
                keys = self.tr("tutorial.ui.keys_play", numbers=numbers, letters=letters)
            else:
                keys = self.tr("tutorial.ui.keys_play_empty", numbers=numbers)
        else:
            keys = self.tr("tutorial.ui.keys_read")
        if self.index == len(STEPS) - 1 and step.kind != "play":
            keys = self.end_text(done) + "\n" + keys
        self.query_one("#keys", Static).update(Text(keys))

    def end_text(self, done: tuple[bool, ...]) -> str:
        """At the last step: the tutorial finished, or the lessons with exercises to do."""
        if all(done):
            return self.tr("tutorial.ui.finished")
        left = ", ".join(self.tr(LESSONS[n].title) for n, ok in enumerate(done) if not ok)
        return self.tr("tutorial.ui.unfinished", lessons=left)

    def show_cards(self) -> None:
        step = self.step
        table_label = self.tr("tutorial.ui.table") + ":"
        self.query_one("#table-label", Static).update(Text(table_label))
        for number, letter in enumerate(TABLE_LETTERS):
            slot = self.query_one(f"#table-{letter}", Choice)
            slot.display = number < len(step.table) or (number == 0 and not step.table)
            if number < len(step.table):
                chosen = number in self.taken
                shown = Text(f"{'[x]' if chosen else '[ ]'} {letter} ")
                shown.append_text(self.card_label(step.table[number]))
                slot.update(shown)
            elif number == 0:
                slot.update(Text(self.tr("tutorial.ui.empty"), style="dim"))
        self.query_one("#hand-label", Static).update(Text(self.tr("tutorial.ui.hand") + ":"))
        for number in range(HAND_SLOTS):
            slot = self.query_one(f"#hand-{number + 1}", Choice)
            slot.display = number < len(step.hand)
            if number < len(step.hand):
                chosen = number == self.card
                shown = Text(
                    f"{'▶' if chosen else ' '} {number + 1} ", style="bold" if chosen else ""
                )
                shown.append_text(self.card_label(step.hand[number]))
                slot.update(shown)

    def score_table(self) -> Table:
        step = self.step
        sides = side_names(self.language)
        table = Table(expand=False)
        table.add_column("")
        for side in sides:
            table.add_column(side)
        table.add_column(self.tr("tutorial.score.point"))
        for row in score_rows(step, self.language, self.deck):
            table.add_row(row.label, *row.shown, scored_text(row.points, self.language))
        table.add_row(
            Text(self.tr("tutorial.score.total"), style="bold"),
            *(Text(str(p), style="bold") for p in hand_points(step)),
            "",
        )
        return table

    def screen_text(self) -> str:
        """Every text the screen shows (for tests and checks), the score table as drawn."""
        shown = []
        for widget in self.query(Static):
            if not all(node.display for node in widget.ancestors_with_self if node is not self):
                continue
            if isinstance(widget.content, Table):
                console = Console(width=self.size.width, file=io.StringIO(), color_system=None)
                with console.capture() as drawn:
                    console.print(widget.content)
                shown.append(drawn.get())
            else:
                shown.append(plain_text(widget))
        return "\n".join(shown)

    # -- keys and clicks

    def on_key(self, event: Key) -> None:
        if self.step.kind != "play" or event.character is None:
            return
        character = event.character
        if character.isdigit() and 1 <= int(character) <= len(self.step.hand):
            event.stop()
            self.pick_card(int(character) - 1)
        elif character in TABLE_LETTERS[: len(self.step.table)]:
            event.stop()
            self.toggle_table(TABLE_LETTERS.index(character))

    def on_choice_picked(self, message: Choice.Picked) -> None:
        if message.kind == "hand":
            self.pick_card(message.number)
        elif message.number < len(self.step.table):
            self.toggle_table(message.number)

    def pick_card(self, number: int) -> None:
        self.card = number
        self.show()

    def toggle_table(self, number: int) -> None:
        self.taken ^= {number}
        self.show()

    def action_play(self) -> None:
        step = self.step
        if step.kind != "play":
            self.action_step(1)
            return
        if self.card is None:
            self.verdict = Text(self.tr("tutorial.ui.pick_card"), style="bold")
            self.show()
            return
        move = Move(step.hand[self.card], [step.table[i] for i in sorted(self.taken)])
        verdict = judge(step, move)
        mark = "✓ " if verdict.accepted else "✗ "
        self.verdict = Text(mark + verdict.text(self.language, self.deck), style="bold")
        verdict_widget = self.query_one("#verdict", Static)
        verdict_widget.set_class(verdict.accepted, "right")
        verdict_widget.set_class(not verdict.accepted, "wrong")
        if verdict.accepted:
            self.done.add(self.index)
            self.card = None
            self.taken = set()
        self.show()  # a wrong try stays chosen: a card more or less may make it right

    def action_step(self, delta: int) -> None:
        self.index = max(0, min(len(STEPS) - 1, self.index + delta))
        self.card = None
        self.taken = set()
        self.verdict = Text()
        self.query_one("#verdict", Static).set_classes("")
        self.show()

    async def action_quit(self) -> None:
        self.app.exit()


class TutorialApp(App[None]):
    """The tutorial on its own, for ``escoba learn``."""

    TITLE = "escoba learn"

    def __init__(self, deck: DeckStyle = "french", language: str = "en") -> None:
        super().__init__()
        self.deck: DeckStyle = deck
        self.language = language

    def on_mount(self) -> None:
        self.push_screen(TutorialScreen(self.deck, self.language))
