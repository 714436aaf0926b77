"""Your matches: finished matches are listed and replayed only for a holder of one of their
seat tokens, or for anyone once one of their players made them public; the statistics
(matches, wins by the opponents' level, points, sweeps) are those of the held seat's side.

The matches are played with the engine and stored through ``Storage`` before the server
starts (as the server stores them, move by move): no socket play, so the module stays fast.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi.testclient import TestClient

from escoba import RULESETS, Game, RuleSet
from escoba.records import TAKE_BACK
from escoba.scoring import categories_in_play
from escoba.server.history import MAX_TOKENS, YourMatch, tally
from escoba.server.storage.repository import MoveWrite, Storage
from server_helpers import assert_refused, database_url, running_app

SHORT = RULESETS["escoba"].replace(target_score=4)


@dataclass(frozen=True)
class Stored:
    room: str
    match_id: int
    game: Game


def store_match(
    storage: Storage,
    room: str,
    seats: list[tuple[str, str] | str],
    *,
    seed: int,
    partnerships: bool = False,
    finish: bool = True,
    rules: RuleSet = SHORT,
    take_back: bool = False,
) -> Stored:
    """A room whose seats are (nickname, token) for people or a computer level, and its match
    played with random legal moves (to its end, or for 3 moves), stored move by move; with
    ``take_back``, its first move is taken back once (stored as the server stores it)."""
    game = Game(rules, players=len(seats), partnerships=partnerships, seed=seed)
    levels = [None if isinstance(seat, tuple) else seat for seat in seats]
    match = storage.create_room(room, game, levels, seed=seed)
    for number, seat in enumerate(seats):
        if isinstance(seat, tuple):
            storage.take_seat(room, number, *seat)
    chooser = random.Random(seed)
    known, played = 1, 0
    while not game.is_over() and (finish or played < 3):
        hand = game.hand_number
        play = game.play(chooser.choice(game.legal_moves()))
        write = MoveWrite.of(match.id, played, hand, play, game, known)
        storage.write_moves([write])
        known += len(write.hands)
        played += 1
        if take_back and played == 1:
            taken = game.take_back()
            storage.write_moves([MoveWrite(match.id, played, hand, taken.seat, TAKE_BACK)])
            played += 1
    return Stored(room, match.id, game)


def sweeps(game: Game, side: int) -> int:
    return sum(result.sweeps[side] for result in game.results)


ANA = "ana-token-0123456789abcdef"
ANA_AGAIN = "ana-other-browser-0123456789"
BEA = "bea-token-0123456789abcdef"
CLEO = "cleo-token-0123456789abcdef"
SCOPONE = RULESETS["scopone-scientifico"].replace(target_score=4)


@pytest.fixture(scope="module")
def server(
    tmp_path_factory: pytest.TempPathFactory, database_backend: str
) -> Iterator[dict[str, Any]]:
    """Ana's finished matches against a beginner and against two medium computers (with a
    partner), a finished one against Bea, one still being played; Bea's against an easy
    computer."""
    database = tmp_path_factory.mktemp("history") / "escoba.db"
    storage = Storage(database_url(database))
    storage.migrate()
    matches = {
        "beginner": store_match(storage, "r-beginner", [("Ana", ANA), "beginner"], seed=1),
        "partners": store_match(
            storage,
            "r-partners",
            ["medium", ("Ana", ANA), "medium", "easy"],
            seed=2,
            partnerships=True,
        ),
        "people": store_match(storage, "r-people", [("Bea", BEA), ("Ana", ANA_AGAIN)], seed=3),
        "playing": store_match(storage, "r-playing", [("Ana", ANA), "hard"], seed=4, finish=False),
        "bea": store_match(storage, "r-bea", [("Bea", BEA), "easy"], seed=5),
        "scopone": store_match(
            storage,
            "r-scopone",
            [("Cleo", CLEO), "easy", "easy", "easy"],
            seed=6,
            partnerships=True,
            rules=SCOPONE,
        ),
    }
    storage.close()
    with running_app(database) as client:
        yield {"client": client, "matches": matches}


def mine(client: TestClient, *tokens: str) -> dict[str, Any]:
    response = client.post("/api/matches/mine", json={"tokens": list(tokens)})
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


@pytest.mark.slow
def test_your_matches_are_the_finished_ones_your_tokens_hold(server: dict[str, Any]) -> None:
    client: TestClient = server["client"]
    matches: dict[str, Stored] = server["matches"]
    answer = mine(client, ANA, ANA_AGAIN)
    listed = {match["id"]: match for match in answer["matches"]}
    wanted = {matches[name].match_id: name for name in ("beginner", "partners", "people")}
    assert set(listed) == set(wanted), "Bea's match and the one being played are not Ana's"
    for match_id, name in wanted.items():
        stored, match = matches[name], listed[match_id]
        seat = 1 if name in ("partners", "people") else 0
        side = 1 if name == "partners" else seat  # partners: seats 1 and 3 are side 1
        assert (match["seat"], match["side"]) == (seat, side)
        assert match["totals"] == list(stored.game.totals)
        assert match["winner"] == stored.game.winner
        assert match["sweeps"] == [sweeps(stored.game, s) for s in range(len(match["totals"]))]
        assert match["public"] is False
    assert listed[matches["partners"].match_id]["opponents"] == "medium"
    assert listed[matches["beginner"].match_id]["opponents"] == "beginner"
    assert listed[matches["people"].match_id]["opponents"] == "people"
    # Newest first: the order they finished in, reversed.
    assert [match["id"] for match in answer["matches"]] == sorted(wanted, reverse=True)


def test_the_statistics_count_the_held_sides(server: dict[str, Any]) -> None:
    client: TestClient = server["client"]
    matches: dict[str, Stored] = server["matches"]
    answer = mine(client, ANA, ANA_AGAIN)
    sides = {"beginner": 0, "partners": 1, "people": 1}
    games = {name: matches[name].game for name in sides}
    total = answer["total"]
    assert total["opponents"] is None
    assert total["matches"] == 3
    assert total["wins"] == sum(games[name].winner == side for name, side in sides.items())
    assert total["points"] == sum(games[name].totals[side] for name, side in sides.items())
    assert total["sweeps"] == sum(sweeps(games[name], side) for name, side in sides.items())
    by = {line["opponents"]: line for line in answer["by_opponents"]}
    assert [line["opponents"] for line in answer["by_opponents"]] == [
        "beginner",
        "medium",
        "people",
    ], "levels weakest first, then people"
    for name, kind in (("beginner", "beginner"), ("partners", "medium"), ("people", "people")):
        assert by[kind]["matches"] == 1
        assert by[kind]["wins"] == int(games[name].winner == sides[name])
        assert by[kind]["points"] == games[name].totals[sides[name]]


def test_unknown_tokens_hold_no_match(server: dict[str, Any]) -> None:
    answer = mine(server["client"], "nobody-holds-this-token-at-all")
    assert answer["matches"] == [] and answer["by_opponents"] == []
    assert answer["total"] == {
        "opponents": None,
        "matches": 0,
        "wins": 0,
        "points": 0,
        "sweeps": 0,
    }
    assert mine(server["client"])["matches"] == []


def test_a_match_replays_for_its_players_only(server: dict[str, Any]) -> None:
    client: TestClient = server["client"]
    matches: dict[str, Stored] = server["matches"]
    match_id = matches["beginner"].match_id
    url = f"/api/matches/{match_id}/replay"
    answer = client.post(url, json={"tokens": [BEA, ANA]}).json()
    assert answer["match"] == match_id and answer["public"] is False
    assert answer["totals"] == list(matches["beginner"].game.totals)
    # Anyone else: as if there were no such match, and nothing of it in the answer.
    others = [
        client.get(url),
        client.post(url, json={"tokens": [BEA]}),
        client.post(url, json={"tokens": []}),
    ]
    unknown = client.post("/api/matches/987654/replay", json={"tokens": [BEA]})
    playing = client.post(
        f"/api/matches/{matches['playing'].match_id}/replay", json={"tokens": [ANA]}
    )
    for response in [*others, unknown, playing]:
        body = assert_refused(response, 404, "not_found")
        assert set(body) == {"type", "code", "message"}
        assert "Ana" not in response.text and "beginner" not in response.text
    assert others[1].json()["message"] == unknown.json()["message"].replace("987654", str(match_id))


def test_a_scopone_match_is_listed_and_replays_hand_by_hand(server: dict[str, Any]) -> None:
    """docs/rules.md, Scopone scientifico: each hand deals the whole deck at once (no stock)
    and plays all 40 cards; the replay shows every one, and the score rows its rules play."""
    client: TestClient = server["client"]
    stored: Stored = server["matches"]["scopone"]
    (listed,) = mine(client, CLEO)["matches"]
    assert listed["totals"] == list(stored.game.totals)
    assert listed["sweeps"] == [sweeps(stored.game, side) for side in (0, 1)]
    answer = client.post(f"/api/matches/{stored.match_id}/replay", json={"tokens": [CLEO]}).json()
    assert answer["preset"] is None and answer["rules"] == SCOPONE.to_dict()
    assert answer["deals_per_hand"] == 1
    steps = answer["steps"]
    hands = len(stored.game.results)
    assert sum(step["event"] is not None for step in steps) == 40 * hands
    assert all(step["stock_size"] == 0 for step in steps)
    assert [len(hand) for hand in steps[0]["hands"]] == [10, 10, 10, 10]
    for result in answer["results"]:
        assert result["categories"] == list(categories_in_play(SCOPONE))
        assert sum(result["cards"]) == 40


def test_making_a_match_public_lists_it_for_everyone(server: dict[str, Any]) -> None:
    client: TestClient = server["client"]
    matches: dict[str, Stored] = server["matches"]
    match_id = matches["people"].match_id
    switch = f"/api/matches/{match_id}/public"
    assert client.get("/api/matches").json() == {"matches": []}, "nothing is public at first"
    assert_refused(client.get(f"/api/matches/{match_id}/replay"), 404, "not_found")
    # Only a player may: Bea's token for Ana's beginner match is refused as an unknown match.
    refused = client.put(
        f"/api/matches/{matches['beginner'].match_id}/public",
        json={"tokens": [BEA], "public": True},
    )
    assert_refused(refused, 404, "not_found")
    assert_refused(
        client.put(
            f"/api/matches/{matches['playing'].match_id}/public",
            json={"tokens": [ANA], "public": True},
        ),
        409,
        "not_finished",
    )
    try:
        made = client.put(switch, json={"tokens": [BEA], "public": True})
        assert made.status_code == 200, made.text
        assert made.json() == {"match": match_id, "public": True}
        (listed,) = client.get("/api/matches").json()["matches"]
        assert listed["id"] == match_id and listed["names"] == ["Bea", "Ana"]
        assert "seat" not in listed and "sweeps" not in listed, "a public list holds no seat"
        replayed = client.get(f"/api/matches/{match_id}/replay")
        assert replayed.status_code == 200 and replayed.json()["public"] is True
        assert (
            client.post(f"/api/matches/{match_id}/replay", json={"tokens": []}).status_code == 200
        )
        # Ana (from another browser) sees it public among hers.
        (hers,) = [m for m in mine(client, ANA_AGAIN)["matches"] if m["id"] == match_id]
        assert hers["public"] is True
    finally:
        closed = client.put(switch, json={"tokens": [ANA_AGAIN], "public": False})
        assert closed.status_code == 200, closed.text
    assert client.get("/api/matches").json() == {"matches": []}
    assert_refused(client.get(f"/api/matches/{match_id}/replay"), 404, "not_found")


@pytest.mark.parametrize(
    ("body", "named"),
    [
        ({}, "tokens"),
        ({"tokens": "ana-token-0123456789abcdef"}, "tokens"),
        ({"tokens": ["short"]}, "tokens"),
        ({"tokens": ["ana token with spaces!!!!"]}, "tokens"),
        ({"tokens": [ANA] * (MAX_TOKENS + 1)}, "tokens"),
        ({"tokens": [ANA], "extra": 1}, "extra"),
    ],
)
def test_bad_token_lists_are_refused_by_name(
    server: dict[str, Any], body: dict[str, Any], named: str
) -> None:
    client: TestClient = server["client"]
    for response in (
        client.post("/api/matches/mine", json=body),
        client.post("/api/matches/1/replay", json=body),
        client.put("/api/matches/1/public", json={**body, "public": True}),
    ):
        refusal = assert_refused(response, 422, "bad_request")
        assert named in refusal["message"]
        assert ANA not in response.text, "a token is never sent back"


def test_the_public_switch_wants_true_or_false(server: dict[str, Any]) -> None:
    client: TestClient = server["client"]
    match_id = server["matches"]["beginner"].match_id
    for value in ("yes", 1, None):
        response = client.put(
            f"/api/matches/{match_id}/public", json={"tokens": [ANA], "public": value}
        )
        assert "public" in assert_refused(response, 422, "bad_request")["message"]
    assert mine(client, ANA)["matches"][-1]["public"] is False


def test_wins_are_grouped_by_the_opponents_met() -> None:
    """Computers of one level are that level; people only, "people"; any mix, "mixed"."""

    def match(number: int, opponents: str, won: bool) -> YourMatch:
        return YourMatch(
            id=number,
            number=1,
            preset="escoba",
            players=2,
            partnerships=False,
            names=["Ana", "x"],
            levels=[None, None],
            totals=[5, 3] if won else [2, 6],
            winner=0 if won else 1,
            finished_at="2026-12-03T00:00:00+00:00",
            seat=0,
            side=0,
            sweeps=[1, 2],
            opponents=opponents,  # type: ignore[arg-type]
            public=False,
        )

    found = tally(
        [
            match(1, "mixed", True),
            match(2, "people", False),
            match(3, "hard", True),
            match(4, "easy", False),
            match(5, "hard", False),
        ]
    )
    assert [(line.opponents, line.matches, line.wins) for line in found.by_opponents] == [
        ("easy", 1, 0),
        ("hard", 2, 1),
        ("people", 1, 0),
        ("mixed", 1, 1),
    ]
    assert (found.total.matches, found.total.wins, found.total.points, found.total.sweeps) == (
        5,
        2,
        5 + 2 + 5 + 2 + 2,
        5,
    )


@pytest.mark.slow
def test_two_servers_in_one_process_count_their_own_matches(tmp_path: Any) -> None:
    """Match ids are a database's own: what one server remembers of its match 1 is not
    another's match 1."""
    games = []
    for number, seed in ((1, 11), (2, 13)):
        database = tmp_path / f"escoba{number}.db"
        storage = Storage(database_url(database))
        storage.migrate()
        stored = store_match(storage, f"r{number}", [("Ana", ANA), "easy"], seed=seed)
        storage.close()
        assert stored.match_id == 1
        games.append((database, stored.game))
    assert sweeps(games[0][1], 0) != sweeps(games[1][1], 0), "the two matches differ"
    for database, game in games:
        with running_app(database) as client:
            (match,) = mine(client, ANA)["matches"]
            assert match["sweeps"] == [sweeps(game, side) for side in (0, 1)]
            assert match["totals"] == list(game.totals)


