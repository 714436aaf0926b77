"""The web server's HTTP side: presets, opening and joining rooms with every refusal, room
info that never shows a token, the cheat sheet, finished matches and their replays, the
pages with their security headers, and the static files.

Rule sets and options: RULES.md "Rule set options" and "Presets"; a match is won as in
RULES.md "Winning the match".
"""

from __future__ import annotations

import string
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from escoba import RULESETS, RuleSet
from escoba.ai import LEVELS
from escoba.cheatsheet import cheat_sheet
from escoba.errors import RulesError
from escoba.messages import LANGUAGES
from escoba.rules import BOOL_OPTIONS, OPTION_NAMES, PRESET_SEATING
from escoba.server.config import Settings
from escoba.server.http.app import WEB, create_app
from escoba.server.storage.repository import hash_token
from server_helpers import (
    assert_refused,
    connect,
    create_room,
    database_url,
    join_room,
    moves_played,
    on_server,
    play_until,
    positions,
    room_info,
    running_app,
    server_record,
)

SECURITY_HEADERS = ("content-security-policy", "x-content-type-options", "referrer-policy")


def rooms_held(client: TestClient) -> int:
    count: int = on_server(client, lambda hub: len(hub.rooms))
    return count


# -- presets -------------------------------------------------------------------------------


def test_presets_list_every_preset_every_option_and_the_levels(client: TestClient) -> None:
    """RULES.md "Rule set options" and "Presets": every preset with all its options, every
    option with its kind and the base rule set's default, and every computer level."""
    answer = client.get("/api/presets").json()
    assert answer["presets"] == {name: rules.to_dict() for name, rules in RULESETS.items()}
    assert set(answer["options"]) == set(OPTION_NAMES)
    base = RuleSet()
    for name, option in answer["options"].items():
        assert option["default"] == getattr(base, name), name
        values = [preset[name] for preset in answer["presets"].values()]
        if name in BOOL_OPTIONS:
            assert option["kind"] == "bool", name
            assert all(isinstance(value, bool) for value in [option["default"], *values])
        elif option["kind"] == "choice":
            # every preset's value (and the default) can be chosen
            assert option["default"] in option["choices"], name
            assert set(values) <= set(option["choices"]), name
        else:
            assert option["kind"] == "int", name
            assert all(type(value) is int for value in [option["default"], *values]), name
            # the bounds a form offers are the ones the rules accept
            assert all(option["min"] <= value <= option["max"] for value in values), name
            with pytest.raises(RulesError):
                base.replace(**{name: option["max"] + 1})
    assert answer["options"]["capture"]["kind"] == "choice"
    assert answer["options"]["sevens"]["kind"] == "choice"
    assert answer["levels"] == list(LEVELS)
    # Scopone is seated 4 in partnerships (docs/rules.md, Scopone): the lobby seats it so.
    assert answer["seating"] == {
        name: {"players": players, "partnerships": pairs}
        for name, (players, pairs) in PRESET_SEATING.items()
    }
    assert answer["seating"]["scopone-scientifico"] == {"players": 4, "partnerships": True}


def test_every_choice_of_every_option_opens_a_room(client: TestClient) -> None:
    """Each listed choice is a value the server accepts (over a preset it combines with)."""
    options = client.get("/api/presets").json()["options"]
    for name, option in options.items():
        for choice in option["choices"] or []:
            extra = {"initial_table_sweeps": False} if name == "capture" else {}
            ticket = create_room(client, options={name: choice, **extra})
            assert room_info(client, ticket["room"])["rules"][name] == choice


@pytest.mark.parametrize("preset", sorted(RULESETS))
def test_every_preset_opens_a_room_with_its_rules(client: TestClient, preset: str) -> None:
    ticket = create_room(client, rules=preset, options={})
    info = room_info(client, ticket["room"])
    assert info["preset"] == preset
    assert info["rules"] == RULESETS[preset].to_dict()
    assert info["deals_per_hand"] == RULESETS[preset].deals_per_hand(2)


