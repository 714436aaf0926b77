"""The score pad over HTTP (`escoba.server.http.routes.scorepad`): POST /api/scorepad and
GET /api/scorepad/rules, on a bare app that includes only the router.

Spec: RULES.md, "Scoring a hand", "Winning the match", "Rule set options" and "Presets"; the
server's refusal shape ``{"type": "error", "code": ..., "message": ...}``.
"""

from __future__ import annotations

import logging
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from escoba import RULESETS
from escoba.cheatsheet import summary
from escoba.rules import INT_OPTIONS
from escoba.server.http.middleware import BodyLimit
from escoba.server.http.routes.scorepad import MAX_JSON_DEPTH, SCORING_OPTIONS, router
from server_helpers import assert_refused


@pytest.fixture(scope="module")
def client() -> TestClient:
    app = FastAPI()
    app.add_middleware(BodyLimit)  # as in the server: bodies are limited for every route
    app.include_router(router)
    return TestClient(app)


def hand(**changes: Any) -> dict[str, Any]:
    """An even hand of two sides: only the seven of coins (side 0) scores."""
    entry: dict[str, Any] = {
        "cards": [20, 20],
        "coins": [5, 5],
        "seven_of_coins": 0,
        "sweeps": [0, 0],
        "sevens_winner": None,
    }
    entry.update(changes)
    return {key: value for key, value in entry.items() if value != "leave out"}


def post(client: TestClient, **body: Any) -> Any:
    return client.post("/api/scorepad", json=body)


def refusal(client: TestClient, body: Any, code: str) -> str:
    answer = assert_refused(client.post("/api/scorepad", json=body), 422, code)
    assert set(answer) == {"type", "code", "message"}
    message: str = answer["message"]
    return message


# -- good requests -----------------------------------------------------------------------------


def test_a_pad_of_two_hands(client: TestClient) -> None:
    """RULES.md, Scoring a hand: cards, coins, seven of coins, setenta, sweeps; the totals."""
    response = post(
        client,
        rules="escoba",
        sides=2,
        hands=[
            hand(cards=[22, 18], coins=[6, 4], sweeps=[2, 1], sevens_winner=0),
            hand(cards=[18, 22], coins=[4, 6], seven_of_coins=1, sevens_winner=1),
        ],
    )
    assert response.status_code == 200, response.text
    pad = response.json()
    assert pad["type"] == "scorepad"
    assert pad["preset"] == "escoba"
    assert pad["rules"] == RULESETS["escoba"].to_dict()
    assert pad["sides"] == 2
    # the categories the escoba preset can score: no bonus for all sevens, re bello, napola
    assert pad["categories"] == ["cards", "coins", "seven_of_coins", "sevens", "sweeps"]
    assert pad["fields"] == ["cards", "coins", "seven_of_coins", "sevens_winner", "sweeps"]
    first, second = pad["hands"]
    assert first == {
        "number": 1,
        "points": [6, 1],
        "breakdown": {
            "cards": [1, 0],
            "coins": [1, 0],
            "seven_of_coins": [1, 0],
            "sevens": [1, 0],
            "all_sevens": [0, 0],
            "re_bello": [0, 0],
            "napola": [0, 0],
            "sweeps": [2, 1],
        },
        "totals": [6, 1],
    }
    assert second["points"] == [0, 4]
    assert second["totals"] == [6, 5]
    assert pad["totals"] == [6, 5]
    assert pad["winner"] is None
    assert pad["over"] is False
    assert pad["labels"]["sevens"] == "sevens category (setenta)"
    assert pad["sevens_label"] == "setenta"
    assert pad["summary"] == "sum to 15, setenta, to 21"


def test_an_empty_pad_tells_what_the_rules_need(client: TestClient) -> None:
    pad = post(client, rules="escoba-classic", sides=3).json()
    assert pad["hands"] == []
    assert pad["totals"] == [0, 0, 0]
    assert pad["fields"] == ["cards", "coins", "seven_of_coins", "sevens", "sweeps"]
    assert pad["winner"] is None


