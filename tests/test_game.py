"""The flow of a match (RULES.md "Seats, sides, dealer", "A hand", "A move", "Winning the
match"): dealing, turns, initial-table sweeps, redeals, forced capture, sweeps, leftovers,
totals, match end, partnerships and the handling of illegal moves."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from conftest import (
    SEATED_PRESETS,
    SEATINGS,
    audit_finished_hand,
    build_deck,
    card,
    cards,
    current_deck,
    game_with_deck,
    last_capturer_of,
    make_record,
    match_should_end,
    move,
    moves,
    play_hand,
    play_random,
    reference_legal_moves,
    table_of_deal,
)
from escoba import (
    DECK,
    RULESETS,
    Card,
    Deal,
    EscobaError,
    Game,
    IllegalMoveError,
    InitialSweep,
    InvalidMoveError,
    Move,
    Play,
    Redeal,
    RulesError,
)
from escoba._bits import SWEPT, capture_effect, signature, sweep_limit

ESCOBA = RULESETS["escoba"]
SCOPA = RULESETS["scopa"]
SUM15_PRESETS = [name for name, rules in RULESETS.items() if rules.capture == "sum15"]
DEALS_PER_HAND = {2: 6, 3: 4, 4: 3}


def seating_id(seating: tuple[int, bool]) -> str:
    players, partnerships = seating
    return f"{players}p" + ("-partners" if partnerships else "")


# Every preset with every seating its deck shares out among (Scopone: not 3 players).
PRESET_SEATINGS = [
    pytest.param(name, (players, partners), id=f"{seating_id((players, partners))}-{name}")
    for name, players, partners in SEATED_PRESETS
]


# -- seats and the dealer ------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_first_dealer_is_drawn_by_lot_from_the_seed(players: int) -> None:
    """RULES.md "Seats, sides, dealer": the first dealer is chosen by lot from the match's
    seed: the same seed gives the same dealer, and over many seeds every seat deals about
    equally often (the lot favours nobody)."""
    dealers: Counter[int] = Counter()
    for seed in range(300):
        dealer = Game(ESCOBA, players, seed=seed).dealer
        assert Game(ESCOBA, players, seed=seed).dealer == dealer
        assert 0 <= dealer < players
        dealers[dealer] += 1
    assert set(dealers) == set(range(players))
    assert min(dealers.values()) >= 300 / players / 2, dealers
    assert Game(ESCOBA, players, seed="a string seed").dealer in range(players)


@pytest.mark.parametrize("seating", SEATINGS, ids=seating_id)
def test_deal_passes_to_the_next_seat_and_the_next_seat_leads(seating: tuple[int, bool]) -> None:
    """RULES.md "Seats, sides, dealer": the deal passes to the next seat in order of play
    after each hand, and the seat after the dealer plays first."""
    players, partnerships = seating
    game = Game(ESCOBA.replace(target_score=15), players, partnerships, seed=11)
    rng = random.Random(3)
    first = game.dealer
    while not game.is_over():
        number = game.hand_number
        assert game.dealer == (first + number) % players
        assert game.to_move == (game.dealer + 1) % players
        play_hand(game, rng)
        plays = [e for e in game.history(number) if isinstance(e, Play)]
        assert plays[0].seat == (game.results[number].dealer + 1) % players
    assert len(game.results) >= 2
    assert [r.dealer for r in game.results] == [
        (first + i) % players for i in range(len(game.results))
    ]
    assert [h["dealer"] for h in game.record()["hands"]] == [r.dealer for r in game.results]


# -- dealing -------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("dealer", [0, 1])
def test_first_deal_gives_three_cards_each_then_four_to_the_table(
    players: int, dealer: int
) -> None:
    """RULES.md "A hand" 1: 3 cards to each seat starting with the seat after the dealer,
    then 4 face up to the table; the rest is the stock."""
    deck = build_deck(players, dealer, table="As 2s 3s 4s", rest="Kd Qd Jd 7d 6d 5d")
    game = game_with_deck(ESCOBA, players, deck, dealer=dealer)
    for k in range(players):
        seat = (dealer + 1 + k) % players
        assert set(game.hand(seat)) == {card(t) for t in deck[3 * k : 3 * k + 3]}
    assert set(game.table) == cards("As 2s 3s 4s")
    assert game.stock_size == 40 - 3 * players - 4
    assert game.hand_sizes == (3,) * players
    assert game.to_move == (dealer + 1) % players
    assert game.history() == (Deal(1),)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_later_deals_give_three_each_and_nothing_to_the_table(players: int) -> None:
    """RULES.md "A hand" 4: when all hands are empty and stock is left, deal 3 more to each
    seat (none to the table): 6 deals with 2 players, 4 with 3, 3 with 4."""
    game = Game(ESCOBA, players, seed=5)
    rng = random.Random(5)
    deck = current_deck(game)
    position = 3 * players + 4
    deals = 1
    while game.hand_number == 0:
        mover = game.to_move
        assert mover is not None
        table_before = set(game.table)
        chosen = rng.choice(game.legal_moves())
        game.play(chosen)
        if game.hand_number:
            break
        expected_table = (
            table_before - chosen.captures if chosen.is_capture else table_before | {chosen.card}
        )
        assert set(game.table) == expected_table, "dealing must put nothing on the table"
        if all(size == 3 for size in game.hand_sizes):
            deals += 1
            for k in range(players):
                seat = (game.dealer + 1 + k) % players
                dealt = set(deck[position + 3 * k : position + 3 * k + 3])
                assert set(game.hand(seat)) == dealt
            position += 3 * players
            assert game.stock_size == 40 - position
    assert deals == DEALS_PER_HAND[players]
    assert position == 40
    rounds = [e.round for e in game.history(0) if isinstance(e, Deal)]
    assert rounds == list(range(1, DEALS_PER_HAND[players] + 1))
    audit_finished_hand(game, 0)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_new_deal_shows_in_the_history_when_it_is_dealt(players: int) -> None:
    """RULES.md "A hand" 4 and DESIGN.md (the public history is an event log): when the hands
    are dealt again, the history ends with that deal at once, before anyone plays from the
    new cards; each step only appends to the history."""
    game = Game(ESCOBA, players, seed=6)
    rng = random.Random(6)
    deals = 1
    while game.hand_number == 0:
        before = game.history()
        game.play(rng.choice(game.legal_moves()))
        if game.hand_number:
            break
        after = game.history()
        assert after[: len(before)] == before
        if all(size == 3 for size in game.hand_sizes):
            deals += 1
            assert after[len(before) + 1 :] == (Deal(deals),), after[len(before) :]
            assert game.observation(0).history[-1] == Deal(deals)
        else:
            assert len(after) == len(before) + 1
    assert deals == DEALS_PER_HAND[players]


# -- the initial table ---------------------------------------------------------------------


@pytest.mark.parametrize("preset", SUM15_PRESETS)
@pytest.mark.parametrize(("table", "sweeps"), [("As 2s 5s 7d", 1), ("Kd Ks Qd As", 2)])
@pytest.mark.parametrize("seating", [(2, False), (4, True)], ids=seating_id)
def test_initial_table_of_15_or_30_goes_to_the_dealer(
    preset: str, table: str, sweeps: int, seating: tuple[int, bool]
) -> None:
    """RULES.md "A hand" 2 (initial_table_sweeps, on in the Escoba family): the 4 table cards
    summing to 15 give the dealer 1 sweep and the cards, summing to 30 give 2 sweeps."""
    players, partnerships = seating
    dealer = players - 1
    deck = build_deck(players, dealer, table=table)
    game = game_with_deck(RULESETS[preset], players, deck, dealer=dealer, partnerships=partnerships)
    side = game.side_of(dealer)
    assert game.table == ()
    assert game.captured[side] == cards(table)
    assert game.sweeps[side] == sweeps
    assert sum(game.sweeps) == sweeps
    assert InitialSweep(dealer, cards(table), sweeps) in game.history()
    # The next seat faces an empty table: it can only drop.
    assert all(not m.is_capture for m in game.legal_moves())
    assert len(game.legal_moves()) == 3


@pytest.mark.parametrize("table", ["As 2s 6s 7d", "Kd Ks Qd 2s", "As 2s 3s 4s"])
def test_initial_table_of_other_sums_stays(table: str) -> None:
    """RULES.md "A hand" 2: only 15 and 30 give the dealer the table (16, 31, 10 stay)."""
    game = game_with_deck(ESCOBA, 2, build_deck(2, 0, table=table))
    assert set(game.table) == cards(table)
    assert game.sweeps == (0, 0)
    assert not any(isinstance(e, InitialSweep) for e in game.history())


@pytest.mark.parametrize(
    "rules", [SCOPA, ESCOBA.replace(initial_table_sweeps=False)], ids=["scopa", "escoba-off"]
)
def test_no_initial_table_sweeps_when_the_option_is_off(rules: Any) -> None:
    """RULES.md option initial_table_sweeps (off in Scopa): 15 on the table stays there."""
    game = game_with_deck(rules, 2, build_deck(2, 0, table="As 2s 5s 7d"))
    assert set(game.table) == cards("As 2s 5s 7d")
    assert game.sweeps == (0, 0)
    assert game.captured == (frozenset(), frozenset())


def play_only_drops(game: Game) -> None:
    """Finish the current hand dropping every card (needs forced_capture=False)."""
    number = game.hand_number
    while game.hand_number == number and not game.is_over():
        drops = [m for m in game.legal_moves() if not m.is_capture]
        game.play(min(drops, key=str))


@pytest.mark.parametrize("seating", [(2, False), (3, False), (4, True)], ids=seating_id)
def test_initial_sweep_counts_as_the_dealers_capture(seating: tuple[int, bool]) -> None:
    """RULES.md "A hand" 2 and 5: the initial-table take counts as the dealer's capture for the
    last-capture rule; so if nobody captures afterwards the dealer's side gets the leftovers,
    which are no sweep."""
    players, partnerships = seating
    rules = ESCOBA.replace(forced_capture=False)
    dealer = 1
    deck = build_deck(players, dealer, table="As 2s 5s 7d")
    game = game_with_deck(rules, players, deck, dealer=dealer, partnerships=partnerships)
    play_only_drops(game)
    result = game.results[0]
    side = game.side_of(dealer)
    assert result.last_capturer == dealer
    assert result.leftovers == frozenset(DECK) - cards("As 2s 5s 7d")
    assert result.piles[side] == frozenset(DECK)
    assert result.sweeps[side] == 1
    assert sum(result.sweeps) == 1
    # Every category goes to the side with all 40 cards: cards, coins, 7d, setenta, 1 sweep.
    assert result.points[side] == 5
    assert sum(result.points) == 5
    audit_finished_hand(game, 0)


# -- kings_redeal --------------------------------------------------------------------------


@pytest.mark.parametrize("kings", ["Kd Kh Ks 5c", "Kd Kh Ks Kc"])
def test_three_or_more_kings_on_the_table_deal_again_in_scopa(kings: str) -> None:
    """RULES.md "A hand" 3 (kings_redeal, on in Scopa): 3 or more kings among the first four
    table cards: the hand is dealt again (same dealer), from the record's second deck."""
    first = build_deck(2, 0, table=kings)
    second = build_deck(2, 0, hands={1: "5d 6d 7d", 0: "5h 6h 7h"}, table="As 2h 3s 4c")
    game = Game.from_record(make_record(SCOPA, 2, [[first, second]]))
    assert set(game.table) == cards("As 2h 3s 4c")
    assert set(game.hand(1)) == cards("5d 6d 7d")
    assert set(game.hand(0)) == cards("5h 6h 7h")
    assert game.dealer == 0
    assert game.to_move == 1
    history = game.history()
    assert isinstance(history[0], Redeal)
    assert set(history[0].table) == cards(kings)
    assert history[1:] == (Deal(1),)
    assert game.record()["hands"][0]["deals"] == [first, second]