def test_scopone_in_partnerships_deals_the_whole_deck_at_once(client: TestClient) -> None:
    """docs/rules.md, Scopone scientifico: 10 cards to each of 4, nothing on the table, no
    stock: one deal a hand."""
    ticket = create_room(
        client,
        rules="scopone-scientifico",
        players=4,
        partnerships=True,
        seats=["person", "easy", "easy", "easy"],
    )
    assert room_info(client, ticket["room"])["deals_per_hand"] == 1
    with connect(client, ticket["room"]) as peer:
        _, state = peer.join(ticket["token"])
    match = state["match"]
    assert len(match["hand"]) == 10  # the computers play until it is the person's turn
    assert match["stock_size"] == 0
    held = sum(match["hand_sizes"]) + len(match["table"]) + sum(map(len, match["captured"]))
    assert held == 40


# -- opening a room ------------------------------------------------------------------------


def test_create_room_answers_a_seat_ticket_with_a_random_token(client: TestClient) -> None:
    first = client.post("/api/rooms", json={"nickname": "Ana", "seats": ["easy", "person"]})
    assert first.status_code == 201
    ticket = first.json()
    assert set(ticket) == {"room", "seat", "token", "invite"}
    assert ticket["seat"] == 1  # the first (only) person seat
    assert ticket["invite"] == f"/room/{ticket['room']}"
    second = create_room(client)
    # A token is long, URL-safe and random-looking; room ids and tokens never repeat.
    for token in (ticket["token"], second["token"]):
        assert len(token) >= 32
        assert set(token) <= set(string.ascii_letters + string.digits + "-_")
        assert len(set(token)) >= 12
    assert ticket["token"] != second["token"]
    assert ticket["room"] != second["room"]
    assert len(ticket["room"]) >= 16


def test_create_room_seats_the_creator_where_asked(client: TestClient) -> None:
    ticket = create_room(client, players=3, seats=["person", "easy", "person"], seat=2)
    assert ticket["seat"] == 2
    seats = room_info(client, ticket["room"])["seats"]
    assert [seat["nickname"] for seat in seats] == [None, None, "Ana"]
    assert [seat["taken"] for seat in seats] == [False, True, True]


def test_partnerships_need_four_players_and_pair_opposite_seats(client: TestClient) -> None:
    """RULES.md "Seats, sides, dealer": with 4 in partnerships, seats 0+2 against 1+3."""
    ticket = create_room(
        client, players=4, partnerships=True, seats=["person", "easy", "person", "easy"]
    )
    info = room_info(client, ticket["room"])
    assert info["partnerships"] is True
    assert info["sides"] == [[0, 2], [1, 3]]


REFUSED_ROOMS: list[tuple[str, dict[str, Any], int, str, str]] = [
    ("unknown preset", {"rules": "poker"}, 400, "bad_rules", "poker"),
    ("bad option value", {"options": {"target_score": 0}}, 400, "bad_rules", "target_score"),
    ("unknown option", {"options": {"jokers": True}}, 400, "bad_rules", "jokers"),
    ("option of wrong type", {"options": {"forced_capture": 1}}, 400, "bad_rules", "forced"),
    (
        "options that do not combine",
        {"rules": "scopa", "options": {"initial_table_sweeps": True}},
        400,
        "bad_rules",
        "initial_table_sweeps",
    ),
    (
        # docs/rules.md, Scopone: 10 cards to each of 4; with 3 the deck does not share out
        "scopone with three players",
        {"rules": "scopone-scientifico", "players": 3, "seats": ["person", "easy", "easy"]},
        400,
        "bad_seating",
        "10 cards to each of 3 players",
    ),
    (
        "a hand of ten cards over four table cards",
        {"rules": "scopa", "players": 4, "seats": ["person"] * 4, "options": {"hand_cards": 10}},
        400,
        "bad_seating",
        "hand_cards",
    ),
    (
        "asso piglia tutto in a game of fifteens",
        {"options": {"ace_takes_all": True}},
        400,
        "bad_rules",
        "ace_takes_all",
    ),
    ("fewer seats than players", {"players": 3}, 400, "bad_seats", "3"),
    ("more seats than players", {"seats": ["person", "easy", "easy"]}, 400, "bad_seats", "3"),
    (
        "partnerships with three",
        {"players": 3, "partnerships": True, "seats": ["person", "easy", "easy"]},
        400,
        "bad_seats",
        "4",
    ),
    ("no person seat", {"seats": ["easy", "hard"]}, 400, "bad_seats", "person"),
    ("creator on a computer seat", {"seat": 1}, 400, "bad_seats", "1"),
    ("creator on a missing seat", {"seat": 3}, 400, "bad_seats", "3"),
    ("unknown level", {"seats": ["person", "grandmaster"]}, 422, "bad_request", "seats"),
    ("five players", {"players": 5}, 422, "bad_request", "players"),
    ("unknown field", {"colour": "red"}, 422, "bad_request", "colour"),
    ("empty nickname", {"nickname": ""}, 422, "bad_request", "nickname"),
    ("nickname too long", {"nickname": "x" * 25}, 422, "bad_request", "nickname"),
    ("blank nickname", {"nickname": " \t \u3000 "}, 400, "bad_nickname", "nickname"),
    ("invisible nickname", {"nickname": "\x00\x07\n"}, 400, "bad_nickname", "nickname"),
]


