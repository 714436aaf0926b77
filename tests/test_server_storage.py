"""Storage: the Alembic migration builds the ORM's schema, seat tokens are kept only as
hashes, and the stored event log (rules, seed, every deck dealt, every move) replays to the
very match that was played, after every move.

Decks and redeals: RULES.md "A hand" (2. initial-table sweeps, 3. kings redeal); the match
end: RULES.md "Winning the match".

Against attackers: each match's last activity finds the live rooms in one indexed query and
lets abandoned rooms expire (their finished matches kept); a replay lookup runs the same
statements for an unknown match as for one in play; and a database that fails (a full disk,
a locked or corrupt file, a server gone) raises one exception and stores nothing of the call.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone
from itertools import count
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import (
    JSON,
    ColumnElement,
    DateTime,
    column,
    event,
    func,
    insert,
    inspect,
    select,
    table,
    text,
    update,
)
from sqlalchemy.exc import IntegrityError, OperationalError

from escoba import RULESETS, Game, InitialSweep, Redeal, RuleSet
from escoba.server.errors import StorageUnavailable
from escoba.server.storage.repository import (
    MAX_ID,
    MIGRATIONS,
    Base,
    MatchRow,
    MoveWrite,
    RoomRow,
    SeatRow,
    SeatTaken,
    Storage,
    hash_token,
    token_matches,
)
from server_helpers import (
    connect,
    create_room,
    database_rows,
    database_url,
    join_room,
    moves_played,
    play_until,
    running_app,
)

ESCOBA = RULESETS["escoba"]
SCOPA = RULESETS["scopa"]


@pytest.fixture
def storage(tmp_path: Path) -> Iterator[Storage]:
    storage = Storage(database_url(tmp_path / "escoba.db"))
    storage.migrate()
    yield storage
    storage.close()


def schema_differences(storage: Storage) -> list[object]:
    with storage.engine.connect() as connection:
        differences: list[object] = compare_metadata(
            MigrationContext.configure(connection), Base.metadata
        )
        return differences


def revision(storage: Storage) -> str | None:
    with storage.engine.connect() as connection:
        current: str | None = MigrationContext.configure(connection).get_current_revision()
        return current


def head_revision() -> str | None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    head: str | None = ScriptDirectory.from_config(config).get_current_head()
    return head


# -- the schema ------------------------------------------------------------------------------


def test_the_migration_builds_exactly_the_orm_schema(storage: Storage) -> None:
    tables = set(inspect(storage.engine).get_table_names())
    assert set(Base.metadata.tables) <= tables
    assert schema_differences(storage) == []
    assert revision(storage) == head_revision() is not None


def test_migrating_again_is_harmless(tmp_path: Path, storage: Storage) -> None:
    game = Game(ESCOBA, 2, seed=11)
    storage.create_room("room1", game, [None, "easy"], seed=11)
    storage.take_seat("room1", 0, "Ana", "secret-token")
    storage.migrate()
    again = Storage(database_url(tmp_path / "escoba.db"))  # a second start on the same file
    try:
        again.migrate()
        assert schema_differences(again) == []
        assert revision(again) == head_revision()
        stored = again.room("room1")
        assert stored is not None
        assert stored.game.record() == game.record()
        assert [seat.nickname for seat in stored.seats] == ["Ana", None]
        assert token_matches("secret-token", stored.seats[0].token_hash)
    finally:
        again.close()


# -- seat tokens -------------------------------------------------------------------------


def test_token_matches_only_its_own_hash() -> None:
    token = "f3Kq_8x-PzT0aLmN2bVcRt6YwUe9HsJd"
    stored = hash_token(token)
    assert len(stored) == 64 and set(stored) <= set("0123456789abcdef")
    assert token not in stored
    assert token_matches(token, stored)
    assert not token_matches(token[:-1], stored)
    assert not token_matches(token + "x", stored)
    assert not token_matches("", stored)
    assert not token_matches(token, hash_token("another token"))
    assert not token_matches(token, None)  # a free seat has no token


def database_bytes(folder: Path, backend: str) -> bytes:
    """All the database holds. SQLite: the database file with its write-ahead log and shared
    memory, if any. PostgreSQL (whose files belong to its server): every row of every table,
    as text."""
    if backend == "sqlite":
        return b"".join(path.read_bytes() for path in sorted(folder.glob("escoba.db*")))
    rows = database_rows(folder / "escoba.db")
    assert rows, "no row was read"
    return rows.encode()


def test_seat_tokens_are_stored_only_as_hashes(tmp_path: Path, database_backend: str) -> None:
    tokens = []
    with running_app(tmp_path / "escoba.db") as client:
        ticket = create_room(client, players=3, seats=["person", "easy", "person"])
        tokens.append(ticket["token"])
        guest = join_room(client, ticket["room"], "Bo")
        tokens.append(guest["token"])
        with connect(client, ticket["room"]) as ana, connect(client, ticket["room"]) as bo:
            ana.join(ticket["token"])
            bo.join(guest["token"])
            play_until([ana, bo], lambda state: moves_played(state) >= 4)
            ana.settle()
        running = database_bytes(tmp_path, database_backend)
    stopped = database_bytes(tmp_path, database_backend)
    for token in tokens:
        raw = [token.encode() in content for content in (running, stopped)]
        assert raw == [False, False], "a raw seat token is in the database"
        assert hash_token(token).encode() in stopped  # what is kept instead


# -- the event log -------------------------------------------------------------------------


@dataclass(frozen=True)
class LogCase:
    rules: RuleSet
    players: int
    partnerships: bool
    wanted: Callable[[Game], bool]
    """The seed is the first that gives a match with this (looked for, not hard-coded)."""
    hands: int
    """Hands to play (or to the match's end, if sooner)."""


def redealt(game: Game, hand: int) -> bool:
    return any(isinstance(event, Redeal) for event in game.history(hand))


def first_hand_redealt(game: Game) -> bool:
    return redealt(game, 0)


def second_hand_redealt(game: Game) -> bool:
    """Play the first hand with the first legal moves and look at the second deal."""
    while game.hand_number == 0 and not game.is_over():
        game.play(game.legal_moves()[0])
    return not game.is_over() and redealt(game, 1)


def initial_sweep(game: Game) -> bool:
    return any(isinstance(event, InitialSweep) for event in game.history(0))


LOG_CASES = {
    "scopa, the first hand dealt again": LogCase(SCOPA, 2, False, first_hand_redealt, 2),
    "scopa, the second hand dealt again": LogCase(SCOPA, 2, False, second_hand_redealt, 2),
    "escoba, an initial-table sweep, to the end": LogCase(
        ESCOBA.replace(target_score=3), 2, False, initial_sweep, 99
    ),
    "escova, four in partnerships": LogCase(RULESETS["escova"], 4, True, lambda g: True, 1),
    "escoba, three players, to the end": LogCase(
        ESCOBA.replace(target_score=2), 3, False, lambda g: True, 99
    ),
}


def first_seed(case: LogCase) -> int:
    for seed in count():
        if case.wanted(Game(case.rules, case.players, case.partnerships, seed=seed)):
            return seed
        assert seed < 100_000, "no such deal in 100000 seeds"
    raise AssertionError("unreachable")


@pytest.mark.slow
@pytest.mark.parametrize("case", LOG_CASES.values(), ids=LOG_CASES.keys())
def test_the_event_log_replays_the_match_after_every_move(storage: Storage, case: LogCase) -> None:
    seed = first_seed(case)
    game = Game(case.rules, case.players, case.partnerships, seed=seed)
    levels = [None] + ["easy"] * (case.players - 1)
    match = storage.create_room("room1", game, levels, seed=seed)
    assert storage.room("room1").game.record() == game.record()  # type: ignore[union-attr]
    rng = random.Random(seed)
    known = len(game.record()["hands"])
    number = 0
    while not game.is_over() and len(game.results) < case.hands:
        hand, seat = game.hand_number, game.to_move
        assert seat is not None
        move = rng.choice(sorted(game.legal_moves(), key=str))
        event = game.play(move)
        assert event.seat == seat
        write = MoveWrite.of(match.id, number, hand, event, game, known)
        storage.write_moves([write])
        known += len(write.hands)
        number += 1
        stored = storage.room("room1")
        assert stored is not None
        rebuilt = stored.game
        assert rebuilt.record() == game.record(), f"after move {number}"
        assert rebuilt.to_move == game.to_move
        assert rebuilt.table == game.table
        assert rebuilt.totals == game.totals
        for other in range(game.players):
            assert rebuilt.hand(other) == game.hand(other)
        assert (stored.match.finished_at is not None) == game.is_over()
    deals = [len(hand["deals"]) for hand in storage.match_record(match.id)[2]["hands"]]  # type: ignore[index]
    assert deals == [len(hand["deals"]) for hand in game.record()["hands"]]
    if case.wanted in (first_hand_redealt, second_hand_redealt):
        assert max(deals) > 1  # RULES.md "A hand" 3: both deals of the hand are kept
    if game.is_over():
        (listed,) = storage.finished_matches()
        finished, _, _ = listed
        assert finished.winner == game.winner
        assert finished.totals == list(game.totals)
        assert unfinished_rooms(storage) == []
    else:
        assert unfinished_rooms(storage) == ["room1"]


def test_a_rematch_is_the_rooms_current_match(storage: Storage) -> None:
    rules = ESCOBA.replace(target_score=1)
    game = Game(rules, 2, seed=5)
    first = storage.create_room("room1", game, [None, "easy"], seed=5)
    known, number = 1, 0
    while not game.is_over():
        hand, seat, move = game.hand_number, game.to_move, game.legal_moves()[0]
        assert seat is not None
        event = game.play(move)
        assert event.seat == seat
        write = MoveWrite.of(first.id, number, hand, event, game, known)
        storage.write_moves([write])
        known += len(write.hands)
        number += 1
    assert unfinished_rooms(storage) == []
    rematch = Game(rules, 2, seed=6)
    second = storage.new_match("room1", 2, rematch, 6)
    assert unfinished_rooms(storage) == ["room1"]
    stored = storage.room("room1")
    assert stored is not None
    assert stored.match.id == second.id and stored.match.number == 2
    assert stored.game.record() == rematch.record()
    # the first match stays finished, with its whole log
    assert [match.id for match, _, _ in storage.finished_matches()] == [first.id]
    found = storage.match_record(first.id)
    assert found is not None
    assert Game.from_record(found[2]).record() == game.record()


def test_unknown_rooms_and_matches(storage: Storage) -> None:
    assert storage.room("nope") is None
    assert storage.match_record(12345) is None
    assert unfinished_rooms(storage) == []
    assert storage.finished_matches() == []


# -- activity and expiry -----------------------------------------------------------------

QUICK = ESCOBA.replace(target_score=1)
"""A match over in a hand or two."""

LONG = ESCOBA.replace(target_score=200)
"""A match that lasts as long as a test writes moves."""

NOW = datetime.now(UTC)
CUTOFF = NOW - timedelta(hours=1)
"""Rooms active since are live, those active before abandoned."""

OLD = NOW - timedelta(days=2)


def utc(moment: datetime) -> datetime:
    """A stored time as an aware one (SQLite hands them back naive, in UTC)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


@dataclass
class Playing:
    """A match played into the storage with the first legal move each time."""

    match_id: int
    game: Game
    number: int = 0
    known: int = 1

    @classmethod
    def room(cls, storage: Storage, room_id: str, rules: RuleSet, seed: int) -> Playing:
        game = Game(rules, 2, seed=seed)
        match = storage.create_room(room_id, game, [None, "easy"], seed=seed)
        return cls(match.id, game, known=len(game.record()["hands"]))

    @classmethod
    def rematch(
        cls, storage: Storage, room_id: str, number: int, rules: RuleSet, seed: int
    ) -> Playing:
        game = Game(rules, 2, seed=seed)
        match = storage.new_match(room_id, number, game, seed)
        return cls(match.id, game, known=len(game.record()["hands"]))

    def write(self) -> MoveWrite:
        """Play the next move and give its write."""
        hand, seat = self.game.hand_number, self.game.to_move
        assert seat is not None
        move = self.game.legal_moves()[0]
        event = self.game.play(move)
        assert event.seat == seat
        write = MoveWrite.of(self.match_id, self.number, hand, event, self.game, self.known)
        self.number += 1
        self.known += len(write.hands)
        return write

    def play(self, storage: Storage, moves: int) -> None:
        for _ in range(moves):
            storage.write_moves([self.write()])

    def finish(self, storage: Storage) -> None:
        while not self.game.is_over():
            storage.write_moves([self.write()])


def date(storage: Storage, when: datetime, *match_ids: int) -> None:
    """Make matches last active at ``when``."""
    with storage.engine.begin() as connection:
        connection.execute(
            update(MatchRow).where(MatchRow.id.in_(match_ids)).values(active_at=when)
        )


def active_at(storage: Storage, match_id: int) -> datetime:
    with storage.engine.connect() as connection:
        found = connection.scalar(select(MatchRow.active_at).where(MatchRow.id == match_id))
        assert found is not None
        return utc(found)


def live_rooms(storage: Storage, since: datetime) -> list[str]:
    """The rooms whose match is not over and was active at or after ``since`` (in UTC), in no
    particular order: the rooms a restarted server that loaded them all would begin with."""
    return _unfinished(storage, MatchRow.active_at >= since)


def unfinished_rooms(storage: Storage) -> list[str]:
    """The rooms whose match is not over (an unfinished match is always its room's latest),
    however long ago it was active."""
    return _unfinished(storage)


def _unfinished(storage: Storage, *conditions: ColumnElement[bool]) -> list[str]:
    with storage.engine.connect() as connection:
        return list(
            connection.scalars(
                select(MatchRow.room_id).where(MatchRow.finished_at.is_(None), *conditions)
            )
        )


@contextmanager
def statements(storage: Storage) -> Iterator[list[tuple[str, Any]]]:
    """The SQL statements run while the block runs, with their parameters."""
    seen: list[tuple[str, Any]] = []

    def record(
        _connection: object,
        _cursor: object,
        statement: str,
        parameters: Any,
        _context: object,
        _executemany: bool,
    ) -> None:
        seen.append((statement, parameters))

    event.listen(storage.engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        event.remove(storage.engine, "before_cursor_execute", record)


ORPHANS = {
    "rooms without a match": "rooms WHERE id NOT IN (SELECT room_id FROM matches)",
    "seats": "seats WHERE room_id NOT IN (SELECT id FROM rooms)",
    "matches": "matches WHERE room_id NOT IN (SELECT id FROM rooms)",
    "hands": "hands WHERE match_id NOT IN (SELECT id FROM matches)",
    "moves": "moves WHERE match_id NOT IN (SELECT id FROM matches)",
}
"""The rows that must never be, by what they are: FROM and WHERE clauses."""


def orphans(storage: Storage) -> dict[str, int]:
    """Rows whose parent row is gone (and rooms left with no match), by table."""
    with storage.engine.connect() as connection:
        return {
            name: connection.scalar(text(f"SELECT COUNT(*) FROM {rows}")) or 0
            for name, rows in ORPHANS.items()
        }


def rows_of(storage: Storage, table_name: str, match_ids: list[int]) -> int:
    with storage.engine.connect() as connection:
        found = connection.scalar(
            select(func.count())
            .select_from(table(table_name, column("match_id")))
            .where(column("match_id").in_(match_ids))
        )
        return found or 0


def test_migrating_from_0001_dates_each_match_by_its_newest_event(tmp_path: Path) -> None:
    storage = Storage(database_url(tmp_path / "old.db"))
    try:
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        with storage.engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "0001")
        stamp = DateTime(timezone=True)
        rooms = table(
            "rooms",
            column("id"),
            column("created_at", stamp),
            column("rules", JSON),
            column("players"),
            column("partnerships"),
        )
        matches = table(
            "matches",
            column("id"),
            column("room_id"),
            column("number"),
            column("seed"),
            column("first_dealer"),
            column("created_at", stamp),
        )
        moves = table(
            "moves",
            column("match_id"),
            column("number"),
            column("hand"),
            column("seat"),
            column("move"),
            column("played_at", stamp),
        )
        start = datetime(2026, 1, 1, 10, tzinfo=UTC)

        def at(minutes: int) -> datetime:
            return start + timedelta(minutes=minutes)

        created = {1: at(0), 2: at(60), 3: at(120)}
        played = {1: [at(5), at(7)], 2: [], 3: [at(110)]}  # 3: a clock set back since
        with storage.engine.begin() as connection:
            connection.execute(
                insert(rooms),
                [
                    {
                        "id": "r",
                        "created_at": at(0),
                        "rules": {},
                        "players": 2,
                        "partnerships": False,
                    }
                ],
            )
            connection.execute(
                insert(matches),
                [
                    {
                        "id": n,
                        "room_id": "r",
                        "number": n,
                        "seed": n,
                        "first_dealer": 0,
                        "created_at": when,
                    }
                    for n, when in created.items()
                ],
            )
            connection.execute(
                insert(moves),
                [
                    {
                        "match_id": n,
                        "number": k,
                        "hand": 0,
                        "seat": k % 2,
                        "move": "x",
                        "played_at": when,
                    }
                    for n, times in played.items()
                    for k, when in enumerate(times)
                ],
            )
        storage.migrate()
        assert schema_differences(storage) == []
        assert revision(storage) == head_revision()
        assert [active_at(storage, n) for n in created] == [at(7), at(60), at(120)]
        with pytest.raises(IntegrityError), storage.engine.begin() as connection:
            # the references are checked again (SQLite's are switched off while it upgrades)
            connection.execute(
                insert(moves),
                {
                    "match_id": 99,
                    "number": 0,
                    "hand": 0,
                    "seat": 0,
                    "move": "x",
                    "played_at": at(0),
                },
            )
    finally:
        storage.close()


def test_moves_and_seats_keep_their_match_active(storage: Storage) -> None:
    a = Playing.room(storage, "a", ESCOBA, 1)
    b = Playing.room(storage, "b", ESCOBA, 2)
    c = Playing.room(storage, "c", ESCOBA, 3)
    with storage.engine.connect() as connection:
        row = connection.execute(select(MatchRow).where(MatchRow.id == a.match_id)).one()
    assert row.active_at == row.created_at  # made: active
    date(storage, OLD, a.match_id, b.match_id, c.match_id)
    with statements(storage) as seen:
        storage.write_moves([a.write(), b.write(), a.write()])
    updates = [sql for sql, _ in seen if sql.lstrip().upper().startswith("UPDATE")]
    assert len(updates) == 1, "one UPDATE for the whole batch"
    assert active_at(storage, a.match_id) > OLD
    assert active_at(storage, b.match_id) > OLD
    assert active_at(storage, c.match_id) == OLD
    storage.take_seat("c", 0, "Ana", "a-token")
    assert active_at(storage, c.match_id) > OLD


def test_a_seat_taken_or_a_computers_is_refused_and_kept(storage: Storage) -> None:
    """Taking a seat that is not a free person's (taken meanwhile, say by another server
    process) raises SeatTaken and leaves the seat as it was."""
    Playing.room(storage, "r", ESCOBA, 1)
    storage.take_seat("r", 0, "Ana", "a-token")
    with pytest.raises(SeatTaken, match="seat 0 of room r"):
        storage.take_seat("r", 0, "Eve", "e-token")
    for other in (1, 7):  # the computer's seat, and one that does not exist
        with pytest.raises(SeatTaken):
            storage.take_seat("r", other, "Eve", "e-token")
    (seat, *_) = storage.seats("r")
    assert seat.nickname == "Ana" and seat.token_hash == hash_token("a-token")


def test_live_rooms_are_the_unfinished_matches_active_since(storage: Storage) -> None:
    live = Playing.room(storage, "live", ESCOBA, 1)
    live.play(storage, 3)
    stale = Playing.room(storage, "stale", ESCOBA, 2)
    stale.play(storage, 1)
    Playing.room(storage, "done", QUICK, 3).finish(storage)
    date(storage, OLD, stale.match_id)
    with statements(storage) as seen:
        assert live_rooms(storage, CUTOFF) == ["live"]
    assert len(seen) == 1
    assert sorted(unfinished_rooms(storage)) == ["live", "stale"]
    date(storage, CUTOFF, stale.match_id)  # active at the very cutoff: live
    assert sorted(live_rooms(storage, CUTOFF)) == ["live", "stale"]
    assert live_rooms(storage, NOW + timedelta(hours=1)) == []


@pytest.mark.parametrize(
    "cutoff",
    [CUTOFF.astimezone(timezone(timedelta(hours=-8))), CUTOFF.replace(tzinfo=None)],
    ids=["another zone", "naive"],
)
def test_expiry_takes_the_same_instant_in_any_zone(storage: Storage, cutoff: datetime) -> None:
    """The same instant in another zone, or naive (in UTC, as SQLite hands times back)."""
    live = Playing.room(storage, "live", ESCOBA, 1)
    stale = Playing.room(storage, "stale", ESCOBA, 2)
    date(storage, CUTOFF + timedelta(minutes=1), live.match_id)
    date(storage, CUTOFF - timedelta(hours=1), stale.match_id)  # fewer hours than the zone's
    assert storage.expire(cutoff) == 1
    assert unfinished_rooms(storage) == ["live"]


def test_abandoned_rooms_expire_and_their_history_stays(storage: Storage) -> None:
    live = Playing.room(storage, "live", ESCOBA, 1)
    live.play(storage, 4)
    abandoned = Playing.room(storage, "abandoned", ESCOBA, 2)
    abandoned.play(storage, 3)
    first = Playing.room(storage, "rematch", QUICK, 3)
    first.finish(storage)
    second = Playing.rematch(storage, "rematch", 2, QUICK, 4)
    second.play(storage, 2)
    history = Playing.room(storage, "history", QUICK, 5)
    history.finish(storage)
    date(storage, OLD, abandoned.match_id, second.match_id, history.match_id)
    history_record = storage.room("history").game.record()  # type: ignore[union-attr]

    assert storage.expire(CUTOFF, batch=1) == 2  # one transaction each

    assert storage.room("abandoned") is None
    assert storage.seats("abandoned") == ()
    stored = storage.room("rematch")
    assert stored is not None and len(stored.seats) == 2
    assert stored.match.id == first.match_id  # the finished match is the room's latest again
    assert stored.game.is_over() and stored.game.record() == first.game.record()
    stored = storage.room("live")
    assert stored is not None and stored.game.record() == live.game.record()
    stored = storage.room("history")
    assert stored is not None and stored.game.record() == history_record
    assert live_rooms(storage, CUTOFF) == ["live"]
    assert unfinished_rooms(storage) == ["live"]
    gone = [abandoned.match_id, second.match_id]
    assert [storage.match_record(match_id) for match_id in gone] == [None, None]
    assert rows_of(storage, "hands", gone) == rows_of(storage, "moves", gone) == 0
    assert orphans(storage) == dict.fromkeys(ORPHANS, 0)
    finished = {match.id for match, _, _ in storage.finished_matches()}
    assert finished == {first.match_id, history.match_id}
    assert storage.expire(CUTOFF) == 0


def query_plan(storage: Storage, statement: str, parameters: Any) -> str:
    """How the database runs a statement, as text."""
    with storage.engine.connect() as connection:
        if storage.engine.dialect.name == "sqlite":
            rows = connection.exec_driver_sql(f"EXPLAIN QUERY PLAN {statement}", parameters)
            return "\n".join(str(row[-1]) for row in rows)
        connection.exec_driver_sql("ANALYZE matches")  # what a running server's tables have
        rows = connection.exec_driver_sql(f"EXPLAIN {statement}", parameters)
        return "\n".join(str(row[0]) for row in rows)


@pytest.mark.slow
def test_thirty_thousand_abandoned_rooms(storage: Storage) -> None:
    abandoned = 30_000
    rules = ESCOBA.to_dict()
    names = [f"gone{n:05}" for n in range(abandoned)]
    with storage.engine.begin() as connection:
        connection.execute(
            insert(RoomRow),
            [
                {
                    "id": name,
                    "created_at": OLD,
                    "rules": rules,
                    "players": 2,
                    "partnerships": False,
                }
                for name in names
            ],
        )
        connection.execute(
            insert(SeatRow),
            [{"room_id": name, "seat": seat, "level": None} for name in names for seat in (0, 1)],
        )
        connection.execute(
            insert(MatchRow),
            [
                {
                    "room_id": name,
                    "number": 1,
                    "seed": n,
                    "first_dealer": 0,
                    "created_at": OLD,
                    "active_at": OLD + timedelta(seconds=n),
                }
                for n, name in enumerate(names)
            ],
        )
    live = [f"live{n}" for n in range(3)]
    for n, name in enumerate(live):
        Playing.room(storage, name, ESCOBA, n).play(storage, n)
    Playing.room(storage, "done", QUICK, 9).finish(storage)

    with statements(storage) as seen:
        assert sorted(live_rooms(storage, CUTOFF)) == live
    ((statement, parameters),) = seen
    plan = query_plan(storage, statement, parameters)
    assert "ix_matches_live" in plan and "Seq Scan" not in plan and "Sort" not in plan, plan

    assert storage.expire(CUTOFF) == abandoned
    assert sorted(live_rooms(storage, CUTOFF)) == live == sorted(unfinished_rooms(storage))
    with storage.engine.connect() as connection:
        rooms = connection.scalars(select(RoomRow.id).order_by(RoomRow.id)).all()
    assert rooms == ["done", *live]
    assert orphans(storage) == dict.fromkeys(ORPHANS, 0)


# -- the replay lookup -------------------------------------------------------------------


def test_a_replay_finds_only_finished_matches_and_tells_nothing_more(storage: Storage) -> None:
    done = Playing.room(storage, "done", QUICK, 3)
    done.finish(storage)
    playing = Playing.room(storage, "playing", ESCOBA, 4)
    playing.play(storage, 2)
    found = storage.finished_match_record(done.match_id)
    assert found is not None
    match, room, record = found
    assert match.id == done.match_id and room.id == "done"
    assert Game.from_record(record).record() == done.game.record()
    assert record == storage.match_record(done.match_id)[2]  # type: ignore[index]

    assert storage.match_record(playing.match_id) is not None  # it is there, being played
    with statements(storage) as for_unknown:
        assert storage.finished_match_record(playing.match_id + 1000) is None
    with statements(storage) as for_playing:
        assert storage.finished_match_record(playing.match_id) is None
    assert [sql for sql, _ in for_unknown] == [sql for sql, _ in for_playing]
    assert len(for_unknown) == 1
    assert storage.finished_match_record(MAX_ID) is None  # the largest id is looked up

    for match_id in (0, -1, MAX_ID + 1, 2**63, 2**64, 10**30, -(2**64)):
        with statements(storage) as seen:
            assert storage.finished_match_record(match_id) is None
        assert seen == [], match_id


# -- a database that fails ---------------------------------------------------------------


def only_on_sqlite(backend: str) -> None:
    if backend != "sqlite":
        pytest.skip("the failures of a SQLite file")


FULL = "the database cannot store this now: database or disk is full"


def until_full(write: Callable[[int], object], tries: int) -> tuple[int, StorageUnavailable]:
    """Write (the nth time) until the database is full: the failed try and its error."""
    for attempt in range(tries):
        try:
            write(attempt)
        except StorageUnavailable as error:
            assert str(error) == FULL
            assert isinstance(error.__cause__, OperationalError)
            return attempt, error
    raise AssertionError(f"{tries} writes and the database is not full")


def test_a_full_disk_stores_nothing_and_keeps_what_was_stored(
    storage: Storage, database_backend: str
) -> None:
    only_on_sqlite(database_backend)
    kept = Playing.room(storage, "kept", ESCOBA, 1)
    kept.play(storage, 5)
    kept_record = kept.game.record()
    Playing.room(storage, "rematches", QUICK, 2)
    playing = Playing.room(storage, "playing", LONG, 3)
    for n in range(40):
        storage.create_room(f"seats{n:02}", Game(ESCOBA, 4, seed=n), [None] * 4, seed=n)
    with storage.engine.connect() as connection:
        pages = connection.exec_driver_sql("PRAGMA page_count").scalar()

    def no_more_pages(dbapi_connection: sqlite3.Connection, _record: object) -> None:
        dbapi_connection.execute(f"PRAGMA max_page_count = {pages}")

    event.listen(storage.engine, "connect", no_more_pages)
    storage.engine.dispose()  # every connection from now on has the limit
    last = [playing.game.record()]

    def play_one(_attempt: int) -> None:
        last[0] = playing.game.record()
        storage.write_moves([playing.write()])

    try:
        made, _ = until_full(
            lambda n: storage.create_room(
                f"full{n:04}", Game(ESCOBA, 2, seed=n), [None, "easy"], seed=n
            ),
            200,
        )
        rematched, _ = until_full(
            lambda n: storage.new_match("rematches", n + 2, Game(QUICK, 2, seed=n), n), 200
        )
        until_full(play_one, 300)
        seated, _ = until_full(
            lambda n: storage.take_seat(
                f"seats{n // 4:02}", n % 4, f"Player {n}", f"token-{n:032}"
            ),
            160,
        )
    finally:
        event.remove(storage.engine, "connect", no_more_pages)
        storage.engine.dispose()

    stored = storage.room("kept")
    assert stored is not None and stored.game.record() == kept_record
    assert storage.room(f"full{made:04}") is None
    assert all(storage.room(f"full{n:04}") is not None for n in range(made))
    stored = storage.room("rematches")
    assert stored is not None and stored.match.number == rematched + 1
    stored = storage.room("playing")
    assert stored is not None and stored.game.record() == last[0]
    assert storage.seats(f"seats{seated // 4:02}")[seated % 4].token_hash is None
    with storage.engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA integrity_check").scalar() == "ok"
    storage.create_room("after", Game(ESCOBA, 2, seed=7), [None, "easy"], seed=7)  # room again


def test_a_locked_database_is_unavailable(tmp_path: Path, database_backend: str) -> None:
    only_on_sqlite(database_backend)
    path = tmp_path / "escoba.db"
    storage = Storage(database_url(path), sqlite_timeout=0.05)
    try:
        storage.migrate()
        kept = Playing.room(storage, "kept", ESCOBA, 1)
        kept.play(storage, 2)
        kept_record = kept.game.record()
        other = sqlite3.connect(path, isolation_level=None)
        try:
            other.execute("BEGIN EXCLUSIVE")
            locked = "^the database cannot store this now: database is locked$"
            with pytest.raises(StorageUnavailable, match=locked):
                storage.create_room("late", Game(ESCOBA, 2, seed=2), [None, "easy"], seed=2)
            with pytest.raises(StorageUnavailable, match=locked):
                storage.write_moves([kept.write()])
            stored = storage.room("kept")  # reading goes on beside a writer
            assert stored is not None and stored.game.record() == kept_record
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert storage.room("late") is None
        storage.create_room("late", Game(ESCOBA, 2, seed=2), [None, "easy"], seed=2)
    finally:
        storage.close()


def test_a_corrupt_file_is_unavailable(tmp_path: Path, database_backend: str) -> None:
    only_on_sqlite(database_backend)
    path = tmp_path / "escoba.db"
    path.write_bytes(random.Random(7).randbytes(16384))
    storage = Storage(database_url(path))
    try:
        with pytest.raises(StorageUnavailable) as raised:
            storage.migrate()
        assert str(raised.value) == "the database cannot be upgraded now: file is not a database"
        with pytest.raises(StorageUnavailable, match=r"^the database cannot be read now: "):
            storage.room("any")
    finally:
        storage.close()


def test_a_database_server_gone_is_unavailable() -> None:
    pytest.importorskip("psycopg")
    storage = Storage("postgresql+psycopg://escoba@127.0.0.1:1/escoba")  # nothing listens
    try:
        with pytest.raises(StorageUnavailable, match=r"^the database cannot be upgraded now: "):
            storage.migrate()
        with pytest.raises(
            StorageUnavailable, match=r"^the database cannot be read now: "
        ) as raised:
            storage.room("any")
        assert "\n" not in str(raised.value)
        with pytest.raises(StorageUnavailable, match=r"^the database cannot store this now: "):
            storage.expire(CUTOFF)
    finally:
        storage.close()


def test_our_own_mistakes_are_not_taken_for_an_unavailable_database(storage: Storage) -> None:
    storage.create_room("room1", Game(ESCOBA, 2, seed=1), [None, "easy"], seed=1)
    with pytest.raises(IntegrityError):
        storage.create_room("room1", Game(ESCOBA, 2, seed=2), [None, "easy"], seed=2)


def test_migrating_from_0004_seats_the_merged_levels_as_hard(tmp_path: Path) -> None:
    """docs/ai.md "The ladder": ``expert`` and ``master`` were merged into ``hard``; a room
    stored with them loads with ``hard`` seats, and the other levels and people stay."""
    storage = Storage(database_url(tmp_path / "levels.db"))
    try:
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        with storage.engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "0004")
        rooms = table(
            "rooms",
            column("id"),
            column("created_at", DateTime(timezone=True)),
            column("rules", JSON),
            column("players"),
            column("partnerships"),
        )
        seats = table("seats", column("room_id"), column("seat"), column("level"))
        stored = [None, "master", "expert", "medium"]
        with storage.engine.begin() as connection:
            connection.execute(
                insert(rooms),
                {
                    "id": "r",
                    "created_at": datetime(2026, 1, 1, tzinfo=UTC),
                    "rules": {},
                    "players": 4,
                    "partnerships": False,
                },
            )
            connection.execute(
                insert(seats),
                [{"room_id": "r", "seat": n, "level": level} for n, level in enumerate(stored)],
            )
        storage.migrate()
        assert revision(storage) == head_revision()
        with storage.engine.connect() as connection:
            levels = connection.execute(select(seats.c.level).order_by(seats.c.seat)).scalars()
            assert list(levels) == [None, "hard", "hard", "medium"]
    finally:
        storage.close()