def test_two_kings_are_no_reason_to_deal_again() -> None:
    """RULES.md "A hand" 3: only 3 or more kings make a redeal; 2 kings stay on the table."""
    game = game_with_deck(SCOPA, 2, build_deck(2, 0, table="Kd Kh 5s 5c"))
    assert set(game.table) == cards("Kd Kh 5s 5c")
    assert game.history() == (Deal(1),)


def test_kings_stay_when_kings_redeal_is_off() -> None:
    """RULES.md option kings_redeal (off in Escoba): three kings on the table stay."""
    game = game_with_deck(ESCOBA, 2, build_deck(2, 0, table="Kd Kh Ks 5c"))
    assert set(game.table) == cards("Kd Kh Ks 5c")
    assert not any(isinstance(e, Redeal) for e in game.history())


def test_seeded_scopa_match_redeals_three_kings() -> None:
    """RULES.md "A hand" 3: in a seeded Scopa match a first deal with 3+ kings on the table is
    thrown in and dealt again; the hand played has fewer than 3 kings on the table."""
    seed = next(s for s in range(20000) if isinstance(Game(SCOPA, 2, seed=s).history()[0], Redeal))
    game = Game(SCOPA, 2, seed=seed)
    redeal = game.history()[0]
    assert isinstance(redeal, Redeal)
    assert sum(c.value == 10 for c in redeal.table) >= 3
    deals = game.record()["hands"][0]["deals"]
    assert len(deals) >= 2
    assert table_of_deal(deals[0], 2) == frozenset(redeal.table)
    assert set(game.table) == table_of_deal(deals[-1], 2)
    assert sum(c.value == 10 for c in game.table) < 3


