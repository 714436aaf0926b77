"""Rule sets in words: a one-screen cheat sheet, one-line summaries, option meanings.

Pure functions from a :class:`RuleSet` to English text (no I/O, no markup), so the command
line, the terminal game and the web client can all show the same words.

>>> from escoba import RULESETS
>>> summary(RULESETS["scopa"])
'match by value (single card first), primiera, kings redeal, last-card sweep void, to 11'
>>> any("Single-card priority" in line for line in cheat_sheet_lines(RULESETS["scopa"]))
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from .rules import RuleSet

__all__ = [
    "CATEGORY_LABELS",
    "OPTION_MEANINGS",
    "PRESET_ORIGINS",
    "Section",
    "category_label",
    "cheat_sheet",
    "cheat_sheet_lines",
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
    "cards": "most cards",
    "coins": "most coins",
    "seven_of_coins": "seven of coins",
    "sevens": "sevens category",
    "all_sevens": "all four sevens",
    "sweeps": "sweeps",
}
"""A short label for each scoring category (see ``CATEGORIES``)."""

_SEVENS_LABELS: Final = {
    "ranking": "setenta",
    "sevens": "most sevens",
    "primiera": "primiera",
    "none": "no sevens category",
}
_PRIMIERA_VALUES: Final = "7=21 6=18 A=16 5=15 4=14 3=13 2=12 face=10"
_SETENTA_ORDER: Final = "7 > 6 > A > 5 > 4 > 3 > 2 > faces"


@dataclass(frozen=True, slots=True)
class Section:
    """A titled group of cheat-sheet lines."""

    title: str
    lines: tuple[str, ...]


def format_value(value: object) -> str:
    """An option value as the command line writes it: ``true``/``false``, numbers, words."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def sevens_label(rules: RuleSet) -> str:
    """The name of the rule set's sevens category: setenta, most sevens, primiera..."""
    return _SEVENS_LABELS[rules.sevens]


def category_label(category: str, rules: RuleSet) -> str:
    """A category's label, naming the sevens category of these rules."""
    if category == "sevens" and rules.sevens != "none":
        return f"sevens category ({sevens_label(rules)})"
    return CATEGORY_LABELS[category]


