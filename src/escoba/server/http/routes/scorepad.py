"""The score pad over HTTP: ``POST /api/scorepad`` adds up a pad, ``GET /api/scorepad/rules``
lists what the pad page offers (presets, the options that change scoring).

The request names a preset and option overrides, the number of sides, optional side names and
the hands as the players counted them (see :mod:`escoba.scorepad` for every field)::

    {"rules": "escoba", "options": {"target_score": 15}, "sides": 2, "names": ["Ana", "Ben"],
     "language": "es",
     "hands": [{"cards": [22, 18], "coins": [6, 4], "seven_of_coins": 0,
                "sevens_winner": 0, "sweeps": [2, 1]}]}

The answer is a :class:`ScorePadView`: per hand the points and the breakdown by category (the
names of ``escoba.CATEGORIES``), the running totals, the totals, the winner (a side index, or
null) and whether the match is over, with the category labels in the asked language. A request
that cannot be right is refused with status 422 and ``{"type": "error", "code": ...,
"message": ...}``, the message (in the asked language) naming the hand, the side and the field.
``sevens_winner`` is null for "nobody wins the category"; leaving it out is an error when the
rules have setenta or primiera. The router handles its own refusals (the app limits body sizes),
also of bodies that are not UTF-8, not JSON or nested deeper than ``MAX_JSON_DEPTH``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Annotated, Any, Final, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StrictStr, ValidationError

from ....cheatsheet import category_label, sevens_label, summary
from ....errors import RulesError
from ....messages import LANGUAGES
from ....rules import INT_OPTIONS, RULESETS, SEVENS_MODES, preset_name
from ....scorepad import NOT_GIVEN, HandEntry, ScorePad, ScorePadError, entry_fields, tally
from ....scoring import CATEGORIES, categories_in_play
from ...protocol import ErrorMessage, Language

__all__ = [
    "MAX_JSON_DEPTH",
    "SCORING_OPTIONS",
    "HandTallyView",
    "ScorePadHand",
    "ScorePadRequest",
    "ScorePadView",
    "router",
]

router = APIRouter()

MAX_HANDS: Final = 500

MAX_JSON_DEPTH: Final = 16
"""Deeper bodies are refused as ``not_json``. A pad is 4 deep (the request, its hands, a hand,
a list of counts); a limit far below Python's recursion limit means nothing after parsing (the
validation, the messages that show a value) can hit it."""

SCORING_OPTIONS: Final[tuple[str, ...]] = (
    "sevens",
    "primiera_needs_all_suits",
    "all_coins_two",
    "all_sevens_bonus",
    "big_wins",
    "re_bello",
    "napola",
    "target_score",
    "win_by",
)
"""The rule options that change a pad's points or its end (the others only change play)."""


class _Model(BaseModel):
    # A typo in a client is an error, not silently ignored.
    model_config = ConfigDict(extra="forbid")


class ScorePadHand(_Model):
    """One hand as the players counted it; the values are checked by ``escoba.scorepad``."""

    cards: Any = Field(None, description="cards each side took, 40 in all")
    coins: Any = Field(None, description="coins each side took, 10 in all")
    seven_of_coins: Any = Field(None, description="the side (from 0) that took the seven of coins")
    sweeps: Any = Field(None, description="sweeps each side made")
    sevens: Any = Field(
        None, description="sevens each side took, 4 in all (needed when the rules count sevens)"
    )
    sevens_winner: Any = Field(
        None,
        description="setenta or primiera: the side that wins it, null if nobody "
        "(must be given with those rules)",
    )
    king_of_coins: Any = Field(
        None, description="re bello: the side (from 0) that took the king of coins"
    )
    coin_runs: Any = Field(
        None, description="napola: each side's run of coins from the ace up (0 without the ace)"
    )

    def entry(self) -> HandEntry:
        winner = self.sevens_winner if "sevens_winner" in self.model_fields_set else NOT_GIVEN
        return HandEntry(
            cards=self.cards,
            coins=self.coins,
            seven_of_coins=self.seven_of_coins,
            sweeps=self.sweeps,
            sevens=self.sevens,
            sevens_winner=winner,
            king_of_coins=self.king_of_coins,
            coin_runs=self.coin_runs,
        )


