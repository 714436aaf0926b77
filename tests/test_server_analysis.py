"""Match analyses on the server: requested once per match, worked out in the background on the
computers' workers behind every room's search, stored as they go and resumed after a restart,
and read by the match's players (or anyone, a public match) as the replay page shows them.

The matches are played with the engine and stored before the server starts (as in
``test_server_history``). The analysis's search is given a tiny budget (``BUDGET``,
``MIN_DEALS``) so a match is analysed in a fraction of a second; its values are compared with
``Analyst.analyse`` run here with the same seed (the match id) and budget.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import database_fixtures
from escoba import RULESETS, Game
from escoba.ai.analysis import ANALYSIS_VERSION, Analyst, MoveAnalysis, Position
from escoba.server.analyses import Runner, analysis_view
from escoba.server.computers import Thinkers
from escoba.server.config import DEFAULT_TIMINGS, Settings
from escoba.server.http.app import create_app
from escoba.server.storage.analyses import AnalysisStore
from escoba.server.storage.repository import MoveWrite, Storage, hash_token
from server_helpers import (
    TEST_LIMITS,
    TEST_PASSWORD_COST,
    TIMEOUT,
    ManualClock,
    assert_refused,
    database_url,
)
from test_server_computers import HandWorkers, settle

BUDGET = 300
MIN_DEALS = 2
ONE_HAND = RULESETS["escoba"].replace(target_score=1)
"""Escoba to 1 point: the first hand ends the match (about 36 moves)."""

ANA = "ana-token-0123456789abcdef"
BEA = "bea-token-0123456789abcdef"
ZOE = "zoe-token-0123456789abcdef"

TIMINGS = replace(DEFAULT_TIMINGS, analysis_save=0.0, analysis_lease=60.0)


def settings(database: Path, *, clock: Any = None, analysis: bool = True) -> Settings:
    extra: dict[str, Any] = {} if clock is None else {"clock": clock}
    return Settings(
        database_url=database_fixtures.current().url(database),
        pace=0.0,
        limits=TEST_LIMITS,
        timings=TIMINGS,
        password_cost=TEST_PASSWORD_COST,
        analysis=analysis,
        analysis_budget=BUDGET,
        analysis_min_deals=MIN_DEALS,
        **extra,
    )


@contextmanager
def app_on(database: Path, **options: Any) -> Iterator[TestClient]:
    with (
        database_fixtures.current().running(),
        TestClient(create_app(settings(database, **options))) as client,
    ):
        yield client


def store_match(storage: Storage, room: str, token: str, *, seed: int, finish: bool = True) -> int:
    """A room of a person (holding ``token``) against an easy computer, its match played with
    random legal moves (to its end, or 3 moves) and stored in one write; the match's id."""
    game = Game(ONE_HAND, players=2, seed=seed)
    match = storage.create_room(room, game, [None, "easy"], seed=seed)
    storage.take_seat(room, 0, "Ana", token)
    chooser = random.Random(seed)
    writes: list[MoveWrite] = []
    known = 1
    while not game.is_over() and (finish or len(writes) < 3):
        hand = game.hand_number
        write = MoveWrite.of(
            match.id, len(writes), hand, game.play(chooser.choice(game.legal_moves())), game, known
        )
        known += len(write.hands)
        writes.append(write)
    storage.write_moves(writes)
    return match.id


def stored_matches(database: Path) -> dict[str, int]:
    """Ana's finished match, Bea's (public), Ana's unfinished one."""
    storage = Storage(database_url(database))
    storage.migrate()
    try:
        matches = {
            "ana": store_match(storage, "r-ana", ANA, seed=7),
            "bea": store_match(storage, "r-bea", BEA, seed=8),
            "playing": store_match(storage, "r-playing", ANA, seed=9, finish=False),
        }
        storage.make_public(matches["bea"], [hash_token(BEA)], True)
    finally:
        storage.close()
    return matches


def direct(database: Path, match_id: int) -> list[dict[str, Any]]:
    """The match's analysis made here, in one go, with the server's seed and budget."""
    storage = Storage(database_url(database))
    try:
        found = storage.match_record(match_id)
        assert found is not None
        analyst = Analyst(seed=match_id, budget=BUDGET, min_deals=MIN_DEALS)
        return [move.to_dict() for move in analyst.analyse(found[2]).moves]
    finally:
        storage.close()


def ask(client: TestClient, match_id: int, *tokens: str, **reading: str) -> Any:
    return client.post(
        f"/api/matches/{match_id}/analysis", json={"tokens": list(tokens), **reading}
    )