def test_options_and_the_winner(client: TestClient) -> None:
    """RULES.md, Winning the match, with `target_score` and `win_by` changed."""
    close = hand(cards=[18, 22], coins=[4, 6], sevens_winner=0)  # 2 to 2
    ana = hand()  # 1 to 0
    body: dict[str, Any] = {
        "rules": "escoba",
        "options": {"target_score": 4, "win_by": 2},
        "sides": 2,
        "hands": [close, close, ana],
    }
    pad = client.post("/api/scorepad", json=body).json()
    assert (pad["totals"], pad["winner"], pad["over"]) == ([5, 4], None, False)
    assert pad["preset"] is None
    assert pad["summary"] == "sum to 15, setenta, to 4 by 2"
    body["hands"].append(ana)
    pad = client.post("/api/scorepad", json=body).json()
    assert (pad["totals"], pad["winner"], pad["over"]) == ([6, 4], 0, True)
    body["hands"].append(ana)
    message = refusal(client, body, "match_over")
    assert message == "Hand 5: the match was already won after hand 4 by side 0: start a new pad"


def test_four_sides_most_sevens_and_the_bonus(client: TestClient) -> None:
    """RULES.md, Sevens category `sevens` and option `all_sevens_bonus` (escoba-classic)."""
    entry = {
        "cards": [13, 9, 9, 9],
        "coins": [4, 2, 2, 2],
        "seven_of_coins": 0,
        "sweeps": [0, 1, 0, 0],
        "sevens": [4, 0, 0, 0],
    }
    pad = post(client, rules="escoba-classic", sides=4, hands=[entry]).json()
    assert pad["hands"][0]["breakdown"] == {
        "cards": [1, 0, 0, 0],
        "coins": [1, 0, 0, 0],
        "seven_of_coins": [1, 0, 0, 0],
        "sevens": [1, 0, 0, 0],
        "all_sevens": [1, 0, 0, 0],
        "re_bello": [0, 0, 0, 0],
        "napola": [0, 0, 0, 0],
        "sweeps": [0, 1, 0, 0],
    }


def test_re_bello_and_napola_score_from_the_king_and_the_runs(client: TestClient) -> None:
    """docs/rules.md, regional options: re bello (the king of coins scores 1) and napola (A-2-3
    of coins score 3, one more for each coin after them in an unbroken run)."""
    options = {"re_bello": True, "napola": True}
    entry = hand(coins=[6, 4], king_of_coins=1, coin_runs=[4, 0])
    pad = post(client, rules="scopa", options=options, hands=[entry]).json()
    assert pad["fields"] == [
        "cards", "coins", "seven_of_coins", "sevens_winner", "king_of_coins", "coin_runs", "sweeps"
    ]  # fmt: skip
    assert pad["categories"] == [
        "cards", "coins", "seven_of_coins", "sevens", "re_bello", "napola", "sweeps"
    ]  # fmt: skip
    breakdown = pad["hands"][0]["breakdown"]
    assert breakdown["re_bello"] == [0, 1]
    assert breakdown["napola"] == [4, 0]  # A-2-3-4 of coins
    # Left out under these rules: the pad names the missing field.
    assert "king" in refusal(
        client, {"rules": "scopa", "options": options, "hands": [hand(coin_runs=[0, 0])]},
        "king_needed",
    )  # fmt: skip


def test_escova_all_coins_and_no_sevens_category(client: TestClient) -> None:
    """RULES.md, Scoring a hand, escova: all 10 coins score 2; no sevens category."""
    pad = post(client, rules="escova", hands=[hand(coins=[10, 0], sevens_winner="leave out")])
    breakdown = pad.json()["hands"][0]["breakdown"]
    assert breakdown["coins"] == [2, 0]
    assert breakdown["sevens"] == [0, 0]


def test_big_wins_as_an_option(client: TestClient) -> None:
    """RULES.md, option `big_wins`: 30+ cards against fewer than 10 score 2."""
    entry = hand(cards=[31, 9], coins=[6, 4], sevens=[2, 2], sevens_winner=0)
    pad = post(client, rules="escoba", options={"big_wins": True}, hands=[entry]).json()
    assert pad["hands"][0]["breakdown"]["cards"] == [2, 0]


