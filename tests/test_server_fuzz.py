"""Bad input never hurts: malformed, oversized, repeated, out-of-turn and illegal WebSocket
messages, random HTTP bodies and query strings, hostile requests to every route, and a full or
locked database.

Each WebSocket message gets exactly the reply its content calls for (worked out here from the
protocol's models and the engine's rules: RULES.md "A move" decides which plays are legal,
RULES.md "Seats, sides, dealer" whose turn it is), nothing else is sent to anybody, the match
changes only by the legal plays sent, and every connection still answers a ping. HTTP answers
are never a server error, and every refusal is a well-formed error message. The test client
re-raises any exception inside the server, so an internal error fails the test too.

Every route the app has (read from ``app.routes``) is sent any method with hostile path
parameters (huge, negative and odd numbers, NUL, percent-escapes that are not UTF-8, dot
segments, very long and unicode text), query strings and bodies (deep nesting, huge integers
in every field, NUL, bytes that are not UTF-8, wrong types, extra fields, empty and non-JSON
bodies); WebSocket messages and socket paths of the same kinds. Nothing may be logged at ERROR
or with a traceback meanwhile. The account routes are also sent such bodies by browsers signed
in or not (with the session's CSRF token, without it, with a wrong one, with an ended session
or a made-up cookie), each example with an account of its own: a refusal changes no account,
session, passkey or seat, and only a well-formed body makes an account; every string of each
account request, and the paths of the profiles, leaderboards and ratings, are also given NUL
and lone surrogates one by one. On SQLite, a full database and one another writer has locked
refuse each write as ``storage_failed`` (503 over HTTP, an error message over the socket),
reads go on, and once the database can be written again the same actions work on the matches
as they were.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import logging
import re
import sqlite3
import sys
import urllib.parse
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context
from pydantic import BaseModel, ValidationError
from sqlalchemy import event as sqlalchemy_event
from sqlalchemy import select
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute, compile_path
from starlette.websockets import WebSocketDisconnect

from account_helpers import PASSWORD, Person, register
from escoba import DECK, RULESETS, Card, Game, InvalidCardError, Move, RuleSet
from escoba.ai import LEVELS
from escoba.errors import InvalidMoveError
from escoba.messages import LANGUAGES
from escoba.puzzles import load_puzzles
from escoba.rules import OPTION_NAMES
from escoba.server.accounts import clean_username
from escoba.server.config import Settings
from escoba.server.history import SeatTokens
from escoba.server.http.app import WEB, create_app
from escoba.server.protocol import MAX_MESSAGE_BYTES, parse_client_message
from escoba.server.protocol.accounts import (
    Credentials,
    DeleteAccount,
    NewPassword,
    PasskeyAnswer,
    PasskeyStart,
)
from escoba.server.storage.tables import (
    AccountRow,
    FlowRow,
    MatchPlayerRow,
    PasskeyRow,
    RatingRow,
    SeatRow,
    SessionRow,
)
from passkeys import SoftAuthenticator
from server_helpers import (
    TEST_LIMITS,
    Closed,
    Message,
    Peer,
    assert_refused,
    cards_of_text,
    connect,
    create_room,
    is_state,
    join_room,
    lift_rate_limit,
    moves_played,
    named_cards,
    on_server,
    play_message,
    play_until,
    running_app,
    server_game,
    server_record,
    two_people,
)

# Every refusal code of docs/protocol.md, and the two limits on a connection.
WS_CODES = frozenset(
    {
        "bad_message",
        "too_large",
        "not_joined",
        "already_joined",
        "bad_token",
        "not_seated",
        "not_your_turn",
        "bad_card",
        "illegal_move",
        "match_over",
        "match_not_over",
        "rate_limited",
        "hint_pending",
        "not_against_computers",
        "nothing_to_take_back",
    }
)
FUZZ = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
FUZZ_HTTP = settings(FUZZ, max_examples=100)
CARD_TEXTS = [str(card) for card in DECK]
TYPES = ["join", "watch", "play", "take_back", "hint", "rematch", "ping"]


# -- the expected reply ----------------------------------------------------------------------------


@dataclass
class Who:
    """What the server knows of a connection."""

    peer: Peer
    joined: bool = False
    seat: int | None = None


@dataclass(frozen=True)
class Expect:
    """The reply one message calls for: an ``error`` with one of ``codes``, a ``pong``, a
    ``hint``, a ``played`` move (a state to everybody), or ``joined`` (welcome and state)."""

    kind: str
    codes: frozenset[str] = frozenset()
    move: Move | None = None
    seat: int | None = None


def refused(*codes: str) -> Expect:
    return Expect("error", frozenset(codes))


def expected_reply(payload: str | bytes, who: Who, game: Game, tokens: dict[str, int]) -> Expect:
    """What the server must answer, by docs/protocol.md, the protocol's models and the
    engine's rules."""
    size = len(payload) if isinstance(payload, bytes) else len(payload.encode())
    if size > MAX_MESSAGE_BYTES:
        return refused("too_large")
    if isinstance(payload, bytes):
        return refused("bad_message")
    try:
        message: Any = parse_client_message(payload)
    except ValidationError:
        return refused("bad_message")
    kind = message.type
    if kind == "ping":
        return Expect("pong")
    if kind in ("join", "watch"):
        if who.joined:
            return refused("already_joined")
        if kind == "watch":
            return Expect("joined", seat=None)
        if message.token not in tokens:
            return refused("bad_token")
        return Expect("joined", seat=tokens[message.token])
    if not who.joined:
        return refused("not_joined")
    if kind == "play":
        if game.is_over():
            return refused("match_over")
        if who.seat is None:
            return refused("not_seated")
        if game.to_move != who.seat:
            return refused("not_your_turn")
        try:
            card = Card.parse(message.card)
            captures = frozenset(Card.parse(text) for text in message.captures)
        except InvalidCardError:
            return refused("bad_card")
        try:
            move = Move(card, captures)
        except InvalidMoveError:  # the card takes itself
            return refused("illegal_move", "bad_card")
        if move not in game.legal_moves():
            return refused("illegal_move")
        return Expect("played", move=move)
    if kind == "hint":
        if who.seat is None:
            return refused("not_seated")
        if game.to_move != who.seat:
            return refused("not_your_turn")
        return Expect("hint")
    if kind == "take_back":  # the fuzzed room is two people's: no take backs there
        return refused("not_seated" if who.seat is None else "not_against_computers")
    assert kind == "rematch"
    if who.seat is None:
        return refused("not_seated")
    if not game.is_over():
        return refused("match_not_over")
    return Expect("rematch")


# -- what the connections received -----------------------------------------------------------------


def collect(peer: Peer, pongs: int) -> list[Message]:
    """Send a ping; everything received until its pong (after ``pongs`` earlier ones)."""
    start = len(peer.received)
    peer.send({"type": "ping"})
    seen = 0
    while seen <= pongs:
        seen += peer.receive()["type"] == "pong"
    got = peer.received[start:]
    return got[:-1]


def assert_reply(got: Message, expect: Expect) -> None:
    if expect.kind == "error":
        assert got["type"] == "error", (got, expect)
        assert got["code"] in expect.codes, (got, expect)
        assert got["code"] in WS_CODES
        assert isinstance(got["message"], str) and got["message"]
    elif expect.kind == "pong":
        assert got == {"type": "pong"}
    elif expect.kind == "played":
        assert expect.move is not None
        assert is_state(got) and got["event"] is not None, got
        assert got["event"]["card"] == str(expect.move.card)
        assert set(got["event"]["captures"]) == {str(card) for card in expect.move.captures}
    else:
        raise AssertionError(f"no single reply is expected for {expect}")


def moves_of(record: dict[str, Any]) -> list[str]:
    return [move for hand in record["hands"] for move in hand["moves"]]


@dataclass
class Room:
    client: TestClient
    id: str
    tokens: dict[str, int]
    stack: ExitStack
    people: list[Who] = field(default_factory=list)

    def fresh_connection(self) -> None:
        """Keep one connection that has not joined (up to eight connections in all)."""
        if len(self.people) < 8 and all(who.joined for who in self.people):
            self.people.append(Who(self.stack.enter_context(connect(self.client, self.id))))


@pytest.fixture
def room(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Room]:
    """Two people seated, a spectator and a connection that has not joined; the rate limit
    lifted (it is tested in test_server_security.py)."""
    lift_rate_limit(monkeypatch)
    # The connection kept unjoined may wait longer than a join is given (10 s) while the
    # examples run, and up to eight connections may join one seat (four are let in): neither
    # limit may refuse what the examples expect (each is tested on its own).
    limits = TEST_LIMITS.replace(join_seconds=3600, connections_per_seat=16)
    with running_app(tmp_path / "escoba.db", limits=limits) as client, ExitStack() as stack:
        ticket = create_room(client, seats=["person", "person"], options={"target_score": 1})
        guest = join_room(client, ticket["room"], "Bea")
        made = Room(
            client,
            ticket["room"],
            {ticket["token"]: ticket["seat"], guest["token"]: guest["seat"]},
            stack,
        )
        for token in (ticket["token"], guest["token"], None):
            peer = stack.enter_context(connect(client, made.id))
            if token is None:
                peer.watch()
            else:
                peer.join(token)
            made.people.append(Who(peer, True, peer.seat))
        made.fresh_connection()
        for who in made.people:
            collect(who.peer, 0)
        yield made


