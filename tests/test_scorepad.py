"""The score pad (`escoba.scorepad`): counted hands in, the engine's points and the winner out.

Spec: RULES.md, "Scoring a hand" (every category, ties, the options `sevens`, `all_coins_two`,
`all_sevens_bonus`, `big_wins`) and "Winning the match" (`target_score`, `win_by`); "Cards"
for what the counts must add up to (40 cards, 10 coins, 4 sevens, one seven of coins).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import placeholders
from escoba import (
    CATEGORIES,
    DECK,
    RULESETS,
    Card,
    Game,
    InvalidScoreError,
    RulesError,
    RuleSet,
    Suit,
    score_hand,
)
from escoba.catalogue import keys as catalogue_keys
from escoba.catalogue import own_texts
from escoba.messages import LANGUAGES
from escoba.scorepad import (
    NOT_GIVEN,
    HandEntry,
    ScorePad,
    ScorePadError,
    entry_fields,
    tally,
)
from escoba.scoring import primiera, setenta_key

ESCOBA = RULESETS["escoba"]
FOURNIER = RULESETS["escoba-fournier"]
OLD_SETENTA = RULESETS["escoba-primiera"]
CLASSIC = RULESETS["escoba-classic"]
SCOPA = RULESETS["scopa"]
ESCOVA = RULESETS["escova"]


def hand(
    cards: Any = (20, 20),
    coins: Any = (5, 5),
    seven_of_coins: Any = 0,
    sweeps: Any = (0, 0),
    sevens: Any = None,
    sevens_winner: Any = None,
) -> HandEntry:
    """An entry; by default an even hand: only the seven of coins (side 0) scores."""
    return HandEntry(
        cards=cards,
        coins=coins,
        seven_of_coins=seven_of_coins,
        sweeps=sweeps,
        sevens=sevens,
        sevens_winner=sevens_winner,
    )


def one(rules: RuleSet, entry: HandEntry, sides: int = 2) -> dict[str, tuple[int, ...]]:
    """The breakdown of a pad of one hand, with the points as "points"."""
    pad = tally(rules, sides, [entry])
    scored = pad.hands[0]
    assert tuple(scored.breakdown) == CATEGORIES
    for side in range(sides):
        assert scored.points[side] == sum(scored.breakdown[c][side] for c in CATEGORIES)
    return {**scored.breakdown, "points": scored.points}


def refused(rules: RuleSet, entries: Sequence[Any], sides: int = 2, **kw: Any) -> ScorePadError:
    with pytest.raises(ScorePadError) as caught:
        tally(rules, sides, entries, **kw)
    return caught.value


# -- the categories ------------------------------------------------------------------------------


def test_the_docstring_example_hand() -> None:
    """RULES.md, Scoring a hand: cards, coins, seven of coins, setenta and two sweeps: 6 to 1."""
    scored = one(ESCOBA, hand((22, 18), (6, 4), 0, (2, 1), sevens_winner=0))
    assert scored == {
        "cards": (1, 0),
        "coins": (1, 0),
        "seven_of_coins": (1, 0),
        "sevens": (1, 0),
        "all_sevens": (0, 0),
        "re_bello": (0, 0),
        "napola": (0, 0),
        "sweeps": (2, 1),
        "points": (6, 1),
    }


@pytest.mark.parametrize("rules", list(RULESETS.values()), ids=list(RULESETS))
def test_most_cards_one_point_and_a_tie_gives_nobody(rules: RuleSet) -> None:
    """RULES.md, Scoring a hand: most cards 1 in every preset; a tie at the top gives nobody
    the point."""
    extra: dict[str, Any] = {"sevens": (2, 2)} if "sevens" in entry_fields(rules) else {}
    assert one(rules, hand(cards=(21, 19), **extra))["cards"] == (1, 0)
    assert one(rules, hand(cards=(19, 21), **extra))["cards"] == (0, 1)
    assert one(rules, hand(cards=(20, 20), **extra))["cards"] == (0, 0)


def test_three_sides_tie_at_the_top_gives_nobody_even_with_a_lower_side() -> None:
    """RULES.md, Scoring a hand: also with 3 sides, if the two best tie, nobody scores."""
    scored = one(ESCOBA, hand((15, 15, 10), (4, 4, 2), 2, (0, 0, 0)), sides=3)
    assert scored["cards"] == (0, 0, 0)
    assert scored["coins"] == (0, 0, 0)
    scored = one(ESCOBA, hand((16, 14, 10), (3, 4, 3), 2, (0, 0, 0)), sides=3)
    assert scored["cards"] == (1, 0, 0)
    assert scored["coins"] == (0, 1, 0)


def test_most_coins_and_a_coins_tie() -> None:
    """RULES.md, Scoring a hand: most coins 1; 5 against 5 gives nobody the point."""
    assert one(ESCOBA, hand(coins=(6, 4)))["coins"] == (1, 0)
    assert one(ESCOBA, hand(coins=(4, 6)))["coins"] == (0, 1)
    assert one(ESCOBA, hand(coins=(5, 5)))["coins"] == (0, 0)


@pytest.mark.parametrize("holder", [0, 1, 2, 3])
def test_the_seven_of_coins_scores_for_its_holder(holder: int) -> None:
    """RULES.md, Scoring a hand: the seven of coins 1, whoever else took what."""
    scored = one(ESCOBA, hand((10,) * 4, (3, 3, 2, 2), holder, (0,) * 4), sides=4)
    assert scored["seven_of_coins"] == tuple(int(side == holder) for side in range(4))


def test_each_sweep_is_a_point() -> None:
    """RULES.md, Scoring a hand: each sweep 1."""
    assert one(ESCOBA, hand(sweeps=(3, 0)))["sweeps"] == (3, 0)
    assert one(SCOPA, hand(sweeps=(1, 4)))["sweeps"] == (1, 4)


@pytest.mark.parametrize("rules", [ESCOBA, SCOPA, OLD_SETENTA], ids=["setenta", "scopa", "old"])
def test_setenta_and_primiera_go_to_the_named_side_or_to_nobody(rules: RuleSet) -> None:
    """RULES.md, Sevens category: `ranking` and `primiera` score 1 for the best side; the
    players say which side that is (None: a tie at the top)."""
    assert one(rules, hand(sevens_winner=1))["sevens"] == (0, 1)
    assert one(rules, hand(sevens_winner=0))["sevens"] == (1, 0)
    assert one(rules, hand(sevens_winner=None))["sevens"] == (0, 0)


def test_most_sevens_counts_the_sevens() -> None:
    """RULES.md, Sevens category, `sevens` (Fournier): most sevens scores; a tie nobody."""
    assert one(FOURNIER, hand(sevens=(3, 1)))["sevens"] == (1, 0)
    assert one(FOURNIER, hand(sevens=(1, 3), seven_of_coins=1))["sevens"] == (0, 1)
    assert one(FOURNIER, hand(sevens=(2, 2)))["sevens"] == (0, 0)
    scored = one(FOURNIER, hand((14, 13, 13), (4, 3, 3), 0, (0, 0, 0), (1, 2, 1)), sides=3)
    assert scored["sevens"] == (0, 1, 0)
    scored = one(FOURNIER, hand((14, 13, 13), (4, 3, 3), 0, (0, 0, 0), (2, 2, 0)), sides=3)
    assert scored["sevens"] == (0, 0, 0)


def test_no_sevens_category_in_escova() -> None:
    """RULES.md, Scoring a hand: escova's sevens category is none (a winner said is ignored)."""
    assert one(ESCOVA, hand())["sevens"] == (0, 0)
    assert one(ESCOVA, hand(sevens_winner=0))["sevens"] == (0, 0)
    assert entry_fields(ESCOVA) == ("cards", "coins", "seven_of_coins", "sweeps")