# -- moves: forced capture, single-card priority, sweeps -----------------------------------

WORKED_DECK = build_deck(2, 0, hands={1: "4h Qh 2c", 0: "5d 6d Jd"}, table="As 3h 4c 7d")


def worked_game(**changes: Any) -> Game:
    """RULES.md's worked Escoba table A♠ 3♥ 4♣ 7♦, seat 1 to play 4♥ Q♥ 2♣.

    Those four cards sum to 15, so as a first deal the dealer would sweep them (option
    initial_table_sweeps); and in play the last of them to arrive could take the other three
    (A+3+4 = 8 = 15-7, and so on), so forced capture forbids dropping it: they never lie
    together on the table in the Escoba preset. The position is dealt with
    initial_table_sweeps off.
    """
    rules = ESCOBA.replace(initial_table_sweeps=False, **changes)
    return game_with_deck(rules, 2, WORKED_DECK)


def test_worked_example_escoba_four_has_two_captures() -> None:
    """RULES.md "A move", worked example: Escoba, table A♠ 3♥ 4♣ 7♦, a 4 is played: two legal
    moves, {4♣, 7♦} and {A♠, 3♥, 7♦}. A queen (9) takes nothing; nor does the 2 (13)."""
    game = worked_game()
    assert game.to_move == 1
    assert set(game.legal_moves()) == moves(["4h:4c+7d", "4h:As+3h+7d", "Qh", "2c"])
    assert set(game.legal_moves()) == reference_legal_moves(game.hand(1), game.table, game.rules)
    assert len(game.legal_moves()) == 4


def test_forced_capture_forbids_dropping_a_card_that_can_take() -> None:
    """RULES.md "A move" (forced_capture, on in every preset): dropping a card that could
    capture is illegal."""
    game = worked_game()
    before = game.record()
    with pytest.raises(IllegalMoveError, match="4h"):
        game.play("4h")
    assert game.record() == before
    game.play("Qh")  # a card that can take nothing is dropped face up
    assert card("Qh") in game.table


def test_without_forced_capture_the_drop_is_offered_too() -> None:
    """RULES.md option forced_capture=false: a card that can take may also be dropped."""
    game = worked_game(forced_capture=False)
    assert set(game.legal_moves()) == moves(["4h:4c+7d", "4h:As+3h+7d", "4h", "Qh", "2c"])
    game.play("4h")
    assert set(game.table) == cards("As 3h 4c 7d 4h")
    assert game.captured == (frozenset(), frozenset())


SCOPA_EXAMPLES = [
    # RULES.md: table 5, 4, A, a 5 is played: the only legal moves take the single 5.
    ("5c 4d As 2h", "5h Jd 7s", ["5h:5c", "Jd:As+2h+5c", "7s:2h+5c", "7s:As+2h+4d"]),
    # RULES.md: table 3, 4, 7, a 7 is played: it takes the 7 (not 3+4).
    ("3d 4h 7c Kd", "7s 2c Jh", ["7s:7c", "2c", "Jh"]),
    # RULES.md: table A, 2, 6, a jack (8) is played: it takes 2+6.
    ("Ah 2c 6s Kd", "Js 3d 4d", ["Js:2c+6s", "3d:Ah+2c", "4d"]),
    # Two cards of equal value: the player picks which one (different moves).
    (
        "5c 5d As 4h",
        "5h Qs Kh",
        ["5h:5c", "5h:5d", "Qs:5c+4h", "Qs:5d+4h", "Kh:5c+5d", "Kh:As+4h+5c", "Kh:As+4h+5d"],
    ),
]


@pytest.mark.parametrize(("table", "hand", "expected"), SCOPA_EXAMPLES)
def test_scopa_legal_moves_follow_single_card_priority(
    table: str, hand: str, expected: list[str]
) -> None:
    """RULES.md "A move", Scopa: a card takes one table card of equal value (which one is the
    player's choice) if there is one, else two or more cards summing to its value; worked
    examples 5/4/A with a 5, 3/4/7 with a 7, A/2/6 with a jack."""
    game = game_with_deck(SCOPA, 2, build_deck(2, 0, hands={1: hand}, table=table))
    assert set(game.legal_moves()) == moves(expected)
    assert len(game.legal_moves()) == len(expected)
    assert set(game.legal_moves()) == reference_legal_moves(game.hand(1), game.table, SCOPA)


def test_scopa_taking_a_sum_when_a_single_card_matches_is_illegal() -> None:
    """RULES.md "A move", Scopa single-card priority: with a 7 on the table, a 7 may not take
    3+4 instead."""
    game = game_with_deck(SCOPA, 2, build_deck(2, 0, hands={1: "7s 2c Jh"}, table="3d 4h 7c Kd"))
    before = game.record()
    with pytest.raises(IllegalMoveError, match="7s"):
        game.play("7s:3d+4h")
    assert game.record() == before


@pytest.mark.parametrize(
    ("rules", "hand", "sweep"),
    [(ESCOBA, "5h 6h 7h", "5h:As+2s+3s+4s"), (SCOPA, "Kh 6h 7h", "Kh:As+2s+3s+4s")],
    ids=["escoba", "scopa"],
)
def test_a_capture_that_empties_the_table_is_a_sweep(rules: Any, hand: str, sweep: str) -> None:
    """RULES.md "A move": a capture that empties the table is a sweep, worth 1 point."""
    game = game_with_deck(rules, 2, build_deck(2, 0, hands={1: hand}, table="As 2s 3s 4s"))
    game.play(sweep)
    assert game.table == ()
    assert game.sweeps == (0, 1)
    last = game.history()[-1]
    assert isinstance(last, Play)
    assert last.sweep
    assert last.seat == 1
    assert game.captured[1] == cards("As 2s 3s 4s") | {move(sweep).card}
    # The next seat must drop onto the empty table.
    assert all(not m.is_capture for m in game.legal_moves())


