"""Cards: the 40-card deck, its canonical text and its names in each deck style.

A card is one of 40 interned values. Its canonical text is the rank letter then the suit
letter (``7d`` is the seven of coins); the parser also takes suit symbols (``7♦``).
Internally every card has an index 0..39 (suit-major, in canonical order) and a bit
``1 << index``, so sets of cards are plain ints for the engine's hot paths.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import Enum
from typing import Final, Literal

from .errors import InvalidCardError

__all__ = [
    "DECK",
    "DECK_STYLES",
    "Card",
    "DeckStyle",
    "Rank",
    "Suit",
    "card_name",
    "card_set",
    "cards_of_mask",
    "mask_of",
    "parse_cards",
]


class Suit(Enum):
    """The four suits, named by their Spanish/Italian meaning; the value is the suit letter."""

    COINS = "d"
    CUPS = "h"
    SWORDS = "s"
    CLUBS = "c"

    @property
    def symbol(self) -> str:
        """The French suit symbol (♦ ♥ ♠ ♣)."""
        return _SUIT_SYMBOLS[self]


class Rank(Enum):
    """The ten ranks; the value is the rank letter."""

    ACE = "A"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"

    @property
    def value_points(self) -> int:
        """The capture value: A=1, 2..7 as printed, J=8, Q=9, K=10."""
        return _RANK_ORDER.index(self) + 1


_SUIT_ORDER: Final = (Suit.COINS, Suit.CUPS, Suit.SWORDS, Suit.CLUBS)
_RANK_ORDER: Final = tuple(Rank)
_SUIT_SYMBOLS: Final = {Suit.COINS: "♦", Suit.CUPS: "♥", Suit.SWORDS: "♠", Suit.CLUBS: "♣"}
_SUIT_BY_TEXT: Final = {s.value: s for s in Suit} | {v: s for s, v in _SUIT_SYMBOLS.items()}
_RANK_BY_TEXT: Final = {r.value: r for r in Rank}


class Card:
    """One of the 40 cards. Immutable and interned: ``Card(rank, suit)`` returns the one card.

    >>> c = Card.parse("7♦")
    >>> str(c), c.value, c.suit, c.rank
    ('7d', 7, <Suit.COINS: 'd'>, <Rank.SEVEN: '7'>)
    >>> c is Card(Rank.SEVEN, Suit.COINS)
    True
    """

    __slots__ = ("_text", "bit", "index", "rank", "suit", "value")

    rank: Rank
    suit: Suit
    value: int
    index: int
    bit: int
    _text: str

    def __new__(cls, rank: Rank, suit: Suit) -> Card:
        if not isinstance(rank, Rank) or not isinstance(suit, Suit):
            raise InvalidCardError(f"a card needs a Rank and a Suit, got {rank!r} and {suit!r}")
        return _CARDS[_SUIT_ORDER.index(suit) * 10 + _RANK_ORDER.index(rank)]

    @classmethod
    def _make(cls, rank: Rank, suit: Suit) -> Card:
        card = object.__new__(cls)
        index = _SUIT_ORDER.index(suit) * 10 + _RANK_ORDER.index(rank)
        for name, value in (
            ("rank", rank),
            ("suit", suit),
            ("value", rank.value_points),
            ("index", index),
            ("bit", 1 << index),
            ("_text", rank.value + suit.value),
        ):
            object.__setattr__(card, name, value)
        return card

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``"7d"`` or ``"7♦"``; anything else raises :class:`InvalidCardError`."""
        if not isinstance(text, str):
            raise InvalidCardError(f"a card's text must be a string, got {text!r}")
        card = _BY_TEXT.get(text.strip())
        if card is None:
            raise InvalidCardError(
                f"{text!r} is not a card: write the rank (A 2 3 4 5 6 7 J Q K) "
                "then the suit (d h s c or ♦ ♥ ♠ ♣), for example 7d"
            )
        return card

    @property
    def symbol(self) -> str:
        """The text with the French suit symbol, ``7♦``."""
        return self.rank.value + self.suit.symbol

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Card.parse, (self._text,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card({self._text!r})"

    def __hash__(self) -> int:
        return self.index

    def __lt__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index < other.index


_CARDS: Final[tuple[Card, ...]] = tuple(Card._make(r, s) for s in _SUIT_ORDER for r in _RANK_ORDER)
_BY_TEXT: Final[dict[str, Card]] = {
    r_text + s_text: _CARDS[_SUIT_ORDER.index(s) * 10 + _RANK_ORDER.index(r)]
    for r_text, r in _RANK_BY_TEXT.items()
    for s_text, s in _SUIT_BY_TEXT.items()
}

DECK: Final[tuple[Card, ...]] = _CARDS
"""The 40 cards in canonical order: coins, cups, swords, clubs; A to K within a suit."""


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse cards separated by spaces or commas: ``parse_cards("As 3h 4c 7d")``.

    >>> parse_cards("As, 3♥ 4c")
    (Card('As'), Card('3h'), Card('4c'))
    """
    if not isinstance(text, str):
        raise InvalidCardError(f"cards must be given as a string, got {text!r}")
    cards: list[Card] = []
    for position, word in enumerate(text.replace(",", " ").split(), start=1):
        try:
            cards.append(Card.parse(word))
        except InvalidCardError as error:
            raise InvalidCardError(f"card {position} of {text!r}: {error}") from None
    return tuple(cards)


def mask_of(cards: Iterable[Card]) -> int:
    """The bit set of some cards (each card once)."""
    mask = 0
    for card in cards:
        mask |= card.bit
    return mask


def cards_of_mask(mask: int) -> Iterator[Card]:
    """The cards of a bit set, in canonical order."""
    while mask:
        low = mask & -mask
        yield _CARDS[low.bit_length() - 1]
        mask ^= low


# The cards of every 10-bit suit chunk, so that a whole pile converts in four lookups.
_CHUNK_CARDS: Final[tuple[tuple[tuple[Card, ...], ...], ...]] = tuple(
    tuple(tuple(_CARDS[10 * s + r] for r in range(10) if chunk >> r & 1) for chunk in range(1024))
    for s in range(4)
)


def card_set(mask: int) -> frozenset[Card]:
    """The cards of a bit set as a frozenset."""
    return frozenset(
        _CHUNK_CARDS[0][mask & 1023]
        + _CHUNK_CARDS[1][mask >> 10 & 1023]
        + _CHUNK_CARDS[2][mask >> 20 & 1023]
        + _CHUNK_CARDS[3][mask >> 30]
    )


DeckStyle = Literal["french", "spanish", "italian"]
DECK_STYLES: Final[tuple[DeckStyle, ...]] = ("french", "spanish", "italian")

# Names per deck style; the Spanish deck prints 10, 11, 12 on its face cards.
# A French reader's face cards are valet, dame, roi (docs/glossary.md).
_FACE_LETTERS: Final = {"en": ("J", "Q", "K"), "de": ("B", "D", "K"), "fr": ("V", "D", "R")}
_SPANISH_SUITS: Final = {
    Suit.COINS: "oros",
    Suit.CUPS: "copas",
    Suit.SWORDS: "espadas",
    Suit.CLUBS: "bastos",
}
_SPANISH_RANKS: Final = ("as", "2", "3", "4", "5", "6", "7", "sota", "caballo", "rey")
_ITALIAN_SUITS: Final = {
    Suit.COINS: "denari",
    Suit.CUPS: "coppe",
    Suit.SWORDS: "spade",
    Suit.CLUBS: "bastoni",
}
_ITALIAN_RANKS: Final = ("asso", "2", "3", "4", "5", "6", "7", "fante", "cavallo", "re")


def card_name(card: Card, style: DeckStyle = "french", language: str = "en") -> str:
    """A short name of ``card`` in a deck style.

    >>> c = Card.parse("Jd")
    >>> card_name(c), card_name(c, "french", "de"), card_name(c, "spanish"), card_name(c, "italian")
    ('J♦', 'B♦', 'sota de oros', 'fante di denari')
    """
    rank_index = card.value - 1
    if style == "french":
        letters = _FACE_LETTERS.get(language, _FACE_LETTERS["en"])
        rank = letters[rank_index - 7] if rank_index >= 7 else card.rank.value
        return rank + card.suit.symbol
    if style == "spanish":
        return f"{_SPANISH_RANKS[rank_index]} de {_SPANISH_SUITS[card.suit]}"
    if style == "italian":
        return f"{_ITALIAN_RANKS[rank_index]} di {_ITALIAN_SUITS[card.suit]}"
    raise InvalidCardError(f"unknown deck style {style!r}: choose one of {', '.join(DECK_STYLES)}")