@pytest.mark.parametrize(
    ("change", "status", "code", "named"),
    [case[1:] for case in REFUSED_ROOMS],
    ids=[case[0] for case in REFUSED_ROOMS],
)
def test_create_room_refusals(
    client: TestClient, change: dict[str, Any], status: int, code: str, named: str
) -> None:
    body = {"nickname": "Ana", "seats": ["person", "easy"], **change}
    refusal = assert_refused(client.post("/api/rooms", json=body), status, code)
    assert named in refusal["message"]
    assert rooms_held(client) == 0  # nothing was opened


@pytest.mark.parametrize("body", [b"{nick", b"", b"[]", b'"room"', b"\xff\xfe"])
def test_create_room_with_a_malformed_body(client: TestClient, body: bytes) -> None:
    response = client.post("/api/rooms", content=body, headers={"content-type": "application/json"})
    assert_refused(response, 422, "bad_request")
    assert rooms_held(client) == 0


def test_nicknames_are_one_line_of_visible_text(client: TestClient) -> None:
    ticket = create_room(client, nickname="  Ana\n\t Maria\x00 ")
    assert room_info(client, ticket["room"])["seats"][0]["nickname"] == "Ana Maria"
    longest = "Ñ" * 24
    ticket = create_room(client, nickname=longest)
    assert room_info(client, ticket["room"])["seats"][0]["nickname"] == longest


# -- room info ---------------------------------------------------------------------------


def test_room_info_shows_seats_and_nicknames_but_no_token(client: TestClient) -> None:
    ticket = create_room(client, players=3, seats=["person", "medium", "person"])
    guest = join_room(client, ticket["room"], "Bo")
    response = client.get(f"/api/rooms/{ticket['room']}")
    info = response.json()
    assert info["id"] == ticket["room"]
    assert info["invite"] == ticket["invite"]
    assert info["players"] == 3
    assert info["status"] == "playing"
    assert info["match_number"] == 1
    assert [seat["seat"] for seat in info["seats"]] == [0, 1, 2]
    assert [seat["kind"] for seat in info["seats"]] == ["person", "computer", "person"]
    assert [seat["level"] for seat in info["seats"]] == [None, "medium", None]
    assert [seat["nickname"] for seat in info["seats"]] == ["Ana", None, "Bo"]
    assert all(seat["taken"] for seat in info["seats"])
    # nobody is connected over a WebSocket; a computer always is
    assert [seat["connected"] for seat in info["seats"]] == [False, True, False]
    for token in (ticket["token"], guest["token"]):
        assert token not in response.text
        assert hash_token(token) not in response.text
    assert "token" not in response.text


@pytest.mark.parametrize("room", ["no-such-room", "x" * 33, "a" * 200])
def test_unknown_room_is_not_found(client: TestClient, room: str) -> None:
    assert_refused(client.get(f"/api/rooms/{room}"), 404, "not_found")
    assert_refused(
        client.post(f"/api/rooms/{room}/join", json={"nickname": "Bo"}), 404, "not_found"
    )
    assert_refused(client.get(f"/api/rooms/{room}/cheatsheet"), 404, "not_found")


