"""No hidden information leaves the server: every message every connection receives, in
complete matches of every preset, is checked against the exact position it was sent from.

A card is hidden from a seat while it is in another seat's hand (partners' too) or in the
stock (RULES.md "A hand", step 1: the rest of the deck is the stock, dealt later); the table
and the captured piles are public (captures are made face up). A spectator sees no hand at all.
The positions come from the finished match's stored record, replayed with the engine. Two
kinds of cards of an earlier shuffle may be shown although they are hidden now, and each is
checked exactly instead: the ``event`` of a state that ended a hand (the last play of that
hand, made face up) and ``redeal`` events (RULES.md "A hand", step 3: the voided deal's table,
shown before the cards are dealt again).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from conftest import build_deck, make_record
from escoba import DECK, RULESETS, Game, Play, RuleSet
from escoba.records import replay
from escoba.server.protocol import StateMessage, match_view
from escoba.server.rooms import registry
from server_helpers import (
    Message,
    Peer,
    connect,
    is_state,
    lift_rate_limit,
    moves_played,
    named_cards,
    on_server,
    play_message,
    running_app,
    two_people,
)

ALL_CARDS = frozenset(str(card) for card in DECK)

# -- the positions of a recorded match -------------------------------------------------------------


@dataclass(frozen=True)
class LastPlay:
    seat: int
    card: str
    captures: frozenset[str]
    sweep: bool


@dataclass(frozen=True)
class Position:
    """The server's game after some number of moves, as the record replays it."""

    hand_number: int
    to_move: int | None
    hands: tuple[frozenset[str], ...]
    public: frozenset[str]
    """The table and every captured pile of this hand."""
    table: frozenset[str]
    legal: frozenset[str]
    led_by: LastPlay | None
    """The play that led here (None before the first move)."""
    hand_ended: bool
    redeals: tuple[frozenset[str], ...]
    """The tables of this hand's voided deals, from the record's decks."""

    def hidden_from(self, seat: int | None) -> frozenset[str]:
        """What ``seat`` (None: a spectator) must not see: all but its hand and the public."""
        own = self.hands[seat] if seat is not None else frozenset()
        return ALL_CARDS - own - self.public


def voided_tables(record: dict[str, Any], hand: int) -> tuple[frozenset[str], ...]:
    """The face-up cards of every deal of ``hand`` that was thrown in (RULES.md "A hand",
    step 1: three cards to each seat, then four to the table; in Scopone classico nine to
    each seat first)."""
    rules = RuleSet.from_dict(record["rules"])
    first = rules.hand_cards * record["players"]
    deals = record["hands"][hand]["deals"]
    return tuple(frozenset(deck[first : first + rules.table_cards]) for deck in deals[:-1])


def recorded_positions(record: dict[str, Any]) -> list[Position]:
    """Every position of a recorded match, indexed by the moves played before it."""
    found: list[Position] = []

    def seen(game: Game, _play: Play | None) -> None:
        # The positions are worked out from the public history, apart from the event.
        led_by = None
        hand_ended = False
        if found:
            before = found[-1].hand_number
            last = [event for event in game.history(before) if isinstance(event, Play)][-1]
            led_by = LastPlay(
                last.seat,
                str(last.card),
                frozenset(str(card) for card in last.captures),
                last.sweep,
            )
            hand_ended = game.hand_number != before or game.is_over()
        public = {str(card) for card in game.table}
        for pile in game.captured:
            public |= {str(card) for card in pile}
        found.append(
            Position(
                hand_number=game.hand_number,
                to_move=game.to_move,
                hands=tuple(
                    frozenset(str(card) for card in game.hand(seat)) for seat in range(game.players)
                ),
                public=frozenset(public),
                table=frozenset(str(card) for card in game.table),
                legal=frozenset(str(move) for move in game.legal_moves()),
                led_by=led_by,
                hand_ended=hand_ended,
                redeals=voided_tables(record, game.hand_number),
            )
        )

    replay(record, on_move=seen)
    return found


# -- checking what a connection received -----------------------------------------------------------


