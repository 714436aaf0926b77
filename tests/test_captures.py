"""Which table cards a played card may take: `escoba.captures(card, table, rules)`.

Spec: RULES.md, "A move" (and its worked examples); seeds 000, 002 and 003.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

import pytest

from escoba import (
    DECK,
    RULESETS,
    Card,
    EscobaError,
    InvalidCardError,
    RulesError,
    RuleSet,
    captures,
    parse_cards,
)

ESCOBA = RULESETS["escoba"]
SCOPA = RULESETS["scopa"]
ESCOVA = RULESETS["escova"]
SUM15_PRESETS = [name for name, rules in RULESETS.items() if rules.capture == "sum15"]


def card(text: str) -> Card:
    return Card.parse(text)


def sets(text: str) -> frozenset[Card]:
    return frozenset(parse_cards(text))


def as_set(found: Sequence[frozenset[Card]]) -> set[frozenset[Card]]:
    """The captures as a set, after checking that none is listed twice."""
    assert len(set(found)) == len(found), f"a capture is listed twice: {found}"
    return set(found)


def reference(played: Card, table: Sequence[Card], match: bool) -> set[frozenset[Card]]:
    """RULES.md, "A move", written out by brute force over all subsets of the table."""
    subsets = [
        frozenset(chosen)
        for size in range(1, len(table) + 1)
        for chosen in combinations(table, size)
    ]
    if not match:
        return {s for s in subsets if sum(c.value for c in s) + played.value == 15}
    equal = [c for c in table if c.value == played.value]
    if equal:
        return {frozenset([c]) for c in equal}
    return {s for s in subsets if len(s) >= 2 and sum(c.value for c in s) == played.value}


# --- Escoba worked example --------------------------------------------------------------------


@pytest.mark.parametrize("four", ["4d", "4h", "4s"])
def test_escoba_four_on_as_3h_4c_7d(four: str) -> None:
    """RULES.md, A move, worked example 1; seed 000, "Ein Zug", Beispiel.

    Table A♠ 3♥ 4♣ 7♦, a 4 is played: exactly {4♣, 7♦} and {A♠, 3♥, 7♦}.
    """
    table = parse_cards("As 3h 4c 7d")
    found = captures(card(four), table, ESCOBA)
    assert len(found) == 2
    assert as_set(found) == {sets("4c 7d"), sets("As 3h 7d")}
    # Either way the player gets the 7♦ (seed 000).
    assert all(card("7d") in s for s in found)


@pytest.mark.parametrize("queen", ["Qd", "Qh", "Qs", "Qc"])
def test_escoba_queen_on_as_3h_4c_7d_takes_nothing(queen: str) -> None:
    """RULES.md, A move, worked example 1; seed 000: a queen (9) would need 6: no set."""
    assert captures(card(queen), parse_cards("As 3h 4c 7d"), ESCOBA) == []


def test_escoba_four_on_symbol_table() -> None:
    """Same example with the symbols of RULES.md (A♠ 3♥ 4♣ 7♦)."""
    found = captures(card("4♥"), parse_cards("A♠ 3♥ 4♣ 7♦"), ESCOBA)
    assert as_set(found) == {sets("4c 7d"), sets("As 3h 7d")}


@pytest.mark.parametrize("name", SUM15_PRESETS)
def test_worked_example_is_the_same_in_every_sum15_preset(name: str) -> None:
    """RULES.md, A move: Escoba and Escova both capture by the sum 15."""
    rules = RULESETS[name]
    table = parse_cards("As 3h 4c 7d")
    assert as_set(captures(card("4d"), table, rules)) == {sets("4c 7d"), sets("As 3h 7d")}
    assert captures(card("Qd"), table, rules) == []


def test_escova_sweep_example() -> None:
    """Seed 003, Escova: table 3♠ 2♣ 1♥ 4♦ and Sara's 5♠: 5+3+2+1+4 = 15, an escova."""
    table = parse_cards("3♠ 2♣ A♥ 4♦")
    assert captures(card("5s"), table, ESCOVA) == [frozenset(table)]


# --- Scopa worked examples --------------------------------------------------------------------


def test_scopa_five_on_5_4_a_takes_only_the_five() -> None:
    """RULES.md, A move, Scopa example 1; seed 002: a 5 on 5, 4, A must take the single 5."""
    found = captures(card("5d"), parse_cards("5h 4c As"), SCOPA)
    assert found == [sets("5h")]


def test_scopa_seven_on_3_4_7_takes_the_seven() -> None:
    """RULES.md, A move, Scopa example 2; seed 002: a 7 on 3, 4, 7 takes the 7 (not 3+4)."""
    found = captures(card("7d"), parse_cards("3h 4s 7c"), SCOPA)
    assert found == [sets("7c")]


