"""Scoring a hand: `escoba.score_hand(piles, sweeps, rules)` and the sevens categories.

Spec: RULES.md, "Scoring a hand"; seeds 000 (Setenta, Beispielrunde, Varianten), 002
(Primiera, Punktevergabe) and 003 (Scoring, Escova).
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from typing import Any

import pytest

from escoba import (
    CATEGORIES,
    DECK,
    RULESETS,
    Card,
    EscobaError,
    HandScore,
    InvalidCardError,
    RulesError,
    RuleSet,
    parse_cards,
    score_hand,
)
from escoba.cards import mask_of
from escoba.scoring import primiera, setenta_key

ESCOBA = RULESETS["escoba"]
FOURNIER = RULESETS["escoba-fournier"]
OLD_SETENTA = RULESETS["escoba-primiera"]
CLASSIC = RULESETS["escoba-classic"]
SCOPA = RULESETS["scopa"]
ESCOVA = RULESETS["escova"]

KEYS = (
    "cards",
    "coins",
    "seven_of_coins",
    "sevens",
    "all_sevens",
    "re_bello",
    "napola",
    "sweeps",
)
SEVENS = parse_cards("7d 7h 7s 7c")
COINS = tuple(c for c in DECK if str(c).endswith("d"))


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def rest_of_deck(*piles: Collection[Card]) -> tuple[Card, ...]:
    used = {c for pile in piles for c in pile}
    return tuple(c for c in DECK if c not in used)


def check_shape(score: HandScore, sides: int) -> None:
    """DESIGN.md: breakdown has the eight categories, one int per side; points are their sum."""
    assert set(score.breakdown) == set(KEYS)
    assert tuple(CATEGORIES) == KEYS
    for key in KEYS:
        column = score.breakdown[key]
        assert len(column) == sides
        assert all(type(v) is int for v in column)
    assert len(score.points) == sides
    assert all(type(p) is int for p in score.points)
    for side in range(sides):
        assert score.points[side] == sum(score.breakdown[k][side] for k in KEYS)


def score(
    piles: Sequence[Collection[Card]], rules: RuleSet, sweeps: Sequence[int] | None = None
) -> HandScore:
    result = score_hand(piles, sweeps if sweeps is not None else [0] * len(piles), rules)
    check_shape(result, len(piles))
    return result


# --- a reference scorer, written from RULES.md ------------------------------------------------

# RULES.md, Sevens category: setenta order 7, 6, A, 5, 4, 3, 2, then the faces (equal).
SETENTA_ORDER = {"7": 8, "6": 7, "A": 6, "5": 5, "4": 4, "3": 3, "2": 2, "J": 1, "Q": 1, "K": 1}
# RULES.md, Sevens category: primiera 7=21, 6=18, A=16, 5=15, 4=14, 3=13, 2=12, face=10.
PRIMIERA_POINTS = {
    "7": 21,
    "6": 18,
    "A": 16,
    "5": 15,
    "4": 14,
    "3": 13,
    "2": 12,
    "J": 10,
    "Q": 10,
    "K": 10,
}


def best_of(pile: Collection[Card], table: dict[str, int]) -> list[int | None]:
    """Each suit's best card by ``table``; None for a missing suit."""
    out: list[int | None] = []
    for suit in "dhsc":
        values = [table[str(c)[0]] for c in pile if str(c)[1] == suit]
        out.append(max(values) if values else None)
    return out


def top(values: Sequence[Any], points: int = 1) -> list[int]:
    """RULES.md: the single best side scores; a tie at the top gives nobody the point."""
    best = max(values)
    if sum(1 for v in values if v == best) > 1:
        return [0] * len(values)
    return [points if v == best else 0 for v in values]


def reference(
    piles: Sequence[Collection[Card]], sweeps: Sequence[int], rules: RuleSet
) -> dict[str, list[int]]:
    n = len(piles)
    counts = [len(p) for p in piles]
    coins = [sum(1 for c in p if c.suit.value == "d") for p in piles]
    cards_pts = top(counts)
    if rules.big_wins:
        for i in range(n):
            if counts[i] >= 30 and all(counts[j] < 10 for j in range(n) if j != i):
                cards_pts[i] = 2
    coin_pts = top(coins)
    for i in range(n):
        if coins[i] == 10 and (rules.all_coins_two or rules.big_wins):
            coin_pts[i] = 2
    seven_of_coins = [1 if Card.parse("7d") in p else 0 for p in piles]
    if rules.sevens == "ranking":
        keys = [sorted((b or 0 for b in best_of(p, SETENTA_ORDER)), reverse=True) for p in piles]
        sevens = top(keys)
    elif rules.sevens == "sevens":
        sevens = top([sum(1 for c in p if c.value == 7) for p in piles])
    elif rules.sevens == "primiera":
        bests = [best_of(p, PRIMIERA_POINTS) for p in piles]
        eligible = [
            not (rules.primiera_needs_all_suits and any(b is None for b in best)) for best in bests
        ]
        sums = [sum(b or 0 for b in best) for best in bests]
        if not any(eligible):
            sevens = [0] * n
        else:
            high = max(s for s, ok in zip(sums, eligible, strict=True) if ok)
            winners = [i for i in range(n) if eligible[i] and sums[i] == high]
            sevens = [1 if len(winners) == 1 and i in winners else 0 for i in range(n)]
    else:
        sevens = [0] * n
    # RULES.md: big_wins makes all four sevens add 1; all_sevens_bonus adds its number. The
    # engine documents that together they give the larger, not the sum.
    bonus = max(rules.all_sevens_bonus, 1 if rules.big_wins else 0)
    all_sevens = [bonus if all(s in p for s in SEVENS) else 0 for p in piles]
    # docs/rules.md, regional options: re bello is the king of coins; napola is the ace, 2 and
    # 3 of coins for 3, and one more for each coin after them without a gap.
    re_bello = [1 if rules.re_bello and Card.parse("Kd") in p else 0 for p in piles]
    napola = [0] * n
    if rules.napola:
        for i, p in enumerate(piles):
            run = 0
            for rank in "A234567JQK":
                if Card.parse(rank + "d") not in p:
                    break
                run += 1
            napola[i] = run if run >= 3 else 0
    return {
        "cards": cards_pts,
        "coins": coin_pts,
        "seven_of_coins": seven_of_coins,
        "sevens": sevens,
        "all_sevens": all_sevens,
        "re_bello": re_bello,
        "napola": napola,
        "sweeps": list(sweeps),
    }