def send_and_check(room: Room, sender: Who, payloads: Sequence[str | bytes]) -> None:
    """Send the payloads at once; check every connection's answers and the match."""
    client = room.client
    before = server_record(client, room.id)
    game = Game.from_record(before)
    number = room_number(client, room.id)
    expects: list[Expect] = []
    for payload in payloads:
        expect = expected_reply(payload, sender, game, room.tokens)
        if currently_in_test_context():  # the statistics of --hypothesis-show-statistics
            event(f"{expect.kind} {' or '.join(sorted(expect.codes))}".strip())
        expects.append(expect)
        if expect.kind == "played":
            assert expect.move is not None
            game.play(expect.move)
        elif expect.kind == "joined":
            sender.joined, sender.seat = True, expect.seat
        elif expect.kind == "rematch":
            assert payloads[-1] is payload, "nothing is predicted after a rematch"
    others = [who for who in room.people if who is not sender and who.joined]
    for payload in payloads:
        if isinstance(payload, bytes):
            sender.peer.send_bytes(payload)
        else:
            sender.peer.send_text(payload)
    got = collect(sender.peer, sum(expect.kind == "pong" for expect in expects))
    hints = sum(expect.kind == "hint" for expect in expects)
    while sum(message["type"] == "hint" for message in got) < hints:
        got.append(sender.peer.until(lambda m: m["type"] == "hint"))
    hint_replies = [message for message in got if message["type"] == "hint"]
    got = [message for message in got if message["type"] != "hint"]
    assert len(hint_replies) == hints
    for reply in hint_replies:
        assert {item["move"]["text"] for item in reply["moves"]} == {
            str(move) for move in Game.from_record(before).legal_moves()
        }
    broadcasts: list[Expect] = []
    index = 0
    for expect in expects:
        if expect.kind == "hint":
            continue
        if expect.kind == "joined":
            welcome, state = got[index : index + 2]
            assert welcome["type"] == "welcome" and welcome["seat"] == expect.seat, welcome
            assert is_state(state) and state["match"]["seat"] == expect.seat
            index += 2
        elif expect.kind == "rematch":
            state = got[index]
            assert is_state(state) and state["room"]["match_number"] == number + 1, state
            index += 1
        else:
            assert index < len(got), f"no reply to a message: expected {expect}"
            assert_reply(got[index], expect)
            index += 1
        # A seat's join changes what everybody sees (who is connected); a spectator's does not.
        if expect.kind in ("played", "rematch") or (
            expect.kind == "joined" and expect.seat is not None
        ):
            broadcasts.append(expect)
    assert index == len(got), f"more than one reply per message: {got[index:]}"
    # A refusal names no card the sender may not see, beyond those it sent itself.
    start = Game.from_record(before)
    seen = {str(card) for card in start.table}
    seen |= {str(card) for pile in start.captured for card in pile}
    if sender.seat is not None:
        seen |= {str(card) for card in start.hand(sender.seat)}
    for payload in payloads:
        if isinstance(payload, str):
            seen |= cards_of_text(payload)
            # json.dumps writes a suit symbol as an escape (7\u2666): read the payload decoded
            # (hostile payloads may not decode, or nest too deep to).
            with contextlib.suppress(ValueError, RecursionError):
                seen |= named_cards(json.loads(payload))
    for message in got:
        if message["type"] == "error":
            assert named_cards(message) <= seen, message
    for who in others:
        told = collect(who.peer, 0)
        assert len(told) == len(broadcasts), (told, broadcasts)
        for state, expect in zip(told, broadcasts, strict=True):
            assert is_state(state)
            if expect.kind == "played":
                assert_reply(state, expect)
            else:
                assert state["event"] is None
    after = server_record(client, room.id)
    if any(expect.kind == "rematch" for expect in expects):
        assert room_number(client, room.id) == number + 1
        assert moves_of(after) == []
    else:
        played = [str(expect.move) for expect in expects if expect.kind == "played"]
        assert moves_of(after) == moves_of(before) + played
        if not played:
            assert after == before, "a refused message changed the match"
    room.fresh_connection()


def room_number(client: TestClient, room: str) -> int:
    number: int = client.get(f"/api/rooms/{room}").json()["match_number"]
    return number


# -- strategies ------------------------------------------------------------------------------------


json_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(10**40), max_value=10**40)
    | st.floats()
    | st.text(max_size=12)
    | st.sampled_from(CARD_TEXTS)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
card_texts = (
    st.sampled_from(CARD_TEXTS)
    | st.sampled_from(["7♦", " 7d ", "7D", "10d", "11c", "12s", "", "X", "Ad7", "♦7"])
    | st.text(max_size=8)
)


def dumps(value: Any) -> str:
    return json.dumps(value, allow_nan=True)


