"""The views of the protocol built from the engine's values: a move, an event, a hand's
result with its explanation, and a match as a seat (its observation) or a spectator (the
engine's public view) sees it."""

from __future__ import annotations

import threading
from typing import Any, Final

from ...explanation import SideTally, explain_hand
from ...moves import Move
from ...observation import (
    Deal,
    Event,
    InitialSweep,
    Observation,
    Play,
    PublicView,
    Redeal,
    TakeBack,
)
from ...rules import RuleSet
from ...scoring import HandResult, categories_in_play
from .messages import EventView, HandResultView, MatchView, MoveView, SideTallyView

__all__ = ["event_view", "match_view", "move_view", "result_view"]


def _cards(cards: Any) -> list[str]:
    return [str(card) for card in sorted(cards)]


def move_view(move: Move) -> MoveView:
    return MoveView(card=str(move.card), captures=_cards(move.captures), text=str(move))


def event_view(event: Event | TakeBack) -> EventView:
    if isinstance(event, TakeBack):
        return EventView(
            kind="take_back",
            seat=event.seat,
            card=str(event.move.card),
            captures=_cards(event.move.captures),
        )
    if isinstance(event, Play):
        return EventView(
            kind="play",
            seat=event.seat,
            card=str(event.card),
            captures=_cards(event.captures),
            sweep=event.sweep,
        )
    if isinstance(event, Deal):
        return EventView(kind="deal", round=event.round)
    if isinstance(event, InitialSweep):
        return EventView(
            kind="initial_sweep",
            dealer=event.dealer,
            cards=_cards(event.cards),
            sweeps=event.sweeps,
        )
    assert isinstance(event, Redeal)
    return EventView(kind="redeal", cards=[str(card) for card in event.table])


def _tally_view(tally: SideTally) -> SideTallyView:
    return SideTallyView(
        pile=[str(card) for card in tally.pile],
        cards=tally.cards,
        coins=tally.coins,
        seven_of_coins=tally.seven_of_coins,
        sevens=[str(card) for card in tally.sevens],
        best=[None if card is None else str(card) for card in tally.best],
        best_points=list(tally.best_points),
        ranked=[str(card) for card in tally.ranked_best],
        primiera=tally.primiera,
        complete=tally.complete,
        sweeps=tally.sweeps,
        king_of_coins=tally.king_of_coins,
        coin_run=tally.coin_run,
    )


_RESULT_VIEWS: Final[dict[int, tuple[HandResult, RuleSet, HandResultView]]] = {}
_RESULT_VIEWS_KEPT: Final = 4096
_RESULT_VIEWS_LOCK: Final = threading.Lock()


def result_view(result: HandResult, rules: RuleSet) -> HandResultView:
    """A finished hand's result, explained under the ``rules`` it was played with."""
    # Every state message carries every finished hand: each is explained once. The entry holds
    # the result itself, so its id cannot be reused while it is kept.
    kept = _RESULT_VIEWS.get(id(result))
    if kept is not None and kept[0] is result and kept[1] == rules:
        return kept[2]
    view = _explained_view(result, rules)
    with _RESULT_VIEWS_LOCK:  # replays are built in worker threads
        if len(_RESULT_VIEWS) >= _RESULT_VIEWS_KEPT:
            _RESULT_VIEWS.pop(next(iter(_RESULT_VIEWS)))
        _RESULT_VIEWS[id(result)] = (result, rules, view)
    return view


def _explained_view(result: HandResult, rules: RuleSet) -> HandResultView:
    why = explain_hand(result, rules)
    return HandResultView(
        dealer=result.dealer,
        points=list(result.points),
        sweeps=list(result.sweeps),
        cards=[len(pile) for pile in result.piles],
        breakdown={name: list(points) for name, points in result.breakdown.items()},
        categories=list(categories_in_play(rules)),
        sevens_mode=why.sevens_mode,
        primiera_needs_all_suits=why.primiera_needs_all_suits,
        tallies=[_tally_view(tally) for tally in why.sides],
        leftovers=[str(card) for card in why.leftovers],
        last_capturer=why.last_capturer,
        last_capturer_side=why.last_capturer_side,
    )


def match_view(view: Observation | PublicView) -> MatchView:
    """The view sent to a seat (its :class:`Observation`) or to a spectator (the engine's
    :class:`PublicView`, ``Game.public_view()``). A spectator's view is built from a
    PublicView, which has no seat, hand or legal moves: none can reach it."""
    if isinstance(view, Observation):
        return _match_view(
            view,
            seat=view.seat,
            hand=[str(card) for card in view.hand],
            legal=[move_view(move) for move in view.legal_moves],
        )
    return _match_view(view)


def _match_view(
    view: PublicView,
    *,
    seat: int | None = None,
    hand: list[str] | None = None,
    legal: list[MoveView] | None = None,
) -> MatchView:
    """A MatchView of the public fields of ``view`` and, for a seat, its own part."""
    return MatchView(
        seat=seat,
        hand_number=view.hand_number,
        dealer=view.dealer,
        to_move=view.to_move,
        hand=hand or [],
        table=[str(card) for card in view.table],
        stock_size=view.stock_size,
        hand_sizes=list(view.hand_sizes),
        captured=[_cards(pile) for pile in view.captured],
        sweeps=list(view.sweeps),
        history=[event_view(event) for event in view.history],
        totals=list(view.totals),
        results=[result_view(result, view.rules) for result in view.results],
        legal=legal or [],
        over=view.winner is not None,
        winner=view.winner,
    )
