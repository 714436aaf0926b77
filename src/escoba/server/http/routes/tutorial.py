"""The tutorial's lessons over HTTP: ``GET /api/tutorial?language=fr&deck=spanish``.

The answer holds every step of :mod:`escoba.tutorial`, its texts already in the asked language
and its cards named in the asked deck style, so that the page (``/learn``) needs only its own
few words from the ``web`` catalogue. A step to play lists every try the player can make
(each hand card with each set of table cards, by the move's text: ``"4h:7d+4c"``, the taken
cards in canonical order), each with whether the step accepts it and the explanation, as
:func:`escoba.tutorial.judge` gives them: the page checks nothing itself.

The lessons are fixed, so the answer is made once per language and deck and may be kept by the
browser. An unknown language or deck is refused with status 404 and ``{"type": "error",
"code": "unknown_language" | "unknown_deck", "message": ...}`` naming it and the choices.
"""

from __future__ import annotations

import functools
import json
from typing import Annotated, Any, Final

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse, Response

from ....cards import DECK_STYLES, Card, DeckStyle, card_name
from ....catalogue import LANGUAGES, text
from ....tutorial import (
    LESSONS,
    Step,
    every_try,
    hand_points,
    judge,
    score_rows,
    scored_text,
    side_names,
    step_text,
)
from ...protocol import ErrorMessage

__all__ = ["CACHE_CONTROL", "router", "tutorial_view"]

router = APIRouter()

CACHE_CONTROL: Final = "public, max-age=600"


def _cards(cards: tuple[Card, ...], deck: DeckStyle, language: str) -> list[dict[str, str]]:
    return [{"code": str(c), "name": card_name(c, deck, language)} for c in cards]


def _step_view(step: Step, lesson: int, deck: DeckStyle, language: str) -> dict[str, Any]:
    # Table cards in canonical order, so that a try's text joins the chosen ones in table order.
    table = tuple(sorted(step.table))
    view: dict[str, Any] = {
        "lesson": lesson,
        "kind": step.kind,
        "rules": step.preset,
        "text": step_text(step, language, deck),
        "hand": _cards(step.hand, deck, language),
        "table": _cards(table, deck, language),
    }
    if step.kind == "play":
        tries = {}
        for move in every_try(step):
            verdict = judge(step, move)
            tries[str(move)] = {
                "accepted": verdict.accepted,
                "legal": verdict.legal,
                "text": verdict.text(language, deck),
            }
        view["tries"] = tries
    if step.kind == "score":
        view["sides"] = list(side_names(language))
        view["piles"] = [_cards(tuple(sorted(pile)), deck, language) for pile in step.piles]
        view["rows"] = [
            {
                "category": row.category,
                "label": row.label,
                "shown": list(row.shown),
                "points": list(row.points),
                "scored": scored_text(row.points, language),
            }
            for row in score_rows(step, language, deck)
        ]
        view["point_label"] = text("tutorial.score.point", language)
        view["total_label"] = text("tutorial.score.total", language)
        view["points"] = list(hand_points(step))
    return view


@functools.cache
def tutorial_view(language: str, deck: DeckStyle) -> dict[str, Any]:
    """Every lesson and step in ``language`` with cards of the ``deck`` style (see above).

    >>> view = tutorial_view("en", "french")
    >>> view["steps"][1]["tries"]["4h:7d+4c"]["accepted"], len(view["lessons"])
    (True, 6)
    """
    lessons = []
    steps: list[dict[str, Any]] = []
    for number, lesson in enumerate(LESSONS):
        first = len(steps)
        steps.extend(_step_view(step, number, deck, language) for step in lesson.steps)
        lessons.append(
            {"title": text(lesson.title, language), "first": first, "steps": len(lesson.steps)}
        )
    return {"language": language, "deck": deck, "lessons": lessons, "steps": steps}


@functools.cache
def _body(language: str, deck: DeckStyle) -> bytes:
    view = tutorial_view(language, deck)
    return json.dumps(view, ensure_ascii=False, separators=(",", ":")).encode()


@router.get("/api/tutorial")
async def tutorial(
    language: Annotated[str, Query(max_length=8)] = "en",
    deck: Annotated[str, Query(max_length=8)] = "french",
) -> Response:
    """The tutorial's lessons in ``language`` (one of ``en``, ``de``, ``es``, ``it``, ``fr``,
    ``pt-BR``) with cards named in the ``deck`` style (``french``, ``spanish``, ``italian``)."""
    if language not in LANGUAGES:
        refusal = ErrorMessage(
            code="unknown_language",
            message=f"unknown language {language!r}; the tutorial is in {', '.join(LANGUAGES)}",
        )
        return JSONResponse(refusal.model_dump(), status_code=404)
    style = next((s for s in DECK_STYLES if s == deck), None)
    if style is None:
        refusal = ErrorMessage(
            code="unknown_deck",
            message=f"unknown deck {deck!r}; choose one of {', '.join(DECK_STYLES)}",
        )
        return JSONResponse(refusal.model_dump(), status_code=404)
    headers = {"Cache-Control": CACHE_CONTROL, "Content-Language": language}
    return Response(_body(language, style), media_type="application/json", headers=headers)
