"""Bad input never hurts: malformed, oversized, repeated, out-of-turn and illegal WebSocket
messages, and random HTTP bodies and query strings.

Each WebSocket message gets exactly the reply its content calls for (worked out here from the
protocol's models and the engine's rules: RULES.md "A move" decides which plays are legal,
RULES.md "Seats, sides, dealer" whose turn it is), nothing else is sent to anybody, the match
changes only by the legal plays sent, and every connection still answers a ping. HTTP answers
are never a server error, and every refusal is a well-formed error message. The test client
re-raises any exception inside the server, so an internal error fails the test too.
"""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import Iterator, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context
from pydantic import ValidationError

from escoba import DECK, RULESETS, Card, Game, InvalidCardError, Move
from escoba.ai import LEVELS
from escoba.errors import InvalidMoveError
from escoba.messages import LANGUAGES
from escoba.rules import OPTION_NAMES
from escoba.server.protocol import MAX_MESSAGE_BYTES, parse_client_message
from server_helpers import (
    Message,
    Peer,
    cards_of_text,
    connect,
    create_room,
    is_state,
    join_room,
    lift_rate_limit,
    named_cards,
    running_app,
    server_game,
    server_record,
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
    }
)
FUZZ = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
FUZZ_HTTP = settings(FUZZ, max_examples=100)
CARD_TEXTS = [str(card) for card in DECK]
TYPES = ["join", "watch", "play", "hint", "rematch", "ping"]


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
    with running_app(tmp_path / "escoba.db") as client, ExitStack() as stack:
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


@FUZZ
@given(data=st.data())
def test_any_message_gets_its_one_reply_and_changes_nothing_else(room: Room, data: Any) -> None:
    sender = pick(room.people, data.draw(INDEX, label="sender"), None)
    game = server_game(room.client, room.id)
    payloads = data.draw(ws_payloads(game, list(room.tokens)), label="payloads")
    if data.draw(st.booleans(), label="rematch") and game.is_over():
        payloads = [dumps({"type": "rematch"})]
    send_and_check(room, sender, payloads)


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


@FUZZ_HTTP
@given(body=any_body(room_bodies))
def test_random_bodies_to_open_a_room(client: TestClient, body: bytes) -> None:
    answer = client.post("/api/rooms", content=body, headers={"content-type": "application/json"})
    assert_well_answered(answer)
    if answer.status_code == 201:
        ticket = answer.json()
        assert client.get(f"/api/rooms/{ticket['room']}").status_code == 200


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
def test_random_query_strings_to_the_cheat_sheet(
    client_and_room: tuple[TestClient, str], query: str
) -> None:
    client, room = client_and_room
    answer = client.get(f"/api/rooms/{room}/cheatsheet?{query}")
    assert_well_answered(answer)
    if answer.status_code == 200:
        assert answer.json()["sections"]