def until_done(client: TestClient, match_id: int, *tokens: str) -> dict[str, Any]:
    # A loaded machine starts the workers' processes slowly: a failing test, never a hang.
    deadline = time.monotonic() + 4 * TIMEOUT
    while True:
        response = ask(client, match_id, *tokens)
        assert response.status_code == 200, response.text
        answer: dict[str, Any] = response.json()
        if answer["status"] in ("done", "failed") or time.monotonic() > deadline:
            return answer
        time.sleep(0.02)  # polling the background runner, not waiting for a time


def stored_error(database: Path, match_id: int) -> str | None:
    storage = Storage(database_url(database))
    try:
        stored = AnalysisStore(storage).get(match_id)
        return None if stored is None else stored.error
    finally:
        storage.close()


def stored_moves(database: Path, match_id: int) -> list[dict[str, Any]]:
    storage = Storage(database_url(database))
    try:
        stored = AnalysisStore(storage).get(match_id)
        assert stored is not None
        return stored.moves
    finally:
        storage.close()


# -- storage -----------------------------------------------------------------------------------

AT = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)
LEASE = timedelta(seconds=60)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[tuple[AnalysisStore, dict[str, int], Path]]:
    database = tmp_path / "escoba.db"
    matches = stored_matches(database)
    storage = Storage(database_url(database))
    try:
        yield AnalysisStore(storage), matches, database
    finally:
        storage.close()


def test_a_match_is_requested_once_and_claimed_by_one_runner(
    store: tuple[AnalysisStore, dict[str, int], Path],
) -> None:
    analyses, matches, database = store
    first = analyses.request(matches["ana"], ANALYSIS_VERSION, AT)
    again = analyses.request(matches["ana"], ANALYSIS_VERSION, AT + timedelta(seconds=5))
    other = AnalysisStore(Storage(database_url(database)))  # another process, same database
    also = other.request(matches["ana"], ANALYSIS_VERSION, AT + timedelta(seconds=9))
    assert first.status == again.status == also.status == "queued"
    assert first.requested_at == again.requested_at == also.requested_at == AT
    analyses.request(matches["bea"], ANALYSIS_VERSION, AT + timedelta(seconds=1))

    claimed = analyses.claim("one", AT, LEASE)
    assert claimed is not None and claimed.match_id == matches["ana"]  # the oldest first
    taken = other.claim("two", AT, LEASE)
    assert taken is not None and taken.match_id == matches["bea"]
    assert analyses.claim("three", AT, LEASE) is None  # both held
    assert other.request(matches["ana"], ANALYSIS_VERSION, AT).status == "running"
    other.engine.dispose()


def test_a_lease_that_ran_out_is_claimed_again_and_the_old_runner_writes_nothing(
    store: tuple[AnalysisStore, dict[str, int], Path],
) -> None:
    analyses, matches, _ = store
    match = matches["ana"]
    analyses.request(match, ANALYSIS_VERSION, AT)
    assert analyses.claim("one", AT, LEASE) is not None
    assert analyses.save(match, "one", [{"index": 0}], 30, AT + timedelta(seconds=10), LEASE)
    assert analyses.claim("two", AT + timedelta(seconds=69), LEASE) is None  # extended to 70
    resumed = analyses.claim("two", AT + timedelta(seconds=71), LEASE)
    assert resumed is not None
    assert (resumed.moves, resumed.total) == ([{"index": 0}], 30)
    late = AT + timedelta(seconds=72)
    assert not analyses.save(match, "one", [{"index": 0}, {"index": 1}], 30, late, LEASE)
    assert not analyses.finish(match, "one", [], late)
    assert not analyses.fail(match, "one", "gone", late)
    stored = analyses.get(match)
    assert stored is not None
    assert (stored.status, stored.moves) == ("running", [{"index": 0}])
    assert analyses.finish(match, "two", [{"index": 0}], late)
    done = analyses.get(match)
    assert done is not None and (done.status, done.total) == ("done", 1)


