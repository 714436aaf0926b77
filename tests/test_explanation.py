"""Explained scoring: the counts behind every category of a hand's score.

Spec: RULES.md, "Scoring a hand" (the categories, ties, the sevens category by option) and
"A hand" step 5 (the leftovers go to the last capturer); seeds 000 (Setenta) and 002
(Primiera) for the worked examples.
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Sequence
from types import MappingProxyType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import play_hand, shares_out
from escoba import (
    CATEGORIES,
    RULESETS,
    Card,
    Game,
    HandResult,
    InvalidScoreError,
    RulesError,
    RuleSet,
    explain_hand,
    parse_cards,
    score_hand,
)

# RULES.md, Sevens category: the order 7, 6, A, 5, 4, 3, 2, then the three faces (equal) ...
SETENTA_ORDER = {"7": 8, "6": 7, "A": 6, "5": 5, "4": 4, "3": 3, "2": 2, "J": 1, "Q": 1, "K": 1}
# ... and primiera's points 7=21, 6=18, A=16, 5=15, 4=14, 3=13, 2=12, face=10.
PRIMIERA_POINTS = {"7": 21, "6": 18, "A": 16, "5": 15, "4": 14, "3": 13, "2": 12}


def points_of(card: Card) -> int:
    return PRIMIERA_POINTS.get(card.rank.value, 10)


def single_top(values: Sequence[Any]) -> int | None:
    """RULES.md: the single best side scores; a tie at the top gives nobody the point."""
    best = max(values)
    return values.index(best) if list(values).count(best) == 1 else None


def winners(points: Sequence[int]) -> list[int]:
    return [side for side, gained in enumerate(points) if gained]


def result_of(
    piles: Sequence[str],
    rules: RuleSet,
    *,
    sweeps: Sequence[int] | None = None,
    leftovers: str = "",
    last_capturer: int | None = None,
) -> HandResult:
    """A finished hand with these piles, scored by the engine's scorer."""
    cards = [frozenset(parse_cards(pile)) for pile in piles]
    swept = tuple(sweeps or [0] * len(piles))
    score = score_hand(cards, swept, rules)
    return HandResult(
        dealer=0,
        piles=tuple(cards),
        sweeps=swept,
        points=score.points,
        breakdown=score.breakdown,
        leftovers=frozenset(parse_cards(leftovers)),
        last_capturer=last_capturer,
    )


# --- the explanation's comparisons give the result's breakdown ----------------------------------


