"""The computer players in Scopone and with the regional options (issue "Scopone and the
regional ways of playing Scopa", deliverable 3): the fast simulation plays a hand exactly as
the engine does (10 or 9 cards each, one deal a hand, asso piglia tutto's capture that is no
sweep, re bello and napola in the score), every level finishes matches of both Scopone presets
in partnerships with the options on, a level chooses from its own observation alone (what the
partner holds cannot reach it), and the coach and the rule-based levels know the options.

Kept short: one short match per level and preset; ``benchmarks/ai.py`` and ``duel.py``
measure speed and strength (docs/ai.md)."""

from __future__ import annotations

import random

import pytest

from conftest import build_deck, current_deck, game_with_deck, true_simulation
from escoba import RULESETS, Card, Game, Move, RuleSet, parse_cards
from escoba.ai import make_player
from escoba.ai.coach import Coach, reasons_for
from escoba.ai.heuristics import card_weights, card_worth

SCOPONE = ("scopone-scientifico", "scopone-classico")
REGIONAL = {"ace_takes_all": True, "re_bello": True, "napola": True}


def regional(preset: str, **changes: object) -> RuleSet:
    """A preset with asso piglia tutto, re bello and napola on."""
    return RULESETS[preset].replace(**REGIONAL, **changes)


def mask(cards: object) -> int:
    return sum(1 << c.index for c in cards)  # type: ignore[attr-defined]


# -- the simulation plays a hand as the engine does ---------------------------------------


def takes_all(key: int) -> bool:
    """An ace that takes the whole table under asso piglia tutto (no ace among the taken)."""
    move = Move.of_key(key)
    return move.card.value == 1 and move.is_capture and all(c.value != 1 for c in move.captures)


@pytest.mark.parametrize(
    ("rules", "players"),
    [
        pytest.param(RULESETS["scopone-scientifico"], 4, id="scientifico-4"),
        pytest.param(regional("scopone-scientifico"), 4, id="scientifico-regional-4"),
        pytest.param(regional("scopone-classico"), 4, id="classico-regional-4"),
        pytest.param(regional("scopone-scientifico"), 2, id="scientifico-regional-2"),
        pytest.param(regional("scopone-classico"), 2, id="classico-regional-2"),
        pytest.param(regional("scopa"), 3, id="scopa-regional-3"),
    ],
)
def test_the_simulation_replays_random_hands_with_the_options(rules: RuleSet, players: int) -> None:
    # Random play through whole hands (40 plays in scientifico, 36 in classico: one deal
    # with 4 seats, two with 2): the same legal moves, sweeps, piles and points; apply and
    # undo leave the simulation as it was.
    rng = random.Random(f"{rules.hand_cards}:{players}")
    aces = 0
    for seed in range(4):
        game = Game(rules, players, players == 4, seed=seed)
        sim = true_simulation(game)
        while not game.results:
            keys = game.legal_keys()
            assert sorted(sim.legal_keys()) == sorted(keys)
            assert sim.table == mask(game.table) and sim.to_move == game.to_move
            # An ace that takes all whenever there is one, so that its rule is met often.
            key = next(filter(takes_all, keys), None) if rules.ace_takes_all else None
            aces += key is not None
            key = rng.choice(keys) if key is None else key
            state = (sim.table, list(sim.piles), list(sim.sweeps), sim.played)
            sim.apply(key)
            sim.undo()
            assert (sim.table, sim.piles, sim.sweeps, sim.played) == state
            sim.apply(key)
            swept = sum(sim.sweeps) > sum(state[2])
            assert game.play_key(key).sweep == swept
        result = game.results[0]
        assert sim.is_over and sim.table == 0
        assert sim.piles == [mask(p) for p in result.piles]
        assert tuple(sim.sweeps) == result.sweeps
        assert sim.points() == result.points
    assert aces or not rules.ace_takes_all  # the rule was played


def test_an_ace_that_takes_all_is_no_sweep_in_the_simulation() -> None:
    # RULES.md, asso piglia tutto: the ace takes the whole table when no ace lies there, and
    # that is not a sweep.
    rules = regional("scopone-classico")
    deck = build_deck(
        4, 0, hands={1: "Ad 2c 3c 4c 5c 6c 7c Jc Qc"}, table="5s Ks 3h Jh", hand_cards=9
    )
    game = game_with_deck(rules, 4, deck, partnerships=True)
    assert game.to_move == 1
    sim = true_simulation(game)
    key = Move.parse("Ad:5s+Ks+3h+Jh").key
    assert key in sim.legal_keys() and takes_all(key)
    sim.apply(key)
    assert not game.play_key(key).sweep
    assert sim.table == 0 and sim.sweeps == [0, 0] and sim.piles[1] == mask(game.captured[1])


# -- every level plays the options legally through a match ------------------------------


