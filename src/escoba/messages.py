"""Message keys and their texts in each language.

Code that explains something to a person (the coach, later the terminal and web games)
returns a :class:`Message`, a key with parameters; the text is made only when shown, in the
reader's language. A language without a text for a key falls back to English.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

from .errors import EscobaError

__all__ = ["LANGUAGES", "MESSAGES", "Message", "text"]

LANGUAGES: Final = ("en", "de", "es", "it")

MESSAGES: Final[Mapping[str, Mapping[str, str]]] = {
    "coach.best": {
        "en": "The best move here.",
        "de": "Der beste Zug hier.",
    },
    "coach.close_to_best": {
        "en": "As good as the best move, give or take {points} points.",
        "de": "So gut wie der beste Zug, bis auf {points} Punkte.",
    },
    "coach.costs_points": {
        "en": "Costs about {points} points against {best}.",
        "de": "Kostet etwa {points} Punkte gegenüber {best}.",
    },
    "coach.sweeps": {
        "en": "Sweeps the table: a point of its own.",
        "de": "Räumt den Tisch ab: ein eigener Punkt.",
    },
    "coach.takes_seven_of_coins": {
        "en": "Takes the 7 of coins, a point by itself.",
        "de": "Holt die Karo-7, allein schon einen Punkt.",
    },
    "coach.takes_a_seven": {
        "en": "Takes a seven, which counts for the sevens.",
        "de": "Holt eine Sieben, die für die Siebenen zählt.",
    },
    "coach.takes_sevens": {
        "en": "Takes {count} sevens, which count for the sevens.",
        "de": "Holt {count} Siebenen, die für die Siebenen zählen.",
    },
    "coach.takes_coins": {
        "en": "Takes {count} coins.",
        "de": "Holt {count} Karo.",
    },
    "coach.takes_cards": {
        "en": "Takes {count} cards.",
        "de": "Nimmt {count} Karten.",
    },
    "coach.leaves_sweep": {
        "en": "Leaves {total} on the table, which any {value} sweeps.",
        "de": "Lässt {total} auf dem Tisch liegen, das jede {value} abräumt.",
    },
    "coach.leaves_match_sweep": {
        "en": "Leaves a table that a single {value} sweeps.",
        "de": "Lässt einen Tisch liegen, den eine einzelne {value} abräumt.",
    },
    "coach.gives_seven_of_coins": {
        "en": "Leaves the 7 of coins where the next player can take it.",
        "de": "Lässt die Karo-7 liegen, wo der Nächste sie nehmen kann.",
    },
    "coach.high_card_on_empty_table": {
        "en": "A high card onto an empty table invites a sweep.",
        "de": "Eine hohe Karte auf den leeren Tisch lädt zur Escoba ein.",
    },
    "coach.drops": {
        "en": "Takes nothing: the card stays on the table.",
        "de": "Sticht nichts: die Karte bleibt auf dem Tisch liegen.",
    },
}
"""Texts by key, then by language."""


@dataclass(frozen=True, slots=True)
class Message:
    """A message key and its parameters; ``text(language)`` makes the sentence."""

    key: str
    params: Mapping[str, object] = field(default_factory=dict)

    def text(self, language: str = "en") -> str:
        return text(self.key, language, **self.params)


def text(key: str, language: str = "en", **params: object) -> str:
    """The text of a message in a language (English where that language has none)."""
    texts = MESSAGES.get(key)
    if texts is None:
        raise EscobaError(f"unknown message key {key!r}")
    if language not in LANGUAGES:
        raise EscobaError(f"unknown language {language!r}; choose one of {', '.join(LANGUAGES)}")
    shown = {name: _number(value, language) for name, value in params.items()}
    return texts.get(language, texts["en"]).format(**shown)


def _number(value: object, language: str) -> object:
    """Fractions with one decimal, written with a decimal comma where the language uses one."""
    if isinstance(value, float):
        written = f"{value:.1f}"
        return written if language == "en" else written.replace(".", ",")
    return value