def test_all_coins_score_two_in_escova_and_one_elsewhere() -> None:
    """RULES.md, Scoring a hand (escova) and option `all_coins_two`: all 10 coins score 2."""
    assert one(ESCOVA, hand(coins=(10, 0)))["coins"] == (2, 0)
    assert one(ESCOVA, hand(coins=(9, 1)))["coins"] == (1, 0)
    assert one(ESCOBA, hand(coins=(10, 0), sevens_winner=0))["coins"] == (1, 0)
    assert one(ESCOBA.replace(all_coins_two=True), hand(coins=(10, 0), sevens_winner=0))[
        "coins"
    ] == (2, 0)


def test_all_sevens_bonus() -> None:
    """RULES.md, option `all_sevens_bonus` (escoba-classic: 1): all four sevens add the bonus."""
    scored = one(CLASSIC, hand(sevens=(4, 0)))
    assert scored["all_sevens"] == (1, 0)
    assert scored["sevens"] == (1, 0)
    assert one(CLASSIC, hand(sevens=(3, 1)))["all_sevens"] == (0, 0)
    two = FOURNIER.replace(all_sevens_bonus=2)
    assert one(two, hand(sevens=(0, 4), seven_of_coins=1))["all_sevens"] == (0, 2)


def test_big_wins() -> None:
    """RULES.md, option `big_wins`: 30+ cards against fewer than 10 for every other side score
    2; all 10 coins 2; all four sevens add 1, so setenta plus the seven of coins make 3."""
    big = ESCOBA.replace(big_wins=True)
    assert one(big, hand((31, 9), sevens=(2, 2), sevens_winner=0))["cards"] == (2, 0)
    assert one(big, hand((30, 10), sevens=(2, 2), sevens_winner=0))["cards"] == (1, 0)
    scored = one(big, hand((30, 9, 1), (5, 4, 1), 0, (0, 0, 0), (2, 2, 0), 0), sides=3)
    assert scored["cards"] == (2, 0, 0)
    assert one(big, hand((25, 15), (10, 0), sevens=(2, 2), sevens_winner=0))["coins"] == (2, 0)
    scored = one(big, hand((24, 16), (5, 5), sevens=(4, 0), sevens_winner=0))
    assert scored["sevens"] == (1, 0)
    assert scored["seven_of_coins"] == (1, 0)
    assert scored["all_sevens"] == (1, 0)
    # big_wins and all_sevens_bonus name the same extra point: together the larger counts.
    both = CLASSIC.replace(big_wins=True, all_sevens_bonus=2)
    assert one(both, hand(sevens=(4, 0)))["all_sevens"] == (2, 0)


