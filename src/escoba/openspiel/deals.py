"""The shuffle as chance, and decks consistent with what one seat knows.

A hand's deck is the 40 cards in dealing order, as a match record keeps it: ``hand_cards``
cards to each seat from the dealer's left (3; in Scopone 10, or 9), ``table_cards`` to the
table (4; none in Scopone scientifico), then ``hand_cards`` to each seat again for every later
round (none in Scopone with four players: the deck is dealt whole). In the OpenSpiel games
chance chooses the cards one place at a time, the table places first (so that the rule
``kings_redeal`` can be met exactly, see :func:`chance_outcomes`), then the other places in
dealing order; the last place takes the card left over.

:func:`sample_deck` deals the cards a seat has not seen at random, keeping everything the
seat knows (its own cards, every card played and by whom, the table): OpenSpiel's
information-set searchers draw their worlds with it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from math import comb, perm
from typing import Final

from ..cards import DECK, Rank
from ..observation import Deal, InitialSweep, Observation, Play
from ..rules import RuleSet

__all__ = [
    "CHANCE_PICKS",
    "chance_order",
    "chance_outcomes",
    "deck_from_picks",
    "picks_of_deck",
    "round_start",
    "rounds_per_hand",
    "sample_deck",
    "table_places",
]

CHANCE_PICKS: Final = 39
"""Chance nodes of one shuffle: the 40th place takes the card left over."""
_KINGS: Final = frozenset(card.index for card in DECK if card.rank is Rank.KING)

Sampler = Callable[[], float]
"""A source of uniform numbers in [0, 1)."""


def rounds_per_hand(rules: RuleSet, players: int) -> int:
    """Rounds of ``hand_cards`` cards each seat is dealt in a hand (the cards after the
    table's share out evenly, or the rules refuse the seating)."""
    return rules.deals_per_hand(players)


def round_start(rules: RuleSet, players: int, number: int) -> int:
    """The place in the deck of a round's first card (round 1 opens the hand)."""
    each = rules.hand_cards * players
    return 0 if number == 1 else each * (number - 1) + rules.table_cards


def table_places(rules: RuleSet, players: int) -> range:
    """The deck places of the first table cards: right after the first round."""
    first = rules.hand_cards * players
    return range(first, first + rules.table_cards)


def chance_order(rules: RuleSet, players: int) -> tuple[int, ...]:
    """The deck places in the order chance fills them: the table's, then the rest."""
    table = tuple(table_places(rules, players))
    return table + tuple(place for place in range(40) if place not in table)


def _valid_orders(kings: int, picks: int, kings_left: int, others_left: int) -> int:
    """Ordered ways to make ``picks`` more table picks leaving at most two kings there."""
    return sum(
        comb(picks, j) * perm(kings_left, j) * perm(others_left, picks - j)
        for j in range(min(picks, kings_left, 2 - kings) + 1)
    )


def chance_outcomes(rules: RuleSet, picks: Sequence[int]) -> list[tuple[int, float]]:
    """The next pick of a shuffle: each card not yet placed with its probability, in card
    order. With ``kings_redeal`` a deal showing three or more kings on the table is void and
    dealt again, so the deck that stands is uniform among those with at most two kings
    there: the table's picks are drawn from that distribution directly."""
    placed = set(picks)
    left = [card for card in range(40) if card not in placed]
    if not rules.kings_redeal or len(picks) >= 4:
        p = 1.0 / len(left)
        return [(card, p) for card in left]
    kings = sum(1 for card in picks if card in _KINGS)
    kings_left = 4 - kings
    others_left = 36 - (len(picks) - kings)
    picks_after = 4 - len(picks) - 1
    total = _valid_orders(kings, picks_after + 1, kings_left, others_left)
    if_king = _valid_orders(kings + 1, picks_after, kings_left - 1, others_left) / total
    if_other = _valid_orders(kings, picks_after, kings_left, others_left - 1) / total
    out = []
    for card in left:
        p = if_king if card in _KINGS else if_other
        if p > 0.0:
            out.append((card, p))
    return out


def deck_from_picks(rules: RuleSet, players: int, picks: Sequence[int]) -> list[int]:
    """The deck (card indices in dealing order) of a shuffle's 39 picks."""
    deck = [-1] * 40
    order = chance_order(rules, players)
    for place, card in zip(order[:CHANCE_PICKS], picks, strict=True):
        deck[place] = card
    (last,) = set(range(40)) - set(picks)
    deck[order[-1]] = last
    return deck


def picks_of_deck(rules: RuleSet, players: int, deck: Sequence[int]) -> list[int]:
    """The 39 chance picks that deal ``deck`` (card indices in dealing order)."""
    return [deck[place] for place in chance_order(rules, players)[:CHANCE_PICKS]]


def _shuffle(cards: list[int], sampler: Sampler) -> None:
    for i in range(len(cards) - 1, 0, -1):
        j = min(int(sampler() * (i + 1)), i)
        cards[i], cards[j] = cards[j], cards[i]


def sample_deck(observation: Observation, sampler: Sampler) -> list[int]:
    """A deck (card indices in dealing order) that deals the hand ``observation`` sees: the
    seat's own cards, the table and every play are as seen; the cards the seat has not seen
    (other hands and the stock) are dealt at random by ``sampler``."""
    players, dealer, seat = observation.players, observation.dealer, observation.seat
    rules = observation.rules
    size = rules.hand_cards
    rounds = rounds_per_hand(rules, players)
    played: list[list[list[int]]] = [[[] for _ in range(players)] for _ in range(rounds + 1)]
    number = 0
    dropped: set[int] = set()
    taken: set[int] = set()
    initial: set[int] | None = None
    for event in observation.history:
        if isinstance(event, Deal):
            number = event.round
        elif isinstance(event, Play):
            played[number][event.seat].append(event.card.index)
            dropped.add(event.card.index)
            taken.update(card.index for card in event.captures)
        elif isinstance(event, InitialSweep):
            initial = {card.index for card in event.cards}
    if initial is None:
        # The table now, with what was taken from it and without what was played to it.
        initial = ({card.index for card in observation.table} | taken) - dropped
    pool = sorted(card.index for card in observation.unseen)
    _shuffle(pool, sampler)
    deck = [-1] * 40
    for place, card in zip(table_places(rules, players), sorted(initial), strict=True):
        deck[place] = card
    own_hand = [card.index for card in observation.hand]
    for r in range(1, number + 1):
        place = round_start(rules, players, r)
        for offset in range(1, players + 1):
            dealt_to = (dealer + offset) % players
            cards = list(played[r][dealt_to])
            if r == number:
                if dealt_to == seat:
                    cards += own_hand
                else:
                    while len(cards) < size:
                        cards.append(pool.pop())
            deck[place : place + size] = cards
            place += size
    for place in range(40):
        if deck[place] < 0:
            deck[place] = pool.pop()
    return deck