class ScorePadRequest(_Model):
    """A whole pad: the rules, the sides and every hand so far."""

    rules: StrictStr = Field("escoba", description="a preset name")
    options: dict[str, Any] = Field(default_factory=dict, description="rule option overrides")
    sides: Any = Field(2, description="2 to 4 sides")
    names: Any = Field(None, description="one name per side, for the messages")
    language: Language = "en"
    hands: list[ScorePadHand] = Field(default_factory=list, max_length=MAX_HANDS)


class HandTallyView(_Model):
    number: int
    points: list[int]
    breakdown: dict[str, list[int]]
    totals: list[int]


class ScorePadView(_Model):
    """The added-up pad, with the words the page needs in the asked language."""

    type: Literal["scorepad"] = "scorepad"
    preset: str | None
    """The preset the rules equal, None for a custom set."""
    rules: dict[str, Any]
    summary: str
    sides: int
    fields: list[str]
    """The fields a hand's entry needs under these rules."""
    categories: list[str]
    """The categories that can score under these rules, in pad order
    (``escoba.scoring.categories_in_play``)."""
    labels: dict[str, str]
    """Each category's label; ``sevens`` names the rules' sevens category."""
    sevens_label: str
    hands: list[HandTallyView]
    totals: list[int]
    winner: int | None
    over: bool


def _refuse(error: ScorePadError, language: str) -> JSONResponse:
    # A message may show a client's string, and JSON allows a lone surrogate ("\ud800") in
    # one, which UTF-8 cannot encode: such a character is shown escaped instead.
    message = error.text(language).encode("utf-8", "backslashreplace").decode("utf-8")
    body = ErrorMessage(code=error.code, message=message)
    return JSONResponse(body.model_dump(), status_code=422)


def _deeper_than(data: object, limit: int) -> bool:
    """Whether lists and objects nest in ``data`` more than ``limit`` deep; walked with a
    stack of its own, as deep data would exhaust Python's."""
    waiting: list[tuple[object, int]] = [(data, 1)]
    while waiting:
        value, depth = waiting.pop()
        if isinstance(value, dict):
            inside: Iterable[object] = value.values()
        elif isinstance(value, list):
            inside = value
        else:
            continue
        if depth > limit:
            return True
        waiting.extend((item, depth + 1) for item in inside)
    return False


def _from_validation(error: ValidationError) -> ScorePadError:
    """Pydantic's first complaint as a pad error naming the hand and the field."""
    item = error.errors()[0]
    loc = list(item.get("loc", ()))
    kind = item.get("type", "")
    hand: int | None = None
    if len(loc) >= 2 and loc[0] == "hands" and isinstance(loc[1], int):
        hand = loc[1] + 1
        loc = loc[2:]
    if kind == "extra_forbidden" and loc:
        choices = ScorePadHand.model_fields if hand is not None else ScorePadRequest.model_fields
        return ScorePadError(
            "unknown_field", hand=hand, value=repr(loc[-1]), choices=", ".join(choices)
        )
    field = loc[0] if loc and loc[0] in ScorePadRequest.model_fields else None
    detail = str(item.get("msg", "invalid"))
    if field is None and hand is None:
        where = ".".join(str(part) for part in loc)
        return ScorePadError("not_json", detail=f"{where}: {detail}" if where else detail)
    return ScorePadError(
        "bad_request", hand=hand, field=str(field) if field else None, detail=detail
    )


def _view(pad: ScorePad, language: str) -> ScorePadView:
    rules = pad.rules
    return ScorePadView(
        preset=preset_name(rules),
        rules=rules.to_dict(),
        summary=summary(rules, language),
        sides=pad.sides,
        fields=list(entry_fields(rules)),
        categories=list(categories_in_play(rules)),
        labels={category: category_label(category, rules, language) for category in CATEGORIES},
        sevens_label=sevens_label(rules, language),
        hands=[
            HandTallyView(
                number=hand.number,
                points=list(hand.points),
                breakdown={name: list(column) for name, column in hand.breakdown.items()},
                totals=list(hand.totals),
            )
            for hand in pad.hands
        ],
        totals=list(pad.totals),
        winner=pad.winner,
        over=pad.over,
    )