def test_labels_and_messages_in_the_asked_language(client: TestClient) -> None:
    pad = post(client, rules="scopa", language="it", hands=[hand(sevens_winner=1)]).json()
    assert pad["labels"]["seven_of_coins"] == "settebello"
    assert pad["sevens_label"] == "primiera"
    body = {"rules": "scopa", "language": "de", "names": ["Anna", "Ben"]}
    message = refusal(client, body | {"hands": [hand(coins=[5, 6])]}, "coins_total")
    assert message == "Runde 1, Karo: alle Seiten zusammen haben 11 Karo, es gibt aber 10"
    message = refusal(client, body | {"hands": [hand(cards=[20, None])]}, "missing")
    assert message == "Runde 1, Ben, Karten: fehlt"
    # The languages added with the catalogues answer too, each in its own words.
    labels = {
        language: post(client, rules="escova", language=language, hands=[hand()]).json()["labels"]
        for language in ("en", "fr", "pt-BR")
    }
    assert labels["fr"]["coins"] != labels["en"]["coins"] != labels["pt-BR"]["coins"]


# -- refusals ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("entry", "code", "message"),
    [
        (
            hand(cards=[22, 19]),
            "cards_total",
            "Hand 1, cards: the sides took 41 cards in all, but the deck has 40",
        ),
        (
            hand(coins=[5, -5]),
            "not_whole",
            "Hand 1, Ben, coins: must be a whole number, 0 or more, not -5",
        ),
        (
            hand(coins=[5, "5"]),
            "not_whole",
            "Hand 1, Ben, coins: must be a whole number, 0 or more, not '5'",
        ),
        (
            hand(sweeps=[0.5, 0]),
            "not_whole",
            "Hand 1, Ana, sweeps: must be a whole number, 0 or more, not 0.5",
        ),
        (
            hand(cards=[40]),
            "per_side",
            "Hand 1, cards: needs one number per side (2), not [40]",
        ),
        (
            hand(seven_of_coins=None),
            "holder_needed",
            "Hand 1, seven of coins: exactly one side took the seven of coins: say which",
        ),
        (
            hand(seven_of_coins=2),
            "not_a_side",
            "Hand 1, seven of coins: 2 is not a side: give a side from 0 to 1",
        ),
        (
            hand(sevens_winner="leave out"),
            "winner_needed",
            "Hand 1, setenta winner: say which side wins the setenta, or that nobody does",
        ),
        (
            hand(sevens=[3, 1], sevens_winner=1),
            "winner_most_sevens",
            "Hand 1, setenta winner: Ana has the most sevens, so it wins the setenta",
        ),
        (
            hand(sevens=[2, 1]),
            "sevens_total",
            "Hand 1, sevens: the sides took 3 sevens in all, but there are 4",
        ),
        (
            hand(coin=[5, 5]),
            "unknown_field",
            "Hand 1: there is no field 'coin'; the fields are cards, coins, seven_of_coins, "
            "sweeps, sevens, sevens_winner, king_of_coins, coin_runs",
        ),
    ],
)
def test_bad_hands_are_refused_naming_hand_side_and_field(
    client: TestClient, entry: dict[str, Any], code: str, message: str
) -> None:
    """RULES.md, Cards: 40 cards, 10 coins, four sevens, one seven of coins."""
    body = {"rules": "escoba", "sides": 2, "names": ["Ana", "Ben"], "hands": [entry]}
    assert refusal(client, body, code) == message


def test_unknown_preset(client: TestClient) -> None:
    """RULES.md, Presets: the six names, and the two Scopone (docs/rules.md)."""
    message = refusal(client, {"rules": "briscola"}, "unknown_rules")
    assert message == (
        "rules: no rule set is called 'briscola': choose one of escoba, escoba-fournier, "
        "escoba-primiera, escoba-classic, scopa, escova, scopone-scientifico, scopone-classico"
    )


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"target": 15}, "options: unknown rule option 'target'; the options are capture,"),
        (
            {"target_score": 0},
            "options: target_score: must be a whole number from 1 to 1000, got 0",
        ),
        ({"win_by": "2"}, "options: win_by: must be a whole number from 1 to 100, got '2'"),
        (
            {"all_sevens_bonus": 11},
            "options: all_sevens_bonus: must be a whole number from 0 to 10, got 11",
        ),
        ({"big_wins": "yes"}, "options: big_wins: must be true or false, got 'yes'"),
        ({"sevens": "most"}, "options: sevens: 'most' is not one of"),
        ({"sevens": "ranking"}, "options: primiera_needs_all_suits: only makes sense with"),
    ],
)
def test_bad_options(client: TestClient, options: dict[str, Any], message: str) -> None:
    """RULES.md, Rule set options: bad values and nonsense combinations are refused."""
    body = {"rules": "escoba-primiera", "options": options}
    assert refusal(client, body, "bad_option").startswith(message)