# -- joining -----------------------------------------------------------------------------


def test_join_takes_the_first_free_person_seat(client: TestClient) -> None:
    ticket = create_room(client, players=4, seats=["easy", "person", "person", "person"], seat=2)
    room = ticket["room"]
    first = join_room(client, room, "Bo")
    assert first["seat"] == 1
    assert first["room"] == room and first["invite"] == f"/room/{room}"
    assert first["token"] != ticket["token"]
    second = join_room(client, room, "Cy")
    assert second["seat"] == 3
    seats = room_info(client, room)["seats"]
    assert [seat["nickname"] for seat in seats] == [None, "Bo", "Ana", "Cy"]
    assert_refused(
        client.post(f"/api/rooms/{room}/join", json={"nickname": "Di"}), 409, "room_full"
    )


def test_join_a_chosen_seat_and_the_refusals(client: TestClient) -> None:
    ticket = create_room(client, players=3, seats=["person", "easy", "person"])
    room = ticket["room"]
    path = f"/api/rooms/{room}/join"
    assert_refused(client.post(path, json={"nickname": "Bo", "seat": 0}), 409, "seat_taken")
    assert_refused(client.post(path, json={"nickname": "Bo", "seat": 1}), 400, "bad_seat")
    assert_refused(client.post(path, json={"nickname": "Bo", "seat": 3}), 400, "bad_seat")
    assert_refused(client.post(path, json={"nickname": "Bo", "seat": 9}), 422, "bad_request")
    assert_refused(client.post(path, json={"nickname": "  "}), 400, "bad_nickname")
    assert_refused(client.post(path, json={"nickname": "Bo", "admin": True}), 422, "bad_request")
    assert room_info(client, room)["seats"][2]["taken"] is False  # refusals took nothing
    chosen = join_room(client, room, "Bo", seat=2)
    assert chosen["seat"] == 2
    assert_refused(client.post(path, json={"nickname": "Cy", "seat": 2}), 409, "seat_taken")
    assert_refused(client.post(path, json={"nickname": "Cy"}), 409, "room_full")
    assert room_info(client, room)["seats"][2]["nickname"] == "Bo"


# -- the cheat sheet ---------------------------------------------------------------------


def test_cheat_sheet_in_every_language_follows_the_room_rules(client: TestClient) -> None:
    escoba = create_room(client, rules="escoba", options={})["room"]
    scopa = create_room(client, rules="scopa", options={})["room"]
    titles = set()
    for language in LANGUAGES:
        sheets = {}
        for room, preset in ((escoba, "escoba"), (scopa, "scopa")):
            response = client.get(f"/api/rooms/{room}/cheatsheet", params={"language": language})
            assert response.status_code == 200
            sheet = response.json()
            assert preset in sheet["title"]
            expected = cheat_sheet(RULESETS[preset], language)
            assert sheet["sections"] == [
                {"title": section.title, "lines": list(section.lines)} for section in expected
            ]
            sheets[preset] = sheet
        assert sheets["escoba"]["sections"] != sheets["scopa"]["sections"]
        titles.add(sheets["escoba"]["title"])
    assert len(titles) == len(LANGUAGES)  # each language has its own words
    default = client.get(f"/api/rooms/{escoba}/cheatsheet").json()
    english = client.get(f"/api/rooms/{escoba}/cheatsheet", params={"language": "en"}).json()
    assert default == english


@pytest.mark.parametrize("language", ["xx", "EN", "", "deutsch"])
def test_cheat_sheet_in_an_unknown_language_is_refused(client: TestClient, language: str) -> None:
    room = create_room(client)["room"]
    response = client.get(f"/api/rooms/{room}/cheatsheet", params={"language": language})
    assert_refused(response, 400, "bad_language")


# -- finished matches and replays ----------------------------------------------------------


