"""Cards: the deck, canonical text, parsing, interning, immutability and names.

Spec: RULES.md, "Cards"; API: DESIGN.md, "The engine's public API".
"""

from __future__ import annotations

import copy
import pickle

import pytest

import escoba
from escoba import (
    DECK,
    DECK_STYLES,
    Card,
    EscobaError,
    IllegalMoveError,
    InvalidCardError,
    InvalidMoveError,
    Rank,
    RulesError,
    Suit,
    card_name,
    parse_cards,
)
from escoba.cards import cards_of_mask, mask_of

SUIT_LETTERS = {Suit.COINS: "d", Suit.CUPS: "h", Suit.SWORDS: "s", Suit.CLUBS: "c"}
SUIT_SYMBOLS = {Suit.COINS: "♦", Suit.CUPS: "♥", Suit.SWORDS: "♠", Suit.CLUBS: "♣"}
# RULES.md, "Cards": rank letter -> capture value.
RANK_VALUES = {
    "A": 1,
    "2": 2,
    "3": 3,
    "4": 4,
    "5": 5,
    "6": 6,
    "7": 7,
    "J": 8,
    "Q": 9,
    "K": 10,
}
CANONICAL_SUITS = "dhsc"  # coins, cups, swords, clubs


# --- the deck ---------------------------------------------------------------------------------


def test_deck_has_40_distinct_cards() -> None:
    """RULES.md, Cards: 40 cards, four suits of A, 2..7 and three face cards."""
    assert len(DECK) == 40
    assert len(set(DECK)) == 40
    assert len({str(c) for c in DECK}) == 40
    assert all(isinstance(c, Card) for c in DECK)


def test_deck_is_in_canonical_order() -> None:
    """DESIGN.md: DECK is the 40 cards in canonical order (coins, cups, swords, clubs; A..K)."""
    expected = [rank + suit for suit in CANONICAL_SUITS for rank in RANK_VALUES]
    assert [str(c) for c in DECK] == expected
    assert str(DECK[0]) == "Ad"
    assert str(DECK[6]) == "7d"
    assert str(DECK[-1]) == "Kc"


def test_each_suit_has_every_rank_once() -> None:
    """RULES.md, Cards: each suit holds A, 2..7, J, Q, K exactly once."""
    for suit in Suit:
        ranks = sorted((c.rank.value for c in DECK if c.suit is suit), key=list(RANK_VALUES).index)
        assert ranks == list(RANK_VALUES)


def test_values_per_suit_are_1_to_10_and_deck_sums_to_220() -> None:
    """RULES.md, Cards (values) and seed 000, "Rechne mit": all 40 cards sum to 220."""
    for suit in Suit:
        assert sorted(c.value for c in DECK if c.suit is suit) == list(range(1, 11))
    assert sum(c.value for c in DECK) == 220


@pytest.mark.parametrize(("letter", "value"), RANK_VALUES.items())
def test_rank_values(letter: str, value: int) -> None:
    """RULES.md, Cards: A=1, 2..7 as printed, J=8, Q=9, K=10."""
    rank = Rank(letter)
    assert rank.value_points == value
    for suit in Suit:
        assert Card(rank, suit).value == value


def test_suit_letters_and_symbols() -> None:
    """RULES.md, Cards: coins d ♦, cups h ♥, swords s ♠, clubs c ♣."""
    for suit, letter in SUIT_LETTERS.items():
        assert suit.value == letter
        assert suit.symbol == SUIT_SYMBOLS[suit]


def test_card_attributes() -> None:
    """DESIGN.md: c = Card.parse("7d"); str(c) == "7d"; c.value == 7; c.suit, c.rank."""
    c = Card.parse("7d")
    assert str(c) == "7d"
    assert c.value == 7
    assert c.suit is Suit.COINS
    assert c.rank is Rank.SEVEN
    assert c.symbol == "7♦"
    assert repr(c) == "Card('7d')"


# --- text round trips -------------------------------------------------------------------------


@pytest.mark.parametrize("card", DECK, ids=str)
def test_text_round_trip_letters(card: Card) -> None:
    """RULES.md, Cards: canonical text is rank letter then suit letter."""
    text = str(card)
    assert text == card.rank.value + SUIT_LETTERS[card.suit]
    assert Card.parse(text) is card


@pytest.mark.parametrize("card", DECK, ids=str)
def test_text_round_trip_symbols(card: Card) -> None:
    """RULES.md, Cards: parsers also take the suit symbols (7♦)."""
    text = card.rank.value + SUIT_SYMBOLS[card.suit]
    assert card.symbol == text
    assert Card.parse(text) is card


def test_parse_ignores_surrounding_whitespace() -> None:
    assert Card.parse(" 7d ") is Card.parse("7d")