# --- seed 000: Setenta ------------------------------------------------------------------------

ANNA = cards("7s 7h 6d 5c")
BEN = cards("7d 7c As Ah")


def test_setenta_seed_example() -> None:
    """Seed 000, Setenta example (Anna and Ben); RULES.md, Sevens category, ranking.

    Anna 7♠ 7♥ 6♦ 5♣ beats Ben 7♦ 7♣ A♠ A♥: both have two sevens, Anna's 6 beats Ben's ace.
    """
    result = score([ANNA, BEN], ESCOBA)
    assert result.breakdown["sevens"] == (1, 0)
    assert result.breakdown["seven_of_coins"] == (0, 1)
    assert result.breakdown["cards"] == (0, 0)  # 4 : 4
    assert result.breakdown["coins"] == (0, 0)  # 1 : 1
    assert result.points == (1, 1)
    assert setenta_key(mask_of(ANNA)) > setenta_key(mask_of(BEN))


def test_setenta_seed_example_is_symmetric() -> None:
    """Seed 000, Setenta example, with the sides swapped."""
    result = score([BEN, ANNA], ESCOBA)
    assert result.breakdown["sevens"] == (0, 1)


def test_setenta_seed_example_in_the_other_sevens_modes() -> None:
    """Seed 000, Varianten: two sevens each tie in "Nur Siebenen"; primiera 75 against 74."""
    assert score([ANNA, BEN], FOURNIER).breakdown["sevens"] == (0, 0)
    # Anna 21 + 21 + 18 + 15 = 75; Ben 21 + 21 + 16 + 16 = 74.
    assert primiera(mask_of(ANNA)) == 75
    assert primiera(mask_of(BEN)) == 74
    assert score([ANNA, BEN], SCOPA).breakdown["sevens"] == (1, 0)
    assert score([ANNA, BEN], OLD_SETENTA).breakdown["sevens"] == (1, 0)
    assert score([ANNA, BEN], ESCOVA).breakdown["sevens"] == (0, 0)


def test_setenta_uses_the_best_card_of_each_suit() -> None:
    """Seed 000, Setenta: take each suit's best card; lower cards of a suit do not count."""
    anna = (*ANNA, *cards("Ks 2h 3d 4c Jd"))
    ben = (*BEN, *cards("6s 6h 5d 6c"))
    # Anna's best per suit stay 7♠ 7♥ 6♦ 5♣ (her extra cards are lower in their suits).
    # Ben's become 7♦ 7♣ 6♠ 6♥ (a 6 beats an ace; 5♦ and 6♣ are below his sevens), so Ben
    # now wins at the fourth card: 6 against 5.
    assert score([anna, ben], ESCOBA).breakdown["sevens"] == (0, 1)
    # Anna's extra low cards change nothing against the seed's Ben.
    assert score([anna, BEN], ESCOBA).breakdown["sevens"] == (1, 0)


@pytest.mark.parametrize(
    ("better", "worse", "why"),
    [
        ("7d", "6h", "7 beats 6"),
        ("6d", "Ah", "6 beats A"),
        ("Ad", "5h", "A beats 5"),
        ("5d", "4h", "5 beats 4"),
        ("4d", "3h", "4 beats 3"),
        ("3d", "2h", "3 beats 2"),
        ("2d", "Kh", "2 beats the faces"),
        ("2d", "Jh", "2 beats the faces"),
        ("Jd", "", "any card beats a missing suit"),
        ("7d 7h 6s Jc", "7s 7c 6d", "a face beats a missing suit"),
        ("7d 7h 7s Kc", "7c 6d 6h 6s", "more sevens first"),
        ("7d 7h Ac 2s", "7s 7c 5d 4h", "then the next best card"),
        ("7d 6h 5s 4c", "7h 6d 5c 3s", "down to the last card"),
    ],
)
def test_setenta_order(better: str, worse: str, why: str) -> None:
    """RULES.md, Sevens category, ranking: 7, 6, A, 5, 4, 3, 2, faces; missing suit worst."""
    result = score([cards(better), cards(worse)], ESCOBA)
    assert result.breakdown["sevens"] == (1, 0), why
    result = score([cards(worse), cards(better)], ESCOBA)
    assert result.breakdown["sevens"] == (0, 1), why