# -- what the players must enter ---------------------------------------------------------------


def test_entry_fields_follow_the_rules() -> None:
    """RULES.md, Sevens category: sevens counted only where they score; a category winner
    only for setenta and primiera."""
    base = ("cards", "coins", "seven_of_coins")
    assert entry_fields(ESCOBA) == (*base, "sevens_winner", "sweeps")
    assert entry_fields(SCOPA) == (*base, "sevens_winner", "sweeps")
    assert entry_fields(OLD_SETENTA) == (*base, "sevens_winner", "sweeps")
    assert entry_fields(FOURNIER) == (*base, "sevens", "sweeps")
    assert entry_fields(CLASSIC) == (*base, "sevens", "sweeps")
    assert entry_fields(ESCOVA) == (*base, "sweeps")
    assert entry_fields(ESCOBA.replace(big_wins=True)) == (
        *base,
        "sevens",
        "sevens_winner",
        "sweeps",
    )
    assert entry_fields(ESCOVA.replace(all_sevens_bonus=1)) == (*base, "sevens", "sweeps")


def test_sevens_may_be_given_where_they_do_not_score() -> None:
    """Sevens given with setenta are checked, and change nothing when consistent."""
    assert one(ESCOBA, hand(sevens=(3, 1), sevens_winner=0)) == one(ESCOBA, hand(sevens_winner=0))


# -- the match ---------------------------------------------------------------------------------


def test_an_empty_pad() -> None:
    pad = tally(ESCOBA, 3, [])
    assert pad == ScorePad(ESCOBA, 3, (), (0, 0, 0), None)
    assert not pad.over


def test_running_totals() -> None:
    """RULES.md, Winning the match: after each hand, add the points."""
    pad = tally(
        ESCOBA,
        2,
        [
            hand((22, 18), (6, 4), 0, (2, 1), sevens_winner=0),
            hand((18, 22), (4, 6), 1, (0, 0), sevens_winner=1),
            hand((20, 20), (5, 5), 0, (0, 0), sevens_winner=None),
        ],
    )
    assert [h.points for h in pad.hands] == [(6, 1), (0, 4), (1, 0)]
    assert [h.totals for h in pad.hands] == [(6, 1), (6, 5), (7, 5)]
    assert [h.number for h in pad.hands] == [1, 2, 3]
    assert pad.totals == (7, 5)
    assert pad.winner is None


def big_hand(side: int, sides: int = 2) -> HandEntry:
    """A hand of 4 points to ``side`` (cards, coins, seven of coins, setenta), 0 to the rest."""
    cards = {2: [22, 18], 3: [16, 12, 12], 4: [13, 9, 9, 9]}[sides]
    coins = {2: [6, 4], 3: [4, 3, 3], 4: [4, 2, 2, 2]}[sides]
    turn = sides - side
    return hand(
        cards[turn:] + cards[:turn], coins[turn:] + coins[:turn], side, (0,) * sides, None, side
    )


def test_the_target_with_a_strict_lead_wins() -> None:
    """RULES.md, Winning the match: a side that reached the target and leads every other side
    by `win_by` (1: a strict lead) wins."""
    rules = ESCOBA.replace(target_score=8)
    pad = tally(rules, 2, [big_hand(0), big_hand(1), big_hand(0)])
    assert pad.totals == (8, 4)
    assert pad.winner == 0
    assert pad.over


def test_a_tie_at_the_target_plays_on() -> None:
    """RULES.md, Winning the match: both at the target without a lead: play another hand."""
    rules = ESCOBA.replace(target_score=4)
    split = hand((22, 18), (6, 4), 1, (0, 0), sevens_winner=1)  # 2 to 2
    pad = tally(rules, 2, [split, split])
    assert (pad.totals, pad.winner, pad.over) == ((4, 4), None, False)
    pad = tally(rules, 2, [split, split, hand(seven_of_coins=1)])
    assert (pad.totals, pad.winner, pad.over) == ((4, 5), 1, True)


def test_win_by_two() -> None:
    """RULES.md, option `win_by` (many tables play Escoba with 2): the target with a lead of
    one is not enough; play on until the lead is two."""
    rules = ESCOBA.replace(target_score=4, win_by=2)
    close = hand((18, 22), (4, 6), 0, (0, 0), sevens_winner=0)  # 2 to 2
    ana = hand(seven_of_coins=0, sevens_winner=None)  # 1 to 0
    pad = tally(rules, 2, [close, close])
    assert (pad.totals, pad.winner) == ((4, 4), None)
    pad = tally(rules, 2, [close, close, ana])
    assert (pad.totals, pad.winner) == ((5, 4), None)
    pad = tally(rules, 2, [close, close, ana, ana])
    assert (pad.totals, pad.winner) == ((6, 4), 0)
    pad = tally(rules.replace(win_by=1), 2, [close, close, ana])
    assert (pad.totals, pad.winner) == ((5, 4), 0)
    first = hand((22, 18), (6, 4), 1, (0, 0), sevens_winner=0)  # 3 to 1
    pad = tally(rules, 2, [first, ana])
    assert (pad.totals, pad.winner) == ((4, 1), 0)


