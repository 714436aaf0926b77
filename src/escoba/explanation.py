"""Why a hand scored as it did: each side's counts behind every category of the score.

:func:`explain_hand` turns a finished hand's :class:`~escoba.scoring.HandResult` into the
numbers and cards a player compares at the table (RULES.md, "Scoring a hand"): cards and
coins taken, the seven of coins, the sevens taken, each suit's best card for setenta or
primiera, sweeps, the king of coins (re bello) and the run of coins from the ace (napola) where
the rules score them, and the leftovers that went to the last capturer. The comparisons are
:mod:`escoba.scoring`'s own (its setenta key and primiera), and the explanation is checked
against the result's breakdown, so the two can never disagree.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from .cards import Card, Rank, Suit, mask_of
from .errors import InvalidScoreError, RulesError
from .rules import RuleSet, SevensMode
from .scoring import CATEGORIES, HandResult, coin_run, primiera, score_counts, setenta_key

__all__ = ["HandExplanation", "SideTally", "explain_hand"]

SUITS: Final[tuple[Suit, ...]] = (Suit.COINS, Suit.CUPS, Suit.SWORDS, Suit.CLUBS)
"""The suits in canonical order, the order of :attr:`SideTally.best`."""

_SEVEN_OF_COINS: Final = Card(Rank.SEVEN, Suit.COINS)
_KING_OF_COINS: Final = Card(Rank.KING, Suit.COINS)

Standing = int | tuple[int, ...] | None
"""A side's value in the sevens category, as the rule set compares it (see SideTally)."""


def _card_points(card: Card) -> int:
    # A one-card pile's primiera is that card's primiera points; the setenta order of single
    # cards is the same order, so one number ranks a suit's cards for both categories.
    return primiera(card.bit)


@dataclass(frozen=True, slots=True)
class SideTally:
    """What one side took in a hand, counted as the score counts it."""

    side: int
    """The side's number (its index in the hand's piles)."""
    pile: tuple[Card, ...]
    """Every card the side took, leftovers included, in canonical order (captures are face up:
    public once the hand is over)."""
    cards: int
    """How many cards it took."""
    coins: int
    """How many coins it took."""
    seven_of_coins: bool
    """Whether it took the seven of coins."""
    sevens: tuple[Card, ...]
    """The sevens it took."""
    best: tuple[Card | None, ...]
    """Its best card of each suit, in :data:`SUITS` order (None: it took none of that suit), by
    the order 7, 6, A, 5, 4, 3, 2, face cards that setenta and primiera share."""
    best_points: tuple[int, ...]
    """The primiera points of each suit's best card (7=21 ... face=10; 0 for a missing suit)."""
    setenta: tuple[int, ...]
    """Its setenta key: the best cards' ranks, best first, compared card by card."""
    primiera: int
    """The sum of :attr:`best_points` (a missing suit adds nothing)."""
    sweeps: int
    """Its sweeps, initial-table sweeps included."""
    standing: Standing
    """Its value in the hand's sevens category: the setenta key (``ranking``), the number of
    sevens (``sevens``), the primiera or -1 when a suit is missing and the rule set needs all
    four (``primiera``), None (``none``)."""
    king_of_coins: bool = False
    """Whether it took the king of coins (re bello)."""
    coin_run: int = 0
    """How many coins from the ace up it took unbroken: 3 for A-2-3, 4 for A-2-3-4... (napola
    scores a run of 3 or more)."""

    @property
    def complete(self) -> bool:
        """Whether it took a card of every suit."""
        return None not in self.best

    @property
    def all_sevens(self) -> bool:
        """Whether it took all four sevens."""
        return len(self.sevens) == 4

    @property
    def ranked_best(self) -> tuple[Card, ...]:
        """Its best cards per suit, best first: the cards setenta compares one by one."""
        held = [card for card in self.best if card is not None]
        return tuple(sorted(held, key=_card_points, reverse=True))


@dataclass(frozen=True, slots=True)
class HandExplanation:
    """A finished hand's score explained: one :class:`SideTally` per side, the leftovers and
    who took them, and the points per category.

    >>> from escoba import RULESETS, Game, explain_hand
    >>> game = Game(RULESETS["escoba"], players=2, seed=7)
    >>> while not game.results:
    ...     _ = game.play(sorted(game.legal_moves(), key=str)[0])
    >>> why = explain_hand(game.results[0], game.rules)
    >>> sum(side.cards for side in why.sides), sum(side.coins for side in why.sides)
    (40, 10)
    >>> [side.seven_of_coins for side in why.sides].count(True)
    1
    >>> why.breakdown == dict(game.results[0].breakdown)
    True
    """

    sevens_mode: SevensMode
    """The rule set's sevens category: ``ranking`` (setenta), ``sevens``, ``primiera``,
    ``none``."""
    primiera_needs_all_suits: bool
    """Whether a side missing a suit cannot win primiera."""
    sides: tuple[SideTally, ...]
    """What each side took, counted."""
    leftovers: tuple[Card, ...]
    """The cards left on the table at the end, which went to the last capturer."""
    last_capturer: int | None
    """The seat that captured last and took the leftovers (None: nobody captured)."""
    last_capturer_side: int | None
    """The side of :attr:`last_capturer`."""
    points: tuple[int, ...]
    """Each side's points for the hand."""
    breakdown: Mapping[str, tuple[int, ...]]
    """Points per category (``escoba.CATEGORIES``), one number per side: the result's own."""
    re_bello: bool = False
    """Whether the king of coins scores (re bello)."""
    napola: bool = False
    """Whether a run of coins from the ace scores (napola)."""

    @property
    def seven_of_coins_side(self) -> int | None:
        """The side that took the seven of coins (None only in a hand nobody captured in)."""
        return next((s.side for s in self.sides if s.seven_of_coins), None)

    @property
    def king_of_coins_side(self) -> int | None:
        """The side that took the king of coins (None only in a hand nobody captured in)."""
        return next((s.side for s in self.sides if s.king_of_coins), None)

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # The breakdown is a read-only view, which does not pickle: it travels as a dict.
        return (
            _explanation,
            (
                self.sevens_mode,
                self.primiera_needs_all_suits,
                self.sides,
                self.leftovers,
                self.last_capturer,
                self.last_capturer_side,
                self.points,
                dict(self.breakdown),
                self.re_bello,
                self.napola,
            ),
        )