@pytest.mark.parametrize(("a", "b"), [("Jd", "Kh"), ("Qd", "Js"), ("7d Kh", "7h Jd"), ("", "")])
def test_setenta_faces_are_equal(a: str, b: str) -> None:
    """RULES.md, Sevens category, ranking: the three face cards are equal; a tie scores nothing."""
    assert score([cards(a), cards(b)], ESCOBA).breakdown["sevens"] == (0, 0)


def test_setenta_same_cards_in_other_suits_tie() -> None:
    """Seed 000: "beste gegen beste" compares ranks, not which suit holds them."""
    assert score([cards("7d 6h Ac"), cards("7s 6c Ad")], ESCOBA).breakdown["sevens"] == (0, 0)


# --- seed 000: Beispielrunde ------------------------------------------------------------------


def test_seed_000_example_round() -> None:
    """Seed 000, Abrechnung, Beispielrunde.

    Anna has 23 cards, 4 coins, the setenta and two escobas: 1 + 1 + 2 = 4 points.
    Ben has 6 coins and the 7♦: 2 points. (The piles are one way to make those numbers.)
    """
    anna = cards("Ad 2d 3d 4d") + tuple(c for c in DECK if str(c)[1] == "h")
    anna += cards("As 2s 3s 4s 5s 6s 7s 6c 7c")
    ben = rest_of_deck(anna)
    assert (len(anna), len(ben)) == (23, 17)
    assert sum(1 for c in anna if c in COINS) == 4
    assert sum(1 for c in ben if c in COINS) == 6
    assert Card.parse("7d") in ben
    result = score([anna, ben], ESCOBA, [2, 0])
    assert result.breakdown == {
        "cards": (1, 0),
        "coins": (0, 1),
        "seven_of_coins": (0, 1),
        "sevens": (1, 0),
        "all_sevens": (0, 0),
        "re_bello": (0, 0),
        "napola": (0, 0),
        "sweeps": (2, 0),
    }
    assert result.points == (4, 2)


# --- seed 002: Primiera -----------------------------------------------------------------------


def test_primiera_seed_example() -> None:
    """Seed 002, Primiera; RULES.md: 7♦ 6♥ 7♠ A♣ gives 21 + 18 + 21 + 16 = 76."""
    assert primiera(mask_of(cards("7d 6h 7s Ac"))) == 76
    assert primiera(mask_of(cards("7♦ 6♥ 7♠ A♣")), needs_all_suits=True) == 76


def test_primiera_takes_the_best_card_per_suit() -> None:
    """Seed 002: the value of the best card of each suit; lower cards add nothing."""
    pile = cards("7d 6h 7s Ac") + cards("Ad 2d Kd 5h Jh 4s Qs 2c Kc")
    assert primiera(mask_of(pile)) == 76


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("7d", 21),
        ("6d", 18),
        ("Ad", 16),
        ("5d", 15),
        ("4d", 14),
        ("3d", 13),
        ("2d", 12),
        ("Jd", 10),
        ("Qd", 10),
        ("Kd", 10),
        ("", 0),
        ("Kd Kh Ks Kc", 40),
        ("7d 7h 7s 7c", 84),
    ],
)
def test_primiera_values(text: str, value: int) -> None:
    """RULES.md, Sevens category, primiera: 7=21, 6=18, A=16, 5=15, 4=14, 3=13, 2=12, face=10."""
    assert primiera(mask_of(cards(text))) == value


def test_primiera_full_deck() -> None:
    assert primiera(mask_of(DECK)) == 84


def test_primiera_seed_example_wins_scopa() -> None:
    """Seed 002, Punktevergabe: the higher primiera scores 1."""
    side = cards("7d 6h 7s Ac")
    other = cards("6d 7h 6s 7c")  # 18 + 21 + 18 + 21 = 78
    result = score([side, other], SCOPA)
    assert result.breakdown["sevens"] == (0, 1)
    result = score([side, cards("5d 6s 5h 6c")], SCOPA)  # 15 + 18 + 15 + 18 = 66
    assert result.breakdown["sevens"] == (1, 0)


def test_scopa_primiera_is_computed_for_incomplete_sides() -> None:
    """Seed 002, Hinweise: primiera is always computed, even with a suit missing."""
    three_sevens = cards("7d 7h 7s")  # 63, no clubs
    four_faces = cards("Kd Kh Ks Kc")  # 40, all suits
    result = score([three_sevens, four_faces], SCOPA)
    assert result.breakdown["sevens"] == (1, 0)


def test_primiera_needs_all_suits() -> None:
    """Seed 000, Alte Setenta; RULES.md: with primiera_needs_all_suits a side missing a suit
    cannot win primiera, whatever its sum."""
    three_sevens = cards("7d 7h 7s")
    four_faces = cards("Kd Kh Ks Kc")
    result = score([three_sevens, four_faces], OLD_SETENTA)
    assert result.breakdown["sevens"] == (0, 1)
    assert primiera(mask_of(three_sevens), needs_all_suits=True) < primiera(
        mask_of(four_faces), needs_all_suits=True
    )
    # Nobody complete: nobody scores.
    result = score([three_sevens, cards("7c Kd Kh")], OLD_SETENTA)
    assert result.breakdown["sevens"] == (0, 0)
    # The same through a custom rule set built on scopa.
    rules = SCOPA.replace(primiera_needs_all_suits=True)
    assert score([three_sevens, four_faces], rules).breakdown["sevens"] == (0, 1)


