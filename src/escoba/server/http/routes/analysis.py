"""Finished matches' analyses: asked for by their players (or by anyone, a public match), read
as they are worked out.

- ``POST /api/matches/{id}/analysis`` ``{"tokens": [...], "language": "en", "deck": "french"}``:
  the ``AnalysisView``, the analysis requested if there was none;
- ``GET /api/matches/{id}/analysis?language=en&deck=french``: the ``AnalysisView`` of a public
  match; it never requests one.

Access is the replay's (:mod:`.matches`): a match that is not shown to the asker is answered as
an unknown one, alike. A player's match still being played is refused as ``not_finished``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

from fastapi import APIRouter, Query, Request

from ....ai.analysis import ANALYSIS_VERSION
from ....cards import DECK_STYLES, DeckStyle
from ....messages import LANGUAGES
from ...analyses import Runner, analysis_view
from ...errors import Refusal
from ...history import AnalysisRequest, MatchId, token_hashes
from ...protocol.analysis import AnalysisView
from ...rooms.registry import Registry
from ...storage.analyses import AnalysisStore, StoredAnalysis
from ..deps import Account, Rooms, Stored

__all__ = ["router"]

router = APIRouter()


def _reading(language: str, deck: str) -> tuple[str, DeckStyle]:
    """The asked language and deck, or a refusal naming the one that is not known."""
    if language not in LANGUAGES:
        raise Refusal(
            "bad_language",
            f"unknown language {language!r}; choose one of {', '.join(LANGUAGES)}",
            status=422,
        )
    style = next((style for style in DECK_STYLES if style == deck), None)
    if style is None:
        raise Refusal(
            "bad_deck", f"unknown deck {deck!r}; choose one of {', '.join(DECK_STYLES)}", 422
        )
    return language, style


@router.post("/api/matches/{match_id}/analysis")
async def your_analysis(
    match_id: MatchId,
    asked: AnalysisRequest,
    request: Request,
    rooms: Rooms,
    storage: Stored,
    account: Account,
) -> AnalysisView:
    """A finished match's analysis for one of its players (a seat token, or signed in as an
    account that played it), or anyone once it is public: requested if there is none yet
    (or it is of an older version, or failed), and answered as it stands."""
    language, deck = _reading(asked.language, asked.deck)
    hashes = token_hashes(asked.tokens)
    account_id = None if account is None else account.account_id
    found = await rooms.stored(storage.finished_match_record, match_id, hashes, account_id)
    if found is None:
        # Only a player learns that their match is still being played.
        held = hashes or account_id is not None
        unfinished = AnalysisStore(storage).unfinished
        if held and await rooms.stored(unfinished, match_id, hashes, account_id):
            raise Refusal(
                "not_finished",
                f"match {match_id} is still being played: it can be analysed once it ends",
                409,
            )
        raise Refusal(
            "not_found",
            f"no finished match {match_id} that is public or has a seat of these tokens",
            404,
        )
    _match, room, _record = found
    store = AnalysisStore(storage)
    runner: Runner | None = request.app.state.analyses
    if runner is None:  # no analysis is made here: what is stored
        stored = await rooms.stored(store.get, match_id)
    else:
        moment = runner.clock.wall()
        stored = await rooms.stored(_request, store, match_id, moment)
        if stored is not None and stored.status == "queued":
            runner.wake()
    return await _view(rooms, match_id, room.players, stored, language, deck)


@router.get("/api/matches/{match_id}/analysis")
async def public_analysis(
    match_id: MatchId,
    rooms: Rooms,
    storage: Stored,
    language: Annotated[str, Query(max_length=8)] = "en",
    deck: Annotated[str, Query(max_length=16)] = "french",
) -> AnalysisView:
    """A public match's analysis as it stands (``none`` if nobody asked for it yet)."""
    language, style = _reading(language, deck)
    found = await rooms.stored(storage.finished_match_record, match_id, (), None)
    if found is None:
        raise Refusal("not_found", f"no public finished match {match_id}", 404)
    _match, room, _record = found
    stored = await rooms.stored(AnalysisStore(storage).get, match_id)
    return await _view(rooms, match_id, room.players, stored, language, style)


def _request(store: AnalysisStore, match_id: int, moment: float) -> StoredAnalysis:
    return store.request(match_id, ANALYSIS_VERSION, datetime.fromtimestamp(moment, UTC))


async def _view(
    rooms: Registry,
    match_id: int,
    players: int,
    stored: StoredAnalysis | None,
    language: str,
    deck: DeckStyle,
) -> AnalysisView:
    # The explanations are made off the event loop: a long match has hundreds of moves.
    view: AnalysisView = await rooms.stored(
        analysis_view, match_id, players, stored, language, deck
    )
    return view