def check_state(message: Message, seat: int | None, found: list[Position]) -> Position:
    """A state message shows its position as ``seat`` may see it, and no hidden card."""
    match = message["match"]
    index = moves_played(message)
    assert index < len(found), f"a state after {index} moves; the match has {len(found) - 1}"
    at = found[index]
    assert match["hand_number"] == at.hand_number
    assert match["seat"] == seat
    assert match["to_move"] == at.to_move
    assert set(match["table"]) == at.table
    if seat is None:
        assert match["hand"] == []
    else:
        assert sorted(match["hand"]) == sorted(at.hands[seat])
    mine = at.legal if seat is not None and at.to_move == seat else frozenset()
    assert sorted(move["text"] for move in match["legal"]) == sorted(mine), (
        f"seat {seat} was given legal moves while seat {at.to_move} is to move"
    )
    redeals = [event for event in match["history"] if event["kind"] == "redeal"]
    assert tuple(frozenset(event["cards"]) for event in redeals) == at.redeals
    for event in redeals:
        assert named_cards(event) == set(event["cards"]), "a redeal event names more cards"
    event = message["event"]
    if event is not None:
        assert at.led_by is not None
        assert (event["kind"], event["seat"], event["card"], event["sweep"]) == (
            "play",
            at.led_by.seat,
            at.led_by.card,
            at.led_by.sweep,
        )
        assert frozenset(event["captures"]) == at.led_by.captures
        assert named_cards(event) == {at.led_by.card} | at.led_by.captures
        assert message["hand_ended"] == at.hand_ended
    else:
        assert message["hand_ended"] is False
    rest = dict(message)
    if message["hand_ended"]:
        rest["event"] = None  # the last play of the hand before, checked above
    rest["match"] = dict(match)
    rest["match"]["history"] = [event for event in match["history"] if event["kind"] != "redeal"]
    # A finished hand's result names the cards each side took (captures are made face up):
    # its piles and nothing else, all from an earlier shuffle.
    for result in match["results"]:
        piles = [set(tally["pile"]) for tally in result["tallies"]]
        assert sum(map(len, piles)) == len(set().union(*piles)), "a card in two piles"
        assert named_cards(result) == set().union(*piles), "a result names a card nobody took"
    rest["match"]["results"] = []
    leaked = named_cards(rest) & at.hidden_from(seat)
    assert not leaked, f"seat {seat} was shown hidden cards {sorted(leaked)}"
    return at


def check_hint(message: Message, seat: int | None, at: Position | None) -> None:
    """A hint names the asker's own moves only: its cards and table cards."""
    assert seat is not None, "a spectator got a hint"
    assert at is not None and at.to_move == seat, "a hint came when it was not the asker's turn"
    assert {item["move"]["text"] for item in message["moves"]} == set(at.legal)
    shown = named_cards(message)
    others = shown - at.hands[seat] - at.table
    assert not others, f"a hint to seat {seat} names {sorted(others)}"


def check_received(received: list[Message], seat: int | None, found: list[Position]) -> int:
    """Check every message a connection received, in order; how many."""
    at: Position | None = None
    for message in received:
        kind = message["type"]
        if kind == "state":
            at = check_state(message, seat, found)
        elif kind == "hint":
            check_hint(message, seat, at)
        elif kind in ("welcome", "pong"):
            assert not named_cards(message), message
        else:
            raise AssertionError(f"an unexpected message: {message}")
    return len(received)


def assert_nothing_lost(received: list[Message], total: int) -> None:
    """A connection was sent every position from its first one to the match's end."""
    seen = [moves_played(message) for message in received if is_state(message)]
    assert seen == sorted(seen), "states came out of order"
    assert set(seen) == set(range(seen[0], total + 1))


# -- playing whole matches -------------------------------------------------------------------------


@dataclass
class Table:
    """A room with two people (the first in two tabs) and a spectator, all connected."""

    client: TestClient
    room: str
    people: dict[int, list[Peer]]
    peers: list[Peer]
    spectator: Peer


@pytest.fixture
def client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    """A server whose rate limit lets the test play faster than people do."""
    lift_rate_limit(monkeypatch)
    with running_app(tmp_path / "escoba.db") as client:
        yield client