def test_a_capture_that_leaves_cards_is_no_sweep() -> None:
    """RULES.md "A move": only a capture that empties the table is a sweep."""
    game = game_with_deck(ESCOBA, 2, build_deck(2, 0, hands={1: "Kh 6h 7h"}, table="As 2s 3s 4s"))
    game.play("Kh:As+4s")
    assert set(game.table) == cards("2s 3s")
    assert game.sweeps == (0, 0)
    last = game.history()[-1]
    assert isinstance(last, Play)
    assert not last.sweep


def at_last_play(game: Game) -> bool:
    return game.stock_size == 0 and sum(game.hand_sizes) == 1


def find_last_card_sweep(rules: Any) -> tuple[Game, Move]:
    """A seeded Scopa-style hand whose very last card can sweep the table."""
    for seed in range(2000):
        game = Game(rules, 2, seed=seed)
        play_random(game, random.Random(seed), stop=at_last_play)
        if game.hand_number == 0 and not game.is_over():
            table = frozenset(game.table)
            for candidate in game.legal_moves():
                if table and candidate.captures == table:
                    return game, candidate
    raise AssertionError("no hand found whose last card sweeps")


@pytest.mark.parametrize(
    ("counts", "rules"),
    [(False, SCOPA), (True, SCOPA.replace(last_play_sweep_counts=True))],
    ids=["scopa", "scopa-counting"],
)
def test_sweep_by_the_very_last_card(counts: bool, rules: Any) -> None:
    """RULES.md "A move", option last_play_sweep_counts (off in Scopa): a sweep made by the
    very last card of the hand does not count in Scopa; with the option on it does."""
    game, sweep = find_last_card_sweep(rules)
    seat = game.to_move
    assert seat is not None
    side = game.side_of(seat)
    before = game.sweeps[side]
    game.play(sweep)
    result = game.results[0]
    assert result.sweeps[side] == before + counts
    assert result.breakdown["sweeps"][side] == before + counts
    assert result.leftovers == frozenset()
    assert result.last_capturer == seat
    last = [e for e in game.history(0) if isinstance(e, Play)][-1]
    assert last.sweep is counts
    audit_finished_hand(game, 0)


@pytest.mark.parametrize("counts", [True, False])
def test_sum15_last_card_sweep_follows_the_option(counts: bool) -> None:
    """RULES.md "A move": in the Escoba family a sweep by the hand's last card counts
    (last_play_sweep_counts=True), and does not with the option off.

    Such a sweep never arises in real play (the uncaptured cards always sum to 10 mod 15,
    see test_properties), so the position is set up through the engine's internals: at the
    last play the mover holds K♦ and the table holds just 5♣.
    """
    rules = ESCOBA.replace(last_play_sweep_counts=counts)
    game = Game(rules, 2, seed=8)
    play_random(game, random.Random(8), stop=at_last_play)
    assert game.hand_number == 0
    seat = game.to_move
    assert seat is not None
    side = game.side_of(seat)
    before = game.sweeps[side]
    game._hands[seat] = [card("Kd").index]
    game._table = card("5c").bit
    game._sig = signature(game._table)
    assert game.legal_moves() == [move("Kd:5c")]
    game.play("Kd:5c")
    assert game.results[0].sweeps[side] == before + counts
    last = [e for e in game.history(0) if isinstance(e, Play)][-1]
    assert last.sweep is counts


# A hand of escoba-classic (2 players, seat 1 deals) whose table ends on J Q K of three
# suits, K♥ J♥ and 4♥: 8+9+10 + 8+9+10 + 8+9+10 + 4 = 85.
FACE_TABLE_DECK = (
    "7d 2d 3s 5c 6c 5d 4s 4c 5s 2h As 6s Ac 3d Ah 5h 3c Qh 7h 2s "
    "Ks 7s 6h 2c Ad 6d 3h 4d Js Qc Jc Kd Qd Jh Qs Kc Kh Jd 7c 4h"
)
FACE_TABLE_MOVES = (
    "7d 5d 3s:5d+7d 5c 2d 6c As 5h 6s:2d+As+6c 3d Ac Ah:3d+5h+Ac+5c 3c Ks Qh 2s:Ks+3c 7h 7s "
    "Ad:7h+7s 6d:Qh 2c 3h 6h 4d:3h+6h+2c Qc Qd Js Kd Jc Jh Kh 7c:Js Kc Jd Qs 4h"
)


def test_sum15_end_table_can_exceed_55() -> None:
    """RULES.md "A move" says the sum-15 table ends every hand on 10, 25, 40 or 55; what the
    rules guarantee is 10 modulo 15. Face cards pile up (no A-4 can take one: a 4 needs 11),
    and in this hand, every move checked legal against the rules, the table ends on 85."""
    rules = RULESETS["escoba-classic"]
    game = game_with_deck(rules, 2, FACE_TABLE_DECK.split(), dealer=1)
    for text in FACE_TABLE_MOVES.split():
        seat = game.to_move
        assert seat is not None
        assert move(text) in reference_legal_moves(game.hand(seat), game.table, rules)
        game.play(text)
    result = game.results[0]
    assert result.leftovers == cards("Jd Qd Kd 4h Jh Kh Qs Jc Qc Kc")
    assert sum(c.value for c in result.leftovers) == 85
    assert result.last_capturer == 1  # 7c took J♠
    audit_finished_hand(game, 0)


# -- the end of a hand ---------------------------------------------------------------------


@pytest.mark.parametrize(("preset", "seating"), PRESET_SEATINGS)
def test_leftovers_go_to_the_last_capturer_and_are_no_sweep(
    preset: str, seating: tuple[int, bool]
) -> None:
    """RULES.md "A hand" 5: after the last card, whoever captured last takes what is left on
    the table; that is never a sweep. Checked against a replay of the public history."""
    players, partnerships = seating
    game = Game(RULESETS[preset], players, partnerships, seed=21)
    rng = random.Random(21)
    for number in range(2):
        result = play_hand(game, rng)
        last = last_capturer_of(game, number)
        assert last is not None
        assert result.last_capturer == last
        assert result.leftovers <= result.piles[game.side_of(last)]
        audit_finished_hand(game, number)


