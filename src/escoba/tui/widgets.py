"""Pieces of the terminal UI: coloured card names, clickable choices and the modal screens."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Final

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.events import Click
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Static

from ..cards import Card, DeckStyle, Suit, card_name
from ..catalogue import message_key
from ..cheatsheet import coin_run_name, sevens_label
from ..explanation import HandExplanation
from ..moves import Move
from ..play.render import by_suit
from ..rules import RuleSet
from ..scoring import HandResult, categories_in_play
from .texts import t, tn

__all__ = [
    "SUIT_COLOURS",
    "CapturesScreen",
    "CheatSheetScreen",
    "Choice",
    "ScorePadScreen",
    "card_text",
    "cards_text",
    "explanation_table",
    "fill",
    "move_text",
    "plain_text",
]

SUIT_COLOURS: dict[Suit, str] = {
    Suit.COINS: "bold yellow",
    Suit.CUPS: "bold red",
    Suit.SWORDS: "bold cyan",
    Suit.CLUBS: "bold green",
}


def card_text(card: Card, style: DeckStyle, language: str) -> Text:
    """A card's name in the deck style, coloured by its suit."""
    return Text(card_name(card, style, language), style=SUIT_COLOURS[card.suit])


def cards_text(cards: Iterable[Card], style: DeckStyle, language: str, sep: str = "  ") -> Text:
    """Several cards, coloured, separated by ``sep``."""
    return Text(sep).join(card_text(card, style, language) for card in cards)


def fill(key: str, language: str, **parts: Text) -> Text:
    """The text of ``key`` with coloured parts put in place of its {placeholders}."""
    template = t(key, language, **{name: "\0" + name + "\0" for name in parts})
    out = Text()
    for index, piece in enumerate(template.split("\0")):
        out.append_text(parts[piece]) if index % 2 else out.append(piece)
    return out


def move_text(
    name: str, move: Move, sweep: bool, *, mine: bool, style: DeckStyle, language: str
) -> Text:
    """A played move as a log line: "seat 1 takes 5 + 3 with 7", "You drop 4", "Sweep!".

    ``mine`` picks the second person's verb forms, for the person's own moves.
    """
    card = card_text(move.card, style, language)
    who = Text(name)
    if move.is_capture:
        taken = cards_text(sorted(move.captures), style, language, " + ")
        if mine:
            line = fill("tui.played_take_you", language, name=who, card=card, cards=taken)
        else:
            line = fill("tui.played_take", language, name=who, card=card, cards=taken)
    elif mine:
        line = fill("tui.played_drop_you", language, name=who, card=card)
    else:
        line = fill("tui.played_drop", language, name=who, card=card)
    if sweep:
        line.append(t("tui.sweep", language), style="bold magenta")
    return line


def plain_text(widget: Static) -> str:
    """The text a Static shows, without styles (for tests and screen checks)."""
    content = widget.content
    if isinstance(content, Text):
        return content.plain
    return str(content)


class Choice(Static):
    """A numbered, clickable line: a card of the hand or a set of cards to take."""

    class Picked(Message):
        """The person clicked a choice."""

        def __init__(self, kind: str, number: int) -> None:
            super().__init__()
            self.kind = kind
            self.number = number

    def __init__(self, kind: str, number: int, *, id: str | None = None) -> None:
        super().__init__("", id=id, classes=f"choice {kind}")
        self.kind = kind
        self.number = number

    def on_click(self, event: Click) -> None:
        event.stop()
        self.post_message(self.Picked(self.kind, self.number))


class _Modal(ModalScreen[None]):
    """A modal that closes on Escape, Enter, q or its own key."""

    BINDINGS = [  # noqa: RUF012 (Textual's declared class attribute)
        Binding("escape", "close", show=False),
        Binding("enter", "close", show=False),
        Binding("q", "close", show=False),
    ]

    DEFAULT_CSS = """
    _Modal { align: center middle; }
    _Modal > Vertical {
        width: 78; height: auto; max-height: 22; border: round $accent;
        background: $surface; padding: 0 1;
    }
    _Modal VerticalScroll { height: auto; max-height: 18; }
    _Modal .title { text-style: bold; }
    _Modal .help { color: $text-muted; }
    """

    def __init__(self, title: str, body: Sequence[Static], help_text: str) -> None:
        super().__init__()
        self._title = title
        self._body = body
        self._help = help_text

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self._title, classes="title", markup=False)
            with VerticalScroll():
                yield from self._body
            yield Static(self._help, classes="help", markup=False)

    OPENS_AT_END = True
    """Whether the modal opens scrolled to its end (the score pad: the last hand's review)."""

    def on_mount(self) -> None:
        body = self.query_one(VerticalScroll)
        if self.OPENS_AT_END:
            body.scroll_end(animate=False)
        else:
            body.scroll_home(animate=False)

    def action_close(self) -> None:
        self.dismiss(None)