# --- interning, immutability, pickling --------------------------------------------------------


def test_cards_are_interned() -> None:
    """DESIGN.md / cards.py: Card(rank, suit) returns the one card."""
    assert Card.parse("7d") is Card(Rank.SEVEN, Suit.COINS)
    assert Card.parse("7♦") is Card.parse("7d")
    for card in DECK:
        assert Card(card.rank, card.suit) is card


def test_equal_cards_hash_equal_and_work_in_sets() -> None:
    assert Card.parse("Qh") == Card.parse("Q♥")
    assert hash(Card.parse("Qh")) == hash(Card.parse("Q♥"))
    assert len({Card.parse("Qh"), Card.parse("Q♥"), Card.parse("Qs")}) == 2
    assert Card.parse("Qh") != Card.parse("Qs")


def test_cards_order_canonically() -> None:
    assert sorted(reversed(DECK)) == list(DECK)
    assert Card.parse("Kd") < Card.parse("Ah")


@pytest.mark.parametrize("attribute", ["rank", "suit", "value", "index", "bit"])
def test_cards_cannot_be_changed(attribute: str) -> None:
    """Cards are immutable: assigning an attribute fails and changes nothing."""
    card = Card.parse("7d")
    before = getattr(card, attribute)
    with pytest.raises(AttributeError):
        setattr(card, attribute, None)
    assert getattr(card, attribute) == before


def test_cards_cannot_gain_attributes() -> None:
    card = Card.parse("7d")
    with pytest.raises(AttributeError):
        card.colour = "red"
    assert not hasattr(card, "colour")


@pytest.mark.parametrize("attribute", ["rank", "suit", "value"])
def test_card_attributes_cannot_be_deleted(attribute: str) -> None:
    """Cards are immutable (and interned, so a change would corrupt every game)."""
    card = Card.parse("7d")
    before = getattr(card, attribute)
    try:
        with pytest.raises(AttributeError):
            delattr(card, attribute)
    finally:
        # Repair the interned card whatever happened, so no other test sees the damage.
        if not hasattr(card, attribute):
            object.__setattr__(card, attribute, before)
    assert getattr(card, attribute) == before


@pytest.mark.parametrize("card", DECK, ids=str)
def test_pickle_round_trip_keeps_identity(card: Card) -> None:
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(card, protocol)) is card


def test_copy_keeps_identity() -> None:
    card = Card.parse("5c")
    assert copy.copy(card) is card
    assert copy.deepcopy(card) is card
    assert copy.deepcopy([card, card])[1] is card


def test_mask_round_trip() -> None:
    cards = parse_cards("Kc 7d As 3h")
    mask = mask_of(cards)
    assert mask.bit_count() == 4
    assert list(cards_of_mask(mask)) == sorted(cards)
    assert list(cards_of_mask(mask_of(DECK))) == list(DECK)


# --- parse errors -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "",
        " ",
        "7",
        "d",
        "7x",
        "8d",  # no 8, 9, 10 in the deck
        "9d",
        "10d",  # Spanish printed numbers are refused (RULES.md, Cards)
        "11d",
        "12c",
        "1d",  # the ace is A, not 1
        "7dd",
        "77d",
        "7d 4c",
        "B♦",  # German face letters are names, not input
        "7D",
        "Ah7",
    ],
)
def test_parse_rejects_bad_text_and_names_it(text: str) -> None:
    """RULES.md, Cards: anything else is a clear error naming the bad text; never 10, 11, 12."""
    with pytest.raises(InvalidCardError) as info:
        Card.parse(text)
    assert repr(text) in str(info.value)


@pytest.mark.parametrize("value", [7, None, b"7d", ("7", "d"), Card.parse("7d")])
def test_parse_rejects_non_strings(value: object) -> None:
    with pytest.raises(InvalidCardError) as info:
        Card.parse(value)  # type: ignore[arg-type]
    assert repr(value) in str(info.value)


@pytest.mark.parametrize(
    ("rank", "suit"),
    [
        ("7", Suit.COINS),
        (Rank.SEVEN, "d"),
        (7, 0),
        (Suit.COINS, Rank.SEVEN),
        (None, None),
    ],
)
def test_card_constructor_rejects_wrong_types(rank: object, suit: object) -> None:
    with pytest.raises(InvalidCardError) as info:
        Card(rank, suit)  # type: ignore[arg-type]
    message = str(info.value)
    assert repr(rank) in message
    assert repr(suit) in message


# --- parse_cards ------------------------------------------------------------------------------


