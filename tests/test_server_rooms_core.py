"""A room's state and its one way to change (``escoba.server.rooms.core``), without a server:
the owner's moves, take backs and rematches and a replica's following all pass through
``RoomState.apply``, and what storage refuses is undone from a saved state."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from escoba import RULESETS, Game
from escoba.records import TAKE_BACK
from escoba.server.errors import Refusal
from escoba.server.rooms.core import (
    MoveChange,
    NewMatch,
    RoomState,
    SeatState,
    TakeBackChange,
    local_match_of,
)
from escoba.server.rooms.registry import Registry
from escoba.server.storage.repository import Storage
from escoba.server.storage.writer import MoveWriter


def room_state(levels: list[str | None], seed: int = 7) -> RoomState:
    seats = [SeatState(level) for level in levels]
    game = Game(RULESETS["escoba"], len(levels), seed=seed)
    return RoomState(seats, local_match_of(game, seats, seed), match_id=1, match_number=1)


def play_some(state: RoomState, moves: int, rng: random.Random) -> None:
    for _ in range(moves):
        seat = state.game.to_move
        assert seat is not None
        state.apply(MoveChange(seat, rng.choice(state.game.legal_moves())))


def test_a_move_is_numbered_and_a_refused_one_changes_nothing() -> None:
    state = room_state([None, None])
    rng = random.Random(1)
    play_some(state, 3, rng)
    assert state.moves_stored == 3
    seat = state.game.to_move
    assert seat is not None
    applied = state.apply(MoveChange(seat, state.game.legal_moves()[0]))
    assert applied.first == 3 and state.moves_stored == 4
    assert applied.stored == ((seat, str(state.game.record()["hands"][0]["moves"][-1])),)
    before = state.game.record()
    other = 1 - state.game.to_move  # type: ignore[operator]
    with pytest.raises(Refusal) as refused:
        state.apply(MoveChange(other, state.game.legal_moves()[0]))
    assert refused.value.code == "not_your_turn"
    assert state.game.record() == before and state.moves_stored == 4


def test_what_storage_refuses_is_undone_from_the_state_saved_before() -> None:
    """A move that ends a hand (and deals the next) is undone as exactly as any other."""
    state = room_state([None, None], seed=3)
    rng = random.Random(3)
    while len(state.game.results) == 0:
        saved = state.save()
        record, stored = state.game.record(), (state.moves_stored, state.hands_stored)
        play_some(state, 1, rng)
        state.restore(saved)
        assert state.game.record() == record
        assert (state.moves_stored, state.hands_stored) == stored
        play_some(state, 1, rng)  # and on: the restored state plays like the original


def test_a_take_back_is_numbered_move_by_move() -> None:
    """The person's last move and the computers' after it: one stored take back each."""
    state = room_state([None, "easy"])
    rng = random.Random(5)
    play_some(state, 4, rng)
    applied = state.apply(TakeBackChange(0))
    assert [text for _, text in applied.stored] == [TAKE_BACK] * len(applied.stored)
    assert applied.first == 4 and state.moves_stored == 4 + len(applied.stored)
    assert state.game.to_move == 0


def test_a_replica_follows_the_owners_changes_through_the_same_apply() -> None:
    owner, replica = room_state([None, None]), room_state([None, None])
    rng = random.Random(9)
    for _ in range(6):
        seat = owner.game.to_move
        assert seat is not None
        applied = owner.apply(MoveChange(seat, rng.choice(owner.game.legal_moves())))
        (_, text) = applied.stored[0]
        event = {"kind": "move", "match": 1, "number": applied.first, "move": text}
        assert replica.follow(event) is not None
        assert replica.follow(event) is not None  # heard again: known already, nothing done
    assert replica.game.record() == owner.game.record()
    assert replica.moves_stored == owner.moves_stored
    # a missed move, another match's event, or nonsense: the replica must read the room again
    assert replica.follow({"kind": "move", "match": 1, "number": 9, "move": "1o"}) is None
    assert replica.follow({"kind": "move", "match": 2, "number": 6, "move": "1o"}) is None
    assert replica.follow({"kind": "move", "match": 1, "number": 6, "move": "zz"}) is None
    assert replica.game.record() == owner.game.record()


def test_a_new_match_starts_counting_again() -> None:
    state = room_state([None, "easy"])
    play_some(state, 2, random.Random(2))
    game = Game(RULESETS["escoba"], 2, seed=11)
    state.apply(NewMatch(match_id=2, game=game, seed=11))
    assert (state.match_id, state.match_number, state.moves_stored) == (2, 2, 0)
    assert state.game is game


def test_the_registry_and_the_writer_are_made_without_a_running_loop(tmp_path: Path) -> None:
    """Nothing starts in a constructor: the lifespan starts them (``Registry.start``)."""
    storage = Storage(f"sqlite:///{tmp_path / 'escoba.db'}")
    try:
        registry = Registry(storage)
        writer = MoveWriter(storage)
        assert registry.rooms == {} and writer.storage is storage
    finally:
        storage.close()