def _language_of(data: object) -> str:
    """The asked language, read before validation so that even its refusal speaks it."""
    if isinstance(data, dict):
        asked = data.get("language")
        if isinstance(asked, str) and asked in LANGUAGES:
            return asked
    return "en"


@router.post(
    "/api/scorepad",
    response_model=ScorePadView,
    responses={422: {"model": ErrorMessage, "description": "the pad cannot be right"}},
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": ScorePadRequest.model_json_schema()}},
        }
    },
)
async def add_up(request: Request) -> JSONResponse:
    """Add up a score pad: every hand's points by category, the totals and the winner."""
    body = await request.body()  # its size is limited for every route by app.BodyLimit
    too_deep = ScorePadError("not_json", detail=f"nested more than {MAX_JSON_DEPTH} deep")
    try:
        # Strict UTF-8, as JSON between systems must be: json.loads would also take UTF-16
        # and UTF-32 and let surrogates encoded in UTF-8 through. A byte order mark is allowed.
        data = json.loads(body.decode("utf-8-sig"))
    except (ValueError, UnicodeDecodeError) as error:
        return _refuse(ScorePadError("not_json", detail=str(error)), "en")
    except RecursionError:
        # The decoder recurses once per level and gives up at Python's recursion limit.
        return _refuse(too_deep, "en")
    if _deeper_than(data, MAX_JSON_DEPTH):
        return _refuse(too_deep, "en")
    language = _language_of(data)
    if not isinstance(data, dict):
        return _refuse(ScorePadError("not_json", detail=repr(data)[:80]), language)
    try:
        asked = ScorePadRequest.model_validate(data)
    except ValidationError as error:
        return _refuse(_from_validation(error), language)
    preset = RULESETS.get(asked.rules)
    if preset is None:
        unknown = ScorePadError(
            "unknown_rules", field="rules", value=repr(asked.rules), choices=", ".join(RULESETS)
        )
        return _refuse(unknown, language)
    try:
        rules = preset.replace(**asked.options)
    except (RulesError, TypeError) as error:
        return _refuse(ScorePadError("bad_option", field="options", detail=str(error)), language)
    try:
        pad = tally(rules, asked.sides, [hand.entry() for hand in asked.hands], names=asked.names)
    except ScorePadError as error:
        return _refuse(error, language)
    return JSONResponse(_view(pad, language).model_dump())


@router.get("/api/scorepad/rules")
async def pad_rules(language: Annotated[str, Query(max_length=8)] = "en") -> JSONResponse:
    """The presets (each with its options, summary and entry fields) and the scoring options."""
    if language not in LANGUAGES:
        language = "en"
    presets = [
        {
            "name": name,
            "options": rules.to_dict(),
            "summary": summary(rules, language),
            "fields": list(entry_fields(rules)),
        }
        for name, rules in RULESETS.items()
    ]
    base = RULESETS["escoba"]
    options: list[dict[str, Any]] = []
    for name in SCORING_OPTIONS:
        value = getattr(base, name)
        if isinstance(value, bool):
            options.append({"name": name, "kind": "bool"})
        elif name == "sevens":
            options.append({"name": name, "kind": "choice", "choices": list(SEVENS_MODES)})
        else:
            lowest, highest = INT_OPTIONS[name]
            options.append({"name": name, "kind": "int", "min": lowest, "max": highest})
    return JSONResponse(
        {
            "presets": presets,
            "options": options,
            "sevens_labels": {mode: say_sevens(mode, language) for mode in SEVENS_MODES},
            "languages": list(LANGUAGES),
        }
    )


def say_sevens(mode: str, language: str) -> str:
    """The name of a sevens mode (setenta, most sevens...) in a language."""
    return sevens_label(RULESETS["escoba"].replace(sevens=mode), language)