@pytest.mark.parametrize(
    ("body", "code", "message"),
    [
        ({"sides": 5}, "sides_count", "sides: a score pad has 2 to 4 sides, not 5"),
        ({"sides": "2"}, "sides_count", "sides: a score pad has 2 to 4 sides, not '2'"),
        ({"names": ["Ana"]}, "names_count", "names: one name per side (2), not 1"),
        ({"hands": 3}, "bad_request", "hands: is not understood: Input should be a valid list"),
        ({"hands": [3]}, "bad_request", "Hand 1: is not understood: Input should be a valid"),
        ({"rules": 3}, "bad_request", "rules: is not understood: Input should be a valid string"),
        (
            {"language": "xx"},
            "bad_request",
            "language: is not understood: Input should be 'en', 'de', 'es', 'it', 'fr' or 'pt-BR'",
        ),
        ({"player": 2}, "unknown_field", "there is no field 'player'; the fields are rules,"),
        ([1, 2], "not_json", "The request is not a JSON object: [1, 2]"),
    ],
)
def test_bad_requests(client: TestClient, body: Any, code: str, message: str) -> None:
    assert refusal(client, body, code).startswith(message)


def test_not_json_at_all(client: TestClient) -> None:
    response = client.post(
        "/api/scorepad", content=b"{cards", headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 422
    answer = response.json()
    assert answer["code"] == "not_json"
    assert answer["message"].startswith("The request is not a JSON object: Expecting")


def post_raw(client: TestClient, body: bytes, code: str, caplog: pytest.LogCaptureFixture) -> str:
    """A raw body is refused with status 422 and ``code``, and the server logs no error."""
    with caplog.at_level(logging.INFO):
        response = client.post(
            "/api/scorepad", content=body, headers={"Content-Type": "application/json"}
        )
    answer = assert_refused(response, 422, code)
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]
    message: str = answer["message"]
    return message


def nested(depth: int, inner: bytes = b"1") -> bytes:
    return b'{"a":' * depth + inner + b"}" * depth


