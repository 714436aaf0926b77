"""Seats nobody abandons (issue 33): a seat whose person is gone, away longer than the grace
period (60 s by default) or three timeouts in a row, is abandoned; the others may give it to
a computer, and the match goes on, or, when nobody is left on the other side, claim the match,
recorded as won by abandonment. Whoever comes back within the grace period plays on. Driven by
a clock the test moves, never by sleeping.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from escoba.server.config import DEFAULT_TIMINGS
from escoba.server.storage.repository import Storage
from server_helpers import (
    ManualClock,
    Message,
    Peer,
    connect,
    create_room,
    database_url,
    is_state,
    join_room,
    running_app,
)

GRACE = DEFAULT_TIMINGS.abandon_after


def abandoned(state: Message) -> list[int]:
    return [seat["seat"] for seat in state["room"]["seats"] if seat["abandoned"]]


def latest(peer: Peer) -> Message:
    peer.barrier()
    state = peer.last_state()
    assert state is not None
    return state


@pytest.mark.slow
def test_a_player_back_within_the_grace_period_plays_on(tmp_path: Path) -> None:
    clock = ManualClock()
    with running_app(tmp_path / "db", clock=clock) as client:
        ticket = create_room(client, seats=["person", "person"])
        guest = join_room(client, ticket["room"], "Bea")
        with connect(client, ticket["room"]) as ana:
            ana.join(ticket["token"])
            with connect(client, ticket["room"]) as bea:
                bea.join(guest["token"])
            clock.advance(GRACE - 1)
            assert abandoned(latest(ana)) == []
            with connect(client, ticket["room"]) as bea:
                bea.join(guest["token"])
                clock.advance(GRACE + 1)  # here all along: nothing happens
                assert abandoned(latest(ana)) == []


@pytest.mark.slow
def test_a_seat_away_past_the_grace_period_goes_to_a_computer(tmp_path: Path) -> None:
    clock = ManualClock()
    with running_app(tmp_path / "db", clock=clock) as client:
        ticket = create_room(client, seats=["person", "person"])
        room = ticket["room"]
        guest = join_room(client, room, "Bea")
        with connect(client, room) as ana:
            ana.join(ticket["token"])
            ana.send({"type": "replace", "seat": 1, "level": "easy"})
            assert "not abandoned" in ana.refused("not_abandoned")["message"]
            clock.advance(GRACE + 0.5)  # Bea never came
            state = ana.until(lambda m: is_state(m) and abandoned(m) == [1])
            assert state["room"]["seats"][1]["nickname"] == "Bea"
            with connect(client, room) as cy:  # a spectator decides nothing
                cy.watch()
                cy.send({"type": "replace", "seat": 1, "level": "easy"})
                assert cy.refused("not_seated")
            ana.send({"type": "replace", "seat": 1, "level": "easy"})
            state = ana.until(lambda m: is_state(m) and m["room"]["seats"][1]["kind"] == "computer")
            assert state["room"]["seats"][1]["level"] == "easy" and abandoned(state) == []
            # the match goes on: the computer plays its turns
            if state["match"]["to_move"] == ana.seat:
                move = state["match"]["legal"][0]
                ana.send({"type": "play", "card": move["card"], "captures": move["captures"]})
            moved = ana.until(lambda m: is_state(m) and (m["event"] or {}).get("seat") == 1)
            assert moved["event"]["kind"] == "play"
        # Bea's token takes the seat no more
        with connect(client, room) as bea:
            bea.send({"type": "join", "token": guest["token"]})
            assert bea.until(lambda m: m["type"] == "error")["code"] == "bad_token"


def test_when_the_other_side_has_left_the_match_is_claimed(tmp_path: Path) -> None:
    database = tmp_path / "db"
    clock = ManualClock()
    with running_app(database, clock=clock) as client:
        ticket = create_room(client, seats=["person", "person"], listed=True)
        room = ticket["room"]
        guest = join_room(client, room, "Bea")
        with connect(client, room) as ana:
            ana.join(ticket["token"])
            ana.send({"type": "claim"})
            assert "left" in ana.refused("nobody_left")["message"]
            with connect(client, room) as bea:
                bea.join(guest["token"])
            clock.advance(GRACE + 0.5)
            ana.until(lambda m: is_state(m) and abandoned(m) == [1])
            ana.send({"type": "claim"})
            state = ana.until(lambda m: is_state(m) and m["room"]["ended"] is not None)
            side = next(i for i, seats in enumerate(state["room"]["sides"]) if ana.seat in seats)
            assert state["room"]["ended"] == {"reason": "abandoned", "winner": side}
            assert state["room"]["status"] == "over"
            assert client.get("/api/tables").json()["tables"] == []  # over: off the lobby
            ana.send({"type": "play", "card": "7d", "captures": []})
            assert ana.refused("match_over")
    store = Storage(database_url(database))
    try:
        stored = store.room(room)
        assert stored is not None
        assert (stored.match.ended, stored.match.winner) == ("abandoned", side)
        assert stored.match.finished_at is not None
    finally:
        store.close()


def test_a_claim_needs_every_person_of_the_other_side_gone(tmp_path: Path) -> None:
    """Four in partnerships: one opponent gone and the other still there, no claim; the
    gone one's seat may still go to a computer."""
    clock = ManualClock()
    with running_app(tmp_path / "db", clock=clock) as client:
        ticket = create_room(client, seats=["person"] * 4, players=4, partnerships=True, seat=0)
        room = ticket["room"]
        tickets = {0: ticket["token"]}
        for seat, name in ((1, "Bea"), (2, "Cy"), (3, "Dan")):
            tickets[seat] = join_room(client, room, name, seat=seat)["token"]
        with connect(client, room) as ana, connect(client, room) as dan:
            ana.join(tickets[0])
            dan.join(tickets[3])  # seat 1 (Bea) and seat 2 (Cy, Ana's partner) never come
            clock.advance(GRACE + 0.5)
            state = ana.until(lambda m: is_state(m) and abandoned(m) == [1, 2])
            ana.send({"type": "claim"})
            assert ana.refused("nobody_left")  # Dan is there
            dan.barrier()
            dan.send({"type": "claim"})
            assert dan.refused("nobody_left")  # Ana is there
            dan.send({"type": "replace", "seat": 2, "level": "medium"})
            state = ana.until(lambda m: is_state(m) and m["room"]["seats"][2]["kind"] == "computer")
            assert abandoned(state) == [1]


