"""Seats and rooms are protected: unguessable tokens and room ids, tokens stored only as
hashes and compared in constant time, a connection acting only for its own seat (RULES.md
"Seats, sides, dealer": seats play in turn, each its own hand), limits on message size, message
rate, hints in flight and HTTP bodies, no token in any answer but the one seat ticket, and
nicknames handed back as plain data.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import re
import secrets
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from escoba.server import clients
from escoba.server.computers import Thinkers
from escoba.server.http.middleware import MAX_BODY_BYTES
from escoba.server.protocol import MAX_MESSAGE_BYTES
from escoba.server.storage import repository as storage
from escoba.server.storage.repository import hash_token
from server_helpers import (
    TIMEOUT,
    Closed,
    Message,
    Peer,
    assert_refused,
    connect,
    create_room,
    database_content,
    database_url,
    is_state,
    join_room,
    lift_rate_limit,
    moves_played,
    play_message,
    play_until,
    room_info,
    running_app,
    server_record,
    two_people,
)
from web_browser import Server

URLSAFE = re.compile(r"[A-Za-z0-9_-]+")
BITS_PER_CHARACTER = 6  # base64url


def to_move(peer: Peer) -> int | None:
    """The seat to move in the last state ``peer`` received."""
    state = peer.last_state()
    assert state is not None
    seat: int | None = state["match"]["to_move"]
    return seat


# -- tokens and room ids ---------------------------------------------------------------------------


@pytest.mark.slow
def test_tokens_and_room_ids_carry_at_least_128_random_bits(client: TestClient) -> None:
    tokens: list[str] = []
    room_ids: list[str] = []
    for _ in range(25):
        room, ticket, guest = two_people(client)
        room_ids.append(room)
        tokens += [ticket["token"], guest["token"]]
    for token in tokens:
        assert URLSAFE.fullmatch(token), token
        assert len(token) * BITS_PER_CHARACTER >= 128
    for room in room_ids:
        assert URLSAFE.fullmatch(room), room
        assert len(room) == 22  # 16 random bytes in base64url: 128 bits
    assert len(set(tokens)) == len(tokens)
    assert len(set(room_ids)) == len(room_ids)
    assert not set(tokens) & set(room_ids)


def stored_hashes(database: Path) -> dict[tuple[str, int], str | None]:
    engine = create_engine(database_url(database), poolclass=NullPool)
    try:
        with engine.connect() as connection:
            rows = connection.execute(text("SELECT room_id, seat, token_hash FROM seats")).all()
    finally:
        engine.dispose()
    return {(room, seat): token_hash for room, seat, token_hash in rows}


def test_tokens_are_stored_only_as_their_sha256(tmp_path: Path, database_backend: str) -> None:
    database = tmp_path / "escoba.db"
    with running_app(database) as client:
        tickets = []
        for _ in range(3):
            _, ticket, guest = two_people(client)
            tickets += [ticket, guest]
        content = database_content(database, database_backend)
        stored = stored_hashes(database)
    for ticket in tickets:
        token = ticket["token"]
        digest = hashlib.sha256(token.encode()).hexdigest()
        assert stored[(ticket["room"], ticket["seat"])] == digest
        assert digest.encode() in content  # the search below reads what was written
        assert token.encode() not in content


def test_tokens_are_compared_in_constant_time(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Joining compares the token's hash with each stored hash by ``hmac.compare_digest``."""
    calls: list[tuple[Any, Any]] = []
    real = hmac.compare_digest

    def spy(a: Any, b: Any) -> bool:
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(storage.hmac, "compare_digest", spy)
    room, ticket, guest = two_people(client)
    hashes = {hash_token(ticket["token"]), hash_token(guest["token"])}
    with connect(client, room) as peer:
        calls.clear()
        peer.join(guest["token"])
        assert (hash_token(guest["token"]), hash_token(guest["token"])) in calls
        assert all(len(a) == len(b) == 64 for a, b in calls)  # hashes, never raw tokens
    wrong = secrets.token_urlsafe(24)
    with connect(client, room) as peer:
        calls.clear()
        peer.send({"type": "join", "token": wrong})
        peer.refused("bad_token")
        assert {b for _, b in calls} == hashes  # compared with every seat's hash
        assert {a for a, _ in calls} == {hash_token(wrong)}