def test_an_old_version_or_a_failure_is_made_anew_once(
    store: tuple[AnalysisStore, dict[str, int], Path],
) -> None:
    analyses, matches, _ = store
    match = matches["ana"]
    analyses.request(match, ANALYSIS_VERSION - 1, AT)
    assert analyses.claim("one", AT, LEASE) is not None
    assert analyses.finish(match, "one", [{"index": 0}], AT)
    assert analyses.request(match, ANALYSIS_VERSION - 1, AT).status == "done"
    renewed = analyses.request(match, ANALYSIS_VERSION, AT + timedelta(seconds=1))
    assert (renewed.status, renewed.version, renewed.moves) == ("queued", ANALYSIS_VERSION, [])
    assert analyses.claim("two", AT, LEASE) is not None
    assert analyses.fail(match, "two", "it broke", AT)
    failed = analyses.get(match)
    assert failed is not None and (failed.status, failed.error) == ("failed", "it broke")
    assert analyses.request(match, ANALYSIS_VERSION, AT).status == "queued"


# -- the workers' low lane ---------------------------------------------------------------------


class Ticks:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_rooms_search_goes_before_every_analysis_waiting() -> None:
    """One worker busy with an analysis's position; a room asks for a move while two more
    positions wait: the room's search is the next one the worker takes."""

    async def scenario() -> list[Any]:
        workers = HandWorkers()
        thinkers = Thinkers(1, 100, clock=Ticks(), executor=workers)
        asked = [
            asyncio.ensure_future(
                thinkers.analyse(f"position {n}", f"analysis {n}", budget=1, min_deals=1)  # type: ignore[arg-type]
            )
            for n in range(3)
        ]
        await settle()
        assert workers.started() == ["analysis 0"]
        move = asyncio.ensure_future(thinkers.choose("room", owner="room"))  # type: ignore[arg-type]
        await settle()
        order = []
        while workers.running:
            label, future = workers.running.pop(0)
            order.append(label)
            future.set_result(f"done {label}")
            await settle()
        assert move.done() and all(task.done() for task in asked)
        return order

    assert asyncio.run(scenario()) == ["analysis 0", "room", "analysis 1", "analysis 2"]


def test_analyses_keep_to_their_share_of_the_workers() -> None:
    """Two workers and ``analysis_workers=1``: one position at a time, the other worker free
    for the rooms at once."""

    async def scenario() -> None:
        workers = HandWorkers()
        thinkers = Thinkers(2, 100, clock=Ticks(), executor=workers, analysis_workers=1)
        asked = [
            asyncio.ensure_future(
                thinkers.analyse(f"position {n}", f"analysis {n}", budget=1, min_deals=1)  # type: ignore[arg-type]
            )
            for n in range(3)
        ]
        await settle()
        assert workers.started() == ["analysis 0"]
        asked.append(asyncio.ensure_future(thinkers.choose("room", owner="room")))  # type: ignore[arg-type]
        await settle()
        assert workers.started() == ["analysis 0", "room"]
        for _, future in workers.running:
            future.set_result(None)
        workers.running.clear()
        await settle()
        assert workers.started() == ["analysis 1"]
        for _, future in workers.running:
            future.set_result(None)
        workers.running.clear()
        await settle()
        assert workers.started() == ["analysis 2"]
        workers.running[0][1].set_result(None)
        await settle()
        assert all(task.done() for task in asked)

    asyncio.run(scenario())


# -- the runner: resuming ----------------------------------------------------------------------


class Inline:
    """Values positions here, in the test's thread (the workers' job, without processes);
    stops for good after ``stop_after`` positions when given (a process that hangs)."""

    def __init__(self, stop_after: int | None = None) -> None:
        self.stop_after = stop_after
        self.analysed = 0
        self.stopped = asyncio.Event()

    async def analyse(
        self, position: Position, seed: int, *, budget: int, min_deals: int
    ) -> MoveAnalysis:
        if self.stop_after is not None and self.analysed >= self.stop_after:
            self.stopped.set()
            await asyncio.Event().wait()
        self.analysed += 1
        analyst = Analyst(seed=seed, budget=budget, min_deals=min_deals)
        return analyst.analyse_position(position)


@pytest.mark.slow
def test_a_stopped_runner_leaves_its_moves_and_the_next_one_resumes(tmp_path: Path) -> None:
    database = tmp_path / "escoba.db"
    match = stored_matches(database)["ana"]
    clock = ManualClock()

    async def scenario() -> tuple[int, int]:
        storage = Storage(database_url(database))
        try:
            AnalysisStore(storage).request(match, ANALYSIS_VERSION, AT)
            hanging = Inline(stop_after=10)
            first = Runner(storage, hanging, settings(database, clock=clock))
            first.start()
            await asyncio.wait_for(hanging.stopped.wait(), TIMEOUT)
            await first.close()  # stopping: what was done stays, the analysis is given back
            kept = len(stored_moves(database, match))
            second_analysts = Inline()
            second = Runner(storage, second_analysts, settings(database, clock=clock))
            assert await second.run_one()
            return kept, second_analysts.analysed
        finally:
            storage.close()

    kept, again = asyncio.run(scenario())
    moves = stored_moves(database, match)
    assert kept == 10
    assert again == len(moves) - 10  # none analysed twice
    assert moves == direct(database, match)