@pytest.mark.parametrize(
    "rules",
    [
        ESCOBA.replace(forced_capture=False, initial_table_sweeps=False),
        SCOPA.replace(forced_capture=False),
    ],
    ids=["escoba", "scopa"],
)
def test_cards_stay_uncounted_when_nobody_captured(rules: Any) -> None:
    """RULES.md "A hand" 5: if nobody captured all hand, the cards stay uncounted: no pile,
    no leftovers, and no category point (every category is a tie at zero)."""
    game = game_with_deck(rules, 2, build_deck(2, 0, table="As 2s 3s 4s"))
    play_only_drops(game)
    result = game.results[0]
    assert result.last_capturer is None
    assert result.leftovers == frozenset()
    assert result.piles == (frozenset(), frozenset())
    assert result.sweeps == (0, 0)
    assert result.points == (0, 0)
    assert game.totals == (0, 0)
    audit_finished_hand(game, 0)


# -- totals and the end of the match -------------------------------------------------------


@pytest.mark.parametrize(("preset", "seating"), PRESET_SEATINGS)
def test_totals_are_the_sum_of_hand_points(preset: str, seating: tuple[int, bool]) -> None:
    """RULES.md "Winning the match": after each hand, add the points."""
    players, partnerships = seating
    game = Game(RULESETS[preset], players, partnerships, seed=4)
    rng = random.Random(4)
    while not game.is_over():
        play_hand(game, rng)
        sums = [sum(r.points[side] for r in game.results) for side in range(len(game.sides))]
        assert game.totals == tuple(sums)
        result = game.results[-1]
        assert result.points == tuple(
            sum(column[side] for column in result.breakdown.values())
            for side in range(len(game.sides))
        )
    assert max(game.totals) >= game.rules.target_score


MATCH_END_CASES = [
    (2, False, 5, 1),
    (2, False, 5, 3),
    (3, False, 6, 1),
    (3, False, 4, 2),
    (4, True, 8, 3),
    (4, False, 4, 2),
]


@pytest.mark.parametrize(("players", "partnerships", "target", "win_by"), MATCH_END_CASES)
def test_match_ends_at_the_target_with_the_required_lead(
    players: int, partnerships: bool, target: int, win_by: int
) -> None:
    """RULES.md "Winning the match": if any side has reached the target and leads every other
    side by at least win_by, it wins; otherwise another hand is played (also with 3 sides and
    when sides tie at or over the target)."""
    rules = ESCOBA.replace(target_score=target, win_by=win_by)
    played_on = 0  # hands after which a side had the target but not the lead
    for seed in range(30):
        game = Game(rules, players, partnerships, seed=seed)
        rng = random.Random(seed)
        while not game.is_over():
            play_hand(game, rng)
            expected = match_should_end(game.totals, rules)
            if expected is None:
                assert not game.is_over()
                assert game.winner is None
                assert game.hand_number == len(game.results)
                assert game.to_move == (game.dealer + 1) % players
                played_on += max(game.totals) >= target
            else:
                assert game.is_over()
                assert game.winner == expected
                assert game.to_move is None
                assert game.legal_moves() == []
    if win_by > 1:
        assert played_on > 0, "no case of a side at the target without the lead was met"


@pytest.mark.parametrize("players", [2, 3])
def test_a_tie_at_the_top_over_the_target_plays_another_hand(players: int) -> None:
    """RULES.md "Winning the match" (win_by 1, a strict lead) and seed 000 "Partieende": if
    the best sides tie at or over the target, another hand is played."""
    rules = ESCOBA.replace(target_score=3)
    for seed in range(500):
        game = Game(rules, players, seed=seed)
        play_hand(game, random.Random(seed))
        best = max(game.totals)
        if best >= 3 and game.totals.count(best) > 1:
            break
    else:
        raise AssertionError("no tie at the top was met")
    assert not game.is_over()
    assert game.winner is None
    assert game.hand_number == 1
    assert len(game.hand(game.to_move or 0)) == 3


def test_no_move_after_the_match_is_over() -> None:
    """RULES.md "Winning the match": once a side has won, no move can be played."""
    game = Game(ESCOBA.replace(target_score=1), 2, seed=9)
    play_random(game, random.Random(9))
    assert game.is_over()
    assert game.winner is not None
    assert game.to_move is None
    assert game.legal_moves() == []
    for seat in range(2):
        assert game.observation(seat).legal_moves == ()
    before = game.record()
    for attempt in ("Ad", Move(card("Ad")), "7d:Kd"):
        with pytest.raises(IllegalMoveError, match="over"):
            game.play(attempt)
    assert game.record() == before


# -- partnerships --------------------------------------------------------------------------


def test_sides_of_seats() -> None:
    """RULES.md "Seats, sides, dealer": with 4 players, either each for themselves or two
    sides of partners sitting opposite (0+2 against 1+3); partnerships need 4 players."""
    assert Game(ESCOBA, 4, True, seed=1).sides == ((0, 2), (1, 3))
    assert Game(ESCOBA, 4, False, seed=1).sides == ((0,), (1,), (2,), (3,))
    assert Game(ESCOBA, 3, seed=1).sides == ((0,), (1,), (2,))
    assert Game(ESCOBA, 2, seed=1).sides == ((0,), (1,))
    assert len(Game(ESCOBA, 4, True, seed=1).totals) == 2
    for players in (2, 3):
        with pytest.raises(RulesError, match="4"):
            Game(ESCOBA, players, True, seed=1)
    for players in (1, 5):
        with pytest.raises(RulesError, match="players"):
            Game(ESCOBA, players, seed=1)


def test_partners_captures_go_to_one_pile() -> None:
    """RULES.md "Seats, sides, dealer": a partnership is one side: both partners' captures
    go to one pile, and the side scores."""
    game = Game(ESCOBA, 4, True, seed=17)
    rng = random.Random(17)
    captured_by: dict[int, set[Card]] = {seat: set() for seat in range(4)}
    while game.hand_number == 0:
        seat = game.to_move
        assert seat is not None
        chosen = rng.choice(game.legal_moves())
        game.play(chosen)
        if chosen.is_capture:
            captured_by[seat] |= chosen.captures | {chosen.card}
            if game.hand_number == 0:
                assert captured_by[seat] <= game.captured[seat % 2]
    assert all(captured_by.values()), "every seat captured something"
    result = game.results[0]
    assert len(result.piles) == len(result.points) == 2
    for side, (a, b) in enumerate(((0, 2), (1, 3))):
        assert captured_by[a] | captured_by[b] <= result.piles[side]
    audit_finished_hand(game, 0)


