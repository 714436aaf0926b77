"""The room WebSocket: every client message, every refusal, and what each connection is
shown (its own hand only; spectators no hand at all), checked against the server's game.

Rules: a move is legal as in RULES.md "A move" (the engine decides; the server passes on its
reason); hands, deals and hand ends as in RULES.md "A hand"; the match ends as in RULES.md
"Winning the match"; seats and sides as in RULES.md "Seats, sides, dealer".
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from itertools import pairwise
from typing import Any, get_args

import pytest
from fastapi.testclient import TestClient

from escoba import Game, IllegalMoveError, Move
from escoba.catalogue import LANGUAGES
from escoba.server.clients import RATE_BURST
from escoba.server.protocol import MAX_MESSAGE_BYTES, Language
from server_helpers import (
    TIMEOUT,
    Closed,
    Message,
    Peer,
    assert_state_matches,
    assert_states_match,
    card_texts,
    connect,
    create_room,
    is_state,
    join_room,
    moves_played,
    on_server,
    play_message,
    play_until,
    positions,
    room_info,
    running_app,
    server_game,
    server_record,
    two_people,
)


def seat_of(state: Message, seat: int) -> Message:
    found: Message = state["room"]["seats"][seat]
    return found


def assert_unchanged(client: TestClient, room: str, record: dict[str, Any]) -> None:
    assert server_record(client, room) == record, "a refusal changed the match"


# -- joining and watching --------------------------------------------------------------------


def test_join_welcomes_the_seat_then_shows_its_hand(client: TestClient) -> None:
    ticket = create_room(client, seats=["easy", "person"])
    with connect(client, ticket["room"]) as peer:
        welcome, state = peer.join(ticket["token"])
        assert welcome["seat"] == 1
        assert welcome["room"]["id"] == ticket["room"]
        assert state["event"] is None
        assert state["match"]["seat"] == 1
        assert len(state["match"]["hand"]) == 3
        assert seat_of(state, 1)["connected"] is True
        assert seat_of(state, 1)["nickname"] == "Ana"
        assert_states_match(peer, server_record(client, ticket["room"]))


def test_join_with_a_bad_token_is_refused(client: TestClient) -> None:
    ticket = create_room(client)
    other = create_room(client)
    with connect(client, ticket["room"]) as peer:
        for token in ("not-a-token", other["token"], ticket["token"][:-1], ticket["token"] + "x"):
            peer.send({"type": "join", "token": token})
            peer.refused("bad_token")
        # still not joined: nothing but refusals until the right token
        peer.send({"type": "hint"})
        peer.refused("not_joined")
        welcome, _ = peer.join(ticket["token"])
        assert welcome["seat"] == 0


def test_joining_twice_is_refused(client: TestClient) -> None:
    ticket = create_room(client)
    with connect(client, ticket["room"]) as peer:
        peer.join(ticket["token"])
        peer.my_turn()
        peer.send({"type": "join", "token": ticket["token"]})
        peer.refused("already_joined")
        peer.send({"type": "watch"})
        peer.refused("already_joined")
    with connect(client, ticket["room"]) as spectator:
        spectator.watch()
        spectator.send({"type": "join", "token": ticket["token"]})
        spectator.refused("already_joined")


def test_before_joining_only_ping_is_answered(client: TestClient) -> None:
    ticket = create_room(client)
    room = ticket["room"]
    with connect(client, room) as peer:
        peer.join(ticket["token"])
        state = peer.my_turn()
        record = server_record(client, room)
        with connect(client, room) as stranger:
            assert stranger.barrier() == []  # a pong, and no state before joining
            for message in (
                {"type": "play", "card": "7d", "captures": []},
                {"type": "hint", "language": "de"},
                {"type": "rematch"},
            ):
                stranger.send(message)
                stranger.refused("not_joined")
            assert_unchanged(client, room, record)
            # Moves are not sent to a connection that has not joined.
            peer.send(play_message(state["match"]["legal"][0]))
            peer.state_at(moves_played(state) + 1)
            assert stranger.barrier() == []


def test_a_room_that_does_not_exist(client: TestClient) -> None:
    with connect(client, "no-such-room") as peer:
        error = peer.receive()
        assert error["type"] == "error"
        assert error["code"] == "not_found"
        with pytest.raises(Closed) as closed:
            peer.receive()
        assert closed.value.code == 4404


def test_ping_answers_pong(client: TestClient) -> None:
    ticket = create_room(client)
    with connect(client, ticket["room"]) as peer:
        peer.send({"type": "ping"})
        assert peer.receive() == {"type": "pong"}
        peer.join(ticket["token"])
        peer.my_turn()
        peer.send({"type": "ping"})
        assert peer.receive() == {"type": "pong"}


def test_a_spectator_sees_the_public_view_only(client: TestClient) -> None:
    ticket = create_room(client)
    room = ticket["room"]
    with connect(client, room) as spectator, connect(client, room) as peer:
        welcome, state = spectator.watch()
        assert welcome["seat"] is None
        assert state["match"]["seat"] is None
        assert state["match"]["hand"] == []
        assert state["match"]["legal"] == []
        assert card_texts(welcome) == set()
        # watching does not make a seat connected
        assert seat_of(state, 0)["connected"] is False
        spectator.turn_of(0)  # the computer has played if it was first
        record = server_record(client, room)
        for message in (
            {"type": "play", "card": "7d", "captures": []},
            {"type": "hint"},
            {"type": "rematch"},
        ):
            spectator.send(message)
            spectator.refused("not_seated")
        assert_unchanged(client, room, record)
        peer.join(ticket["token"])
        after = play_until([peer], lambda s: moves_played(s) >= 12)
        spectator.state_at(moves_played(after))
        record = server_record(client, room)
        # Every state the spectator got shows no card of any hand.
        assert assert_states_match(spectator, record) >= 10
        hands = on_hands(client, room)
        for message in spectator.received:
            if not is_state(message):
                assert not card_texts(message) & hands


def on_hands(client: TestClient, room: str) -> set[str]:
    game = server_game(client, room)
    return {str(card) for seat in range(game.players) for card in game.hand(seat)}


# -- playing -----------------------------------------------------------------------------


def test_a_legal_play_reaches_everybody(client: TestClient) -> None:
    ticket = create_room(client)
    room = ticket["room"]
    with (
        connect(client, room) as tab,
        connect(client, room) as other_tab,
        connect(client, room) as spectator,
    ):
        tab.join(ticket["token"])
        other_tab.join(ticket["token"])
        spectator.watch()
        state = tab.my_turn()
        played = moves_played(state)
        move = state["match"]["legal"][-1]
        tab.send(play_message(move))
        for peer in (tab, other_tab, spectator):
            after = peer.state_at(played + 1)
            assert after["event"]["kind"] == "play"
            assert after["event"]["seat"] == 0
            assert after["event"]["card"] == move["card"]
            assert after["event"]["captures"] == move["captures"]
        assert move["card"] not in tab.state_at(played + 1)["match"]["hand"]
        record = server_record(client, room)
        for peer in (tab, other_tab, spectator):
            assert_states_match(peer, record)


def test_not_your_turn(client: TestClient) -> None:
    room, ticket, guest = two_people(client, guest="Bo")
    with connect(client, room) as ana, connect(client, room) as bo:
        ana.join(ticket["token"])
        bo.join(guest["token"])
        ana.settle()
        bo.settle()
        state = bo.last_state()
        assert state is not None
        waiting = bo if state["match"]["to_move"] == 0 else ana
        assert waiting.last_state()["match"]["legal"] == []  # type: ignore[index]
        record = server_record(client, room)
        game = server_game(client, room)
        own_card = str(game.hand(waiting.seat)[0])  # type: ignore[arg-type]
        waiting.send({"type": "play", "card": own_card, "captures": []})
        waiting.refused("not_your_turn")
        waiting.send({"type": "hint"})
        waiting.refused("not_your_turn")
        assert_unchanged(client, room, record)


def illegal_moves(game: Game) -> list[Move]:
    """Moves the seat to move may not make: another hand's card, a capture of a card not on
    the table, and every single-card capture or drop of its own cards that is not legal."""
    seat = game.to_move
    assert seat is not None
    mine = game.hand(seat)
    theirs = [card for other in range(game.players) if other != seat for card in game.hand(other)]
    legal = set(game.legal_moves())
    candidates = [Move(theirs[0], frozenset()), Move(mine[0], frozenset([theirs[0]]))]
    for card in mine:
        candidates.append(Move(card, frozenset()))
        candidates.extend(Move(card, frozenset([taken])) for taken in game.table)
    unique = list(dict.fromkeys(candidates))
    return [move for move in unique if move not in legal]


def test_an_illegal_move_is_refused_with_the_engines_reason(client: TestClient) -> None:
    """RULES.md "A move": the engine judges a move; the refusal carries its reason and the
    match stays as it was."""
    ticket = create_room(client)
    room = ticket["room"]
    with connect(client, room) as peer:
        peer.join(ticket["token"])
        state = peer.my_turn()
        record = server_record(client, room)
        game = Game.from_record(record)
        # As many as one connection's burst allows without waiting: its join, the ping of
        # my_turn(), a play and a ping for each refused move, then the legal move (a table of
        # five cards can offer twenty illegal ones, and a refused move spends the allowance).
        refused = illegal_moves(game)[: (int(RATE_BURST) - 4) // 2]
        assert len(refused) >= 2
        for move in refused:
            with pytest.raises(IllegalMoveError) as engine:
                game.play(move)
            peer.send(
                {
                    "type": "play",
                    "card": str(move.card),
                    "captures": [str(card) for card in move.captures],
                }
            )
            error = peer.refused("illegal_move")
            assert error["message"] == str(engine.value), move
        assert_unchanged(client, room, record)
        # Still this seat's turn, and a legal move goes through.
        peer.send(play_message(state["match"]["legal"][0]))
        assert peer.state_at(moves_played(state) + 1)["event"]["seat"] == 0


@pytest.mark.parametrize(
    ("card", "captures"),
    [("Xx", []), ("", []), ("10d", []), ("7", []), ("7d", ["Zz"]), ("7d", ["4h", "12c"])],
)
def test_a_malformed_card_is_refused(client: TestClient, card: str, captures: list[str]) -> None:
    """RULES.md "Cards": anything but a card's text is an error naming it (never 10/11/12)."""
    ticket = create_room(client)
    with connect(client, ticket["room"]) as peer:
        peer.join(ticket["token"])
        peer.my_turn()
        record = server_record(client, ticket["room"])
        peer.send({"type": "play", "card": card, "captures": captures})
        error = peer.refused("bad_card")
        bad = card if card not in ("7d",) else next(c for c in captures if c not in ("4h",))
        assert repr(bad) in error["message"] or bad in error["message"]
        assert_unchanged(client, ticket["room"], record)