def test_primiera_needs_all_suits_three_sides() -> None:
    """Two complete sides compete; the incomplete one cannot win even with the highest sum."""
    incomplete = cards("7d 7h 7s 6d 6h")
    low = cards("Kd Kh Ks Kc")  # 40
    high = cards("2d 2h 2s 2c")  # 48
    result = score([incomplete, low, high], OLD_SETENTA)
    assert result.breakdown["sevens"] == (0, 0, 1)
    # Two complete sides tying at the top: nobody, even though a third side is incomplete.
    result = score([incomplete, low, cards("Jd Jh Js Jc")], OLD_SETENTA)
    assert result.breakdown["sevens"] == (0, 0, 0)


def test_primiera_tie_scores_nothing() -> None:
    """Seed 002: equal primiera, no point."""
    result = score([cards("7d 6h"), cards("6d 7h")], SCOPA)
    assert result.breakdown["sevens"] == (0, 0)


# --- the scoring table, category by category --------------------------------------------------


@pytest.mark.parametrize("name", RULESETS)
def test_most_cards(name: str) -> None:
    """RULES.md, Scoring a hand: most cards 1 in every preset."""
    result = score([cards("2h 3h 4h"), cards("5s 6s")], RULESETS[name])
    assert result.breakdown["cards"] == (1, 0)
    result = score([cards("2h"), cards("5s 6s")], RULESETS[name])
    assert result.breakdown["cards"] == (0, 1)


@pytest.mark.parametrize("name", RULESETS)
def test_most_cards_tie_20_20(name: str) -> None:
    """Seed 000 and 002: 20 : 20 cards gives nobody the point."""
    rng = random.Random(20)
    deck = list(DECK)
    rng.shuffle(deck)
    result = score([deck[:20], deck[20:]], RULESETS[name])
    assert result.breakdown["cards"] == (0, 0)


@pytest.mark.parametrize("name", RULESETS)
def test_most_coins(name: str) -> None:
    """RULES.md, Scoring a hand: most coins 1 (only the coins suit counts)."""
    side = cards("Ad 2d 3d")
    other = cards("4d 5d Kh Ks Kc Qh Qs")
    result = score([side, other], RULESETS[name])
    assert result.breakdown["coins"] == (1, 0)
    assert result.breakdown["cards"] == (0, 1)


@pytest.mark.parametrize("name", RULESETS)
def test_coins_tie_5_5(name: str) -> None:
    """Seed 000 and 002: 5 : 5 coins gives nobody the point."""
    result = score([cards("Ad 2d 3d 4d 5d"), cards("6d 7d Jd Qd Kd")], RULESETS[name])
    assert result.breakdown["coins"] == (0, 0)
    assert result.breakdown["seven_of_coins"] == (0, 1)


@pytest.mark.parametrize("name", RULESETS)
def test_seven_of_coins(name: str) -> None:
    """RULES.md, Scoring a hand: the seven of coins scores 1 in every preset."""
    result = score([cards("2h"), cards("7d")], RULESETS[name])
    assert result.breakdown["seven_of_coins"] == (0, 1)
    result = score([cards("7h 7s 7c"), cards("2d")], RULESETS[name])
    assert result.breakdown["seven_of_coins"] == (0, 0)


@pytest.mark.parametrize("name", RULESETS)
def test_sweeps_score_one_each(name: str) -> None:
    """RULES.md, Scoring a hand: each sweep 1."""
    result = score([(), ()], RULESETS[name], [3, 1])
    assert result.breakdown["sweeps"] == (3, 1)
    assert result.points == (3, 1)
    result = score([(), (), (), ()], RULESETS[name], [0, 5, 0, 2])
    assert result.points == (0, 5, 0, 2)


@pytest.mark.parametrize("name", RULESETS)
def test_empty_hand_scores_nothing(name: str) -> None:
    result = score([(), ()], RULESETS[name])
    assert result.points == (0, 0)
    assert all(result.breakdown[k] == (0, 0) for k in KEYS)


def test_sevens_category_by_mode() -> None:
    """RULES.md, Scoring a hand: sevens category ranking / sevens / primiera / none."""
    # Side 0: three sevens and nothing else; side 1: 7♣ and 6s in the other suits.
    a = cards("7d 7h 7s")
    b = cards("7c 6d 6h 6s")
    # ranking: (7, 7, 7, -) against (7, 6, 6, 6): a wins at the second card.
    assert score([a, b], ESCOBA).breakdown["sevens"] == (1, 0)
    # sevens: 3 against 1.
    assert score([a, b], FOURNIER).breakdown["sevens"] == (1, 0)
    assert score([a, b], CLASSIC).breakdown["sevens"] == (1, 0)
    # primiera: 63 against 21 + 18 * 3 = 75.
    assert score([a, b], SCOPA).breakdown["sevens"] == (0, 1)
    # primiera needing all suits: a lacks clubs, b is complete.
    assert score([a, b], OLD_SETENTA).breakdown["sevens"] == (0, 1)
    # none.
    assert score([a, b], ESCOVA).breakdown["sevens"] == (0, 0)