def play_out(table: Table, rng: random.Random, *, hint_every: int = 5) -> int:
    """Play the match to its end, the people choosing at random among their legal moves and
    asking for a hint now and then; the moves played."""
    turns = 0
    seen = -1
    watcher = table.spectator
    while True:
        state = watcher.last_state()
        if state is None or moves_played(state) <= seen:
            state = watcher.until(lambda m, after=seen: is_state(m) and moves_played(m) > after)
        seen = moves_played(state)
        if state["match"]["over"]:
            return seen
        tabs = table.people.get(state["match"]["to_move"])
        if tabs is None:
            continue  # a computer seat
        player = tabs[turns % len(tabs)]  # the tabs of one person take turns
        turns += 1
        own = player.state_at(seen)
        if turns % hint_every == 1:
            player.send({"type": "hint", "language": "en", "deck": "french"})
            reply = player.until(lambda m: m["type"] in ("hint", "error"))
            assert reply["type"] == "hint", reply
        player.send(play_message(rng.choice(own["match"]["legal"])))


@dataclass(frozen=True)
class Checked:
    messages: int
    moves: int
    hands: int
    redeals: int
    """State messages that showed a redeal event."""


def play_and_check(client: TestClient, rng: random.Random, **room: Any) -> Checked:
    """Open a room, play its match out, check every message every connection received."""
    room_id, ticket, guest = two_people(client, **room)
    with (
        connect(client, room_id) as first,
        connect(client, room_id) as tab,
        connect(client, room_id) as second,
        connect(client, room_id) as spectator,
    ):
        first.join(ticket["token"])
        tab.join(ticket["token"])
        second.join(guest["token"])
        spectator.watch()
        table = Table(
            client,
            room_id,
            {ticket["seat"]: [first, tab], guest["seat"]: [second]},
            [first, tab, second, spectator],
            spectator,
        )
        total = play_out(table, rng)
        for peer in table.peers:
            peer.barrier()
        match_id = on_server(client, lambda hub: hub.rooms[room_id].match_id)
        stored = client.app.state.storage.match_record(match_id)  # type: ignore[attr-defined]
        assert stored is not None and stored[0].finished_at is not None
        record = stored[2]
        found = recorded_positions(record)
        assert len(found) == total + 1
        checked = 0
        for peer in table.peers:
            checked += check_received(peer.received, peer.seat, found)
            assert_nothing_lost(peer.received, total)
        hints = sum(m["type"] == "hint" for peer in table.peers for m in peer.received)
        assert hints >= 1
        # Each connection was sent a state for every move it saw happen.
        assert checked >= len(table.peers) * total
        redeals = sum(
            any(event["kind"] == "redeal" for event in message["match"]["history"])
            for peer in table.peers
            for message in peer.states()
        )
        return Checked(checked, total, len(record["hands"]), redeals)


# Every preset; 2, 3 and 4 seats, and 4 in partnerships (partners must not see each other's
# hands: RULES.md "Seats, sides, dealer"); the two people in varied seats.
TABLES = [
    pytest.param(
        {"players": 2, "seats": ["person", "person"], "options": {"target_score": 4}},
        id="2 seats",
    ),
    pytest.param(
        {
            "players": 3,
            "seats": ["person", "beginner", "person"],
            "options": {"target_score": 2},
        },
        id="3 seats",
    ),
    pytest.param(
        {
            "players": 4,
            "seats": ["beginner", "person", "beginner", "person"],
            "seat": 3,
            "options": {"target_score": 2},
        },
        id="4 seats",
    ),
    pytest.param(
        {
            "players": 4,
            "partnerships": True,
            "seats": ["person", "beginner", "person", "beginner"],
            "options": {"target_score": 2},
        },
        id="4 in partnerships",
    ),
]