def test_three_sides_the_leader_must_lead_every_side() -> None:
    """RULES.md, Winning the match: at the target, the leader must lead *every* other side by
    `win_by`."""
    rules = FOURNIER.replace(target_score=3, win_by=2)
    first = hand((14, 13, 13), (4, 3, 3), 0, (0, 0, 0), (2, 1, 1))
    pad = tally(rules, 3, [first])
    assert (pad.totals, pad.winner) == ((4, 0, 0), 0)
    close = hand((13, 13, 14), (3, 3, 4), 0, (1, 0, 0), (1, 1, 2))
    pad = tally(rules, 3, [close])
    assert (pad.totals, pad.winner) == ((2, 0, 3), None)  # 3 ahead of side 1, 1 of side 0
    more = hand((14, 14, 12), (4, 4, 2), 2, (0, 0, 0), (1, 1, 2))
    pad = tally(rules, 3, [close, more])
    assert (pad.totals, pad.winner) == ((2, 0, 5), 2)


def test_no_hand_after_the_match_is_won() -> None:
    """RULES.md, Winning the match: the match ends with the winning hand."""
    rules = ESCOBA.replace(target_score=4)
    error = refused(rules, [big_hand(1), big_hand(0)], names=["Ana", "Ben"])
    assert error.code == "match_over"
    assert error.hand == 2
    assert str(error) == "Hand 2: the match was already won after hand 1 by Ben: start a new pad"


def test_four_sides_and_the_target() -> None:
    """RULES.md, Seats, sides: up to 4 sides; a custom target (seed 000: 15)."""
    rules = ESCOBA.replace(target_score=15)
    pad = tally(rules, 4, [big_hand(2, 4)] * 3)
    assert pad.totals == (0, 0, 12, 0)
    assert pad.winner is None
    pad = tally(rules, 4, [big_hand(2, 4)] * 4)
    assert pad.winner == 2
    assert pad.totals == (0, 0, 16, 0)


# -- refusals: each names the hand, the side and the field ----------------------------------


@pytest.mark.parametrize(
    ("entry", "code", "message"),
    [
        (
            hand(cards=(20, 19)),
            "cards_total",
            "Hand 1, cards: the sides took 39 cards in all, but the deck has 40",
        ),
        (
            hand(coins=(6, 5)),
            "coins_total",
            "Hand 1, coins: the sides took 11 coins in all, but there are 10",
        ),
        (
            hand(sevens=(2, 1)),
            "sevens_total",
            "Hand 1, sevens: the sides took 3 sevens in all, but there are 4",
        ),
        (
            hand(cards=(41, -1)),
            "not_whole",
            "Hand 1, Ben, cards: must be a whole number, 0 or more, not -1",
        ),
        (
            hand(coins=(5, 5.0)),
            "not_whole",
            "Hand 1, Ben, coins: must be a whole number, 0 or more, not 5.0",
        ),
        (
            hand(sweeps=(True, 0)),
            "not_whole",
            "Hand 1, Ana, sweeps: must be a whole number, 0 or more, not True",
        ),
        (
            hand(sweeps=("1", 0)),
            "not_whole",
            "Hand 1, Ana, sweeps: must be a whole number, 0 or more, not '1'",
        ),
        (hand(cards=(20, None)), "missing", "Hand 1, Ben, cards: is missing"),
        (hand(cards=None), "missing", "Hand 1, cards: is missing"),
        (
            hand(cards=(20, 10, 10)),
            "per_side",
            "Hand 1, cards: needs one number per side (2), not [20, 10, 10]",
        ),
        (
            hand(coins="55"),
            "per_side",
            "Hand 1, coins: needs one number per side (2), not '55'",
        ),
        (
            hand(seven_of_coins=None),
            "holder_needed",
            "Hand 1, seven of coins: exactly one side took the seven of coins: say which",
        ),
        (
            hand(seven_of_coins=2),
            "not_a_side",
            "Hand 1, seven of coins: 2 is not a side: give a side from 0 to 1",
        ),
        (
            hand(seven_of_coins=True),
            "not_a_side",
            "Hand 1, seven of coins: True is not a side: give a side from 0 to 1",
        ),
        (
            hand(seven_of_coins=1, coins=(10, 0)),
            "holder_coins",
            "Hand 1, Ben, coins: this side took the seven of coins, so it has at least 1 coin",
        ),
        (
            hand(seven_of_coins=1, sevens=(4, 0)),
            "holder_sevens",
            "Hand 1, Ben, sevens: this side took the seven of coins, so it has at least 1 seven",
        ),
        (
            hand(cards=(35, 5), coins=(4, 6)),
            "over_cards",
            "Hand 1, Ben, coins: 6 is more than the 5 cards this side took",
        ),
        (
            hand(cards=(37, 3), coins=(8, 2), sevens=(0, 4), seven_of_coins=1),
            "over_cards",
            "Hand 1, Ben, sevens: 4 is more than the 3 cards this side took",
        ),
        (
            hand(cards=(36, 4), coins=(7, 3), sevens=(1, 3), seven_of_coins=0),
            "coins_and_sevens",
            "Hand 1, Ben, cards: 3 coins and 3 sevens make at least 6 cards, not 4",
        ),
        (
            hand(cards=(35, 5), coins=(8, 2), sweeps=(0, 3)),
            "sweeps_cards",
            "Hand 1, Ben, sweeps: 3 sweeps take at least 6 cards (2 or more each), not 5",
        ),
    ],
)
def test_refusals_name_hand_side_and_field(entry: HandEntry, code: str, message: str) -> None:
    """RULES.md, Cards: 40 cards, 10 coins, four sevens, one seven of coins; counts are whole
    numbers; a sweep takes the played card and at least one more."""
    rules = FOURNIER
    fine = hand(sevens=(2, 2))
    if entry.sevens is None:
        entry = HandEntry(
            cards=entry.cards,
            coins=entry.coins,
            seven_of_coins=entry.seven_of_coins,
            sweeps=entry.sweeps,
            sevens=(2, 2),
        )
    error = refused(rules, [fine, entry], names=["Ana", "Ben"])
    assert error.code == code
    assert str(error) == message.replace("Hand 1", "Hand 2")
    assert error.hand == 2
    assert isinstance(error, InvalidScoreError)
    assert isinstance(error, ValueError)


