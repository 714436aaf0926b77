"""Inference about the other hands from how their seats played this round.

Every seat is dealt its hand a round at a time (three cards, or the whole hand at once in
Scopone), so the cards another seat still holds were in its hand when it played earlier in
the round, and its choices then say something about them: a seat that left a sweep on the
table most likely did not hold the sweeping card. With a model
of play (:class:`~escoba.ai.policy.PlayModel`), the likelihood of a guess ``H`` at a seat's
remaining cards is the product, over its plays this round, of the chance that a hand of the
cards it held then (the played card, its later plays, and ``H``) chose what it chose.
Because the model's move weights belong to single cards, that chance is one over a sum of
per-card masses, and every guess of a few cards can be weighed exactly.

:class:`Beliefs` deals the unseen cards with those weights: for two players exactly; with
more, each seat's hand is drawn from its own weights, again if it clashes with a hand drawn
before (a close approximation), and uniformly from the cards left after many clashes. Where
the whole hand is dealt at once (Scopone's nine or ten cards), a seat has far too many
possible hands to weigh one by one, and a chain of deals (:class:`_DealChain`) draws them in
proportion to the likelihood of every seat's plays of the hand.
Nothing is ever dealt that the observing seat has seen: its hand, the table, the captured
piles and every played card.
"""

from __future__ import annotations

import random
from bisect import bisect
from dataclasses import dataclass
from itertools import accumulate, combinations
from math import comb

from .._bits import FULL_DECK, indices
from ..cards import mask_of
from ..observation import Deal, Observation, Play
from .policy import PlayModel, Position
from .sampling import Determinization, seen_mask

__all__ = ["Beliefs", "SeatEvidence", "round_evidence"]

_LONG_HAND = 3
"""Hands of more cards than this (Scopone's nine or ten, dealt at once) are weighed by
:class:`_DealChain`; the 3-card games' hands, each on its own and exactly."""
_CHAIN_BURN = 400
"""Swaps tried before a chain's first deal, from a uniform one."""
_CHAIN_STEPS = 8
"""Swaps tried between two deals a chain gives."""
_MAX_GUESSES = 5000
"""Above this many possible hands a seat's evidence is not weighed (never reached with 3-card
rounds, where a seat that has played this round holds at most two cards; with 10-card hands
only late in the hand)."""


@dataclass(frozen=True, slots=True)
class SeatEvidence:
    """A seat's plays this round, as the masses its choices are weighed with."""

    seat: int
    known: tuple[float, ...]
    """Per play: the summed card masses of the cards we know it held then (the played card
    and the cards it played later this round)."""
    masses: tuple[dict[int, float], ...]
    """Per play: the mass of each card it might still hold (card index -> mass)."""

    def likelihood(self, guess: tuple[int, ...]) -> float:
        """The likelihood (up to a constant) that the seat holds ``guess`` now."""
        result = 1.0
        for known, masses in zip(self.known, self.masses, strict=True):
            total = known
            for card in guess:
                total += masses[card]
            result /= total
        return result


def round_evidence(
    observation: Observation, model: PlayModel, most: int | None = _MAX_GUESSES
) -> list[SeatEvidence]:
    """The evidence of every other seat that has played this round and still holds cards,
    with at most ``most`` possible hands (None: whatever their number; the others' evidence
    is not worked out)."""
    history = observation.history
    start = 0
    for i, event in enumerate(history):
        if isinstance(event, Deal):
            start = i + 1
    round_plays = [e for e in history[start:] if isinstance(e, Play)]
    plays_before = sum(isinstance(e, Play) for e in history) - len(round_plays)
    # The table and the cards in sight before each play of the round, walking back from now.
    table = mask_of(observation.table)
    visible = table
    for pile in observation.captured:
        visible |= mask_of(pile)
    before: list[tuple[int, int]] = []
    for play in reversed(round_plays):
        bit = play.card.bit
        table = table | mask_of(play.captures) if play.captures else table & ~bit
        visible &= ~bit
        before.append((table, visible))
    before.reverse()
    players = observation.players
    rules = observation.rules
    plays_per_hand = rules.plays_per_hand
    hand_cards = rules.hand_cards
    round_size = hand_cards * players
    sizes = observation.hand_sizes
    candidates = indices(FULL_DECK & ~seen_mask(observation))
    found: list[SeatEvidence] = []
    for seat in range(players):
        if seat == observation.seat or sizes[seat] == 0:
            continue
        if most is not None and comb(len(candidates), sizes[seat]) > most:
            continue
        mine = [j for j, play in enumerate(round_plays) if play.seat == seat]
        if not mine:
            continue
        known: list[float] = []
        masses: list[dict[int, float]] = []
        for j in mine:
            held = [round_plays[k].card.index for k in mine if k >= j]
            table, visible = before[j]
            unseen = FULL_DECK & ~visible & ~sum(1 << card for card in held)
            plays_after = plays_per_hand - (plays_before + j + 1)
            if j < round_size - 1:
                next_hand = hand_cards - (j + 1) // players
            else:
                next_hand = hand_cards if plays_after > 0 else 0
            position = Position(rules, table, unseen, plays_after, next_hand)
            known.append(sum(model.card_mass(position, card) for card in held))
            masses.append({card: model.card_mass(position, card) for card in candidates})
        found.append(SeatEvidence(seat, tuple(known), tuple(masses)))
    return found


