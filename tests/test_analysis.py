"""The analysis of a match (issue "Learn from every match", deliverables 1 and 4): exact values
where every card is known, each move valued against the best and classed, accuracy, and what
a stored analysis keeps. Exact values are checked against an independent search over the
engine's own games (copies played to the hand's end and scored by the engine)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from conftest import build_deck, game_with_deck
from escoba import RULESETS, Card, EscobaError, Game, Move, captures
from escoba.ai.analysis import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    Analyst,
    MatchAnalysis,
    MoveAnalysis,
    Position,
    accuracy_of,
    judgement_of,
    positions,
)
from escoba.ai.exact import exact_values, is_exact
from escoba.observation import Observation

SEVEN_OF_COINS = Card.parse("7d")
CHEAP = {"budget": 300, "min_deals": 2}
"""A small search: the tests check what the analysis does, not how strong its search is."""


def hand_margin(game: Game, side: int, hand: int) -> float:
    """The best ``side`` can make of the rest of hand ``hand`` (its points less the other
    side's), both seats playing their best: the engine's games searched whole."""
    if len(game.results) > hand:
        points = game.results[hand].points
        return points[side] - points[1 - side]
    values = []
    for move in game.legal_moves():
        after = game.copy()
        after.play(move)
        values.append(hand_margin(after, side, hand))
    assert game.to_move is not None
    return max(values) if game.side_of(game.to_move) == side else min(values)


def played_out(preset: str, seed: int, players: int = 2) -> Game:
    """A match played to its end by seeded random moves."""
    game = Game(RULESETS[preset], players=players, seed=seed)
    rng = random.Random(seed)
    while game.to_move is not None:
        game.play(rng.choice(game.legal_moves()))
    return game


def exact_positions(preset: str, seeds: range) -> Iterator[tuple[Game, Observation]]:
    """Positions of two-player matches (random play) whose stock is empty."""
    for seed in seeds:
        game = Game(RULESETS[preset], players=2, seed=seed)
        rng = random.Random(seed)
        while game.to_move is not None:
            observation = game.observation(game.to_move)
            if observation.stock_size == 0:
                yield game, observation
            game.play(rng.choice(game.legal_moves()))


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["escoba", "scopa", "escova"])
def test_exact_values_are_the_hands_best_margins(preset: str) -> None:
    checked = 0
    for game, observation in exact_positions(preset, range(3)):
        assert is_exact(observation)
        side = game.side_of(observation.seat)
        for move, value in exact_values(observation):
            after = game.copy()
            after.play(move)
            assert value == pytest.approx(hand_margin(after, side, game.hand_number))
        checked += 1
    assert checked > 20


def test_a_position_with_hidden_cards_has_no_exact_value() -> None:
    game = Game(RULESETS["escoba"], players=2, seed=1)
    observation = game.observation(game.to_move or 0)
    assert not is_exact(observation)
    with pytest.raises(EscobaError, match="30 cards in the stock"):
        exact_values(observation)
    three = Game(RULESETS["escoba"], players=3, seed=1)
    assert not is_exact(three.observation(three.to_move or 0))


@pytest.mark.slow
def test_the_analysis_values_exact_positions_exactly() -> None:
    """Where every card is known the analysis takes the exact values, not the search's."""
    game = played_out("escoba", 4)
    analysis = Analyst(**CHEAP).analyse(game.record())
    found = positions(game.record())
    exact = [m for m in analysis.moves if m.exact]
    assert exact
    for move in exact:
        observation = found[move.index].observation
        values = dict(exact_values(observation))
        assert move.value == pytest.approx(values[move.move])
        assert move.best_value == pytest.approx(max(values.values()))
        assert move.loss == pytest.approx(max(values.values()) - values[move.move])
    # Before the stock is empty the values are estimates.
    assert not analysis.moves[0].exact


def test_the_last_lead_is_the_final_score() -> None:
    """The graph's last point, after the match's last move (exact: its hand is played out),
    is the final difference of the match points."""
    game = played_out("scopa", 7)
    analysis = Analyst(**CHEAP).analyse(game.record())
    last = analysis.moves[-1]
    assert last.exact
    assert last.lead == pytest.approx(game.totals[0] - game.totals[1])


def test_thresholds_class_the_losses() -> None:
    assert judgement_of(0.0) == "best"
    assert judgement_of(INACCURACY - 0.01) == "good"
    assert judgement_of(INACCURACY) == "inaccuracy"
    assert judgement_of(MISTAKE) == "mistake"
    assert judgement_of(BLUNDER) == "blunder"
    assert judgement_of(5.0, choices=1) == "only"
    assert accuracy_of([]) is None
    assert accuracy_of([0.0]) == 100.0
    assert accuracy_of([INACCURACY]) == pytest.approx(74.08, abs=0.01)


def left_after(observation: Observation, move: Move) -> list[Card]:
    """The table a move leaves."""
    if move.is_capture:
        return [c for c in observation.table if c not in move.captures]
    return [*observation.table, move.card]


def other_can_take(
    observation: Observation, move: Move, whole: bool, card: Card | None = None
) -> bool:
    """Whether the other seat (whose hand is the unseen cards: the stock is empty) holds a card
    that takes, from the table ``move`` leaves, the whole table or ``card``."""
    table = left_after(observation, move)
    if not table or (card is not None and card not in table):
        return False
    for played in observation.unseen:
        for taken in captures(played, table, observation.rules):
            if (whole and len(taken) == len(table)) or (card is not None and card in taken):
                return True
    return False


def judged(observation: Observation, move: Move) -> MoveAnalysis:
    analysis = Analyst(**CHEAP).analyse_position(
        Position(0, 1, observation, move, observation.totals)
    )
    assert analysis.exact
    values = dict(exact_values(observation))
    assert analysis.loss == pytest.approx(max(values.values()) - values[move])
    return analysis


@pytest.mark.slow
def test_leaving_a_sweep_the_other_player_holds_is_a_mistake() -> None:
    """RULES.md, "Sweeps": in the hand's last round, a drop that leaves a table the other
    seat's card takes whole, where another drop would leave it none, gives the other side a
    point: a mistake or worse, as a player expects, and the coach says why. (In a few such
    positions the other drop loses as much later on: the exact search knows.)"""
    faults = {"coach.leaves_sweep", "coach.high_card_on_empty_table", "coach.gives_seven_of_coins"}
    cases = []
    for _, observation in exact_positions("escoba", range(40)):
        drops = [m for m in observation.legal_moves if not m.is_capture]
        if len(drops) != len(observation.legal_moves):
            continue  # a capture changes more than the sweep it leaves
        faulty = [m for m in drops if other_can_take(observation, m, whole=True)]
        clean = [m for m in drops if not other_can_take(observation, m, whole=True)]
        if faulty and clean:
            cases.append((observation, faulty[0]))
    assert len(cases) >= 20
    classes = [judged(observation, move) for observation, move in cases]
    mistakes = [a for a in classes if a.judgement in ("mistake", "blunder")]
    assert len(mistakes) >= 0.9 * len(classes)
    for analysis in mistakes:
        assert analysis.best != analysis.move
        assert {r.key for r in analysis.reasons} & faults


@pytest.mark.slow
def test_leaving_the_seven_of_coins_to_the_other_player_is_costly() -> None:
    """RULES.md, scoring: the 7 of coins is a point by itself. With the 7 of coins on the
    table and a move that takes it, a move that leaves it to a card the other seat holds is
    costly, and the coach says it leaves the 7 of coins."""
    cases = []
    for _, observation in exact_positions("escoba", range(60)):
        if SEVEN_OF_COINS not in observation.table:
            continue
        if not any(SEVEN_OF_COINS in m.captures for m in observation.legal_moves):
            continue
        cases += [
            (observation, m)
            for m in observation.legal_moves
            if other_can_take(observation, m, whole=False, card=SEVEN_OF_COINS)
        ]
    assert len(cases) >= 20
    classes = [judged(observation, move) for observation, move in cases]
    costly = [a for a in classes if a.is_costly]
    assert len(costly) >= 0.95 * len(classes)
    for analysis in costly:
        assert "coach.gives_seven_of_coins" in {r.key for r in analysis.reasons}


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_passing_up_a_sweep_is_a_mistake(seed: int) -> None:
    """RULES.md, "Sweeps": the first move of a hand, with cards still hidden (valued by the
    search, not exactly). The 5 takes the whole table (15) for a sweep; taking two cards
    with the king instead gives up the sweep's point and leaves 5 for any unseen 10."""
    deck = build_deck(2, 0, hands={1: "5s Kh 6d"}, table="Ac 2c 3c 4h")
    observation = game_with_deck(RULESETS["escoba"], 2, deck).observation(1)
    analyst = Analyst(seed=seed, budget=6_000, min_deals=40)
    move = Move.parse("Kh:2c+3c")
    analysis = analyst.analyse_position(Position(0, 1, observation, move, (0, 0)))
    assert not analysis.exact
    assert analysis.best == Move.parse("5s:Ac+2c+3c+4h")
    assert analysis.judgement in ("mistake", "blunder")
    assert "coach.sweeps" in {r.key for r in analysis.best_reasons}
    assert "coach.leaves_sweep" in {r.key for r in analysis.reasons}


def test_a_move_taken_back_is_not_judged() -> None:
    game = Game(RULESETS["escoba"], players=2, seed=3)
    first = game.legal_moves()[0]
    game.play(first)
    game.take_back()
    kept = game.legal_moves()[-1]
    game.play(kept)
    found = positions(game.record())
    assert [p.move for p in found] == [kept]
    assert found[0].index == 0
    assert found[0].step == 3  # the deal, the move taken back, its take back, then this move


@pytest.mark.slow
def test_a_resumed_analysis_equals_an_uninterrupted_one() -> None:
    record = played_out("escova", 2).record()
    whole = Analyst(seed=5, **CHEAP).analyse(record)
    seen: list[int] = []
    half = list(whole.moves[: len(whole.moves) // 2])
    resumed = Analyst(seed=5, **CHEAP).analyse(
        record, done=half, on_move=lambda move, total: seen.append(total)
    )
    assert resumed == whole
    assert len(seen) == len(whole.moves) - len(half)
    assert set(seen) == {len(whole.moves)}


@pytest.mark.slow
def test_a_stored_analysis_reads_back_the_same() -> None:
    analysis = Analyst(**CHEAP).analyse(played_out("escoba", 9).record())
    assert MatchAnalysis.from_dict(analysis.to_dict()) == analysis
    counts = analysis.counts(0)
    assert sum(counts.values()) == len(analysis.of_seat(0))
    accuracy = analysis.accuracy(0)
    assert accuracy is not None and 0 <= accuracy <= 100
    with pytest.raises(EscobaError, match="malformed"):
        MoveAnalysis.from_dict({"index": 0})
    with pytest.raises(EscobaError, match="malformed"):
        MatchAnalysis.from_dict({"players": 2, "moves": [{"move": "zz"}]})


def test_an_explanation_names_the_cards_in_the_readers_deck() -> None:
    analysis = Analyst(**CHEAP).analyse(played_out("escoba", 4).record())
    costly = analysis.costly()
    assert costly
    spanish = costly[0].explanation("es", "spanish")
    assert spanish.startswith("Cuesta unos")
    assert " de " in spanish  # "3 de espadas": a card named as the Spanish deck names it
    assert (
        "♠" in costly[0].explanation("en", "french")
        or "♥" in costly[0].explanation("en", "french")
        or "♦" in costly[0].explanation("en", "french")
        or "♣" in costly[0].explanation("en", "french")
    )