def test_refusals_without_names_speak_of_sides_from_zero() -> None:
    error = refused(ESCOBA, [hand(cards=(20, -20), sevens_winner=0)])
    assert str(error) == "Hand 1, side 1, cards: must be a whole number, 0 or more, not -20"
    assert (error.hand, error.side, error.field) == (1, 1, "cards")


def test_sevens_must_be_counted_when_they_score() -> None:
    """RULES.md: `sevens` mode, `all_sevens_bonus` and `big_wins` all need the sevens."""
    for rules in (
        FOURNIER,
        CLASSIC,
        ESCOBA.replace(big_wins=True),
        ESCOVA.replace(all_sevens_bonus=1),
    ):
        error = refused(rules, [hand(sevens_winner=0)])
        assert error.code == "sevens_needed"
        assert str(error) == (
            "Hand 1, sevens: these rules count sevens: give each side's number of sevens"
        )


def test_the_sevens_winner_must_be_said() -> None:
    """RULES.md, Sevens category: with setenta or primiera somebody (or nobody) wins it."""
    entry = HandEntry(cards=(20, 20), coins=(5, 5), seven_of_coins=0, sweeps=(0, 0))
    assert entry.sevens_winner is NOT_GIVEN
    error = refused(ESCOBA, [entry])
    assert error.code == "winner_needed"
    assert str(error) == (
        "Hand 1, setenta winner: say which side wins the setenta, or that nobody does"
    )
    error = refused(SCOPA, [entry])
    assert str(error) == (
        "Hand 1, primiera winner: say which side wins the primiera, or that nobody does"
    )
    assert tally(FOURNIER, 2, [hand(sevens=(2, 2))]).totals == (1, 0)  # not asked there
    error = refused(SCOPA, [hand(sevens_winner=3)])
    assert str(error) == "Hand 1, primiera winner: 3 is not a side: give a side from 0 to 1"


