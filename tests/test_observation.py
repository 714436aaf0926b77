"""Observations (DESIGN.md "Principles": hidden information stays hidden; a client receives
its seat's observation, never another seat's cards or the stock order)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from types import MappingProxyType

import pytest

from conftest import (
    assert_observation_hides,
    build_deck,
    cards,
    cards_in,
    current_hand_cards_in,
    game_with_deck,
    hidden_from,
    make_record,
    random_move,
)
from escoba import (
    RULESETS,
    Card,
    Deal,
    EscobaError,
    Game,
    HandResult,
    InitialSweep,
    Move,
    Observation,
    Play,
    Redeal,
    RuleSet,
)

ESCOBA = RULESETS["escoba"]
SCOPA = RULESETS["scopa"]
CONFIGS = [
    ("escoba", 2, False),
    ("scopa", 2, False),
    ("escova", 3, False),
    ("escoba-classic", 4, False),
    ("escoba-primiera", 4, True),
]
PER_SEAT = {"seat", "hand", "legal_moves"}


def config_id(config: tuple[str, int, bool]) -> str:
    preset, players, partnerships = config
    return f"{preset}-{players}p" + ("-partners" if partnerships else "")


def walk_match(game: Game, seed: int, hands: int = 2) -> Iterator[Game]:
    """Yield the game before every move of its first ``hands`` hands, and at the end."""
    rng = random.Random(seed)
    while not game.is_over() and game.hand_number < hands:
        yield game
        game.play(random_move(game, rng))
    yield game


def values_in(value: object) -> Iterator[object]:
    """Every value inside an observation, containers included."""
    yield value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from values_in(getattr(value, field.name))
    elif isinstance(value, MappingProxyType):
        for key, item in value.items():
            yield from values_in(key)
            yield from values_in(item)
    elif isinstance(value, (tuple, frozenset)):
        for item in value:
            yield from values_in(item)


# -- an immutable value --------------------------------------------------------------------


def test_observation_is_a_frozen_dataclass_of_immutable_values() -> None:
    """DESIGN.md: the observation is an immutable value: a frozen dataclass whose parts are
    tuples, frozensets, read-only mappings and frozen dataclasses (no list, dict or set)."""
    game = Game(ESCOBA, 2, seed=3)
    rng = random.Random(3)
    while game.hand_number < 1 or game.history()[-1].kind != "play":  # results and plays
        game.play(random_move(game, rng))
    obs = game.observation(game.to_move or 0)
    assert isinstance(obs, Observation)
    assert dataclasses.is_dataclass(obs)
    with pytest.raises(dataclasses.FrozenInstanceError):
        obs.hand = ()  # type: ignore[misc]
    with pytest.raises((dataclasses.FrozenInstanceError, AttributeError, TypeError)):
        obs.extra = 1  # type: ignore[attr-defined]
    assert obs.results
    kinds = set()
    for value in values_in(obs):
        kinds.add(type(value))
        assert not isinstance(value, (list, dict, set, bytearray)), type(value)
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            params = getattr(type(value), "__dataclass_params__")  # noqa: B009
            assert params.frozen, type(value)
    assert {Card, Move, Play, Deal, HandResult, RuleSet, MappingProxyType} <= kinds
    result = obs.results[0]
    with pytest.raises(TypeError):
        result.breakdown["cards"] = (9, 9)  # type: ignore[index]


def test_an_observation_does_not_change_when_the_game_moves_on() -> None:
    """DESIGN.md: an observation is a value, not a view into the game."""
    game = Game(ESCOBA, 2, seed=4)
    rng = random.Random(4)
    for _ in range(50):
        seat = game.to_move or 0
        obs = game.observation(seat)
        text = repr(obs)
        game.play(random_move(game, rng))
        assert repr(obs) == text
        assert obs != game.observation(seat)


# -- what it holds -------------------------------------------------------------------------


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_observation_holds_what_the_seat_may_know(config: tuple[str, int, bool]) -> None:
    """DESIGN.md: a seat's observation holds its own hand, the table, the stock size, every
    seat's hand size, each side's captured cards and sweeps this hand, the public history
    (who played what and took what), dealer, totals, rules; legal moves only for the seat to
    move. Checked against a tally kept by the test from the moves played."""
    preset, players, partnerships = config
    rules = RULESETS[preset]
    game = Game(rules, players, partnerships, seed=8)
    rng = random.Random(8)
    number = -1
    plays: list[Play] = []
    piles: list[set[Card]] = []
    for _ in range(150):
        if game.hand_number != number:
            number = game.hand_number
            plays = []
            piles = [set() for _ in game.sides]
            for event in game.history():
                if isinstance(event, InitialSweep):
                    piles[game.side_of(event.dealer)] |= event.cards
        for seat in range(players):
            obs = game.observation(seat)
            assert obs.seat == seat
            assert obs.side == game.side_of(seat)
            assert obs.rules == rules
            assert (obs.players, obs.partnerships, obs.sides) == (
                players,
                partnerships,
                game.sides,
            )
            assert obs.hand_number == number
            assert obs.dealer == game.dealer
            assert obs.to_move == game.to_move
            assert obs.hand == game.hand(seat)
            assert obs.table == game.table
            assert obs.stock_size == game.stock_size
            assert obs.hand_sizes == tuple(len(game.hand(s)) for s in range(players))
            assert obs.captured == tuple(frozenset(p) for p in piles)
            assert obs.sweeps == game.sweeps
            assert len(obs.sweeps) == len(game.sides)
            assert [e for e in obs.history if isinstance(e, Play)] == plays
            assert obs.history == game.history()
            assert obs.totals == game.totals
            assert obs.results == game.results
            assert obs.winner is None
            if seat == game.to_move:
                assert set(obs.legal_moves) == set(game.legal_moves())
                assert obs.legal_moves
            else:
                assert obs.legal_moves == ()
        mover = game.to_move
        assert mover is not None
        chosen = random_move(game, rng)
        game.play(chosen)
        if game.hand_number == number:
            last = [e for e in game.history() if isinstance(e, Play)][-1]
            plays.append(last)
            assert (last.seat, last.card, last.captures) == (
                mover,
                chosen.card,
                chosen.captures,
            )
            if chosen.is_capture:
                piles[game.side_of(mover)] |= chosen.captures | {chosen.card}


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_seats_differ_only_in_their_own_cards(config: tuple[str, int, bool]) -> None:
    """DESIGN.md: everything but the seat's own hand (and its legal moves) is public, so all
    seats see the same public part."""
    preset, players, partnerships = config
    game = Game(RULESETS[preset], players, partnerships, seed=2)
    for current in walk_match(game, seed=2, hands=1):
        observations = [current.observation(s) for s in range(players)]
        for obs in observations[1:]:
            differing = {
                f.name
                for f in dataclasses.fields(obs)
                if getattr(obs, f.name) != getattr(observations[0], f.name)
            }
            assert differing <= PER_SEAT, differing


def test_observation_at_the_end_of_the_match() -> None:
    """RULES.md "Winning the match": once the match is over, nobody is to move, nobody has
    legal moves, and every observation names the winner and the final totals."""
    game = Game(ESCOBA.replace(target_score=1), 3, seed=6)
    for _ in walk_match(game, seed=6, hands=99):
        pass
    assert game.is_over()
    for seat in range(3):
        obs = game.observation(seat)
        assert obs.to_move is None
        assert obs.legal_moves == ()
        assert obs.winner == game.winner is not None
        assert obs.totals == game.totals
        assert obs.results == game.results
        assert_observation_hides(game, seat)


def test_observation_of_a_bad_seat_is_refused() -> None:
    """DESIGN.md "Exceptions": a bad seat is an error naming the seat, not another view."""
    game = Game(ESCOBA, 2, seed=1)
    for seat in (2, -1, 7):
        with pytest.raises(EscobaError, match=str(seat)):
            game.observation(seat)


# -- nothing hidden ------------------------------------------------------------------------


def test_the_walk_finds_cards_everywhere() -> None:
    """The leak check's walk finds cards in every kind of place an observation holds them:
    hand, table, piles, history plays and initial sweeps, legal moves."""
    deck = build_deck(2, 0, hands={1: "5h 6h 7h", 0: "Kh Qh Jh"}, table="As 2s 5s 7d")
    game = game_with_deck(ESCOBA, 2, deck)  # the dealer sweeps the 15 on the table
    game.play("5h")
    obs = game.observation(0)
    found = current_hand_cards_in(obs)
    assert cards("As 2s 5s 7d 5h Kh Qh Jh") <= found
    assert cards("6h 7h").isdisjoint(found)
    assert set(cards_in(obs.legal_moves)) >= cards("Kh Qh Jh")
    with pytest.raises(AssertionError):
        list(cards_in(object()))


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_observation_never_names_a_hidden_card(config: tuple[str, int, bool]) -> None:
    """DESIGN.md: an observation never contains another seat's hand cards (a partner's
    included) or any stock card; every field is walked, history events too. Past deals
    (finished hands' results, thrown-in deals) are left out: those cards were shown then."""
    preset, players, partnerships = config
    game = Game(RULESETS[preset], players, partnerships, seed=13)
    for current in walk_match(game, seed=13, hands=2):
        for seat in range(players):
            assert_observation_hides(current, seat)
            obs = current.observation(seat)
            assert obs.unseen == frozenset(hidden_from(current, seat))


def test_a_redeal_shows_only_the_thrown_in_table() -> None:
    """RULES.md "A hand" 3: after a Scopa redeal the observation shows the thrown-in table
    (it was face up) but nothing of the new deal's hidden cards."""
    first = build_deck(2, 0, table="Kd Kh Ks 5c")
    second = build_deck(2, 0, hands={1: "5c 6d 7d"}, table="As 2h 3s 4c")
    game = Game.from_record(make_record(SCOPA, 2, [[first, second]]))
    obs = game.observation(0)
    assert obs.history[0] == Redeal(tuple(sorted(cards("Kd Kh Ks 5c"))))
    assert_observation_hides(game, 0)
    assert_observation_hides(game, 1)


def test_observation_has_no_seed_or_deck() -> None:
    """DESIGN.md: the stock order must stay hidden, and the seed would reveal it."""
    names = {f.name for f in dataclasses.fields(Observation)}
    assert not names & {"seed", "deck", "deals", "stock", "record", "first_dealer"}
    game = Game(ESCOBA, 2, seed=123456789)
    values = list(values_in(game.observation(0)))
    assert 123456789 not in values
