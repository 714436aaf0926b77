"""Matches outlive the server: stop it mid-match, start a new one on the same database, and
every room, seat, hand, table, total and history is as it was; people reconnect with their
tokens and play on; computers whose turn it was move by themselves.

The event log replays the match exactly because dealing is a pure function of the seed
(RULES.md "A hand"; docs/rules.md "Shuffling is a pure function of the match's seed").
"""

from __future__ import annotations

import signal
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect as websocket_connect

from server_helpers import (
    TIMEOUT,
    Message,
    RemotePeer,
    assert_states_match,
    connect,
    create_room,
    free_port,
    is_state,
    join_room,
    moves_played,
    on_server,
    play_message,
    play_until,
    positions,
    room_info,
    running_app,
    server_process,
    server_record,
)


def over(state: Message) -> bool:
    return bool(state["match"]["over"])


@pytest.mark.slow
def test_a_match_against_the_computer_survives_a_restart(tmp_path: Path) -> None:
    database = tmp_path / "escoba.db"
    with running_app(database) as client:
        ticket = create_room(client, seats=["person", "easy"], options={"target_score": 4})
        room = ticket["room"]
        with connect(client, room) as peer:
            peer.join(ticket["token"])
            play_until([peer], lambda s: moves_played(s) >= 11 and s["match"]["to_move"] == 0)
            peer.settle()
            before = peer.last_state()
            assert before is not None
            record = server_record(client, room)
        info = room_info(client, room)
    assert not before["match"]["over"]

    with running_app(database) as client:
        assert room_info(client, room) == info
        assert server_record(client, room) == record
        with connect(client, room) as peer:
            _, again = peer.join(ticket["token"])
            # the same hand, table, piles, totals and history, and still this seat's turn
            assert again["match"] == before["match"]
            final = play_until([peer], over)
            assert final["match"]["winner"] is not None
            finished = server_record(client, room)
            assert_states_match(peer, finished)
        # the log goes on from where it stopped: the moves before the restart are kept
        old_moves = [hand["moves"] for hand in record["hands"]]
        new_moves = [hand["moves"] for hand in finished["hands"]]
        assert new_moves[len(old_moves) - 1][: len(old_moves[-1])] == old_moves[-1]
        assert new_moves[: len(old_moves) - 1] == old_moves[:-1]
        mine = {"tokens": [ticket["token"]]}
        listed = client.post("/api/matches/mine", json=mine).json()["matches"]
        finished_id = on_server(client, lambda hub: hub.rooms[room].match_id)
        assert [(m["id"], m["totals"]) for m in listed] == [(finished_id, final["match"]["totals"])]


@pytest.mark.slow
def test_a_three_player_room_survives_a_restart(tmp_path: Path) -> None:
    database = tmp_path / "escoba.db"
    with running_app(database) as client:
        ticket = create_room(
            client, players=3, seats=["person", "beginner", "person"], options={"target_score": 3}
        )
        room = ticket["room"]
        guest = join_room(client, room, "Bo")
        with connect(client, room) as ana, connect(client, room) as bo:
            ana.join(ticket["token"])
            bo.join(guest["token"])
            play_until(
                [ana, bo],
                lambda s: moves_played(s) >= 10 and s["match"]["to_move"] in (0, 2),
            )
            ana.settle()
            bo.settle()
            before = {0: ana.last_state(), 2: bo.last_state()}
            record = server_record(client, room)
        info = room_info(client, room)
    assert [seat["nickname"] for seat in info["seats"]] == ["Ana", None, "Bo"]

    with running_app(database) as client:
        assert room_info(client, room) == info
        assert server_record(client, room) == record
        with connect(client, room) as ana, connect(client, room) as bo:
            ana.join(ticket["token"])
            bo.join(guest["token"])
            ana.settle()
            bo.settle()
            for peer in (ana, bo):
                now = peer.last_state()
                assert now is not None and before[peer.seat] is not None  # type: ignore[index]
                assert now["match"] == before[peer.seat]["match"]  # type: ignore[index]
                assert [seat["connected"] for seat in now["room"]["seats"]] == [True] * 3
            play_until([ana, bo], over)
            bo.settle()
            finished = server_record(client, room)
            assert_states_match(ana, finished)
            assert_states_match(bo, finished)