@pytest.mark.parametrize(
    "body",
    [
        b"[" * 30_000 + b"]" * 30_000,  # past Python's recursion limit: the parser gives up
        nested(10_000),
        b'{"options": {"x": ' + b"[" * 20_000 + b"]" * 20_000 + b"}}",
        nested(900),  # within the recursion limit, far past the pad's
        b'{"hands": [{"cards": ' + b"[" * MAX_JSON_DEPTH + b"]" * MAX_JSON_DEPTH + b"}]}",
        b'{"names": ' + b"[" * MAX_JSON_DEPTH + b"]" * MAX_JSON_DEPTH + b"}",
    ],
    ids=["list-30000", "object-10000", "options-20000", "object-900", "cards-past", "names-past"],
)
def test_deep_json_is_refused(
    client: TestClient, body: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    """Nesting deeper than MAX_JSON_DEPTH (once a 500 from a RecursionError) is not_json."""
    message = post_raw(client, body, "not_json", caplog)
    assert message == f"The request is not a JSON object: nested more than {MAX_JSON_DEPTH} deep"


def test_json_just_deep_enough_is_validated_as_usual(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    """Nesting up to the limit reaches validation, whose messages stay short."""
    depth = MAX_JSON_DEPTH - 2  # the request and its options are two levels
    value = b"[" * depth + b"]" * depth
    message = post_raw(client, b'{"options": {"win_by": ' + value + b"}}", "bad_option", caplog)
    assert message.startswith("options: win_by: must be a whole number from 1 to 100, got [[[")
    assert len(message) < 200
    depth = MAX_JSON_DEPTH - 3  # the request, its hands and a hand
    value = b"[" * depth + b"]" * depth
    body = b'{"hands": [{"cards": ' + value + b', "a": 1}]}'
    assert post_raw(client, body, "unknown_field", caplog).startswith("Hand 1: there is no field")
    assert post_raw(client, nested(MAX_JSON_DEPTH), "unknown_field", caplog).startswith(
        "there is no field 'a'"
    )


@pytest.mark.parametrize(
    "body",
    [
        b'{"rules": "\xff"}',
        b'{"rules": "escoba\xc3\x28"}',
        b"\xc3\x28",
        b'{"rules": "\xc0\xaf"}',  # an overlong encoding of "/"
        b'{"rules": "\xed\xa0\x80"}',  # a surrogate encoded in UTF-8
        b"\xff\xfe\x00",  # a UTF-16 byte order mark, then half a character
        '{"rules": "escoba"}'.encode("utf-16"),  # JSON, but not in UTF-8
    ],
)
def test_bodies_that_are_not_utf8_are_refused(
    client: TestClient, body: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    assert post_raw(client, body, "not_json", caplog).startswith(
        "The request is not a JSON object: "
    )


def test_a_utf8_byte_order_mark_is_allowed(client: TestClient) -> None:
    response = client.post(
        "/api/scorepad",
        content=b'\xef\xbb\xbf{"rules": "scopa"}',
        headers={"Content-Type": "application/json"},
    )
    assert response.status_code == 200, response.text
    assert response.json()["preset"] == "scopa"


@pytest.mark.parametrize(
    "body", [b'{"rules": "esc\x00oba"}', b"\x00", b'{"rules": "escoba"}\x00', b"\x00{}"]
)
def test_nul_bytes_in_the_body_are_refused(
    client: TestClient, body: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    """A raw NUL is not JSON, in a string or out of one."""
    post_raw(client, body, "not_json", caplog)


def json_hand(sweeps: bytes) -> bytes:
    """A hand of two sides as JSON text, with these sweeps."""
    return (
        b'{"cards": [20, 20], "coins": [5, 5], "seven_of_coins": 0, "sevens_winner": null, '
        + sweeps
        + b"}"
    )


def test_escaped_nul_and_lone_surrogates_get_the_usual_refusals(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    """JSON may escape them into strings; the refusal that shows such a string still encodes."""
    message = post_raw(client, b'{"rules": "esc\\u0000oba"}', "unknown_rules", caplog)
    assert message.startswith("rules: no rule set is called 'esc\\x00oba'")
    bad_sweeps = b'"hands": [' + json_hand(b'"sweeps": [-1, 0]') + b"]"
    body = b'{"names": ["A\\u0000na", "Ben"], ' + bad_sweeps + b"}"
    assert post_raw(client, body, "not_whole", caplog).startswith("Hand 1, A\x00na, sweeps")
    body = b'{"names": ["\\ud800", "Ben"], ' + bad_sweeps + b"}"
    assert post_raw(client, body, "not_whole", caplog).startswith("Hand 1, \\ud800, sweeps")


def test_too_large(client: TestClient) -> None:
    response = client.post("/api/scorepad", content=b" " * 300_000)
    assert response.status_code == 413
    assert response.json()["code"] == "too_large"


# -- what the page offers ----------------------------------------------------------------------


def test_the_rules_for_the_page(client: TestClient) -> None:
    """RULES.md, Presets and Rule set options: every preset with its options; the scoring
    options with their kinds."""
    answer = client.get("/api/scorepad/rules", params={"language": "es"}).json()
    assert [preset["name"] for preset in answer["presets"]] == list(RULESETS)
    for preset in answer["presets"]:
        assert preset["options"] == RULESETS[preset["name"]].to_dict()
    scopa = answer["presets"][4]
    assert scopa["fields"] == ["cards", "coins", "seven_of_coins", "sevens_winner", "sweeps"]
    assert scopa["summary"] == summary(RULESETS["scopa"], "es")
    assert [option["name"] for option in answer["options"]] == list(SCORING_OPTIONS)
    kinds = {option["name"]: option["kind"] for option in answer["options"]}
    assert kinds == {
        "sevens": "choice",
        "primiera_needs_all_suits": "bool",
        "all_coins_two": "bool",
        "all_sevens_bonus": "int",
        "big_wins": "bool",
        "re_bello": "bool",
        "napola": "bool",
        "target_score": "int",
        "win_by": "int",
    }
    ranges = {
        option["name"]: (option["min"], option["max"])
        for option in answer["options"]
        if option["kind"] == "int"
    }
    assert ranges == {name: INT_OPTIONS[name] for name in ranges}
    assert set(ranges) == {"all_sevens_bonus", "target_score", "win_by"}
    assert answer["sevens_labels"]["sevens"] == "más sietes"
    assert client.get("/api/scorepad/rules", params={"language": "xx"}).status_code == 200
