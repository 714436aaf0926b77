"""Moves: one card from the hand and the exact set of table cards it takes.

Spec: RULES.md, "A move"; API: DESIGN.md (Move(card, captures), text "4h:4c+7d" / "Qd").
"""

from __future__ import annotations

import copy
import pickle

import pytest

from escoba import (
    DECK,
    Card,
    EscobaError,
    InvalidMoveError,
    Move,
    parse_cards,
)


def card(text: str) -> Card:
    return Card.parse(text)


# --- construction and text --------------------------------------------------------------------


def test_capture_move_from_design_example() -> None:
    """DESIGN.md: game.play accepts a Move or its text, "4h:4c+7d"."""
    move = Move.parse("4h:4c+7d")
    assert move.card is card("4h")
    assert move.captures == frozenset(parse_cards("4c 7d"))
    assert isinstance(move.captures, frozenset)
    assert move.is_capture
    assert move == Move(card("4h"), parse_cards("4c 7d"))


def test_drop_move_from_design_example() -> None:
    """DESIGN.md: "Qd" is a drop, a move that takes nothing (RULES.md: dropped face up)."""
    move = Move.parse("Qd")
    assert move.card is card("Qd")
    assert move.captures == frozenset()
    assert not move.is_capture
    assert move == Move(card("Qd"))
    assert move == Move(card("Qd"), ())
    assert move == Move(card("Qd"), frozenset())
    assert str(move) == "Qd"


def test_capture_and_drop_of_the_same_card_differ() -> None:
    drop = Move(card("4h"))
    take = Move(card("4h"), [card("Jc")])  # not legal sum-wise, but a well-formed move
    assert drop != take
    assert not drop.is_capture
    assert take.is_capture


def test_canonical_text_sorts_taken_cards() -> None:
    """Canonical text: played card, ':', taken cards in canonical order joined by '+'."""
    move = Move(card("4h"), [card("7d"), card("Ac"), card("As"), card("4c")])
    assert str(move) == "4h:7d+As+Ac+4c"
    assert repr(move) == "Move('4h:7d+As+Ac+4c')"


def test_parse_takes_symbols_and_any_order() -> None:
    expected = Move(card("4h"), parse_cards("4c 7d"))
    assert Move.parse("4♥:4♣+7♦") == expected
    assert Move.parse("4h:7d+4c") == expected
    assert Move.parse(" 4h:4c+7d ") == expected
    assert Move.parse("4h: 4c + 7d") == expected


def test_text_round_trip_for_drops_and_captures() -> None:
    """Every move's text parses back to an equal move."""
    moves = [Move(c) for c in DECK]
    moves += [Move(DECK[i], [DECK[(i + 1) % 40]]) for i in range(40)]
    moves += [Move(DECK[i], [DECK[(i + k) % 40] for k in (3, 11, 17, 29)]) for i in range(40)]
    moves.append(Move(card("Kd"), [c for c in DECK if c is not card("Kd")]))
    for move in moves:
        text = str(move)
        again = Move.parse(text)
        assert again == move
        assert str(again) == text
        assert again.card is move.card
        assert again.captures == move.captures


def test_captures_accepts_any_iterable_of_cards() -> None:
    taken = parse_cards("As 3h 7d")
    expected = Move(card("4d"), frozenset(taken))
    assert Move(card("4d"), list(taken)) == expected
    assert Move(card("4d"), iter(taken)) == expected
    assert Move(card("4d"), (c for c in reversed(taken))) == expected


# --- value semantics --------------------------------------------------------------------------


def test_equality_is_by_value() -> None:
    a = Move.parse("4h:4c+7d")
    b = Move(card("4h"), [card("7d"), card("4c")])
    assert a == b
    assert (a != b) is False
    assert a != Move.parse("4h:As+3h+7d")
    assert a != Move.parse("4d:4c+7d")
    assert a != "4h:4c+7d"
    assert a != card("4h")


def test_hash_follows_equality() -> None:
    a = Move.parse("4h:4c+7d")
    b = Move.parse("4♥:7♦+4♣")
    assert hash(a) == hash(b)
    assert len({a, b, Move.parse("4h:As+3h+7d"), Move.parse("4h")}) == 3
    assert {a: 1}[b] == 1


def test_moves_taking_equal_values_of_other_suits_differ() -> None:
    """RULES.md, A move: sets differing in which equal-valued cards they hold are different."""
    a = Move.parse("4d:7h+4s")
    b = Move.parse("4d:7c+4s")
    assert a != b
    assert len({a, b}) == 2


def test_moves_are_immutable() -> None:
    move = Move.parse("4h:4c+7d")
    with pytest.raises(AttributeError):
        move.card = card("5h")  # type: ignore[misc]
    with pytest.raises(AttributeError):
        move.captures = frozenset()  # type: ignore[misc]
    with pytest.raises(AttributeError):
        move.extra = 1
    with pytest.raises(AttributeError):
        move._key = 0
    with pytest.raises(AttributeError):
        move.key = 0
    assert move == Move.parse("4h:4c+7d")
    assert str(move) == "4h:7d+4c"


