"""A small, fast, mutable copy of one hand for search, built from an observation and a
determinization.

It replays the hand's flow exactly as :class:`escoba.Game` does (legality from
:func:`escoba.captures.legal_keys`, a capture's effect on the table, the piles and the sweeps
from the same kernel, ``escoba._bits.capture_effect``, a new round of ``hand_cards`` each when
every hand is empty and stock is left, leftovers to the last capturer, scoring by
:func:`escoba.scoring.score_masks`), but with undo instead of events and records. The
search horizon is the hand: match points do not change inside it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Final

from .._bits import (
    COINS_MASK,
    FULL_DECK,
    KING_OF_COINS,
    SEVEN_OF_COINS,
    SEVENS_MASK,
    SIG,
    SWEPT,
    VALUE_MASK,
    capture_effect,
    signature,
    sweep_limit,
)
from ..captures import legal_keys
from ..cards import Card
from ..observation import InitialSweep, Observation, Play
from ..rules import RuleSet
from ..scoring import coin_run, score_masks
from .sampling import Determinization

__all__ = [
    "MAX_LEAVES",
    "Simulation",
    "last_capturer_of",
    "napola_expected",
    "regional_estimate",
    "search_depth",
]

_SIXES_MASK: Final = VALUE_MASK[6]
_ACES_MASK: Final = VALUE_MASK[1]

MAX_LEAVES: Final = 324
"""The most leaves an alpha-beta tree may have where hands hold more than three cards: the
largest a 3-card round makes (3·3·3·3·2·2, four seats)."""

# Undo events beside a play: a new round was dealt, or the hand ended.
_PLAY: Final = 0
_DEAL: Final = 1
_END: Final = 2


def _mask(cards: Iterable[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card.index
    return mask


def last_capturer_of(observation: Observation) -> int:
    """The seat that captured last this hand (an initial-table sweep counts), -1 if none."""
    for event in reversed(observation.history):
        if isinstance(event, Play) and event.captures:
            return event.seat
        if isinstance(event, InitialSweep):
            return event.dealer
    return -1


def _lead(diff: float, spread: float) -> float:
    """:func:`_share` between two sides, from how far ahead ``side`` is."""
    if spread <= 0.0:
        return float((diff > 0) - (diff < 0))
    return math.tanh(0.85 * diff / spread)


def _share(strengths: list[float], side: int, spread: float) -> float:
    """Expected points of ``side`` less the others' mean in a 1-point category won by the
    single strongest side, when each side's final strength is its current one plus noise of
    size ``spread`` (a logistic stand-in for the normal)."""
    if len(strengths) == 2:
        return _lead(strengths[side] - strengths[1 - side], spread)
    chances = []
    for i, mine in enumerate(strengths):
        chance = 1.0
        for j, theirs in enumerate(strengths):
            if i != j:
                if spread <= 0.0:
                    chance *= 1.0 if mine > theirs else 0.0
                else:
                    chance /= 1.0 + math.exp(-1.7 * (mine - theirs) / spread)
        chances.append(chance)
    others = (sum(chances) - chances[side]) / (len(chances) - 1)
    return chances[side] - others


_NAPOLA_CARDS: Final = 0b111  # the ace, 2 and 3 of coins


def napola_expected(pile: int, others: int) -> float:
    """A side's expected napola points from its pile, when the other sides hold ``others``:
    the run it holds (3 and up score), a little for the next coin still free, and for a run
    not yet made a share of 3 by how many of the ace, 2 and 3 of coins it holds already."""
    run = coin_run(pile)
    if run >= 3:
        return run + (0.3 if run < 10 and not others >> run & 1 else 0.0)
    if others & _NAPOLA_CARDS:
        return 0.0
    return 3.0 * 0.4 ** (3 - (pile & _NAPOLA_CARDS).bit_count())


def regional_estimate(rules: RuleSet, piles: Sequence[int], side: int) -> float:
    """What re bello and napola are worth to ``side`` less the other sides' mean, from the
    piles as they stand (0 when the rules play neither): the king of coins counts once
    taken, as the 7 of coins does; napola by :func:`napola_expected`."""
    value = 0.0
    others = len(piles) - 1
    if rules.re_bello:
        for owner, pile in enumerate(piles):
            if pile & KING_OF_COINS:
                value += 1.0 if owner == side else -1.0 / others
                break
    if rules.napola:
        captured = 0
        for pile in piles:
            captured |= pile
        expected = [napola_expected(pile, captured & ~pile) for pile in piles]
        value += expected[side] - (sum(expected) - expected[side]) / others
    return value


class Simulation:
    """One hand in play with every card placed: hands, table, stock order, piles, sweeps.

    ``apply(key)`` plays a legal key (unchecked: keys come from :meth:`legal_keys`) and
    ``undo()`` takes the last one back, so a search walks the tree without copying.
    """

    __slots__ = (
        "_ace_takes_all",
        "_deal_size",
        "_forced",
        "_hand_cards",
        "_match",
        "_regional",
        "_sweep_limit",
        "_undo",
        "dealer",
        "hands",
        "last_capturer",
        "last_event",
        "piles",
        "played",
        "players",
        "plays_per_hand",
        "rules",
        "side_of",
        "sides",
        "sig",
        "stock",
        "stock_pos",
        "sweeps",
        "table",
        "to_move",
    )

    def __init__(
        self,
        rules: RuleSet,
        *,
        players: int,
        sides: int,
        dealer: int,
        to_move: int,
        hands: list[list[int]],
        table: int,
        stock: Sequence[int],
        piles: list[int],
        sweeps: list[int],
        last_capturer: int,
        played: int,
    ) -> None:
        self.rules = rules
        self.players = players
        self.sides = sides
        self.side_of = tuple(seat % sides for seat in range(players))
        self.dealer = dealer
        self.to_move = to_move
        self.hands = hands
        self.table = table
        self.sig = signature(table)
        self.stock = stock
        self.stock_pos = 0
        self.piles = piles
        self.sweeps = sweeps
        self.last_capturer = last_capturer
        self.played = played
        self.last_event = _PLAY
        self._match = rules.capture == "match"
        self._forced = rules.forced_capture
        self._sweep_limit = sweep_limit(rules)
        self._ace_takes_all = rules.ace_takes_all
        self._hand_cards = rules.hand_cards
        self._deal_size = rules.hand_cards * players
        self.plays_per_hand = rules.plays_per_hand
        self._regional = rules.re_bello or rules.napola
        # Each applied move: key, seat, its card's place in the hand, the last capturer before
        # it, flags (swept | event << 1), leftovers taken at the end, the table and its
        # signature before it.
        self._undo: list[tuple[int, int, int, int, int, int, int, int]] = []

    @classmethod
    def from_observation(cls, observation: Observation, deal: Determinization) -> Simulation:
        """The hand as ``observation`` shows it, with the hidden cards placed as ``deal`` says."""
        if observation.to_move is None:
            raise ValueError("the match is over: there is no hand to simulate")
        played = (
            observation.rules.plays_per_hand - observation.stock_size - sum(observation.hand_sizes)
        )
        return cls(
            observation.rules,
            players=observation.players,
            sides=len(observation.sides),
            dealer=observation.dealer,
            to_move=observation.to_move,
            hands=[list(hand) for hand in deal.hands],
            table=_mask(observation.table),
            stock=list(deal.stock),
            piles=[_mask(pile) for pile in observation.captured],
            sweeps=list(observation.sweeps),
            last_capturer=last_capturer_of(observation),
            played=played,
        )

    def place(self, deal: Determinization) -> None:
        """Put another deal's hidden cards in place of this one's: the other hands and the
        stock (only while nothing is applied, so the hand is as the observation showed it)."""
        if self._undo:
            raise ValueError("cards can be placed only before any move is applied")
        self.hands = [list(hand) for hand in deal.hands]
        self.stock = deal.stock
        self.stock_pos = 0

    def plies_within(self, depth: int, leaves: int) -> int:
        """How many plies from here, at most ``depth``, a search can look while the product
        of the hand sizes along them (the leaves of its tree) stays within ``leaves``; at
        least one. Hand sizes are public, so every deal of a position gives the same."""
        sizes = [len(hand) for hand in self.hands]
        seat = self.to_move
        played = self.played
        product = 1
        plies = 0
        while plies < depth and seat >= 0 and played < self.plays_per_hand:
            if not sizes[seat]:
                sizes = [self._hand_cards] * self.players  # a new round is dealt
            product *= sizes[seat]
            if product > leaves and plies:
                break
            sizes[seat] -= 1
            seat = (seat + 1) % self.players
            played += 1
            plies += 1
        return max(plies, 1)

    # -- moves

    def legal_keys(self) -> list[int]:
        """The legal moves of the seat to move, as keys (empty once the hand is over)."""
        if self.to_move < 0:
            return []
        return legal_keys(
            self.hands[self.to_move],
            self.table,
            self.sig,
            self._match,
            self._forced,
            self._ace_takes_all,
        )

    @property
    def is_over(self) -> bool:
        """True once the hand's last card is played and the leftovers are taken."""
        return self.to_move < 0

    def apply(self, key: int) -> None:
        """Play a legal move key (not checked) and follow the hand's flow."""
        seat = self.to_move
        card = key & 63
        hand = self.hands[seat]
        index = hand.index(card)
        del hand[index]
        previous_capturer = self.last_capturer
        table = self.table
        sig = self.sig
        swept = 0
        if key >> 6:
            self.table, self.sig, gained = capture_effect(
                key, table, sig, self.played, self._sweep_limit, self._ace_takes_all
            )
            side = self.side_of[seat]
            self.piles[side] |= gained & FULL_DECK
            self.last_capturer = seat
            if gained & SWEPT:
                self.sweeps[side] += 1
                swept = 1
        else:
            self.table = table | 1 << card
            self.sig = sig + SIG[card]
        self.played += 1
        event = _PLAY
        extra = 0
        if hand or seat != self.dealer:
            self.to_move = (seat + 1) % self.players
        elif self.played < self.plays_per_hand:
            # The dealer played the round's last card: a new hand each, from the seat after.
            event = _DEAL
            n = self.players
            pos = self.stock_pos
            stock = self.stock
            size = self._hand_cards
            for i in range(1, n + 1):
                self.hands[(seat + i) % n] = sorted(stock[pos : pos + size])
                pos += size
            self.stock_pos = pos
            self.to_move = (seat + 1) % n
        else:
            event = _END
            if self.table and self.last_capturer >= 0:
                extra = self.table
                self.piles[self.side_of[self.last_capturer]] |= extra
                self.table = 0
                self.sig = 0
            self.to_move = -1
        self.last_event = event
        self._undo.append(
            (key, seat, index, previous_capturer, swept | event << 1, extra, table, sig)
        )

    def undo(self) -> None:
        """Take back the last :meth:`apply`."""
        key, seat, index, previous_capturer, flags, extra, table, sig = self._undo.pop()
        event = flags >> 1
        if event == _DEAL:
            for hand in self.hands:
                hand.clear()
            self.stock_pos -= self._deal_size
        elif event == _END and extra:
            self.piles[self.side_of[self.last_capturer]] ^= extra
        card = key & 63
        self.hands[seat].insert(index, card)
        self.to_move = seat
        self.played -= 1
        self.table = table  # the table before the move, and its signature
        self.sig = sig
        taken = key >> 6
        if taken:
            side = self.side_of[seat]
            self.piles[side] ^= taken | 1 << card
            self.last_capturer = previous_capturer
            if flags & 1:
                self.sweeps[side] -= 1
        self.last_event = self._undo[-1][4] >> 1 if self._undo else _PLAY

    def copy(self) -> Simulation:
        """An independent copy (without the undo history)."""
        other = Simulation.__new__(Simulation)
        for name in Simulation.__slots__:
            setattr(other, name, [] if name == "_undo" else getattr(self, name))
        other.hands = [list(hand) for hand in self.hands]
        other.stock = self.stock  # never changed: dealing only moves stock_pos
        other.piles = list(self.piles)
        other.sweeps = list(self.sweeps)
        return other

    # -- values

    def points(self) -> tuple[int, ...]:
        """Each side's points for the hand as it stands (the hand's score once it is over)."""
        return score_masks(self.piles, self.sweeps, self.rules)[0]

    def value(self, side: int) -> float:
        """Points of ``side`` less the mean of the other sides': exact once the hand is over,
        else :meth:`estimate`."""
        if self.to_move >= 0:
            return self.estimate(side)
        points = self.points()
        return points[side] - (sum(points) - points[side]) / (self.sides - 1)

    def estimate(self, side: int) -> float:
        """A heuristic :meth:`value` of an unfinished hand: sweeps as they stand, and for each
        card category the expected share of its point given the captured cards and how many
        of the relevant cards are still to be taken; re bello and napola by
        :func:`regional_estimate` where the rules play them."""
        if self.sides != 2:
            return self._estimate_any(side)
        # Two sides, the searches' commonest leaf: the sums of _estimate_any in the same
        # order (so the same value to the last bit), without the lists it builds.
        mine = self.piles[side]
        theirs = self.piles[1 - side]
        value = float(self.sweeps[side] - self.sweeps[1 - side])
        captured = mine | theirs
        free = ~captured
        spread = 1.5 * math.sqrt(40 - captured.bit_count())
        value += _lead(mine.bit_count() - theirs.bit_count(), spread)
        spread = 1.2 * (free & COINS_MASK).bit_count() ** 0.5
        value += _lead((mine & COINS_MASK).bit_count() - (theirs & COINS_MASK).bit_count(), spread)
        if captured & SEVEN_OF_COINS:
            value += 1.0 if mine & SEVEN_OF_COINS else -1.0
        mode = self.rules.sevens
        if mode == "sevens":
            spread = 1.2 * (free & SEVENS_MASK).bit_count() ** 0.5
            lead = float((mine & SEVENS_MASK).bit_count()) - (theirs & SEVENS_MASK).bit_count()
            value += _lead(lead, spread)
        elif mode != "none":
            spread = 0.2 + 1.2 * (free & SEVENS_MASK).bit_count() ** 0.5
            value += _lead(_primiera_strength(mine) - _primiera_strength(theirs), spread)
        if self._regional:
            value += regional_estimate(self.rules, self.piles, side)
        return value

    def _estimate_any(self, side: int) -> float:
        """:meth:`estimate` for any number of sides."""
        piles = self.piles
        sweeps = self.sweeps
        n = self.sides
        value = sweeps[side] - (sum(sweeps) - sweeps[side]) / (n - 1)
        captured = 0
        for pile in piles:
            captured |= pile
        free = ~captured
        # Cards: what is left splits between the sides in lumps; spread ~ sqrt of what is left.
        left = 40 - captured.bit_count()
        value += _share([p.bit_count() for p in piles], side, 1.5 * math.sqrt(left))
        coins_left = (free & COINS_MASK).bit_count()
        value += _share([(p & COINS_MASK).bit_count() for p in piles], side, 1.2 * coins_left**0.5)
        if captured & SEVEN_OF_COINS:
            holder = next(i for i, p in enumerate(piles) if p & SEVEN_OF_COINS)
            value += 1.0 if holder == side else -1.0 / (n - 1)
        mode = self.rules.sevens
        if mode != "none":
            # Sevens decide setenta and primiera nearly always, then sixes, then aces.
            if mode == "sevens":
                strengths = [float((p & SEVENS_MASK).bit_count()) for p in piles]
                spread = 1.2 * (free & SEVENS_MASK).bit_count() ** 0.5
            else:
                strengths = [_primiera_strength(p) for p in piles]
                spread = 0.2 + 1.2 * (free & SEVENS_MASK).bit_count() ** 0.5
            value += _share(strengths, side, spread)
        if self._regional:
            value += regional_estimate(self.rules, piles, side)
        return value


def _primiera_strength(pile: int) -> float:
    """How strong a pile is for primiera or setenta, as :meth:`Simulation.estimate` counts."""
    return (
        (pile & SEVENS_MASK).bit_count()
        + 0.3 * (pile & _SIXES_MASK).bit_count()
        + 0.1 * (pile & _ACES_MASK).bit_count()
    )


def search_depth(sim: Simulation, depth: int) -> int:
    """An alpha-beta search's ``depth`` from the position of ``sim``, cut in hands of more
    than three cards (Scopone's ten) where its tree would grow past :data:`MAX_LEAVES`:
    searched whole, ten cards a seat take half a minute a move. The 3-card games are
    searched as they always were."""
    if sim.rules.hand_cards <= 3:
        return depth
    return sim.plies_within(depth, MAX_LEAVES)
