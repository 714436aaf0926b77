"""Inference about hidden hands (issue "Opponents that play like masters", deliverable 1):
the play model, the evidence of a round's plays, and the weighted deals.

Players only ever get an observation; the tests look at the Game to check them."""

from __future__ import annotations

import random

import pytest

from conftest import SEATED_PRESETS, build_deck, game_with_deck
from escoba import DECK, RULESETS, Card, Game, Move
from escoba.ai import fitted
from escoba.ai.inference import Beliefs, round_evidence
from escoba.ai.policy import (
    FEATURES,
    PlayModel,
    Position,
    model_kind,
    move_features,
    sweep_chance,
)


def mask(cards: object) -> int:
    return sum(1 << c.index for c in cards)  # type: ignore[attr-defined]


def advance(game: Game, rng: random.Random, plays: int) -> None:
    hand = game.hand_number
    for _ in range(plays):
        if game.stock_size == 0 and sum(game.hand_sizes) == 1:
            break
        game.play(rng.choice(game.legal_moves()))
        assert game.hand_number == hand


# -- the play model -------------------------------------------------------------------------


def test_move_features_name_what_a_move_does() -> None:
    rules = RULESETS["escoba"]
    table = mask([Card.parse(t) for t in ("As", "2h", "3c", "2d")])
    position = Position(rules, table, (1 << 40) - 1 & ~table, plays_after=20, next_hand=3)
    named = dict(
        zip(FEATURES, move_features(position, Move.parse("7h:As+2h+3c+2d").key), strict=True)
    )
    # RULES.md "A move": 7 + 1 + 2 + 3 + 2 = 15 takes the whole table, a sweep.
    assert named["sweep"] == 1.0 and named["cards"] == 5.0 and named["sevens"] == 1.0
    assert named["drop"] == 0.0 and named["sweep_risk"] == 0.0
    dropped = dict(zip(FEATURES, move_features(position, Move.parse("Kd").key), strict=True))
    # A king onto 8 makes 18: no single card sweeps it; the king is a coin dropped.
    assert dropped["drop"] == 1.0 and dropped["drop_coin"] == 1.0 and dropped["sweep_risk"] == 0.0
    five = dict(zip(FEATURES, move_features(position, Move.parse("Ah").key), strict=True))
    # An ace onto 8 makes 9: any unseen 6 sweeps it.
    assert five["sweep_risk"] > 0.0


def test_sweep_chance_counts_the_sweeping_cards() -> None:
    table = mask([Card.parse("5h"), Card.parse("4c")])  # 9: a 6 sweeps in the 15 game
    sixes = mask([Card.parse(t) for t in ("6d", "6h", "6s", "6c")])
    others = mask([c for c in DECK if c.value == 2][:4])
    assert sweep_chance(table, others, False, 3) == 0.0
    assert sweep_chance(table, sixes, False, 1) == 1.0
    assert 0.0 < sweep_chance(table, sixes | others, False, 1) < 1.0
    # Matching: 5 + 4 = 9 is taken whole by a queen (9) only.
    queens = mask([c for c in DECK if c.value == 9])
    assert sweep_chance(table, queens | others, True, 3) > sweep_chance(table, others, True, 3)


def test_play_model_probabilities_sum_to_one() -> None:
    rules = RULESETS["scopa"]
    game = Game(rules, 2, seed=4)
    obs = game.observation(game.to_move or 0)
    table = mask(obs.table)
    position = Position(rules, table, (1 << 40) - 1 & ~table & ~mask(obs.hand), 35, 3)
    keys = game.legal_keys()
    chances = PlayModel.fitted(rules).probabilities(position, keys)
    assert len(chances) == len(keys) and abs(sum(chances) - 1.0) < 1e-9
    assert all(c > 0 for c in chances)
    with pytest.raises(ValueError, match="weights"):
        PlayModel((1.0,))


# -- the evidence of a round -----------------------------------------------------------------


