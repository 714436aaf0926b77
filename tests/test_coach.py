"""The coach: ranks moves by expected gain and explains them in English and German
(issue "Computer opponents", deliverable 5). Positions are dealt from chosen decks."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from conftest import build_deck, game_with_deck
from escoba import RULESETS, Game, IllegalMoveError, Move, Observation
from escoba.ai.coach import Coach, SweepKeeper, reasons_for, sweep_keeper
from escoba.messages import Message, text

ESCOBA = RULESETS["escoba"]
SCOPA = RULESETS["scopa"]


class FixedGains:
    """An evaluator that prefers moves in the order given, by one point each."""

    def __init__(self, preferred: Sequence[str]) -> None:
        self.preferred = [Move.parse(t) for t in preferred]

    def evaluate(self, observation: Observation, legal: Sequence[Move]) -> list[tuple[Move, float]]:
        order = sorted(legal, key=lambda m: self.preferred.index(m) if m in self.preferred else 99)
        return [(move, -float(rank)) for rank, move in enumerate(order)]


def position(rules: object, hand: str, table: str, players: int = 2) -> tuple[Game, Observation]:
    game = game_with_deck(rules, players, build_deck(players, 0, hands={1: hand}, table=table))  # type: ignore[arg-type]
    assert game.to_move == 1
    return game, game.observation(1)


def keys(messages: Sequence[Message]) -> list[str]:
    return [m.key for m in messages]


def test_a_sweep_and_the_seven_of_coins_are_named_as_good() -> None:
    """Seed 000, "Escoba – der Besen" and the tip "Jag die 7♦"."""
    _, obs = position(ESCOBA, "5h Kc Qs", "2s 3h 4c Ad")
    good, bad = reasons_for(obs, Move.parse("5h:Ad+2s+3h+4c"))
    assert "coach.sweeps" in keys(good)
    assert bad == []
    _, obs = position(ESCOBA, "6h Kc Qs", "7d 2s Jh Kh")
    good, _ = reasons_for(obs, Move.parse("6h:7d+2s"))
    assert "coach.takes_seven_of_coins" in keys(good)
    assert "coach.takes_a_seven" not in keys(good)  # the 7 of coins is named on its own
    _, obs = position(ESCOBA, "6h Kc Qs", "7s 2s Jh Kh")
    good, _ = reasons_for(obs, Move.parse("6h:2s+7s"))
    assert keys(good) == ["coach.takes_a_seven"]
    assert good[0].text("de") == "Holt eine Sieben, die für die Siebenen zählt."


def test_leaving_a_sweepable_table_is_named_with_the_sum_and_the_card() -> None:
    """Seed 000's first tip: leave no 5 to 14 on the table; here 8 is left, which a 7 sweeps."""
    _, obs = position(ESCOBA, "4h Kc 5s", "2s 3h 6c Jd")
    _, bad = reasons_for(obs, Move.parse("4h:2s+3h+6c"))
    leaves = [m for m in bad if m.key == "coach.leaves_sweep"]
    assert leaves and leaves[0].params == {"total": 8, "value": 7}
    assert leaves[0].text("en") == "Leaves 8 on the table, which any 7 sweeps."
    assert leaves[0].text("de") == "Lässt 8 auf dem Tisch liegen, das jede 7 abräumt."


def test_a_high_card_onto_an_empty_table_is_named() -> None:
    """Seed 000's tip: no card of 5 or more onto an empty table (the dealer swept 15 first)."""
    game, obs = position(ESCOBA, "Kc 2h 3s", "As 3h 4c 7d")
    assert game.table == ()
    _, bad = reasons_for(obs, Move.parse("Kc"))
    assert keys(bad) == ["coach.high_card_on_empty_table"]
    good, bad = reasons_for(obs, Move.parse("2h"))
    assert keys(good) == ["coach.drops"] and bad == []  # 2 on the table: 13 is no card


def test_leaving_the_seven_of_coins_within_reach_is_named() -> None:
    _, obs = position(ESCOBA, "Jc Kc Qs", "7d 2s 3h 4c")
    # Jc takes 3h+4c (8+3+4 = 15) and leaves 7d and 2s: a 6 then takes both.
    _, bad = reasons_for(obs, Move.parse("Jc:3h+4c"))
    assert "coach.gives_seven_of_coins" in keys(bad)


