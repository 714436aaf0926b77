"""What may be known of a match: the public events of a hand, the public view (what
everybody at the table sees) and a seat's observation (the public view and its own part)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Final, Literal

from .cards import DECK, Card
from .moves import Move
from .rules import RuleSet
from .scoring import HandResult

__all__ = [
    "Deal",
    "Event",
    "InitialSweep",
    "Observation",
    "Play",
    "PublicView",
    "Redeal",
    "TakeBack",
]


@dataclass(frozen=True, slots=True)
class Play:
    """A seat played a card face up and took ``captures`` (empty for a drop)."""

    seat: int
    card: Card
    captures: frozenset[Card]
    sweep: bool
    """True if the capture emptied the table and scores as a sweep."""
    kind: Literal["play"] = "play"
    # What followed the move by itself. Set on the value Game.play() and Game.play_key()
    # return; history() lists those as events of their own, so it leaves them unset. They
    # take no part in comparisons: a returned play equals its entry in the history.
    deal: Deal | None = field(default=None, compare=False)
    """The next round of three cards each, if the move emptied the last hand of a round."""
    result: HandResult | None = field(default=None, compare=False)
    """The finished hand, if the move was its last."""
    next_hand: tuple[Event, ...] = field(default=(), compare=False)
    """The events opening the next hand (redeals, its first deal, an initial sweep), if the
    move ended a hand and the match goes on."""
    winner: int | None = field(default=None, compare=False)
    """The side that won the match, if the move ended it."""

    @property
    def move(self) -> Move:
        return Move(self.card, self.captures)

    def __repr__(self) -> str:
        # What followed is shown only when there is some: most plays are just a play.
        shown = [
            f"seat={self.seat!r}, card={self.card!r}, captures={self.captures!r}, "
            f"sweep={self.sweep!r}, kind={self.kind!r}"
        ]
        for name in ("deal", "result", "next_hand", "winner"):
            value = getattr(self, name)
            if value is not None and value != ():
                shown.append(f"{name}={value!r}")
        return f"Play({', '.join(shown)})"


@dataclass(frozen=True, slots=True)
class Deal:
    """Each seat received three cards (round 1 is the deal that opens the hand)."""

    round: int
    kind: Literal["deal"] = "deal"


@dataclass(frozen=True, slots=True)
class InitialSweep:
    """The first four table cards summed to 15 or 30: the dealer took them for 1 or 2 sweeps."""

    dealer: int
    cards: frozenset[Card]
    sweeps: int
    kind: Literal["initial_sweep"] = "initial_sweep"


@dataclass(frozen=True, slots=True)
class Redeal:
    """Three or more kings among the first four table cards (shown here): dealt again."""

    table: tuple[Card, ...]
    kind: Literal["redeal"] = "redeal"


Event = Play | Deal | InitialSweep | Redeal


@dataclass(frozen=True, slots=True)
class TakeBack:
    """A seat's last move was taken back: the hand is again as it was before ``move``.

    The record keeps the move and its take back; a hand's history holds neither, as the
    position holds no trace of them."""

    seat: int
    move: Move
    kind: Literal["take_back"] = "take_back"


@dataclass(frozen=True, slots=True)
class PublicView:
    """What everybody at the table sees of a match, and nothing more: what a spectator is
    shown (:meth:`escoba.Game.public_view`). It has no seat, no hand and no legal moves, so
    no seat's private knowledge can reach whoever is given one.

    An :class:`Observation` is a public view with one seat's own part added, so the public
    fields are defined here once, for both.

    >>> from escoba import RULESETS, Game
    >>> game = Game(RULESETS["escoba"], players=2, seed=7)
    >>> view = game.public_view()
    >>> view.hand_sizes, view.stock_size, len(view.table), view.to_move == game.to_move
    ((3, 3), 30, 4, True)
    >>> hasattr(view, "hand"), game.observation(0).public == view
    (False, True)
    """

    rules: RuleSet
    players: int
    partnerships: bool
    sides: tuple[tuple[int, ...], ...]
    hand_number: int
    """Hands finished before this one (0 in the first hand)."""
    dealer: int
    to_move: int | None
    table: tuple[Card, ...]
    stock_size: int
    hand_sizes: tuple[int, ...]
    """Number of cards in every seat's hand."""
    captured: tuple[frozenset[Card], ...]
    """Each side's captured cards this hand (captures are made face up)."""
    sweeps: tuple[int, ...]
    """Each side's sweeps this hand."""
    history: tuple[Event, ...]
    """The public events of this hand, in order."""
    totals: tuple[int, ...]
    results: tuple[HandResult, ...]
    winner: int | None


_PUBLIC_FIELDS: Final = tuple(public.name for public in fields(PublicView))


@dataclass(frozen=True, slots=True)
class Observation(PublicView):
    """Everything one seat may know, and nothing more: the public view of the match and the
    seat's own part (its seat, its hand, its legal moves); never another seat's cards or the
    stock's order."""

    seat: int
    hand: tuple[Card, ...]
    """This seat's own cards."""
    legal_moves: tuple[Move, ...]
    """This seat's legal moves if it is to move, else empty."""

    @property
    def public(self) -> PublicView:
        """The public part of this observation: what every seat, and a spectator, sees."""
        return PublicView(*(getattr(self, name) for name in _PUBLIC_FIELDS))

    @property
    def side(self) -> int:
        """The side this seat plays for."""
        for index, seats in enumerate(self.sides):
            if self.seat in seats:
                return index
        raise AssertionError("every seat belongs to a side")

    @property
    def unseen(self) -> frozenset[Card]:
        """Cards this seat has not seen this hand: the other hands and the stock."""
        seen = set(self.hand) | set(self.table)
        for pile in self.captured:
            seen |= pile
        return frozenset(card for card in DECK if card not in seen)