# Every level plays both presets; the former names expert and master (merged into hard, which
# plays Scopone with the tree search) one each: they still play, as hard.
MATCHES = [
    *((level, preset) for level in ("beginner", "easy", "medium", "hard", "baseline")
      for preset in SCOPONE),
    ("expert", "scopone-classico"),
    ("master", "scopone-scientifico"),
]  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize(("level", "preset"), MATCHES)
def test_every_level_finishes_a_scopone_match_with_the_regional_options(
    level: str, preset: str
) -> None:
    rules = regional(preset, target_score=1)  # a short match: a hand or two
    game = Game(rules, 4, True, seed=f"scopone:{level}:{preset}")
    # The level on seat 0; its partner and the opponents quick levels.
    names = [level, "easy", "medium", "medium"]
    seats = [make_player(name, seed) for seed, name in enumerate(names)]
    choices = 0
    while (seat := game.to_move) is not None:
        legal = game.legal_moves()
        move = seats[seat].choose(game.observation(seat), legal)
        assert move in legal
        choices += seat == 0 and len(legal) > 1
        game.play(move)
    assert game.winner is not None and choices >= 3
    assert all(len(result.breakdown) == 8 for result in game.results)


# -- a level chooses from its own observation alone ---------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("plays", [5, 30])
def test_a_level_chooses_from_its_observation_alone_in_partnerships(plays: int) -> None:
    # Two deals of scopone scientifico alike in everything the seat to move has seen, but
    # with the cards the other three still hold (the partner's among them) shuffled between
    # them: the same observation, and every level with the same seed makes the same choice.
    # Nothing of the partner's hand reaches a player but through the plays everyone sees.
    rules = regional("scopone-scientifico")
    deck = [str(c) for c in current_deck(Game(rules, 4, True, seed=77))]
    rng = random.Random(plays)
    first = game_with_deck(rules, 4, deck, partnerships=True)
    played: list[str] = []
    for _ in range(plays):
        move = rng.choice(first.legal_moves())
        played.append(str(move))
        first.play(move)
    seat = first.to_move
    assert seat is not None
    partner = (seat + 2) % 4
    held = {s: [str(c) for c in first.hand(s)] for s in range(4) if s != seat}
    pooled = [c for s in sorted(held) for c in held[s]]
    swap = {c: c for c in pooled}
    while {swap[c] for c in held[partner]} == set(held[partner]):
        shuffled = pooled[:]
        rng.shuffle(shuffled)
        swap = dict(zip(pooled, shuffled, strict=True))
    second = game_with_deck(
        rules, 4, [swap.get(c, c) for c in deck], partnerships=True, moves=played
    )
    assert set(second.hand(partner)) != set(first.hand(partner))
    seen = first.observation(seat)
    assert second.observation(seat) == seen
    # expert is a former name of hard: it must play the same from the same seed too.
    for level in ("beginner", "easy", "medium", "hard", "expert", "baseline"):
        ones = make_player(level, 5).choose(seen, first.legal_moves())
        other = make_player(level, 5).choose(second.observation(seat), second.legal_moves())
        assert ones == other, level


# -- the rule-based levels and the coach know the options ---------------------------------


def test_re_bello_and_napola_make_their_coins_worth_more() -> None:
    plain = RULESETS["scopone-scientifico"]
    options = regional("scopone-scientifico")
    nothing: list[frozenset[Card]] = [frozenset(), frozenset()]
    for text in ("Kd", "Ad", "2d", "3d"):
        card = Card.parse(text)
        assert card_worth(card, card_weights(options, nothing, 0)) > card_worth(
            card, card_weights(plain, nothing, 0)
        )
    # A side with the ace and 2 of coins wants the 3 most; once another side holds one of
    # the three, napola is out of its reach and the 3 is worth no more than in plain Scopa.
    ace_two = [frozenset(parse_cards("Ad 2d")), frozenset()]
    three = Card.parse("3d")
    assert card_worth(three, card_weights(options, ace_two, 0)) > card_worth(
        three, card_weights(options, nothing, 0)
    )
    blocked = [frozenset(parse_cards("Ad")), frozenset(parse_cards("2d"))]
    assert card_worth(three, card_weights(options, blocked, 0)) == pytest.approx(
        card_worth(three, card_weights(plain, blocked, 0))
    )


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_re_bello_makes_a_level_take_the_king_of_coins(level: str) -> None:
    # The 6 takes the 6 of coins (a coin and a six for the primiera), the king the king of
    # coins (a coin): the six is worth more in plain Scopa, the king once it scores a point.
    deck = build_deck(2, 1, hands={0: "Kc 6h 5s"}, table="Kd 6d Ah Js")
    chosen = []
    for re_bello in (False, True):
        game = game_with_deck(RULESETS["scopa"].replace(re_bello=re_bello), 2, deck, dealer=1)
        chosen.append(make_player(level, 0).choose(game.observation(0), game.legal_moves()))
    assert chosen == [Move.parse("6h:6d"), Move.parse("Kc:Kd")]


def test_the_coach_never_calls_an_ace_taking_all_a_sweep() -> None:
    rules = regional("scopone-classico")
    deck = build_deck(
        4, 0, hands={1: "Ad 2c 3c 4c 5c 6c 7c Jc Qc"}, table="5s Ks 3h Jh", hand_cards=9
    )
    game = game_with_deck(rules, 4, deck, partnerships=True)
    observation = game.observation(1)
    good, _ = reasons_for(observation, Move.parse("Ad:5s+Ks+3h+Jh"))
    assert "coach.sweeps" not in {reason.key for reason in good}
    assert good  # it still says what the ace takes
    advice = Coach(seed=1).advise(observation)
    assert {ranked.move for ranked in advice.ranked} == set(game.legal_moves())
