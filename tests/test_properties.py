"""Property tests over random matches of every preset (and valid option changes, the Scopone
deals and the regional options among them), with 2, 3 and 4 players and partnerships (those the
deck shares out among): card accounting, legality of every offered move, acceptance
of every offered move, the 220 arithmetic of the sum-15 games, totals, match end, replay and
hidden information."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from conftest import (
    assert_cards_accounted,
    assert_observation_hides,
    audit_finished_hand,
    end_table,
    match_should_end,
    reference_captures,
    reference_legal_moves,
    shares_out,
    sorted_moves,
)
from escoba import RULESETS, Card, Game, Move, RuleSet

SETTINGS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

OPTION_VALUES: dict[str, st.SearchStrategy[Any]] = {
    "capture": st.sampled_from(["sum15", "match"]),
    "forced_capture": st.booleans(),
    "last_play_sweep_counts": st.booleans(),
    "initial_table_sweeps": st.booleans(),
    "kings_redeal": st.booleans(),
    "sevens": st.sampled_from(["ranking", "sevens", "primiera", "none"]),
    "primiera_needs_all_suits": st.booleans(),
    "all_coins_two": st.booleans(),
    "all_sevens_bonus": st.integers(0, 3),
    "big_wins": st.booleans(),
    "target_score": st.integers(1, 12),
    "win_by": st.integers(1, 3),
    "hand_cards": st.sampled_from([3, 9, 10]),
    "table_cards": st.sampled_from([0, 4]),
    "ace_takes_all": st.booleans(),
    "re_bello": st.booleans(),
    "napola": st.booleans(),
}


@st.composite
def rule_sets(draw: st.DrawFn) -> RuleSet:
    """A preset, or (half the time) a preset with some options changed to valid values."""
    rules = RULESETS[draw(st.sampled_from(sorted(RULESETS)))]
    if draw(st.booleans()):
        changes = draw(st.fixed_dictionaries({}, optional=OPTION_VALUES))
        merged = rules.to_dict() | changes
        if merged["capture"] == "match":
            changes["initial_table_sweeps"] = False
        else:
            changes["ace_takes_all"] = False
        if merged["sevens"] != "primiera":
            changes["primiera_needs_all_suits"] = False
        if merged["table_cards"] == 0:
            changes["initial_table_sweeps"] = changes["kings_redeal"] = False
        rules = rules.replace(**changes)
    return rules


@st.composite
def seatings(draw: st.DrawFn) -> tuple[int, bool]:
    players = draw(st.sampled_from([2, 3, 4]))
    return players, players == 4 and draw(st.booleans())


seeds = st.integers(0, 2**32)


def new_game(rules: RuleSet, seating: tuple[int, bool], seed: int) -> Game:
    players, partnerships = seating
    # Only seatings the deck shares out among (Scopone's 10 cards each: not 3 players).
    assume(shares_out(rules, players))
    return Game(rules, players, partnerships, seed=seed)


def play(
    game: Game,
    rng: random.Random,
    hands: int,
    check: Callable[[Game], None] = lambda g: None,
) -> None:
    """Random moves until ``hands`` hands are finished or the match ends; ``check`` runs
    before every move and at the end; each finished hand is audited."""
    while not game.is_over() and len(game.results) < hands:
        check(game)
        done = len(game.results)
        game.play(rng.choice(sorted_moves(game)))
        if len(game.results) > done:
            audit_finished_hand(game, done)
    check(game)


def assert_move_follows_the_rules(
    chosen: Move, hand: tuple[Card, ...], table: tuple[Card, ...], rules: RuleSet
) -> None:
    """RULES.md "A move", rule by rule."""
    assert chosen.card in hand, f"{chosen}: card not in hand"
    assert chosen.captures <= set(table), f"{chosen}: takes cards not on the table"
    taken = sum(c.value for c in chosen.captures)
    same = [c for c in table if c.value == chosen.card.value]
    if chosen.is_capture:
        if rules.capture == "sum15":
            assert chosen.card.value + taken == 15, f"{chosen}: does not make 15"
        elif same:
            assert len(chosen.captures) == 1, f"{chosen}: single-card priority"
            assert next(iter(chosen.captures)) in same, f"{chosen}: single-card priority"
        elif rules.ace_takes_all and chosen.card.value == 1:
            assert chosen.captures == set(table), f"{chosen}: asso piglia tutto takes all"
        else:
            assert len(chosen.captures) >= 2, f"{chosen}: takes one card of another value"
            assert taken == chosen.card.value, f"{chosen}: does not sum to the card"
    elif rules.forced_capture:
        can_take = reference_captures(chosen.card, table, rules.capture, rules.ace_takes_all)
        assert not can_take, f"{chosen}: dropped a card that can take {can_take}"


def check_step(game: Game) -> None:
    """The invariants that hold before every move and at the end."""
    assert_cards_accounted(game)
    if game.is_over():
        assert game.legal_moves() == []
        return
    seat = game.to_move
    assert seat is not None
    hand = game.hand(seat)
    offered = game.legal_moves()
    assert offered, "the seat to move always has a move"
    assert len(set(offered)) == len(offered), "a move is offered twice"
    for chosen in offered:
        assert_move_follows_the_rules(chosen, hand, game.table, game.rules)
    assert set(offered) == reference_legal_moves(hand, game.table, game.rules)


@pytest.mark.slow
@SETTINGS
@given(rules=rule_sets(), seating=seatings(), seed=seeds, hands=st.integers(1, 3))
def test_cards_are_accounted_and_only_legal_moves_are_offered(
    rules: RuleSet, seating: tuple[int, bool], seed: int, hands: int
) -> None:
    """RULES.md "Cards", "A hand" and "A move": at every step the 40 cards are each in exactly
    one place (hands, table, stock, captured piles); the offered moves are exactly the legal
    ones (card in hand, captures on the table, sum 15 or matching with single-card priority,
    forced capture); each finished hand replays correctly from its public history."""
    game = new_game(rules, seating, seed)
    play(game, random.Random(seed), hands, check_step)


@pytest.mark.slow
@SETTINGS
@given(rules=rule_sets(), seating=seatings(), seed=seeds, data=st.data())
def test_every_offered_move_is_accepted(
    rules: RuleSet, seating: tuple[int, bool], seed: int, data: st.DataObject
) -> None:
    """DESIGN.md: every move legal_moves() offers is accepted by play(), on copies of the
    match made by replaying its record; the copy then shows the move in its history."""
    game = new_game(rules, seating, seed)
    rng = random.Random(seed)
    for _ in range(3):
        steps = data.draw(st.integers(0, 40), label="steps")
        for _ in range(steps):
            if game.is_over():
                return
            game.play(rng.choice(sorted_moves(game)))
        if game.is_over():
            return
        offered = sorted_moves(game)
        tried = data.draw(
            st.lists(st.sampled_from(offered), min_size=1, max_size=4, unique=True),
            label="tried",
        )
        record = game.record()
        for chosen in tried:
            copy = Game.from_record(record)
            seat = copy.to_move
            copy.play(chosen)
            played = [e for e in copy.history(game.hand_number) if e.kind == "play"][-1]
            assert (played.seat, played.move) == (seat, chosen)
            assert_cards_accounted(copy)
        assert game.record() == record


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rule_sets(), seating=seatings(), seed=seeds)
def test_sum15_table_ends_every_hand_on_10_25_40_or_55(
    rules: RuleSet, seating: tuple[int, bool], seed: int
) -> None:
    """RULES.md "A move", worked examples: the whole deck sums to 220 and every sum-15 capture
    (and every initial-table take) removes a multiple of 15, so the table at the end of every
    hand (before the leftovers go to the last capturer) sums to 10 modulo 15: at least 10, so
    the very last card never sweeps in the Escoba family.

    RULES.md (after seed 000's tip) says "10, 25, 40 or 55"; that list is incomplete: a table
    of face cards takes nothing but a 5, 6 or 7, and can grow past 55 (see
    test_game.test_sum15_end_table_can_exceed_55, where it ends on 85). So the property
    checked is the arithmetic one; 10, 25, 40, 55 are only the usual values.
    """
    rules = rules.replace(capture="sum15", ace_takes_all=False)
    game = new_game(rules, seating, seed)
    rng = random.Random(seed)
    while not game.is_over() and len(game.results) < 8:
        game.play(rng.choice(sorted_moves(game)))
    for result in game.results:
        total = sum(c.value for c in end_table(result))
        assert total % 15 == 10, total
        assert total >= 10
        assert result.last_capturer is not None


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rule_sets(), seating=seatings(), seed=seeds)
def test_totals_and_match_end_follow_the_hands(
    rules: RuleSet, seating: tuple[int, bool], seed: int
) -> None:
    """RULES.md "Winning the match": totals are the sum of hand points; the match ends after
    the first hand where a side has reached the target and leads every other side by at
    least win_by, and that side wins. A finished match's record replays to the same state."""
    rules = rules.replace(target_score=min(rules.target_score, 8))
    game = new_game(rules, seating, seed)
    rng = random.Random(seed)
    while not game.is_over() and len(game.results) < 12:
        done = len(game.results)
        game.play(rng.choice(sorted_moves(game)))
        if len(game.results) > done:
            totals = [sum(r.points[s] for r in game.results) for s in range(len(game.sides))]
            assert game.totals == tuple(totals)
            assert game.winner == match_should_end(totals, rules)
            assert game.is_over() == (game.winner is not None)
    replayed = Game.from_record(game.record())
    assert replayed.record() == game.record()
    assert replayed.totals == game.totals
    assert replayed.results == game.results
    assert replayed.winner == game.winner


@SETTINGS
@given(rules=rule_sets(), seating=seatings(), seed=seeds, steps=st.integers(0, 120))
def test_a_record_replays_to_the_same_state(
    rules: RuleSet, seating: tuple[int, bool], seed: int, steps: int
) -> None:
    """DESIGN.md: a record replays exactly, and the replay continues like the original."""
    game = new_game(rules, seating, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over():
            break
        game.play(rng.choice(sorted_moves(game)))
    replayed = Game.from_record(game.record())
    assert replayed.record() == game.record()
    for seat in range(game.players):
        assert replayed.observation(seat) == game.observation(seat)
    for _ in range(40):
        if game.is_over():
            break
        chosen = rng.choice(sorted_moves(game))
        assert replayed.legal_moves() == game.legal_moves()
        game.play(chosen)
        replayed.play(chosen)
    assert replayed.record() == game.record()


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rule_sets(), seating=seatings(), seed=seeds)
def test_an_observation_never_shows_a_hidden_card(
    rules: RuleSet, seating: tuple[int, bool], seed: int
) -> None:
    """DESIGN.md: no seat's observation ever names a card of another hand or of the stock."""

    def check(game: Game) -> None:
        for seat in range(game.players):
            assert_observation_hides(game, seat)

    play(new_game(rules, seating, seed), random.Random(seed), 1, check)