@pytest.mark.parametrize(
    ("rules", "entry", "code", "message"),
    [
        (
            ESCOBA,
            hand(sevens=(3, 1), sevens_winner=1),
            "winner_most_sevens",
            "Ana has the most sevens, so it wins the setenta",
        ),
        (
            ESCOBA,
            hand(sevens=(3, 1), sevens_winner=None),
            "winner_most_sevens",
            "Ana has the most sevens, so it wins the setenta",
        ),
        (
            SCOPA,
            hand(sevens=(4, 0), sevens_winner=None),
            "winner_all_sevens",
            "Ana took all four sevens, so it wins the primiera",
        ),
        (
            SCOPA,
            hand(cards=(40, 0), coins=(10, 0), sevens_winner=1),
            "winner_all_cards",
            "Ana took every card, so it wins the primiera",
        ),
        (
            ESCOBA.replace(target_score=5),
            hand(cards=(40, 0, 0), coins=(10, 0, 0), sweeps=(0, 0, 0), sevens_winner=2),
            "winner_all_cards",
            "Ana took every card, so it wins the setenta",
        ),
        (
            ESCOBA,
            hand(
                cards=(20, 20, 0),
                coins=(5, 5, 0),
                sweeps=(0, 0, 0),
                sevens=(2, 2, 0),
                sevens_winner=2,
            ),
            "winner_no_cards",
            "Cy took no cards, so it cannot win the setenta",
        ),
        (
            ESCOBA,
            hand(
                cards=(14, 13, 13),
                coins=(4, 3, 3),
                sweeps=(0, 0, 0),
                sevens=(2, 2, 0),
                sevens_winner=2,
            ),
            "winner_fewer_sevens",
            "Cy has fewer sevens than Ana, so it cannot win the setenta",
        ),
        (
            OLD_SETENTA,
            hand(cards=(37, 3), coins=(8, 2), sevens_winner=1),
            "winner_missing_suit",
            "Ben cannot hold every suit (3 cards, 2 coins), so it cannot win the primiera",
        ),
        (
            OLD_SETENTA,
            hand(cards=(30, 10), coins=(10, 0), sevens_winner=1),
            "winner_missing_suit",
            "Ben cannot hold every suit (10 cards, 0 coins), so it cannot win the primiera",
        ),
        (
            OLD_SETENTA,
            hand(cards=(35, 5), coins=(5, 5), seven_of_coins=1, sevens_winner=1),
            "winner_missing_suit",
            "Ben cannot hold every suit (5 cards, 5 coins), so it cannot win the primiera",
        ),
    ],
)
def test_what_the_counts_decide_about_the_sevens_winner(
    rules: RuleSet, entry: HandEntry, code: str, message: str
) -> None:
    """RULES.md, Sevens category: setenta compares the best card of each suit, sevens first, so
    the most sevens win it; all four sevens win setenta and primiera (84 beats any 72); a side
    without cards cannot win; with `primiera_needs_all_suits` a side missing a suit cannot."""
    sides = len(entry.cards)
    error = refused(rules, [entry], sides=sides, names=["Ana", "Ben", "Cy"][:sides])
    assert error.code == code
    assert error.field == "sevens_winner"
    assert str(error).endswith(": " + message)


def test_the_winner_checks_allow_every_real_outcome() -> None:
    """A tie at the top of the sevens is open: either side, or nobody."""
    for winner in (0, 1, None):
        one(ESCOBA, hand(sevens=(2, 2), sevens_winner=winner))
    one(OLD_SETENTA, hand(cards=(36, 4), coins=(9, 1), sevens_winner=1, seven_of_coins=0))


@pytest.mark.parametrize(
    ("sides", "names", "message"),
    [
        (1, None, "sides: a score pad has 2 to 4 sides, not 1"),
        (5, None, "sides: a score pad has 2 to 4 sides, not 5"),
        ("2", None, "sides: a score pad has 2 to 4 sides, not '2'"),
        (True, None, "sides: a score pad has 2 to 4 sides, not True"),
        (2, ["Ana"], "names: one name per side (2), not 1"),
        (2, ["Ana", " "], "side 1, names: a name is some text, not ' '"),
        (2, "Ana Ben", "names: must be a list, not 'Ana Ben'"),
    ],
)
def test_refusals_of_the_pad_itself(sides: Any, names: Any, message: str) -> None:
    error = refused(ESCOBA, [], sides=sides, names=names)
    assert str(error) == message


def test_a_hand_must_be_an_entry() -> None:
    error = refused(ESCOBA, [{"cards": [20, 20]}])
    assert str(error) == "Hand 1: is not a hand's entry: {'cards': [20, 20]}"
    error = refused(ESCOBA, "hands")
    assert str(error) == "hands: must be a list, not 'hands'"


def test_rules_must_be_a_rule_set() -> None:
    with pytest.raises(RulesError, match="rules must be a RuleSet"):
        tally("escoba", 2, [])  # type: ignore[arg-type]


# -- the texts ---------------------------------------------------------------------------------


def test_refusals_in_every_language() -> None:
    """The pad's messages come in every language of the project."""
    error = refused(ESCOBA, [hand(coins=(7, 4), sevens_winner=0)], names=["Ana", "Ben"])
    assert error.text("de") == "Runde 1, Karo: alle Seiten zusammen haben 11 Karo, es gibt aber 10"
    assert error.text("es") == "Mano 1, oros: entre todos los bandos suman 11 oros, pero hay 10"
    assert (
        error.text("it") == "Mano 1, denari: tutte le squadre insieme hanno 11 denari, ma sono 10"
    )
    error = refused(ESCOBA, [hand(cards=(20, -1), sevens_winner=0)])
    assert error.text("de") == "Runde 1, Seite 1, Karten: muss eine ganze Zahl ab 0 sein, nicht -1"
    assert error.text("xx") == str(error)
    error = refused(SCOPA, [hand(sevens=(4, 0), sevens_winner=1)], names=["Ana", "Ben"])
    assert error.text("it") == (
        "Mano 1, vincitore della primiera: Ana ha preso i quattro sette, quindi vince la primiera"
    )


@pytest.mark.parametrize("key", sorted(key for key in catalogue_keys() if key.startswith("pad.")))
def test_every_text_in_every_language_with_the_same_placeholders(key: str) -> None:
    texts = {language: own_texts(language).get(key) for language in LANGUAGES}
    assert all(isinstance(texts[language], str) for language in LANGUAGES), key
    for language in LANGUAGES:
        shown = str(texts[language])
        assert shown.strip()
        assert placeholders(shown) == placeholders(str(texts["en"])), (key, language)