def test_scopa_jack_on_a_2_6_takes_2_and_6() -> None:
    """RULES.md, A move, Scopa example 3; seed 002: an 8 on 1, 2, 6 takes 6+2."""
    found = captures(card("Jd"), parse_cards("Ah 2s 6c"), SCOPA)
    assert found == [sets("2s 6c")]


def test_scopa_five_on_4_1_3_2_chooses_either_pair() -> None:
    """Seed 002, rule 2: a 5 may take 4+1 or 3+2; the player chooses."""
    found = captures(card("5d"), parse_cards("4h As 3c 2s"), SCOPA)
    assert as_set(found) == {sets("4h As"), sets("3c 2s")}


def test_scopa_two_fives_each_single_five_is_a_choice() -> None:
    """RULES.md, A move (Scopa): several equal cards, which one is the player's choice."""
    found = captures(card("5d"), parse_cards("5h 5c 4s Ah"), SCOPA)
    assert as_set(found) == {sets("5h"), sets("5c")}


def test_scopa_three_equal_cards_give_three_choices() -> None:
    found = captures(card("Kd"), parse_cards("Kh Ks Kc 6h 4s"), SCOPA)
    assert as_set(found) == {sets("Kh"), sets("Ks"), sets("Kc")}


def test_scopa_never_takes_a_single_card_of_another_value() -> None:
    """RULES.md, A move (Scopa): one equal card, or two or more that sum to the value."""
    assert captures(card("5d"), parse_cards("3h 6c"), SCOPA) == []
    assert captures(card("Ad"), parse_cards("2h 3c Ks"), SCOPA) == []


def test_scopa_sum_of_many_cards() -> None:
    found = captures(card("Kd"), parse_cards("Ah 2s 3c 4h 6s"), SCOPA)
    # No 10 on the table: 10 = 1+2+3+4 = 4+6 = 1+3+6, and no other subset.
    assert as_set(found) == {sets("Ah 2s 3c 4h"), sets("4h 6s"), sets("Ah 3c 6s")}


def test_scopa_and_escoba_differ_on_the_same_table() -> None:
    """The same table and card give different captures under sum15 and match (RULES.md)."""
    table = parse_cards("5h 4c As")
    assert as_set(captures(card("5d"), table, ESCOBA)) == {sets("5h 4c As")}
    assert captures(card("5d"), table, SCOPA) == [sets("5h")]


def test_match_mode_from_escoba_options() -> None:
    """capture="match" behaves the same whatever preset it was set on."""
    rules = ESCOBA.replace(capture="match", initial_table_sweeps=False)
    assert captures(card("7d"), parse_cards("3h 4s 7c"), rules) == [sets("7c")]


# --- suits matter -----------------------------------------------------------------------------


def test_sets_differing_in_suits_are_different_captures_sum15() -> None:
    """RULES.md, A move: sets that differ in which equal-valued cards they hold differ."""
    found = captures(card("4d"), parse_cards("7h 7c 4s"), ESCOBA)
    assert as_set(found) == {sets("7h 4s"), sets("7c 4s")}
    assert len(found) == 2


def test_sets_differing_in_suits_with_partial_use_of_a_value() -> None:
    """Two of three equal cards: every choice of the two is its own capture."""
    # A king (10) needs 5: 2+3 with any of three 2s, or the 5 alone.
    found = captures(card("Kd"), parse_cards("2h 2s 2c 3h 5c"), ESCOBA)
    assert as_set(found) == {sets("2h 3h"), sets("2s 3h"), sets("2c 3h"), sets("5c")}
    # A 7 needs 8: only 3+5 (one, two or three 2s make 2, 4, 6; with 3 or 5 never 8).
    found = captures(card("7d"), parse_cards("2h 2s 2c 3h 5c"), ESCOBA)
    assert as_set(found) == {sets("3h 5c")}
    # A 6 needs 9: 2+2+5 (three choices of two 2s) and 2+2+2+3.
    found = captures(card("6d"), parse_cards("2h 2s 2c 3h 5c"), ESCOBA)
    assert as_set(found) == {
        sets("2h 2s 5c"),
        sets("2h 2c 5c"),
        sets("2s 2c 5c"),
        sets("2h 2s 2c 3h"),
    }


def test_sets_differing_in_suits_match_mode() -> None:
    """Scopa: an 8 on 4, 4, 4, (no 8): each pair of fours is its own capture."""
    found = captures(card("Jd"), parse_cards("4h 4s 4c"), SCOPA)
    assert as_set(found) == {sets("4h 4s"), sets("4h 4c"), sets("4s 4c")}