class Beliefs:
    """Deals of the cards a seat has not seen, weighted by what the other seats' plays this
    round say about their hands (uniform where they say nothing, or with no model). In hands
    dealt whole (Scopone) a chain of deals weighs every play of the hand; with
    ``whole_hand=False``, only the hands of seats down to their last few cards are weighed."""

    def __init__(
        self, observation: Observation, model: PlayModel | None = None, *, whole_hand: bool = True
    ) -> None:
        self.observation = observation
        self.pool = indices(FULL_DECK & ~seen_mask(observation))
        self.sizes = observation.hand_sizes
        self.seat = observation.seat
        needed = sum(size for s, size in enumerate(self.sizes) if s != self.seat)
        if needed + observation.stock_size != len(self.pool):
            raise ValueError(
                f"observation of seat {self.seat} is inconsistent: {len(self.pool)} unseen "
                f"cards for {needed} in other hands and {observation.stock_size} in the stock"
            )
        self.own = tuple(sorted(card.index for card in observation.hand))
        # Per seat with evidence: its possible hands and their cumulative weights.
        self.guesses: dict[int, tuple[list[tuple[int, ...]], list[float]]] = {}
        # The same guesses as card masks, to check them against each other quickly.
        self._masks: dict[int, list[int]] = {}
        self._chain: _DealChain | None = None
        if model is None:
            return
        if whole_hand and observation.rules.hand_cards > _LONG_HAND:
            # A whole hand dealt at once: too many possible hands to weigh one by one until
            # its last plays, so a chain of deals weighs them all together.
            seen = round_evidence(observation, model, most=None)
            if seen:
                self._chain = _DealChain(self.pool, self.sizes, self.seat, seen)
            return
        for evidence in round_evidence(observation, model):
            guesses = list(combinations(self.pool, self.sizes[evidence.seat]))
            weights = [evidence.likelihood(guess) for guess in guesses]
            self.guesses[evidence.seat] = (guesses, list(accumulate(weights)))
            self._masks[evidence.seat] = [sum(1 << card for card in guess) for guess in guesses]

    @property
    def weighed(self) -> bool:
        """Whether any other seat's plays weigh the deals (else they are uniform)."""
        return bool(self.guesses) or self._chain is not None

    def hand_chances(self, seat: int) -> dict[int, float]:
        """The chance of each unseen card (index) being in ``seat``'s hand, from that seat's
        own evidence alone (uniform without evidence, and for hands too long to weigh one by
        one, which only the deals drawn weigh)."""
        if seat == self.seat:
            return {card: 1.0 for card in self.own}
        weighed = self.guesses.get(seat)
        if weighed is None:
            share = self.sizes[seat] / len(self.pool) if self.pool else 0.0
            return {card: share for card in self.pool}
        guesses, cumulative = weighed
        total = cumulative[-1]
        chances = dict.fromkeys(self.pool, 0.0)
        previous = 0.0
        for guess, upto in zip(guesses, cumulative, strict=True):
            weight = (upto - previous) / total
            previous = upto
            for card in guess:
                chances[card] += weight
        return chances

    def sample(self, rng: random.Random, dealt: int | None = None) -> Determinization:
        """One deal of the unseen cards, drawn from ``rng`` with the inferred weights.

        ``dealt``: only the first ``dealt`` cards of the stock need a random order (a search
        that never looks further saves the shuffle of the rest, which keeps an order that
        is not uniform); by default the whole stock is shuffled."""
        if self._chain is not None:
            return self._chain.sample(rng, self.own)
        hands: list[tuple[int, ...]] = [()] * len(self.sizes)
        hands[self.seat] = self.own
        taken = 0
        for seat, (guesses, cumulative) in self.guesses.items():
            masks = self._masks[seat]
            total = cumulative[-1]
            for _ in range(16):
                index = bisect(cumulative, rng.random() * total)
                if not masks[index] & taken:
                    guess, bits = guesses[index], masks[index]
                    break
            else:
                # The draws clashed with the hands drawn before (common late in a Scopone
                # hand, when the other hands are all that is unseen): the cards left if they
                # are just enough, else a uniform guess from them.
                free = [card for card in self.pool if not taken >> card & 1]
                size = self.sizes[seat]
                guess = tuple(free if len(free) == size else sorted(rng.sample(free, size)))
                bits = sum(1 << card for card in guess)
            hands[seat] = guess
            taken |= bits
        rest = [card for card in self.pool if not taken >> card & 1]
        if dealt is None:
            rng.shuffle(rest)
        else:
            # The first positions of a Fisher-Yates shuffle: a uniform draw for them.
            count = len(rest)
            needed = min(
                count - 1,
                dealt
                + sum(
                    size
                    for seat, size in enumerate(self.sizes)
                    if seat != self.seat and seat not in self.guesses
                ),
            )
            draw = rng.random
            for i in range(needed):
                j = i + int(draw() * (count - i))
                rest[i], rest[j] = rest[j], rest[i]
        position = 0
        for seat, size in enumerate(self.sizes):
            if seat == self.seat or seat in self.guesses:
                continue
            hands[seat] = tuple(sorted(rest[position : position + size]))
            position += size
        return Determinization(hands=tuple(hands), stock=tuple(rest[position:]))