# -- illegal moves -------------------------------------------------------------------------

ILLEGAL = [
    ("5d", IllegalMoveError, ["5d", "hold"]),  # in the other seat's hand
    ("Kd", IllegalMoveError, ["Kd", "hold"]),  # in the stock
    ("4h:4c+Kd", IllegalMoveError, ["Kd", "table"]),  # takes a card not on the table
    ("4h:5d", IllegalMoveError, ["5d", "table"]),
    ("4h:As+4c", IllegalMoveError, ["4h", "15"]),  # 4 + 1 + 4 = 9
    ("Qh:As+3h", IllegalMoveError, ["Qh", "15"]),  # 9 + 1 + 3 = 13
    ("4h", IllegalMoveError, ["4h", "must"]),  # a drop when the 4 can take
    ("zz", InvalidMoveError, ["zz"]),
    ("4h:", InvalidMoveError, ["4h"]),
    ("4h:4c+4c", InvalidMoveError, ["twice"]),
    ("4h:4h", InvalidMoveError, ["4h"]),
    ("4h:4c+10d", InvalidMoveError, ["10d"]),
    ("", InvalidMoveError, []),
    (42, InvalidMoveError, ["42"]),
    (None, InvalidMoveError, ["None"]),
    (b"4h", InvalidMoveError, []),
    (card("4h"), InvalidMoveError, []),
]


def snapshot(game: Game) -> tuple[object, ...]:
    return (
        game.record(),
        tuple(game.observation(seat) for seat in range(game.players)),
        game.to_move,
        sorted(game.legal_moves()),
        game.totals,
    )


@pytest.mark.parametrize(("attempt", "error", "fragments"), ILLEGAL, ids=repr)
def test_illegal_moves_raise_and_leave_the_game_unchanged(
    attempt: object, error: type[EscobaError], fragments: list[str]
) -> None:
    """RULES.md "A move" and DESIGN.md: a card not in hand, a capture of cards not on the
    table, a wrong sum, a drop when forced, and malformed input raise IllegalMoveError or
    InvalidMoveError (both ValueErrors) whose message names the problem; the game is
    unchanged."""
    game = worked_game()
    before = snapshot(game)
    with pytest.raises(error) as raised:
        game.play(attempt)  # type: ignore[arg-type]
    assert isinstance(raised.value, ValueError)
    for fragment in fragments:
        assert fragment in str(raised.value), str(raised.value)
    assert snapshot(game) == before
    game.play("4h:4c+7d")  # and the game goes on normally
    assert game.to_move == 0


def test_a_move_object_with_a_wrong_sum_is_illegal() -> None:
    """RULES.md "A move" (sum15): the card and the taken cards must make exactly 15."""
    game = worked_game()
    before = snapshot(game)
    with pytest.raises(IllegalMoveError, match="15"):
        game.play(Move(card("4h"), cards("4c")))
    assert snapshot(game) == before


def test_moves_may_be_written_with_suit_symbols() -> None:
    """RULES.md "Cards": parsers also take the suit symbols."""
    game = worked_game()
    game.play("4♥:4♣+7♦")
    assert set(game.table) == cards("As 3h")
    assert game.captured[1] == cards("4h 4c 7d")


@pytest.mark.parametrize("how", ["copy", "deepcopy", "pickle"])
def test_a_copy_plays_on_alone_and_exactly_as_the_original(how: str) -> None:
    """A copy (Game.copy, copy.deepcopy or a pickle round trip) is the same match: played on
    with the same moves it ends as the original does, and neither touches the other."""
    import copy
    import pickle

    game = Game(RULESETS["escoba"], players=3, seed=11)
    rng = random.Random(4)
    while game.hand_number < 1 or len(game.history()) < 10:
        moves = game.legal_moves()
        game.play(moves[rng.randrange(len(moves))])
    assert game.results  # the cached HandResult values travel too (or are made again)
    if how == "copy":
        other = game.copy()
    elif how == "deepcopy":
        other = copy.deepcopy(game)
    else:
        other = pickle.loads(pickle.dumps(game))
    before = game.record()
    assert other.record() == before and other.results == game.results
    choices = random.Random(9)
    while not other.is_over():
        moves = other.legal_moves()
        other.play(moves[choices.randrange(len(moves))])
    assert game.record() == before  # the original did not move
    choices = random.Random(9)
    while not game.is_over():
        moves = game.legal_moves()
        game.play(moves[choices.randrange(len(moves))])
    assert game.record() == other.record() and game.totals == other.totals


# -- explicit chance: decks given to the match ---------------------------------------------


def test_a_match_is_dealt_from_the_decks_given() -> None:
    """RULES.md "A hand" 1 and "Seats, sides, dealer": with ``first_dealer`` and ``decks``
    given, the named seat deals the first hand from the first deck (three cards to each seat
    from the seat after the dealer, four to the table, the rest the stock, dealt from the
    front), the next hand from the next deck, and the seed deals once they run out."""
    first = build_deck(
        2, 1, hands={0: "7d 7h 7s", 1: "Kd Kh Ks"}, table="As 2s 3s 4s", rounds=[{0: "Ad 2d 3d"}]
    )
    second = build_deck(2, 0, hands={1: "5c 6c 7c"}, table="Jc Qc Kc Ac")
    game = Game(ESCOBA, 2, seed=99, first_dealer=1, decks=[first, second])
    assert (game.dealer, game.to_move) == (1, 0)
    assert set(game.hand(0)) == cards("7d 7h 7s")
    assert set(game.hand(1)) == cards("Kd Kh Ks")
    assert set(game.table) == cards("As 2s 3s 4s")
    assert game.stock_size == 30
    play_hand(game, random.Random(3))  # the first round is dealt from the stock's front
    assert game.record()["hands"][0]["deals"] == [first]
    assert (game.dealer, set(game.hand(1))) == (0, cards("5c 6c 7c"))
    assert set(game.table) == cards("Jc Qc Kc Ac")
    play_hand(game, random.Random(4))
    hands = game.record()["hands"]
    assert [h["deals"] for h in hands] == [[first], [second], hands[2]["deals"]]
    assert hands[2]["deals"] not in ([first], [second])  # the seed's shuffle