@pytest.mark.slow
def test_a_computer_whose_turn_it_was_moves_after_a_restart(tmp_path: Path) -> None:
    database = tmp_path / "escoba.db"
    # A slow computer: at shutdown it is still waiting to move.
    with running_app(database, pace=60) as client:
        ticket = create_room(client, seats=["person", "easy"])
        room = ticket["room"]
        with connect(client, room) as peer:
            _, state = peer.join(ticket["token"])
            if state["match"]["to_move"] == 0:
                peer.send(play_message(state["match"]["legal"][0]))
                state = peer.state_at(moves_played(state) + 1)
            assert state["match"]["to_move"] == 1
            stored = moves_played(state)
        record = server_record(client, room)
    assert len(positions(record)) == stored + 1

    with running_app(database) as client:
        # Nobody but a spectator is connected: the computer moves by itself.
        with connect(client, room) as spectator:
            _, state = spectator.watch()
            if moves_played(state) == stored:
                state = spectator.until(lambda m: is_state(m) and moves_played(m) > stored)
            assert moves_played(state) == stored + 1
            assert state["match"]["to_move"] == 0
        resumed = server_record(client, room)
    assert resumed["hands"][0]["moves"][:stored] == record["hands"][0]["moves"]


# -- a real server process ----------------------------------------------------------------


@pytest.mark.slow
def test_a_served_match_survives_a_process_restart(tmp_path: Path) -> None:
    database = tmp_path / "escoba.db"
    log = tmp_path / "server.log"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with server_process(database, port, log) as process:
        created = httpx.post(
            f"{base}/api/rooms",
            json={"nickname": "Ana", "seats": ["person", "easy"], "options": {"target_score": 5}},
            timeout=TIMEOUT,
        )
        assert created.status_code == 201, created.text
        ticket = created.json()
        room = ticket["room"]
        with websocket_connect(f"ws://127.0.0.1:{port}/ws/rooms/{room}") as websocket:
            peer = RemotePeer(websocket)
            peer.join(ticket["token"])
            before = play_until(
                [peer], lambda s: moves_played(s) >= 8 and s["match"]["to_move"] == 0
            )
            # Stopped mid-match, with the player still connected: it shuts down promptly
            # (uvicorn ends by re-raising the signal it caught, hence -SIGTERM).
            process.send_signal(signal.SIGTERM)
            assert process.wait(TIMEOUT) in (0, -signal.SIGTERM), log.read_text()
    assert not before["match"]["over"]

    with server_process(database, port, log):
        info = httpx.get(f"{base}/api/rooms/{room}", timeout=TIMEOUT).json()
        assert [seat["nickname"] for seat in info["seats"]] == ["Ana", None]
        with websocket_connect(f"ws://127.0.0.1:{port}/ws/rooms/{room}") as websocket:
            peer = RemotePeer(websocket)
            _, again = peer.join(ticket["token"])
            assert again["match"]["hand"] == before["match"]["hand"]
            assert again["match"]["table"] == before["match"]["table"]
            assert again["match"]["totals"] == before["match"]["totals"]
            assert again["match"] == before["match"]
            # Finish the hand that was going on.
            hands = len(before["match"]["results"])
            ended = play_until(
                [peer], lambda s: len(s["match"]["results"]) > hands or s["match"]["over"]
            )
            assert ended["hand_ended"] is True
            assert len(ended["match"]["results"]) == hands + 1
            assert moves_played(ended) == (hands + 1) * 36
    assert "Traceback" not in log.read_text()  # neither stop nor start logged an error