def test_most_sevens_tie_two_two() -> None:
    """Seed 000, Nur Siebenen: "zwei zu zwei ist Gleichstand"."""
    result = score([cards("7d 7h 6s 6c"), cards("7s 7c")], FOURNIER)
    assert result.breakdown["sevens"] == (0, 0)
    result = score([cards("7d 7h 7s"), cards("7c 6d 6h 6s")], FOURNIER)
    assert result.breakdown["sevens"] == (1, 0)


def test_escova_has_no_sevens_category() -> None:
    """RULES.md, Scoring a hand: escova's sevens category is none; seed 003 lists no sevens."""
    result = score([SEVENS, cards("6d")], ESCOVA)
    assert result.breakdown["sevens"] == (0, 0)
    assert result.breakdown["all_sevens"] == (0, 0)
    # Most cards (4 : 1) and the 7♦; coins tie 1 : 1.
    assert result.points == (2, 0)


def test_escova_points_example() -> None:
    """Seed 003, Escova: a side with the most cards, the 7♦, the most coins and two escovas."""
    side = cards("7d Ad 2d 3d 4d 5d Kh Ks")
    other = cards("6d Jd 2h")
    result = score([side, other], ESCOVA, [2, 0])
    assert result.breakdown["cards"] == (1, 0)
    assert result.breakdown["coins"] == (1, 0)
    assert result.breakdown["seven_of_coins"] == (1, 0)
    assert result.breakdown["sweeps"] == (2, 0)
    assert result.points == (5, 0)


# --- all coins --------------------------------------------------------------------------------


def test_escova_all_coins_score_two() -> None:
    """RULES.md, Scoring a hand (escova) and seed 003: all 10 diamonds = 2 points."""
    result = score([COINS, cards("Kh Ks Kc")], ESCOVA)
    assert result.breakdown["coins"] == (2, 0)
    # Most cards (10 : 3) and the 7♦ as well: 1 + 2 + 1.
    assert result.points == (4, 0)


def test_escova_nine_coins_score_one() -> None:
    result = score([COINS[:9], (COINS[9],)], ESCOVA)
    assert result.breakdown["coins"] == (1, 0)


@pytest.mark.parametrize("name", ["escoba", "escoba-fournier", "escoba-classic", "scopa"])
def test_all_coins_score_one_without_the_options(name: str) -> None:
    """RULES.md: all coins score 2 only in escova (all_coins_two) or with big_wins."""
    result = score([COINS, cards("Kh Ks Kc")], RULESETS[name])
    assert result.breakdown["coins"] == (1, 0)


def test_all_coins_two_as_an_option_on_escoba() -> None:
    rules = ESCOBA.replace(all_coins_two=True)
    assert score([COINS, cards("Kh")], rules).breakdown["coins"] == (2, 0)
    assert score([cards("Kh"), COINS], rules).breakdown["coins"] == (0, 2)


# --- big wins ---------------------------------------------------------------------------------

BIG = ESCOBA.replace(big_wins=True)


def test_big_wins_cards() -> None:
    """Seed 000, Große Siege; RULES.md: 30+ cards while every other side has < 10 scores 2."""
    rest = [c for c in DECK if c not in COINS and c.value != 7]  # 27 cards
    side = [*rest[:27], *cards("7h 7s 7c")]  # 30 cards
    other = rest_of_deck(side)  # 10 cards: the coins
    assert (len(side), len(other)) == (30, 10)
    # 30 against 10: the other side does not have fewer than 10: only 1.
    assert score([side, other], BIG).breakdown["cards"] == (1, 0)
    # 30 against 9 (one card in nobody's pile): 2.
    assert score([side, other[:9]], BIG).breakdown["cards"] == (2, 0)
    # 31 against 9: 2.
    assert score([[*side, other[9]], other[:9]], BIG).breakdown["cards"] == (2, 0)
    # 29 against 9: 1.
    assert score([side[:29], other[:9]], BIG).breakdown["cards"] == (1, 0)
    # Without big_wins it is 1.
    assert score([side, other[:9]], ESCOBA).breakdown["cards"] == (1, 0)


def test_big_wins_cards_three_sides() -> None:
    """RULES.md: every other side must have fewer than 10."""
    deck = list(DECK)
    assert score([deck[:30], deck[30:39], deck[39:]], BIG).breakdown["cards"] == (2, 0, 0)
    assert score([deck[:30], deck[30:35], deck[35:]], BIG).breakdown["cards"] == (2, 0, 0)
    assert score([deck[:29], deck[29:38], deck[38:]], BIG).breakdown["cards"] == (1, 0, 0)
    four = score([deck[:31], deck[31:34], deck[34:37], deck[37:]], BIG)
    assert four.breakdown["cards"] == (2, 0, 0, 0)


def test_big_wins_all_coins() -> None:
    """Seed 000, Große Siege: all 10 coins score 2 instead of 1."""
    assert score([COINS, cards("Kh")], BIG).breakdown["coins"] == (2, 0)
    assert score([COINS[:9], cards("Kh")], BIG).breakdown["coins"] == (1, 0)


