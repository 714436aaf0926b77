"""The options several commands share, as ``Annotated`` types, and what their values mean.

A value with a fixed set of choices (a preset, a deck, a language, a computer level) is
checked as it is parsed, trimmed and in any case, so a bad one is refused before the command
runs, by an error naming it and every choice.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Annotated

import typer

from ..ai import FORMER_LEVELS, LEVELS
from ..cards import DECK_STYLES, DeckStyle
from ..cheatsheet import format_value
from ..messages import LANGUAGES
from ..rules import RULESETS, RuleSet, preset_name
from .errors import fail

__all__ = [
    "BASE_PRESET",
    "Deck",
    "Language",
    "Partnerships",
    "Plain",
    "Players",
    "RandomSeed",
    "RulesPreset",
    "Seed",
    "Settings",
    "check_table",
    "choice",
    "parse_deck",
    "parse_language",
    "parse_level",
    "parse_preset",
    "parse_settings",
    "rules_from",
    "rules_title",
]

BASE_PRESET = "escoba"


def choice(what: str, choices: Iterable[str]) -> Callable[[str], str]:
    """A parser of one of ``choices``: any case, spaces around ignored, the choice's own
    spelling returned (``pt-br`` gives ``pt-BR``)."""
    spelled = {name.lower(): name for name in choices}

    def parse(text: str) -> str:
        chosen = spelled.get(text.strip().lower())
        if chosen is None:
            raise typer.BadParameter(
                f"unknown {what} {text!r}; choose one of {', '.join(spelled.values())}"
            )
        return chosen

    return parse


parse_preset = choice("preset", RULESETS)
_parse_level_name = choice("level", [*LEVELS, *FORMER_LEVELS])


def parse_level(text: str) -> str:
    """A computer level, any case; a former name (``master``) gives the level it became."""
    chosen = _parse_level_name(text)
    return FORMER_LEVELS.get(chosen, chosen)


parse_language = choice("language", LANGUAGES)  # the catalogue's languages, whatever they are


def parse_deck(text: str) -> DeckStyle:
    """A deck style as the game's own ``DeckStyle``."""
    chosen = text.strip().lower()
    for style in DECK_STYLES:
        if style == chosen:
            return style
    raise typer.BadParameter(f"unknown deck {text!r}; choose one of {', '.join(DECK_STYLES)}")


RulesPreset = Annotated[
    str,
    typer.Option(
        "--rules",
        "-r",
        metavar="PRESET",
        parser=parse_preset,
        help=f"One of {', '.join(RULESETS)}.",
    ),
]
Players = Annotated[int, typer.Option("--players", "-p", help="Seats at the table: 2, 3 or 4.")]
Partnerships = Annotated[
    bool, typer.Option("--partnerships", help="With 4 players: seats 0+2 against 1+3.")
]
Seed = Annotated[
    int,
    typer.Option("--seed", help="Seed of the random choices: the same seed, the same result."),
]
RandomSeed = Annotated[
    int | None,
    typer.Option("--seed", help="Seed of the deals (default: a random one).", show_default=False),
]
Settings = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        "-s",
        metavar="OPTION=VALUE",
        help="Change a rule option, e.g. --set target_score=15 --set big_wins=true "
        "(repeatable; true/false, whole numbers and words).",
        show_default=False,
    ),
]
FrenchDeck = Annotated[
    DeckStyle | None,
    typer.Option(
        "--deck",
        metavar="STYLE",
        parser=parse_deck,
        help=f"Card names: {', '.join(DECK_STYLES)} (default: french).",
        show_default=False,
    ),
]
"""The deck option of the commands with no saved deck to fall back on (learn, puzzles)."""
Deck = Annotated[
    DeckStyle | None,
    typer.Option(
        "--deck",
        metavar="STYLE",
        parser=parse_deck,
        help=f"Card names: {', '.join(DECK_STYLES)} (default: french, or the saved match's "
        "when there is one).",
        show_default=False,
    ),
]
Language = Annotated[
    str | None,
    typer.Option(
        "--language",
        metavar="LANG",
        parser=parse_language,
        help=f"Language of the texts: {', '.join(LANGUAGES)} (default: en, or the saved match's "
        "when there is one).",
        show_default=False,
    ),
]
Plain = Annotated[
    bool,
    typer.Option("--plain", help="Plain lines, not the full screen: for screen readers and pipes."),
]


def _parse_value(text: str) -> bool | int | str:
    lowered = text.lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    try:
        return int(text)
    except ValueError:
        return text


def parse_settings(settings: Sequence[str]) -> dict[str, bool | int | str]:
    """``["target_score=15", "big_wins=true"]`` -> ``{"target_score": 15, "big_wins": True}``.

    >>> parse_settings(["target_score=15", "big-wins=yes", "sevens=primiera"])
    {'target_score': 15, 'big_wins': True, 'sevens': 'primiera'}
    """
    changes: dict[str, bool | int | str] = {}
    for item in settings:
        name, equals, text = item.partition("=")
        name = name.strip().replace("-", "_")
        if not equals or not name:
            raise ValueError(f"--set: expected OPTION=VALUE (e.g. target_score=15), got {item!r}")
        changes[name] = _parse_value(text.strip())
    return changes


def rules_from(name: str, settings: Sequence[str] | None) -> RuleSet:
    """The rules of the preset ``name`` (a known one) changed by ``--set`` options."""
    try:
        return RULESETS[name].replace(**parse_settings(settings or ()))
    except ValueError as error:  # RulesError, or a malformed --set
        fail(str(error))


def rules_title(name: str, rules: RuleSet) -> str:
    """``scopa``, or ``scopa with target_score=16`` (and the preset that is, if one is)."""
    changed = rules.differences(RULESETS[name])
    if not changed:
        return name
    title = f"{name} with " + ", ".join(f"{k}={format_value(v)}" for k, v in changed.items())
    same = preset_name(rules)
    if same is not None:
        title += f" (the {same} preset)"
    return title


def check_table(players: int, partnerships: bool) -> None:
    """Fail on a table the game cannot seat: 2 to 4 players, partnerships only with 4."""
    if players not in (2, 3, 4):
        fail(f"--players: must be 2, 3 or 4, got {players}")
    if partnerships and players != 4:
        fail(f"--partnerships: needs --players 4, got --players {players}")