def _points(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


def _all_sevens_bonus(rules: RuleSet) -> int:
    # big_wins and all_sevens_bonus name the same extra point; together the larger counts.
    return max(rules.all_sevens_bonus, 1 if rules.big_wins else 0)


def summary(rules: RuleSet) -> str:
    """The rule set in one short line.

    >>> from escoba import RULESETS
    >>> summary(RULESETS["escova"])
    'sum to 15, no sevens category, all coins score 2, to 31'
    """
    parts = ["sum to 15" if rules.capture == "sum15" else "match by value (single card first)"]
    if not rules.forced_capture:
        parts.append("capture optional")
    parts.append(sevens_label(rules))
    if rules.primiera_needs_all_suits:
        parts[-1] += " (needs all suits)"
    if rules.all_coins_two and not rules.big_wins:
        parts.append("all coins score 2")
    bonus = _all_sevens_bonus(rules)
    if rules.big_wins:
        parts.append("big wins")
    elif bonus:
        parts.append(f"all sevens +{bonus}")
    if rules.kings_redeal:
        parts.append("kings redeal")
    if not rules.last_play_sweep_counts:
        parts.append("last-card sweep void")
    if rules.capture == "sum15" and not rules.initial_table_sweeps:
        parts.append("no initial-table sweeps")
    target = f"to {rules.target_score}"
    if rules.win_by > 1:
        target += f" by {rules.win_by}"
    parts.append(target)
    return ", ".join(parts)


def _taking(rules: RuleSet) -> tuple[str, ...]:
    lines = ["Values: A=1, 2 to 7 as printed, J=8, Q=9, K=10."]
    if rules.capture == "sum15":
        lines.append(
            "Play one card; it takes table cards whose values plus its own make exactly 15."
        )
    else:
        lines.append(
            "Play one card; it takes one table card of equal value, or two or more table "
            "cards adding up to its value."
        )
        lines.append(
            "Single-card priority: if a table card has the played card's value, the card must "
            "take exactly one such card (your choice which), never a sum."
        )
    if rules.forced_capture:
        lines.append(
            "Forced capture: play any card you like, but if it can take, it must "
            "(you choose among the sets it can take)."
        )
    else:
        lines.append("Capture is optional: a card that could take may also be dropped.")
    lines.append("A card that takes nothing is dropped face up onto the table.")
    return tuple(lines)


def _sweeps(rules: RuleSet) -> tuple[str, ...]:
    name = "escoba" if rules.capture == "sum15" else "scopa"
    lines = [f"Emptying the table with a capture is a sweep ({name}): 1 point each."]
    if rules.last_play_sweep_counts:
        lines.append("A sweep by the very last card of the hand counts too.")
    else:
        lines.append("Exception: a sweep by the very last card of the hand does not count.")
    lines.append(
        "At the end of the hand the last side to capture takes the cards left (never a sweep)."
    )
    return tuple(lines)


def _dealing(rules: RuleSet) -> tuple[str, ...]:
    lines = [
        "3 cards to each seat, 4 face up to the table; the seat after the dealer plays first.",
        "When the hands are empty, 3 more each (2 players: 6 deals, 3 players: 4, 4 players: 3).",
    ]
    if rules.initial_table_sweeps:
        lines.append(
            "Initial table: if the 4 table cards make 15 the dealer takes them for 1 sweep; "
            "30, 2 sweeps."
        )
    elif rules.capture == "sum15":
        lines.append("No initial-table sweeps: the first 4 table cards stay, whatever they make.")
    if rules.kings_redeal:
        lines.append("Kings redeal: 3 or more kings among the 4 table cards, deal the hand again.")
    return tuple(lines)


def _scoring(rules: RuleSet) -> tuple[str, ...]:
    cards = "Most cards: 1"
    if rules.big_wins:
        cards += " (2 with 30 or more while every other side has fewer than 10)"
    coins = "Most coins: 1"
    if rules.all_coins_two or rules.big_wins:
        coins += " (2 with all 10 coins)"
    lines = [cards + ".", coins + ".", "Seven of coins: 1."]
    if rules.sevens == "ranking":
        lines.append(
            f"Setenta: 1. Each side's best card of every suit, ranked {_SETENTA_ORDER}; "
            "compare them best first, card by card (a missing suit is worst)."
        )
    elif rules.sevens == "sevens":
        lines.append("Most sevens: 1.")
    elif rules.sevens == "primiera":
        line = f"Primiera: 1. Highest sum of each suit's best card by {_PRIMIERA_VALUES}"
        if rules.primiera_needs_all_suits:
            line += "; a side missing a suit cannot win it."
        else:
            line += " (a missing suit adds 0)."
        lines.append(line)
    else:
        lines.append("No sevens category.")
    bonus = _all_sevens_bonus(rules)
    if bonus:
        lines.append(f"All four sevens: {_points(bonus)} more.")
    lines.append("Each sweep: 1.")
    lines.append("A tie at the top of a category gives nobody the point.")
    return tuple(lines)


def _winning(rules: RuleSet) -> tuple[str, ...]:
    if rules.win_by == 1:
        return (
            f"After each hand, a side with {rules.target_score} or more points that leads every "
            "other side wins; with a tie at the top, play another hand.",
        )
    return (
        f"After each hand, a side with {rules.target_score} or more points that leads every "
        f"other side by at least {rules.win_by} wins; otherwise play another hand.",
    )


def cheat_sheet(rules: RuleSet) -> tuple[Section, ...]:
    """The rules of one rule set, in sections short enough for one screen."""
    return (
        Section("Taking cards", _taking(rules)),
        Section("Sweeps", _sweeps(rules)),
        Section("Dealing", _dealing(rules)),
        Section("Scoring each hand", _scoring(rules)),
        Section(f"Winning: first to {rules.target_score}", _winning(rules)),
    )


def cheat_sheet_lines(rules: RuleSet) -> tuple[str, ...]:
    """The cheat sheet as plain lines: each section's title, then its lines as bullets."""
    lines: list[str] = []
    for section in cheat_sheet(rules):
        lines.append(section.title)
        lines.extend(f"  - {line}" for line in section.lines)
    return tuple(lines)