def test_three_timeouts_in_a_row_abandon_a_seat(tmp_path: Path) -> None:
    clock = ManualClock()
    with running_app(tmp_path / "db", clock=clock) as client:
        ticket = create_room(
            client, seats=["person", "person"], clock={"per_move": 5, "reserve": 0}
        )
        room = ticket["room"]
        guest = join_room(client, room, "Bea")
        with connect(client, room) as ana, connect(client, room) as bea:
            ana.join(ticket["token"])
            bea.join(guest["token"])
            timeouts = 0
            while timeouts < 3:  # Bea lets her time run out; Ana plays at once
                state = latest(ana)
                seat = state["match"]["to_move"]
                if seat == ana.seat:
                    move = state["match"]["legal"][0]
                    before = _played(state)
                    ana.send({"type": "play", "card": move["card"], "captures": move["captures"]})
                    ana.until(lambda m, n=before: is_state(m) and _played(m) > n)
                else:
                    clock.advance(5.5)
                    timeouts = bea.until(lambda m: m["type"] == "timeout")["timeouts"]
            state = ana.until(lambda m: is_state(m) and abandoned(m) == [bea.seat])
            assert state["room"]["clock"]["timeouts"][bea.seat] == 3


def _played(state: Any) -> int:
    history = state["match"]["history"]
    return state["match"]["hand_number"] * 1000 + sum(e["kind"] == "play" for e in history)
