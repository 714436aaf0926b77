"""Ratings (issue 34, items 2 to 4): which matches are rated, a rating changed exactly once per
finished match in the transaction that stores its end (however often it is retried, whichever
of several processes ends it), an abandoned match a loss for who left, an aborted one for
nobody, the daily limit between two accounts, the fair-play flags, leaderboards and
profiles."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError, OperationalError

import database_fixtures
from account_helpers import Person, register
from escoba import Game
from escoba.rules import RULESETS
from escoba.server import ratings
from escoba.server.errors import StorageUnavailable
from escoba.server.storage import rated as rated_module
from escoba.server.storage.accounts import AccountStore
from escoba.server.storage.repository import MoveWrite, Storage
from escoba.server.storage.tables import FairPlayFlagRow, MatchRow, RatingChangeRow, RatingRow
from redis_fixtures import TestRedis
from server_helpers import (
    Peer,
    assert_refused,
    connect,
    play_until,
    running_app,
    site_apps,
)

CLOCK = {"per_move": 60, "reserve": 600}
RATED = {"rated": True, "listed": True, "clock": CLOCK, "seats": ["person", "person"]}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with running_app(tmp_path / "escoba.db") as client:
        yield client


def stored(client: TestClient) -> Storage:
    storage: Storage = client.app.state.storage  # type: ignore[attr-defined]
    return storage


def rows(storage: Storage, table: Any) -> list[Any]:
    with storage.engine.connect() as connection:
        return list(connection.execute(select(table)))


# -- which tables are rated


def test_a_rated_table_needs_an_account_an_open_table_a_clock_a_preset_and_people(
    client: TestClient,
) -> None:
    refused = client.post("/api/rooms", json={"nickname": "Ana", **RATED})
    assert_refused(refused, 401, "sign_in_needed")
    ana = register(client, "Ana")
    for changed, lacking in [
        ({"listed": False}, "an open table"),
        ({"clock": None}, "a clock"),
        ({"options": {"target_score": 15}}, "a preset's rules unchanged"),
        ({"seats": ["person", "easy"]}, "person seats only"),
    ]:
        response = ana.post("/api/rooms", {"nickname": "Ana", **RATED, **changed})
        message = assert_refused(response, 422, "not_ratable")["message"]
        assert lacking in message
    ticket = ana.create_room(**RATED)
    info = client.get(f"/api/rooms/{ticket['room']}").json()
    assert info["rated"] is True


def test_nobody_sits_twice_at_a_rated_table(client: TestClient) -> None:
    ana = register(client, "Ana")
    ticket = ana.create_room(**RATED)
    response = ana.post(f"/api/rooms/{ticket['room']}/join", {"nickname": "Ana again"})
    assert_refused(response, 409, "already_seated")
    info = client.get(f"/api/rooms/{ticket['room']}").json()
    assert [seat["taken"] for seat in info["seats"]] == [True, False]


def play_out(client: TestClient, room: str, tickets: list[dict[str, Any]]) -> dict[str, Any]:
    """Play the room's match to its end, each seat's first legal move; the last state."""
    with connect(client, room) as first, connect(client, room) as second:
        first.join(tickets[0]["token"])
        second.join(tickets[1]["token"])
        return play_until([first, second], lambda state: bool(state["match"]["over"]))


def expected(winner_first: bool) -> tuple[ratings.Shown, ratings.Shown]:
    new = ratings.MODEL.rating()
    ranks = [0, 1] if winner_first else [1, 0]
    (first,), (second,) = ratings.MODEL.rate([[new], [ratings.MODEL.rating()]], ranks=ranks)
    return ratings.shown(first.mu, first.sigma), ratings.shown(second.mu, second.sigma)


@pytest.mark.slow
def test_a_rated_match_played_to_its_end_changes_both_ratings_once(client: TestClient) -> None:
    ana, bea = register(client, "Ana"), register(client, "Bea")
    ticket = ana.create_room(**RATED)
    joined = bea.join(ticket["room"])
    last = play_out(client, ticket["room"], [ticket, joined])
    winner = last["match"]["winner"]
    answer = client.get(f"/api/rooms/{ticket['room']}/ratings").json()
    assert answer["rated"] is True and answer["status"] == "rated"
    first, second = expected(winner == 0)
    assert [(c["username"], c["before"], c["after"]) for c in answer["changes"]] == [
        ("Ana", 1500, first.rating),
        ("Bea", 1500, second.rating),
    ]
    assert (first.rating > 1500) == (winner == 0)
    for person, shown in ((ana, first), (bea, second)):
        profile = person.get(f"/api/players/{person.username}").json()
        rating = profile["ratings"]["escoba"]
        assert (rating["rating"], rating["deviation"]) == (shown.rating, shown.deviation)
        assert rating["matches"] == 1 and rating["provisional"] is True
        assert [point["rating"] for point in profile["history"]["escoba"]] == [shown.rating]
        (listed,) = profile["matches"]
        assert listed["rated"] is True and listed["replay"] is True
        assert listed["change"] == shown.rating - 1500
    # Once: the match's end is stored once, and so are its changes.
    assert len(rows(stored(client), RatingChangeRow)) == 2
    assert {row.matches for row in rows(stored(client), RatingRow)} == {1}


@pytest.mark.slow
def test_a_casual_table_between_accounts_changes_no_rating(client: TestClient) -> None:
    ana, bea = register(client, "Ana"), register(client, "Bea")
    ticket = ana.create_room(listed=True, clock=CLOCK, seats=["person", "person"])
    joined = bea.join(ticket["room"])
    play_out(client, ticket["room"], [ticket, joined])
    answer = client.get(f"/api/rooms/{ticket['room']}/ratings").json()
    assert answer == {"match": answer["match"], "rated": False, "status": None, "changes": []}
    assert rows(stored(client), RatingRow) == []
    # The match is still on both profiles, unrated.
    (listed,) = ana.get("/api/players/Ana").json()["matches"]
    assert listed["rated"] is False and listed["change"] is None


# -- quick match


def seek(lobby: Any, **fields: Any) -> None:
    lobby.send({"type": "seek", "rules": "escoba", "players": 2, "nickname": "x", **fields})


def test_rated_seekers_are_paired_with_rated_seekers_only(client: TestClient) -> None:
    ana, bea, cai = register(client, "Ana"), register(client, "Bea"), register(client, "Cai")
    with ana.lobby() as first, bea.lobby() as second, cai.lobby() as third:
        seek(first, rated=True)
        first.until(lambda m: m["type"] == "seeking")
        seek(second)  # casual: not paired with Ana
        second.until(lambda m: m["type"] == "seeking")
        seek(third, rated=True)
        paired = [peer.until(lambda m: m["type"] == "paired") for peer in (first, third)]
    room = paired[0]["ticket"]["room"]
    assert paired[1]["ticket"]["room"] == room
    info = client.get(f"/api/rooms/{room}").json()
    assert info["rated"] is True
    assert [seat["account"] for seat in info["seats"]] == ["Ana", "Cai"]


def test_a_rated_seek_is_never_offered_computers(client: TestClient) -> None:
    ana = register(client, "Ana")
    with ana.lobby() as lobby:
        seek(lobby, rated=True)
        lobby.until(lambda m: m["type"] == "seeking")
        lobby.send({"type": "fill", "level": "easy"})
        refused = lobby.until(lambda m: m["type"] == "error")
        assert refused["code"] == "rated_people_only"
        assert "seek_waited" not in [m["type"] for m in lobby.barrier()]
    assert rows(stored(client), MatchRow) == []


@pytest.mark.slow
def test_a_rated_quick_match_across_two_processes_is_rated_once(
    tmp_path: Path, redis_store: TestRedis
) -> None:
    """Two processes of one site: an account signed in on one is signed in on the other;
    two people seeking on different processes are paired, play to the end through either,
    and their ratings change once."""
    apps = site_apps(tmp_path, redis_store.url, redis_store.prefix, 2)
    with TestClient(apps[0]) as first, TestClient(apps[1]) as second:
        ana = register(first, "Ana")
        bea = register(second, "Bea")
        bea_elsewhere = Person(first, "Bea", bea.token, bea.csrf)
        assert bea_elsewhere.get("/api/account").json()["account"]["username"] == "Bea"
        with ana.lobby() as here, bea.lobby() as there:
            seek(here, rated=True)
            here.until(lambda m: m["type"] == "seeking")
            seek(there, rated=True)
            tickets = [
                peer.until(lambda m: m["type"] == "paired")["ticket"] for peer in (here, there)
            ]
        room = tickets[0]["room"]
        assert client_info(second, room)["rated"] is True
        with connect(first, room) as one, connect(second, room) as two:
            one.join(tickets[0]["token"])
            two.join(tickets[1]["token"])
            play_until([one, two], lambda state: bool(state["match"]["over"]))
        answers = [client.get(f"/api/rooms/{room}/ratings").json() for client in (first, second)]
        assert answers[0] == answers[1] and answers[0]["status"] == "rated"
        assert len(answers[0]["changes"]) == 2
        assert len(rows(stored(first), RatingChangeRow)) == 2


def client_info(client: TestClient, room: str) -> dict[str, Any]:
    info: dict[str, Any] = client.get(f"/api/rooms/{room}").json()
    return info


def test_a_rated_seek_needs_an_account(client: TestClient) -> None:
    with client.websocket_connect("/ws/lobby") as websocket:
        lobby = Peer(websocket)
        seek(lobby, rated=True)
        refused = lobby.until(lambda m: m["type"] == "error")
    assert refused["code"] == "sign_in_needed"


# -- exactly once, in the transaction that stores the end


def rated_match(
    storage: Storage, names: tuple[str, ...] = ("Ana", "Bea"), addresses: tuple[str, ...] = ()
) -> tuple[int, list[int]]:
    """A rated room of two accounts with one move played: its match id and the accounts."""
    store = AccountStore(storage)
    accounts = []
    for name in names:
        found = store.by_key(name.casefold())
        accounts.append(found.id if found else store.create(name, name.casefold(), None).id)
    game = Game(RULESETS["escoba"], len(names), seed=7)
    room = f"r{len(rows(storage, MatchRow))}"
    match = storage.create_room(room, game, [None] * len(names), seed=7, rated=True)
    for seat, account in enumerate(accounts):
        place = addresses[seat] if addresses else f"192.0.2.{seat + 1}"
        storage.take_seat(
            room, seat, names[seat], f"token-{room}-{seat}", account_id=account, address=place
        )
    storage.write_moves([MoveWrite(match.id, 0, 0, game.to_move or 0, "move")])
    return match.id, accounts


def finish(match_id: int, winner: int = 0) -> MoveWrite:
    return MoveWrite(match_id, 1, 0, 0, "last", finished=(winner, [21, 5]))


@pytest.fixture
def storage(tmp_path: Path) -> Iterator[Storage]:
    databases = database_fixtures.current()
    with databases.running():
        storage = Storage(databases.url(tmp_path / "escoba.db"))
        storage.migrate()
        yield storage
        storage.close()


def test_a_failed_transaction_changes_no_rating_and_its_retry_changes_it_once(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    match_id, _ = rated_match(storage)
    original = rated_module.settle
    failures = iter([True])

    def failing(connection: Any, match: int, moment: Any) -> str | None:
        status = original(connection, match, moment)
        if next(failures, False):  # the ratings were written, then the commit fails
            raise OperationalError("COMMIT", {}, Exception("the disk is full"))
        return status

    monkeypatch.setattr("escoba.server.storage.repository.settle", failing)
    with pytest.raises(StorageUnavailable):
        storage.write_moves([finish(match_id)])
    assert rows(storage, RatingRow) == [] and rows(storage, RatingChangeRow) == []
    storage.write_moves([finish(match_id)])  # the writer's retry
    with pytest.raises(IntegrityError):  # a retry after the commit: the move is stored
        storage.write_moves([finish(match_id)])
    storage.end_match(match_id, 1, [5, 21], "abandoned", left=[0])  # a late claim: no effect
    assert len(rows(storage, RatingChangeRow)) == 2
    assert {row.matches for row in rows(storage, RatingRow)} == {1}
    (match,) = [row for row in rows(storage, MatchRow) if row.id == match_id]
    assert match.rating == "rated" and match.winner == 0 and match.ended is None


def test_two_processes_ending_one_match_at_once_change_its_ratings_once(
    storage: Storage,
) -> None:
    match_id, _ = rated_match(storage)
    other = Storage(storage.url)  # another process's connections to the same database
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def end(by: Storage, how: str) -> None:
        barrier.wait()
        try:
            if how == "move":
                by.write_moves([finish(match_id)])
            else:
                by.end_match(match_id, 1, [5, 21], "abandoned", left=[0])
        except StorageUnavailable as error:  # a lock lost to the other: nothing stored
            errors.append(error)

    threads = [
        threading.Thread(target=end, args=(storage, "move")),
        threading.Thread(target=end, args=(other, "claim")),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    other.close()
    assert len(rows(storage, RatingChangeRow)) == 2
    assert {row.matches for row in rows(storage, RatingRow)} == {1}
    assert len(errors) <= 1


def test_an_abandoned_match_is_a_loss_for_who_left(storage: Storage) -> None:
    match_id, (ana, bea) = rated_match(storage)
    # Ana left though her side led on points: the claim is Bea's, the loss Ana's.
    storage.end_match(match_id, 1, [18, 3], "abandoned", left=[0])
    changes = {row.account_id: row for row in rows(storage, RatingChangeRow)}
    assert changes[ana].mu_after < changes[ana].mu_before
    assert changes[bea].mu_after > changes[bea].mu_before


def test_a_match_ended_before_its_first_move_counts_for_nobody(storage: Storage) -> None:
    store = AccountStore(storage)
    ana, bea = store.create("Ana", "ana", None).id, store.create("Bea", "bea", None).id
    game = Game(RULESETS["escoba"], 2, seed=3)
    match = storage.create_room("aborted", game, [None, None], seed=3, rated=True)
    storage.take_seat("aborted", 0, "Ana", "token-a-0", account_id=ana)
    storage.take_seat("aborted", 1, "Bea", "token-a-1", account_id=bea)
    storage.end_match(match.id, 0, [0, 0], "abandoned", left=[1])
    (row,) = rows(storage, MatchRow)
    assert row.rating == "aborted"
    assert rows(storage, RatingRow) == [] and rows(storage, RatingChangeRow) == []


def test_the_same_two_accounts_count_a_few_times_a_day(storage: Storage) -> None:
    statuses = []
    for _ in range(ratings.DAILY_PAIR_LIMIT + 1):
        match_id, _ = rated_match(storage)
        storage.write_moves([finish(match_id)])
        (row,) = [row for row in rows(storage, MatchRow) if row.id == match_id]
        statuses.append(row.rating)
    assert statuses == ["rated"] * ratings.DAILY_PAIR_LIMIT + ["daily_limit"]
    assert {row.matches for row in rows(storage, RatingRow)} == {ratings.DAILY_PAIR_LIMIT}
    # Another opponent still counts.
    match_id, _ = rated_match(storage, ("Ana", "Cai"))
    storage.write_moves([finish(match_id)])
    assert [row.rating for row in rows(storage, MatchRow) if row.id == match_id] == ["rated"]


def test_accounts_playing_each_other_from_one_address_are_flagged(storage: Storage) -> None:
    match_id, accounts = rated_match(storage, addresses=("198.51.100.9", "198.51.100.9"))
    storage.write_moves([finish(match_id)])
    (flag,) = rows(storage, FairPlayFlagRow)
    assert flag.match_id == match_id and sorted(flag.accounts) == sorted(accounts)
    assert flag.reason == "same_address"
    listed = AccountStore(storage).listing()
    assert {entry["username"]: entry["flags"] for entry in listed} == {"Ana": 1, "Bea": 1}
    other, _ = rated_match(storage, ("Cai", "Dan"))
    storage.write_moves([finish(other)])
    assert len(rows(storage, FairPlayFlagRow)) == 1


def test_partnerships_and_three_alone_are_rated_as_sides(storage: Storage) -> None:
    store = AccountStore(storage)
    names = ("Ana", "Bea", "Cai", "Dan")
    ids = [store.create(name, name.casefold(), None).id for name in names]
    game = Game(RULESETS["scopone-scientifico"], 4, partnerships=True, seed=5)
    match = storage.create_room("pairs", game, [None] * 4, seed=5, rated=True)
    for seat, account in enumerate(ids):
        storage.take_seat("pairs", seat, names[seat], f"token-p-{seat}", account_id=account)
    storage.write_moves([MoveWrite(match.id, 0, 0, 0, "m")])
    storage.write_moves([MoveWrite(match.id, 1, 0, 1, "n", finished=(1, [4, 21]))])
    changes = {row.account_id: row for row in rows(storage, RatingChangeRow)}
    assert {row.game for row in changes.values()} == {"scopone"}
    won = [changes[ids[seat]].mu_after - changes[ids[seat]].mu_before for seat in (1, 3)]
    lost = [changes[ids[seat]].mu_after - changes[ids[seat]].mu_before for seat in (0, 2)]
    assert all(delta > 0 for delta in won) and all(delta < 0 for delta in lost)
    teams = [[ratings.MODEL.rating() for _ in range(2)] for _ in range(2)]
    expected = ratings.MODEL.rate(teams, ranks=[1, 0])
    assert won[0] == pytest.approx(expected[1][0].mu - ratings.MODEL.rating().mu)
    # Three alone: each a side, ranked by the result.
    match_id, (eva, fay, gus) = rated_match(storage, ("Eva", "Fay", "Gus"))
    storage.write_moves([MoveWrite(match_id, 1, 0, 0, "z", finished=(2, [10, 15, 21]))])
    delta = {
        row.account_id: row.mu_after - row.mu_before
        for row in rows(storage, RatingChangeRow)
        if row.match_id == match_id
    }
    assert delta[gus] > delta[fay] > delta[eva] and delta[eva] < 0 < delta[gus]


def test_ranks_put_the_winner_first_and_who_left_last() -> None:
    assert rated_module._ranks(2, [10, 30, 21], set()) == [2, 1, 0]
    assert rated_module._ranks(0, [10, 30, 21], {1}) == [0, 3, 1]


# -- leaderboards and profiles


def settled(storage: Storage, name: str, mu: float, *, matches: int = 12, days: int = 1) -> int:
    """An account with a settled rating in Escoba, last played ``days`` ago."""
    from datetime import timedelta

    from escoba.server.storage.tables import now

    store = AccountStore(storage)
    account = store.create(name, name.casefold(), None).id
    with storage.engine.begin() as connection:
        connection.execute(
            RatingRow.__table__.insert().values(
                account_id=account,
                game="escoba",
                mu=mu,
                sigma=2.0,
                matches=matches,
                played_at=now() - timedelta(days=days),
            )
        )
    return account


def test_the_leaderboard_lists_settled_active_players_by_rating_beside_the_computers(
    client: TestClient,
) -> None:
    storage = stored(client)
    settled(storage, "Top", 40)
    settled(storage, "Second", 30)
    settled(storage, "Idle", 50, days=ratings.ACTIVE_DAYS + 1)  # not active: not listed
    settled(storage, "Newcomer", 45, matches=ratings.BOARD_MATCHES - 1)
    board = client.get("/api/leaderboard/escoba").json()
    assert [(entry["rank"], entry["username"]) for entry in board["players"]] == [
        (1, "Top"),
        (2, "Second"),
    ]
    assert board["players"][0]["rating"] == ratings.shown(40, 2.0).rating
    levels = {entry["level"]: entry["rating"] for entry in board["computers"]}
    assert levels["beginner"] == 1000 and levels["hard"] > levels["easy"]
    assert board["you"] is None
    ranks = {
        name: client.get(f"/api/players/{name}").json()["ratings"]["escoba"]["rank"]
        for name in ("Top", "Second", "Idle", "Newcomer")
    }
    assert ranks == {"Top": 1, "Second": 2, "Idle": None, "Newcomer": None}
    assert_refused(client.get("/api/leaderboard/chess"), 422, "bad_request")


def test_a_profile_shows_ranks_and_the_readers_own_place(client: TestClient) -> None:
    storage = stored(client)
    settled(storage, "Top", 40)
    ana = register(client, "Ana")
    board = ana.get("/api/leaderboard/escoba").json()
    assert board["you"] is None  # no rating yet
    profile = client.get("/api/players/top").json()
    assert profile["username"] == "Top" and profile["ratings"]["escoba"]["rank"] == 1
    assert_refused(client.get("/api/players/nobody"), 404, "not_found")
    assert_refused(client.get("/api/players/%E2%80%8B"), 404, "not_found")


@pytest.mark.slow
def test_only_the_player_sees_links_to_private_replays(client: TestClient) -> None:
    ana, bea = register(client, "Ana"), register(client, "Bea")
    ticket = ana.create_room(**RATED)
    joined = bea.join(ticket["room"])
    play_out(client, ticket["room"], [ticket, joined])
    assert [m["replay"] for m in ana.get("/api/players/Ana").json()["matches"]] == [True]
    assert [m["replay"] for m in bea.get("/api/players/Ana").json()["matches"]] == [False]
    assert [m["replay"] for m in client.get("/api/players/Ana").json()["matches"]] == [False]
    stats = client.get("/api/players/Ana").json()["stats"]
    assert stats["matches"] == 1 and stats["by_opponent"][0]["username"] == "Bea"
    assert stats["by_game"]["escoba"]["matches"] == 1
    assert stats["best_hands"] and stats["best_hands"][0]["points"] >= 0


def test_people_without_an_account_play_as_before(client: TestClient) -> None:
    response = client.post(
        "/api/rooms", json={"nickname": "Guest", "seats": ["person", "person"], "listed": True}
    )
    assert response.status_code == 201
    info = client.get(f"/api/rooms/{response.json()['room']}").json()
    assert info["rated"] is False and info["seats"][0]["account"] is None
