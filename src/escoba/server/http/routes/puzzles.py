"""Puzzles over HTTP: the next puzzle for a rating (``GET /api/puzzles/next``), one by its id
(``GET /api/puzzles/<id>``) and a try of one (``POST /api/puzzles/<id>/attempt``).

A puzzle is sent as the seat to move sees it (:mod:`escoba.puzzles`): its hand, the table,
what has been taken, the score and its legal moves; never the answer or the record, which
holds every hand and the stock. The answer comes with the outcome of a try.

Signed in, the account's puzzle rating and streak are kept: the puzzle is picked near its
rating among those it has not tried, and only a puzzle's first try changes them. Not signed in,
the browser keeps its own rating and sends it with each try, and is given it back changed.
"""

from __future__ import annotations

import re
import secrets
from datetime import UTC, datetime
from typing import Annotated, Final

from fastapi import APIRouter, Query, Request
from fastapi import Path as PathParameter

from ....cards import DeckStyle
from ....errors import EscobaError
from ....messages import move_name
from ....moves import Move
from ....puzzles import Puzzle, PuzzleRating, pick_puzzle, puzzle_by_id
from ....rules import RULESETS
from ...errors import Refusal
from ...protocol import Language, match_view
from ...protocol.puzzles import (
    PuzzleAttempt,
    PuzzleOutcome,
    PuzzlePlayer,
    PuzzleRatingValue,
    PuzzleView,
)
from ...storage.puzzles import PuzzleStanding, PuzzleStore
from ..deps import Account, Rooms, settings_of

__all__ = ["router"]

router = APIRouter()

PUZZLE_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,32}")
"""A puzzle's id as it may be written; anything else names no puzzle (and is not looked up)."""
MOST_EXCLUDED: Final = 500
"""Puzzles a browser may ask not to be given again (those seen this session)."""


def _store(request: Request) -> PuzzleStore:
    """The puzzle ratings and tries the app keeps (made with the app, :mod:`..app`)."""
    store: PuzzleStore = request.app.state.puzzles
    return store


def _player(standing: PuzzleStanding) -> PuzzlePlayer:
    rating = PuzzleRating(standing.mu, standing.sigma)
    return PuzzlePlayer(
        rating=rating.shown(),
        value=PuzzleRatingValue(mu=standing.mu, sigma=standing.sigma),
        streak=standing.streak,
        best_streak=standing.best_streak,
        solved=standing.solved,
        attempted=standing.attempted,
    )


def _new_standing() -> PuzzleStanding:
    start = PuzzleRating()
    return PuzzleStanding(start.mu, start.sigma)


def puzzle_view(puzzle: Puzzle, language: str, player: PuzzlePlayer | None) -> PuzzleView:
    """The puzzle as its player sees it: the seat to move's observation, nothing more."""
    observation = puzzle.observation()
    rules = observation.rules
    return PuzzleView(
        id=puzzle.id,
        preset=puzzle.preset,
        rules=rules.to_dict(),
        players=observation.players,
        partnerships=observation.partnerships,
        deals_per_hand=rules.deals_per_hand(observation.players),
        sides=[list(side) for side in observation.sides],
        theme=puzzle.theme,
        title=puzzle.title(language),
        rating=puzzle.rating,
        match=match_view(observation),
        player=player,
    )


def _found(puzzle_id: str) -> Puzzle:
    missing = Refusal("not_found", f"there is no puzzle {puzzle_id!r}", 404)
    if not PUZZLE_ID.fullmatch(puzzle_id):
        raise missing
    try:
        return puzzle_by_id(puzzle_id)
    except EscobaError:
        raise missing from None