def test_a_move_that_cannot_be_stored_is_undone(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server stores a move before telling anybody; if it cannot, the move is refused and
    the match is as before, and playing it again works."""
    ticket = create_room(client)
    room = ticket["room"]
    storage = client.app.state.storage  # type: ignore[attr-defined]
    with connect(client, room) as peer:
        peer.join(ticket["token"])
        state = peer.my_turn()
        record = server_record(client, room)

        def broken(*args: Any) -> None:
            raise OSError("disk full")

        monkeypatch.setattr(storage, "write_moves", broken)
        move = state["match"]["legal"][0]
        peer.send(play_message(move))
        peer.refused("storage_failed")
        assert_unchanged(client, room, record)
        monkeypatch.undo()
        peer.send(play_message(move))
        after = peer.state_at(moves_played(state) + 1)
        assert after["event"]["card"] == move["card"]
        assert_states_match(peer, server_record(client, room))


def test_nobody_is_shown_a_move_before_it_is_stored(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A move is stored, and only then sent out (rooms.py): a state that goes out while a
    move is being stored (here: a tab closing) must not show it, or a move whose storing
    then fails has been shown to players although it never happened."""
    room, ticket, guest = two_people(client, guest="Bo")
    storage = client.app.state.storage  # type: ignore[attr-defined]
    entered, release = threading.Event(), threading.Event()

    def slow_then_broken(*args: Any) -> None:
        entered.set()
        release.wait(TIMEOUT)
        raise OSError("disk full")

    with connect(client, room) as ana, connect(client, room) as bo:
        ana.join(ticket["token"])
        _, first = bo.join(guest["token"])
        mover = ana if first["match"]["to_move"] == 0 else bo
        other, other_token = (bo, guest["token"]) if mover is ana else (ana, ticket["token"])
        state = mover.my_turn()
        stored = moves_played(state)
        with connect(client, room) as tab:
            tab.join(other_token)
            monkeypatch.setattr(storage, "write_moves", slow_then_broken)
            mover.send(play_message(state["match"]["legal"][0]))
            assert entered.wait(TIMEOUT)
        # the tab has left (everybody is told so) while the move is being stored
        release.set()
        error = mover.until(lambda m: m["type"] == "error")
        assert error["code"] == "storage_failed"
        monkeypatch.undo()
        other.settle()
        mover.settle()
        assert len(positions(server_record(client, room))) == stored + 1  # the move is undone
        for peer in (mover, other):
            shown = [moves_played(s) for s in peer.states()]
            assert max(shown) == stored, f"seat {peer.seat} was shown an unstored move: {shown}"


# -- hints ---------------------------------------------------------------------------------


@pytest.mark.slow
def test_a_hint_ranks_every_legal_move_in_the_asked_language(client: TestClient) -> None:
    ticket = create_room(client)
    with connect(client, ticket["room"]) as peer:
        peer.join(ticket["token"])
        state = peer.my_turn()
        record = server_record(client, ticket["room"])
        replies = {}
        for language in ("en", "de", "fr", "pt-BR", None):
            peer.send(
                {"type": "hint"} if language is None else {"type": "hint", "language": language}
            )
            reply = peer.until(lambda m: m["type"] in ("hint", "error"))
            assert reply["type"] == "hint", reply
            replies[language] = reply["moves"]
        english = replies["en"]
        legal = {move["text"] for move in state["match"]["legal"]}
        assert [item["move"]["text"] for item in english] and len(english) == len(legal)
        assert {item["move"]["text"] for item in english} == legal
        # best first: the gains fall, the losses against the best rise from zero
        gains = [item["gain"] for item in english]
        losses = [item["loss"] for item in english]
        assert gains == sorted(gains, reverse=True)
        assert losses == sorted(losses)
        assert losses[0] == 0
        assert all(item["text"] for item in english)
        for language in ("de", "fr", "pt-BR"):
            translated = replies[language]
            assert [item["move"] for item in translated] == [item["move"] for item in english]
            for said, en in zip(translated, english, strict=True):
                assert said["text"] != en["text"], language
        assert replies[None] == english  # English by default
        assert_unchanged(client, ticket["room"], record)  # asking changes nothing


# -- malformed messages ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def shared_server(
    tmp_path_factory: pytest.TempPathFactory, database_backend: str
) -> Iterator[TestClient]:
    with running_app(tmp_path_factory.mktemp("shared") / "escoba.db") as client:
        yield client


