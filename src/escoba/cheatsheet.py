"""Rule sets in words: a one-screen cheat sheet, one-line summaries, option meanings.

Pure functions from a :class:`RuleSet` to text (no I/O, no markup), so the command line, the
terminal game and the web client can all show the same words. The cheat sheet, the summary and
the labels come in every language of :data:`escoba.messages.LANGUAGES` (keyword ``language``,
English by default); their texts are the ``cheat.*`` keys of :data:`escoba.messages.MESSAGES`.
The option meanings and preset origins stay English, like the option names they explain.

>>> from escoba import RULESETS
>>> summary(RULESETS["scopa"])
'match by value (single card first), primiera, kings redeal, last-card sweep void, to 11'
>>> any("Single-card priority" in line for line in cheat_sheet_lines(RULESETS["scopa"]))
True
>>> cheat_sheet_lines(RULESETS["scopa"], language="it")[0]
'Prendere le carte'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from .errors import EscobaError
from .messages import LANGUAGES, MESSAGES, text
from .rules import RuleSet
from .scoring import CATEGORIES

__all__ = [
    "CATEGORY_LABELS",
    "OPTION_MEANINGS",
    "PRESET_ORIGINS",
    "Section",
    "category_label",
    "cheat_sheet",
    "cheat_sheet_lines",
    "cheat_sheet_title",
    "format_value",
    "sevens_label",
    "summary",
]

PRESET_ORIGINS: Final[Mapping[str, str]] = {
    "escoba": "Spanish Escoba, the base",
    "escoba-fournier": "Escoba, Fournier rules",
    "escoba-primiera": "Escoba, old setenta",
    "escoba-classic": "Escoba, English books",
    "scopa": "Italian Scopa",
    "escova": "Brazilian Escova",
}
"""What each preset is, in a few words."""

OPTION_MEANINGS: Final[Mapping[str, str]] = {
    "capture": "sum15 (make 15) or match (equal value)",
    "forced_capture": "a card that can take must take",
    "last_play_sweep_counts": "a sweep by the hand's last card scores",
    "initial_table_sweeps": "first 4 table cards make 15 / 30: 1 / 2 sweeps",
    "kings_redeal": "3+ kings in the first 4 table cards: redeal",
    "sevens": "ranking (setenta), sevens, primiera or none",
    "primiera_needs_all_suits": "a side missing a suit can't win primiera",
    "all_coins_two": "all 10 coins score 2 instead of 1",
    "all_sevens_bonus": "extra points for all four sevens",
    "big_wins": "30+ cards vs < 10: 2; all coins 2; all sevens +1",
    "target_score": "points that end the match",
    "win_by": "lead needed once the target is reached",
}
"""One line per rule option, by option name."""

CATEGORY_LABELS: Final[Mapping[str, str]] = {
    category: MESSAGES[f"cheat.category.{category}"]["en"] for category in CATEGORIES
}
"""A short English label for each scoring category (see ``CATEGORIES``);
:func:`category_label` gives them in other languages."""


@dataclass(frozen=True, slots=True)
class Section:
    """A titled group of cheat-sheet lines."""

    title: str
    lines: tuple[str, ...]


def _checked(language: str) -> None:
    """Refuse a language the messages do not know, with the error :func:`text` raises.

    Only :func:`category_label` needs it: it may raise ``KeyError`` before calling
    :func:`text`, and an unknown language is named first.
    """
    if language not in LANGUAGES:
        raise EscobaError(f"unknown language {language!r}; choose one of {', '.join(LANGUAGES)}")


def format_value(value: object) -> str:
    """An option value as the command line writes it: ``true``/``false``, numbers, words."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def sevens_label(rules: RuleSet, language: str = "en") -> str:
    """The name of the rule set's sevens category: setenta, most sevens, primiera..."""
    return text(f"cheat.sevens.{rules.sevens}", language)


def category_label(category: str, rules: RuleSet, language: str = "en") -> str:
    """A category's label, naming the sevens category of these rules."""
    _checked(language)
    if category == "sevens" and rules.sevens != "none":
        return text("cheat.category.sevens_named", language, label=sevens_label(rules, language))
    if category not in CATEGORY_LABELS:
        raise KeyError(category)
    return text(f"cheat.category.{category}", language)


def _points(n: int, language: str) -> str:
    return text("cheat.point" if n == 1 else "cheat.points", language, n=n)


def _all_sevens_bonus(rules: RuleSet) -> int:
    # big_wins and all_sevens_bonus name the same extra point; together the larger counts.
    return max(rules.all_sevens_bonus, 1 if rules.big_wins else 0)


