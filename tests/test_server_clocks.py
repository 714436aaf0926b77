"""Clocks (issue 33, "Clocks"): a table may have a time per move and a reserve for the
match. The seat to move sees its time run on the table; when it is out, the server plays a
move for that seat by a fixed rule and counts a timeout; the deadline is stored with the
match, so that a process taking the room over (here: a server started again) enforces it, and
a timeout is played exactly once. Driven by a clock the test moves, never by sleeping.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from escoba import Move
from escoba.server.rooms.clocks import SeatClocks, TimeControl, timeout_move
from escoba.server.storage.repository import Storage
from server_helpers import (
    ManualClock,
    Message,
    Peer,
    assert_refused,
    connect,
    create_room,
    database_url,
    join_room,
    play_message,
    running_app,
    server_game,
)

CLOCK = {"per_move": 20, "reserve": 60}


def test_what_a_move_takes_beyond_its_time_comes_out_of_the_reserve() -> None:
    clocks = SeatClocks.new(TimeControl(20, 60), 2)
    clocks.start(0, 1000.0)
    assert clocks.deadline == 1080.0 and clocks.left(1010.0) == 70.0
    clocks.moved(0, 1025.0)  # 25 s: 5 beyond the move's 20
    assert clocks.reserves == [55.0, 60.0] and clocks.turn is None
    clocks.start(1, 1025.0)
    clocks.moved(1, 1105.0, timed_out=True)
    assert clocks.reserves == [55.0, 0.0] and clocks.timeouts == [0, 1]
    clocks.start(1, 1105.0)
    assert clocks.deadline == 1125.0  # a move's time only, the reserve spent
    clocks.moved(1, 1110.0)
    assert clocks.timeouts == [0, 0]  # its own move: no timeouts in a row
    again = SeatClocks.of(TimeControl(20, 60), 2, clocks.to_dict())
    assert again == clocks


def test_the_timeout_move_takes_the_most_cards_or_drops_the_lowest() -> None:
    legal = [Move.parse(text) for text in ("Kc", "3d", "7h:4s+3c", "5d:5s")]
    assert str(timeout_move(legal)) == "7h:4s+3c"
    assert str(timeout_move(legal[:2])) == "3d"


def clocked_room(client: Any) -> tuple[str, Message, Message]:
    ticket = create_room(client, seats=["person", "person"], clock=CLOCK)
    guest = join_room(client, ticket["room"], "Bea")
    return ticket["room"], ticket, guest


def test_time_runs_out_and_the_server_plays_for_the_seat(tmp_path: Path) -> None:
    clock = ManualClock()
    with running_app(tmp_path / "db", clock=clock) as client:
        ticket = create_room(client, seats=["person", "person"], clock=CLOCK)
        room = ticket["room"]
        with connect(client, room) as ana:
            _, state = ana.join(ticket["token"])
            view = state["room"]["clock"]
            assert (view["per_move"], view["reserve"], view["turn"]) == (20.0, 60.0, None)
            clock.advance(500)  # nobody's time runs until the table is full
            assert all(m["type"] != "timeout" for m in ana.barrier())
            guest = join_room(client, room, "Bea")
            with connect(client, room) as bea:
                _, state = bea.join(guest["token"])
                mover = state["match"]["to_move"]
                assert state["room"]["clock"]["turn"] == mover
                assert state["room"]["clock"]["left"] == 80.0
                game = server_game(client, room)
                expected = timeout_move(game.legal_moves())
                clock.advance(79.5)
                assert all(m["type"] != "timeout" for m in bea.barrier())
                clock.advance(1.0)
                timeout = bea.until(lambda m: m["type"] == "timeout")
                assert timeout == {"type": "timeout", "seat": mover, "timeouts": 1}
                after = bea.state_at(1)
                assert after["match"]["history"][-1]["card"] == str(expected.card)
                view = after["room"]["clock"]
                assert view["reserves"][mover] == 0.0 and view["timeouts"][mover] == 1
                assert view["turn"] == after["match"]["to_move"] != mover
                assert view["left"] == 80.0
                # the late move of the seat that timed out is refused, and changes nothing
                late = {ana.seat: ana, bea.seat: bea}.get(mover)
                if late is not None:
                    late.barrier()
                    late.send({"type": "play", "card": str(expected.card), "captures": []})
                    assert late.refused("not_your_turn")
                    assert server_game(client, room).to_move == view["turn"]


def test_a_seat_that_moves_itself_keeps_its_reserve_less_what_it_used(tmp_path: Path) -> None:
    clock = ManualClock()
    with running_app(tmp_path / "db", clock=clock) as client:
        room, ticket, guest = clocked_room(client)
        with connect(client, room) as ana, connect(client, room) as bea:
            ana.join(ticket["token"])
            bea.join(guest["token"])
            peers = {ana.seat: ana, bea.seat: bea}
            state = ana.state_at(0)
            mover = peers[state["match"]["to_move"]]
            clock.advance(25)  # 5 s beyond the move's time
            own = mover.state_at(0)
            mover.send(play_message(own["match"]["legal"][0]))
            view = ana.state_at(1)["room"]["clock"]
            assert view["reserves"][mover.seat] == 55.0 and view["timeouts"][mover.seat] == 0


@pytest.mark.slow
def test_a_deadline_passed_while_no_server_ran_is_played_once(tmp_path: Path) -> None:
    """The server stops with Bea's time running; it starts again after her deadline: the
    room, loaded when someone comes, plays her timeout at once, and only once."""
    database = tmp_path / "db"
    clock = ManualClock()
    with running_app(database, clock=clock) as client:
        room, ticket, _ = clocked_room(client)
        with connect(client, room) as ana:
            _, state = ana.join(ticket["token"])
            mover = state["match"]["to_move"]
    later = ManualClock(start=clock.time + 100)  # past the deadline, no server running
    with running_app(database, clock=later) as client:
        with connect(client, room) as ana:
            ana.join(ticket["token"])
            after = ana.state_at(1)  # played as the room loaded (or just after she joined)
            assert after["room"]["clock"]["timeouts"][mover] == 1
            assert after["match"]["history"][-1]["seat"] == mover
        store = Storage(database_url(database))
        try:
            stored = store.room(room)
            assert stored is not None
            moves = sum(len(hand["moves"]) for hand in stored.game.record()["hands"])
            assert moves == 1  # the timeout, once
            assert stored.match.clock is not None and stored.match.clock["timeouts"][mover] == 1
        finally:
            store.close()


@pytest.mark.parametrize(
    "clock",
    [{"per_move": 2, "reserve": 60}, {"per_move": 20, "reserve": -1}, {"per_move": 20}, "fast"],
)
def test_a_clock_outside_its_bounds_is_refused(client: Any, clock: object) -> None:
    body = {"nickname": "Ana", "seats": ["person", "person"], "clock": clock}
    refusal = assert_refused(client.post("/api/rooms", json=body), 422, "bad_request")
    assert "clock" in refusal["message"]


def test_a_clocked_open_table_shows_its_clock_in_the_lobby(client: Any) -> None:
    ticket = create_room(client, seats=["person", "person"], clock=CLOCK, listed=True)
    with connect(client, ticket["room"]) as ana:
        ana.join(ticket["token"])
        (table,) = client.get("/api/tables").json()["tables"]
        assert table["clock"] == {"per_move": 20.0, "reserve": 60.0}


def test_a_quick_match_is_played_against_the_standard_clock(client: Any) -> None:
    with client.websocket_connect("/ws/lobby") as one, client.websocket_connect("/ws/lobby") as two:
        peers = [Peer(one, client), Peer(two, client)]
        for number, peer in enumerate(peers):
            peer.receive()
            peer.send({"type": "seek", "nickname": f"P{number}"})
        tickets = [peer.until(lambda m: m["type"] == "paired")["ticket"] for peer in peers]
    info = client.get(f"/api/rooms/{tickets[0]['room']}").json()
    assert (info["clock"]["per_move"], info["clock"]["reserve"]) == (20.0, 60.0)


def test_a_quick_match_clock_runs_from_the_start(tmp_path: Path) -> None:
    """A table full from the moment it is made (a quick match) runs its first mover's clock
    at once: nobody waits forever for a stranger who never comes."""
    clock = ManualClock()
    with running_app(tmp_path / "db", clock=clock) as client:
        with (
            client.websocket_connect("/ws/lobby") as one,
            client.websocket_connect("/ws/lobby") as two,
        ):
            peers = [Peer(one, client), Peer(two, client)]
            for number, peer in enumerate(peers):
                peer.receive()
                peer.send({"type": "seek", "nickname": f"P{number}"})
            ticket = peers[0].until(lambda m: m["type"] == "paired")["ticket"]
        with connect(client, ticket["room"]) as first:
            _, state = first.join(ticket["token"])
            view = state["room"]["clock"]
            assert view["turn"] == state["match"]["to_move"] and view["left"] == 80.0
            clock.advance(80.5)  # nobody moves: the server does
            assert first.until(lambda m: m["type"] == "timeout")["timeouts"] == 1