def test_the_decks_given_deal_in_the_order_played() -> None:
    """RULES.md "A hand" 1: the first round's three cards go to each seat from the seat after
    the dealer, and every later round comes off the front of the stock in the same order."""
    deck = build_deck(
        3, 2, hands={0: "Ad 2d 3d", 1: "4d 5d 6d", 2: "7d Jd Qd"}, rounds=[{0: "Kd Ac 2c"}]
    )
    game = Game(ESCOBA, 3, seed=0, first_dealer=2, decks=[deck])
    assert [" ".join(map(str, game.hand(s))) for s in range(3)] == [
        "Ad 2d 3d",
        "4d 5d 6d",
        "7d Jd Qd",
    ]
    assert " ".join(deck[:9]) == "Ad 2d 3d 4d 5d 6d 7d Jd Qd"  # seat 0 first: after dealer 2
    rng = random.Random(1)
    for _ in range(9):
        game.play(random_legal(game, rng))
    assert set(game.hand(0)) == cards("Kd Ac 2c")


def random_legal(game: Game, rng: random.Random) -> Move:
    return rng.choice(sorted(game.legal_moves(), key=str))


@pytest.mark.parametrize(("preset", "players", "partnerships"), SEATED_PRESETS)
def test_the_decks_of_a_match_deal_the_same_match_as_its_record(
    preset: str, players: int, partnerships: bool
) -> None:
    """DESIGN.md (a match is rebuilt from its deck orders and moves): a match started from
    another's first dealer and decks and given the same moves is the same match, as
    Game.from_record rebuilds it, whether every deck is given or the seed deals the last."""
    rules = RULESETS[preset].replace(target_score=8)
    original = Game(rules, players, partnerships, seed=31)
    play_random(original, random.Random(31))
    record = original.record()
    decks = [deck for hand in record["hands"] for deck in hand["deals"]]
    for given in (decks, decks[: len(record["hands"][0]["deals"])]):
        game = Game(
            rules,
            players,
            partnerships,
            seed=31,
            first_dealer=record["first_dealer"],
            decks=given,
        )
        for hand in record["hands"]:
            for text in hand["moves"]:
                game.play(text)
        assert game.record() == record
        assert game.results == original.results == Game.from_record(record).results


def test_a_deal_voided_by_kings_takes_the_next_deck_given() -> None:
    """RULES.md "A hand" 3 (kings_redeal, Scopa): a deck showing three kings on the table is
    thrown in and the hand is dealt again from the next deck given; once the decks run out,
    from the seed."""
    kings = build_deck(2, 0, table="Kd Kh Ks 5c")
    plain = build_deck(2, 0, table="As 2h 3s 4c")
    game = Game(SCOPA, 2, seed=5, first_dealer=0, decks=[kings, plain])
    assert isinstance(game.history()[0], Redeal)
    assert set(game.table) == cards("As 2h 3s 4c")
    assert game.record()["hands"][0]["deals"] == [kings, plain]
    alone = Game(SCOPA, 2, seed=5, first_dealer=0, decks=[kings])
    deals = alone.record()["hands"][0]["deals"]
    assert deals[0] == kings and len(deals) >= 2
    assert sum(c.value == 10 for c in alone.table) < 3


BAD_DECKS: list[tuple[object, list[str]]] = [
    (build_deck(2, 0)[:39], ["deck 1", "40"]),
    ([*build_deck(2, 0)[:39], "Ad"], ["deck 1", "Ad", "more than once", "missing"]),
    ([*build_deck(2, 0)[:39], "Xx"], ["deck 1", "card 40", "Xx"]),
    ([*build_deck(2, 0)[:39], 7], ["deck 1", "card 40", "not a card"]),
    ("Ad 2d 3d", ["deck 1", "40 cards"]),
]


@pytest.mark.parametrize(("deck", "fragments"), BAD_DECKS, ids=repr)
def test_a_bad_deck_given_to_a_match_is_refused(deck: object, fragments: list[str]) -> None:
    """DESIGN.md "Exceptions" and CONTRIBUTING (bad input gets an error naming what was
    wrong): a deck that is not the 40 cards once each is refused with a RulesError naming
    the deck and the fault."""
    with pytest.raises(RulesError) as raised:
        Game(ESCOBA, 2, seed=1, decks=[build_deck(2, 0), deck])  # type: ignore[list-item]
    assert "deck 2" in str(raised.value)
    with pytest.raises(RulesError) as raised:
        Game(ESCOBA, 2, seed=1, decks=[deck])  # type: ignore[list-item]
    for fragment in fragments:
        assert fragment in str(raised.value), str(raised.value)


@pytest.mark.parametrize(
    ("settings", "fragment"),
    [
        ({"decks": 5}, "decks"),
        ({"decks": "Ad 2d"}, "decks"),
        ({"first_dealer": 2}, "first_dealer"),
        ({"first_dealer": True}, "first_dealer"),
        ({"first_dealer": "0"}, "first_dealer"),
    ],
    ids=repr,
)
def test_bad_chance_settings_are_refused(settings: dict[str, Any], fragment: str) -> None:
    """DESIGN.md "Exceptions": decks that are not a list of decks, and a first dealer that is
    not a seat, raise RulesError naming the setting."""
    with pytest.raises(RulesError, match=fragment):
        Game(ESCOBA, 2, seed=1, **settings)


# -- explicit chance: a hand dealt from a deck once the match has begun --------------------


def whole_state(game: Game) -> tuple[object, ...]:
    return (
        game.record(),
        tuple(game.observation(seat) for seat in range(game.players)),
        game.public_view(),
        game.snapshot(),
    )


def test_deal_deals_the_current_hand_from_a_deck_given() -> None:
    """RULES.md "A hand" 1 and 2: Game.deal, before a hand's first move, deals it again from
    the deck given (hands, table, stock, the initial no_sweep of a table of 15 and its pile),
    returns the hand's opening events, and the record holds that deck, so the match replays
    to the same state."""
    game = Game(ESCOBA, 2, seed=8)
    play_hand(game, random.Random(8))
    dealer = game.dealer
    no_sweep = build_deck(2, dealer, hands={1 - dealer: "Ad 2d 3d"}, table="As 2s 3s 4s")
    assert sum(c.value for c in table_of_deal(no_sweep, 2)) != 15
    fifteen = build_deck(2, dealer, hands={1 - dealer: "Ad 2d 3d"}, table="As 2s 5s 7h")
    opening = game.deal(fifteen)
    assert opening == game.history() == (Deal(1), InitialSweep(dealer, cards("As 2s 5s 7h"), 1))
    assert game.sweeps[game.side_of(dealer)] == 1
    assert game.captured[game.side_of(dealer)] == cards("As 2s 5s 7h")
    assert (game.table, game.dealer, game.hand_number) == ((), dealer, 1)
    assert set(game.hand(1 - dealer)) == cards("Ad 2d 3d")
    assert game.deal(no_sweep) == (Deal(1),)  # dealt again before any move: nothing of the last
    assert game.sweeps == (0, 0) and game.captured == (frozenset(), frozenset())
    assert set(game.table) == cards("As 2s 3s 4s")
    assert game.record()["hands"][1]["deals"] == [no_sweep]
    play_hand(game, random.Random(9))
    assert whole_state(Game.from_record(game.record())) == whole_state(game)