@pytest.fixture
def seated(shared_server: TestClient) -> Iterator[tuple[TestClient, str, Peer]]:
    """A new room on a shared server, with a seated connection whose turn it is."""
    ticket = create_room(shared_server)
    with connect(shared_server, ticket["room"]) as peer:
        peer.join(ticket["token"])
        peer.my_turn()
        yield shared_server, ticket["room"], peer


MALFORMED: list[tuple[str, str | bytes]] = [
    ("not JSON", "hello"),
    ("broken JSON", '{"type": "ping"'),
    ("empty", ""),
    ("a JSON array", "[]"),
    ("a JSON string", '"ping"'),
    ("null", "null"),
    ("unknown type", '{"type": "dance"}'),
    ("type in capitals", '{"type": "PING"}'),
    ("no type", '{"card": "7d"}'),
    ("join without token", '{"type": "join"}'),
    ("play without card", '{"type": "play"}'),
    ("extra field", '{"type": "ping", "x": 1}'),
    ("extra field on a play", '{"type": "play", "card": "7d", "captures": [], "cheat": true}'),
    ("card not a string", '{"type": "play", "card": 7}'),
    ("captures not a list", '{"type": "play", "card": "7d", "captures": "4h"}'),
    ("capture not a string", '{"type": "play", "card": "7d", "captures": [4]}'),
    ("hint in an unknown language", '{"type": "hint", "language": "xx"}'),
    ("empty token", '{"type": "join", "token": ""}'),
    ("token too long", json.dumps({"type": "join", "token": "x" * 129})),
    ("card text too long", '{"type": "play", "card": "7d7d7d7d7d"}'),
    ("too many captures", json.dumps({"type": "play", "card": "7d", "captures": ["4h"] * 41})),
    ("binary garbage", b"\x80\x81\xfe"),
    ("a binary frame", b'{"type": "ping"}'),
]


