"""Storage: the Alembic migration builds the ORM's schema, seat tokens are kept only as
hashes, and the stored event log (rules, seed, every deck dealt, every move) replays to the
very match that was played, after every move.

Decks and redeals: RULES.md "A hand" (2. initial-table sweeps, 3. kings redeal); the match
end: RULES.md "Winning the match".
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import count
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect

from escoba import RULESETS, Game, InitialSweep, Redeal, RuleSet
from escoba.server.storage import MIGRATIONS, Base, Storage, hash_token, token_matches
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
        game.play(move)
        known = storage.add_move(match.id, number, hand, seat, str(move), game, known)
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
        assert storage.unfinished_rooms() == []
    else:
        assert storage.unfinished_rooms() == ["room1"]


def test_a_rematch_is_the_rooms_current_match(storage: Storage) -> None:
    rules = ESCOBA.replace(target_score=1)
    game = Game(rules, 2, seed=5)
    first = storage.create_room("room1", game, [None, "easy"], seed=5)
    known, number = 1, 0
    while not game.is_over():
        hand, seat, move = game.hand_number, game.to_move, game.legal_moves()[0]
        assert seat is not None
        game.play(move)
        known = storage.add_move(first.id, number, hand, seat, str(move), game, known)
        number += 1
    assert storage.unfinished_rooms() == []
    rematch = Game(rules, 2, seed=6)
    second = storage.new_match("room1", 2, rematch, 6)
    assert storage.unfinished_rooms() == ["room1"]
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
    assert storage.unfinished_rooms() == []
    assert storage.finished_matches() == []