class _DealChain:
    """Deals of the unseen cards drawn in proportion to the likelihood of every seat's plays
    this hand (Metropolis): each step proposes to swap two unseen cards between two places
    (another seat's hand, or the stock) and takes the swap with the ratio of the two seats'
    likelihoods, which only the masses of the two cards change. Deals that follow each other
    share most cards; the search that asks for one per walk needs no more independence."""

    def __init__(
        self,
        pool: list[int],
        sizes: tuple[int, ...],
        seat: int,
        evidence: list[SeatEvidence],
    ) -> None:
        self.pool = pool
        self.sizes = sizes
        self.seat = seat
        self.evidence = {item.seat: item for item in evidence}
        # Per seat with evidence, per play: each card's mass as a list by card index.
        self.masses = {
            item.seat: [[masses.get(card, 0.0) for card in range(40)] for masses in item.masses]
            for item in evidence
        }
        self.place: list[int] = [-1] * 40
        """Where each unseen card is in the current deal: a seat, or -1 for the stock."""
        self.members: dict[int, list[int]] = {}
        self.totals: dict[int, list[float]] = {}
        """Per seat with evidence: per play, the masses of the hand it then held."""

    def _start(self, rng: random.Random) -> None:
        cards = list(self.pool)
        rng.shuffle(cards)
        position = 0
        for seat, size in enumerate(self.sizes):
            if seat == self.seat:
                continue
            self.members[seat] = cards[position : position + size]
            position += size
        self.members[-1] = cards[position:]
        for place, held in self.members.items():
            for card in held:
                self.place[card] = place
        for seat, item in self.evidence.items():
            masses = self.masses[seat]
            self.totals[seat] = [
                known + sum(play[card] for card in self.members[seat])
                for known, play in zip(item.known, masses, strict=True)
            ]
        for _ in range(_CHAIN_BURN):
            self._step(rng)

    def _ratio(self, seat: int, out: int, into: int) -> float:
        """How much likelier ``seat``'s plays are if it holds ``into`` instead of ``out``."""
        totals = self.totals.get(seat)
        if totals is None:
            return 1.0
        ratio = 1.0
        for total, play in zip(totals, self.masses[seat], strict=True):
            ratio *= total / (total - play[out] + play[into])
        return ratio

    def _move(self, seat: int, out: int, into: int) -> None:
        held = self.members[seat]
        held[held.index(out)] = into
        self.place[into] = seat
        totals = self.totals.get(seat)
        if totals is not None:
            masses = self.masses[seat]
            for j, play in enumerate(masses):
                totals[j] += play[into] - play[out]

    def _step(self, rng: random.Random) -> None:
        pool = self.pool
        count = len(pool)
        first = pool[int(rng.random() * count)]
        second = pool[int(rng.random() * count)]
        here, there = self.place[first], self.place[second]
        if here == there:
            return
        ratio = self._ratio(here, first, second) * self._ratio(there, second, first)
        if ratio >= 1.0 or rng.random() < ratio:
            self._move(here, first, second)
            self._move(there, second, first)

    def sample(self, rng: random.Random, own: tuple[int, ...]) -> Determinization:
        if not self.members:  # the first deal asked for
            self._start(rng)
        else:
            for _ in range(_CHAIN_STEPS):
                self._step(rng)
        hands: list[tuple[int, ...]] = [()] * len(self.sizes)
        hands[self.seat] = own
        for seat, held in self.members.items():
            if seat >= 0:
                hands[seat] = tuple(sorted(held))
        stock = list(self.members[-1])
        rng.shuffle(stock)
        return Determinization(hands=tuple(hands), stock=tuple(stock))