def summary(rules: RuleSet, language: str = "en") -> str:
    """The rule set in one short line.

    >>> from escoba import RULESETS
    >>> summary(RULESETS["escova"])
    'sum to 15, no sevens category, all coins score 2, to 31'
    >>> summary(RULESETS["escova"], language="es")
    'sumar 15, sin categoría de sietes, todos los oros valen 2, a 31'
    """

    def say(key: str, **params: object) -> str:
        return text(f"cheat.summary.{key}", language, **params)

    parts = [say("sum15") if rules.capture == "sum15" else say("match")]
    if not rules.forced_capture:
        parts.append(say("capture_optional"))
    label = sevens_label(rules, language)
    parts.append(say("needs_all_suits", label=label) if rules.primiera_needs_all_suits else label)
    if rules.all_coins_two and not rules.big_wins:
        parts.append(say("all_coins_two"))
    bonus = _all_sevens_bonus(rules)
    if rules.big_wins:
        parts.append(say("big_wins"))
    elif bonus:
        parts.append(say("all_sevens", bonus=bonus))
    if rules.kings_redeal:
        parts.append(say("kings_redeal"))
    if not rules.last_play_sweep_counts:
        parts.append(say("last_sweep_void"))
    if rules.capture == "sum15" and not rules.initial_table_sweeps:
        parts.append(say("no_initial_sweeps"))
    if rules.win_by > 1:
        parts.append(say("target_by", target=rules.target_score, win_by=rules.win_by))
    else:
        parts.append(say("target", target=rules.target_score))
    return ", ".join(parts)


def _taking(rules: RuleSet, language: str) -> tuple[str, ...]:
    keys = ["values"]
    if rules.capture == "sum15":
        keys.append("take_sum15")
    else:
        keys += ["take_match", "single_card_priority"]
    keys.append("forced_capture" if rules.forced_capture else "capture_optional")
    keys.append("drop")
    return tuple(text(f"cheat.{key}", language) for key in keys)


def _sweeps(rules: RuleSet, language: str) -> tuple[str, ...]:
    keys = (
        "sweep_sum15" if rules.capture == "sum15" else "sweep_match",
        "last_sweep_counts" if rules.last_play_sweep_counts else "last_sweep_void",
        "leftovers",
    )
    return tuple(text(f"cheat.{key}", language) for key in keys)


def _dealing(rules: RuleSet, language: str) -> tuple[str, ...]:
    keys = ["deal", "deal_more"]
    if rules.initial_table_sweeps:
        keys.append("initial_sweeps")
    elif rules.capture == "sum15":
        keys.append("no_initial_sweeps")
    if rules.kings_redeal:
        keys.append("kings_redeal")
    return tuple(text(f"cheat.{key}", language) for key in keys)


def _scoring(rules: RuleSet, language: str) -> tuple[str, ...]:
    def say(key: str, **params: object) -> str:
        return text(f"cheat.{key}", language, **params)

    lines = [
        say("most_cards_big" if rules.big_wins else "most_cards"),
        say("most_coins_two" if rules.all_coins_two or rules.big_wins else "most_coins"),
        say("seven_of_coins"),
    ]
    if rules.sevens == "ranking":
        lines.append(say("setenta", order=say("setenta_order")))
    elif rules.sevens == "sevens":
        lines.append(say("most_sevens"))
    elif rules.sevens == "primiera":
        key = "primiera_all_suits" if rules.primiera_needs_all_suits else "primiera"
        lines.append(say(key, values=say("primiera_values")))
    else:
        lines.append(say("no_sevens"))
    bonus = _all_sevens_bonus(rules)
    if bonus:
        lines.append(say("all_sevens_bonus", points=_points(bonus, language)))
    lines.append(say("each_sweep"))
    lines.append(say("tie"))
    return tuple(lines)


def _winning(rules: RuleSet, language: str) -> tuple[str, ...]:
    if rules.win_by == 1:
        return (text("cheat.win", language, target=rules.target_score),)
    return (text("cheat.win_by", language, target=rules.target_score, win_by=rules.win_by),)


def cheat_sheet(rules: RuleSet, language: str = "en") -> tuple[Section, ...]:
    """The rules of one rule set, in sections short enough for one screen.

    Every language gives the same sections with the same number of lines.
    """

    def title(key: str, **params: object) -> str:
        return text(f"cheat.section.{key}", language, **params)

    return (
        Section(title("taking"), _taking(rules, language)),
        Section(title("sweeps"), _sweeps(rules, language)),
        Section(title("dealing"), _dealing(rules, language)),
        Section(title("scoring"), _scoring(rules, language)),
        Section(title("winning", target=rules.target_score), _winning(rules, language)),
    )


def cheat_sheet_lines(rules: RuleSet, language: str = "en") -> tuple[str, ...]:
    """The cheat sheet as plain lines: each section's title, then its lines as bullets."""
    lines: list[str] = []
    for section in cheat_sheet(rules, language):
        lines.append(section.title)
        lines.extend(f"  - {line}" for line in section.lines)
    return tuple(lines)


def cheat_sheet_title(title: str, language: str = "en") -> str:
    """The heading over a cheat sheet: "Cheat sheet: scopa", "Spickzettel: scopa"..."""
    return text("cheat.title", language, title=title)