# --- general behaviour ------------------------------------------------------------------------


def test_empty_table_gives_nothing() -> None:
    for rules in RULESETS.values():
        for played in DECK:
            assert captures(played, (), rules) == []


def test_whole_table_is_a_sweep_set() -> None:
    """RULES.md: a capture that empties the table is a sweep; the set is the whole table."""
    table = parse_cards("Kh 2s")
    assert captures(card("3d"), table, ESCOBA) == [frozenset(table)]


def test_result_types_and_table_as_any_iterable() -> None:
    table = parse_cards("As 3h 4c 7d")
    for given in (table, list(table), set(table), iter(table), (c for c in table)):
        found = captures(card("4d"), given, ESCOBA)
        assert isinstance(found, list)
        assert all(isinstance(s, frozenset) for s in found)
        assert as_set(found) == {sets("4c 7d"), sets("As 3h 7d")}


def test_result_does_not_depend_on_table_order() -> None:
    table = list(parse_cards("As 3h 4c 7d 2s Kc 5h"))
    first = as_set(captures(card("6d"), table, ESCOBA))
    rng = random.Random(1)
    for _ in range(10):
        rng.shuffle(table)
        assert as_set(captures(card("6d"), table, ESCOBA)) == first


def test_captures_do_not_depend_on_forced_capture() -> None:
    """forced_capture decides whether a drop is also legal, not which sets a card may take."""
    table = parse_cards("As 3h 4c 7d")
    free = ESCOBA.replace(forced_capture=False)
    assert as_set(captures(card("4d"), table, free)) == as_set(captures(card("4d"), table, ESCOBA))


@pytest.mark.parametrize("mode", ["sum15", "match"])
def test_agrees_with_brute_force_on_random_tables(mode: str) -> None:
    """RULES.md, A move, checked against a direct subset search on many random tables."""
    rules = ESCOBA if mode == "sum15" else SCOPA
    rng = random.Random(20240601 if mode == "sum15" else 1789)
    for _ in range(300):
        deck = list(DECK)
        rng.shuffle(deck)
        size = rng.randint(0, 9)
        table = deck[:size]
        for played in deck[size : size + 4]:
            found = captures(played, table, rules)
            assert as_set(found) == reference(played, table, mode == "match"), (
                played,
                table,
            )
            for s in found:
                assert s <= set(table)


def test_escoba_whole_table_sums() -> None:
    """Every sum15 capture (with the played card) adds to exactly 15."""
    table = parse_cards("Ad 2h 3s 4c 5d 6h 7s")
    for played in parse_cards("Ah 2d 3c 4h 5s 6c 7d Jh Qs Kc"):
        for s in captures(played, table, ESCOBA):
            assert played.value + sum(c.value for c in s) == 15


# --- bad input --------------------------------------------------------------------------------


@pytest.mark.parametrize("played", ["4d", None, 4, ("4", "d")])
def test_played_card_must_be_a_card(played: object) -> None:
    with pytest.raises(InvalidCardError) as info:
        captures(played, parse_cards("As 3h"), ESCOBA)  # type: ignore[arg-type]
    assert repr(played) in str(info.value)


@pytest.mark.parametrize("bad", ["7d", None, 7])
def test_table_cards_must_be_cards(bad: object) -> None:
    table = [card("As"), card("3h"), bad]
    with pytest.raises(InvalidCardError) as info:
        captures(card("4d"), table, ESCOBA)  # type: ignore[arg-type]
    message = str(info.value)
    assert "table card 3" in message
    assert repr(bad) in message


def test_table_must_not_hold_a_card_twice() -> None:
    with pytest.raises(InvalidCardError, match="twice"):
        captures(card("4d"), parse_cards("As 3h As"), ESCOBA)


def test_played_card_must_not_be_on_the_table() -> None:
    with pytest.raises(InvalidCardError) as info:
        captures(card("4d"), parse_cards("As 4d 7h"), ESCOBA)
    assert "4d" in str(info.value)


@pytest.mark.parametrize("rules", ["escoba", None, {"capture": "sum15"}, RuleSet])
def test_rules_must_be_a_rule_set(rules: object) -> None:
    with pytest.raises(RulesError) as info:
        captures(card("4d"), parse_cards("As 3h"), rules)  # type: ignore[arg-type]
    assert repr(rules) in str(info.value)


def test_capture_errors_are_value_errors() -> None:
    with pytest.raises(ValueError):
        captures(card("4d"), parse_cards("4d"), ESCOBA)
    with pytest.raises(EscobaError):
        captures(card("4d"), parse_cards("As As"), ESCOBA)
