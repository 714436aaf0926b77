"""Scopone and the regional options of Scopa, in the engine.

Spec: docs/rules.md, "Scopone" (scientifico: 10 cards each and an empty table; classico: 9
each and 4 on the table; Scopa's rules otherwise) and "Regional options" (asso piglia tutto,
re bello, napola). The scoring of re bello and napola is in test_scoring.py.
"""

from __future__ import annotations

import random

import pytest

from conftest import audit_finished_hand, build_deck, game_with_deck, make_record, move, moves
from escoba import DECK, RULESETS, Card, Deal, Game, RecordError, Redeal, RulesError, captures
from escoba.cards import parse_cards

SCIENTIFICO = RULESETS["scopone-scientifico"]
CLASSICO = RULESETS["scopone-classico"]
ACE_TAKES_ALL = SCIENTIFICO.replace(ace_takes_all=True)

# Seat 1 leads (dealer 0); the seats' ten cards each, for the asso piglia tutto games.
TEN_EACH = {
    1: "Kc Ah 2c 3c 4c 5c 6c 7c Jc Qc",
    2: "Ad 2d 3d 4d 5d 6d 7d Jd Qd Kd",
    3: "2h 3h 4h 5h 6h 7h Jh Qh Kh As",
}


def scientifico_game(rules: object = ACE_TAKES_ALL, plays: tuple[str, ...] = ()) -> Game:
    deck = build_deck(4, 0, hands=TEN_EACH, hand_cards=10, table_cards=0)
    return game_with_deck(rules, 4, deck, partnerships=True, moves=plays)  # type: ignore[arg-type]


# -- the deal -------------------------------------------------------------------------------


def test_scientifico_deals_ten_cards_each_and_nothing_to_the_table() -> None:
    """docs/rules.md, Scopone scientifico: the whole deck is dealt, ten cards to each of the
    four players, none to the table; there is no stock and one deal a hand."""
    game = Game(SCIENTIFICO, 4, True, seed=3)
    assert game.hand_sizes == (10, 10, 10, 10)
    assert game.table == ()
    assert game.stock_size == 0
    assert game.to_move == (game.dealer + 1) % 4
    assert game.history() == (Deal(1),)
    obs = game.observation(game.to_move)
    assert len(obs.hand) == 10 and obs.stock_size == 0
    # The seat to lead drops a card onto the empty table: every card of its hand is a move.
    assert {m.card for m in game.legal_moves()} == set(game.hand(game.to_move))
    assert not any(m.is_capture for m in game.legal_moves())


def test_classico_deals_nine_cards_each_and_four_to_the_table() -> None:
    """docs/rules.md, Scopone classico: nine cards to each player and four face up."""
    game = Game(CLASSICO, 4, True, seed=3)
    assert game.hand_sizes == (9, 9, 9, 9)
    assert len(game.table) == 4
    assert game.stock_size == 0


@pytest.mark.parametrize(("rules", "plays"), [(SCIENTIFICO, 40), (CLASSICO, 36)])
def test_a_scopone_hand_is_its_one_deal_played_out(rules: object, plays: int) -> None:
    """docs/rules.md, Scopone: a hand is the one deal played out card by card (40 plays in
    scientifico, 36 in classico); no further deal; the next hand passes the deal on; each
    finished hand checks against the rules from its public history (sweeps, last card,
    leftovers to the last capturer)."""
    game = Game(rules, 4, True, seed=11)  # type: ignore[arg-type]
    rng = random.Random(11)
    dealer = game.dealer
    while not game.results:
        game.play(rng.choice(game.legal_moves()))
    history = game.history(0)
    assert [e for e in history if isinstance(e, Deal)] == [Deal(1)]
    assert sum(1 for e in history if e.kind == "play") == plays
    audit_finished_hand(game, 0)
    assert game.dealer == (dealer + 1) % 4
    assert game.hand_sizes == ((10,) * 4 if plays == 40 else (9,) * 4)


def test_scopone_for_two_is_two_deals_of_ten() -> None:
    """docs/rules.md, Scopone: with two players the deck shares out as two deals of ten."""
    game = Game(SCIENTIFICO, 2, seed=5)
    assert game.hand_sizes == (10, 10) and game.stock_size == 20
    rng = random.Random(5)
    while not game.results:
        game.play(rng.choice(game.legal_moves()))
    assert [e for e in game.history(0) if isinstance(e, Deal)] == [Deal(1), Deal(2)]
    audit_finished_hand(game, 0)