@pytest.mark.slow
def test_a_runner_gone_without_a_word_is_taken_over_when_its_lease_ends(tmp_path: Path) -> None:
    database = tmp_path / "escoba.db"
    match = stored_matches(database)["ana"]
    clock = ManualClock(start=AT.timestamp())
    whole = direct(database, match)

    async def scenario() -> tuple[bool, bool]:
        storage = Storage(database_url(database))
        try:
            analyses = AnalysisStore(storage)
            analyses.request(match, ANALYSIS_VERSION, AT)
            assert analyses.claim("gone", AT, timedelta(seconds=TIMINGS.analysis_lease))
            assert analyses.save(match, "gone", whole[:7], len(whole), AT, LEASE)
            runner = Runner(storage, Inline(), settings(database, clock=clock))
            clock.advance(TIMINGS.analysis_lease - 1)
            early = await runner.run_one()
            clock.advance(2)
            late = await runner.run_one()
            return early, late
        finally:
            storage.close()

    assert asyncio.run(scenario()) == (False, True)
    assert stored_moves(database, match) == whole


# -- the API -----------------------------------------------------------------------------------


@pytest.mark.slow
def test_an_analysis_requested_is_made_once_with_the_analysts_values(tmp_path: Path) -> None:
    database = tmp_path / "escoba.db"
    matches = stored_matches(database)
    match = matches["ana"]
    with app_on(database) as client:
        first = ask(client, match, ANA)
        assert first.status_code == 200, first.text
        assert first.json()["status"] in ("queued", "running", "done")
        done = until_done(client, match, ANA)
        assert done["status"] == "done", stored_error(database, match)
        with app_on(database) as other:  # a second process asked later: it is made once
            again = ask(other, match, ANA).json()
    whole = direct(database, match)
    assert done["status"] == "done"
    assert done["done"] == done["total"] == len(whole) == len(done["moves"])
    assert again == done
    for shown, made in zip(done["moves"], whole, strict=True):
        analysed = MoveAnalysis.from_dict(made)
        assert shown["move"] == made["move"] and shown["best"] == made["best"]
        assert shown["value"] == round(analysed.value, 3)
        assert shown["loss"] == round(analysed.loss, 3)
        assert shown["judgement"] == analysed.judgement
        assert (shown["text"] is None) == (not analysed.is_costly)
    assert [player["seat"] for player in done["players"]] == [0, 1]
    counted = sum(sum(player["counts"].values()) for player in done["players"])
    assert counted == len(whole)
    assert stored_moves(database, match) == whole


@pytest.mark.slow
def test_two_processes_asked_at_once_make_it_once(tmp_path: Path) -> None:
    database = tmp_path / "escoba.db"
    match = stored_matches(database)["ana"]
    with app_on(database) as one, app_on(database) as two:
        assert ask(one, match, ANA).status_code == ask(two, match, ANA).status_code == 200
        done = until_done(one, match, ANA)
        finished = [client.app.state.analyses.finished for client in (one, two)]  # type: ignore[attr-defined]
    assert done["status"] == "done", (done["status"], done["done"], stored_error(database, match))
    assert sorted(finished) == [0, 1]
    assert stored_moves(database, match) == direct(database, match)


@pytest.mark.slow
def test_an_analysis_of_an_older_version_is_made_anew_when_asked(tmp_path: Path) -> None:
    database = tmp_path / "escoba.db"
    match = stored_matches(database)["ana"]
    storage = Storage(database_url(database))
    try:
        old = AnalysisStore(storage)
        old.request(match, ANALYSIS_VERSION - 1, AT)
        assert old.claim("old", AT, LEASE) is not None
        stale = {**direct(database, match)[0], "value": -9.0}
        assert old.finish(match, "old", [stale], AT)
    finally:
        storage.close()
    with app_on(database, analysis=False) as client:  # shown as it is where none is made
        shown = ask(client, match, ANA).json()
        assert (shown["status"], shown["version"]) == ("done", ANALYSIS_VERSION - 1)
        assert [move["value"] for move in shown["moves"]] == [-9.0]
    with app_on(database) as client:
        done = until_done(client, match, ANA)
    assert (done["status"], done["version"]) == ("done", ANALYSIS_VERSION)
    assert stored_moves(database, match) == direct(database, match)