def declined_sweep(preset: str, table: str, played: str) -> Game:
    """Seat 1 (first to play, dealer 0) holds a 7 that sweeps ``table``... or not: the deck
    gives it ``6h Qs Jc`` in Escoba and ``6h Qs Kc`` in Scopa, and it plays ``played``."""
    hand = "6h Qs Jc" if preset == "escoba" else "6h Qs Kc"
    deck = build_deck(2, 0, hands={1: hand, 0: "4d 5s 6c"}, table=table)
    game = game_with_deck(RULESETS[preset], 2, deck)
    assert game.to_move == 1
    game.play(Move.parse(played))
    return game


@pytest.mark.parametrize(
    ("preset", "table", "played"),
    [
        # RULES.md "A move", 15 game: As 2h 3c 2d sum to 8, so a 7 would sweep; seat 1
        # takes 2h+3c+2d with its jack (8 + 7 = 15) instead and leaves the ace.
        ("escoba", "As 2h 3c 2d", "Jc:2h+3c+2d"),
        # Matching game: 3 + 4 = 7 with no 7 on the table, so a 7 would take both (a sweep);
        # seat 1 drops its king instead.
        ("scopa", "3h 4c Js Qd", "Kc"),
    ],
)
def test_a_seat_that_declined_a_sweep_is_less_likely_to_hold_the_sweeper(
    preset: str, table: str, played: str
) -> None:
    game = declined_sweep(preset, table, played)
    obs = game.observation(0)
    beliefs = Beliefs(obs, PlayModel.fitted(obs.rules))
    uniform = Beliefs(obs)
    inferred = beliefs.hand_chances(1)
    flat = uniform.hand_chances(1)
    sevens = [c.index for c in obs.unseen if c.value == 7]
    assert sevens
    for seven in sevens:
        assert inferred[seven] < 0.5 * flat[seven]
    # The chances still add up to the seat's two cards.
    assert sum(inferred.values()) == pytest.approx(2.0)
    # Drawn deals follow the weights: sevens turn up in seat 1's hand far less often.
    rng = random.Random(3)
    hits = {"inferred": 0, "uniform": 0}
    for name, source in (("inferred", beliefs), ("uniform", uniform)):
        for _ in range(2000):
            deal = source.sample(rng)
            hits[name] += any(c in sevens for c in deal.hands[1])
    assert hits["inferred"] < 0.5 * hits["uniform"]


def test_in_scopone_a_seat_that_declined_a_sweep_is_dealt_its_sweeper_less_often() -> None:
    """Scopone scientifico deals the whole hand at once (docs/rules.md, Scopone: ten cards
    each, nothing on the table), far too many hands to weigh one by one; the chain of deals
    weighs them all. Seats 1 and 2 drop 3h and 4c (3 + 4 = 7: a 7 would take both, a sweep);
    seat 3 drops its king instead. Seat 0 then deals seat 3 a seven far less often than a
    uniform deal does, and the weighed deals are still deals of exactly the unseen cards."""
    rules = RULESETS["scopone-scientifico"]
    deck = build_deck(
        4,
        0,
        hands={
            0: "As 2s 3s 4s 5s 6s Js Qs Ks Ad",
            1: "3h Ah 2h 4h 5h 6h Jh Qh Kh 2d",
            2: "4c Ac 2c 3c 5c 6c Jc Qc 3d 4d",
            3: "Kc 5d 6d Jd Qd Kd 7s 7h 7c 7d",
        },
        hand_cards=10,
        table_cards=0,
    )
    game = game_with_deck(rules, 4, deck, partnerships=True)
    for move in ("3h", "4c", "Kc"):
        game.play(Move.parse(move))
    obs = game.observation(0)
    assert obs.to_move == 0
    model = PlayModel.fitted(rules)
    chained = Beliefs(obs, model)
    late = Beliefs(obs, model, whole_hand=False)
    uniform = Beliefs(obs)
    assert chained.weighed and not late.weighed and not uniform.weighed
    sevens = {c.index for c in obs.unseen if c.value == 7}
    assert len(sevens) == 4
    unseen = {c.index for c in obs.unseen}
    rng = random.Random(5)
    held: dict[str, float] = {}
    for name, beliefs in (("chained", chained), ("uniform", uniform)):
        counted = 0
        for _ in range(3000):
            deal = beliefs.sample(rng)
            assert {c for s in (1, 2, 3) for c in deal.hands[s]} == unseen
            assert tuple(len(h) for h in deal.hands) == obs.hand_sizes
            counted += sum(c in sevens for c in deal.hands[3])
        held[name] = counted / 3000
    # Uniformly, seat 3 holds 9 of the 28 unseen cards: 4 * 9 / 28 = 1.29 sevens.
    assert held["uniform"] == pytest.approx(4 * 9 / 28, rel=0.05)
    assert held["chained"] < 0.5 * held["uniform"]