@pytest.mark.parametrize("rules", [SCIENTIFICO, CLASSICO], ids=["scientifico", "classico"])
def test_a_seating_the_deck_does_not_share_out_among_is_refused(rules: object) -> None:
    """docs/rules.md, Scopone: the deck must share out evenly; Scopone for three is refused with
    an error naming the option, and so is a record of such a match."""
    with pytest.raises(RulesError, match=r"hand_cards: .* 3 players"):
        Game(rules, 3, seed=1)  # type: ignore[arg-type]
    record = make_record(rules, 3, [[[str(c) for c in DECK]]])  # type: ignore[arg-type]
    with pytest.raises(RecordError, match="rules: hand_cards"):
        Game.from_record(record)


def test_classico_deals_again_on_three_kings() -> None:
    """docs/rules.md, Scopone classico: three or more kings among the four table cards void
    the deal (kings_redeal), as in Scopa."""
    kings = build_deck(4, 0, table="Kd Kh Ks 5c", hand_cards=9)
    plain = build_deck(4, 0, table="As 2h 3s 4c", hand_cards=9)
    record = make_record(CLASSICO, 4, [[kings, plain]], partnerships=True)
    game = Game.from_record(record)
    first = game.history()[0]
    assert isinstance(first, Redeal)
    assert set(first.table) == set(parse_cards("Kd Kh Ks 5c"))
    assert set(game.table) == set(parse_cards("As 2h 3s 4c"))


def test_the_last_card_sweeps_nothing_in_scopone() -> None:
    """docs/rules.md, Scopone: as in Scopa, a capture by the hand's very last card that empties
    the table is no sweep (checked by the audit of many random hands)."""
    assert not SCIENTIFICO.last_play_sweep_counts and not CLASSICO.last_play_sweep_counts
    for seed in range(6):
        game = Game(SCIENTIFICO if seed % 2 else CLASSICO, 4, True, seed=seed)
        rng = random.Random(seed)
        while not game.results:
            game.play(rng.choice(game.legal_moves()))
        audit_finished_hand(game, 0)


# -- asso piglia tutto --------------------------------------------------------------------


def test_an_ace_takes_the_whole_table() -> None:
    """docs/rules.md, asso piglia tutto: an ace played with no ace on the table takes every
    table card, and must (forced capture)."""
    table = parse_cards("3h 5s 7c Kc")
    taken = captures(Card.parse("Ad"), table, CLASSICO.replace(ace_takes_all=True))
    assert taken == [frozenset(table)]
    assert captures(Card.parse("Ad"), table, CLASSICO) == []
    game = scientifico_game(plays=("Kc",))
    aces = [m for m in game.legal_moves() if m.card == Card.parse("Ad")]
    assert aces == [move("Ad:Kc")]


def test_an_ace_taking_the_table_is_no_sweep() -> None:
    """docs/rules.md, asso piglia tutto: the ace's taking of the whole table is not a sweep."""
    game = scientifico_game(plays=("Kc",))
    event = game.play("Ad:Kc")
    assert event.captures == {Card.parse("Kc")}
    assert not event.sweep
    assert game.table == ()
    assert game.sweeps == (0, 0)


def test_an_ace_on_the_table_is_taken_alone_and_that_sweeps() -> None:
    """docs/rules.md, asso piglia tutto: with an ace on the table a played ace takes that ace
    (Scopa's single-card priority) and nothing else; emptying the table so is a sweep."""
    game2 = scientifico_game(plays=("Ah",))
    assert [m for m in game2.legal_moves() if m.card == Card.parse("Ad")] == [move("Ad:Ah")]
    event = game2.play("Ad:Ah")
    assert event.sweep
    assert game2.sweeps == (1, 0)  # seat 2 plays for side 0


def test_an_ace_on_an_empty_table_is_dropped() -> None:
    """docs/rules.md, asso piglia tutto: on an empty table an ace takes nothing."""
    game = scientifico_game()
    assert move("Ah") in game.legal_moves()
    game.play("Ah")
    assert game.table == (Card.parse("Ah"),)


def test_asso_piglia_tutto_only_with_matching() -> None:
    """docs/rules.md, Regional options: asso piglia tutto belongs to Scopa and Scopone; with
    the sum-15 games it is refused, naming the option."""
    with pytest.raises(RulesError, match="ace_takes_all: only makes sense with capture='match'"):
        RULESETS["escoba"].replace(ace_takes_all=True)


def test_an_illegal_ace_move_is_explained() -> None:
    """Bad input gets a clear error: a partial take by the ace names the rule."""
    game = scientifico_game(plays=("Kc", "Jd"))
    assert set(game.legal_moves()) >= moves(["As:Jd+Kc"])
    with pytest.raises(Exception, match="an ace takes an ace on the table, or else the whole"):
        game.play("As:Kc")
