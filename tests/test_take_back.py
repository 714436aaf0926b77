"""Taking back a move: the engine's Game.take_back, the record that keeps it, the terminal
local match's take back and the server's ``take_back`` message.

A take back leaves the match exactly as it was before the move (hands, table, stock, the
captures and sweeps of RULES.md "A move", the deal of RULES.md "A hand" undone when the move
had emptied the last hand); the record keeps the move and its take back, so a replay shows
both and rebuilds the same position.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from escoba import RULESETS, Deal, Game, IllegalMoveError, Play, TakeBack
from escoba.play.local_match import LocalMatch, LocalMatchError
from escoba.records import TAKE_BACK, replay
from escoba.server.http.routes.matches import replay_views
from server_helpers import (
    Message,
    Peer,
    connect,
    create_room,
    on_server,
    play_message,
    play_until,
    server_record,
    two_people,
)

RULES = RULESETS["escoba"]


def views(game: Game) -> list[Any]:
    """Everything any seat may see, and the state behind it."""
    seen: list[Any] = [game.observation(seat) for seat in range(game.players)]
    return [*seen, game.snapshot(), game.legal_keys(), game.stock_size, game.hand_sizes]


# -- the engine -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "players", "partnerships"),
    [("escoba", 2, False), ("scopa", 3, False), ("escova", 4, True)],
)
def test_a_take_back_leaves_the_match_as_it_was_before_the_move(
    rules: str, players: int, partnerships: bool
) -> None:
    rng = random.Random(f"{rules}{players}")
    game = Game(RULESETS[rules], players, partnerships, seed=rng.randrange(10_000))
    undone = {"deal": 0, "sweep": 0, "capture": 0, "drop": 0}
    while not game.is_over():
        before = views(game)
        hand = game.hand_number
        event = game.play(rng.choice(game.legal_moves()))
        if game.hand_number != hand or game.is_over() or rng.random() < 0.4:
            continue
        taken = game.take_back()
        assert taken == TakeBack(event.seat, event.move)
        assert views(game) == before, "every seat sees exactly what it saw before the move"
        undone["deal" if event.deal else "sweep" if event.sweep else "capture"] += 1
        undone["drop"] += not event.captures
    assert all(undone.values()), f"every kind of move was taken back at least once: {undone}"


def test_take_backs_go_back_to_the_hands_first_move_then_are_refused() -> None:
    game = Game(RULES, 2, seed=5)
    start = views(game)
    first = game.play(game.legal_moves()[0])
    second = game.play(game.legal_moves()[-1])
    assert game.take_back() == TakeBack(second.seat, second.move)
    assert game.take_back() == TakeBack(first.seat, first.move)
    assert views(game) == start
    record = game.record()
    with pytest.raises(IllegalMoveError, match="hand 1 has no move yet"):
        game.take_back()
    assert game.record() == record and views(game) == start


def test_no_take_back_across_a_hands_end_nor_after_the_match() -> None:
    game = Game(RULES.replace(target_score=1), 2, seed=3)
    while game.hand_number == 0 and not game.is_over():
        game.play(game.legal_moves()[0])
    if not game.is_over():
        record, seen = game.record(), views(game)
        with pytest.raises(IllegalMoveError, match="has no move yet"):
            game.take_back()
        assert game.record() == record and views(game) == seen
    while not game.is_over():
        game.play(game.legal_moves()[0])
    record = game.record()
    with pytest.raises(IllegalMoveError, match="the match is over"):
        game.take_back()
    assert game.record() == record and game.winner is not None


def test_the_record_keeps_the_move_and_its_take_back() -> None:
    game = Game(RULES, 2, seed=11)
    kept = game.play(game.legal_moves()[0])
    dropped = game.play(game.legal_moves()[0])
    game.take_back()
    other = game.play(game.legal_moves()[-1])
    moves = game.record()["hands"][0]["moves"]
    assert moves == [str(kept.move), str(dropped.move), TAKE_BACK, str(other.move)]
    assert [event for event in game.history() if isinstance(event, Play)] == [kept, other]


def test_a_record_with_take_backs_replays_to_the_same_position_step_by_step() -> None:
    rng = random.Random(7)
    game = Game(RULES, 3, seed=21)
    expected: list[list[Any]] = [views(game)]
    for _ in range(60):
        if game.history()[-1:] != (Deal(1),) and rng.random() < 0.3:
            game.take_back()
        else:
            game.play(rng.choice(game.legal_moves()))
        expected.append(views(game))
    record = game.record()
    assert any(TAKE_BACK in hand["moves"] for hand in record["hands"])

    steps: list[Any] = []
    events: list[Play | TakeBack | None] = []

    def seen(now: Game, event: Play | TakeBack | None) -> None:
        steps.append(views(now))
        events.append(event)

    again = replay(record, on_move=seen)
    assert steps == expected
    assert again.record() == record
    assert sum(isinstance(event, TakeBack) for event in events) == sum(
        hand["moves"].count(TAKE_BACK) for hand in record["hands"]
    )
    # the copy goes on as the original does
    copy = game.copy()
    assert copy.take_back() == game.take_back() and copy.record() == game.record()


def test_a_take_back_where_the_hand_has_no_move_does_not_replay() -> None:
    record = Game(RULES, 2, seed=1).record()
    record["hands"][0]["moves"] = [TAKE_BACK]
    with pytest.raises(Exception, match=r"hand 1, move 1: no move to take back"):
        Game.from_record(record)


# -- the terminal's local match------------------------------------------------------------------


def test_a_session_takes_back_the_persons_move_and_the_computers_after_it() -> None:
    match = LocalMatch.new(RULES, players=3, seed=4, opponents=("beginner",), person=1)
    with pytest.raises(LocalMatchError, match="no move to take back"):
        match.take_back()
    while not match.person_to_move():
        match.advance()
    before = match.observation()
    mine = match.play(match.legal_moves()[0])
    while not match.person_to_move():
        match.advance()
    taken = match.take_back()
    assert [event.seat for event in taken] == [0, 2, 1]
    assert taken[-1] == TakeBack(1, mine.move)
    assert match.observation() == before and match.person_to_move()


def test_a_session_with_two_people_takes_nothing_back() -> None:
    game = Game(RULES, 2, seed=2)
    match = LocalMatch(game, [None, None], person=game.to_move or 0)
    match.play(match.legal_moves()[0])
    record = game.record()
    with pytest.raises(LocalMatchError, match="every other seat is a computer"):
        match.take_back()
    assert game.record() == record


# -- the terminal game ----------------------------------------------------------------------------


@pytest.mark.slow
def test_u_takes_back_in_the_terminal_game_and_the_replay_shows_it() -> None:
    pytest.importorskip("textual")

    from escoba.ai.coach import Coach
    from escoba.tui import EscobaApp, ReplayApp

    match = LocalMatch.new(RULES, seed=42, opponents=("beginner",))

    class Flat:
        def evaluate(self, observation: Any, legal: Any) -> list[tuple[Any, float]]:
            return [(move, 0.0) for move in legal]

    app = EscobaApp(match, pace=0, coach=Coach(Flat()))

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("u")
            assert "no move to take back" in app.screen_text()
            before = match.observation()
            await pilot.press("1")
            while not match.person_to_move():
                await pilot.pause()
            assert match.observation() != before
            await pilot.press("u")
            await pilot.pause()
            assert match.observation() == before
            assert "Move taken back" in app.screen_text()

    asyncio.run(main())
    assert match.game.record()["hands"][0]["moves"][-2:] == [TAKE_BACK, TAKE_BACK]

    replay_app = ReplayApp(match.game, match.levels, person=0)
    steps = replay_app.steps
    assert [step.taken_back for step in steps] == [False, False, False, True, True]
    assert steps[-1].move == steps[1].move and steps[-1].hands == steps[0].hands
    assert "Taken back" in replay_app.step_text(steps[-1]).plain
    assert replay_app.hand_moves == [0]


def test_the_plain_replay_shows_the_move_then_its_take_back() -> None:
    from escoba.play.render import Words
    from escoba.play.replay import replay_lines

    game = Game(RULES.replace(target_score=1), 2, seed=42)
    first = game.play(game.legal_moves()[0])
    game.take_back()
    while not game.is_over():
        game.play(game.legal_moves()[-1])
    words = Words("french", "en", game.sides, (None, "beginner"), you=0)
    lines = list(replay_lines(game, words))
    taken = next(i for i, line in enumerate(lines) if "Taken back" in line)
    assert words.card(first.card) in lines[taken] and words.card(first.card) in lines[taken - 1]
    assert sum("Taken back" in line for line in lines) == 1
    # the rest is the match as it stands: the lines of the record without the take back
    record = game.record()
    assert record["hands"][0]["moves"][:2] == [str(first.move), TAKE_BACK]
    record["hands"][0]["moves"] = record["hands"][0]["moves"][2:]
    standing = list(replay_lines(Game.from_record(record), words))
    assert standing == lines[: taken - 1] + lines[taken + 1 :]


# -- the server -----------------------------------------------------------------------------------


def my_turn_after_playing(peer: Peer) -> Message:
    """Play the first legal move, then wait until it is this peer's turn again."""
    state = peer.my_turn()
    peer.send(play_message(state["match"]["legal"][0]))
    peer.until(lambda m: m["type"] == "state" and m["event"] and m["event"]["seat"] == peer.seat)
    return peer.my_turn()


