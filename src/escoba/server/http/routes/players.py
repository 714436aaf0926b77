"""Ratings over HTTP: each game's leaderboard, a player's profile, and what a room's latest
match did to its players' ratings."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi import Path as PathParameter

from ... import profiles
from ...accounts import clean_username
from ...errors import Refusal
from ...protocol.accounts import GameName, Leaderboard, RoomRatings
from ...rooms.registry import ROOM_ID
from ..deps import Account, Accounts, Rooms, Standing, Stored, Sweeps, settings_of

__all__ = ["router"]

router = APIRouter()


def _now(request: Request) -> datetime:
    return datetime.fromtimestamp(settings_of(request).clock.wall(), UTC)


@router.get("/api/leaderboard/{game}")
async def leaderboard(
    game: GameName, request: Request, account: Account, rooms: Rooms, store: Standing
) -> Leaderboard:
    """A game's top players, the reader's own place, and the computer levels beside them."""
    reader = None if account is None else account.account_id
    board: Leaderboard = await rooms.stored(
        profiles.leaderboard, store, game, _now(request), reader
    )
    return board


@router.get("/api/players/{username}")
async def player(
    username: Annotated[str, PathParameter(max_length=200)],
    request: Request,
    account: Account,
    rooms: Rooms,
    accounts: Accounts,
    store: Standing,
    storage: Stored,
    sweeps: Sweeps,
) -> dict[str, Any]:
    """A player's profile: ratings and their history, statistics, the last matches."""
    missing = Refusal("not_found", f"there is no player {username!r}", 404)
    try:
        key = clean_username(username)[1]
    except Refusal:
        raise missing from None
    reader = None if account is None else account.account_id
    found = await rooms.stored(
        profiles.profile, accounts, store, storage, sweeps, key, reader, _now(request)
    )
    if found is None:
        raise missing
    return found


@router.get("/api/rooms/{room_id}/ratings")
async def room_ratings(
    room_id: Annotated[str, PathParameter(max_length=64)], rooms: Rooms, store: Standing
) -> RoomRatings:
    """What the room's latest match did to ratings (nothing until it ends)."""
    found = None
    if ROOM_ID.fullmatch(room_id):  # else no room's: not asked of the database
        found = await rooms.stored(profiles.room_ratings, store, room_id)
    if found is None:
        raise Refusal("not_found", f"there is no room {room_id!r}", 404)
    return found