def test_parse_cards_design_example() -> None:
    """DESIGN.md: escoba.parse_cards("As 3h 4c 7d") -> tuple[Card, ...]."""
    cards = parse_cards("As 3h 4c 7d")
    assert isinstance(cards, tuple)
    assert cards == (
        Card(Rank.ACE, Suit.SWORDS),
        Card(Rank.THREE, Suit.CUPS),
        Card(Rank.FOUR, Suit.CLUBS),
        Card(Rank.SEVEN, Suit.COINS),
    )


def test_parse_cards_takes_commas_symbols_and_empty_text() -> None:
    assert parse_cards("A♠, 3♥,4c  7d") == parse_cards("As 3h 4c 7d")
    assert parse_cards("") == ()
    assert parse_cards(" ".join(str(c) for c in DECK)) == DECK


def test_parse_cards_keeps_order_and_repeats() -> None:
    assert parse_cards("Kc Ad Kc") == (Card.parse("Kc"), Card.parse("Ad"), Card.parse("Kc"))


@pytest.mark.parametrize(
    ("text", "position", "bad"),
    [
        ("As 3h 10d", 3, "10d"),
        ("xx 3h", 1, "xx"),
        ("As,3h,4c,1d,7d", 4, "1d"),
        ("As 3h 4c 7d 12c", 5, "12c"),
    ],
)
def test_parse_cards_names_position_and_text(text: str, position: int, bad: str) -> None:
    with pytest.raises(InvalidCardError) as info:
        parse_cards(text)
    message = str(info.value)
    assert f"card {position}" in message
    assert repr(bad) in message


@pytest.mark.parametrize("value", [None, 7, ["As", "3h"], DECK])
def test_parse_cards_rejects_non_strings(value: object) -> None:
    with pytest.raises(InvalidCardError):
        parse_cards(value)  # type: ignore[arg-type]


# --- names in each deck style -----------------------------------------------------------------


def test_deck_styles() -> None:
    assert set(DECK_STYLES) == {"french", "spanish", "italian"}


@pytest.mark.parametrize(
    ("text", "french", "german", "spanish", "italian"),
    [
        ("7d", "7♦", "7♦", "7 de oros", "7 di denari"),
        ("Jd", "J♦", "B♦", "sota de oros", "fante di denari"),
        ("Qh", "Q♥", "D♥", "caballo de copas", "cavallo di coppe"),
        ("Ks", "K♠", "K♠", "rey de espadas", "re di spade"),
        ("Ac", "A♣", "A♣", None, "asso di bastoni"),
        ("2c", "2♣", "2♣", "2 de bastos", "2 di bastoni"),
    ],
)
def test_card_names(text: str, french: str, german: str, spanish: str | None, italian: str) -> None:
    """RULES.md, Cards: the suit and rank names of the French, Spanish and Italian decks."""
    card = Card.parse(text)
    assert card_name(card) == french
    assert card_name(card, "french") == french
    assert card_name(card, "french", "de") == german
    # A French reader's faces are valet, dame, roi (docs/glossary.md); other ranks as in English.
    in_french = card_name(card, "french", "fr")
    assert in_french == french.replace("J", "V").replace("Q", "D").replace("K", "R")
    if spanish is not None:
        assert card_name(card, "spanish") == spanish
    assert card_name(card, "italian") == italian


def test_spanish_ace_name_names_the_suit() -> None:
    """The Spanish ace (as, printed 1) is named with its suit, never as a 10-12 face number."""
    name = card_name(Card.parse("Ad"), "spanish")
    assert name.endswith(" de oros")
    assert name.split()[0] in {"as", "1"}


def test_spanish_names_never_use_printed_face_numbers() -> None:
    """RULES.md, Cards: the printed 10, 11, 12 are not ranks; names use sota, caballo, rey."""
    for card in DECK:
        assert card_name(card, "spanish").split()[0] not in {"10", "11", "12"}


def test_every_card_has_distinct_names_in_each_style() -> None:
    for style in DECK_STYLES:
        names = {card_name(card, style) for card in DECK}
        assert len(names) == 40


def test_card_name_rejects_unknown_style() -> None:
    with pytest.raises(InvalidCardError) as info:
        card_name(Card.parse("7d"), "german")  # type: ignore[arg-type]
    assert "'german'" in str(info.value)


# --- exception classes ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "error", [InvalidCardError, InvalidMoveError, IllegalMoveError, RulesError], ids=str
)
def test_error_classes_derive_from_escoba_error_and_value_error(error: type[Exception]) -> None:
    """DESIGN.md, Exceptions: EscobaError is the base; the input errors are ValueErrors too."""
    assert issubclass(error, EscobaError)
    assert issubclass(error, ValueError)


def test_error_classes_are_exported() -> None:
    for name in ("EscobaError", "InvalidCardError", "InvalidMoveError", "IllegalMoveError"):
        assert hasattr(escoba, name)
    assert issubclass(escoba.RulesError, escoba.EscobaError)