def test_scopone_is_read_by_a_model_fitted_on_scopone() -> None:
    """The play model that weighs Scopone's deals was fitted on Scopone's own choices (ten
    cards to choose from, for a whole hand), not on Scopa's, though both capture by match;
    every 3-card game is read by its capture rule's."""
    for preset in ("scopone-scientifico", "scopone-classico"):
        assert model_kind(RULESETS[preset]) == "scopone"
        assert PlayModel.fitted(RULESETS[preset]).weights == fitted.PLAY_WEIGHTS["scopone"]
    assert fitted.PLAY_WEIGHTS["scopone"] != fitted.PLAY_WEIGHTS["match"]
    for preset in ("escoba", "scopa", "escova"):
        rules = RULESETS[preset]
        assert PlayModel.fitted(rules).weights == fitted.PLAY_WEIGHTS[rules.capture]


def test_no_evidence_means_uniform_chances() -> None:
    # Seat 1 has not played yet this round: nothing to weigh.
    deck = build_deck(2, 0, hands={1: "6h Qs Jc", 0: "4d 5s 6c"}, table="As 2h 3c 2d")
    game = game_with_deck(RULESETS["escoba"], 2, deck)
    game.play(Move.parse("Jc:2h+3c+2d"))
    game.play(game.legal_moves()[0])
    obs = game.observation(1)  # seat 1 sees seat 0's one play: evidence about seat 0
    assert [e.seat for e in round_evidence(obs, PlayModel.fitted(obs.rules))] == [0]
    fresh = Game(RULESETS["escoba"], 2, seed=1)
    first = fresh.observation(fresh.to_move or 0)
    assert round_evidence(first, PlayModel.fitted(first.rules)) == []
    beliefs = Beliefs(first, PlayModel.fitted(first.rules))
    chances = beliefs.hand_chances(1 - first.seat)
    assert len(set(chances.values())) == 1


@pytest.mark.parametrize(("preset", "players", "partnerships"), SEATED_PRESETS)
def test_inferred_deals_never_place_a_card_the_seat_has_seen(
    preset: str, players: int, partnerships: bool
) -> None:
    rng = random.Random(preset)
    model = PlayModel.fitted(RULESETS[preset])
    weighed = 0
    for seed in range(6):
        game = Game(RULESETS[preset], players, partnerships, seed=seed)
        advance(game, rng, rng.randrange(0, 32))
        for seat in range(players):
            obs = game.observation(seat)
            beliefs = Beliefs(obs, model)
            weighed += beliefs.weighed
            seen = mask(obs.table) | mask(obs.hand)
            for pile in obs.captured:
                seen |= mask(pile)
            unseen = {c.index for c in obs.unseen}
            for _ in range(20):
                deal = beliefs.sample(rng)
                assert tuple(len(h) for h in deal.hands) == obs.hand_sizes
                assert len(deal.stock) == obs.stock_size
                assert deal.hands[seat] == tuple(sorted(c.index for c in obs.hand))
                others = [c for s, h in enumerate(deal.hands) if s != seat for c in h]
                placed = others + list(deal.stock)
                assert len(set(placed)) == len(placed)
                assert set(placed) == unseen
                assert not any(seen >> c & 1 for c in placed)
            for other in range(players):
                if other == seat:
                    continue
                chances = beliefs.hand_chances(other)
                assert set(chances) == unseen
                assert sum(chances.values()) == pytest.approx(obs.hand_sizes[other])
    assert weighed  # some positions had evidence to weigh