def padded_ping(size: int, filler: str) -> str:
    head, tail = '{"type": "ping", "pad": "', '"}'
    count = max(0, (size - len(head) - len(tail)) // len(filler.encode()))
    return head + filler * count + tail


# Draws whose shape never depends on the match (hypothesis replays draws on a match that has
# moved on): an index into a list of the moment, a list of indexes.
INDEX = st.integers(0, 2**16)
INDEXES = st.lists(INDEX, max_size=4)


def pick(items: Sequence[Any], index: int, fallback: Any) -> Any:
    return items[index % len(items)] if items else fallback


def play_of(move: Move) -> Message:
    captures = sorted(str(card) for card in move.captures)
    return {"type": "play", "card": str(move.card), "captures": captures}


@st.composite
def ws_payloads(draw: Any, game: Game, tokens: Sequence[str]) -> list[str | bytes]:
    """One message, or a valid one repeated."""
    mover = game.to_move
    hand = [str(card) for card in game.hand(mover)] if mover is not None else []
    table = [str(card) for card in game.table]
    legal = [play_of(move) for move in sorted(game.legal_moves(), key=str)]
    ping = {"type": "ping"}
    valid = [ping, {"type": "watch"}, *({"type": "join", "token": t} for t in tokens)]
    valid += legal[:3]

    def real_play(card: int, own: bool, captures: list[int], on_table: bool) -> str:
        played = pick(hand, card, "7d") if own else CARD_TEXTS[card % 40]
        taken = {pick(table, i, "7d") if on_table else CARD_TEXTS[i % 40] for i in captures}
        return dumps({"type": "play", "card": played, "captures": sorted(taken)})

    def self_capture(index: int) -> str:
        move = pick(legal, index, play_of(Move(Card.parse("7d"))))
        return dumps({**move, "captures": [*move["captures"], move["card"]]})

    one: Any = st.one_of(
        st.text(max_size=300),
        st.binary(max_size=80),
        json_values.map(dumps),
        st.fixed_dictionaries(
            {"type": st.sampled_from(TYPES)},
            optional={
                "token": json_values,
                "card": card_texts | json_values,
                "captures": st.lists(card_texts, max_size=5) | json_values,
                "language": st.sampled_from(["en", "de", "fr", ""]) | json_values,
                "deck": st.sampled_from(["french", "spanish", "x"]) | json_values,
                "seat": st.integers(-1, 4),
            },
        ).map(dumps),
        st.sampled_from(TYPES).map(lambda kind: dumps({"type": kind})),
        st.builds(real_play, INDEX, st.booleans(), INDEXES, st.booleans()),
        INDEX.map(lambda index: dumps(pick(legal, index, ping))),
        INDEX.map(self_capture),
        st.builds(
            padded_ping,
            st.integers(MAX_MESSAGE_BYTES - 8, 3 * MAX_MESSAGE_BYTES),
            st.sampled_from(["x", "é", "€", "😀"]),
        ),
        st.text(min_size=1, max_size=3).map(
            lambda t: dumps({"type": "hint", "language": t * 3000})
        ),
    )
    repeat = draw(st.integers(0, 5)) == 0
    repeated = pick(valid, draw(INDEX), ping)
    times = draw(st.integers(2, 4))
    single = draw(one)
    return [dumps(repeated)] * times if repeat else [single]


# -- the WebSocket ---------------------------------------------------------------------------------


@pytest.mark.slow
@FUZZ
@given(data=st.data())
def test_any_message_gets_its_one_reply_and_changes_nothing_else(room: Room, data: Any) -> None:
    sender = pick(room.people, data.draw(INDEX, label="sender"), None)
    game = server_game(room.client, room.id)
    payloads = data.draw(ws_payloads(game, list(room.tokens)), label="payloads")
    if data.draw(st.booleans(), label="rematch") and game.is_over():
        payloads = [dumps({"type": "rematch"})]
    send_and_check(room, sender, payloads)


@pytest.mark.slow
@FUZZ
@given(data=st.data())
def test_plays_out_of_turn_illegal_or_of_cards_not_held(room: Room, data: Any) -> None:
    """Plays from real cards (RULES.md "A move"), by either person: each refused with the
    engine's verdict, or played when legal, until the match ends and a rematch starts."""
    game = server_game(room.client, room.id)
    seated = [who for who in room.people if who.joined and who.seat is not None]
    by_mover = data.draw(st.booleans(), label="sent by the seat to move")
    sender = pick(seated, data.draw(INDEX, label="sender"), None)
    legal, card = data.draw(st.booleans(), label="a legal move"), data.draw(INDEX, label="card")
    own = data.draw(st.booleans(), label="a card of the hand")
    on_table = data.draw(st.booleans(), label="captures from the table")
    taken = data.draw(INDEXES, label="captures")
    if game.is_over():
        send_and_check(room, sender, [dumps({"type": "play", "card": "7d", "captures": []})])
        send_and_check(room, sender, [dumps({"type": "rematch"})])
        return
    if by_mover:
        sender = next(who for who in seated if who.seat == game.to_move)
    seat = sender.seat
    hand = [str(card) for card in game.hand(seat)]
    table = [str(card) for card in game.table]
    if legal:
        message = play_of(pick(sorted(game.legal_moves(), key=str), card, None))
    else:
        played = pick(hand, card, "7d") if own else CARD_TEXTS[card % 40]
        captures = {pick(table, i, "7d") if on_table else CARD_TEXTS[i % 40] for i in taken}
        message = {"type": "play", "card": played, "captures": sorted(captures)}
    send_and_check(room, sender, [dumps(message)])


def test_a_play_that_takes_its_own_card_is_refused(room: Room) -> None:
    """RULES.md "A move": a card from the hand and table cards; a play naming its own card
    among the captures is refused like any illegal move, and the connection stays open."""
    game = server_game(room.client, room.id)
    mover = next(who for who in room.people if who.seat == game.to_move)
    card = str(game.hand(mover.seat)[0])  # type: ignore[arg-type]
    send_and_check(room, mover, [dumps({"type": "play", "card": card, "captures": [card]})])


# -- HTTP ------------------------------------------------------------------------------------------


def assert_well_answered(answer: Any) -> None:
    assert answer.status_code < 500, answer.text
    if 400 <= answer.status_code < 500:
        body = answer.json()
        assert set(body) == {"type", "code", "message"}, body
        assert body["type"] == "error"
        assert isinstance(body["code"], str) and body["code"]
        assert isinstance(body["message"], str) and body["message"]


option_values = (
    st.integers(min_value=-3, max_value=40)
    | st.integers()
    | st.booleans()
    | st.sampled_from(["sum15", "match", "ranking", "sevens", "primiera", "none", ""])
    | json_values
)
room_bodies = st.fixed_dictionaries(
    {},
    optional={
        "rules": st.sampled_from(list(RULESETS)) | st.text(max_size=10) | json_values,
        "options": st.dictionaries(
            st.sampled_from(OPTION_NAMES) | st.text(max_size=6), option_values, max_size=4
        )
        | json_values,
        "players": st.integers(1, 5) | json_values,
        "partnerships": st.booleans() | json_values,
        "seats": st.lists(st.sampled_from(["person", *LEVELS, "robot"]), max_size=5) | json_values,
        "seat": st.integers(-1, 4) | json_values,
        "nickname": st.text(max_size=30) | json_values,
        "extra": json_values,
    },
)
counts = st.lists(st.integers(-2, 45), max_size=5) | json_values
pad_bodies = st.fixed_dictionaries(
    {},
    optional={
        "rules": st.sampled_from(list(RULESETS)) | json_values,
        "options": st.dictionaries(st.sampled_from(OPTION_NAMES), option_values, max_size=3)
        | json_values,
        "sides": st.integers(-1, 5) | json_values,
        "names": st.lists(st.text(max_size=6), max_size=5) | json_values,
        "language": st.sampled_from([*LANGUAGES, "fr"]) | json_values,
        "hands": st.lists(
            st.fixed_dictionaries(
                {},
                optional={
                    "cards": counts,
                    "coins": counts,
                    "seven_of_coins": st.integers(-1, 4) | json_values,
                    "sevens_winner": st.integers(-1, 4) | json_values,
                    "sweeps": counts,
                    "sevens": counts,
                },
            ),
            max_size=3,
        )
        | json_values,
    },
)


@pytest.fixture
def client_and_room(client: TestClient) -> tuple[TestClient, str]:
    return client, create_room(client)["room"]


def any_body(structured: Any) -> Any:
    return (
        structured.map(dumps).map(str.encode)
        | json_values.map(dumps).map(str.encode)
        | st.binary(max_size=200)
    )


@pytest.mark.slow
@FUZZ_HTTP
@given(body=any_body(room_bodies))
def test_random_bodies_to_open_a_room(client: TestClient, body: bytes) -> None:
    answer = client.post("/api/rooms", content=body, headers={"content-type": "application/json"})
    assert_well_answered(answer)
    if answer.status_code == 201:
        ticket = answer.json()
        assert client.get(f"/api/rooms/{ticket['room']}").status_code == 200


@pytest.mark.slow
@FUZZ_HTTP
@given(
    body=any_body(
        st.fixed_dictionaries(
            {}, optional={"nickname": st.text(max_size=30) | json_values, "seat": json_values}
        )
    ),
    room=st.sampled_from(["mine", "nope"]) | st.text(min_size=1, max_size=40),
)
def test_random_bodies_to_join_a_room(client: TestClient, body: bytes, room: str) -> None:
    if room == "mine":
        room = create_room(client, seats=["person", "person", "person"], players=3)["room"]
    url = f"/api/rooms/{urllib.parse.quote(room, safe='')}/join"
    answer = client.post(url, content=body, headers={"content-type": "application/json"})
    assert_well_answered(answer)


@pytest.mark.slow
@FUZZ_HTTP
@given(body=any_body(pad_bodies))
def test_random_score_pads(client: TestClient, body: bytes) -> None:
    answer = client.post(
        "/api/scorepad", content=body, headers={"content-type": "application/json"}
    )
    assert_well_answered(answer)


@FUZZ_HTTP
@given(
    query=st.text(max_size=40).map(lambda text: urllib.parse.quote(text, safe="=&"))
    | st.binary(max_size=20).map(lambda raw: "language=" + "".join(f"%{b:02X}" for b in raw))
    | st.sampled_from([*LANGUAGES, "fr", "", "EN"]).map(lambda lang: f"language={lang}")
    | st.lists(st.sampled_from([*LANGUAGES, "x"]), max_size=3).map(
        lambda langs: "&".join(f"language={lang}" for lang in langs)
    ),
)
@pytest.mark.slow
def test_random_query_strings_to_the_cheat_sheet(
    client_and_room: tuple[TestClient, str], query: str
) -> None:
    client, room = client_and_room
    answer = client.get(f"/api/rooms/{room}/cheatsheet?{query}")
    assert_well_answered(answer)
    if answer.status_code == 200:
        assert answer.json()["sections"]


# -- every route: hostile paths, query strings and bodies ------------------------------------------
#
# The routes are read from the app itself, so a new one is fuzzed as soon as it exists; a route
# with a path parameter that has no strategy here fails test_every_path_parameter_is_fuzzed.


@dataclass(frozen=True)
class Endpoint:
    """One route of the app: its path with ``{name}`` for each parameter, the pattern the
    router matches the (decoded) path with, its methods (none for a WebSocket)."""

    path: str
    pattern: re.Pattern[str]
    params: tuple[str, ...]
    methods: frozenset[str] = frozenset()
    websocket: bool = False

    def __str__(self) -> str:
        return f"{'WS' if self.websocket else ','.join(sorted(self.methods))} {self.path}"


def endpoints(routes: Sequence[BaseRoute], prefix: str = "") -> list[Endpoint]:
    """Every route under ``routes``: plain ones, WebSockets, mounts and included routers."""
    found: list[Endpoint] = []
    for route in routes:
        if isinstance(route, Route | WebSocketRoute):
            pattern, path, params = compile_path(prefix + route.path)
            methods = frozenset(route.methods or ()) if isinstance(route, Route) else frozenset()
            found.append(
                Endpoint(path, pattern, tuple(params), methods, isinstance(route, WebSocketRoute))
            )
        elif isinstance(route, Mount):
            if route.routes:
                found += endpoints(route.routes, prefix + route.path)
            else:  # an app of its own (the static files): it answers GET and HEAD
                pattern, path, params = compile_path(prefix + route.path + "/{path:path}")
                found.append(Endpoint(path, pattern, tuple(params), frozenset({"GET", "HEAD"})))
        elif (router := getattr(route, "original_router", None)) is not None:
            # FastAPI keeps an included router as one route holding the router's own routes.
            found += endpoints(router.routes, prefix + route.include_context.prefix)  # type: ignore[attr-defined]
        else:
            raise AssertionError(f"a route the fuzz does not know how to reach: {route!r}")
    return found


ENDPOINTS = endpoints(create_app(Settings(database_url="sqlite://")).routes)
HTTP_ENDPOINTS = [endpoint for endpoint in ENDPOINTS if not endpoint.websocket]
WS_ENDPOINTS = [endpoint for endpoint in ENDPOINTS if endpoint.websocket]
MAX_URL = 60_000
"""URLs the test client can send (httpx refuses those over 64 KiB)."""
METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "PROPFIND"]
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
WEB_FILES = sorted(path.name for path in WEB.iterdir() if path.is_file())
WEB_CONTENTS = frozenset(path.read_bytes() for path in WEB.rglob("*") if path.is_file())
"""What ``/static`` may answer with."""


@dataclass(frozen=True)
class Real:
    """A path parameter that names something that exists (filled in from the :class:`Site`)."""

    name: str


def percent(data: bytes) -> str:
    return "".join(f"%{byte:02X}" for byte in data)


def segment(text: str) -> str:
    """A URL path segment naming exactly ``text``."""
    return urllib.parse.quote(text, safe="")


