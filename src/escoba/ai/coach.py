"""The coach: ranks the legal moves by expected point gain and says why a move is good or bad.

The ranking comes from a search (anything with ``evaluate(observation, legal)`` returning
every move with its expected gain, best first); the reasons come from looking at what the
move does to the table, as a good player would say it: it sweeps, it takes the 7 of coins,
it leaves 11 on the table which any 4 sweeps, it puts a high card onto an empty table.
Reasons are :class:`~escoba.messages.Message` values, shown in the reader's language, and
with :func:`advice_sentence` in the reader's deck (the terminal's and the web's hints alike).

Looking back on a hand, :func:`sweep_keeper` says whether a sweep a move left to the next
player could have been kept from them: which other move of that position would have left no
sweep at all, or none for the card that swept. Each move's expected loss may be small (the
next player may not hold the card), yet the sweeps given away add up: the hand's review names
them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Protocol

from .._bits import (
    COINS_MASK,
    SEVEN_OF_COINS,
    SEVENS_MASK,
    VALUE,
    VALUE_MASK,
    signature,
    value_sum,
)
from ..captures import capture_masks, captures
from ..cards import Card, DeckStyle, card_name, mask_of
from ..errors import IllegalMoveError
from ..messages import Message, counted, move_name, text
from ..moves import Move
from ..observation import Observation

__all__ = [
    "Advice",
    "Coach",
    "Evaluator",
    "MoveAdvice",
    "SweepKeeper",
    "advice_sentence",
    "reasons_for",
    "sweep_keeper",
]

CLOSE: float = 0.1
"""Within this many points of the best move, a move counts as just as good."""

_SEVEN_OF_COINS_CARD: Final = Card.parse("7d")
"""The card the coach's sentences name by the game's word (see :func:`advice_sentence`)."""


class Evaluator(Protocol):
    def evaluate(self, observation: Observation, legal: Sequence[Move]) -> list[tuple[Move, float]]:
        """Every legal move with its expected point gain, best first."""
        ...


@dataclass(frozen=True, slots=True)
class MoveAdvice:
    """One legal move: its expected gain, what it loses against the best, and why."""

    move: Move
    gain: float
    loss: float
    """Expected points given up against the best move (0 for the best)."""
    verdict: Message
    reasons: tuple[Message, ...]

    def text(self, language: str = "en", deck: DeckStyle | None = None) -> str:
        """The verdict and the reasons as one or two sentences; with a deck style, every card
        named as that deck names it (:func:`advice_sentence`), else a move in the engine's
        notation ("4d:5d+6s")."""
        messages = (self.verdict, *self.reasons)
        if deck is None:
            return " ".join(m.text(language) for m in messages)
        return " ".join(advice_sentence(m, deck, language) for m in messages)


@dataclass(frozen=True, slots=True)
class Advice:
    """Every legal move of a position, best first."""

    ranked: tuple[MoveAdvice, ...]

    @property
    def best(self) -> MoveAdvice:
        return self.ranked[0]

    def of(self, move: Move) -> MoveAdvice:
        """The advice on one move (for example the one a person just played)."""
        for advice in self.ranked:
            if advice.move == move:
                return advice
        raise IllegalMoveError(f"{move} is not a legal move of this position")


class Coach:
    """Ranks moves with an evaluator and explains them."""

    def __init__(self, evaluator: Evaluator | None = None, *, seed: int = 0) -> None:
        if evaluator is None:
            from .search import SearchPlayer

            # PIMC over inferred deals searches every move as hard as the others, so every
            # move gets a value to explain (the tree search spends its walks on the best).
            evaluator = SearchPlayer(seed, name="coach", budget=20_000, min_deals=50)
        self._evaluator = evaluator

    def advise(self, observation: Observation, legal: Sequence[Move] | None = None) -> Advice:
        moves = list(observation.legal_moves if legal is None else legal)
        if not moves:
            raise IllegalMoveError(f"seat {observation.seat} has no move to advise on")
        scored = self._evaluator.evaluate(observation, moves)
        best_move, best_gain = scored[0]
        ranked = []
        for move, gain in scored:
            loss = max(0.0, best_gain - gain)
            if move == best_move:
                verdict = Message("coach.best")
            elif loss < CLOSE:
                verdict = Message("coach.close_to_best", {"points": loss})
            else:
                # The Move itself: "4d:5d+6s", or card names from a UI that knows the deck.
                verdict = Message("coach.costs_points", {"points": loss, "best": best_move})
            good, bad = reasons_for(observation, move)
            reasons = (*good, *bad) if loss < CLOSE else (*bad, *good)
            ranked.append(MoveAdvice(move, gain, loss, verdict, tuple(reasons[:2])))
        return Advice(tuple(ranked))


def advice_sentence(message: Message, deck: DeckStyle, language: str = "en") -> str:
    """One of the coach's sentences with every card named in a deck style and language: a
    move by its cards (:func:`~escoba.messages.move_name`), and the seven of coins, which the
    sentences call by the game's word ("the 7 of coins", "settebello"), by its name in the
    deck ("7 de oros", "7♦"): never "the 7 of coins" beside "7 de oros".

    >>> advice_sentence(Message("coach.takes_seven_of_coins"), "spanish")
    'Takes 7 de oros, a point by itself.'
    """
    if message.key == "coach.takes_seven_of_coins":
        seven = card_name(_SEVEN_OF_COINS_CARD, deck, language)
        return text("play.coach_takes_card", language, card=seven)
    if message.key == "coach.gives_seven_of_coins":
        seven = card_name(_SEVEN_OF_COINS_CARD, deck, language)
        return text("play.coach_gives_card", language, card=seven)
    params = {
        name: move_name(value, deck, language) if isinstance(value, Move) else value
        for name, value in message.params.items()
    }
    return Message(message.key, params).text(language)


def reasons_for(observation: Observation, move: Move) -> tuple[list[Message], list[Message]]:
    """What a move does, as (good, bad) reasons seen from the table and the unseen cards."""
    rules = observation.rules
    table = mask_of(observation.table)
    card = move.card
    taken = move.capture_mask
    unseen = mask_of(observation.unseen)
    good: list[Message] = []
    bad: list[Message] = []
    if move.is_capture:
        after = table & ~taken
        won = taken | card.bit
        # An ace that takes all under asso piglia tutto empties the table but sweeps nothing.
        if not after and not (
            rules.ace_takes_all and card.value == 1 and not taken & VALUE_MASK[1]
        ):
            good.append(Message("coach.sweeps"))
        if won & SEVEN_OF_COINS:
            good.append(Message("coach.takes_seven_of_coins"))
        sevens = (won & SEVENS_MASK & ~SEVEN_OF_COINS).bit_count()
        if sevens == 1 and rules.sevens != "none":
            good.append(Message("coach.takes_a_seven"))
        elif sevens and rules.sevens != "none":
            good.append(counted("coach.takes_sevens", sevens))
        coins = (won & COINS_MASK).bit_count()
        if coins >= 2:
            good.append(counted("coach.takes_coins", coins))
        if not good:
            good.append(counted("coach.takes_cards", won.bit_count()))
    else:
        after = table | card.bit
        if not table and rules.capture == "sum15" and card.value >= 5:
            bad.append(Message("coach.high_card_on_empty_table"))
        elif not bad:
            good.append(Message("coach.drops"))
    if after:
        sweeper = _sweeping_value(after, unseen, rules.capture == "match")
        # A high card onto an empty table already says it: no second reason for one risk.
        if sweeper is not None and not bad:
            if rules.capture == "sum15":
                bad.append(
                    Message("coach.leaves_sweep", {"total": value_sum(after), "value": sweeper})
                )
            else:
                bad.append(Message("coach.leaves_match_sweep", {"value": sweeper}))
        if after & SEVEN_OF_COINS and _can_take_seven_of_coins(
            after, unseen, rules.capture, rules.ace_takes_all
        ):
            bad.append(Message("coach.gives_seven_of_coins"))
    return good, bad


@dataclass(frozen=True, slots=True)
class SweepKeeper:
    """A move that would have kept a sweep from the next player: ``safe`` when it left no
    sweep to any card unseen then, else none to the card that swept."""

    move: Move
    safe: bool


def sweep_keeper(
    observation: Observation, move: Move, sweeper: Card, ranked: Sequence[Move] = ()
) -> SweepKeeper | None:
    """Another legal move of ``observation`` than ``move`` after which ``sweeper`` (the card
    the next player swept with) could not have swept the table; None when every move let it.

    A move that leaves no sweep to any unseen card comes first, then one that leaves none to
    ``sweeper``; among them the first in ``ranked`` (the coach's order, best first), else in
    the order of their text.
    """
    rules = observation.rules
    unseen = mask_of(observation.unseen)
    order = {m: i for i, m in enumerate(ranked)}
    options = sorted(
        (m for m in observation.legal_moves if m != move),
        key=lambda m: (order.get(m, len(order)), str(m)),
    )
    kept: list[SweepKeeper] = []
    for option in options:
        if option.is_capture:
            after = [c for c in observation.table if c not in option.captures]
        else:
            after = [*observation.table, option.card]
        if after and any(len(taken) == len(after) for taken in captures(sweeper, after, rules)):
            continue  # the card that swept would sweep this table too
        sweep = _sweeping_value(mask_of(after), unseen, rules.capture == "match")
        kept.append(SweepKeeper(option, safe=not after or sweep is None))
    best = [k for k in kept if k.safe] or kept
    return best[0] if best else None


def _sweeping_value(table: int, unseen: int, match: bool) -> int | None:
    """A card value that would take the whole table, if an unseen card has it."""
    total = value_sum(table)
    if match:
        if table.bit_count() == 1 or (total <= 10 and not table & VALUE_MASK[total]):
            value = total
        else:
            return None
    else:
        value = 15 - total
        if not 1 <= value <= 10:
            return None
    return value if unseen & VALUE_MASK[value] else None


def _can_take_seven_of_coins(table: int, unseen: int, capture: str, ace_takes_all: bool) -> bool:
    """Whether some unseen card could take the 7 of coins from this table (next turn)."""

    sig = signature(table)
    seen_values = {VALUE[i] for i in range(40) if unseen >> i & 1}
    for value in seen_values:
        probe = next(i for i in range(40) if unseen >> i & 1 and VALUE[i] == value)
        for taken in capture_masks(probe, table, sig, capture == "match", ace_takes_all):
            if taken & SEVEN_OF_COINS:
                return True
    return False