def test_move_state_cannot_be_deleted() -> None:
    """Moves are immutable: deleting their state must fail too."""
    move = Move.parse("4h:4c+7d")
    with pytest.raises(AttributeError):
        del move.key
    with pytest.raises(AttributeError):
        del move._captures
    assert str(move) == "4h:7d+4c"


def test_pickle_and_copy_round_trip() -> None:
    for move in (Move.parse("4h:4c+7d"), Move.parse("Qd"), Move.parse("Kd:5c")):
        assert pickle.loads(pickle.dumps(move)) == move
        assert copy.copy(move) == move
        assert copy.deepcopy(move) == move
        assert pickle.loads(pickle.dumps(move)).card is move.card


def test_moves_sort() -> None:
    moves = [Move.parse(t) for t in ("Kc", "Ad:2h", "Ad", "7d:Kc")]
    assert sorted(moves) == sorted(moves, key=lambda m: m.key)
    assert sorted(moves)[0] == Move.parse("Ad")  # a drop sorts before captures of its card


# --- errors -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "bad"),
    [
        ("", "''"),
        ("4x:4c+7d", "'4x'"),
        ("10d", "'10d'"),
        ("12c:3h", "'12c'"),
        ("1d", "'1d'"),
        (":4c", "''"),
        ("4h;4c", "'4h;4c'"),
        ("4h 4c", "'4h 4c'"),
    ],
)
def test_parse_rejects_bad_played_card(text: str, bad: str) -> None:
    with pytest.raises(InvalidMoveError) as info:
        Move.parse(text)
    message = str(info.value)
    assert repr(text) in message
    assert "played card" in message
    assert bad in message


@pytest.mark.parametrize(
    ("text", "position", "bad"),
    [
        ("4h:4c+7x", 2, "'7x'"),
        ("4h:10d", 1, "'10d'"),
        ("4h:4c++7d", 2, "''"),
        ("4h:4c+7d+", 3, "''"),
        ("4h:4c,7d", 1, "'4c,7d'"),
        ("4h:4c+7d:As", 2, "'7d:As'"),
    ],
)
def test_parse_rejects_bad_taken_card_naming_its_position(
    text: str, position: int, bad: str
) -> None:
    with pytest.raises(InvalidMoveError) as info:
        Move.parse(text)
    message = str(info.value)
    assert repr(text) in message
    assert f"taken card {position}" in message
    assert bad in message


@pytest.mark.parametrize("text", ["4h:", "4h: ", "4h:  \t"])
def test_parse_rejects_nothing_after_colon(text: str) -> None:
    with pytest.raises(InvalidMoveError, match="nothing after ':'"):
        Move.parse(text)


@pytest.mark.parametrize("text", ["4h:4c+4c", "4h:4c+7d+4♣", "Kd:As+As"])
def test_parse_rejects_a_card_taken_twice(text: str) -> None:
    with pytest.raises(InvalidMoveError, match="twice"):
        Move.parse(text)


@pytest.mark.parametrize("text", ["4h:4h", "4h:4c+4h", "4♥:7d+4h"])
def test_parse_rejects_taking_the_played_card(text: str) -> None:
    with pytest.raises(InvalidMoveError) as info:
        Move.parse(text)
    assert "4h" in str(info.value)


@pytest.mark.parametrize("value", [None, 42, b"4h:4c", Move.parse("Qd")])
def test_parse_rejects_non_strings(value: object) -> None:
    with pytest.raises(InvalidMoveError) as info:
        Move.parse(value)  # type: ignore[arg-type]
    assert repr(value) in str(info.value)


@pytest.mark.parametrize("played", ["4h", None, 4])
def test_constructor_needs_a_card(played: object) -> None:
    with pytest.raises(InvalidMoveError) as info:
        Move(played)  # type: ignore[arg-type]
    assert repr(played) in str(info.value)


@pytest.mark.parametrize("taken", [["4c", "7d"], [card("4c"), "7d"], [None], [7]])
def test_constructor_needs_cards_to_take(taken: list[object]) -> None:
    with pytest.raises(InvalidMoveError):
        Move(card("4h"), taken)  # type: ignore[arg-type]


@pytest.mark.parametrize("taken", ["4c+7d", "4c", b"4c"])
def test_constructor_refuses_text_as_captures(taken: object) -> None:
    with pytest.raises(InvalidMoveError) as info:
        Move(card("4h"), taken)  # type: ignore[arg-type]
    assert repr(taken) in str(info.value)


def test_constructor_refuses_taking_the_played_card() -> None:
    with pytest.raises(InvalidMoveError) as info:
        Move(card("4h"), [card("4c"), card("4h")])
    assert "4h" in str(info.value)


def test_move_errors_are_value_errors() -> None:
    with pytest.raises(ValueError):
        Move.parse("4h:")
    with pytest.raises(EscobaError):
        Move.parse("nonsense")