def test_a_token_works_only_in_its_own_room(client: TestClient) -> None:
    room_x, ticket_x, _ = two_people(client)
    room_y, _, _ = two_people(client)
    with connect(client, room_y) as peer:
        peer.send({"type": "join", "token": ticket_x["token"]})
        peer.refused("bad_token")
        peer.send({"type": "join", "token": hash_token(ticket_x["token"])})  # nor its hash
        peer.refused("bad_token")
        peer.send({"type": "play", "card": "7d", "captures": []})
        peer.refused("not_joined")
    with connect(client, room_x) as peer:
        welcome, _ = peer.join(ticket_x["token"])
        assert welcome["seat"] == ticket_x["seat"]


def near_misses(room: str) -> list[str]:
    """Ids one character away from ``room``, a prefix and an extension."""
    changed = []
    for index in (0, len(room) // 2, len(room) - 1):
        other = "A" if room[index] != "A" else "B"
        changed.append(room[:index] + other + room[index + 1 :])
    return [*changed, room[:-1], room + "A", room.lower() if room.lower() != room else room.upper()]


def test_unknown_and_near_miss_room_ids_are_not_found(client: TestClient) -> None:
    room, _, _ = two_people(client)
    for wrong in [secrets.token_urlsafe(16), *near_misses(room)]:
        assert wrong != room
        assert_refused(client.get(f"/api/rooms/{wrong}"), 404, "not_found")
        assert_refused(
            client.post(f"/api/rooms/{wrong}/join", json={"nickname": "Eve"}), 404, "not_found"
        )
        assert_refused(client.get(f"/api/rooms/{wrong}/cheatsheet"), 404, "not_found")
        with connect(client, wrong) as peer:
            error = peer.receive()
            assert error["type"] == "error" and error["code"] == "not_found"
            with pytest.raises(Closed) as closed:
                peer.receive()
            assert closed.value.code == 4404
    assert room_info(client, room)["id"] == room


# -- acting only for one's own seat ----------------------------------------------------------------


def test_a_person_acts_only_for_their_own_seat(client: TestClient) -> None:
    room, ticket, guest = two_people(client)
    with connect(client, room) as ana, connect(client, room) as bea, connect(client, room) as eve:
        ana.join(ticket["token"])
        bea.join(guest["token"])
        eve.watch()
        for peer in (ana, bea, eve):
            peer.settle()  # everybody has read who came
        state = ana.last_state()
        assert state is not None
        to_move = state["match"]["to_move"]
        mover, waiter = (ana, bea) if to_move == ana.seat else (bea, ana)
        own = mover.my_turn()
        legal = own["match"]["legal"]
        record = server_record(client, room)
        # The waiting person plays the mover's legal move, or one of its own cards.
        waiting = waiter.last_state()
        assert waiting is not None
        waiting_hand = waiting["match"]["hand"]
        for message in (play_message(legal[0]), {"type": "play", "card": waiting_hand[0]}):
            waiter.send(message)
            waiter.refused("not_your_turn")
        waiter.send({"type": "hint"})
        waiter.refused("not_your_turn")
        # The protocol has no seat field: naming a seat is a malformed message.
        for peer, seat in ((waiter, to_move), (mover, to_move), (mover, waiter.seat)):
            peer.send({**play_message(legal[0]), "seat": seat})
            peer.refused("bad_message")
        eve.send(play_message(legal[0]))
        eve.refused("not_seated")
        eve.send({"type": "hint"})
        eve.refused("not_seated")
        assert server_record(client, room) == record, "a refused play changed the match"
        mover.send(play_message(legal[0]))
        after = waiter.state_at(moves_played(own) + 1)
        assert after["event"]["seat"] == mover.seat


# -- limits on what a connection sends -------------------------------------------------------------


def test_the_message_size_limit_counts_bytes(client: TestClient) -> None:
    room, ticket, _ = two_people(client)
    with connect(client, room) as peer:
        peer.join(ticket["token"])
        record = server_record(client, room)
        head = json.dumps({"type": "play", "card": "7d", "captures": []})[:-1]
        # Fewer characters than the limit, more bytes: "€" is three bytes in UTF-8.
        text = head + ', "pad": "' + "€" * (MAX_MESSAGE_BYTES // 3) + '"}'
        assert len(text) < MAX_MESSAGE_BYTES < len(text.encode())
        peer.send_text(text)
        peer.refused("too_large")
        assert server_record(client, room) == record


class FrozenClock:
    """The rate limit's clock, moved by hand; it starts far ahead, so buckets start full."""

    def __init__(self) -> None:
        self.now = time.monotonic() + 3600.0

    def monotonic(self) -> float:
        return self.now


def replies(peer: Peer, count: int) -> list[Message]:
    return [peer.receive() for _ in range(count)]


def test_the_rate_limit_is_a_token_bucket(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the clock standing still, a connection may send exactly RATE_BURST messages; a
    message over the limit is refused unread (a legal play too); time refills the bucket at
    RATE_PER_SECOND, never beyond RATE_BURST; each connection has its own bucket."""
    clock = FrozenClock()
    monkeypatch.setattr(clients, "time", clock)
    burst = int(clients.RATE_BURST)
    room, ticket, guest = two_people(client)
    with connect(client, room) as ana, connect(client, room) as bea:
        bea.join(guest["token"])  # one message of Bea's bucket
        ana.join(ticket["token"])  # one message of Ana's bucket
        bea.until(lambda m: is_state(m) and m["room"]["seats"][ana.seat]["connected"])
        mover, other = (ana, bea) if to_move(ana) == ana.seat else (bea, ana)
        own = mover.last_state()
        assert own is not None
        for _ in range(burst - 2):  # the mover has sent its join; one message is left
            mover.send({"type": "ping"})
        assert replies(mover, burst - 2) == [{"type": "pong"}] * (burst - 2)
        mover.send({"type": "ping"})
        assert mover.receive() == {"type": "pong"}
        record = server_record(client, room)
        move = play_message(own["match"]["legal"][0])
        for message in (move, {"type": "ping"}, {"type": "hint"}, {"type": "nonsense"}):
            mover.send(message)
            refused = mover.receive()
            assert refused["type"] == "error" and refused["code"] == "rate_limited", refused
            assert refused["message"]
        assert server_record(client, room) == record, "a message over the limit was acted on"
        assert other.barrier() == [], "the other connection was told of a refused play"
        # The other connection's bucket is its own (its join and a ping are spent).
        for _ in range(burst - 2):
            other.send({"type": "ping"})
        assert replies(other, burst - 2) == [{"type": "pong"}] * (burst - 2)
        other.send({"type": "ping"})
        assert other.receive()["code"] == "rate_limited"
        # 1.5 messages' worth of time: one message goes through, the next does not, unless
        # the one was a play that moved the game on: its allowance is given back (plays are
        # bounded by the turns), so a quick player is never limited.
        clock.now += 1.5 / clients.RATE_PER_SECOND
        mover.send({"type": "ping"})
        assert mover.receive() == {"type": "pong"}
        mover.send({"type": "ping"})
        assert mover.receive()["code"] == "rate_limited"
        # The half left over and 0.6 more make one message; 0.6 alone would not. (Not exactly
        # a half: the clock reads a large float, so an exact sum of 1 could land a hair below.)
        clock.now += 0.6 / clients.RATE_PER_SECOND
        mover.send(move)
        played = mover.receive()
        assert is_state(played) and played["event"]["card"] == move["card"]
        assert moves_played(played) == moves_played(own) + 1
        mover.send({"type": "ping"})
        assert mover.receive() == {"type": "pong"}
        mover.send({"type": "ping"})
        assert mover.receive()["code"] == "rate_limited"
        # A long quiet spell fills the bucket up to RATE_BURST, no further.
        clock.now += 100 * burst / clients.RATE_PER_SECOND
        for _ in range(burst + 1):
            mover.send({"type": "ping"})
        answers = replies(mover, burst + 1)
        assert answers[:burst] == [{"type": "pong"}] * burst
        assert answers[burst]["code"] == "rate_limited"


def test_one_hint_at_a_time(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A second hint while one is worked out is refused (``hint_pending``); other messages
    are answered meanwhile; once the hint is sent, another may be asked."""
    entered = threading.Event()
    release = threading.Event()
    advise = Thinkers.advise

    async def slow_advice(self: Thinkers, seed: int, observation: Any, owner: str = "") -> Any:
        entered.set()
        assert await asyncio.to_thread(release.wait, TIMEOUT), "the test never released it"
        return await advise(self, seed, observation, owner)

    monkeypatch.setattr(Thinkers, "advise", slow_advice)
    room, ticket, guest = two_people(client)
    with connect(client, room) as ana, connect(client, room) as bea:
        ana.join(ticket["token"])
        bea.join(guest["token"])
        mover = ana if to_move(ana) == ana.seat else bea
        own = mover.my_turn()
        mover.send({"type": "hint"})
        assert entered.wait(TIMEOUT)
        mover.send({"type": "hint", "language": "de"})
        mover.refused("hint_pending")  # and the ping of refused() is answered meanwhile
        release.set()
        reply = mover.until(lambda m: m["type"] == "hint")
        legal = {move["text"] for move in own["match"]["legal"]}
        assert {item["move"]["text"] for item in reply["moves"]} == legal
        mover.send({"type": "hint"})
        again = mover.until(lambda m: m["type"] in ("hint", "error"))
        assert again["type"] == "hint"


# -- HTTP bodies -----------------------------------------------------------------------------------


BODY_PATHS = ["/api/rooms", "/api/rooms/{room}/join", "/api/scorepad"]


def padded(body: dict[str, Any], size: int) -> bytes:
    """A JSON body of exactly ``size`` bytes (whitespace before the closing brace)."""
    text = json.dumps(body).encode()
    return text[:-1] + b" " * (size - len(text)) + b"}"


@pytest.mark.parametrize("path", BODY_PATHS)
def test_a_body_over_the_limit_is_refused(client: TestClient, path: str) -> None:
    room, _, _ = two_people(client)
    url = path.format(room=room)
    body = padded({"nickname": "Cy"}, MAX_BODY_BYTES + 1)
    answer = client.post(url, content=body, headers={"content-type": "application/json"})
    assert_refused(answer, 413, "too_large")
    assert "content-security-policy" in answer.headers


@pytest.mark.parametrize("path", BODY_PATHS)
def test_a_chunked_body_over_the_limit_is_refused(client: TestClient, path: str) -> None:
    """Without a declared length the body is counted as it comes."""
    room, _, _ = two_people(client)

    def chunks() -> Iterator[bytes]:
        yield b'{"nickname": "Cy"'
        for _ in range(MAX_BODY_BYTES // 1024 + 1):
            yield b" " * 1024
        yield b"}"

    answer = client.post(
        path.format(room=room), content=chunks(), headers={"content-type": "application/json"}
    )
    assert_refused(answer, 413, "too_large")


def test_a_body_of_exactly_the_limit_is_read(client: TestClient) -> None:
    body = padded({"nickname": "Cy", "seats": ["person", "beginner"]}, MAX_BODY_BYTES)
    answer = client.post("/api/rooms", content=body, headers={"content-type": "application/json"})
    assert answer.status_code == 201, answer.text
    assert answer.json()["seat"] == 0


def http_answer(sock: socket.socket) -> bytes:
    """The status line and headers of an HTTP answer (read until the blank line)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(4096)
        if not chunk:
            break
        data += chunk
    return data


@pytest.mark.slow
def test_a_real_server_refuses_a_large_body_before_reading_it(tmp_path: Path) -> None:
    """Over a socket to `escoba serve`: a body declared too long is refused before it is
    sent, and a chunked one as soon as it passes the limit, never waiting for its end."""
    server = Server(tmp_path, pace=0)
    server.start()
    try:
        for path in ("/api/rooms", "/api/scorepad"):
            head = f"POST {path} HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
            with socket.create_connection(("127.0.0.1", server.port), timeout=TIMEOUT) as sock:
                sock.sendall(f"{head}Content-Length: {100 * MAX_BODY_BYTES}\r\n\r\n".encode())
                sock.sendall(b'{"nickname": ')  # and nothing more
                assert http_answer(sock).startswith(b"HTTP/1.1 413 ")
            with socket.create_connection(("127.0.0.1", server.port), timeout=TIMEOUT) as sock:
                sock.sendall(f"{head}Transfer-Encoding: chunked\r\n\r\n".encode())
                for _ in range(MAX_BODY_BYTES // 1024 + 2):
                    sock.sendall(b"400\r\n" + b" " * 1024 + b"\r\n")  # no closing chunk
                assert http_answer(sock).startswith(b"HTTP/1.1 413 ")
        with socket.create_connection(("127.0.0.1", server.port), timeout=TIMEOUT) as sock:
            sock.sendall(b"GET /api/presets HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
            assert http_answer(sock).startswith(b"HTTP/1.1 200 "), "the server stopped serving"
    finally:
        server.stop()
    log = server.log.read_text()
    assert "Traceback" not in log and "Exception" not in log, log[-3000:]


# -- no token in any answer ------------------------------------------------------------------------


@pytest.mark.slow
def test_no_answer_holds_a_token_but_the_seat_ticket(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    lift_rate_limit(monkeypatch)
    room, ticket, guest = two_people(client, options={"target_score": 1})
    secrets_shown = [ticket["token"], guest["token"]]
    secrets_shown += [hash_token(token) for token in list(secrets_shown)]
    texts: list[str] = []
    with connect(client, room) as ana, connect(client, room) as bea, connect(client, room) as eve:
        ana.join(ticket["token"])
        bea.join(guest["token"])
        eve.watch()
        final = play_until([ana, bea], lambda state: state["match"]["over"])
        assert final["match"]["winner"] is not None
        for peer in (ana, bea, eve):
            peer.barrier()
            peer.send({"type": "hint"})
            peer.until(lambda m: m["type"] == "error")
            texts += [json.dumps(message) for message in peer.received]
        ana.send({"type": "rematch"})
        texts.append(
            json.dumps(bea.until(lambda m: is_state(m) and m["room"]["match_number"] == 2))
        )
    held = {"tokens": [ticket["token"]]}
    yours = client.post("/api/matches/mine", json=held)
    matches = yours.json()["matches"]
    assert len(matches) == 1 and "room" not in matches[0], "a list of matches names no room"
    replay_path = f"/api/matches/{matches[0]['id']}/replay"
    for answer in (
        yours,
        client.post(replay_path, json=held),
        client.put(f"/api/matches/{matches[0]['id']}/public", json={**held, "public": True}),
    ):
        assert answer.status_code == 200, answer.text
        texts.append(answer.text)
    for path in (
        f"/api/rooms/{room}",
        f"/api/rooms/{room}/cheatsheet",
        "/api/matches",
        replay_path,
        "/api/presets",
        "/api/scorepad/rules",
        f"/room/{room}",
    ):
        answer = client.get(path)
        assert answer.status_code == 200, path
        texts.append(answer.text)
    refused = client.post(f"/api/rooms/{room}/join", json={"nickname": "Cy"})
    assert_refused(refused, 409, "room_full")
    texts.append(refused.text)
    assert len(texts) > 40
    for answer_text in texts:
        for secret in secrets_shown:
            assert secret not in answer_text


# -- nicknames -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "shown"),
    [
        ("  Ana  ", "Ana"),
        ("\tAna\n", "Ana"),
        ("Ana\x00\x07\x1b[31m", "Ana[31m"),
        ("Ana  \r\n  Bea", "Ana Bea"),
        ("\u202eanA", "anA"),  # a right-to-left override is a control character
        ("Ana\u200b", "Ana"),
    ],
)
def test_nicknames_lose_control_characters_and_outer_space(
    client: TestClient, given: str, shown: str
) -> None:
    ticket = create_room(client, nickname=given, seats=["person", "person"])
    guest = join_room(client, ticket["room"], given)
    seats = room_info(client, ticket["room"])["seats"]
    assert seats[ticket["seat"]]["nickname"] == shown
    assert seats[guest["seat"]]["nickname"] == shown


def test_a_nickname_of_control_characters_only_is_refused(client: TestClient) -> None:
    answer = client.post("/api/rooms", json={"nickname": "\x00\t\u200b "})
    assert_refused(answer, 400, "bad_nickname")
    ticket = create_room(client, seats=["person", "person"])
    answer = client.post(f"/api/rooms/{ticket['room']}/join", json={"nickname": "\n\r"})
    assert_refused(answer, 400, "bad_nickname")


HTML_NICKNAMES = ["<img src=x onerror=_p=1>", '"><svg onload=__pwned=1>', "<b>&amp;</b>"]


def test_html_in_a_nickname_comes_back_verbatim_as_json(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server stores and sends a nickname as it was typed (cleaned of control
    characters only); escaping it is the page's work (test_web_security.py)."""
    lift_rate_limit(monkeypatch)
    first, second, _ = HTML_NICKNAMES
    ticket = create_room(
        client, nickname=first, seats=["person", "person"], options={"target_score": 1}
    )
    room = ticket["room"]
    guest = join_room(client, room, second)
    answer = client.get(f"/api/rooms/{room}")
    assert answer.headers["content-type"].startswith("application/json")
    names = [seat["nickname"] for seat in answer.json()["seats"]]
    assert names == [first, second]
    with connect(client, room) as ana, connect(client, room) as bea:
        _, state = ana.join(ticket["token"])
        bea.join(guest["token"])
        assert [seat["nickname"] for seat in state["room"]["seats"]] == [first, second]
        play_until([ana, bea], lambda s: s["match"]["over"])
    held = {"tokens": [ticket["token"]]}
    matches = client.post("/api/matches/mine", json=held).json()["matches"]
    assert matches[0]["names"] == [first, second]
    replay = client.post(f"/api/matches/{matches[0]['id']}/replay", json=held).json()
    assert replay["names"] == [first, second]