# -- the pad and the engine agree --------------------------------------------------------------

OPTION_CHANGES: dict[str, st.SearchStrategy[Any]] = {
    "sevens": st.sampled_from(["ranking", "sevens", "primiera", "none"]),
    "primiera_needs_all_suits": st.booleans(),
    "all_coins_two": st.booleans(),
    "all_sevens_bonus": st.integers(0, 3),
    "big_wins": st.booleans(),
    "re_bello": st.booleans(),
    "napola": st.booleans(),
}


@st.composite
def scoring_rules(draw: st.DrawFn) -> RuleSet:
    """A preset, or a preset with its scoring options changed to valid values."""
    rules = RULESETS[draw(st.sampled_from(sorted(RULESETS)))]
    if draw(st.booleans()):
        changes = draw(st.fixed_dictionaries({}, optional=OPTION_CHANGES))
        if (rules.to_dict() | changes)["sevens"] != "primiera":
            changes["primiera_needs_all_suits"] = False
        rules = rules.replace(**changes)
    return rules


def sevens_winner(piles: Sequence[frozenset[Card]], rules: RuleSet) -> int | None:
    """What the players find when they compare their cards (RULES.md, Sevens category)."""
    masks = [sum(card.bit for card in pile) for pile in piles]
    standing: list[Any]
    if rules.sevens == "ranking":
        standing = [setenta_key(mask) for mask in masks]
    else:
        standing = [primiera(mask, rules.primiera_needs_all_suits) for mask in masks]
    best = max(standing)
    if standing.count(best) > 1 or best == -1:
        return None
    return standing.index(best)


def counted(
    piles: Sequence[frozenset[Card]], sweeps: Sequence[int], rules: RuleSet, with_sevens: bool
) -> HandEntry:
    """The entry players make from real piles."""
    seven_of_coins, king_of_coins = Card.parse("7d"), Card.parse("Kd")
    needed = entry_fields(rules)
    return HandEntry(
        cards=[len(pile) for pile in piles],
        coins=[sum(1 for c in pile if c.suit is Suit.COINS) for pile in piles],
        seven_of_coins=next(side for side, pile in enumerate(piles) if seven_of_coins in pile),
        sweeps=list(sweeps),
        sevens=[sum(1 for c in pile if c.value == 7) for pile in piles]
        if with_sevens or "sevens" in needed
        else None,
        sevens_winner=sevens_winner(piles, rules) if "sevens_winner" in needed else NOT_GIVEN,
        king_of_coins=next(side for side, pile in enumerate(piles) if king_of_coins in pile)
        if with_sevens or "king_of_coins" in needed
        else None,
        coin_runs=[coin_run(pile) for pile in piles]
        if with_sevens or "coin_runs" in needed
        else None,
    )