@pytest.fixture(scope="module")
def finished(
    tmp_path_factory: pytest.TempPathFactory, database_backend: str
) -> Iterator[dict[str, Any]]:
    """A server with one match played to its end (Ana against a beginner, Escoba to 4) and
    another room whose match is still going."""
    database = tmp_path_factory.mktemp("finished") / "escoba.db"
    with running_app(database) as client:
        ticket = create_room(client, seats=["person", "beginner"], options={"target_score": 4})
        with connect(client, ticket["room"]) as peer:
            _, first = peer.join(ticket["token"])
            final = play_until([peer], lambda state: state["match"]["over"])
            record = server_record(client, ticket["room"])
            events = {
                moves_played(state): state["event"]
                for state in peer.states()
                if state["event"] is not None
            }
        playing = create_room(client, seats=["person", "easy"])
        unfinished_id = on_server(client, lambda hub: hub.rooms[playing["room"]].match_id)
        finished_id = on_server(client, lambda hub: hub.rooms[ticket["room"]].match_id)
        yield {
            "client": client,
            "ticket": ticket,
            "final": final,
            "record": record,
            "events": events,
            "joined_at": moves_played(first),
            "finished_id": finished_id,
            "unfinished_id": unfinished_id,
            "playing": playing,
        }


def yours(finished: dict[str, Any]) -> dict[str, Any]:
    """The seat tokens of the player of the finished match (and of the unfinished one)."""
    return {"tokens": [finished["ticket"]["token"], finished["playing"]["token"]]}


@pytest.mark.slow
def test_only_finished_matches_are_listed(finished: dict[str, Any]) -> None:
    """RULES.md "Winning the match": the listed totals and winner are the match's."""
    client: TestClient = finished["client"]
    final = finished["final"]["match"]
    listed = client.post("/api/matches/mine", json=yours(finished)).json()["matches"]
    assert [summary["id"] for summary in listed] == [finished["finished_id"]]
    (summary,) = listed
    assert "room" not in summary, "rooms are found by their link only, not by the list"
    assert summary["number"] == 1
    assert summary["preset"] is None  # Escoba with target_score 4 is no preset
    assert summary["players"] == 2
    assert summary["partnerships"] is False
    assert summary["names"] == ["Ana", "beginner"]
    assert summary["levels"] == [None, "beginner"]
    assert summary["totals"] == final["totals"]
    assert summary["winner"] == final["winner"] is not None
    assert final["totals"][summary["winner"]] >= 4


def test_finished_at_is_utc(finished: dict[str, Any]) -> None:
    """MatchSummary.finished_at is ISO 8601 in UTC: it must say so, or a browser reads a
    bare date-time as local time."""
    client: TestClient = finished["client"]
    (summary,) = client.post("/api/matches/mine", json=yours(finished)).json()["matches"]
    moment = datetime.fromisoformat(summary["finished_at"])
    assert moment.utcoffset() == timedelta(0), summary["finished_at"]


def test_an_unfinished_match_has_no_replay(finished: dict[str, Any]) -> None:
    """Its hands are still hidden: the replay shows every hand, so it is not found."""
    client: TestClient = finished["client"]
    response = client.post(f"/api/matches/{finished['unfinished_id']}/replay", json=yours(finished))
    assert_refused(response, 404, "not_found")
    playing = finished["playing"]
    for seat_hand in on_server(
        client, lambda hub: [hub.rooms[playing["room"]].game.hand(s) for s in (0, 1)]
    ):
        for card in seat_hand:
            assert str(card) not in response.text
    assert_refused(client.get("/api/matches/987654/replay"), 404, "not_found")
    assert_refused(client.get("/api/matches/first/replay"), 422, "bad_request")