@st.composite
def finished_hands(draw: st.DrawFn) -> tuple[HandResult, RuleSet, Game]:
    """The first hand of a match of any preset, with or without re bello and napola, 2, 3 or
    4 players (those the deck shares out among; 4 in partnerships or not), played with random
    legal moves."""
    rules = RULESETS[draw(st.sampled_from(sorted(RULESETS)))]
    if draw(st.booleans()):
        rules = rules.replace(big_wins=draw(st.booleans()), all_coins_two=draw(st.booleans()))
    if draw(st.booleans()):
        rules = rules.replace(re_bello=draw(st.booleans()), napola=draw(st.booleans()))
    players = draw(st.sampled_from([n for n in (2, 3, 4) if shares_out(rules, n)]))
    partnerships = players == 4 and draw(st.booleans())
    seed = draw(st.integers(0, 2**32))
    game = Game(rules, players=players, partnerships=partnerships, seed=seed)
    return play_hand(game, random.Random(seed)), rules, game


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand=finished_hands())
def test_the_explanation_reproduces_every_category(
    hand: tuple[HandResult, RuleSet, Game],
) -> None:
    """RULES.md, Scoring a hand: every category's points follow from the counts shown."""
    result, rules, game = hand
    why = explain_hand(result, rules)
    sides = why.sides
    assert len(sides) == len(game.sides)
    assert why.points == result.points
    assert dict(why.breakdown) == dict(result.breakdown)
    assert tuple(why.breakdown) == CATEGORIES
    # The counts are the piles', and the 40 cards, 10 coins and 4 sevens are all accounted for.
    for tally, pile in zip(sides, result.piles, strict=True):
        assert set(tally.pile) == pile and tally.cards == len(pile)
        assert tally.coins == sum(card.suit.value == "d" for card in pile)
        assert tally.sevens == tuple(sorted(c for c in pile if c.rank.value == "7"))
    if result.last_capturer is None:  # RULES.md, A hand, step 5: the table stays uncounted
        return
    assert sum(s.cards for s in sides) == 40 and sum(s.coins for s in sides) == 10
    assert sum(len(s.sevens) for s in sides) == 4
    # Most cards and most coins: the single top side scores (2 under big wins / all coins).
    cards, coins = [s.cards for s in sides], [s.coins for s in sides]
    top = single_top(cards)
    assert winners(result.breakdown["cards"]) == ([] if top is None else [top])
    if top is not None:
        big = rules.big_wins and cards[top] >= 30 and sorted(cards)[-2] < 10
        assert result.breakdown["cards"][top] == (2 if big else 1)
    top = single_top(coins)
    assert winners(result.breakdown["coins"]) == ([] if top is None else [top])
    if top is not None:
        two = (rules.all_coins_two or rules.big_wins) and coins[top] == 10
        assert result.breakdown["coins"][top] == (2 if two else 1)
    # The seven of coins: the side that took it.
    assert why.seven_of_coins_side is not None
    assert winners(result.breakdown["seven_of_coins"]) == [why.seven_of_coins_side]
    # The sevens category, compared as RULES.md says for the rule set's option.
    assert why.sevens_mode == rules.sevens
    for tally in sides:
        for suit_best, points in zip(tally.best, tally.best_points, strict=True):
            assert (suit_best is None) == (points == 0)
            if suit_best is not None:
                same_suit = [c for c in tally.pile if c.suit is suit_best.suit]
                assert points == points_of(suit_best) == max(map(points_of, same_suit))
        assert tally.primiera == sum(points_of(c) for c in tally.ranked_best)
        assert tally.complete == (len(tally.ranked_best) == 4)
    if rules.sevens == "ranking":
        keys = [
            [SETENTA_ORDER[c.rank.value] for c in s.ranked_best] + [0] * (4 - len(s.ranked_best))
            for s in sides
        ]
        assert [list(s.setenta) for s in sides] == keys
        top = single_top(keys)
    elif rules.sevens == "sevens":
        top = single_top([len(s.sevens) for s in sides])
    elif rules.sevens == "primiera":
        standing = [
            -1 if rules.primiera_needs_all_suits and not s.complete else s.primiera for s in sides
        ]
        assert [s.standing for s in sides] == standing
        top = single_top(standing) if max(standing) >= 0 else None
    else:
        top = None
        assert all(s.standing is None for s in sides)
    assert winners(result.breakdown["sevens"]) == ([] if top is None else [top])
    # All four sevens, and the sweeps.
    bonus = max(rules.all_sevens_bonus, 1 if rules.big_wins else 0)
    assert result.breakdown["all_sevens"] == tuple(bonus * s.all_sevens for s in sides)
    assert result.breakdown["sweeps"] == tuple(s.sweeps for s in sides) == result.sweeps
    # Re bello: the side that took the king of coins; napola: a run of coins from the ace,
    # 3 points for A-2-3 and one more for each coin after.
    assert why.king_of_coins_side is not None and (why.re_bello, why.napola) == (
        rules.re_bello,
        rules.napola,
    )
    assert result.breakdown["re_bello"] == tuple(
        int(rules.re_bello and s.side == why.king_of_coins_side) for s in sides
    )
    for tally in sides:
        coin_ranks = {c.value for c in tally.pile if c.suit.value == "d"}
        run = next(n for n in range(11) if n + 1 not in coin_ranks)
        assert tally.coin_run == run
        points = run if rules.napola and run >= 3 else 0
        assert result.breakdown["napola"][tally.side] == points
    # RULES.md, A hand, step 5: the leftovers went to the last capturer's side.
    assert set(why.leftovers) == result.leftovers
    assert why.last_capturer == result.last_capturer
    if why.leftovers:
        assert why.last_capturer is not None
        assert why.last_capturer_side == game.side_of(why.last_capturer)
        assert set(why.leftovers) <= set(sides[why.last_capturer_side].pile)


# --- worked examples ----------------------------------------------------------------------------


def test_setenta_example_of_seed_000() -> None:
    """Seed 000, Setenta; RULES.md: 7♠ 7♥ 6♦ 5♣ beats 7♦ 7♣ A♠ A♥, card by card."""
    why = explain_hand(
        result_of(["7s 7h 6d 5c", "7d 7c As Ah"], RULESETS["escoba"]), RULESETS["escoba"]
    )
    anna, ben = why.sides
    assert [str(c) for c in anna.ranked_best] == ["7h", "7s", "6d", "5c"]
    assert [str(c) for c in ben.ranked_best] == ["7d", "7c", "Ah", "As"]
    assert anna.standing > ben.standing  # type: ignore[operator]
    assert why.breakdown["sevens"] == (1, 0)
    assert why.seven_of_coins_side == 1 and why.breakdown["seven_of_coins"] == (0, 1)
    assert why.sevens_mode == "ranking"