_CATEGORY_KEYS: Final[Mapping[str, str]] = {
    "cards": message_key("tui.cat.cards"),
    "coins": message_key("tui.cat.coins"),
    "seven_of_coins": message_key("tui.cat.seven_of_coins"),
    "all_sevens": message_key("tui.cat.all_sevens"),
    "re_bello": message_key("tui.cat.re_bello"),
    "napola": message_key("tui.cat.napola"),
    "sweeps": message_key("tui.cat.sweeps"),
}


def _category_label(category: str, rules: RuleSet, language: str) -> str:
    # As cheatsheet.category_label: the sevens row names the rules' sevens category, in the
    # pad's language, unless the rules have none.
    if category == "sevens":
        if rules.sevens == "none":
            return t("tui.cat.sevens_unnamed", language)
        return t("tui.cat.sevens", language, label=sevens_label(rules, language))
    return t(_CATEGORY_KEYS[category], language)


def score_tables(
    results: Sequence[HandResult], side_names: Sequence[str], rules: RuleSet, language: str
) -> list[Table]:
    """One table per finished hand: every category per side, the hand's points, the totals."""
    tables: list[Table] = []
    running = [0] * len(side_names)
    for number, result in enumerate(results, start=1):
        table = Table(
            title=t("tui.hand_no", language, n=number), title_justify="left", expand=False
        )
        table.add_column("")
        for name in side_names:
            table.add_column(name, justify="right")
        for category in categories_in_play(rules):
            values = result.breakdown.get(category, (0,) * len(side_names))
            table.add_row(_category_label(category, rules, language), *map(str, values))
        for side, points in enumerate(result.points):
            running[side] += points
        table.add_row(
            Text(t("tui.hand_points", language), style="bold"),
            *(Text(str(p), style="bold") for p in result.points),
        )
        table.add_row(
            Text(t("tui.running", language), style="bold reverse"),
            *(Text(str(p), style="bold reverse") for p in running),
        )
        tables.append(table)
    return tables


def explanation_table(
    why: HandExplanation,
    number: int,
    side_names: Sequence[str],
    style: DeckStyle,
    language: str,
) -> Table:
    """The counts behind a hand's score, side by side: cards and coins taken, the seven of
    coins, the sevens or each suit's best card (with the primiera's sum), the king of coins
    (re bello) and the run of coins (napola) where the rules score them, sweeps; under it,
    the leftovers and who took them."""
    table = Table(
        title=t("tui.why.title", language, n=number + 1), title_justify="left", expand=False
    )
    table.add_column("")
    for name in side_names:
        table.add_column(name, justify="right")

    def named(cards: Sequence[Card]) -> Text:
        if not cards:
            return Text("–", style="dim")
        return cards_text(cards, style, language, ", ")

    sides = why.sides
    table.add_row(t("tui.why.cards", language), *(str(side.cards) for side in sides))
    table.add_row(t("tui.why.coins", language), *(str(side.coins) for side in sides))
    seven = Card.parse("7d")
    table.add_row(
        t("tui.why.seven_of_coins", language),
        *(named([seven] if side.seven_of_coins else []) for side in sides),
    )
    if why.sevens_mode in ("sevens", "none"):
        table.add_row(t("tui.why.sevens", language), *(named(side.sevens) for side in sides))
    else:
        # Setenta compares these best first, card by card; primiera adds up their points.
        table.add_row(t("tui.why.best", language), *(named(side.ranked_best) for side in sides))
    if why.sevens_mode == "primiera":
        table.add_row(
            t("tui.why.primiera", language),
            *(
                "+".join(str(p) for p in sorted(side.best_points, reverse=True) if p)
                + f" = {side.primiera}"
                for side in sides
            ),
        )
    if why.re_bello:
        king = Card.parse("Kd")
        table.add_row(
            t("tui.why.king_of_coins", language),
            *(named([king] if side.king_of_coins else []) for side in sides),
        )
    if why.napola:
        table.add_row(
            t("tui.why.coin_run", language),
            *(
                coin_run_text(side.coin_run, points, style, language)
                for side, points in zip(sides, why.breakdown["napola"], strict=True)
            ),
        )
    table.add_row(t("tui.why.sweeps", language), *(str(side.sweeps) for side in sides))
    if why.leftovers and why.last_capturer_side is not None:
        table.caption = t(
            "tui.why.leftovers",
            language,
            cards=", ".join(card_name(card, style, language) for card in why.leftovers),
            name=side_names[why.last_capturer_side],
        )
        table.caption_justify = "left"
    return table


