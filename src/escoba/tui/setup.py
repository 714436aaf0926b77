"""The setup screen of ``escoba play``: rule set and options, seats, levels, deck, language.

:class:`SetupApp` returns the chosen :class:`SetupChoice` when the person presses Play, or
None when they cancel. A combination the engine refuses (its ``RulesError``), a seating the
deck does not share out among included, is shown on the screen and never starts a match.
Picking a preset seats the table as it is usually played (Scopone: four in partnerships).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, VerticalScroll
from textual.content import Content
from textual.widgets import Button, Checkbox, Input, Select, Static

from ..ai import FORMER_LEVELS, LEVELS
from ..ai.ratings import level_rating
from ..cards import DECK_STYLES, DeckStyle
from ..catalogue import LANGUAGE_NAMES, message_key
from ..errors import EscobaError
from ..messages import deck_name, level_name
from ..rules import BOOL_OPTIONS, PRESET_SEATING, RULESETS, RuleSet
from .texts import UI_LANGUAGES, t

__all__ = ["BOOL_OPTIONS", "OptionBox", "SetupApp", "SetupChoice", "run_setup"]


_LABEL_KEYS: Final = {
    "preset": message_key("tui.setup.preset"),
    "target": message_key("tui.setup.target"),
    "win_by": message_key("tui.setup.win_by"),
    "hand_cards": message_key("tui.setup.hand_cards"),
    "table_cards": message_key("tui.setup.table_cards"),
    "players": message_key("tui.setup.players"),
    "deck": message_key("tui.setup.deck"),
    "language": message_key("tui.setup.language"),
}
"""The message key of each row's label, by the id of its label."""

_OPTION_KEYS: Final = {
    "forced_capture": message_key("tui.opt.forced_capture"),
    "last_play_sweep_counts": message_key("tui.opt.last_play_sweep_counts"),
    "initial_table_sweeps": message_key("tui.opt.initial_table_sweeps"),
    "kings_redeal": message_key("tui.opt.kings_redeal"),
    "primiera_needs_all_suits": message_key("tui.opt.primiera_needs_all_suits"),
    "all_coins_two": message_key("tui.opt.all_coins_two"),
    "big_wins": message_key("tui.opt.big_wins"),
    "ace_takes_all": message_key("tui.opt.ace_takes_all"),
    "re_bello": message_key("tui.opt.re_bello"),
    "napola": message_key("tui.opt.napola"),
}
"""The message key of each yes-or-no option's label (``escoba.rules.BOOL_OPTIONS``)."""


class OptionBox(Checkbox):
    """A check box that shows its state in text, "[x]" or "[ ]": read the same on a
    monochrome terminal, where Textual's own box tells on from off by colour only."""

    @property
    def _button(self) -> Content:
        return Content.assemble("[", "x" if self.value else " ", "]")


MAX_OPPONENTS: Final = 3
DEFAULT_LEVEL: Final = "medium"


@dataclass(frozen=True, slots=True)
class SetupChoice:
    """The settings of a new match, as chosen on the setup screen."""

    preset: str = "escoba"
    """The preset the rules started from (the rules may differ from it)."""
    rules: RuleSet = field(default_factory=RuleSet)
    players: int = 2
    partnerships: bool = False
    opponents: tuple[str, ...] = (DEFAULT_LEVEL,)
    """One level per computer seat (seats 1, 2, ...)."""
    deck: DeckStyle = "french"
    language: str = "en"


def _level_shown(level: str) -> str:
    """The level a saved setting names (a former name gives its level), or the default."""
    level = FORMER_LEVELS.get(level, level)
    return level if level in LEVELS else DEFAULT_LEVEL


def _opponents(levels: Sequence[str]) -> list[str]:
    """One level per seat 1..3: the given ones, repeated when only one was given."""
    given = list(levels) or [DEFAULT_LEVEL]
    if len(given) == 1:
        given = given * MAX_OPPONENTS
    return (given + [DEFAULT_LEVEL] * MAX_OPPONENTS)[:MAX_OPPONENTS]


