"""The rooms' HTTP API: the presets and options a room may have, creating a room, joining
it, its information and its cheat sheet."""

from __future__ import annotations

from typing import Annotated, Any, Final

from fastapi import APIRouter, Query

from ....ai import LEVELS
from ....ai.ratings import level_rating, rated_game
from ....cards import DECK_STYLES
from ....cheatsheet import cheat_sheet, cheat_sheet_title
from ....messages import LANGUAGES
from ....rules import (
    BOOL_OPTIONS,
    CAPTURE_MODES,
    INT_OPTIONS,
    OPTION_NAMES,
    PRESET_SEATING,
    RULESETS,
    SEVENS_MODES,
    RuleSet,
    preset_name,
)
from ...errors import Refusal
from ...protocol import CLOCK_BOUNDS, CreateRoom, JoinRoom, RoomInfo, SeatTicket
from ...rooms.clocks import CLOCK_PRESETS
from ..deps import Account, Address, Rooms

__all__ = ["router"]

router = APIRouter()

CHOICES: Final = {"capture": list(CAPTURE_MODES), "sevens": list(SEVENS_MODES)}
"""The options that take one of a few words, and the words."""


@router.get("/api/health")
async def health() -> dict[str, bool]:
    """The server answers: the pages ask, to tell their reader whether it can be reached."""
    return {"ok": True}


@router.get("/api/presets")
async def presets() -> dict[str, Any]:
    """The rule-set presets, every option with its kind, and the computer levels."""
    base = RuleSet()
    options: dict[str, Any] = {}
    for name in OPTION_NAMES:
        default = getattr(base, name)
        if name in BOOL_OPTIONS:
            options[name] = {"kind": "bool", "choices": None, "default": default}
        elif name in CHOICES:
            options[name] = {"kind": "choice", "choices": CHOICES[name], "default": default}
        else:
            lowest, highest = INT_OPTIONS[name]
            options[name] = {
                "kind": "int",
                "choices": None,
                "default": default,
                "min": lowest,
                "max": highest,
            }
    return {
        "presets": {name: rules.to_dict() for name, rules in RULESETS.items()},
        # how a preset is usually seated, where it is not 2 alone (Scopone: 4 in pairs)
        "seating": {
            name: {"players": players, "partnerships": partnerships}
            for name, (players, partnerships) in PRESET_SEATING.items()
        },
        "options": options,
        "levels": list(LEVELS),
        # the time controls the lobby offers by name, and the bounds of any other
        "clocks": {name: control.to_dict() for name, control in CLOCK_PRESETS.items()},
        "clock_bounds": {part: list(bounds) for part, bounds in CLOCK_BOUNDS.items()},
        # each level's rating, as people read it, in the presets whose game is rated
        "ratings": {name: _ratings(rules) for name, rules in RULESETS.items() if rated_game(rules)},
    }


def _ratings(rules: RuleSet) -> dict[str, int]:
    """Each level's rating in the game of ``rules``, to the nearest ten."""
    found = {level: level_rating(level, rules) for level in LEVELS}
    return {level: rating.about for level, rating in found.items() if rating is not None}


@router.post("/api/rooms", status_code=201)
async def create_room(
    request: CreateRoom, rooms: Rooms, address: Address, account: Account
) -> SeatTicket:
    """Open a room; the answer holds the creator's seat token, shown only this once. Signed
    in, the creator sits under their username, and the room may be rated."""
    return await rooms.create(request, address, account)


@router.get("/api/rooms/{room_id}")
async def room_info(room_id: str, rooms: Rooms) -> RoomInfo:
    return (await rooms.room(room_id)).info()


@router.post("/api/rooms/{room_id}/join")
async def join_room(
    room_id: str, request: JoinRoom, rooms: Rooms, address: Address, account: Account
) -> SeatTicket:
    return await rooms.join(room_id, request, account, address)


@router.get("/api/rooms/{room_id}/cheatsheet")
async def room_cheat_sheet(
    room_id: str,
    rooms: Rooms,
    language: Annotated[str, Query(max_length=8)] = "en",
    deck: Annotated[str, Query(max_length=16)] = "french",
) -> dict[str, Any]:
    """The room's rules in a language, its card values and examples in the deck shown."""
    if language not in LANGUAGES:
        raise Refusal(
            "bad_language",
            f"unknown language {language!r}; choose one of {', '.join(LANGUAGES)}",
        )
    style = next((style for style in DECK_STYLES if style == deck), None)
    if style is None:
        raise Refusal(
            "bad_deck",
            f"unknown deck {deck!r}; choose one of {', '.join(DECK_STYLES)}",
            status=422,
        )
    rules = (await rooms.room(room_id)).game.rules
    return {
        "title": cheat_sheet_title(preset_name(rules) or "custom", language),
        "sections": [
            {"title": section.title, "lines": list(section.lines)}
            for section in cheat_sheet(rules, language, style)
        ],
    }