HUGE_NUMBERS = [
    str(2**31),
    str(2**63),
    str(2**64),
    str(-(2**63) - 1),
    str(10**30),
    str(-(10**30)),
    "1" + "0" * 3999,  # 10**3999: 4000 digits
    "9" * 4300,  # Python's longest integer text by default
    "9" * 4301,
    "1" * 5000,
]
ODD_NUMBERS = ["-1", "0", "-0", "+1", "01", "1.0", "1e3", "0x10", "1_000", "NaN", "inf", " 1"]
HOSTILE_SEGMENTS = [
    *HUGE_NUMBERS,
    *(segment(text) for text in ODD_NUMBERS),
    "%EF%BC%91%EF%BC%92",  # fullwidth "12"
    "%D9%A1%D9%A2",  # Arabic-Indic "12"
    "%00",
    "a%00",
    "%00a",
    "1%00",
    "%2500",  # "%00" once decoded
    "%FF%FE",
    "%C0%AF",  # an overlong "/"
    "%ED%A0%80",  # a surrogate in UTF-8
    "%80",
    "%E2%82",  # a cut-off sequence
    "%F4%90%80%80",  # beyond U+10FFFF
    "%2E%2E",
    "%2E",
    "%2F",
    "%5C",
    "..%2F..%2F..%2Fetc%2Fpasswd",
    "%2E%2E%2F%2E%2E%2Fpyproject.toml",
    "~",
    "*",
    "%20",
    "%0D%0Aheader%3A%20x",
    segment("é🀄\u202e\u200b\ufeff"),
]
hostile_segments: st.SearchStrategy[str] = st.one_of(
    st.sampled_from(HOSTILE_SEGMENTS),
    st.text(min_size=1, max_size=40).map(segment),
    st.binary(min_size=1, max_size=16).map(percent),
    st.integers(-(10**40), 10**40).map(str),
    st.integers(0, 4400).map(lambda digits: "1" + "0" * digits),
    st.integers(1, 16_000).map(lambda size: "a" * size),
)
file_paths: st.SearchStrategy[str | Real] = st.one_of(
    st.just(Real("file")),
    st.sampled_from(WEB_FILES),
    st.sampled_from(WEB_FILES).map(lambda name: f"{name}%00.txt"),
    st.sampled_from(WEB_FILES).map(lambda name: f"..%2Fweb%2F{name}"),
    st.sampled_from(WEB_FILES).map(lambda name: f"{name}/"),
    st.lists(hostile_segments | st.sampled_from(["..", ".", ""]), min_size=1, max_size=4).map(
        "/".join
    ),
)
GAMES = ["escoba", "scopa", "scopone", "escova"]
"""The games with ratings (docs/protocol.md)."""
PUZZLE = load_puzzles()[0]
"""A shipped puzzle: the puzzles' routes are fuzzed with its id and a try of its answer."""

PATH_VALUES: dict[str, st.SearchStrategy[str | Real]] = {
    "room_id": st.sampled_from([Real("room"), Real("playing_room"), Real("rated_room")])
    | hostile_segments,
    "match_id": st.sampled_from([Real("match"), Real("unfinished")]) | hostile_segments,
    "path": file_paths,
    "username": st.sampled_from([Real("username"), Real("deleted_username")])
    | st.sampled_from(["admin", "deleted%20player", "Deleted%20Player", "FUZZ%20ANA", "nobody"])
    | hostile_segments,
    "game": st.sampled_from(GAMES)
    | st.sampled_from(["ESCOBA", "Scopa", "chess", "escoba%00", "escoba%20", "scopa-15"])
    | hostile_segments,
    "puzzle_id": st.sampled_from([PUZZLE.id, PUZZLE.id.upper(), "next", "e99999"])
    | hostile_segments,
}
"""A strategy for every path parameter of the app's routes: real values and hostile ones."""


def fill(endpoint: Endpoint, values: dict[str, str]) -> str:
    return re.sub(r"\{(\w+)\}", lambda found: values[found.group(1)], endpoint.path)


HOSTILE_QUERIES = [
    "language=%00",
    "language=en%00",
    "language=%FF%FE",
    "language=%ED%A0%80",
    "%FF%FE=%FF",
    "%00=%00",
    "language",
    "language=",
    "=&=&&==",
    "language=en&language=de&language=xx",
    "language=" + "x" * 20_000,
    "language=" + "9" * 5000,
    "x=" + "[" * 5000,
    "&" * 2000,
    "language[]=en&language[x]=de",
]
query_parts = st.sampled_from(["language", "lang", "x", ""]) | hostile_segments
queries: st.SearchStrategy[str] = st.one_of(
    st.just(""),
    st.sampled_from(HOSTILE_QUERIES),
    st.lists(st.tuples(query_parts, query_parts), min_size=1, max_size=4).map(
        lambda pairs: "&".join(f"{key}={value}" for key, value in pairs)
    ),
    st.binary(max_size=20).map(lambda raw: "language=" + percent(raw)),
)

PASSKEY_ANSWER: dict[str, Any] = {
    "id": "AAECAwQFBgcICQoLDA0ODw",
    "rawId": "AAECAwQFBgcICQoLDA0ODw",
    "type": "public-key",
    "response": {
        "clientDataJSON": "eyJ0eXBlIjoid2ViYXV0aG4uZ2V0In0",
        "attestationObject": "o2NmbXRkbm9uZQ",
        "authenticatorData": "SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2MFAAAAAQ",
        "signature": "MEUCIQDa",
        "userHandle": "dXNlcg",
    },
    "clientExtensionResults": {},
}
"""The shape of a browser's answer to a passkey ceremony (its values made up)."""

# A valid body for each route that takes one (POST, PUT, DELETE); the fuzz puts hostile JSON
# text at any place of it.
VALID_BODIES: dict[str, Any] = {
    "/api/rooms": {
        "rules": "escoba",
        "options": RuleSet().to_dict(),
        "players": 2,
        "partnerships": False,
        "seats": ["person", "person"],
        "seat": 0,
        "nickname": "Ana",
    },
    "/api/rooms/{room_id}/join": {"nickname": "Bea", "seat": 1},
    "/api/matches/mine": {"tokens": ["f3Kq_8x-PzT0aLmN2bVcRt6YwUe9HsJd"]},
    "/api/matches/{match_id}/replay": {"tokens": ["f3Kq_8x-PzT0aLmN2bVcRt6YwUe9HsJd"]},
    "/api/matches/{match_id}/analysis": {
        "tokens": ["f3Kq_8x-PzT0aLmN2bVcRt6YwUe9HsJd"],
        "language": "es",
        "deck": "spanish",
    },
    "/api/account/register": {"username": "Fuzz Cy", "password": PASSWORD},
    "/api/account/sign-in": {"username": "Fuzz Ana", "password": PASSWORD},
    "/api/account/sign-out": {},
    "/api/account/sign-out-everywhere": {},
    "/api/account/password": {"password": "another long secret", "current": PASSWORD},
    "/api/account/passkeys/options": {"username": "Fuzz Di"},
    "/api/account/passkeys": {"flow": "f" * 32, "credential": PASSKEY_ANSWER},
    "/api/account/sign-in/options": {},
    "/api/account/sign-in/passkey": {"flow": "f" * 32, "credential": PASSKEY_ANSWER},
    "/api/account/attach": {"tokens": ["f3Kq_8x-PzT0aLmN2bVcRt6YwUe9HsJd"]},
    "/api/account": {"username": "Fuzz Ana"},
    "/api/puzzles/{puzzle_id}/attempt": {
        "move": PUZZLE.answer,
        "rating": {"mu": 25.0, "sigma": 8.0},
        "language": "fr",
        "deck": "italian",
    },
    "/api/scorepad": {
        "rules": "escoba",
        "options": {"target_score": 15, "win_by": 1, "all_sevens_bonus": 0},
        "sides": 2,
        "names": ["Ana", "Ben"],
        "language": "es",
        "hands": [
            {"cards": [22, 18], "coins": [6, 4], "seven_of_coins": 0, "sevens_winner": 0},
            {"cards": [20, 20], "coins": [5, 5], "seven_of_coins": 1, "sweeps": [0, 3]},
        ],
    },
}

HOSTILE_JSON = [
    *(number.encode() for number in HUGE_NUMBERS),
    b"1" * 20_000,
    b"-" + b"9" * 4301,
    b"1e400",
    b"-1e400",
    b"1e-400",
    b"1.5",
    b"-0.0",
    b"NaN",
    b"Infinity",
    b"-Infinity",
    b"true",
    b"false",
    b"null",
    b"[]",
    b"{}",
    b'""',
    b'"12"',
    b"[1]",
    b'{"a": 1}',
    b'"\\u0000"',
    b'"Ana\\u0000"',
    b'"\\u0000\\u0000\\u0000"',
    b'"\x00"',  # a raw NUL: not JSON
    b'"\\ud800"',
    b'"\\udfff\\ud800"',
    b'"\xff\xfe"',
    b'"\xc0\xaf"',
    b'"\xed\xa0\x80"',
    b'"\xe2\x82"',
    b"[" * 30_000,
    b"[" * 5000 + b"]" * 5000,
    b'{"a":' * 5000 + b"1" + b"}" * 5000,
    b"{" * 20_000,
    b'"' + b"x" * 70_000 + b'"',  # the body is then over the limit
    b"",
    b"}",
    b"1 2",
    b"'a'",
    b"0x10",
    b"01",
    b"+1",
]
hostile_json: st.SearchStrategy[bytes] = st.one_of(
    st.sampled_from(HOSTILE_JSON),
    st.integers(0, 20_000).map(lambda digits: b"-1" + b"0" * digits),
    st.integers(1, 30_000).map(lambda depth: b"[" * depth + b"]" * depth),
    st.integers(1, 70_000).map(lambda size: b'"' + b"x" * size + b'"'),
    st.binary(min_size=1, max_size=8).map(lambda raw: b'"' + raw + b'"'),
    json_values.map(lambda value: dumps(value).encode()),
)
HOSTILE_BODIES = [
    b"",
    b"nope",
    b"\x00",
    b"\xff\xfe\x00",
    b"\xef\xbb\xbf{}",
    b"null",
    b"[]",
    b"0",
    b'"x"',
    b"[" * 30_000,
    b"{" * 30_000,
    b'{"a":' * 13_000,
    b"[" * 70_000,
    b" " * 70_000 + b"{}",
    b'{"nickname": "Ana", "nickname": "Bea"}',
    b'{"nickname": "Ana"} trailing',
    b'{"nickname": "Ana\xffBea"}',
    '{"nickname": "Ana"}'.encode("utf-16"),
    '{"nickname": "Ana"}'.encode("utf-32"),
]
CONTENT_TYPES = [
    "application/json",
    "application/json",
    "application/json",
    None,
    "text/plain",
    "application/json; charset=utf-16",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "application/json-patch+json",
]
MARK = "\x00hostile\x00"


