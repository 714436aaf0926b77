"""Every move returns its event (the Play, with what followed it by itself), and the engine's
read-only snapshot: what clients use instead of working a move's effects out again."""

from __future__ import annotations

import pickle
import random

import pytest

from escoba import RULESETS, Deal, Game, Play
from escoba.play import LocalMatch
from escoba.records import MatchRecord, parse_record

SEATINGS = [(2, False), (3, False), (4, False), (4, True)]


def _history_plays(game: Game, hand_number: int) -> list[Play]:
    return [event for event in game.history(hand_number) if isinstance(event, Play)]


@pytest.mark.parametrize(("players", "partnerships"), SEATINGS)
@pytest.mark.parametrize("preset", ["escoba", "scopa", "escova"])
def test_each_play_returns_its_event_with_what_followed(
    preset: str, players: int, partnerships: bool
) -> None:
    """RULES.md "A hand": rounds of three cards each until the stock is empty; the hand is
    scored after its last play and the next dealer deals, until a side has won."""
    game = Game(RULESETS[preset], players, partnerships, seed=f"{preset}{players}")
    rng = random.Random(players)
    hands_seen = 0
    while not game.is_over():
        seat, hand_number = game.to_move, game.hand_number
        stock, results = game.stock_size, len(game.results)
        event = game.play(rng.choice(game.legal_moves()))
        assert event.seat == seat
        # The returned play equals its entry in the hand's history.
        assert event == _history_plays(game, hand_number)[-1]
        if event.result is None:
            assert game.hand_number == hand_number and len(game.results) == results
            assert event.winner is None and event.next_hand == ()
            if event.deal is None:
                assert game.stock_size == stock
            else:
                assert game.stock_size == stock - 3 * players
                assert all(size == 3 for size in game.hand_sizes)
                assert game.history()[-1] == event.deal
                assert isinstance(event.deal, Deal) and event.deal.round >= 2
        else:
            hands_seen += 1
            assert event.deal is None
            assert event.result == game.results[-1] and len(game.results) == results + 1
            if event.winner is None:
                assert not game.is_over() and game.hand_number == hand_number + 1
                assert event.next_hand == game.history()
                assert Deal(1) in event.next_hand
            else:
                assert game.is_over() and event.winner == game.winner
                assert event.next_hand == ()
    assert hands_seen == len(game.results) >= 1


def test_play_key_returns_the_same_event_as_play() -> None:
    game = Game(RULESETS["escoba"], 2, seed=11)
    other = game.copy()
    while not game.is_over():
        move = game.legal_moves()[-1]
        by_move, by_key = game.play(move), other.play_key(move.key)
        assert by_move == by_key
        assert (by_move.deal, by_move.result, by_move.next_hand, by_move.winner) == (
            by_key.deal,
            by_key.result,
            by_key.next_hand,
            by_key.winner,
        )


def test_an_event_shows_only_what_followed_in_its_text() -> None:
    game = Game(RULESETS["escoba"], 2, seed=42)
    event = game.play("2c:6h+7c")
    assert repr(event) == (
        "Play(seat=0, card=Card('2c'), captures=frozenset({Card('7c'), Card('6h')}), "
        "sweep=False, kind='play')"
    )
    while (event := game.play(game.legal_moves()[0])).deal is None:
        pass
    assert repr(event).endswith(f"deal={event.deal!r})")


def test_results_are_kept_not_rebuilt_and_survive_a_pickle() -> None:
    game = Game(RULESETS["scopa"], 2, seed=3)
    while len(game.results) < 2:
        game.play(game.legal_moves()[0])
    assert game.results is game.results
    again = pickle.loads(pickle.dumps(game))
    assert again.results == game.results and again.results is not game.results
    # A result, and so a play that ended a hand, travels on its own (to a worker process).
    assert pickle.loads(pickle.dumps(game.results[0])) == game.results[0]
    while (event := game.play(game.legal_moves()[0])).result is None:
        pass
    sent = pickle.loads(pickle.dumps(event))
    assert (sent, sent.result, sent.next_hand) == (event, event.result, event.next_hand)


@pytest.mark.parametrize(("players", "partnerships"), SEATINGS)
def test_the_snapshot_is_the_state_the_public_views_show(players: int, partnerships: bool) -> None:
    game = Game(RULESETS["escoba"], players, partnerships, seed=5)
    rng = random.Random(5)
    played = [0] * players
    while not game.is_over():
        state = game.snapshot()
        assert state.hands == tuple(
            tuple(card.index for card in game.hand(seat)) for seat in range(players)
        )
        assert state.table == sum(1 << card.index for card in game.table)
        assert state.piles == tuple(sum(1 << c.index for c in pile) for pile in game.captured)
        assert (state.sweeps, state.totals, state.stock_size) == (
            game.sweeps,
            game.totals,
            game.stock_size,
        )
        assert (state.hand_number, state.dealer, state.to_move) == (
            game.hand_number,
            game.dealer,
            game.to_move,
        )
        assert state.played == tuple(played)
        event = game.play(rng.choice(game.legal_moves()))
        if event.result is None:
            played[event.seat] |= 1 << event.card.index
        elif event.winner is None:
            played = [0] * players
        else:
            played[event.seat] |= 1 << event.card.index
            assert game.snapshot().played == tuple(played)
            assert game.snapshot().to_move is None


def test_the_record_follows_its_schema_and_reads_back() -> None:
    game = Game(RULESETS["escova"], 4, True, seed=9)
    for _ in range(50):
        game.play(game.legal_moves()[0])
    record: MatchRecord = game.record()
    assert set(record) == set(MatchRecord.__annotations__)
    assert record["preset"] == "escova" and len(record["hands"]) == 2
    read = parse_record(record)
    assert read.rules == game.rules and read.first_dealer == game.first_dealer
    assert [len(moves) for moves in read.moves] == [36, 14]
    assert Game.from_record(record).record() == record


def test_a_session_reports_the_engines_event() -> None:
    match = LocalMatch.new(RULESETS["escoba"], seed=4, opponents=("easy",))
    game = match.game
    while not game.is_over() and len(game.results) < 1:
        played = match.play(match.legal_moves()[0]) if match.person_to_move() else match.advance()
        assert played is not None
        assert played.event == _history_plays(game, played.hand_number)[-1]
        assert (played.move, played.sweep) == (played.event.move, played.event.sweep)
        assert played.hand_ended == (played.event.result is not None)
    assert played.hand_ended and played.event.result == game.results[0]


def test_a_replay_hands_each_move_its_event() -> None:
    game = Game(RULESETS["scopa"], 2, seed=21)
    played = [game.play(game.legal_moves()[-1]) for _ in range(80)]
    seen: list[Play | None] = []
    Game.from_record(game.record(), lambda _game, event: seen.append(event))
    assert seen[0] is None and seen[1:] == played
    assert [e.result for e in seen[1:] if e and e.result] == list(game.results)