def test_a_person_takes_back_a_move_against_computers(client: TestClient) -> None:
    ticket = create_room(
        client, players=3, seats=["person", "easy", "easy"], options={"target_score": 1}
    )
    room = ticket["room"]
    with connect(client, room) as peer:
        peer.join(ticket["token"])
        before = peer.my_turn()  # the computers before us have moved, we have not
        peer.send({"type": "take_back"})
        peer.refused("nothing_to_take_back")
        after = my_turn_after_playing(peer)
        assert after["match"]["hand"] != before["match"]["hand"]
        peer.send({"type": "take_back"})
        state = peer.until(lambda m: m["type"] == "state" and m["event"] is not None)
        assert state["event"]["kind"] == "take_back" and state["event"]["seat"] == 0
        assert state["match"] == before["match"], "the position before the person's move"
        peer.settle()
        assert peer.last_state() == state, "the computers wait for the person"
        record = server_record(client, room)
        assert record["hands"][0]["moves"][-3:] == [TAKE_BACK] * 3

        # the position and the record survive the room leaving memory
        moves = on_server(client, lambda hub: hub.rooms[room].room_state.moves_stored)
        assert moves == len(record["hands"][0]["moves"])
    assert on_server(client, lambda hub: hub.evict_idle(idle_seconds=0.0)) == 1
    with connect(client, room) as peer:
        _, again = peer.join(ticket["token"])
        assert again["match"] == state["match"]
        assert server_record(client, room) == record
        final = play_until([peer], lambda s: bool(s["match"]["over"]))  # play goes on
        match_id = on_server(client, lambda hub: hub.rooms[room].match_id)
    # the finished match's replay, for its player, shows the move and then its take back
    replayed = client.post(f"/api/matches/{match_id}/replay", json={"tokens": [ticket["token"]]})
    assert replayed.status_code == 200, replayed.text
    steps = replayed.json()["steps"]
    kinds = [step["event"]["kind"] if step["event"] else None for step in steps]
    first = kinds.index("take_back")
    assert kinds[first - 3 : first + 3] == ["play"] * 3 + ["take_back"] * 3
    assert steps[first + 2]["event"]["seat"] == 0
    before_move = steps[first - 4]  # the position the person's move was made from
    assert steps[first + 2]["hands"] == before_move["hands"]
    assert steps[first + 2]["table"] == before_move["table"]
    assert steps[-1]["totals"] == final["match"]["totals"]