def places(value: Any, at: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place in a JSON value: itself, each member and item, and a new member."""
    yield at
    if isinstance(value, dict):
        yield (*at, "extra")
        for key, item in value.items():
            yield from places(item, (*at, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from places(item, (*at, index))


def put(value: Any, at: tuple[Any, ...], raw: bytes) -> bytes:
    """``value`` as JSON text with ``raw`` (any bytes) as the text of the place ``at``."""
    if not at:
        return raw
    copy = json.loads(json.dumps(value))
    inner = copy
    for key in at[:-1]:
        inner = inner[key]
    inner[at[-1]] = MARK
    return json.dumps(copy).encode().replace(json.dumps(MARK).encode(), raw)


def bodies(endpoint: Endpoint) -> st.SearchStrategy[bytes]:
    """A hostile body: the route's valid body with hostile JSON text in one place, or
    something that is hardly a body at all."""
    return hostile_bodies(VALID_BODIES.get(endpoint.path, {}))


@st.composite
def hostile_bodies(
    draw: Any, valid: Any, kinds: Sequence[str] = ("place", "place", "whole", "values")
) -> bytes:
    """``valid`` (a JSON value) with hostile JSON text in one place, or something that is
    hardly a body at all (and the valid body itself, when ``kinds`` holds ``valid``)."""
    kind = draw(st.sampled_from(kinds))
    if kind == "valid":
        return json.dumps(valid).encode()
    if kind == "whole":
        whole: bytes = draw(st.sampled_from(HOSTILE_BODIES) | st.binary(max_size=200))
        return whole
    if kind == "values":
        return dumps(draw(json_values)).encode()
    where = draw(st.sampled_from(list(places(valid))))
    return put(valid, where, draw(hostile_json))


@dataclass(frozen=True)
class Site:
    """A running app with something in it: a room whose match is over (and its finished
    match), a room being played (and its unfinished match)."""

    client: TestClient
    room: str
    match: str
    playing_room: str
    unfinished: str
    rated_room: str
    username: str
    deleted_username: str
    file: str = "base.css"

    def value(self, drawn: str | Real) -> str:
        return getattr(self, drawn.name) if isinstance(drawn, Real) else drawn


def public(client: TestClient, token: str) -> list[dict[str, Any]]:
    """The finished matches of the seat ``token`` holds, each made public: every GET route
    then answers for a real match."""
    held = client.post("/api/matches/mine", json={"tokens": [token]}).json()["matches"]
    for match in held:
        made = client.put(
            f"/api/matches/{match['id']}/public", json={"tokens": [token], "public": True}
        )
        assert made.status_code == 200, made.text
    return list(held)


@pytest.fixture(scope="module")
def site(database_backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    with running_app(tmp_path_factory.mktemp("site") / "escoba.db") as client:
        room, ticket, guest = two_people(client, options={"target_score": 1})
        with connect(client, room) as ana, connect(client, room) as bea:
            ana.join(ticket["token"])
            bea.join(guest["token"])
            play_until([ana, bea], lambda state: bool(state["match"]["over"]))
        (match,) = public(client, ticket["token"])
        playing = create_room(client, seats=["person", "person"])["room"]
        unfinished = on_server(client, lambda hub: hub.rooms[playing].match_id)
        # An account that played a rated table, and one deleted since (its name a path's).
        ana = register(client, "Fuzz Ana")
        rated = ana.create_room(rated=True, listed=True, clock={"per_move": 60, "reserve": 600})
        gone = register(client, "Fuzz Gone")
        deleted = client.request(
            "DELETE", "/api/account", json={"username": "Fuzz Gone"}, headers=gone.headers()
        )
        assert deleted.status_code == 200, deleted.text
        client.cookies.clear()
        yield Site(
            client,
            room,
            str(match["id"]),
            playing,
            str(unfinished),
            rated["room"],
            segment("Fuzz Ana"),
            segment("Fuzz Gone"),
        )


SERVER_LOGGERS = ("escoba", "uvicorn", "uvicorn.error", "uvicorn.access", "fastapi")


@pytest.fixture
def server_log(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    """What the server logs during the test (from INFO up), from the root logger and from
    the server's loggers, also those that do not hand their records on to the root."""
    caplog.set_level(logging.INFO)
    added = []
    for name in SERVER_LOGGERS:
        logger = logging.getLogger(name)
        if not logger.propagate:
            logger.addHandler(caplog.handler)
            added.append(logger)
    yield caplog
    for logger in added:
        logger.removeHandler(caplog.handler)


def assert_no_server_error(log: pytest.LogCaptureFixture) -> None:
    """Nothing logged at ERROR or above, and no traceback at any level."""
    bad = [
        record
        for record in log.records
        if record.levelno >= logging.ERROR or record.exc_info or record.exc_text
    ]
    assert not bad, "the server logged errors:\n" + "\n".join(
        f"{record.levelname} {record.name}: {record.getMessage()}\n{record.exc_text or ''}"
        for record in bad
    )


def assert_clear_answer(answer: Any, method: str, endpoint: Endpoint) -> None:
    """Never a server error; every refusal an error message with a code and a sentence (the
    score pad API refuses in the very same shape: http/routes/scorepad.py)."""
    assert answer.status_code < 500, (answer.status_code, answer.text[:500])
    if method == "HEAD":
        assert not answer.content  # HTTP: the answer to HEAD has no body
        return
    if 200 <= answer.status_code < 300:
        if endpoint.path.startswith("/static/"):
            assert answer.content in WEB_CONTENTS, "a file from outside the web folder"
        return
    assert answer.headers["content-type"] == "application/json", answer.headers
    body = answer.json()
    assert set(body) == {"type", "code", "message"}, body
    assert body["type"] == "error"
    assert isinstance(body["code"], str) and body["code"]
    assert isinstance(body["message"], str) and body["message"].strip()


def test_every_path_parameter_is_fuzzed() -> None:
    """The fuzz found the app's routes (those of included routers too) and has a strategy
    for each of their path parameters: a new parameter fails here until it gets one."""
    paths = {endpoint.path for endpoint in ENDPOINTS}
    assert {"/api/rooms", "/api/scorepad", "/static/{path}", "/ws/rooms/{room_id}"} <= paths
    missing = {
        str(endpoint): sorted(set(endpoint.params) - set(PATH_VALUES))
        for endpoint in ENDPOINTS
        if not set(endpoint.params) <= set(PATH_VALUES)
    }
    assert not missing, f"path parameters without a strategy in PATH_VALUES: {missing}"
    assert set(VALID_BODIES) <= {e.path for e in HTTP_ENDPOINTS if e.methods & UNSAFE}


FUZZ_ROUTES = settings(FUZZ, max_examples=60)


@pytest.mark.slow
@pytest.mark.parametrize("endpoint", HTTP_ENDPOINTS, ids=str)
@FUZZ_ROUTES
@given(data=st.data())
def test_every_route_answers_hostile_requests_clearly(
    site: Site, endpoint: Endpoint, server_log: pytest.LogCaptureFixture, data: Any
) -> None:
    """Any method, hostile path parameters, query strings and bodies: never a server error,
    every refusal an error message, nothing logged as an error."""
    server_log.clear()
    own = data.draw(st.integers(0, 4), label="the route's own method") > 0
    methods = sorted(endpoint.methods) if own else METHODS
    method = data.draw(st.sampled_from(methods), label="method")
    values = {
        name: site.value(data.draw(PATH_VALUES[name], label=name)) for name in endpoint.params
    }
    url = fill(endpoint, values)
    query = data.draw(queries, label="query")
    if query:
        url += "?" + query
    assume(len(url) < MAX_URL)  # the test client's own limit (a server's: header_bytes)
    body = b""
    headers = {}
    if method in ("POST", "PUT", "PATCH") or data.draw(st.booleans(), label="a body"):
        body = data.draw(bodies(endpoint), label="body")
        content_type = data.draw(st.sampled_from(CONTENT_TYPES), label="content type")
        if content_type is not None:
            headers["content-type"] = content_type
    answer = site.client.request(method, url, content=body, headers=headers)
    site.client.cookies.clear()  # a sign-in that passed: the next request is anonymous again
    event(f"{method} {answer.status_code}")  # --hypothesis-show-statistics
    assert_clear_answer(answer, method, endpoint)
    assert_no_server_error(server_log)


# -- accounts: hostile requests signed in or not; a refusal changes nothing ------------------------
#
# Each example has an account of its own, signed in (a session cookie and its CSRF token), and
# a valid request of the route built for it (a real passkey answer from a software
# authenticator, a real seat token...): the fuzz puts hostile JSON text at one place of it,
# or sends something else, from a browser that is signed out, signed in, signed in without
# its token or with a wrong one, with a session that ended or a cookie made up. Never a server
# error; every refusal an error message; a refusal changes no account, session, passkey, seat
# or match player, and makes no passkey ceremony; an account is made only by a well-formed
# body, under the name it gave; a live session without its token changes nothing.

ACCOUNT_ROUTES = [
    ("GET", "/api/account"),
    ("POST", "/api/account/register"),
    ("POST", "/api/account/sign-in"),
    ("POST", "/api/account/sign-out"),
    ("POST", "/api/account/sign-out-everywhere"),
    ("PUT", "/api/account/password"),
    ("POST", "/api/account/passkeys/options"),
    ("POST", "/api/account/passkeys"),
    ("POST", "/api/account/sign-in/options"),
    ("POST", "/api/account/sign-in/passkey"),
    ("POST", "/api/account/attach"),
    ("GET", "/api/account/export"),
    ("DELETE", "/api/account"),
]
BODY_MODELS: dict[tuple[str, str], type[BaseModel]] = {
    ("POST", "/api/account/register"): Credentials,
    ("POST", "/api/account/sign-in"): Credentials,
    ("PUT", "/api/account/password"): NewPassword,
    ("POST", "/api/account/passkeys/options"): PasskeyStart,
    ("POST", "/api/account/passkeys"): PasskeyAnswer,
    ("POST", "/api/account/sign-in/passkey"): PasskeyAnswer,
    ("POST", "/api/account/attach"): SeatTokens,
    ("DELETE", "/api/account"): DeleteAccount,
}
"""What the routes read their bodies as (the others take none)."""
OWN_SESSION_ROUTES = {
    ("POST", "/api/account/sign-out"),
    ("POST", "/api/account/sign-out-everywhere"),
    ("PUT", "/api/account/password"),
    ("POST", "/api/account/attach"),
    ("DELETE", "/api/account"),
}
"""The routes that act on the signed-in account: without the session's CSRF token they must
do nothing."""
WHO = ["anonymous", "signed in", "signed in", "no token", "wrong token", "ended", "made up"]
ORIGIN = "http://testserver"
"""The test client's own origin, as a passkey's browser reports it."""
ACCOUNT_TABLES = (AccountRow, SessionRow, PasskeyRow, SeatRow, MatchPlayerRow, RatingRow)


@dataclass
class AccountSite:
    client: TestClient
    device: SoftAuthenticator
    """Holds the passkey of the account ``Keeper`` (and those the examples make)."""
    numbers: Iterator[int]


@pytest.fixture(scope="module")
def account_site(
    database_backend: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[AccountSite]:
    """The app with an account of passkeys only; failed sign-ins limited per name only (each
    example has names of its own: the address's limit would soon refuse every sign-in)."""
    limits = TEST_LIMITS.replace(sign_ins_per_address=10**9, passkey_flows_per_address=10**9)
    with running_app(tmp_path_factory.mktemp("accounts") / "escoba.db", limits=limits) as client:
        device = SoftAuthenticator(ORIGIN)
        started = client.post("/api/account/passkeys/options", json={"username": "Keeper"})
        made = client.post(
            "/api/account/passkeys",
            json={
                "flow": started.json()["flow"],
                "credential": device.create(started.json()["options"]),
            },
        )
        assert made.status_code == 201, made.text
        client.cookies.clear()
        yield AccountSite(client, device, itertools.count())


def account_rows(client: TestClient) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the tables an account's requests may change, as plain values."""
    engine = client.app.state.storage.engine  # type: ignore[attr-defined]
    with engine.connect() as connection:
        return {
            table.__tablename__: sorted(
                (tuple(map(repr, row)) for row in connection.execute(select(table))), key=repr
            )
            for table in ACCOUNT_TABLES
        }


def flow_ids(client: TestClient) -> set[str]:
    engine = client.app.state.storage.engine  # type: ignore[attr-defined]
    with engine.connect() as connection:
        return set(connection.scalars(select(FlowRow.id)))


def valid_request(site: AccountSite, route: tuple[str, str], number: int, person: Person) -> Any:
    """A valid body of ``route`` for the example's account ``person``."""
    client = site.client
    path = route[1]
    if path == "/api/account/register":
        return {"username": f"New {number}", "password": PASSWORD}
    if path == "/api/account/sign-in":
        return {"username": person.username, "password": PASSWORD}
    if path == "/api/account/password":
        return {"password": "another long secret", "current": PASSWORD}
    if path == "/api/account/passkeys/options":
        return {"username": f"Options {number}"}
    if path == "/api/account/passkeys":
        started = client.post("/api/account/passkeys/options", json={"username": f"Key {number}"})
        return {
            "flow": started.json()["flow"],
            "credential": site.device.create(started.json()["options"]),
        }
    if path == "/api/account/sign-in/passkey":
        started = client.post("/api/account/sign-in/options", json={})
        return {
            "flow": started.json()["flow"],
            "credential": site.device.get(started.json()["options"], which=0),
        }
    if path == "/api/account/attach":
        return {"tokens": [create_room(client)["token"]]}
    if path == "/api/account" and route[0] == "DELETE":
        return {"username": person.username}
    return {}


def browser_headers(who: str, person: Person, ended: Person) -> dict[str, str]:
    if who == "anonymous":
        return {}
    if who == "signed in":
        return person.headers()
    if who == "no token":
        return person.headers(csrf=False)
    if who == "wrong token":
        return {**person.headers(csrf=False), "X-CSRF-Token": person.csrf[::-1]}
    if who == "ended":
        return ended.headers()
    assert who == "made up"
    return {"Cookie": "escoba_session=made-up-by-someone-0123456789", "X-CSRF-Token": "made-up"}


def well_formed(route: tuple[str, str], body: bytes) -> Any:
    """The body as the route reads it (None for a route that reads none); fails the test
    when it is not well-formed."""
    model = BODY_MODELS.get(route)
    if model is None:
        return None
    # The server parses on a shallow stack; this test is deep in hypothesis's: a body nested
    # as deep as the server read must not exhaust the test's own recursion limit.
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(limit + 20_000)
    try:
        parsed = json.loads(body)
    finally:
        sys.setrecursionlimit(limit)
    return model.model_validate(parsed).model_dump()


def test_the_account_routes_are_all_fuzzed() -> None:
    found = {
        (method, endpoint.path)
        for endpoint in HTTP_ENDPOINTS
        if endpoint.path.startswith("/api/account")
        for method in endpoint.methods - {"HEAD"}
    }
    assert found == set(ACCOUNT_ROUTES)


@dataclass
class AccountExample:
    """One example's account (signed in), an account signed out since, and the route's
    valid request for them."""

    site: AccountSite
    route: tuple[str, str]
    number: int
    person: Person
    ended: Person
    valid: Any

    @classmethod
    def make(cls, site: AccountSite, route: tuple[str, str]) -> AccountExample:
        number = next(site.numbers)
        person = register(site.client, f"Fuzz {number}")
        ended = register(site.client, f"Ended {number}")
        assert ended.post("/api/account/sign-out").status_code == 200
        return cls(site, route, number, person, ended, valid_request(site, route, number, person))

    def send(
        self, body: bytes, who: str, content_type: str | None, log: pytest.LogCaptureFixture
    ) -> Any:
        """Send ``body`` from the browser ``who``; check the answer, and what it changed."""
        client = self.site.client
        method, path = self.route
        headers = browser_headers(who, self.person, self.ended)
        if content_type is not None:
            headers["content-type"] = content_type
        before, flows = account_rows(client), flow_ids(client)
        log.clear()
        answer = client.request(method, path, content=body, headers=headers)
        client.cookies.clear()
        refused = answer.status_code >= 400
        if currently_in_test_context():
            event(f"{who}: {answer.status_code} {answer.json()['code'] if refused else ''}".strip())
        endpoint = next(endpoint for endpoint in HTTP_ENDPOINTS if endpoint.path == path)
        assert_clear_answer(answer, method, endpoint)
        assert_no_server_error(log)
        after = account_rows(client)
        gone_flows = flows - flow_ids(client)
        new_flows = flow_ids(client) - flows
        if refused:
            assert after == before, f"a refusal ({answer.text[:200]}) changed the accounts"
            assert not new_flows, "a refusal began a passkey ceremony"
            # A ceremony is answered once: a refused answer uses up the flow it named only.
            assert gone_flows <= {self.valid.get("flow")}
            return answer
        read = well_formed(self.route, body)  # only a well-formed body is done
        assert not (self.route in OWN_SESSION_ROUTES and who in ("no token", "wrong token")), (
            "a signed-in request without its CSRF token was done"
        )
        known = {row[0] for row in before["accounts"]}  # by id
        made = [row for row in after["accounts"] if row[0] not in known]
        if self.route == ("POST", "/api/account/register"):
            (account,) = made
            assert repr(clean_username(read["username"])[0]) in account
        elif self.route == ("POST", "/api/account/passkeys") and read["flow"] == self.valid["flow"]:
            (account,) = made
            assert repr(f"Key {self.number}") in account
        else:
            assert not made, f"{method} {path} made an account"
        return answer


@pytest.mark.slow
@pytest.mark.parametrize("route", ACCOUNT_ROUTES, ids=" ".join)
@settings(FUZZ, max_examples=40)
@given(data=st.data())
def test_account_requests_refused_change_nothing(
    account_site: AccountSite,
    route: tuple[str, str],
    server_log: pytest.LogCaptureFixture,
    data: Any,
) -> None:
    example = AccountExample.make(account_site, route)
    body = data.draw(
        hostile_bodies(example.valid, ("place", "place", "place", "whole", "values", "valid")),
        label="body",
    )
    who = data.draw(st.sampled_from(WHO), label="browser")
    content_type = data.draw(st.sampled_from(CONTENT_TYPES), label="content type")
    example.send(body, who, content_type, server_log)


ODD_TEXTS = {
    "NUL": "\x00",
    "Ana NUL": "Ana\x00",
    "70 NULs": "\x00" * 70,
    "a lone surrogate": "\ud800",
    "x and a lone surrogate": "x\udfff",
    "invisible": "\u202e\u200b",
    "empty": "",
}
"""Texts a JSON string may hold that no person types: NUL (which no PostgreSQL text may hold),
lone surrogates (which no UTF-8 may encode), invisible ones, nothing."""
KNOWN_BROKEN: dict[tuple[str, str, str], set[str]] = {}
"""What the systematic test below finds wrong with the server as it is, by route and backend:
each is a fault of the server, reported; an entry goes once its fault is fixed (the test
fails on any difference, so that an entry cannot outlive its fault)."""


def string_places(value: Any) -> list[tuple[Any, ...]]:
    """The places of ``value`` (a JSON value) that hold a string."""
    found = []
    for at in places(value):
        inner = value
        try:
            for key in at:
                inner = inner[key]
        except (KeyError, IndexError, TypeError):
            continue  # the new member "extra"
        if isinstance(inner, str):
            found.append(at)
    return found


@pytest.mark.slow
@pytest.mark.parametrize("route", ACCOUNT_ROUTES, ids=" ".join)
def test_odd_texts_in_each_string_of_an_account_request(
    account_site: AccountSite,
    database_backend: str,
    route: tuple[str, str],
    server_log: pytest.LogCaptureFixture,
) -> None:
    """Each odd text at each place of the valid request that holds a string, sent signed in
    (with the token): a clear answer, and a refusal changes nothing."""
    wrong: set[str] = set()
    strings = string_places(AccountExample.make(account_site, route).valid)
    assert strings or route not in BODY_MODELS
    for name, text in ODD_TEXTS.items():
        for at in strings:
            example = AccountExample.make(account_site, route)  # a fresh flow, token...
            body = put(example.valid, at, json.dumps(text).encode())
            try:
                example.send(body, "signed in", "application/json", server_log)
            except Exception as error:  # each fault is listed, then compared
                wrong.add(f"{'.'.join(map(str, at))} = {name}: {type(error).__name__}")
    assert wrong == KNOWN_BROKEN.get((*route, database_backend), set())


ODD_SEGMENTS = ["%00", "a%00", "%ED%A0%80", "%C0%AF", "%FF", "%E2%80%AE", "x" * 5000]
KNOWN_BROKEN_PATHS: dict[tuple[str, str], set[str]] = {}
"""As ``KNOWN_BROKEN``, for path segments: faults of the server, reported."""


@pytest.mark.parametrize(
    "path",
    [
        "/api/players/{username}",
        "/api/leaderboard/{game}",
        "/api/rooms/{room_id}/ratings",
        "/players/{username}",
    ],
)
@pytest.mark.slow
def test_odd_path_segments_to_the_rating_routes(
    site: Site, database_backend: str, path: str, server_log: pytest.LogCaptureFixture
) -> None:
    """NUL, bytes that are not UTF-8, an overlong "/", a right-to-left mark, a long name:
    each a clear answer."""
    endpoint = next(endpoint for endpoint in HTTP_ENDPOINTS if endpoint.path == path)
    wrong = set()
    for odd in ODD_SEGMENTS:
        server_log.clear()
        try:
            answer = site.client.get(re.sub(r"\{\w+\}", odd, path))
            assert_clear_answer(answer, "GET", endpoint)
            assert_no_server_error(server_log)
        except Exception:  # each fault is listed, then compared
            wrong.add(odd)
    assert wrong == KNOWN_BROKEN_PATHS.get((path, database_backend), set())


# -- the WebSocket: hostile messages and socket paths ----------------------------------------------


def within(size: int, head: str, tail: str, filler: str) -> str:
    """``head``, as much ``filler`` as fits in ``size`` bytes, ``tail``."""
    return head + filler * max(0, (size - len(head) - len(tail)) // len(filler)) + tail


HOSTILE_VALUES = [
    '"\\u0000"',
    '"7d\\u0000"',
    '"\\u0000\\u0000"',
    '"\x00"',
    '"\\ud800"',
    '"\\udfff"',
]
HOSTILE_VALUES += ["true", "null", "{}", '["7d"]', '"' + "x" * 5000 + '"']
ws_hostile_texts: st.SearchStrategy[str] = st.one_of(
    # nesting deeper than any parser's limit, within one message's 4096 bytes
    st.integers(1, MAX_MESSAGE_BYTES // 2).map(lambda depth: "[" * depth + "]" * depth),
    st.integers(1, MAX_MESSAGE_BYTES).map(lambda depth: "[" * depth),
    st.integers(1, MAX_MESSAGE_BYTES // 6).map(lambda depth: '{"a":' * depth + "1" + "}" * depth),
    st.sampled_from(
        [
            '{"type": "ping", "x": %s}',
            '{"type": "play", "card": "7d", "captures": %s}',
            '{"type": "play", "card": %s, "captures": []}',
            '{"type": "join", "token": %s}',
            '{"type": "hint", "language": %s}',
            '{"type": %s}',
        ]
    ).flatmap(
        lambda template: st.one_of(
            st.integers(2, 2000).map(lambda depth: template % ("[" * depth + "]" * depth)),
            # integers of up to 4050 digits, and far beyond a 64-bit one
            st.integers(1, 4050).map(lambda digits: template % ("9" * digits)),
            st.sampled_from(
                [*HUGE_NUMBERS[:7], "-1", "1e400", "-1e400", "NaN", "Infinity", "1.5", "-0"]
            ).map(lambda number: template % number),
            st.sampled_from(HOSTILE_VALUES).map(lambda value: template % value),
        )
    ),
    st.sampled_from(
        [
            "\x00",
            "\x00" * MAX_MESSAGE_BYTES,
            '{"type": "ping"}\x00',
            '\x00{"type": "ping"}',
            '{"type": "ping\\u0000"}',
            '{"type": "ping", "type": "play"}',
            '{"type": "play", "card": "7d", "captures": ["7d", "7d"], "seat": 0}',
            '{"type": "rematch", "room": "x"}',
            "null",
            "[]",
            "9" * 4090,
            "9" * 5000,
            within(MAX_MESSAGE_BYTES, "[", "]", "1,"),
            within(MAX_MESSAGE_BYTES + 1, '{"type": "ping", "x": "', '"}', "x"),
            "",
        ]
    ),
)
ws_hostile_bytes: st.SearchStrategy[bytes] = st.one_of(
    st.sampled_from(
        [
            b"\xff\xfe",
            b'{"type": "ping"}',  # JSON, but as a binary frame
            b'{"type": "ping", "x": "\xff"}',
            b"\xc0\xaf",
            b"\xed\xa0\x80",
            b"\x00",
            b"",
            b"\xff" * (MAX_MESSAGE_BYTES + 1),
        ]
    ),
    st.binary(max_size=64),
)


@pytest.mark.slow
@FUZZ
@given(data=st.data())
def test_hostile_messages_are_each_refused_and_the_socket_stays_open(
    room: Room, server_log: pytest.LogCaptureFixture, data: Any
) -> None:
    """Deep nesting, huge integers, NUL, binary frames that are not UTF-8: from anybody,
    each gets one error and nothing else changes (send_and_check checks every connection
    and the match), and every connection still answers a ping."""
    server_log.clear()
    sender = pick(room.people, data.draw(INDEX, label="sender"), None)
    payload: str | bytes = data.draw(ws_hostile_texts | ws_hostile_bytes, label="payload")
    expect = expected_reply(payload, sender, server_game(room.client, room.id), room.tokens)
    assert expect.kind == "error", f"not a hostile message: {payload!r}"
    send_and_check(room, sender, [payload])
    assert_no_server_error(server_log)


def test_frames_without_text_are_refused(room: Room, server_log: pytest.LogCaptureFixture) -> None:
    """Frames of every kind the ASGI server may hand on: empty text, empty bytes, neither."""
    for who in room.people:
        for frame in ({"text": ""}, {"bytes": b""}, {}, {"text": None, "bytes": None}):
            who.peer.websocket.send({"type": "websocket.receive", **frame})
            assert who.peer.refused("bad_message")["message"]
    assert_no_server_error(server_log)


UNDECODABLE = [
    b"\xff\xfe".decode("utf-8", "surrogateescape"),
    '{"type": "ping", "x": "' + b"\xff".decode("utf-8", "surrogateescape") + '"}',
    '{"type": "join", "token": "\ud800"}',
]


@pytest.mark.parametrize("text", UNDECODABLE, ids=ascii)
def test_text_that_is_not_utf8_is_refused(
    client: TestClient, server_log: pytest.LogCaptureFixture, text: str
) -> None:
    """Invalid UTF-8 sent as text, as the test client can (a str holding lone surrogates,
    as bytes decoded with ``surrogateescape`` give): a ``bad_message`` like any malformed
    message, before and after joining, and the socket stays open."""
    room, ticket, _ = two_people(client)
    record = server_record(client, room)
    with connect(client, room) as peer:
        peer.send_text(text)
        assert peer.refused("bad_message")["message"]
        peer.join(ticket["token"])
        peer.send_text(text)
        assert peer.refused("bad_message")["message"]
    assert server_record(client, room) == record
    assert_no_server_error(server_log)


def routed_path(url: str) -> str:
    """The path the router sees for ``url`` from the test client (which joins it to its
    base URL and decodes it once more)."""
    return urllib.parse.unquote(httpx.URL(urllib.parse.urljoin("ws://testserver", url)).path)


@pytest.mark.parametrize("endpoint", WS_ENDPOINTS, ids=str)
@settings(FUZZ, max_examples=60)
@given(data=st.data())
def test_hostile_socket_paths_are_refused_clearly(
    site: Site, endpoint: Endpoint, server_log: pytest.LogCaptureFixture, data: Any
) -> None:
    """A socket to a room that does not exist (NUL, huge, not UTF-8, ...) gets an error
    message and is closed with 4404 (docs/protocol.md); a path that reaches no route is
    refused at the handshake; a real room's socket is open and answers a ping, as the lobby's
    does after sending its open tables."""
    server_log.clear()
    drawn = {name: data.draw(PATH_VALUES[name], label=name) for name in endpoint.params}
    url = fill(endpoint, {name: site.value(value) for name, value in drawn.items()})
    if not endpoint.pattern.fullmatch(routed_path(url)):
        with pytest.raises(WebSocketDisconnect), site.client.websocket_connect(url):
            pass
        return
    with site.client.websocket_connect(url) as websocket:
        peer = Peer(websocket)
        if not endpoint.params:  # the lobby's: its open tables come first, then the pong
            assert [message["type"] for message in peer.barrier()] == ["tables"]
        elif all(isinstance(value, Real) for value in drawn.values()):
            assert peer.barrier() == []
        else:
            error = peer.receive()
            assert error["type"] == "error" and error["code"] == "not_found", error
            assert error["message"]
            with pytest.raises(Closed) as closed:
                peer.receive()
            assert closed.value.code == 4404
    assert_no_server_error(server_log)


# -- a full database, a locked one -----------------------------------------------------------------


def only_on_sqlite(backend: str) -> None:
    if backend != "sqlite":
        pytest.skip(
            "a full or locked database is simulated with SQLite's max_page_count and a second "
            "SQLite connection's exclusive lock"
        )


def stored_record(client: TestClient, room: str) -> dict[str, Any]:
    """The room's current match as storage holds it."""
    stored = client.app.state.storage.room(room)  # type: ignore[attr-defined]
    assert stored is not None
    record: dict[str, Any] = stored.game.record()
    return record


@contextmanager
def full_database(client: TestClient, path: Path) -> Iterator[None]:
    """Every connection the app opens from now on has no room left: ``max_page_count`` is
    the file's size now. A write that fits in the free space of the pages the file has
    would still pass, so on those connections every change to a table also adds a row
    larger than the whole file (a temporary trigger, which the write's own transaction
    runs): whatever the app writes then needs pages the database may not have, and fails
    as on a full disk (SQLITE_FULL), storing nothing."""
    storage = client.app.state.storage  # type: ignore[attr-defined]
    with contextlib.closing(sqlite3.connect(path)) as own:
        own.execute("CREATE TABLE IF NOT EXISTS fuzz_filler (data BLOB)")
        own.commit()
        tables = [
            name
            for (name,) in own.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' "
                "AND name NOT LIKE 'sqlite_%' AND name != 'fuzz_filler'"
            )
        ]
        pages = own.execute("PRAGMA page_count").fetchone()[0]
        page_size = own.execute("PRAGMA page_size").fetchone()[0]
    filler = (pages + 1) * page_size

    def no_more_room(dbapi_connection: sqlite3.Connection, _record: object) -> None:
        dbapi_connection.execute(f"PRAGMA max_page_count = {pages}")
        for table in tables:
            for change in ("INSERT", "UPDATE", "DELETE"):
                dbapi_connection.execute(
                    f'CREATE TEMP TRIGGER "fuzz_full_{table}_{change}" AFTER {change} '
                    f'ON main."{table}" BEGIN INSERT INTO fuzz_filler VALUES '
                    f"(zeroblob({filler})); END"
                )

    sqlalchemy_event.listen(storage.engine, "connect", no_more_room)
    storage.engine.dispose()  # the connections open now go; new ones get the limit
    try:
        yield
    finally:
        sqlalchemy_event.remove(storage.engine, "connect", no_more_room)
        storage.engine.dispose()


def read_every_route(client: TestClient, values: dict[str, str], reader: Person) -> None:
    """GET every route that answers GET, with real path parameters, as a signed-in
    ``reader`` (the account's own routes need one): all answer."""
    for endpoint in HTTP_ENDPOINTS:
        if "GET" in endpoint.methods:
            answer = client.get(fill(endpoint, values), headers=reader.headers(csrf=False))
            assert answer.status_code == 200, (str(endpoint), answer.text[:300])
            client.cookies.clear()


def storage_warnings(log: pytest.LogCaptureFixture, cause: str) -> list[logging.LogRecord]:
    """The warnings that storage failed for ``cause``; none carries a traceback."""
    found = [
        record
        for record in log.records
        if record.levelno == logging.WARNING
        and record.name.startswith("escoba")
        and cause in record.getMessage()
    ]
    assert all(not record.exc_info and not record.exc_text for record in found)
    return found


@dataclass
class Table:
    """Two people at a room, one of them to move."""

    room: str
    mover: Peer
    other: Peer
    state: Message
    token: str
    """The seat token of the room's opener."""


def sit_down(client: TestClient, stack: ExitStack, **room: Any) -> Table:
    room_id, ticket, guest = two_people(client, **room)
    ana = stack.enter_context(connect(client, room_id))
    bea = stack.enter_context(connect(client, room_id))
    ana.join(ticket["token"])
    bea.join(guest["token"])
    to_move = server_game(client, room_id).to_move
    mover, other = (ana, bea) if to_move == ana.seat else (bea, ana)
    state = mover.my_turn()
    other.settle()
    return Table(room_id, mover, other, state, ticket["token"])


@pytest.mark.slow
def test_a_full_database_refuses_each_write_clearly_and_loses_nothing(
    tmp_path: Path,
    database_backend: str,
    server_log: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With the database full, creating a room, joining one, a move and a rematch are each
    refused as ``storage_failed`` (503 over HTTP, an error message over the socket, which
    stays open), reading goes on, and nothing was half stored: once there is room again the
    very same actions work, on the matches as they were."""
    only_on_sqlite(database_backend)
    lift_rate_limit(monkeypatch)
    path = tmp_path / "escoba.db"
    with running_app(path) as client, ExitStack() as stack:
        over = sit_down(client, stack, options={"target_score": 1})
        play_until([over.mover, over.other], lambda state: bool(state["match"]["over"]))
        over.mover.settle()
        over.other.settle()
        (match,) = public(client, over.token)
        playing = sit_down(client, stack)
        open_seat = create_room(client, seats=["person", "person"])["room"]
        cold = create_room(client, seats=["person", "person"])["room"]
        on_server(client, lambda hub: hub.evict_idle(0.0))  # read back from storage
        reader = register(client, "Ana")
        reads = {
            "room_id": cold,
            "match_id": str(match["id"]),
            "path": "base.css",
            "username": "Ana",
            "game": "escoba",
            "puzzle_id": PUZZLE.id,
        }
        before = {room: stored_record(client, room) for room in (over.room, playing.room)}
        assert before[playing.room] == server_record(client, playing.room)
        move = play_message(playing.state["match"]["legal"][0])
        text = playing.state["match"]["legal"][0]["text"]
        server_log.clear()

        with full_database(client, path):
            body = {"nickname": "Cy", "seats": ["person", "person"]}
            assert_refused(client.post("/api/rooms", json=body), 503, "storage_failed")
            joining = client.post(f"/api/rooms/{open_seat}/join", json={"nickname": "Di"})
            assert_refused(joining, 503, "storage_failed")
            playing.mover.send(move)
            assert playing.mover.refused("storage_failed")["message"]
            assert playing.other.barrier() == [], "a move that was not stored was shown"
            over.mover.send({"type": "rematch"})
            assert over.mover.refused("storage_failed")["message"]
            assert over.other.barrier() == []
            with connect(client, playing.room) as spectator:
                spectator.watch()  # joining a socket writes nothing
            read_every_route(client, reads, reader)
            assert server_record(client, playing.room) == before[playing.room]
            assert room_number(client, over.room) == 1

        assert len(storage_warnings(server_log, "database or disk is full")) == 4
        assert_no_server_error(server_log)
        for room, record in before.items():  # nothing of the refused writes was stored
            assert stored_record(client, room) == record
            assert server_record(client, room) == record
        assert client.post("/api/rooms", json=body).status_code == 201
        assert join_room(client, open_seat, "Di")["seat"] == 1
        playing.mover.send(move)
        played = moves_played(playing.state) + 1
        for peer in (playing.mover, playing.other):
            assert peer.state_at(played)["event"]["card"] == move["card"]
        moves = moves_of(before[playing.room])
        assert moves_of(stored_record(client, playing.room)) == [*moves, text]
        assert stored_record(client, playing.room) == server_record(client, playing.room)
        over.mover.send({"type": "rematch"})
        for peer in (over.mover, over.other):
            peer.until(lambda m: is_state(m) and m["room"]["match_number"] == 2)
        assert moves_of(stored_record(client, over.room)) == []
        read_every_route(client, reads, reader)
        assert_no_server_error(server_log)


@pytest.mark.slow
def test_a_locked_database_refuses_writes_clearly_until_it_is_free(
    tmp_path: Path,
    database_backend: str,
    server_log: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Another writer holds the database: creating a room and a move wait for it (SQLite's
    busy timeout, made short here), then are refused as ``storage_failed``; reading goes
    on beside it, and once it lets go the same actions work."""
    only_on_sqlite(database_backend)
    lift_rate_limit(monkeypatch)
    path = tmp_path / "escoba.db"
    with running_app(path) as client, ExitStack() as stack:
        storage = client.app.state.storage  # type: ignore[attr-defined]

        def short_wait(dbapi_connection: sqlite3.Connection, _record: object) -> None:
            dbapi_connection.execute("PRAGMA busy_timeout = 200")  # milliseconds, not 5 s

        sqlalchemy_event.listen(storage.engine, "connect", short_wait)
        storage.engine.dispose()
        playing = sit_down(client, stack)
        before = stored_record(client, playing.room)
        move = play_message(playing.state["match"]["legal"][0])
        text = playing.state["match"]["legal"][0]["text"]
        body = {"nickname": "Cy", "seats": ["person", "person"]}
        server_log.clear()
        other = sqlite3.connect(path, timeout=0, isolation_level=None)
        try:
            other.execute("BEGIN EXCLUSIVE")
            assert_refused(client.post("/api/rooms", json=body), 503, "storage_failed")
            playing.mover.send(move)
            assert playing.mover.refused("storage_failed")["message"]
            assert playing.other.barrier() == []
            assert client.get(f"/api/rooms/{playing.room}").status_code == 200
            assert client.get("/api/matches").status_code == 200
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert len(storage_warnings(server_log, "database is locked")) == 2
        assert_no_server_error(server_log)
        assert stored_record(client, playing.room) == before
        assert client.post("/api/rooms", json=body).status_code == 201
        playing.mover.send(move)
        played = moves_played(playing.state) + 1
        for peer in (playing.mover, playing.other):
            assert peer.state_at(played)["event"]["card"] == move["card"]
        assert moves_of(stored_record(client, playing.room)) == [*moves_of(before), text]
        assert_no_server_error(server_log)