SCOPONE = ("scopone-scientifico", "scopone-classico")
# Scopone is a game of two partnerships (docs/rules.md, Scopone): played as such only, with
# its 10- or 9-card hands, partners' hands hidden from each other.
GAMES = [
    *(
        pytest.param(preset, table.values[0], id=f"{table.id}-{preset}")
        for preset in RULESETS
        if preset not in SCOPONE
        for table in TABLES
    ),
    *(
        pytest.param(preset, TABLES[-1].values[0], id=f"4 in partnerships-{preset}")
        for preset in SCOPONE
    ),
]


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "table"), GAMES)
def test_no_message_shows_a_hidden_card(
    client: TestClient, preset: str, table: dict[str, Any]
) -> None:
    rng = random.Random(f"{preset} {table}")
    checked = play_and_check(client, rng, rules=preset, **table)
    # RULES.md "A hand": every card but the first table's is played
    assert checked.moves >= RULESETS[preset].plays_per_hand
    assert checked.messages >= 4 * checked.moves


@pytest.mark.slow
def test_a_long_match_hides_every_hand(client: TestClient) -> None:
    """Several hands (RULES.md "Winning the match": play on until a side reaches the target),
    each new deal as hidden as the first; hand ends and the dealer's initial sweeps included."""
    rng = random.Random(21)
    checked = play_and_check(
        client, rng, rules="escoba", seats=["person", "person"], options={"target_score": 21}
    )
    assert checked.hands >= 2, "one hand cannot reach 21 points in practice"
    assert checked.moves == 36 * checked.hands
    assert checked.messages >= 4 * checked.moves


def first_seed_with_a_redeal(preset: str, players: int) -> int:
    """The first seed whose first hand is dealt again (three kings on the table)."""
    for seed in range(100_000):
        game = Game(RULESETS[preset], players, seed=seed)
        if len(game.record()["hands"][0]["deals"]) > 1:
            return seed
    raise AssertionError("no seed below 100000 deals three kings to the first table")