def test_big_wins_all_sevens_make_three() -> None:
    """Seed 000, Große Siege; RULES.md: all four sevens add 1 (setenta plus 7♦ make 3)."""
    result = score([SEVENS, cards("6d 6h 6s 6c")], BIG)
    assert result.breakdown["sevens"] == (1, 0)
    assert result.breakdown["seven_of_coins"] == (1, 0)
    assert result.breakdown["all_sevens"] == (1, 0)
    assert result.points == (3, 0)
    # Without big_wins: 2.
    assert score([SEVENS, cards("6d 6h 6s 6c")], ESCOBA).points == (2, 0)
    # Three sevens are not all sevens.
    assert score([SEVENS[:3], cards("7c 6d")], BIG).breakdown["all_sevens"] == (0, 0)


def test_big_wins_everything() -> None:
    """Seed 000, Große Siege: a crushing hand with every bonus."""
    side = [c for c in DECK if c.suit.value in "dh" or c.value in (6, 7)]
    side += cards("As Ac 2s 2c 3s 3c")
    other = rest_of_deck(side)
    assert len(side) == 10 + 10 + 4 + 6  # coins, cups, 6s and 7s of swords and clubs, six more
    assert len(other) == 10
    other = other[:9]  # one card stays with nobody
    result = score([side, other], BIG, [1, 0])
    assert result.breakdown == {
        "cards": (2, 0),
        "coins": (2, 0),
        "seven_of_coins": (1, 0),
        "sevens": (1, 0),
        "all_sevens": (1, 0),
        "re_bello": (0, 0),
        "napola": (0, 0),
        "sweeps": (1, 0),
    }
    assert result.points == (8, 0)
    assert score([side, other], ESCOBA, [1, 0]).points == (5, 0)


def test_big_wins_in_other_modes() -> None:
    """big_wins combines with every preset (RULES.md, Presets)."""
    # Fournier: most sevens 1, 7♦ 1, all sevens +1.
    result = score([SEVENS, cards("6d")], FOURNIER.replace(big_wins=True))
    assert result.breakdown["all_sevens"] == (1, 0)
    assert result.points == (1 + 1 + 1 + 1, 0)  # cards 4 : 1 as well
    # Escova with big_wins: no sevens category, but all four sevens still add 1.
    result = score([SEVENS, cards("6d")], ESCOVA.replace(big_wins=True))
    assert result.breakdown["sevens"] == (0, 0)
    assert result.breakdown["all_sevens"] == (1, 0)


# --- all sevens bonus -------------------------------------------------------------------------


def test_escoba_classic_all_sevens_bonus() -> None:
    """Seed 003, Scoring: most sevens 1, seven of coins 1, all of the sevens one more."""
    result = score([SEVENS, cards("6d 6h 6s 6c Kd")], CLASSIC)
    assert result.breakdown["sevens"] == (1, 0)
    assert result.breakdown["seven_of_coins"] == (1, 0)
    assert result.breakdown["all_sevens"] == (1, 0)
    # The other side has more cards (5 : 4) and more coins (2 : 1).
    assert result.breakdown["cards"] == (0, 1)
    assert result.breakdown["coins"] == (0, 1)
    assert result.points == (3, 2)


@pytest.mark.parametrize("name", ["escoba", "escoba-fournier", "escoba-primiera", "scopa"])
def test_no_all_sevens_bonus_without_the_options(name: str) -> None:
    result = score([SEVENS, cards("6d")], RULESETS[name])
    assert result.breakdown["all_sevens"] == (0, 0)


@pytest.mark.parametrize("bonus", [0, 1, 2, 5])
def test_all_sevens_bonus_is_its_number(bonus: int) -> None:
    """RULES.md, Rule set options: all_sevens_bonus, extra points for all four sevens."""
    rules = ESCOBA.replace(all_sevens_bonus=bonus)
    assert score([cards("6d"), SEVENS], rules).breakdown["all_sevens"] == (0, bonus)


@pytest.mark.parametrize(("bonus", "expected"), [(0, 1), (1, 1), (2, 2), (3, 3)])
def test_big_wins_and_all_sevens_bonus_give_the_larger(bonus: int, expected: int) -> None:
    """The engine's documented choice: big_wins and all_sevens_bonus give max(bonus, 1)."""
    rules = ESCOBA.replace(big_wins=True, all_sevens_bonus=bonus)
    assert score([SEVENS, cards("6d")], rules).breakdown["all_sevens"] == (expected, 0)
    assert score([SEVENS, cards("6d")], CLASSIC.replace(big_wins=True)).breakdown["all_sevens"] == (
        1,
        0,
    )


# --- ties with three and four sides -----------------------------------------------------------


def test_three_sides_two_best_tie_gives_nobody_the_point() -> None:
    """RULES.md, Scoring a hand: also with 3 sides, if the two best tie, nobody scores."""
    a = cards("Ad 2d 3d Ah 2h")  # 5 cards, 3 coins
    b = cards("4d 5d 6d 3h 4h")  # 5 cards, 3 coins
    c = cards("Kc")  # 1 card, 0 coins
    result = score([a, b, c], ESCOBA)
    assert result.breakdown["cards"] == (0, 0, 0)
    assert result.breakdown["coins"] == (0, 0, 0)