def test_primiera_example_of_seed_002() -> None:
    """Seed 002, Primiera; RULES.md: 7♦ 6♥ 7♠ A♣ gives 21 + 18 + 21 + 16 = 76."""
    rules = RULESETS["scopa"]
    why = explain_hand(result_of(["7d 6h 7s Ac 2c", "Kd Kh Ks Kc 5c"], rules), rules)
    first, second = why.sides
    assert [str(c) for c in first.best] == ["7d", "6h", "7s", "Ac"]
    assert first.best_points == (21, 18, 21, 16) and first.primiera == 76
    assert second.primiera == 10 + 10 + 10 + 15
    assert why.breakdown["sevens"] == (1, 0)


def test_primiera_needing_all_suits() -> None:
    """Seed 000, Alte Setenta; RULES.md: with primiera_needs_all_suits a side missing a suit
    cannot win it, whatever its sum."""
    rules = RULESETS["escoba-primiera"]
    why = explain_hand(result_of(["7d 7h 7s 6d 6h 6s", "Ac 2d 2h 2s"], rules), rules)
    strong, weak = why.sides
    assert strong.best[3] is None and not strong.complete and strong.standing == -1
    assert strong.primiera == 21 * 3
    assert weak.complete and weak.standing == 16 + 12 * 3
    assert why.breakdown["sevens"] == (0, 1)
    assert why.primiera_needs_all_suits


def test_face_cards_are_equal_and_a_tie_gives_nobody_the_point() -> None:
    """RULES.md: the three face cards are equal in setenta; a tie at the top scores nothing."""
    rules = RULESETS["escoba"]
    why = explain_hand(result_of(["Jd Kh", "Qd Jh"], rules), rules)
    assert why.sides[0].setenta == why.sides[1].setenta == (1, 1, 0, 0)
    assert why.breakdown["sevens"] == (0, 0) and why.breakdown["cards"] == (0, 0)


def test_leftovers_and_their_taker() -> None:
    """RULES.md, A hand, step 5: the cards left on the table go to the last capturer; in a
    partnership game that is the capturer's side."""
    rules = RULESETS["escova"]
    result = result_of(
        ["7d 5c 3h", "Kd Kh"], rules, sweeps=[1, 0], leftovers="5c 3h", last_capturer=2
    )
    why = explain_hand(result, rules)
    assert [str(c) for c in why.leftovers] == ["3h", "5c"]
    assert why.last_capturer == 2 and why.last_capturer_side == 0
    assert why.sides[0].sweeps == 1 and why.breakdown["sweeps"] == (1, 0)
    assert all(s.standing is None for s in why.sides)


def test_the_explanation_is_a_frozen_value_that_pickles() -> None:
    rules = RULESETS["escoba"]
    why = explain_hand(result_of(["7d 7h", "As"], rules), rules)
    assert isinstance(why.breakdown, MappingProxyType)
    copy = pickle.loads(pickle.dumps(why))
    assert copy == why
    with pytest.raises(AttributeError):
        why.points = (0, 0)  # type: ignore[misc]


def test_bad_input_is_refused_with_a_clear_error() -> None:
    result = result_of(["7s 7h 6d 5c", "7d 7c As Ah"], RULESETS["escoba"])
    with pytest.raises(RulesError, match="rules must be a RuleSet"):
        explain_hand(result, "escoba")  # type: ignore[arg-type]
    with pytest.raises(InvalidScoreError, match="HandResult"):
        explain_hand({"piles": []}, RULESETS["escoba"])  # type: ignore[arg-type]
    # Scored under setenta, explained under "none": the sevens point cannot be explained.
    with pytest.raises(InvalidScoreError, match="not scored under these rules"):
        explain_hand(result, RULESETS["escova"])


def test_the_protocol_carries_the_explanation() -> None:
    """A hand's result as the server sends it: each side's pile and counts, the setenta cards,
    the leftovers and their taker, as explain_hand gives them (captures are public)."""
    from escoba.server.protocol import result_view

    rules = RULESETS["escoba"]
    result = result_of(["7s 7h 6d 5c Kd", "7d 7c As Ah"], rules, leftovers="Kd", last_capturer=0)
    view = result_view(result, rules)
    why = explain_hand(result, rules)
    assert [tally.pile for tally in view.tallies] == [
        [str(card) for card in side.pile] for side in why.sides
    ]
    assert [tally.ranked for tally in view.tallies] == [
        ["7h", "7s", "6d", "5c"],
        ["7d", "7c", "Ah", "As"],
    ]
    assert [tally.coins for tally in view.tallies] == [2, 1]
    assert view.leftovers == ["Kd"] and view.last_capturer == 0 and view.last_capturer_side == 0
    assert view.sevens_mode == "ranking" and view.breakdown["sevens"] == [1, 0]
    assert result_view(result, rules) is view  # explained once
    # Kept views are per rule set: other rules are checked again (and refused here).
    with pytest.raises(InvalidScoreError, match="not scored under these rules"):
        result_view(result, RULESETS["escoba-fournier"])