@pytest.mark.slow
def test_a_scopa_redeal_shows_only_the_voided_table(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """RULES.md "A hand", step 3 (Scopa): three kings on the first table, dealt again. The
    voided table is shown in a ``redeal`` event (its cards may be in hands now); nothing
    else of the new deal is."""
    seed = first_seed_with_a_redeal("scopa", 2)
    monkeypatch.setattr(registry, "new_seed", lambda: seed)
    rng = random.Random(seed)
    room = {"rules": "scopa", "seats": ["person", "person"], "options": {"target_score": 2}}
    checked = play_and_check(client, rng, **room)
    record = client.app.state.storage.match_record(1)  # type: ignore[attr-defined]
    assert record is not None and record[2]["seed"] == seed
    assert checked.messages >= 4 * checked.moves
    assert checked.redeals >= 4, "every connection was shown the redeal of the first hand"
    voided = voided_tables(record[2], 0)
    assert voided and all(sum(card[0] == "K" for card in table) >= 3 for table in voided)


# -- the checker catches leaks ---------------------------------------------------------------------


SCOPA = RULESETS["scopa"]
# Seat 1 plays first (dealer 0). A first deal with three kings on the table, then the deal
# that is played: the kings of the voided table are now in seat 1's hand and in the stock.
VOIDED = build_deck(2, 0, hands={1: "2d 3d 4d", 0: "2h 3h 4h"}, table="Kd Kh Ks 5c")
PLAYED = build_deck(
    2, 0, hands={1: "Kd Kh 2s", 0: "3s 4s 5s"}, table="Ac 2c 3c 4c", rest="6d 6h Ks"
)


def redealt_game() -> Game:
    return Game.from_record(make_record(SCOPA, 2, [[VOIDED, PLAYED]]))


def state_of(game: Game, seat: int | None) -> Message:
    observation = game.observation(0 if seat is None else seat)
    view = match_view(observation.public if seat is None else observation)
    room = {
        "id": "r",
        "invite": "/room/r",
        "preset": "scopa",
        "rules": SCOPA.to_dict(),
        "players": 2,
        "partnerships": False,
        "deals_per_hand": SCOPA.deals_per_hand(2),
        "sides": [[0], [1]],
        "seats": [],
        "match_number": 1,
        "status": "playing",
    }
    return StateMessage.model_validate({"room": room, "match": view}).model_dump(mode="json")


def test_the_redeal_event_shows_the_voided_table() -> None:
    """RULES.md "A hand", step 3: the thrown-in table is public (everybody saw it); the view
    shows it as a redeal event, and the checker lets exactly those cards through."""
    game = redealt_game()
    found = recorded_positions(game.record())
    assert found[0].redeals == (frozenset({"Kd", "Kh", "Ks", "5c"}),)
    for seat in (0, 1, None):
        state = state_of(game, seat)
        redeals = [e for e in state["match"]["history"] if e["kind"] == "redeal"]
        assert [set(e["cards"]) for e in redeals] == [{"Kd", "Kh", "Ks", "5c"}]
        check_state(state, seat, found)
    # The voided table names cards that are hidden now (seat 1 holds Kd and Kh): the
    # exemption is needed, and it covers the redeal event only.
    assert {"Kd", "Kh"} <= found[0].hidden_from(0)
    leaky = state_of(game, 0)
    leaky["match"]["history"].append({**redeals[0], "kind": "deal", "round": 1})
    with pytest.raises(AssertionError, match="hidden cards"):
        check_state(leaky, 0, found)
    forged = state_of(game, 0)
    for event in forged["match"]["history"]:
        if event["kind"] == "redeal":
            event["cards"] = ["Kd", "Kh", "Ks", "6d"]  # 6d: in the stock
    with pytest.raises(AssertionError):
        check_state(forged, 0, found)


def hint_for(game: Game, note: str = "") -> Message:
    """A hint message for the seat to move, naming each of its legal moves."""
    moves = []
    for move in sorted(game.legal_moves(), key=str):
        view = {"card": str(move.card), "captures": sorted(map(str, move.captures))}
        moves.append({"move": {**view, "text": str(move)}, "gain": 0, "loss": 0, "text": note})
    return {"type": "hint", "moves": moves}


def test_the_checker_catches_a_leaky_view() -> None:
    """Another seat's card or a stock card anywhere in a message fails the check."""
    game = redealt_game()
    found = recorded_positions(game.record())
    other = sorted(found[0].hands[1])[0]
    stock = "6d"
    assert stock in found[0].hidden_from(0) and stock not in found[0].hands[1]
    check_state(state_of(game, 0), 0, found)

    def leaks(change: Any, seat: int | None = 0) -> None:
        state = state_of(game, seat)
        change(state)
        with pytest.raises(AssertionError):
            check_state(state, seat, found)

    leaks(lambda s: s["match"]["table"].append(other))
    leaks(lambda s: s["match"]["captured"][0].append(stock))
    leaks(lambda s: s["match"]["hand"].append(other))
    leaks(lambda s: s["match"]["hand"].append(other), seat=None)
    leaks(lambda s: s["room"]["seats"].append({"nickname": f"I hold {other}"}))
    leaks(lambda s: s["match"]["legal"].append({"card": other, "captures": [], "text": other}))
    leaks(lambda s: s["match"]["history"].append({"kind": "play", "text": f"3c:{stock}+Ac"}))
    # The hint to the seat to move (seat 1) names its own cards and the table only.
    assert found[0].to_move == 1
    check_hint(hint_for(game), 1, found[0])
    with pytest.raises(AssertionError):
        check_hint(hint_for(game, f"keep the {stock[0]}\u2666 for later"), 1, found[0])
    with pytest.raises(AssertionError):
        check_hint(hint_for(game), 0, found[0])  # not seat 0's turn
    # After a play, the event is that play, and names nothing else.
    game.play("2s:2c")
    after = recorded_positions(game.record())
    played = {"kind": "play", "seat": 1, "card": "2s", "captures": ["2c"], "sweep": False}
    state = state_of(game, 0)
    state["event"] = played
    check_state(state, 0, after)
    state["event"] = {**played, "captures": ["2c", stock]}
    with pytest.raises(AssertionError):
        check_state(state, 0, after)
    assert named_cards("takes 7\u2666 and 4h:4c+Kd; 10d, 7dx and x7d are not cards") == {
        "7d",
        "4h",
        "4c",
        "Kd",
    }
    assert named_cards(["As", "As good as the best move", {"7c:Jd": "5s+Jh"}]) == {
        "As",
        "7c",
        "Jd",
        "5s",
        "Jh",
    }