def test_scopa_single_card_sweeps_are_named() -> None:
    """RULES.md, Scopa: a lone card on the table is taken by any card of its value."""
    _, obs = position(SCOPA, "5h Kc Qs", "5s 2h 3d Jc")
    _, bad = reasons_for(obs, Move.parse("Qs"))
    assert "coach.leaves_match_sweep" not in keys(bad)  # 5+2+3+8+9 is not one card's value
    _, bad = reasons_for(obs, Move.parse("5h:5s"))
    assert bad == [] or "coach.leaves_match_sweep" not in keys(bad)


def test_the_verdict_ranks_and_prices_every_move() -> None:
    _, obs = position(ESCOBA, "5h Kc Qs", "2s 3h 4c Ad")
    legal = list(obs.legal_moves)
    best = "5h:Ad+3h+2s+4c"
    advice = Coach(FixedGains([best])).advise(obs)
    assert advice.ranked[0].move == Move.parse(best)
    assert advice.best.verdict.key == "coach.best"
    assert advice.best.loss == 0
    assert {a.move for a in advice.ranked} == set(legal)
    worse = advice.ranked[1]
    assert worse.verdict.key == "coach.costs_points"
    assert worse.loss == pytest.approx(1.0)
    assert "against 5h:Ad+3h+2s+4c" in worse.text("en")
    assert "gegenüber 5h:Ad+3h+2s+4c" in worse.text("de")
    assert "about 1.0 points" in worse.text("en")
    assert "etwa 1,0 Punkte" in worse.text("de")  # German writes a decimal comma
    assert advice.of(worse.move) is worse
    with pytest.raises(IllegalMoveError):
        advice.of(Move.parse("7d"))


def test_every_coach_message_has_english_and_german_text() -> None:
    from escoba.catalogue import keys, own_texts

    for key in sorted(keys()):
        if not key.startswith("coach."):
            continue  # other keys take other parameters (see their own tests)
        assert own_texts("en")[key] and own_texts("de")[key], key
        assert text(key, "es", points="1.0", best="7d", count=2, total=8, value=7)


def test_the_default_coach_searches_and_prefers_the_sweep() -> None:
    """With its own search, the coach ranks the sweep first and says why."""
    _, obs = position(ESCOBA, "5h Kc Qs", "2s 3h 4c Ad")
    advice = Coach(seed=1).advise(obs)
    assert advice.best.move == Move.parse("5h:Ad+3h+2s+4c")
    assert "coach.sweeps" in keys(advice.best.reasons)
    assert all(a.loss >= 0 for a in advice.ranked)
    assert [a.gain for a in advice.ranked] == sorted((a.gain for a in advice.ranked), reverse=True)
    assert advice.ranked[-1].verdict.key in {"coach.costs_points", "coach.close_to_best"}


def test_a_sweep_given_away_is_kept_by_another_move() -> None:
    """3♠ taking 2♣ + K♦ leaves K♥ 3♣ (13): the next player sweeps with a 2. 5♠ taking a king
    would have left 15, which no card sweeps; so would the J♣ dropped, if the coach prefers it."""
    _, obs = position(ESCOBA, "3s 5s Jc", "Kd Kh 3c 2c")
    given = Move.parse("3s:2c+Kd")
    two = Move.parse("2d").card
    assert sweep_keeper(obs, given, two) == SweepKeeper(Move.parse("5s:Kd"), safe=True)
    ranked = [Move.parse("Jc"), given]
    assert sweep_keeper(obs, given, two, ranked) == SweepKeeper(Move.parse("Jc"), safe=True)


def test_a_sweep_kept_from_the_card_that_swept() -> None:
    """Four aces on the table: every drop leaves 7 to 12, a sweep for some card; but after
    the 4♠ a 7 sweeps, which the 7♠ dropped (11: a 4 sweeps it) would have kept from it."""
    _, obs = position(ESCOBA, "4s 7s Js", "As Ac Ah Ad")
    keeper = sweep_keeper(obs, Move.parse("4s"), Move.parse("7d").card)
    assert keeper == SweepKeeper(Move.parse("7s"), safe=False)


def test_a_sweep_no_move_could_keep() -> None:
    _, obs = position(ESCOBA, "4s 4c 4h", "As Ac Ah Ad")  # each leaves 8: a 7 sweeps
    assert sweep_keeper(obs, Move.parse("4s"), Move.parse("7d").card) is None
