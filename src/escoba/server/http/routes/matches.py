"""Finished matches: yours (found by your seat tokens, and signed in by your account) and their
statistics, the public ones, their replays, and making one public.

Finished matches are their players' own: listed and replayed for whoever presents one of their
seat tokens (in the body: addresses end up in logs) or is signed in as an account that played
them, or once made public. Whatever is not
shown is answered as an unknown match, alike and by one statement.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fastapi import APIRouter

from ....game import Game
from ....observation import Play, TakeBack
from ....records import replay
from ....rules import RuleSet, preset_name
from ... import history
from ...errors import Refusal
from ...history import PublicChoice, PublicSwitch, SeatTokens, YourMatches, token_hashes
from ...protocol import HandResultView, MatchSummary, ReplayStep, event_view, result_view
from ...rooms.registry import Registry
from ...storage.accounts import SignedIn
from ...storage.repository import Storage
from ..deps import Account, Rooms, Stored, Sweeps

__all__ = ["replay_views", "router"]

router = APIRouter()


@router.post("/api/matches/mine")
async def your_matches(
    held: SeatTokens, rooms: Rooms, storage: Stored, sweeps: Sweeps, account: Account
) -> YourMatches:
    """The finished matches in which one of the tokens holds a seat, or that the signed-in
    account played, with statistics."""
    found: YourMatches = await rooms.stored(
        history.your_matches, storage, token_hashes(held.tokens), sweeps, _id(account)
    )
    return found


@router.get("/api/matches")
async def public_matches(
    rooms: Rooms, storage: Stored, sweeps: Sweeps
) -> dict[str, list[MatchSummary]]:
    """The finished matches their players made public, newest first."""
    listed = await rooms.stored(history.public_matches, storage, sweeps)
    return {"matches": listed}


@router.get("/api/matches/{match_id}/replay")
async def public_replay(match_id: int, rooms: Rooms, storage: Stored) -> dict[str, Any]:
    """A public match, every step with every hand shown."""
    return await match_replay(
        rooms, storage, match_id, (), f"no public finished match {match_id}", None
    )


@router.post("/api/matches/{match_id}/replay")
async def your_replay(
    match_id: int, held: SeatTokens, rooms: Rooms, storage: Stored, account: Account
) -> dict[str, Any]:
    """A finished match for one of its players (by a seat token, or signed in as an account
    that played it), or for anyone once it is public."""
    missing = f"no finished match {match_id} that is public or has a seat of these tokens"
    hashes = token_hashes(held.tokens)
    return await match_replay(rooms, storage, match_id, hashes, missing, _id(account))


def _id(account: SignedIn | None) -> int | None:
    return None if account is None else account.account_id


async def match_replay(
    rooms: Registry,
    storage: Storage,
    match_id: int,
    hashes: Sequence[str],
    missing: str,
    account_id: int | None,
) -> dict[str, Any]:
    found = await rooms.stored(storage.finished_match_record, match_id, hashes, account_id)
    if found is None:
        raise Refusal("not_found", missing, 404)
    match, room, record = found
    seats = await rooms.stored(storage.seats, room.id)
    steps, results = await rooms.stored(replay_views, record)
    return {
        "match": match_id,
        "preset": preset_name(RuleSet.from_dict(room.rules)),
        "rules": room.rules,
        "players": room.players,
        "partnerships": room.partnerships,
        "deals_per_hand": RuleSet.from_dict(room.rules).deals_per_hand(room.players),
        "names": history.names(seats),
        "levels": [seat.level for seat in seats],
        "totals": steps[-1].totals,
        "winner": match.winner,
        "public": match.public,
        "results": [result.model_dump() for result in results],
        "steps": [step.model_dump() for step in steps],
    }


@router.put("/api/matches/{match_id}/public")
async def make_public(
    match_id: int, choice: PublicChoice, rooms: Rooms, storage: Stored, account: Account
) -> PublicSwitch:
    """Open a finished match to everyone, or close it again: its players only."""
    outcome = await rooms.stored(
        storage.make_public, match_id, token_hashes(choice.tokens), choice.public, _id(account)
    )
    if outcome == "unfinished":
        raise Refusal(
            "not_finished",
            f"match {match_id} is still being played: it can be made public once it ends",
            409,
        )
    if outcome != "done":
        raise Refusal("not_found", f"no finished match {match_id} with a seat of these tokens", 404)
    return PublicSwitch(match=match_id, public=choice.public)


def replay_views(record: Mapping[str, Any]) -> tuple[list[ReplayStep], list[HandResultView]]:
    """The replay page's views of a match: every position, all hands open, with the play (or
    take back) that led to it; and the match's finished hands, which each step counts rather
    than repeats."""
    steps: list[ReplayStep] = []

    def seen(game: Game, play: Play | TakeBack | None) -> None:
        steps.append(
            ReplayStep(
                hand_number=game.hand_number,
                dealer=game.dealer,
                to_move=game.to_move,
                hands=[[str(card) for card in game.hand(seat)] for seat in range(game.players)],
                table=[str(card) for card in game.table],
                stock_size=game.stock_size,
                captured=[[str(card) for card in sorted(pile)] for pile in game.captured],
                sweeps=list(game.sweeps),
                totals=list(game.totals),
                hands_scored=len(game.results),
                event=None if play is None else event_view(play),
                hand_ended=isinstance(play, Play) and play.result is not None,
            )
        )

    game = replay(record, on_move=seen)
    return steps, [result_view(result, game.rules) for result in game.results]