def test_three_sides_lower_tie_does_not_matter() -> None:
    """A tie below the top does not stop the best side scoring."""
    a = cards("Ad 2d 3d Ah 2h 3h")  # 6 cards, 3 coins
    b = cards("4d 5h")
    c = cards("Kc 6d")
    result = score([a, b, c], ESCOBA)
    assert result.breakdown["cards"] == (1, 0, 0)
    assert result.breakdown["coins"] == (1, 0, 0)


def test_three_sides_sevens_modes_tie() -> None:
    a = cards("7d 7h")
    b = cards("7s 7c")
    c = cards("6d 6h 6s 6c")
    assert score([a, b, c], FOURNIER).breakdown["sevens"] == (0, 0, 0)
    # Setenta: (7, 7, -, -) twice against (6, 6, 6, 6): the two 7-7 sides tie at the top.
    assert score([a, b, c], ESCOBA).breakdown["sevens"] == (0, 0, 0)
    # Primiera without needing all suits: 42, 42, 72: c wins.
    assert score([a, b, c], SCOPA).breakdown["sevens"] == (0, 0, 1)


def test_four_sides() -> None:
    """Four players each for themselves: one column per side."""
    piles = [cards("7d Ad 2d"), cards("Kh Ks"), cards("3c"), cards("6h 6s 6c 5c")]
    result = score(piles, ESCOBA, [0, 1, 0, 2])
    assert result.breakdown["cards"] == (0, 0, 0, 1)
    assert result.breakdown["coins"] == (1, 0, 0, 0)
    assert result.breakdown["seven_of_coins"] == (1, 0, 0, 0)
    # Setenta: (7, -, -, -), (face, face, -, -), (3, -, -, -), (6, 6, 6, -): only side 0
    # has a 7, and the first card decides.
    assert result.breakdown["sevens"] == (1, 0, 0, 0)
    assert result.points == (3, 1, 0, 3)


# --- against the reference, over random hands -------------------------------------------------


def random_rules(rng: random.Random) -> RuleSet:
    base = RULESETS[rng.choice(sorted(RULESETS))]
    sevens = rng.choice(["ranking", "sevens", "primiera", "none", base.sevens])
    return base.replace(
        sevens=sevens,
        primiera_needs_all_suits=sevens == "primiera" and rng.random() < 0.5,
        all_coins_two=rng.random() < 0.5,
        big_wins=rng.random() < 0.5,
        all_sevens_bonus=rng.choice([0, 0, 1, 2]),
        re_bello=rng.random() < 0.5,
        napola=rng.random() < 0.5,
    )


def random_piles(rng: random.Random) -> list[list[Card]]:
    sides = rng.choice([2, 2, 3, 4])
    deck = list(DECK)
    rng.shuffle(deck)
    deck = deck[: rng.choice([40, 40, rng.randint(0, 40)])]
    piles: list[list[Card]] = [[] for _ in range(sides)]
    # Lopsided hands now and then, so that big wins and all-coins hands occur.
    weights = [rng.choice([1, 1, 8, 30]) for _ in range(sides)]
    for c in deck:
        piles[rng.choices(range(sides), weights)[0]].append(c)
    if rng.random() < 0.1:
        # Give one side every coin or every seven.
        wanted = set(COINS if rng.random() < 0.5 else SEVENS)
        piles = [[c for c in p if c not in wanted] for p in piles]
        piles[rng.randrange(sides)].extend(wanted)
    return piles


def test_agrees_with_the_rules_on_random_hands() -> None:
    """RULES.md, Scoring a hand, in full: the engine against a scorer written from the text."""
    rng = random.Random(31415)
    for _ in range(1500):
        rules = random_rules(rng)
        piles = random_piles(rng)
        sweeps = [rng.choice([0, 0, 1, 2, 5]) for _ in piles]
        result = score(piles, rules, sweeps)
        expected = reference(piles, sweeps, rules)
        for key in KEYS:
            assert list(result.breakdown[key]) == expected[key], (key, rules, piles)


# --- the result object ------------------------------------------------------------------------


def test_breakdown_keys_and_points_are_the_sum() -> None:
    """DESIGN.md: categories cards, coins, seven_of_coins, sevens, all_sevens, re_bello,
    napola, sweeps."""
    for rules in RULESETS.values():
        result = score_hand([cards("7d Ad"), cards("Kh")], [1, 0], rules)
        check_shape(result, 2)


def test_score_hand_accepts_frozensets_tuples_and_generators_as_piles() -> None:
    anna = frozenset(ANNA)
    result = score_hand((anna, list(BEN)), (0, 0), ESCOBA)
    assert result.points == (1, 1)
    result = score_hand([iter(ANNA), (c for c in BEN)], [0, 0], ESCOBA)
    assert result.points == (1, 1)


def test_breakdown_is_read_only() -> None:
    result = score_hand([ANNA, BEN], [0, 0], ESCOBA)
    with pytest.raises(TypeError):
        result.breakdown["sweeps"] = (9, 9)  # type: ignore[index]
    assert result.breakdown["sweeps"] == (0, 0)


# --- bad input --------------------------------------------------------------------------------


def test_card_in_two_piles() -> None:
    with pytest.raises(InvalidCardError) as info:
        score_hand([cards("7d As"), cards("Kh 7d")], [0, 0], ESCOBA)
    assert "side 1" in str(info.value)
    assert "twice" in str(info.value)