def test_a_finished_match_replays_move_by_move(finished: dict[str, Any]) -> None:
    client: TestClient = finished["client"]
    final = finished["final"]["match"]
    answer = client.post(f"/api/matches/{finished['finished_id']}/replay", json=yours(finished))
    answer = answer.json()
    assert answer["match"] == finished["finished_id"]
    assert "room" not in answer, "a replay does not lead to its room: rooms go by link only"
    assert answer["names"] == ["Ana", "beginner"]
    assert answer["levels"] == [None, "beginner"]
    assert answer["totals"] == final["totals"]
    assert answer["winner"] == final["winner"]
    assert answer["players"] == 2
    assert answer["rules"] == RULESETS["escoba"].replace(target_score=4).to_dict()
    steps = answer["steps"]
    played = moves_played(finished["final"])
    assert len(steps) == played + 1
    assert steps[0]["event"] is None
    assert not steps[0]["hand_ended"]
    # The plays are the ones the player saw, each at its step: every one since it joined.
    events = finished["events"]
    assert set(events) >= set(range(finished["joined_at"] + 1, played + 1))
    for step, event in events.items():
        assert steps[step]["event"] == event, step
    assert all(step["event"]["kind"] == "play" for step in steps[1:])
    assert sum(step["hand_ended"] for step in steps) == len(final["results"])
    assert steps[-1]["hand_ended"]
    assert steps[-1]["totals"] == final["totals"]
    assert answer["results"] == final["results"]
    # Every step shows every hand of that position.
    for step, position in zip(steps, positions(finished["record"]), strict=True):
        assert [set(hand) for hand in step["hands"]] == [set(hand) for hand in position.hands]
        assert set(step["table"]) == position.table
        assert step["to_move"] == position.to_move
        assert tuple(step["totals"]) == position.totals
        assert step["hands_scored"] == position.results


# -- pages, headers and static files ---------------------------------------------------------


@pytest.mark.parametrize("path", ["/", "/room/x", "/history", "/replay/1", "/scorepad"])
def test_pages_are_html_with_security_headers(tmp_path: Path, path: str) -> None:
    app = create_app(Settings(database_url=database_url(tmp_path / "escoba.db"), pace=0))
    with TestClient(app, raise_server_exceptions=False) as client:
        response = client.get(path)
    assert response.status_code == 200, f"{path}: {response.status_code}"
    assert response.headers["content-type"].startswith("text/html")
    for header in SECURITY_HEADERS:
        assert header in response.headers, header
    policy = response.headers["content-security-policy"]
    assert "default-src 'self'" in policy
    assert "frame-ancestors 'none'" in policy
    assert response.headers["x-content-type-options"] == "nosniff"


def test_api_answers_and_refusals_carry_the_security_headers(client: TestClient) -> None:
    for response in (
        client.get("/api/presets"),
        client.get("/api/rooms/nope"),
        client.post("/api/rooms", json={}),
    ):
        for header in SECURITY_HEADERS:
            assert header in response.headers, (response.url, header)


def test_unknown_api_paths_answer_an_error_message(client: TestClient) -> None:
    """Over HTTP a refusal is always an error message (protocol.py), also for a path or a
    method the API does not have."""
    assert_refused(client.get("/api/no-such-thing"), 404, "not_found")
    response = client.delete("/api/presets")
    assert response.status_code == 405
    assert response.json()["type"] == "error"


def test_static_files_are_served(client: TestClient) -> None:
    files = sorted(path for path in WEB.iterdir() if path.is_file())
    assert any(path.suffix == ".css" for path in files)
    for path in files:
        response = client.get(f"/static/{path.name}")
        assert response.status_code == 200, path.name
        assert response.content == path.read_bytes(), path.name
    css = client.get(f"/static/{next(p for p in files if p.suffix == '.css').name}")
    assert css.headers["content-type"].startswith("text/css")
    assert client.get("/static/no-such-file.css").status_code == 404
    for escape in ("/static/%2e%2e/__init__.py", "/static/..%2f__init__.py"):
        response = client.get(escape)
        assert response.status_code == 404, escape
        assert b"import" not in response.content


@pytest.mark.parametrize("path", ["/api/rooms", "/api/rooms/{room}/join"])
def test_a_body_that_is_not_utf8_is_a_bad_request(client: TestClient, path: str) -> None:
    """Bytes that are not UTF-8 in a JSON body: a clear ``bad_request``, nothing created."""
    ticket = create_room(client)
    response = client.post(
        path.format(room=ticket["room"]),
        content=b'{"nickname": "\xff"}',
        headers={"content-type": "application/json"},
    )
    assert "UTF-8" in assert_refused(response, 400, "bad_request")["message"]