class SetupApp(App[SetupChoice | None]):
    """Choose the settings of a new match; ``run()`` returns them, or None if cancelled."""

    TITLE = "escoba"
    CSS = """
    Screen { layout: vertical; padding: 0 1; }
    #title { text-style: bold; height: 1; }
    #body { height: 1fr; }
    .row { height: 1; margin-bottom: 0; }
    .label { width: 18; height: 1; color: $text-muted; }
    .row Select { width: 22; }
    .row Input { width: 8; }
    .gap { width: 2; }
    #options { grid-size: 2; grid-columns: 1fr 1fr; height: auto; margin: 1 0; }
    #options Checkbox { height: 1; }
    #partnerships { width: auto; }
    #table_cards { width: 8; }
    #error { color: $error; height: auto; min-height: 1; }
    #buttons { height: 1; }
    #buttons Button { margin-right: 2; }
    #keys { color: $text-muted; height: 1; }
    """
    BINDINGS = [  # noqa: RUF012 (Textual's declared class attribute)
        Binding("escape", "cancel", "cancel", show=False),
        Binding("q", "cancel", "cancel", show=False),
    ]

    def __init__(self, initial: SetupChoice | None = None) -> None:
        super().__init__()
        self.initial = initial or SetupChoice()
        self.language = self.initial.language if self.initial.language in UI_LANGUAGES else "en"
        self._preset = self.initial.preset if self.initial.preset in RULESETS else "escoba"
        self.error: str | None = None

    # -- layout

    def compose(self) -> ComposeResult:
        first = self.initial
        rules = first.rules
        levels = _opponents(first.opponents)
        yield Static(id="title")
        with VerticalScroll(id="body"):
            with Horizontal(classes="row"):
                yield Static(id="label-preset", classes="label")
                yield Select(
                    [(name, name) for name in RULESETS],
                    value=self._preset,
                    allow_blank=False,
                    compact=True,
                    id="preset",
                )
            with Horizontal(classes="row"):
                yield Static(id="label-target", classes="label")
                yield Input(
                    str(rules.target_score), type="integer", compact=True, id="target_score"
                )
                yield Static(classes="gap")
                yield Static(id="label-win_by", classes="label")
                yield Input(str(rules.win_by), type="integer", compact=True, id="win_by")
            with Horizontal(classes="row"):
                yield Static(id="label-hand_cards", classes="label")
                yield Input(str(rules.hand_cards), type="integer", compact=True, id="hand_cards")
                yield Static(classes="gap")
                yield Static(id="label-table_cards", classes="label")
                yield Select(
                    [(str(n), n) for n in (0, 4)],
                    value=rules.table_cards if rules.table_cards in (0, 4) else 4,
                    allow_blank=False,
                    compact=True,
                    id="table_cards",
                )
            with Grid(id="options"):
                for name in BOOL_OPTIONS:
                    yield OptionBox(value=bool(getattr(rules, name)), compact=True, id=name)
            with Horizontal(classes="row"):
                yield Static(id="label-players", classes="label")
                yield Select(
                    [(str(n), n) for n in (2, 3, 4)],
                    value=first.players if first.players in (2, 3, 4) else 2,
                    allow_blank=False,
                    compact=True,
                    id="players",
                )
                yield Static(classes="gap")
                yield OptionBox(
                    value=first.partnerships and first.players == 4,
                    compact=True,
                    id="partnerships",
                )
            for seat in range(1, MAX_OPPONENTS + 1):
                with Horizontal(classes="row", id=f"row-level-{seat}"):
                    yield Static(id=f"label-level-{seat}", classes="label")
                    yield Select(
                        [(level, level) for level in LEVELS],
                        value=_level_shown(levels[seat - 1]),
                        allow_blank=False,
                        compact=True,
                        id=f"level-{seat}",
                    )
            with Horizontal(classes="row"):
                yield Static(id="label-deck", classes="label")
                yield Select(
                    [(style, style) for style in DECK_STYLES],
                    value=first.deck if first.deck in DECK_STYLES else "french",
                    allow_blank=False,
                    compact=True,
                    id="deck",
                )
            with Horizontal(classes="row"):
                yield Static(id="label-language", classes="label")
                yield Select(
                    [(LANGUAGE_NAMES.get(lang, lang), lang) for lang in UI_LANGUAGES],
                    value=self.language,
                    allow_blank=False,
                    compact=True,
                    id="language",
                )
        yield Static(id="error")
        with Horizontal(id="buttons"):
            yield Button(id="play", variant="primary", compact=True)
            yield Button(id="cancel", compact=True)
        yield Static(id="keys")

    def on_mount(self) -> None:
        self._relabel()
        self._seats_changed()
        self.query_one("#play", Button).focus()

    def _relabel(self) -> None:
        lang = self.language
        self.query_one("#title", Static).update(t("tui.setup.title", lang))
        for name, key in _LABEL_KEYS.items():
            self.query_one(f"#label-{name}", Static).update(t(key, lang))
        for seat in range(1, MAX_OPPONENTS + 1):
            # Counted from 1 as the web lobby does: the person is seat 1.
            label = t("tui.seat", lang, seat=seat + 1)
            self.query_one(f"#label-level-{seat}", Static).update(label)
        for name in BOOL_OPTIONS:
            self.query_one(f"#{name}", Checkbox).label = t(_OPTION_KEYS[name], lang)
        self.query_one("#partnerships", Checkbox).label = t("tui.setup.partnerships", lang)
        self.query_one("#play", Button).label = t("tui.setup.play", lang)
        self.query_one("#cancel", Button).label = t("tui.setup.cancel", lang)
        self.query_one("#keys", Static).update(t("tui.setup.keys", lang))
        # The choices' names follow the language; their values (the engine's names) stay.
        self._name_levels()
        self._rename("deck", [(deck_name(v, lang), v) for v in DECK_STYLES])

    def _name_levels(self) -> None:
        """Each level's name, with its rating in the chosen game where it is rated."""
        lang = self.language
        names = []
        for level in LEVELS:
            rating = level_rating(level, RULESETS[self._preset])
            name = level_name(level, lang)
            if rating is not None:
                name = t("level.rated", lang, level=name, rating=rating.about)
            names.append((name, level))
        for seat in range(1, MAX_OPPONENTS + 1):
            self._rename(f"level-{seat}", names)

    def _rename(self, name: str, options: list[tuple[str, str]]) -> None:
        select: Select[str] = self.query_one(f"#{name}", Select)
        value = select.value
        select.set_options(options)
        select.value = value

    def _seats_changed(self) -> None:
        players = self._players()
        partnerships = self.query_one("#partnerships", Checkbox)
        partnerships.disabled = players != 4
        if players != 4:
            partnerships.value = False
        for seat in range(1, MAX_OPPONENTS + 1):
            self.query_one(f"#row-level-{seat}").display = seat < players

    # -- reading the controls

    def _select(self, name: str) -> object:
        return self.query_one(f"#{name}", Select).value

    def _players(self) -> int:
        value = self._select("players")
        return value if isinstance(value, int) else 2

    def _number(self, name: str) -> int:
        raw = self.query_one(f"#{name}", Input).value.strip()
        try:
            return int(raw)
        except ValueError:
            label = t(_LABEL_KEYS["target" if name == "target_score" else name], self.language)
            raise EscobaError(t("tui.setup.whole_number", self.language, name=label)) from None

    def rules(self) -> RuleSet:
        """The rule set the controls describe; ``RulesError`` (an ``EscobaError``) if none."""
        changes: dict[str, object] = {
            name: self.query_one(f"#{name}", Checkbox).value for name in BOOL_OPTIONS
        }
        for name in ("target_score", "win_by", "hand_cards"):
            changes[name] = self._number(name)
        table_cards = self._select("table_cards")
        changes["table_cards"] = table_cards if isinstance(table_cards, int) else 4
        return RULESETS[self._preset].replace(**changes)

    def choice(self) -> SetupChoice:
        """The settings the controls describe; an ``EscobaError`` if the engine refuses them."""
        players = self._players()
        levels = tuple(str(self._select(f"level-{seat}")) for seat in range(1, players))
        deck = str(self._select("deck"))
        rules = self.rules()
        rules.deals_per_hand(players)  # the deck must share out among the seats
        return SetupChoice(
            preset=self._preset,
            rules=rules,
            players=players,
            partnerships=players == 4 and self.query_one("#partnerships", Checkbox).value,
            opponents=levels,
            deck=deck if deck in DECK_STYLES else "french",
            language=self.language,
        )

    def _show_error(self, message: str | None) -> None:
        self.error = message
        self.query_one("#error", Static).update(message or "")

    def _check(self) -> None:
        try:
            self.choice()
        except EscobaError as error:
            self._show_error(str(error))
        else:
            self._show_error(None)

    # -- events

    @on(Select.Changed, "#preset")
    def _preset_changed(self, event: Select.Changed) -> None:
        name = str(event.value)
        if name not in RULESETS or name == self._preset:
            return
        self._preset = name
        rules = RULESETS[name]
        self._name_levels()  # a level's rating is the chosen game's
        for option in BOOL_OPTIONS:
            self.query_one(f"#{option}", Checkbox).value = bool(getattr(rules, option))
        self.query_one("#target_score", Input).value = str(rules.target_score)
        self.query_one("#win_by", Input).value = str(rules.win_by)
        self.query_one("#hand_cards", Input).value = str(rules.hand_cards)
        self.query_one("#table_cards", Select).value = rules.table_cards
        if name in PRESET_SEATING:  # seated as it is usually played
            players, partnerships = PRESET_SEATING[name]
            self.query_one("#players", Select).value = players
            self.query_one("#partnerships", Checkbox).value = partnerships
        self.call_after_refresh(self._check)

    @on(Select.Changed, "#players")
    def _players_changed(self) -> None:
        self._seats_changed()
        self._check()

    @on(Select.Changed, "#language")
    def _language_changed(self, event: Select.Changed) -> None:
        value = str(event.value)
        if value in UI_LANGUAGES and value != self.language:
            self.language = value
            self._relabel()
            self._check()

    @on(Checkbox.Changed)
    @on(Input.Changed)
    @on(Select.Changed, "#table_cards")
    def _option_changed(self) -> None:
        self._check()

    @on(Button.Pressed, "#play")
    def _play_pressed(self) -> None:
        self.action_play()

    @on(Button.Pressed, "#cancel")
    def _cancel_pressed(self) -> None:
        self.action_cancel()

    def action_play(self) -> None:
        """Start the match with the chosen settings, unless the engine refuses them."""
        try:
            chosen = self.choice()
        except EscobaError as error:
            self._show_error(str(error))
            return
        self.exit(chosen)

    def action_cancel(self) -> None:
        self.exit(None)


def run_setup(initial: SetupChoice | None = None) -> SetupChoice | None:
    """Show the setup screen full screen; the chosen settings, or None if cancelled."""
    return SetupApp(initial).run()