def test_card_twice_in_one_pile() -> None:
    with pytest.raises(InvalidCardError, match="side 0"):
        score_hand([[Card.parse("7d"), Card.parse("7d")], cards("Kh")], [0, 0], ESCOBA)


@pytest.mark.parametrize("bad", ["7d", None, 7])
def test_non_card_in_a_pile(bad: object) -> None:
    with pytest.raises(InvalidCardError) as info:
        score_hand([cards("As"), [Card.parse("Kh"), bad]], [0, 0], ESCOBA)  # type: ignore[list-item]
    message = str(info.value)
    assert "side 1" in message
    assert repr(bad) in message


def test_pile_given_as_text() -> None:
    with pytest.raises(InvalidCardError) as info:
        score_hand(["7d As", cards("Kh")], [0, 0], ESCOBA)  # type: ignore[list-item]
    assert "'7d As'" in str(info.value)


@pytest.mark.parametrize("piles", ["7d As", None, 7])
def test_piles_must_be_a_sequence(piles: object) -> None:
    with pytest.raises(InvalidCardError):
        score_hand(piles, [0, 0], ESCOBA)  # type: ignore[arg-type]


@pytest.mark.parametrize("sides", [0, 1, 5])
def test_wrong_number_of_sides(sides: int) -> None:
    """RULES.md, Seats: 2, 3 or 4 players, so 2 to 4 sides."""
    piles = [[DECK[i]] for i in range(sides)]
    with pytest.raises(EscobaError) as info:
        score_hand(piles, [0] * sides, ESCOBA)
    assert "piles" in str(info.value)
    assert str(sides) in str(info.value)


@pytest.mark.parametrize("sweeps", [[0], [0, 0, 0], []])
def test_wrong_sweeps_length(sweeps: list[int]) -> None:
    with pytest.raises(EscobaError) as info:
        score_hand([ANNA, BEN], sweeps, ESCOBA)
    assert "sweeps" in str(info.value)
    assert str(len(sweeps)) in str(info.value)


@pytest.mark.parametrize("bad", [-1, True, 1.0, "1", None])
def test_bad_sweep_count(bad: object) -> None:
    with pytest.raises(EscobaError) as info:
        score_hand([ANNA, BEN], [0, bad], ESCOBA)  # type: ignore[list-item]
    message = str(info.value)
    assert "sweeps of side 1" in message
    assert repr(bad) in message


@pytest.mark.parametrize("sweeps", ["00", None, 0])
def test_sweeps_must_be_a_sequence(sweeps: object) -> None:
    with pytest.raises(EscobaError, match="sweeps"):
        score_hand([ANNA, BEN], sweeps, ESCOBA)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("piles", "sweeps"),
    [
        ([[DECK[0]]], [0]),  # one side
        ([ANNA, BEN], [0]),  # sweeps too short
        ([ANNA, BEN], [0, -1]),  # negative sweeps
        ([ANNA, BEN], "00"),  # sweeps as text
    ],
)
def test_bad_side_and_sweep_input_are_value_errors(
    piles: Sequence[Collection[Card]], sweeps: Sequence[int]
) -> None:
    """errors.py / DESIGN.md: errors about bad input also derive from ValueError."""
    with pytest.raises(ValueError):
        score_hand(piles, sweeps, ESCOBA)


@pytest.mark.parametrize("rules", ["escoba", None, ESCOBA.to_dict()])
def test_rules_must_be_a_rule_set(rules: object) -> None:
    with pytest.raises(RulesError) as info:
        score_hand([ANNA, BEN], [0, 0], rules)  # type: ignore[arg-type]
    assert "RuleSet" in str(info.value)


# --- regional options (docs/rules.md, "Regional options") ---------------------------------------

SCOPONE = RULESETS["scopone-scientifico"]


def test_re_bello_gives_the_king_of_coins_a_point() -> None:
    """docs/rules.md, re bello: the side that took the king of coins scores 1; without the
    option the king is an ordinary coin."""
    with_king = cards("Kd 2h")
    other = cards("3h 4h")
    on = score([with_king, other], SCOPONE.replace(re_bello=True))
    assert on.breakdown["re_bello"] == (1, 0)
    off = score([with_king, other], SCOPONE)
    assert off.breakdown["re_bello"] == (0, 0)
    assert on.points == (off.points[0] + 1, off.points[1])


@pytest.mark.parametrize(
    ("coins", "points"),
    [
        ("Ad 2d", 0),  # no napola without the 3
        ("Ad 2d 3d", 3),
        ("Ad 2d 3d 4d 6d", 4),  # the run stops at the missing 5
        ("2d 3d 4d 5d", 0),  # it starts with the ace
        ("Ad 2d 3d 4d 5d 6d 7d Jd Qd Kd", 10),
    ],
)
def test_napola_is_the_run_of_coins_from_the_ace(coins: str, points: int) -> None:
    """docs/rules.md, napola: A-2-3 of coins score 3 and each further coin of an unbroken run
    one more; the other side's coins do not break it."""
    rules = SCOPONE.replace(napola=True)
    result = score([cards(coins), cards("Kh")], rules)
    assert result.breakdown["napola"] == (points, 0)
    assert score([cards(coins), cards("Kh")], SCOPONE).breakdown["napola"] == (0, 0)
