"""The JSON protocol between the browser and the server: the messages, as typed models.

Both the server and the tests build and read messages through these models; `docs/protocol.md`
describes them for client authors. Every message is a JSON object with a ``type``.

Client to server, over the room's WebSocket: ``join``, ``watch``, ``play``, ``take_back``,
``hint``, ``rematch``, ``ping``. Server to client: ``welcome``, ``state``, ``hint``, ``error``,
``pong``.
Over HTTP: room creation and joining, room info, presets, finished matches and replays, the
cheat sheet. A refusal is always an ``error`` message (over HTTP, with a 4xx status).
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, model_validator

from ...ai import FORMER_LEVELS, LEVELS, level_named
from ...cards import Card
from ...moves import Move

__all__ = [
    "CLOCK_BOUNDS",
    "MAX_MESSAGE_BYTES",
    "MAX_NICKNAME",
    "MAX_TALK",
    "PHRASES",
    "CancelSeekMessage",
    "ClaimMessage",
    "ClientMessage",
    "ClockSpec",
    "ClockView",
    "CreateRoom",
    "ErrorMessage",
    "EventView",
    "FillMessage",
    "HandResultView",
    "HintMove",
    "HintReply",
    "HintRequest",
    "JoinMessage",
    "JoinRoom",
    "Language",
    "LobbyMessage",
    "MatchEnd",
    "MatchSummary",
    "MatchView",
    "MoveView",
    "PairedMessage",
    "PingMessage",
    "PlayMessage",
    "PongMessage",
    "RematchMessage",
    "ReplaceMessage",
    "ReplayStep",
    "RoomInfo",
    "SaidMessage",
    "SayMessage",
    "SeatInfo",
    "SeatTicket",
    "SeekCancelledMessage",
    "SeekMessage",
    "SeekWaitedMessage",
    "SeekingMessage",
    "SideTallyView",
    "StateMessage",
    "TableGoneMessage",
    "TableListing",
    "TableMessage",
    "TableSeat",
    "TablesMessage",
    "TakeBackMessage",
    "TimeoutMessage",
    "WatchMessage",
    "WelcomeMessage",
    "parse_client_message",
    "parse_lobby_message",
    "parse_move",
]

MAX_MESSAGE_BYTES: Final = 4096
"""Longer WebSocket messages are refused unread."""
MAX_NICKNAME: Final = 24

SeatKind = Literal["person", "computer"]
Level = Literal["beginner", "easy", "medium", "hard"]
assert set(Level.__args__) == set(LEVELS), "protocol levels follow the registered ones"  # type: ignore[attr-defined]
RequestedLevel = Annotated[
    Literal["beginner", "easy", "medium", "hard", "expert", "master"],
    AfterValidator(level_named),
]
"""A level a client asks for: a level, or a former name (a saved link, an old page), taken as
the level it became."""
assert set(RequestedLevel.__origin__.__args__) == {*LEVELS, *FORMER_LEVELS}  # type: ignore[attr-defined]


class _Message(BaseModel):
    # Unknown fields are refused: a typo in a client is an error, not silently ignored.
    model_config = ConfigDict(extra="forbid", frozen=True)


# -- client to server


class JoinMessage(_Message):
    """Take your seat with the token from creating or joining the room."""

    type: Literal["join"]
    token: str = Field(min_length=1, max_length=128)


class WatchMessage(_Message):
    """Watch the room as a spectator: the public view only."""

    type: Literal["watch"]


class PlayMessage(_Message):
    """Play ``card`` from your hand, taking ``captures`` from the table ([] drops it)."""

    type: Literal["play"]
    card: str = Field(max_length=8)
    captures: list[Annotated[str, Field(max_length=8)]] = Field(default=[], max_length=40)


class TakeBackMessage(_Message):
    """Take back your last move of this hand and the computers' moves after it (only where
    every other seat is a computer): it is your turn again."""

    type: Literal["take_back"]


Language = Literal["en", "de", "es", "it", "fr", "pt-BR"]
"""A language of the texts: the codes of :data:`escoba.catalogue.LANGUAGES` (a test checks
they agree; a message's type must name them one by one)."""


class HintRequest(_Message):
    """Ask the coach about your moves, with reasons in ``language``."""

    type: Literal["hint"]
    language: Language = "en"
    deck: Literal["french", "spanish", "italian"] = "french"
    """The deck style the coach's sentences name cards in."""


class RematchMessage(_Message):
    """Start a new match in this room once the match is over."""

    type: Literal["rematch"]


class ReplaceMessage(_Message):
    """A computer of ``level`` takes the seat its player abandoned; the match goes on."""

    type: Literal["replace"]
    seat: int = Field(ge=0, le=3)
    level: RequestedLevel = "medium"


class ClaimMessage(_Message):
    """Claim the match: every person of the other side has abandoned it."""

    type: Literal["claim"]


class PingMessage(_Message):
    type: Literal["ping"]


PHRASES: Final = (
    "hello",
    "good_luck",
    "nice_sweep",
    "well_played",
    "oops",
    "thanks",
    "good_game",
    "one_moment",
)
"""The quick phrases of table talk, by id: each reader sees them in their own language."""
Phrase = Literal[
    "hello", "good_luck", "nice_sweep", "well_played", "oops", "thanks", "good_game", "one_moment"
]
assert Phrase.__args__ == PHRASES  # type: ignore[attr-defined]
MAX_TALK: Final = 200
"""Characters of free text one message of table talk may hold."""


class SayMessage(_Message):
    """Say something at the table: a quick phrase, or (at a private table) a line of text."""

    type: Literal["say"]
    phrase: Phrase | None = None
    text: str | None = Field(default=None, max_length=MAX_TALK)

    @model_validator(mode="after")
    def _one_thing(self) -> SayMessage:
        if (self.phrase is None) == (self.text is None):
            raise ValueError("say either a 'phrase' or a 'text'")
        return self


ClientMessage = Annotated[
    JoinMessage
    | WatchMessage
    | PlayMessage
    | TakeBackMessage
    | HintRequest
    | RematchMessage
    | PingMessage
    | SayMessage
    | ReplaceMessage
    | ClaimMessage,
    Field(discriminator="type"),
]
_CLIENT_MESSAGE: Final[TypeAdapter[ClientMessage]] = TypeAdapter(ClientMessage)


def parse_client_message(text: str | bytes) -> ClientMessage:
    """Read one client message; raise pydantic's ValidationError when it is malformed."""
    return _CLIENT_MESSAGE.validate_json(text)


# -- HTTP requests


CLOCK_BOUNDS: Final = {"per_move": (5.0, 300.0), "reserve": (0.0, 1800.0)}
"""The least and most seconds of a time control's parts."""


class ClockSpec(_Message):
    """A time control: seconds for each move, and seconds in reserve for the match."""

    per_move: float = Field(
        ge=CLOCK_BOUNDS["per_move"][0], le=CLOCK_BOUNDS["per_move"][1], allow_inf_nan=False
    )
    reserve: float = Field(
        ge=CLOCK_BOUNDS["reserve"][0], le=CLOCK_BOUNDS["reserve"][1], allow_inf_nan=False
    )


class CreateRoom(_Message):
    """Open a room: the rules, the seats, and the nickname of the person creating it."""

    rules: str = Field(default="escoba", max_length=40, description="a preset name")
    options: dict[str, int | bool | str] = Field(
        default={}, max_length=20, description="rule options over the preset"
    )
    players: int = Field(default=2, ge=2, le=4)
    partnerships: bool = False
    seats: list[Literal["person"] | RequestedLevel] = Field(
        default=["person", "medium"],
        min_length=2,
        max_length=4,
        description="one entry per seat: 'person' or a computer level",
    )
    seat: int | None = Field(
        default=None, ge=0, le=3, description="the creator's seat; default the first person seat"
    )
    nickname: str = Field(min_length=1, max_length=MAX_NICKNAME)
    listed: bool = Field(
        default=False,
        strict=True,
        description="an open table, listed in the lobby for anyone to sit at; "
        "default private, found by its link only",
    )
    watchable: bool = Field(
        default=True,
        strict=True,
        description="an open table's match may be watched from the lobby",
    )
    language: Language = Field(default="en", description="the creator's, shown in the lobby")
    clock: ClockSpec | None = Field(
        default=None, description="a time control for the person seats; default none"
    )
    rated: bool = Field(
        default=False,
        strict=True,
        description="its matches between accounts change their ratings: needs the creator "
        "signed in, an open table, a clock, a preset's rules unchanged and person seats only",
    )


class JoinRoom(_Message):
    """Take a free person seat in a room."""

    nickname: str = Field(min_length=1, max_length=MAX_NICKNAME)
    seat: int | None = Field(default=None, ge=0, le=3, description="default: the first free")


class SeatTicket(_Message):
    """The answer to creating or joining: your seat and its secret token."""

    room: str
    seat: int
    token: str
    invite: str
    """The room's invite path, ``/room/<id>``."""


# -- server to client


class SeatInfo(_Message):
    seat: int
    kind: SeatKind
    level: Level | None
    nickname: str | None
    """The person's nickname once the seat is taken (None while free; None for computers)."""
    taken: bool
    connected: bool
    """A person is connected to this seat now (always True for computer seats)."""
    abandoned: bool = False
    """Its person is gone: away longer than the grace period, or three timeouts in a row. The
    others may give the seat to a computer (``replace``) or claim the match (``claim``)."""
    account: str | None = None
    """The username of the person sitting there, when they are signed in."""


class MatchEnd(_Message):
    """A match won by abandonment: ``winner`` (side) claimed it, the other side having left."""

    reason: Literal["abandoned"]
    winner: int


class ClockView(_Message):
    """A table's clocks: its time control, each seat's reserve left and timeouts in a row,
    and the seconds left to the seat whose time runs (when this was sent)."""

    per_move: float
    reserve: float
    reserves: list[float]
    timeouts: list[int]
    turn: int | None
    left: float | None


class RoomInfo(_Message):
    id: str
    invite: str
    preset: str | None
    rules: dict[str, Any]
    players: int
    partnerships: bool
    deals_per_hand: int
    """How many times each seat is dealt in a hand: 1 when the whole deck is dealt at once
    (Scopone), so that there is never a stock."""
    sides: list[list[int]]
    seats: list[SeatInfo]
    match_number: int
    """Matches played in this room so far, counting the current one (1 for the first)."""
    match_id: int | None = None
    """The current match's id among the stored matches: its replay and analysis once it is
    finished (``/replay/<id>``)."""
    status: Literal["playing", "over"]
    listed: bool = False
    """An open table, listed in the lobby (else private: found by its link only)."""
    clock: ClockView | None = None
    """The table's time control and its seats' clocks (None: no clock)."""
    ended: MatchEnd | None = None
    """How the match ended other than by its score (claimed: the other side abandoned it)."""
    rated: bool = False
    """Its matches between accounts change their ratings (``GET /api/rooms/<id>/ratings``)."""


class TableSeat(_Message):
    """A seat of an open table, as the lobby shows it."""

    seat: int
    kind: SeatKind
    level: Level | None
    nickname: str | None
    """The person sitting there (None while free; None for computers)."""
    free: bool
    account: str | None = None
    """The username of the person sitting there, when they are signed in."""


class TableListing(_Message):
    """An open table in the lobby: one with a free seat, or a match being played there that
    may be watched (``status``)."""

    id: str
    invite: str
    """Where its room is, ``/room/<id>``: a free seat is taken through ``/api/rooms/<id>/join``."""
    preset: str
    """The preset its rules are nearest to."""
    changes: dict[str, Any]
    """The rule options where they differ from that preset, with their values."""
    rules: dict[str, Any]
    target: int
    players: int
    partnerships: bool
    seats: list[TableSeat]
    free: int
    """Person seats nobody has taken yet."""
    computers: bool
    """Whether computers sit at the table."""
    language: Language
    """Its creator's language."""
    clock: ClockSpec | None = None
    """Its time control (None: no clock)."""
    status: Literal["waiting", "playing"]
    """``waiting`` for someone to take a free seat; ``playing`` once every seat is taken."""
    rated: bool = False
    """Its matches change the ratings of the accounts playing them."""


# -- quick match, over the lobby's WebSocket


class SeekMessage(_Message):
    """Wait for others to play ``rules`` with, ``players`` in all (4: in partnerships)."""

    type: Literal["seek"]
    rules: str = Field(default="escoba", max_length=40, description="a preset name")
    players: int = Field(default=2, ge=2, le=4)
    nickname: str = Field(min_length=1, max_length=MAX_NICKNAME)
    language: Language = "en"
    rated: bool = Field(
        default=False,
        strict=True,
        description="a rated match, with other signed-in people seeking one (signed in only)",
    )


class FillMessage(_Message):
    """Stop waiting: play now, the seats nobody took filled with computers of ``level``."""

    type: Literal["fill"]
    level: RequestedLevel


class CancelSeekMessage(_Message):
    """Stop waiting, without playing."""

    type: Literal["cancel_seek"]


LobbyMessage = Annotated[
    PingMessage | SeekMessage | FillMessage | CancelSeekMessage, Field(discriminator="type")
]
_LOBBY_MESSAGE: Final[TypeAdapter[LobbyMessage]] = TypeAdapter(LobbyMessage)


def parse_lobby_message(text: str | bytes) -> LobbyMessage:
    """Read one message to the lobby's socket; pydantic's ValidationError when malformed."""
    return _LOBBY_MESSAGE.validate_json(text)


class SeekingMessage(_Message):
    """You wait for others to play with; ``wait`` seconds on, you may fill the free seats
    with computers (``seek_waited``)."""

    type: Literal["seeking"] = "seeking"
    rules: str
    players: int
    wait: float


class SeekWaitedMessage(_Message):
    """You have waited ``waited`` seconds: keep waiting, or ``fill`` the free seats."""

    type: Literal["seek_waited"] = "seek_waited"
    waited: float


class PairedMessage(_Message):
    """Your match is ready: your seat in its room (as creating or joining a room gives)."""

    type: Literal["paired"] = "paired"
    ticket: SeatTicket


class SeekCancelledMessage(_Message):
    type: Literal["seek_cancelled"] = "seek_cancelled"


class TablesMessage(_Message):
    """The lobby's open tables, sent when a lobby watcher connects."""

    type: Literal["tables"] = "tables"
    tables: list[TableListing]


class TableMessage(_Message):
    """An open table was listed, or changed."""

    type: Literal["table"] = "table"
    table: TableListing


class TableGoneMessage(_Message):
    """An open table left the lobby: finished, empty, or full and not to be watched."""

    type: Literal["table_gone"] = "table_gone"
    id: str


class MoveView(_Message):
    card: str
    captures: list[str]
    text: str
    """The engine's move text, ``4h:4c+7d`` or ``Qd``."""


class EventView(_Message):
    """A public event of the hand: ``play``, ``deal``, ``initial_sweep`` or ``redeal``; or
    ``take_back``: ``seat``'s move (``card`` taking ``captures``) was taken back."""

    kind: Literal["play", "deal", "initial_sweep", "redeal", "take_back"]
    seat: int | None = None
    card: str | None = None
    captures: list[str] = []
    sweep: bool = False
    round: int | None = None
    dealer: int | None = None
    sweeps: int = 0
    cards: list[str] = []
    """The dealer's initial sweep, or the table shown before a redeal."""


class SideTallyView(_Message):
    """What one side took in a finished hand, counted as the score counts it (its captures
    were made face up: nothing hidden)."""

    pile: list[str]
    """Every card it took, leftovers included."""
    cards: int
    coins: int
    seven_of_coins: bool
    sevens: list[str]
    best: list[str | None]
    """Its best card of each suit (coins, cups, swords, clubs; None: no card of that suit), by
    the order 7, 6, A, 5, 4, 3, 2, faces of setenta and primiera."""
    best_points: list[int]
    """Each suit's best card's primiera points (0 for a missing suit)."""
    ranked: list[str]
    """The best cards, best first: what setenta compares card by card."""
    primiera: int
    """The sum of ``best_points``."""
    complete: bool
    """It took a card of every suit."""
    sweeps: int
    king_of_coins: bool = False
    """It took the king of coins (re bello)."""
    coin_run: int = 0
    """How many coins from the ace up it took unbroken (napola scores 3 or more)."""


class HandResultView(_Message):
    dealer: int
    points: list[int]
    sweeps: list[int]
    cards: list[int]
    """Cards taken per side."""
    breakdown: dict[str, list[int]]
    """Points per side in each category (``escoba.CATEGORIES``: ``cards``, ``coins``,
    ``seven_of_coins``, ``sevens``, ``all_sevens``, ``re_bello``, ``napola``, ``sweeps``)."""
    categories: list[str]
    """The categories that can score under the hand's rules, in score-pad order
    (``escoba.scoring.categories_in_play``): the rows to show; the others are always 0."""
    sevens_mode: Literal["ranking", "sevens", "primiera", "none"]
    """The rule set's sevens category, which decides what ``tallies`` compare for it."""
    primiera_needs_all_suits: bool
    tallies: list[SideTallyView]
    """Each side's counts behind the points (``escoba.explain_hand``)."""
    leftovers: list[str]
    """The table cards that went to the last capturer when the hand ended."""
    last_capturer: int | None
    """The seat that captured last and took the leftovers (None if nobody captured)."""
    last_capturer_side: int | None


class MatchView(_Message):
    """One seat's observation (spectators: the public part of it)."""

    seat: int | None
    hand_number: int
    dealer: int
    to_move: int | None
    hand: list[str]
    """Your own cards; empty for spectators."""
    table: list[str]
    stock_size: int
    hand_sizes: list[int]
    captured: list[list[str]]
    """Each side's captured cards this hand (captures are made face up)."""
    sweeps: list[int]
    history: list[EventView]
    totals: list[int]
    results: list[HandResultView]
    legal: list[MoveView]
    """Your legal moves when you are to move, else empty."""
    over: bool
    winner: int | None


class WelcomeMessage(_Message):
    type: Literal["welcome"] = "welcome"
    seat: int | None
    """Your seat, None when watching."""
    room: RoomInfo


class StateMessage(_Message):
    """Sent on joining and after every change; ``event`` is the play (or the person's take
    back) that caused it."""

    type: Literal["state"] = "state"
    room: RoomInfo
    match: MatchView
    event: EventView | None = None
    hand_ended: bool = False
    """``event`` ended a hand: its result is the last of ``match.results``."""


class HintMove(_Message):
    move: MoveView
    gain: float
    loss: float
    text: str
    """The coach's verdict and reasons in the asked language."""


class HintReply(_Message):
    type: Literal["hint"] = "hint"
    moves: list[HintMove]
    """Every legal move, best first."""


class TimeoutMessage(_Message):
    """``seat``'s time ran out: the server played a move for it (the ``state`` that follows
    shows it); ``timeouts``: how many in a row now."""

    type: Literal["timeout"] = "timeout"
    seat: int
    timeouts: int


class SaidMessage(_Message):
    """Something said at the table, by ``seat`` (``nickname``): a quick phrase (each reader
    shows it in their own language) or a line of text, to be shown as text. ``earlier``: said
    before this connection joined (the last few are sent on joining)."""

    type: Literal["said"] = "said"
    seat: int
    nickname: str | None
    phrase: Phrase | None = None
    text: str | None = None
    earlier: bool = False


class ErrorMessage(_Message):
    type: Literal["error"] = "error"
    code: str
    message: str


class PongMessage(_Message):
    type: Literal["pong"] = "pong"


class MatchSummary(_Message):
    """A finished match in the history list."""

    id: int
    number: int
    """The match's number in its room (1, 2 after a rematch, ...); the room itself is not
    named: rooms are found by their link only."""
    preset: str | None
    rules: dict[str, Any] = {}
    """Every rule option (``preset`` is None when they equal no preset)."""
    take_backs: int = 0
    """How many moves were taken back in the match (against computers only)."""
    players: int
    partnerships: bool
    names: list[str]
    """Each seat's nickname or computer level."""
    levels: list[Level | None]
    """Each seat's computer level; None for a person."""
    totals: list[int]
    winner: int | None
    finished_at: str
    """ISO 8601, UTC."""


class ReplayStep(_Message):
    """One position of a finished match's replay, every hand open."""

    hand_number: int
    dealer: int
    to_move: int | None
    hands: list[list[str]]
    """Every seat's cards."""
    table: list[str]
    stock_size: int
    captured: list[list[str]]
    sweeps: list[int]
    totals: list[int]
    hands_scored: int
    """Hands finished by this position: the first ``hands_scored`` of the replay's
    ``results`` (sent once for the whole match, not again with every step)."""
    event: EventView | None
    """The play or take back that led here (None for the first position)."""
    hand_ended: bool


def parse_move(card: str, captures: list[str]) -> Move:
    """The Move of a play message; raise InvalidCardError naming a malformed card."""
    return Move(Card.parse(card), frozenset(Card.parse(text) for text in captures))