def _explanation(
    sevens_mode: SevensMode,
    primiera_needs_all_suits: bool,
    sides: tuple[SideTally, ...],
    leftovers: tuple[Card, ...],
    last_capturer: int | None,
    last_capturer_side: int | None,
    points: tuple[int, ...],
    breakdown: dict[str, tuple[int, ...]],
    re_bello: bool = False,
    napola: bool = False,
) -> HandExplanation:
    return HandExplanation(
        sevens_mode,
        primiera_needs_all_suits,
        sides,
        leftovers,
        last_capturer,
        last_capturer_side,
        points,
        MappingProxyType(breakdown),
        re_bello,
        napola,
    )


def _tally(side: int, pile: frozenset[Card], sweeps: int, rules: RuleSet) -> SideTally:
    mask = mask_of(pile)
    best: list[Card | None] = []
    for suit in SUITS:
        # Among equal face cards the first (the jack) stands for them all.
        of_suit = sorted(card for card in pile if card.suit is suit)
        best.append(max(of_suit, key=_card_points, default=None))
    sevens = tuple(sorted(card for card in pile if card.rank is Rank.SEVEN))
    standing: Standing
    if rules.sevens == "ranking":
        standing = tuple(setenta_key(mask))
    elif rules.sevens == "sevens":
        standing = len(sevens)
    elif rules.sevens == "primiera":
        standing = primiera(mask, rules.primiera_needs_all_suits)
    else:
        standing = None
    return SideTally(
        side=side,
        pile=tuple(sorted(pile)),
        cards=len(pile),
        coins=sum(1 for card in pile if card.suit is Suit.COINS),
        seven_of_coins=_SEVEN_OF_COINS in pile,
        sevens=sevens,
        best=tuple(best),
        best_points=tuple(0 if card is None else _card_points(card) for card in best),
        setenta=tuple(setenta_key(mask)),
        primiera=primiera(mask),
        sweeps=sweeps,
        standing=standing,
        king_of_coins=_KING_OF_COINS in pile,
        coin_run=coin_run(mask),
    )


def explain_hand(result: HandResult, rules: RuleSet) -> HandExplanation:
    """Explain a finished hand's score under the rule set it was played with.

    Seed 000's setenta example (RULES.md, "Scoring a hand"): 7♠ 7♥ 6♦ 5♣ beats 7♦ 7♣ A♠ A♥,
    compared card by card, while the other side has the seven of coins:

    >>> from escoba import RULESETS, HandResult, parse_cards, score_hand
    >>> rules = RULESETS["escoba"]
    >>> piles = (frozenset(parse_cards("7s 7h 6d 5c")), frozenset(parse_cards("7d 7c As Ah")))
    >>> score = score_hand(piles, [0, 0], rules)
    >>> result = HandResult(0, piles, (0, 0), score.points, score.breakdown, frozenset(), 1)
    >>> why = explain_hand(result, rules)
    >>> [" ".join(map(str, side.ranked_best)) for side in why.sides]
    ['7h 7s 6d 5c', '7d 7c Ah As']
    >>> why.breakdown["sevens"], why.seven_of_coins_side
    ((1, 0), 1)

    Raises :class:`InvalidScoreError` when the result is not a :class:`HandResult` or was not
    scored under ``rules`` (its breakdown differs from what the counts give), and
    :class:`RulesError` when ``rules`` is not a :class:`RuleSet`.
    """
    if not isinstance(rules, RuleSet):
        raise RulesError(f"rules must be a RuleSet, got {rules!r}")
    if not isinstance(result, HandResult):
        raise InvalidScoreError(f"result must be a finished hand's HandResult, got {result!r}")
    sides = tuple(
        _tally(side, pile, sweeps, rules)
        for side, (pile, sweeps) in enumerate(zip(result.piles, result.sweeps, strict=True))
    )
    # The score's one decision point, fed with the counts shown: they must give the result.
    points, breakdown = score_counts(
        [s.cards for s in sides],
        [s.coins for s in sides],
        [s.seven_of_coins for s in sides],
        [s.standing for s in sides] if rules.sevens != "none" else [],
        [s.all_sevens for s in sides],
        [s.sweeps for s in sides],
        rules,
        [s.king_of_coins for s in sides],
        [s.coin_run for s in sides],
    )
    if points != result.points or breakdown != dict(result.breakdown):
        raise InvalidScoreError(
            f"this hand was not scored under these rules ({rules.to_dict()}): "
            f"its breakdown {dict(result.breakdown)} differs from the counts' {breakdown}"
        )
    last = result.last_capturer
    return HandExplanation(
        sevens_mode=rules.sevens,
        primiera_needs_all_suits=rules.primiera_needs_all_suits,
        sides=sides,
        leftovers=tuple(sorted(result.leftovers)),
        last_capturer=last,
        last_capturer_side=None if last is None else last % len(sides),
        points=result.points,
        breakdown=MappingProxyType({name: result.breakdown[name] for name in CATEGORIES}),
        re_bello=rules.re_bello,
        napola=rules.napola,
    )