def coin_run_text(run: int, points: int, style: DeckStyle, language: str) -> str:
    """A side's run of coins from the ace and the points it scored: "A-2-3-4: 4 points",
    "A-2", or "–" without the ace of coins."""
    if not run:
        return "–"
    name = coin_run_name(run, style, language)
    if not points:
        return name
    return t("tui.why.run", language, run=name, points=tn("count.points", points, language))


class ScorePadScreen(_Modal):
    """Every scoring category per side for each finished hand, and the running totals;
    then who won, the review of the person's costly moves of the last hand, and the counts
    behind its score.

    It opens at the top of the last hand's score, its first rows (cards, coins, the seven
    of coins) and the review under it in view on a 24-line terminal.
    """

    OPENS_AT_END = False

    BINDINGS = [  # noqa: RUF012
        Binding("s", "close", show=False),
        # The captured cards of the hand just ended, over the pad; closing them comes back here.
        Binding("c", "app.captures", show=False),
    ]

    def __init__(
        self,
        results: Sequence[HandResult],
        side_names: Sequence[str],
        rules: RuleSet,
        language: str,
        footer: str = "",
        review: Sequence[Text] = (),
        explanation: Table | None = None,
    ) -> None:
        tables = score_tables(results, side_names, rules, language)
        body: list[Static] = [Static(table, classes="hand-score") for table in tables]
        if not body:
            body.append(Static(t("tui.no_hands", language), markup=False))
        # Under the last hand's score, in view with it: who won, the review of the person's
        # moves; then the counts behind the score, a scroll away on a small terminal.
        if footer:
            body.append(Static(Text(footer, style="bold"), id="score-footer"))
        if review:
            body.append(Static(Text("\n").join(review), id="review"))
        if explanation is not None:
            body.append(Static(explanation, id="explanation"))
        super().__init__(t("tui.score_pad", language), body, t("tui.close", language))
        self.results = tuple(results)

    def on_mount(self) -> None:
        super().on_mount()
        self.call_after_refresh(self._show_last_hand)

    def _show_last_hand(self) -> None:
        tables = self.query(".hand-score")
        if len(tables) > 1:  # the first hand's table is at the top already
            self.query_one(VerticalScroll).scroll_to_widget(tables.last(), top=True, animate=False)


class CheatSheetScreen(_Modal):
    """The rules cheat sheet of the match's rule set."""

    BINDINGS = [Binding("r", "close", show=False)]  # noqa: RUF012
    OPENS_AT_END = False  # the rules read from the top: the card values come first

    def __init__(self, lines: Sequence[str], language: str) -> None:
        body = [Static(Text("\n".join(lines)), id="cheat-sheet")]
        super().__init__(t("tui.rules_title", language), body, t("tui.close", language))


class CapturesScreen(_Modal):
    """Each side's captured cards of one hand: its count and sweeps, then one line per suit,
    the cards in rank order, named and coloured as the table names them."""

    BINDINGS = [Binding("c", "close", show=False)]  # noqa: RUF012
    OPENS_AT_END = False  # the first side first

    def __init__(
        self,
        hand_number: int,
        sides: Sequence[tuple[str, Sequence[Card]]],
        style: DeckStyle,
        language: str,
    ) -> None:
        """``sides``: each side's heading ("You: 12 cards taken, 1 sweep") and its cards."""
        body: list[Static] = []
        for number, (heading, cards) in enumerate(sides):
            lines = [Text(heading, style="bold")]
            for suit in by_suit(cards):
                lines.append(Text("  ") + cards_text(suit, style, language, ", "))
            body.append(Static(Text("\n").join(lines), id=f"captures-{number}", classes="side"))
        title = t("tui.captures_title", language, n=hand_number + 1)
        super().__init__(title, body, t("tui.close", language))