KINGS = build_deck(2, 0, table="Kd Kh Ks 5c")
PLAIN = build_deck(2, 0, table="As 2h 3s 4c")


def test_deal_takes_a_voided_deal_before_the_deck_played() -> None:
    """RULES.md "A hand" 3 (kings_redeal, Scopa): the decks given to Game.deal are in the
    order dealt: a deal voided by three kings first, then the deck the hand is played from."""
    game = Game(SCOPA, 2, seed=3, first_dealer=0)
    opening = game.deal(KINGS, PLAIN)
    assert isinstance(opening[0], Redeal) and set(opening[0].table) == cards("Kd Kh Ks 5c")
    assert opening[1:] == (Deal(1),)
    assert game.record()["hands"][0]["deals"] == [KINGS, PLAIN]


DEAL_REFUSALS: dict[str, tuple[tuple[object, ...], list[str]]] = {
    "no deck": ((), ["deck"]),
    "a short deck": ((PLAIN[:39],), ["deck 1", "40"]),
    "a bad card": ((PLAIN, [*PLAIN[:39], "Xx"]), ["deck 2", "Xx"]),
    "a voided deal last": ((KINGS,), ["deck 1", "void", "kings"]),
    "a deck after a deal that stands": ((PLAIN, KINGS), ["deck 1", "deck 2", "never be dealt"]),
}


@pytest.mark.parametrize("refusal", DEAL_REFUSALS)
def test_bad_decks_given_to_deal_are_refused_and_change_nothing(refusal: str) -> None:
    """DESIGN.md "every public way to change state is checked" and RULES.md "A hand" 3:
    Game.deal refuses no deck, a deck that is not the 40 cards once each, a voided deal with
    no deck after it, and a deck after a deal that stands, with a RulesError naming the
    deck; the match is unchanged."""
    decks, fragments = DEAL_REFUSALS[refusal]
    game = Game(SCOPA, 2, seed=3, first_dealer=0)
    before = whole_state(game)
    with pytest.raises(RulesError) as raised:
        game.deal(*decks)  # type: ignore[arg-type]
    for fragment in fragments:
        assert fragment in str(raised.value), str(raised.value)
    assert whole_state(game) == before


def test_deal_is_refused_once_the_hand_has_begun_or_the_match_is_over() -> None:
    """DESIGN.md "every public way to change state is checked": a hand is dealt only before
    its first move (a move taken back still counts: the record keeps it), never once the
    match is over; the refusal (IllegalMoveError) changes nothing."""
    deck = build_deck(2, 0)
    game = Game(ESCOBA, 2, seed=2, first_dealer=0)
    game.play(game.legal_moves()[0])
    for attempt in range(2):
        before = whole_state(game)
        with pytest.raises(IllegalMoveError, match="hand 1 has begun"):
            game.deal(deck)
        assert whole_state(game) == before
        if attempt == 0:
            game.take_back()
    over = Game(ESCOBA.replace(target_score=1), 2, seed=2)
    play_random(over, random.Random(2))
    before = whole_state(over)
    with pytest.raises(IllegalMoveError, match="over"):
        over.deal(deck)
    assert whole_state(over) == before


def test_a_copy_deals_from_the_decks_given_on_its_own() -> None:
    """A copy of a match started from given decks deals its later hands from them too, and
    dealing in one never changes the other."""
    decks = [build_deck(2, 0, table="As 2s 3s 4s"), build_deck(2, 1, table="Ac 2c 3c 4c")]
    game = Game(ESCOBA, 2, seed=6, first_dealer=0, decks=decks)
    other = game.copy()
    play_hand(game, random.Random(1))
    play_hand(other, random.Random(2))
    assert set(game.table) == set(other.table) == cards("Ac 2c 3c 4c")
    other.deal(decks[0])
    assert set(game.table) == cards("Ac 2c 3c 4c")


# -- a capture's effect: the one kernel of the game and the search's simulation ------------


def effect(rules: Any, move_text: str, table: str, played: int = 0) -> tuple[frozenset[Card], bool]:
    """The table after a capture and whether it sweeps, by the kernel Game and Simulation
    share."""
    key = move(move_text).key
    mask = sum(1 << c.index for c in cards(table))
    after, sig, gained = capture_effect(
        key, mask, signature(mask), played, sweep_limit(rules), rules.ace_takes_all
    )
    assert sig == signature(after)
    assert gained & ~SWEPT == key >> 6 | 1 << (key & 63)  # the card and what it took
    return cards(" ".join(str(DECK[i]) for i in range(40) if after >> i & 1)), bool(gained & SWEPT)


def test_the_capture_kernel_follows_the_sweep_rule() -> None:
    """RULES.md "A move": a capture that empties the table is a sweep; one that leaves cards
    is not; by the hand's very last card it counts only under last_play_sweep_counts (on in
    Escoba, off in Scopa); under asso piglia tutto an ace taking the whole table is no sweep,
    while an ace taking the last ace is."""
    assert effect(ESCOBA, "5d:Kd", "Kd") == (frozenset(), True)
    assert effect(ESCOBA, "5d:Kd", "Kd 2c") == (cards("2c"), False)
    assert effect(ESCOBA, "5d:Kd", "Kd", played=35) == (frozenset(), True)
    assert effect(SCOPA, "7d:7c", "7c", played=34) == (frozenset(), True)
    assert effect(SCOPA, "7d:7c", "7c", played=35) == (frozenset(), False)
    aces = SCOPA.replace(ace_takes_all=True)
    assert effect(aces, "Ad:3c+Kc", "3c Kc") == (frozenset(), False)
    assert effect(aces, "Ad:Ac", "Ac") == (frozenset(), True)