@pytest.mark.slow
def test_matches_with_take_backs_are_marked_and_left_out_of_the_statistics(
    tmp_path: Any,
) -> None:
    """A match in which a move was taken back (docs/protocol.md, "Storage and restarts": the
    record keeps it as a move ``take back``) is listed with its take backs, in your matches
    and among the public ones, and not counted in the statistics: those count the others."""
    database = tmp_path / "escoba.db"
    storage = Storage(database_url(database))
    storage.migrate()
    plain = store_match(storage, "r-plain", [("Ana", ANA), "easy"], seed=21)
    taken = store_match(storage, "r-taken", [("Ana", ANA), "easy"], seed=22, take_back=True)
    storage.close()
    with running_app(database) as client:
        found = mine(client, ANA)
        by_id = {match["id"]: match for match in found["matches"]}
        assert by_id[taken.match_id]["take_backs"] == 1
        assert by_id[plain.match_id]["take_backs"] == 0
        assert found["left_out"] == 1
        assert found["total"]["matches"] == 1
        assert found["total"]["points"] == plain.game.totals[0]
        assert [line["matches"] for line in found["by_opponents"]] == [1]
        made = client.put(
            f"/api/matches/{taken.match_id}/public", json={"tokens": [ANA], "public": True}
        )
        assert made.status_code == 200, made.text
        (public,) = client.get("/api/matches").json()["matches"]
        assert (public["id"], public["take_backs"]) == (taken.match_id, 1)
        assert public["rules"] == SHORT.to_dict() and public["preset"] is None
