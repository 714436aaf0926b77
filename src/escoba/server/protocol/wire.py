"""State messages as JSON text, each shared part encoded once.

After every move each joined connection of a room is sent a ``state`` message: the room, the
match as its seat sees it, and the event that changed it. Most of that text is the same for
every seat (the room, the public view, the event), and most of the public view is the same as
after the move before (the hand's events so far, the finished hands' results). A
:class:`StateTexts` encodes what is shared once per position, and every event, legal move and
result once for as long as it is kept, so that each seat's message costs only its own part:
its seat, its hand and its legal moves, the own part of its :class:`~escoba.Observation`.

The text is exactly ``StateMessage(...).model_dump_json()`` of the same values: the models of
:mod:`escoba.server.protocol` remain the format (every part that is not a plain number or a
card's name is encoded by them), and the tests compare the two over whole matches.
"""

from __future__ import annotations

from collections.abc import Iterable
from operator import attrgetter
from typing import Any, Final

from ...cards import Card
from ...game import Game
from ...moves import Move
from ...observation import Event, PublicView, TakeBack
from ...rules import RuleSet
from ...scoring import HandResult
from .views import event_view, move_view, result_view

__all__ = ["HandHistory", "StateTexts", "event_text"]

_KEPT: Final = 8192
"""Texts kept per kind (events, moves, results): a full cache is emptied and starts again."""

_EVENTS: Final[dict[Event | TakeBack, str]] = {}
_MOVES: Final[dict[int, str]] = {}
_RESULTS: Final[dict[int, tuple[HandResult, RuleSet, str]]] = {}


def _keep(kept: dict[Any, Any]) -> None:
    if len(kept) >= _KEPT:
        kept.clear()


def event_text(event: Event | TakeBack) -> str:
    """``event_view(event)`` as JSON. Equal events have equal views (a view is made of the
    fields that events are compared by), so one text serves them all."""
    text = _EVENTS.get(event)
    if text is None:
        _keep(_EVENTS)
        text = _EVENTS[event] = event_view(event).model_dump_json()
    return text


def _move_text(move: Move) -> str:
    text = _MOVES.get(move.key)
    if text is None:
        _keep(_MOVES)
        text = _MOVES[move.key] = move_view(move).model_dump_json()
    return text


def _result_text(result: HandResult, rules: RuleSet) -> str:
    # The entry holds the result itself, so its id cannot be reused while it is kept.
    kept = _RESULTS.get(id(result))
    if kept is not None and kept[0] is result and (kept[1] is rules or kept[1] == rules):
        return kept[2]
    _keep(_RESULTS)
    text = result_view(result, rules).model_dump_json()
    _RESULTS[id(result)] = (result, rules, text)
    return text


# Plain values as pydantic writes them. A card's name is letters and digits ("7d", "Kh"):
# nothing in it is ever escaped.


def _number(value: int | None) -> str:
    return "null" if value is None else str(value)


def _flag(value: bool) -> str:
    return "true" if value else "false"


def _numbers(values: Iterable[int]) -> str:
    return "[" + ",".join(map(str, values)) + "]"


def _cards(cards: Iterable[Card]) -> str:
    names = '","'.join(map(str, cards))
    return f'["{names}"]' if names else "[]"


_ORDER: Final = attrgetter("index")
"""Cards' order (``Card.__lt__``: by index), read without calling it for every comparison."""


def _pile(cards: Iterable[Card]) -> str:
    """Cards in their order, as the protocol lists a set of cards."""
    return _cards(sorted(cards, key=_ORDER))


def _texts(texts: Iterable[str]) -> str:
    return "[" + ",".join(texts) + "]"


class HandHistory:
    """The JSON of a room's current hand's events (``PublicView.history``). Each position's
    history is the one before it and the events of the move, so the texts of the last one
    are kept and only the new events are looked up; anything else (a take back, a new hand)
    starts again."""

    __slots__ = ("_events", "_texts")

    def __init__(self) -> None:
        self._events: tuple[Event, ...] = ()
        self._texts: list[str] = []

    def text(self, events: tuple[Event, ...]) -> str:
        known = len(self._events)
        if len(events) < known or events[:known] != self._events:
            known = 0
            self._texts = []
        self._texts += map(event_text, events[known:])
        self._events = events
        return _texts(self._texts)


class StateTexts:
    """The ``state`` messages of one position of a room: ``room`` (its ``RoomInfo`` as
    JSON), the match's public ``view`` (``Game.public_view()``, or an observation's
    ``public``), and the ``event`` that led to it (its text, from :func:`event_text`; None
    when nothing was played); ``history``, the room's, if it keeps one. Each seat's message
    adds that seat's own part of its observation of the same position; a spectator's holds
    no seat part."""

    __slots__ = ("_after_hand", "_after_seat", "_head", "_tail")

    def __init__(
        self,
        room: str,
        view: PublicView,
        event: str | None,
        hand_ended: bool,
        history: HandHistory | None = None,
    ) -> None:
        rules = view.rules
        history = HandHistory() if history is None else history
        # MatchView's fields in their order: the seat's own ones (seat, hand, legal) are
        # filled in between the shared parts.
        self._head = '{"type":"state","room":' + room + ',"match":{"seat":'
        self._after_seat = (
            f',"hand_number":{view.hand_number},"dealer":{view.dealer}'
            f',"to_move":{_number(view.to_move)},"hand":'
        )
        self._after_hand = (
            f',"table":{_cards(view.table)},"stock_size":{view.stock_size}'
            f',"hand_sizes":{_numbers(view.hand_sizes)}'
            f',"captured":{_texts(map(_pile, view.captured))}'
            f',"sweeps":{_numbers(view.sweeps)}'
            f',"history":{history.text(view.history)}'
            f',"totals":{_numbers(view.totals)}'
            f',"results":{_texts(_result_text(result, rules) for result in view.results)}'
            ',"legal":'
        )
        self._tail = (
            f',"over":{_flag(view.winner is not None)},"winner":{_number(view.winner)}}}'
            f',"event":{"null" if event is None else event}'
            f',"hand_ended":{_flag(hand_ended)}}}'
        )

    def seat(self, game: Game, seat: int) -> str:
        """The message to ``seat`` of ``game`` (at this position): the public view and the
        seat's own part of its observation, its hand and, on its turn, its legal moves
        (``game.observation(seat)``'s ``hand`` and ``legal_moves``, without making its
        public part again)."""
        legal = game.legal_moves() if seat == game.to_move else ()
        return (
            self._head
            + str(seat)
            + self._after_seat
            + _cards(game.hand(seat))
            + self._after_hand
            + _texts(map(_move_text, legal))
            + self._tail
        )

    def spectator(self) -> str:
        """The message to a spectator: the public view alone."""
        return self._head + "null" + self._after_seat + "[]" + self._after_hand + "[]" + self._tail
