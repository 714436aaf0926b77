"""What one seat of an OpenSpiel state may know, as strings and as named float tensors.

OpenSpiel asks for a view by an ``IIGObservationType``: with ``perfect_recall`` it is the
information state (everything the seat has seen, in order), without it the observation (the
position now). ``public_info`` adds what every seat sees; ``private_info`` adds the seat's own
cards (``SINGLE_PLAYER``) or every seat's (``ALL_PLAYERS``). Seats and sides are absolute
(seat 0 is player 0); a card's place in a 40-entry row is its index in ``DECK``.

The pieces (``dict``) and their shapes, with ``n`` players, ``s`` sides, ``k`` seats whose
cards are shown (1 or ``n``), ``P`` plays a hand (``plays_per_hand``: 36, or 40 without
first table cards) and ``R = P / (hand_cards n)`` rounds a hand (3 for Escoba with two
players, 1 for Scopone with four):

observation: ``player`` (n), ``hand`` (k, 40), ``dealer`` (n), ``to_move`` (n), ``table``
(40), ``captured`` (s, 40), ``played`` (n, 40), ``hand_sizes`` (n), ``stock_size`` (1),
``sweeps`` (s), ``last_capturer`` (n), ``totals`` (s), ``hand_number`` (1).

information state: ``player`` (n), ``dealt`` (k, R, 40: the cards dealt to the seat in each
round so far), ``dealer`` (n), ``first_table`` (40), ``plays`` (P, n + 80: for each play
of the hand so far, the seat one-hot, the card and the cards taken), ``totals`` (s),
``hand_number`` (1). In a whole-match game the tensor holds the current hand, earlier hands
by their totals; the string holds every hand.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np
import pyspiel
from numpy.typing import NDArray

from ..cards import DECK
from ..game import Game
from ..moves import Move
from ..observation import Deal, InitialSweep, Play
from .deals import rounds_per_hand
from .setup import Setup


class EscobaState(Protocol):
    """What the observer reads of a state (``escoba.openspiel.game.EscobaState``)."""

    setup: Setup
    match: Game | None
    first_dealer: int
    finished_hands: int
    dealing: bool
    tables: list[tuple[int, ...]]
    rounds: list[list[tuple[tuple[int, ...], ...]]]

    def is_terminal(self) -> bool: ...


__all__ = ["EscobaObserver"]


class EscobaObserver:
    """An OpenSpiel observer (``set_from`` fills ``tensor`` and ``dict``; ``string_from``)."""

    def __init__(self, setup: Setup, iig_obs_type: Any) -> None:
        self.setup = setup
        self.recall = bool(iig_obs_type.perfect_recall)
        self.public = bool(iig_obs_type.public_info)
        private = iig_obs_type.private_info
        self.private_all = private == pyspiel.PrivateInfoType.ALL_PLAYERS
        self.private = self.private_all or private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        n, s = setup.players, setup.sides
        rules = setup.rules
        k = n if self.private_all else 1
        pieces: list[tuple[str, tuple[int, ...]]] = [("player", (n,))]
        if self.recall:
            if self.private:
                pieces.append(("dealt", (k, rounds_per_hand(rules, n), 40)))
            if self.public:
                pieces += [
                    ("dealer", (n,)),
                    ("first_table", (40,)),
                    ("plays", (rules.plays_per_hand, n + 80)),
                    ("totals", (s,)),
                    ("hand_number", (1,)),
                ]
        else:
            if self.private:
                pieces.append(("hand", (k, 40)))
            if self.public:
                pieces += [
                    ("dealer", (n,)),
                    ("to_move", (n,)),
                    ("table", (40,)),
                    ("captured", (s, 40)),
                    ("played", (n, 40)),
                    ("hand_sizes", (n,)),
                    ("stock_size", (1,)),
                    ("sweeps", (s,)),
                    ("last_capturer", (n,)),
                    ("totals", (s,)),
                    ("hand_number", (1,)),
                ]
        size = sum(int(np.prod(shape)) for _, shape in pieces)
        self.tensor: NDArray[np.float32] = np.zeros(size, np.float32)
        self.dict: dict[str, NDArray[np.float32]] = {}
        start = 0
        for name, shape in pieces:
            length = int(np.prod(shape))
            self.dict[name] = self.tensor[start : start + length].reshape(shape)
            start += length

    def _shown(self, player: int) -> list[int]:
        """The seats whose cards this view shows."""
        if not self.private:
            return []
        return list(range(self.setup.players)) if self.private_all else [player]

    # -- tensors

    def set_from(self, state: EscobaState, player: int) -> None:
        self.tensor.fill(0)
        views = self.dict
        views["player"][player] = 1
        match = state.match
        if match is None:
            if self.public and state.first_dealer >= 0:
                views["dealer"][state.first_dealer] = 1
            return
        if self.public:
            views["totals"][:] = match.totals
            views["hand_number"][0] = state.finished_hands
        if state.dealing:
            if self.public:
                views["dealer"][match.dealer] = 1
            return
        number = len(state.tables) - 1
        history = match.history(number)
        if self.public:
            views["dealer"][_dealer_of(state, number)] = 1
        if self.recall:
            self._set_recall(state, player, history)
        else:
            self._set_position(state, player, history)

    def _set_position(self, state: EscobaState, player: int, history: tuple[Any, ...]) -> None:
        match = state.match
        assert match is not None
        views = self.dict
        live = not state.is_terminal()
        if live:
            for row, seat in enumerate(self._shown(player)):
                for card in match.hand(seat):
                    views["hand"][row, card.index] = 1
        if not self.public:
            return
        last = -1
        for event in history:
            if isinstance(event, Play):
                views["played"][event.seat, event.card.index] = 1
                if event.captures:
                    last = event.seat
            elif isinstance(event, InitialSweep):
                last = event.dealer
        if last >= 0:
            views["last_capturer"][last] = 1
        if not live:  # the hand is over: the piles as scored, nothing left to play
            result = match.results[len(state.tables) - 1]
            for side, pile in enumerate(result.piles):
                for card in pile:
                    views["captured"][side, card.index] = 1
            views["sweeps"][:] = result.sweeps
            return
        assert match.to_move is not None
        views["to_move"][match.to_move] = 1
        for card in match.table:
            views["table"][card.index] = 1
        for side, pile in enumerate(match.captured):
            for card in pile:
                views["captured"][side, card.index] = 1
        views["hand_sizes"][:] = match.hand_sizes
        views["stock_size"][0] = match.stock_size
        views["sweeps"][:] = match.sweeps

    def _set_recall(self, state: EscobaState, player: int, history: tuple[Any, ...]) -> None:
        match = state.match
        assert match is not None
        views = self.dict
        n = self.setup.players
        for row, seat in enumerate(self._shown(player)):
            for number, hands in enumerate(state.rounds[-1]):
                for index in hands[seat]:
                    views["dealt"][row, number, index] = 1
        if not self.public:
            return
        for index in state.tables[-1]:
            views["first_table"][index] = 1
        plays = views["plays"]
        i = 0
        for event in history:
            if isinstance(event, Play):
                plays[i, event.seat] = 1
                plays[i, n + event.card.index] = 1
                for card in event.captures:
                    plays[i, n + 40 + card.index] = 1
                i += 1

    # -- strings

    def string_from(self, state: EscobaState, player: int) -> str:
        parts = [f"seat {player}"]
        match = state.match
        if match is None:
            if self.public and state.first_dealer >= 0:
                parts.append(f"dealer {state.first_dealer}")
            return "; ".join(parts)
        if self.recall:
            return "\n".join([parts[0], *self._recall_lines(state, player)])
        if state.dealing:
            if self.public:
                parts.append(
                    f"hand {state.finished_hands + 1}; shuffling; totals "
                    + "-".join(map(str, match.totals))
                )
            return "; ".join(parts)
        number = len(state.tables) - 1
        live = not state.is_terminal()
        if live:
            for seat in self._shown(player):
                parts.append(f"cards of {seat}: {' '.join(map(str, match.hand(seat))) or '-'}")
        if not self.public:
            return "; ".join(parts)
        history = match.history(number)
        played = [
            " ".join(str(e.card) for e in history if isinstance(e, Play) and e.seat == seat) or "-"
            for seat in range(match.players)
        ]
        if live:
            piles, sweeps, table = match.captured, match.sweeps, match.table
        else:
            result = match.results[number]
            piles, sweeps, table = result.piles, result.sweeps, ()
        parts += [
            f"hand {number + 1}",
            f"dealer {_dealer_of(state, number)}",
            f"to move {match.to_move if live else '-'}",
            f"table {' '.join(map(str, table)) or '-'}",
            "captured " + " | ".join(" ".join(map(str, sorted(p))) or "-" for p in piles),
            "played " + " | ".join(played),
            f"stock {match.stock_size if live else 0}",
            f"sweeps {'-'.join(map(str, sweeps))}",
            f"totals {'-'.join(map(str, match.totals))}",
        ]
        return "; ".join(parts)

    def _recall_lines(self, state: EscobaState, player: int) -> list[str]:
        match = state.match
        assert match is not None
        lines = []
        shown = self._shown(player)
        for number, table in enumerate(state.tables):
            dealer = _dealer_of(state, number)
            events: list[str] = []
            if self.public:
                events.append(f"hand {number + 1}, dealer {dealer}, table {cards_text(table)}")
            for event in match.history(number):
                if isinstance(event, Deal):
                    dealt = state.rounds[number][event.round - 1]
                    own = ", ".join(f"{seat}: {cards_text(dealt[seat])}" for seat in shown)
                    events.append(f"deal {event.round}" + (f" ({own})" if own else ""))
                elif not self.public:
                    continue
                elif isinstance(event, InitialSweep):
                    events.append(f"{event.dealer} takes the table ({event.sweeps} sweeps)")
                elif isinstance(event, Play):
                    events.append(f"{event.seat} {Move(event.card, event.captures)}")
            lines.append("; ".join(events))
        if state.dealing and self.public:
            lines.append(f"hand {state.finished_hands + 1}: shuffling")
        return lines


def _dealer_of(state: EscobaState, number: int) -> int:
    """The dealer of a hand of the state's match (0-based), dealt or being played."""
    return (state.first_dealer + number) % state.setup.players


def cards_text(cards: tuple[int, ...]) -> str:
    """Card indices as their texts, in card order ("-" for none)."""
    return " ".join(str(DECK[c]) for c in sorted(cards)) or "-"