@pytest.mark.slow
def test_the_analysis_is_read_in_the_askers_language_and_deck(tmp_path: Path) -> None:
    database = tmp_path / "escoba.db"
    match = stored_matches(database)["bea"]
    with app_on(database) as client:
        assert client.get(f"/api/matches/{match}/analysis").json()["status"] == "none"
        until_done(client, match)  # a public match: anyone may ask
        english = client.get(f"/api/matches/{match}/analysis").json()
        spanish = client.get(f"/api/matches/{match}/analysis?language=es&deck=spanish").json()
    costly = [n for n, move in enumerate(english["moves"]) if move["text"] is not None]
    assert costly, "a random player's match has costly moves"
    for n in costly:
        assert english["moves"][n]["text"].startswith("Costs about")
        assert spanish["moves"][n]["text"] != english["moves"][n]["text"]
        assert "♠" not in spanish["moves"][n]["text"]


@pytest.fixture(scope="module")
def refusing(
    tmp_path_factory: pytest.TempPathFactory, database_backend: str
) -> Iterator[tuple[TestClient, dict[str, int], Path]]:
    """An app that makes no analyses (``analysis=False``: nothing runs behind the refusals)
    on the stored matches."""
    database = tmp_path_factory.mktemp("refusals") / "escoba.db"
    matches = stored_matches(database)
    with app_on(database, analysis=False) as client:
        yield client, matches, database


def nothing_requested(database: Path, matches: dict[str, int]) -> None:
    storage = Storage(database_url(database))
    try:
        assert all(AnalysisStore(storage).get(match) is None for match in matches.values())
    finally:
        storage.close()


def test_others_and_unknown_matches_are_refused_alike(
    refusing: tuple[TestClient, dict[str, int], Path],
) -> None:
    client, matches, database = refusing
    others = assert_refused(ask(client, matches["ana"], ZOE), 404, "not_found")
    unknown = assert_refused(ask(client, 999_999, ZOE), 404, "not_found")
    assert others["message"].replace(str(matches["ana"]), "N") == unknown["message"].replace(
        "999999", "N"
    )
    assert_refused(client.get(f"/api/matches/{matches['ana']}/analysis"), 404, "not_found")
    # a stranger is not told that a match is being played
    assert_refused(ask(client, matches["playing"], ZOE), 404, "not_found")
    assert_refused(ask(client, matches["playing"], ANA), 409, "not_finished")
    assert_refused(client.get(f"/api/matches/{matches['playing']}/analysis"), 404, "not_found")
    assert_refused(client.get("/api/matches/0/analysis"), 422, "bad_request")
    nothing_requested(database, matches)


@pytest.mark.parametrize(
    ("reading", "named"),
    [({"language": "xx"}, "'xx'"), ({"deck": "tarot"}, "'tarot'")],
    ids=["language", "deck"],
)
def test_an_unknown_language_or_deck_is_refused_by_name(
    refusing: tuple[TestClient, dict[str, int], Path], reading: dict[str, str], named: str
) -> None:
    client, matches, database = refusing
    code = "bad_language" if "language" in reading else "bad_deck"
    refused = assert_refused(ask(client, matches["ana"], ANA, **reading), 422, code)
    assert named in refused["message"]
    query = "&".join(f"{key}={value}" for key, value in reading.items())
    shown = client.get(f"/api/matches/{matches['bea']}/analysis?{query}")
    assert named in assert_refused(shown, 422, code)["message"]
    nothing_requested(database, matches)


def test_a_view_before_any_request_shows_every_seat_and_no_move() -> None:
    view = analysis_view(5, 4, None, "en", "french")
    assert (view.status, view.done, view.total, view.moves) == ("none", 0, None, [])
    assert [player.seat for player in view.players] == [0, 1, 2, 3]
    assert all(player.accuracy is None for player in view.players)


@pytest.mark.parametrize("name", ["analysis_budget", "analysis_min_deals", "analysis_workers"])
@pytest.mark.parametrize("value", [0, -3, 1.5, True])
def test_the_analysis_settings_want_whole_numbers_from_one(name: str, value: object) -> None:
    with pytest.raises(ValueError, match=name):
        Settings(**{name: value})  # type: ignore[arg-type]