@router.get("/api/puzzles/next")
async def next_puzzle(
    request: Request,
    account: Account,
    rooms: Rooms,
    rating: Annotated[float | None, Query(ge=-3000, le=6000)] = None,
    theme: Annotated[str | None, Query(max_length=32)] = None,
    preset: Annotated[str | None, Query(max_length=32)] = None,
    exclude: Annotated[str, Query(max_length=8000)] = "",
    seed: Annotated[str | None, Query(max_length=64)] = None,
    language: Language = "en",
) -> PuzzleView:
    """A puzzle near ``rating`` (signed in: by default the account's puzzle rating, and none it
    has tried), of ``theme`` and ``preset`` if given, none of ``exclude`` (ids, commas between)
    unless every one is; ``seed`` chooses among the nearest (else a random one)."""
    excluded = {part for part in exclude.split(",") if part}
    if len(excluded) > MOST_EXCLUDED:
        raise Refusal(
            "bad_request", f"exclude: at most {MOST_EXCLUDED} puzzles, not {len(excluded)}", 422
        )
    if preset is not None and preset not in RULESETS:
        raise Refusal(
            "bad_request",
            f"preset: unknown preset {preset!r}; the presets are {', '.join(RULESETS)}",
            422,
        )
    player = None
    if account is not None:
        store = _store(request)
        standing = await rooms.stored(store.standing, account.account_id)
        player = _player(standing or _new_standing())
        excluded |= await rooms.stored(store.tried, account.account_id)
        if rating is None:
            rating = player.rating
    try:
        puzzle = pick_puzzle(
            PuzzleRating().shown() if rating is None else rating,
            seed=seed if seed is not None else secrets.token_hex(8),
            theme=theme or None,
            preset=preset or None,
            exclude=excluded,
        )
    except EscobaError as error:
        raise Refusal("bad_request", str(error), 422) from None
    return puzzle_view(puzzle, language, player)


@router.get("/api/puzzles/{puzzle_id}")
async def one_puzzle(
    puzzle_id: Annotated[str, PathParameter(max_length=64)],
    request: Request,
    account: Account,
    rooms: Rooms,
    language: Language = "en",
) -> PuzzleView:
    """One puzzle by its id (a page shows it again in another language), as ``next`` gives it."""
    puzzle = _found(puzzle_id)
    player = None
    if account is not None:
        standing = await rooms.stored(_store(request).standing, account.account_id)
        player = _player(standing or _new_standing())
    return puzzle_view(puzzle, language, player)


def _move(puzzle: Puzzle, text: str) -> tuple[Move, bool]:
    """The move tried and whether it solves the puzzle; 422 naming it when it is malformed
    or not legal in the puzzle's position."""
    try:
        move = Move.parse(text)
        return move, puzzle.is_solved_by(move)
    except (EscobaError, ValueError) as error:
        raise Refusal("illegal_move", f"move {text!r}: {error}", 422) from None


@router.post("/api/puzzles/{puzzle_id}/attempt")
async def attempt(
    puzzle_id: Annotated[str, PathParameter(max_length=64)],
    tried: PuzzleAttempt,
    request: Request,
    account: Account,
    rooms: Rooms,
) -> PuzzleOutcome:
    """Try a puzzle: whether the move solves it, the answer and why, and the rating after
    (signed in: the account's, changed by its first try of this puzzle only; else the one
    sent, or a new player's)."""
    puzzle = _found(puzzle_id)
    move, solved = _move(puzzle, tried.move)
    deck: DeckStyle = tried.deck
    language = tried.language
    streak: int | None = None
    counted = True

    def rate(mu: float, sigma: float, won: bool) -> tuple[float, float]:
        after = PuzzleRating(mu, sigma).after(puzzle, won)
        return after.mu, after.sigma

    if account is None:
        given = tried.rating
        before = PuzzleRating() if given is None else PuzzleRating(given.mu, given.sigma)
        after = PuzzleRating(*rate(before.mu, before.sigma, solved))
    else:
        start = PuzzleRating()
        at = datetime.fromtimestamp(settings_of(request).clock.wall(), UTC)
        outcome = await rooms.stored(
            _store(request).attempt,
            account.account_id,
            puzzle.id,
            solved,
            rate,
            (start.mu, start.sigma),
            at,
        )
        before = PuzzleRating(outcome.before.mu, outcome.before.sigma)
        after = PuzzleRating(outcome.after.mu, outcome.after.sigma)
        streak = outcome.after.streak
        counted = outcome.counted
    answer = puzzle.move
    return PuzzleOutcome(
        solved=solved,
        move=str(move),
        answer=str(answer),
        answer_name=move_name(answer, deck, language),
        explanation=puzzle.explanation(language, deck),
        rating_before=before.shown(),
        rating_after=after.shown(),
        rating=PuzzleRatingValue(mu=after.mu, sigma=after.sigma),
        streak=streak,
        counted=counted,
    )
