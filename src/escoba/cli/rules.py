"""``escoba rules [PRESET]``: the presets, or one rule set's options and its cheat sheet."""

from __future__ import annotations

from typing import Annotated

import typer
from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..cards import DeckStyle
from ..catalogue import text
from ..cheatsheet import (
    cheat_sheet,
    cheat_sheet_title,
    format_value,
    option_meaning,
    preset_origin,
    summary,
)
from ..rules import RULESETS, RuleSet
from .options import (
    BASE_PRESET,
    Deck,
    Language,
    Settings,
    parse_preset,
    rules_from,
    rules_title,
)
from .root import app

__all__ = ["rules_command"]


@app.command("rules")
def rules_command(
    preset: Annotated[
        str | None,
        typer.Argument(
            metavar="PRESET",
            parser=parse_preset,
            help=f"A preset: {', '.join(RULESETS)}. Leave it out to list them.",
            show_default=False,
        ),
    ] = None,
    settings: Settings = None,
    language: Language = None,
    deck: Deck = None,
) -> None:
    """Show a rule set: every option, and a one-screen cheat sheet of how it plays, its
    card values and examples named as the cards of ``--deck`` show them."""
    lang = language or "en"
    console = Console()
    if preset is None and not settings:
        console.print(_presets_table(lang))
        console.print(text("rules.show_one", lang), highlight=False)
        return
    name = preset or BASE_PRESET
    rules = rules_from(name, settings)
    title = rules_title(name, rules)
    console.print(_options_table(title, rules, lang))
    _print_cheat_sheet(console, title, rules, lang, deck or "french")


def _presets_table(language: str) -> Table:
    table = Table(title=text("rules.presets_title", language), title_justify="left")
    table.add_column(text("rules.column.preset", language), style="bold", no_wrap=True)
    table.add_column(text("rules.column.game", language))
    table.add_column(text("rules.column.in_short", language))
    for name, rules in RULESETS.items():
        table.add_row(name, preset_origin(name, language), summary(rules, language))
    return table


def _options_table(title: str, rules: RuleSet, language: str) -> Table:
    base = RULESETS[BASE_PRESET].to_dict()
    table = Table(
        title=text("rules.options_title", language, title=title),
        title_justify="left",
        caption=text("rules.differs", language, preset=BASE_PRESET),
        caption_justify="left",
        box=box.SIMPLE_HEAD,
    )
    table.add_column(text("rules.column.option", language), no_wrap=True)
    table.add_column(text("rules.column.value", language), no_wrap=True)
    table.add_column(BASE_PRESET, no_wrap=True, style="dim")
    table.add_column(text("rules.column.meaning", language))
    for name, value in rules.to_dict().items():
        meaning = option_meaning(name, language)
        if value == base[name]:
            table.add_row(f"  {name}", format_value(value), "", meaning)
        else:
            table.add_row(
                Text(f"* {name}", style="bold"),
                Text(format_value(value), style="bold yellow"),
                format_value(base[name]),
                meaning,
            )
    return table


def _print_cheat_sheet(
    console: Console, title: str, rules: RuleSet, language: str, deck: DeckStyle
) -> None:
    console.print()
    console.print(Text(cheat_sheet_title(title, language), style="bold underline"))
    for section in cheat_sheet(rules, language, deck):
        console.print(Text(section.title, style="bold"))
        bullets = Table.grid(padding=(0, 1))
        bullets.add_column(no_wrap=True)
        bullets.add_column()
        for line in section.lines:
            bullets.add_row("  •", Text(line))
        console.print(bullets)