@pytest.mark.parametrize(
    "data", [case[1] for case in MALFORMED], ids=[case[0] for case in MALFORMED]
)
def test_a_malformed_message_is_refused(
    seated: tuple[TestClient, str, Peer], data: str | bytes
) -> None:
    """Messages are JSON objects in text frames, exactly as protocol.py defines them."""
    client, room, peer = seated
    record = server_record(client, room)
    if isinstance(data, bytes):
        peer.send_bytes(data)
    else:
        peer.send_text(data)
    error = peer.refused("bad_message")
    assert error["message"]
    assert_unchanged(client, room, record)


def padded_ping(size: int, filler: str = " ") -> str:
    """A ping whose UTF-8 text is ``size`` bytes (JSON whitespace or a string field)."""
    if filler == " ":
        text = '{"type": "ping"}'
        return text + " " * (size - len(text.encode()))
    head, tail = '{"type": "ping", "pad": "', '"}'
    room = size - len((head + tail).encode())
    width = len(filler.encode())
    return head + filler * (room // width) + "x" * (room % width) + tail


def test_a_message_of_the_largest_size_is_read(seated: tuple[TestClient, str, Peer]) -> None:
    _, _, peer = seated
    text = padded_ping(MAX_MESSAGE_BYTES)
    assert len(text.encode()) == MAX_MESSAGE_BYTES
    peer.send_text(text)
    assert peer.receive() == {"type": "pong"}


@pytest.mark.parametrize(
    "data",
    [
        padded_ping(MAX_MESSAGE_BYTES + 1),
        padded_ping(MAX_MESSAGE_BYTES * 4),
        padded_ping(MAX_MESSAGE_BYTES + 2, "é"),  # fewer characters than bytes
        padded_ping(MAX_MESSAGE_BYTES * 2, "€"),
        b"{" + b" " * MAX_MESSAGE_BYTES + b"}",
    ],
    ids=["one byte over", "four times", "two-byte letters", "three-byte letters", "binary"],
)
def test_a_message_too_large_is_refused_unread(
    seated: tuple[TestClient, str, Peer], data: str | bytes
) -> None:
    client, room, peer = seated
    size = len(data) if isinstance(data, bytes) else len(data.encode())
    assert size > MAX_MESSAGE_BYTES
    record = server_record(client, room)
    if isinstance(data, bytes):
        peer.send_bytes(data)
    else:
        peer.send_text(data)
    peer.refused("too_large")
    assert_unchanged(client, room, record)


# -- several people ------------------------------------------------------------------------


def test_two_people_see_each_other_come_and_go(client: TestClient) -> None:
    ticket = create_room(client, seats=["person", "person"])
    room = ticket["room"]
    with connect(client, room) as ana:
        ana.join(ticket["token"])
        guest = join_room(client, room, "Bo")
        assert guest["seat"] == 1
        # Ana learns that the seat was taken, not yet that Bo is here.
        taken = ana.until(lambda m: is_state(m) and seat_of(m, 1)["taken"])
        assert seat_of(taken, 1)["nickname"] == "Bo"
        assert seat_of(taken, 1)["connected"] is False
        with connect(client, room) as bo:
            _, first = bo.join(guest["token"])
            assert seat_of(first, 0)["nickname"] == "Ana"
            assert seat_of(first, 0)["connected"] is True
            assert seat_of(first, 1)["connected"] is True
            here = ana.until(lambda m: is_state(m) and seat_of(m, 1)["connected"])
            assert seat_of(here, 1)["nickname"] == "Bo"
            start = moves_played(first)
            play_until([ana, bo], lambda s: moves_played(s) >= start + 8)
            bo.state_at(moves_played(ana.last_state()))  # type: ignore[arg-type]
            record = server_record(client, room)
            assert_states_match(ana, record)
            assert_states_match(bo, record)
        gone = ana.until(lambda m: is_state(m) and not seat_of(m, 1)["connected"])
        assert seat_of(gone, 1)["nickname"] == "Bo"  # the seat stays Bo's
        assert seat_of(gone, 0)["connected"] is True
        assert room_info(client, room)["seats"][1]["connected"] is False


def test_two_tabs_with_one_token_both_play_along(client: TestClient) -> None:
    ticket = create_room(client)
    room = ticket["room"]
    with connect(client, room) as tab:
        tab.join(ticket["token"])
        with connect(client, room) as other:
            welcome, _ = other.join(ticket["token"])
            assert welcome["seat"] == 0
            state = tab.my_turn()
            played = moves_played(state)
            tab.send(play_message(state["match"]["legal"][0]))
            assert tab.state_at(played + 1)["event"] == other.state_at(played + 1)["event"]
            turn = other.my_turn()  # the computer answered: the other tab plays on
            other.send(play_message(turn["match"]["legal"][0]))
            assert tab.state_at(moves_played(turn) + 1)["event"]["seat"] == 0
            tab.my_turn()  # the computer answered again; now nothing moves
            tab.barrier()
        # One tab closed: everybody is told, and the seat is still connected through the other.
        after = tab.until(is_state)
        assert after["event"] is None
        assert seat_of(after, 0)["connected"] is True
        assert room_info(client, room)["seats"][0]["connected"] is True


def test_partners_do_not_see_each_others_hands(client: TestClient) -> None:
    """RULES.md "Seats, sides, dealer": seats 0+2 against 1+3; a partner's hand is hidden."""
    ticket = create_room(
        client, players=4, partnerships=True, seats=["person", "easy", "person", "beginner"]
    )
    room = ticket["room"]
    guest = join_room(client, room, "Bo")
    assert guest["seat"] == 2
    with connect(client, room) as ana, connect(client, room) as bo:
        ana.join(ticket["token"])
        bo.join(guest["token"])
        final = play_until([ana, bo], lambda s: moves_played(s) >= 14)
        assert final["match"]["hand_sizes"] != [0, 0, 0, 0]
        bo.state_at(moves_played(final))
        record = server_record(client, room)
        assert assert_states_match(ana, record) > 5
        assert assert_states_match(bo, record) > 5


# -- a whole match, its end and the rematch ----------------------------------------------------


@pytest.fixture
def over(client: TestClient) -> Iterator[tuple[TestClient, Message, Peer, Peer]]:
    """A match played to its end against an ``easy`` computer, watched by a spectator."""
    ticket = create_room(client, options={"target_score": 5})
    room = ticket["room"]
    with connect(client, room) as peer, connect(client, room) as spectator:
        spectator.watch()
        spectator.turn_of(0)  # the person joins while no move is being made
        peer.join(ticket["token"])
        final = play_until([peer], lambda s: s["match"]["over"])
        spectator.state_at(moves_played(final))
        peer.settle()
        spectator.settle()
        yield client, ticket, peer, spectator


@pytest.mark.slow
def test_a_whole_match_against_the_computer(
    over: tuple[TestClient, Message, Peer, Peer],
) -> None:
    """RULES.md "A hand" and "Winning the match": each hand's end adds one result; the totals
    are the results' sums; the match ends with a side at the target and ahead."""
    client, ticket, peer, spectator = over
    record = server_record(client, ticket["room"])
    assert assert_states_match(peer, record) > 18
    assert assert_states_match(spectator, record) > 18
    states = peer.states()
    for before, after in pairwise(states):
        if after["event"] is None:  # someone came or went: the same position
            assert moves_played(after) == moves_played(before)
            continue
        assert moves_played(after) == moves_played(before) + 1
        grown = len(after["match"]["results"]) - len(before["match"]["results"])
        assert grown == (1 if after["hand_ended"] else 0)
    for state in states:
        results = state["match"]["results"]
        sums = [sum(result["points"][side] for result in results) for side in range(2)]
        assert state["match"]["totals"] == sums
    final = states[-1]
    assert final["hand_ended"] is True
    match = final["match"]
    winner = match["winner"]
    assert match["over"] is True and winner is not None
    assert match["to_move"] is None and match["legal"] == []
    assert match["totals"][winner] >= 5
    assert match["totals"][winner] > match["totals"][1 - winner]
    assert final["room"]["status"] == "over"
    assert len(match["results"]) == positions(record)[-1].results


@pytest.mark.slow
def test_no_play_after_the_match_is_over(over: tuple[TestClient, Message, Peer, Peer]) -> None:
    client, ticket, peer, _ = over
    record = server_record(client, ticket["room"])
    for card in ("7d", "Xx"):  # whatever the card: the match is over
        peer.send({"type": "play", "card": card, "captures": []})
        peer.refused("match_over")
    peer.send({"type": "hint"})
    peer.refused("not_your_turn")
    assert_unchanged(client, ticket["room"], record)


def test_a_rematch_only_once_the_match_is_over(client: TestClient) -> None:
    ticket = create_room(client)
    with connect(client, ticket["room"]) as peer:
        peer.join(ticket["token"])
        peer.my_turn()
        record = server_record(client, ticket["room"])
        peer.send({"type": "rematch"})
        peer.refused("match_not_over")
        assert_unchanged(client, ticket["room"], record)
        assert room_info(client, ticket["room"])["match_number"] == 1


@pytest.mark.slow
def test_a_rematch_starts_a_new_match_for_everybody(
    over: tuple[TestClient, Message, Peer, Peer],
) -> None:
    client, ticket, peer, spectator = over
    room = ticket["room"]
    finished = server_record(client, room)
    finished_totals = on_server(client, lambda hub: list(hub.rooms[room].game.totals))
    peer.send({"type": "rematch"})
    for who in (peer, spectator):
        fresh = who.until(lambda m: is_state(m) and m["room"]["match_number"] == 2)
        assert fresh["room"]["status"] == "playing"
        assert fresh["match"]["over"] is False
        assert fresh["match"]["totals"] == [0, 0]
        assert fresh["match"]["results"] == []
        assert fresh["match"]["hand_number"] == 0
    info = room_info(client, room)
    assert info["match_number"] == 2
    assert info["status"] == "playing"
    # The new match is a new deal, and the old one is listed as finished.
    assert server_record(client, room)["seed"] != finished["seed"]
    mine = {"tokens": [ticket["token"]]}
    listed = client.post("/api/matches/mine", json=mine).json()["matches"]
    assert [(m["number"], m["totals"]) for m in listed] == [(1, finished_totals)]
    # The rematch is played like the first match.
    state = peer.my_turn()
    peer.send(play_message(state["match"]["legal"][0]))
    after = peer.state_at(moves_played(state) + 1)
    assert after["room"]["match_number"] == 2
    record = server_record(client, room)
    assert_state_matches(after, positions(record)[moves_played(after)], 0)


# -- memory ------------------------------------------------------------------------------------


def test_an_idle_room_leaves_memory_and_comes_back_intact(client: TestClient) -> None:
    """A room nobody is connected to is let go after the idle time; its match is in storage,
    so the next visitor finds it exactly as it was and play goes on."""
    ticket = create_room(client)
    room = ticket["room"]
    hub = client.app.state.registry  # type: ignore[attr-defined]
    with connect(client, room) as peer:
        peer.join(ticket["token"])
        state = peer.my_turn()
        peer.send(play_message(state["match"]["legal"][0]))
        peer.state_at(moves_played(state) + 1)
        before = peer.my_turn()
        assert on_server(client, lambda hub: hub.evict_idle()) == 0  # connected: kept
    assert on_server(client, lambda hub: hub.evict_idle(idle_seconds=0.0)) == 1
    assert room not in hub.rooms
    with connect(client, room) as peer:
        _, again = peer.join(ticket["token"])
        assert again["match"] == before["match"]
        peer.send(play_message(again["match"]["legal"][0]))
        after = peer.until(lambda m: is_state(m) and m["event"] is not None)
        assert moves_played(after) == moves_played(before) + 1


def test_the_protocol_offers_the_catalogues_languages() -> None:
    assert get_args(Language) == LANGUAGES