def coin_run(pile: frozenset[Card]) -> int:
    """The run of coins from the ace a side counts for napola: A, 2, 3... until one is missing."""
    coins = {card.value for card in pile if card.suit is Suit.COINS}
    return next(value - 1 for value in range(1, 12) if value not in coins)


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=scoring_rules(),
    sides=st.integers(2, 4),
    data=st.data(),
    with_sevens=st.booleans(),
)
def test_counts_of_real_piles_score_as_the_engine_scores_the_piles(
    rules: RuleSet, sides: int, data: st.DataObject, with_sevens: bool
) -> None:
    """RULES.md, Scoring a hand: for any deal of the 40 cards among the sides, the counts the
    players enter give exactly the points of `score_hand` on the piles, category by category;
    and no real hand is refused."""
    owners = data.draw(st.lists(st.integers(0, sides - 1), min_size=40, max_size=40))
    piles = [
        frozenset(c for c, owner in zip(DECK, owners, strict=True) if owner == s)
        for s in range(sides)
    ]
    sweeps = [data.draw(st.integers(0, len(pile) // 2)) for pile in piles]
    engine = score_hand(piles, sweeps, rules)
    pad = tally(rules, sides, [counted(piles, sweeps, rules, with_sevens)])
    assert pad.hands[0].points == engine.points
    assert dict(pad.hands[0].breakdown) == dict(engine.breakdown)


def lopsided_piles(rng: random.Random, sides: int) -> list[frozenset[Card]]:
    """Deals that reach the edges: one side takes most cards, all coins or all sevens."""
    deck = list(DECK)
    rng.shuffle(deck)
    greedy = rng.randrange(sides)
    owners = [greedy if rng.random() < 0.85 else rng.randrange(sides) for _ in deck]
    return [frozenset(c for c, o in zip(deck, owners, strict=True) if o == s) for s in range(sides)]


@pytest.mark.parametrize("seed", range(300))
def test_lopsided_deals_agree_with_the_engine(seed: int) -> None:
    """RULES.md, big_wins / all_coins_two / all four sevens: the edges of the counts agree."""
    rng = random.Random(seed)
    sides = rng.choice([2, 3, 4])
    rules = rng.choice(list(RULESETS.values())).replace(
        big_wins=rng.random() < 0.5, all_sevens_bonus=rng.choice([0, 1, 2])
    )
    piles = lopsided_piles(rng, sides)
    sweeps = [rng.randint(0, len(pile) // 2) for pile in piles]
    engine = score_hand(piles, sweeps, rules)
    pad = tally(rules, sides, [counted(piles, sweeps, rules, True)])
    assert dict(pad.hands[0].breakdown) == dict(engine.breakdown)


@pytest.mark.parametrize(
    ("preset", "players", "partnerships", "seed"),
    [
        ("escoba", 2, False, 1),
        ("escoba-fournier", 3, False, 2),
        ("escoba-primiera", 4, True, 3),
        ("escoba-classic", 4, False, 4),
        ("scopa", 2, False, 5),
        ("escova", 3, False, 6),
        ("scopa", 4, True, 7),
    ],
)
def test_a_whole_match_on_the_pad(preset: str, players: int, partnerships: bool, seed: int) -> None:
    """RULES.md, Winning the match: a match played by the engine, entered hand by hand, gives
    the engine's points, totals and winner."""
    rules = RULESETS[preset]
    game = Game(rules, players, partnerships, seed=seed)
    rng = random.Random(seed)
    while not game.is_over():
        game.play(rng.choice(game.legal_moves()))
    sides = len(game.totals)
    entries = [counted(r.piles, r.sweeps, rules, False) for r in game.results]
    pad = tally(rules, sides, entries)
    assert [h.points for h in pad.hands] == [r.points for r in game.results]
    assert pad.totals == game.totals
    assert pad.winner == game.winner
    assert pad.over


# -- re bello and napola (issue 18) ---------------------------------------------------------------

REGIONAL = SCOPA.replace(re_bello=True, napola=True)


def regional(king: Any = 1, runs: Any = (0, 4), **changes: Any) -> HandEntry:
    """An even scopa hand but for side 0's seven of coins, side 1's king and run of coins."""
    entry = hand(sevens_winner=None, **changes)
    return HandEntry(
        cards=entry.cards,
        coins=entry.coins,
        seven_of_coins=entry.seven_of_coins,
        sweeps=entry.sweeps,
        sevens_winner=entry.sevens_winner,
        king_of_coins=king,
        coin_runs=runs,
    )


def test_re_bello_and_napola_score_the_king_and_the_run_of_coins() -> None:
    """Re bello: the king of coins, 1; napola: A-2-3 of coins 3, one more for each coin after
    them (A-2-3-4: 4); a run of 1 or 2 scores nothing."""
    assert entry_fields(REGIONAL)[-3:] == ("king_of_coins", "coin_runs", "sweeps")
    scored = one(REGIONAL, regional())
    assert scored["re_bello"] == (0, 1) and scored["napola"] == (0, 4)
    assert scored["points"] == (1, 5)
    assert one(REGIONAL, regional(runs=(2, 0)))["napola"] == (0, 0)
    # Without the options the same counts score neither (and need not be given).
    assert one(SCOPA, regional())["points"] == (1, 0)
    assert one(SCOPA, hand(sevens_winner=None))["re_bello"] == (0, 0)


@pytest.mark.parametrize(
    ("entry", "code", "field", "words"),
    [
        (regional(king=None), "king_needed", "king_of_coins", "say which side took the king"),
        (regional(runs=None), "runs_needed", "coin_runs", "run of coins from the ace"),
        (regional(king=2), "not_a_side", "king_of_coins", "not a side"),
        (regional(runs=(3, 4)), "one_run", "coin_runs", "only one side"),
        (regional(runs=(0, 6)), "run_over_coins", "coin_runs", "a run of 6 is more than the 5"),
        (regional(runs=(0, 7), coins=(3, 7)), "run_seven", "coin_runs", "seven of coins"),
        (regional(runs=(10, 0), coins=(10, 0)), "king_coins", "coins", "at least 1 coin"),
        (regional(king=0, coins=(1, 9)), "king_coins", "coins", "at least 2 coins"),
    ],
)
def test_a_king_or_a_run_that_cannot_be_is_refused(
    entry: HandEntry, code: str, field: str, words: str
) -> None:
    error = refused(REGIONAL, [entry])
    assert (error.code, error.field, error.hand) == (code, field, 1)
    assert words in str(error)
    assert error.text("it") != str(error) and "{" not in error.text("it")


def test_a_scopone_match_with_re_bello_and_napola_on_the_pad() -> None:
    """Issue 18: a Scopone match, four in partnerships, entered hand by hand with the king
    of coins and the runs, gives the engine's points, totals and winner."""
    rules = RULESETS["scopone-scientifico"].replace(re_bello=True, napola=True)
    game = Game(rules, 4, True, seed=8)
    rng = random.Random(8)
    while not game.is_over():
        game.play(rng.choice(game.legal_moves()))
    pad = tally(rules, 2, [counted(r.piles, r.sweeps, rules, False) for r in game.results])
    assert [h.points for h in pad.hands] == [r.points for r in game.results]
    assert (pad.totals, pad.winner) == (game.totals, game.winner)
