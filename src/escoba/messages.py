"""Messages a person reads: a key and its parameters, made into text in the reader's language.

Code that explains something to a person (the coach, the terminal and web games) returns a
:class:`Message`, a key with parameters; the text is made only when shown, in the reader's
language. The texts live in the gettext catalogue of :mod:`escoba.catalogue` (domain
``escoba``), one ``.po`` file per language; this module is the thin layer the rest of the
package speaks to.

>>> counted("coach.takes_cards", 3).text("it")
'Prende 3 carte.'
>>> level_name("hard", "fr"), deck_name("spanish", "pt-BR")
('difficile', 'espanhol')
>>> move_name(Move.parse("7h:7d+Ad"), "spanish", "es")
'7 de copas, captura: as de oros + 7 de oros'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

from .cards import DeckStyle, card_name
from .catalogue import LANGUAGES, is_plural, message_key, plural
from .catalogue import text as _text
from .errors import EscobaError
from .moves import Move

__all__ = [
    "DECK_KEYS",
    "LANGUAGES",
    "LEVEL_KEYS",
    "Message",
    "counted",
    "deck_name",
    "level_name",
    "move_name",
    "text",
]

LEVEL_KEYS: Final[Mapping[str, str]] = {
    "beginner": message_key("level.beginner"),
    "easy": message_key("level.easy"),
    "medium": message_key("level.medium"),
    "hard": message_key("level.hard"),
    # The former levels merged into hard (escoba.ai.FORMER_LEVELS), for matches that name them
    "expert": message_key("level.hard"),
    "master": message_key("level.hard"),
}
"""The message key of each computer level's name (``escoba.ai.LEVELS``)."""

DECK_KEYS: Final[Mapping[str, str]] = {
    "french": message_key("deck.french"),
    "spanish": message_key("deck.spanish"),
    "italian": message_key("deck.italian"),
}
"""The message key of each deck style's name (``escoba.cards.DECK_STYLES``)."""


@dataclass(frozen=True, slots=True)
class Message:
    """A message key and its parameters; ``text(language)`` makes the sentence."""

    key: str
    params: Mapping[str, object] = field(default_factory=dict)

    def text(self, language: str = "en") -> str:
        return text(self.key, language, **self.params)


def counted(key: str, count: int, /, **params: object) -> Message:
    """A message with plural forms about ``count`` things ("Takes 1 card", "Takes 3 cards")."""
    return Message(key, {"count": count, **params})


def text(key: str, language: str = "en", **params: object) -> str:
    """The text of a message in a language (English where that language has none).

    A message with plural forms takes its form from the parameter ``count``. An unknown key or
    language raises :class:`~escoba.errors.EscobaError`.
    """
    if not is_plural(key):
        return _text(key, language, **params)
    count = params.pop("count", None)
    if isinstance(count, bool) or not isinstance(count, int):
        raise EscobaError(f"message {key!r} has plural forms: give its count, not {count!r}")
    return plural(key, count, language, **params)


def level_name(level: str, language: str = "en") -> str:
    """A computer level's name in a language; a level of no known name is shown as it is."""
    key = LEVEL_KEYS.get(level)
    return level if key is None else _text(key, language)


def deck_name(style: str, language: str = "en") -> str:
    """A deck style's name in a language ("French", "spagnole"...)."""
    key = DECK_KEYS.get(style)
    if key is None:
        raise EscobaError(f"unknown deck style {style!r}; choose one of {', '.join(DECK_KEYS)}")
    return _text(key, language)


def move_name(move: Move, deck: DeckStyle = "french", language: str = "en") -> str:
    """A move in words, its cards named in a deck style and language: the card played and
    the cards it takes ("7♥ taking 7♦"), or the card dropped ("Q♦, taking nothing")."""
    card = card_name(move.card, deck, language)
    if not move.captures:
        return text("play.drop", language, card=card)
    taken = " + ".join(card_name(c, deck, language) for c in sorted(move.captures))
    return text("play.take", language, card=card, cards=taken)