def test_take_back_is_refused_in_a_friends_room_and_to_spectators(client: TestClient) -> None:
    room, ana, bea = two_people(client)
    with connect(client, room) as first, connect(client, room) as second:
        first.join(ana["token"])
        second.join(bea["token"])
        mover = first if first.last_state()["match"]["to_move"] == 0 else second  # type: ignore[index]
        state = mover.my_turn()
        mover.send(play_message(state["match"]["legal"][0]))
        mover.until(lambda m: m["type"] == "state" and m["event"] is not None)
        record = server_record(client, room)
        mover.send({"type": "take_back"})
        mover.refused("not_against_computers")
        with connect(client, room) as spectator:
            spectator.watch()
            spectator.send({"type": "take_back"})
            spectator.refused("not_seated")
        assert server_record(client, room) == record


def test_the_replay_shows_the_take_back() -> None:
    game = Game(RULES, 2, seed=9)
    played = game.play(game.legal_moves()[0])
    game.take_back()
    steps, results = replay_views(game.record())
    assert results == []
    assert [step.event.kind if step.event else None for step in steps] == [
        None,
        "play",
        "take_back",
    ]
    back = steps[2].event
    assert back is not None and (back.seat, back.card) == (played.seat, str(played.card))
    assert steps[2].model_dump(exclude={"event"}) == steps[0].model_dump(exclude={"event"})


def test_a_take_back_that_cannot_be_stored_changes_nothing(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    ticket = create_room(client, seats=["person", "easy"])
    room = ticket["room"]
    storage = client.app.state.storage  # type: ignore[attr-defined]
    with connect(client, room) as peer:
        peer.join(ticket["token"])
        before = peer.my_turn()
        my_turn_after_playing(peer)
        record = server_record(client, room)

        def broken(*_: object) -> None:
            raise OSError("disk full")

        monkeypatch.setattr(storage, "write_moves", broken)
        peer.send({"type": "take_back"})
        peer.refused("storage_failed")
        assert server_record(client, room) == record
        monkeypatch.undo()
        peer.send({"type": "take_back"})
        state = peer.until(lambda m: m["type"] == "state" and m["event"] is not None)
        assert state["event"]["kind"] == "take_back"
        assert state["match"] == before["match"]
