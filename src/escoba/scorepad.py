"""The score pad: add up a match played with a real deck, hand by hand, by a rule set.

After each hand the players count what every side took and enter it; the pad turns those
counts into points (RULES.md, "Scoring a hand") and names the winner (RULES.md, "Winning the
match"). The categories are decided by :func:`escoba.scoring.score_counts`, the same code that
scores the engine's own hands, so the pad and the engine cannot disagree.

What the players enter for one hand (a :class:`HandEntry`), one number per side:

- ``cards``: how many cards the side took (the sides together: 40);
- ``coins``: how many of them are coins (together: 10);
- ``seven_of_coins``: *which* side took the seven of coins (exactly one);
- ``sweeps``: how many sweeps the side made;
- ``sevens``: how many sevens the side took (together: 4). Needed only when the rules count
  sevens (``sevens="sevens"``, an ``all_sevens_bonus`` or ``big_wins``); checked when given;
- ``sevens_winner``: with setenta (``sevens="ranking"``) or ``primiera``, the side that wins
  the category, or None when nobody does (a tie at the top; with ``primiera_needs_all_suits``,
  no side holding every suit). The players compare their best cards at the table anyway, and
  the category's outcome is all that scoring needs from it, so this is exact and one tap;
- ``king_of_coins``: with re bello (``re_bello``), *which* side took the king of coins;
- ``coin_runs``: with napola (``napola``), each side's run of coins from the ace up, unbroken
  (3 for A-2-3, 4 for A-2-3-4...; 0 for the sides without the ace of coins).

The counts are checked against each other (cards 40, coins 10, sevens 4, one holder of the
seven of coins, no side with more coins or sevens than cards, every sweep at least two cards,
a setenta winner with the most sevens, one run of coins, no longer than the side's coins...)
and a bad entry raises :class:`ScorePadError`, an :class:`~escoba.errors.InvalidScoreError`
whose text names the hand, the side and the field, in any language of
:data:`escoba.catalogue.LANGUAGES`. Hands are numbered from 1, sides from 0.

>>> from escoba import RULESETS
>>> first = HandEntry(cards=(22, 18), coins=(6, 4), seven_of_coins=0, sweeps=(2, 1),
...                   sevens_winner=0)
>>> pad = tally(RULESETS["escoba"], 2, [first])
>>> pad.hands[0].breakdown["sweeps"], pad.hands[0].points, pad.totals, pad.winner
((2, 1), (6, 1), (6, 1), None)
>>> tally(RULESETS["escoba"], 2, [HandEntry(cards=(22, 17), coins=(6, 4), seven_of_coins=0,
...                                         sweeps=(0, 0), sevens_winner=0)])
Traceback (most recent call last):
...
escoba.scorepad.ScorePadError: Hand 1, cards: the sides took 39 cards in all, but the deck has 40
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final, Literal

from .catalogue import LANGUAGES, message_key, plural, text
from .cheatsheet import sevens_label
from .errors import InvalidScoreError, RulesError
from .rules import RuleSet
from .scoring import match_winner, score_counts

__all__ = [
    "FIELDS",
    "NOT_GIVEN",
    "HandEntry",
    "HandTally",
    "ScorePad",
    "ScorePadError",
    "entry_fields",
    "say",
    "tally",
]

FIELDS: Final[tuple[str, ...]] = (
    "cards",
    "coins",
    "seven_of_coins",
    "sevens",
    "sevens_winner",
    "king_of_coins",
    "coin_runs",
    "sweeps",
)
"""The fields of a hand's entry, in the order the pad asks for them."""

_PER_SIDE: Final = ("cards", "coins", "sevens", "coin_runs", "sweeps")
_TOTALS: Final = {"cards": 40, "coins": 10, "sevens": 4}


class _NotGiven(enum.Enum):
    NOT_GIVEN = "not given"

    def __repr__(self) -> str:
        return "NOT_GIVEN"


NOT_GIVEN: Final = _NotGiven.NOT_GIVEN
"""The ``sevens_winner`` of an entry that does not say (None says "nobody wins it")."""


@dataclass(frozen=True, slots=True, kw_only=True)
class HandEntry:
    """What the players counted after one hand: one number per side (the side's index order)."""

    cards: Sequence[int]
    """Cards each side took (40 in all)."""
    coins: Sequence[int]
    """Coins each side took (10 in all)."""
    seven_of_coins: int
    """The side that took the seven of coins."""
    sweeps: Sequence[int]
    """Sweeps each side made."""
    sevens: Sequence[int] | None = None
    """Sevens each side took (4 in all); None when not counted (see :func:`entry_fields`)."""
    sevens_winner: int | Literal[_NotGiven.NOT_GIVEN] | None = NOT_GIVEN
    """Setenta or primiera: the side that wins the category, None if nobody does."""
    king_of_coins: int | None = None
    """Re bello: the side that took the king of coins; None when not counted."""
    coin_runs: Sequence[int] | None = None
    """Napola: each side's run of coins from the ace (0 without the ace of coins); None when
    not counted."""


@dataclass(frozen=True, slots=True)
class HandTally:
    """One hand on the pad: its points per side, by category, and the totals after it."""

    number: int
    """The hand's number, from 1."""
    points: tuple[int, ...]
    """Each side's points for the hand."""
    breakdown: Mapping[str, tuple[int, ...]]
    """Points per category (the names of ``escoba.CATEGORIES``), one number per side."""
    totals: tuple[int, ...]
    """Each side's match points after this hand."""


@dataclass(frozen=True, slots=True)
class ScorePad:
    """The added-up pad: every hand, the totals and, once the match is won, the winner."""

    rules: RuleSet
    sides: int
    hands: tuple[HandTally, ...]
    totals: tuple[int, ...]
    """Each side's match points after the last hand."""
    winner: int | None
    """The side that won the match, None while it goes on."""

    @property
    def over(self) -> bool:
        """Whether the match is won (no further hand may be entered)."""
        return self.winner is not None


# -- texts ------------------------------------------------------------------------------------

_CODE_KEYS: Final[Mapping[str, str]] = {
    "not_whole": message_key("pad.not_whole"),
    "per_side": message_key("pad.per_side"),
    "missing": message_key("pad.missing"),
    "sevens_needed": message_key("pad.sevens_needed"),
    "winner_needed": message_key("pad.winner_needed"),
    "cards_total": message_key("pad.cards_total"),
    "coins_total": message_key("pad.coins_total"),
    "sevens_total": message_key("pad.sevens_total"),
    "not_a_side": message_key("pad.not_a_side"),
    "holder_needed": message_key("pad.holder_needed"),
    "over_cards": message_key("pad.over_cards"),
    "coins_and_sevens": message_key("pad.coins_and_sevens"),
    "holder_coins": message_key("pad.holder_coins"),
    "holder_sevens": message_key("pad.holder_sevens"),
    "sweeps_cards": message_key("pad.sweeps_cards"),
    "winner_no_cards": message_key("pad.winner_no_cards"),
    "winner_missing_suit": message_key("pad.winner_missing_suit"),
    "winner_fewer_sevens": message_key("pad.winner_fewer_sevens"),
    "winner_all_sevens": message_key("pad.winner_all_sevens"),
    "winner_most_sevens": message_key("pad.winner_most_sevens"),
    "winner_all_cards": message_key("pad.winner_all_cards"),
    "king_needed": message_key("pad.king_needed"),
    "king_coins": message_key("pad.king_coins"),
    "runs_needed": message_key("pad.runs_needed"),
    "run_over_coins": message_key("pad.run_over_coins"),
    "one_run": message_key("pad.one_run"),
    "run_seven": message_key("pad.run_seven"),
    "match_over": message_key("pad.match_over"),
    "sides_count": message_key("pad.sides_count"),
    "names_count": message_key("pad.names_count"),
    "name_text": message_key("pad.name_text"),
    "not_a_list": message_key("pad.not_a_list"),
    "not_an_entry": message_key("pad.not_an_entry"),
    "unknown_rules": message_key("pad.unknown_rules"),
    "bad_option": message_key("pad.bad_option"),
    "unknown_field": message_key("pad.unknown_field"),
    "bad_request": message_key("pad.bad_request"),
    "not_json": message_key("pad.not_json"),
}
"""The message key of each refusal, by its ``code`` (the ``pad.*`` messages of the catalogue)."""

_FIELD_KEYS: Final[Mapping[str, str]] = {
    "cards": message_key("pad.field.cards"),
    "coins": message_key("pad.field.coins"),
    "seven_of_coins": message_key("pad.field.seven_of_coins"),
    "sevens": message_key("pad.field.sevens"),
    "sevens_winner": message_key("pad.field.sevens_winner"),
    "king_of_coins": message_key("pad.field.king_of_coins"),
    "coin_runs": message_key("pad.field.coin_runs"),
    "sweeps": message_key("pad.field.sweeps"),
    "sides": message_key("pad.field.sides"),
    "names": message_key("pad.field.names"),
    "hands": message_key("pad.field.hands"),
    "rules": message_key("pad.field.rules"),
    "options": message_key("pad.field.options"),
    "language": message_key("pad.field.language"),
}
"""The name of each field a refusal may point at."""

_COUNTED: Final[Mapping[str, Mapping[str, str]]] = {
    "cards_total": {"total": "cards"},
    "coins_total": {"total": "coins"},
    "sevens_total": {"total": "sevens"},
    "over_cards": {"cards": "cards"},
    "coins_and_sevens": {"coins": "coins", "sevens": "sevens", "needed": "cards"},
    "sweeps_cards": {"sweeps": "sweeps", "needed": "cards"},
    "winner_missing_suit": {"cards": "cards", "coins": "coins"},
    "king_coins": {"coins": "coins"},
    "run_over_coins": {"coins": "coins"},
}
"""The numbers a refusal shows with their noun ("11 coins"), in the plural form they need."""


def _counted(noun: str, count: int, language: str) -> str:
    if noun == "cards":
        return plural("count.cards", count, language)
    if noun == "coins":
        return plural("count.coins", count, language)
    if noun == "sevens":
        return plural("count.sevens", count, language)
    return plural("count.sweeps", count, language)


def say(key: str, language: str = "en", **params: object) -> str:
    """A text of the pad in a language (English for a language there is none of): a ``pad.*``
    message, by its whole key or without its ``pad.``."""
    full = key if key.startswith("pad.") else f"pad.{key}"
    return text(full, language if language in LANGUAGES else "en", **params)


class ScorePadError(InvalidScoreError):
    """An entry on the pad that cannot be right: the text names the hand, the side and the field.

    ``code`` says what is wrong (its text is the catalogue's ``pad.<code>``); ``hand`` (from 1),
    ``side`` (from 0) and ``field`` say where, each None when the error is not about one.
    :meth:`text` gives the message in another language.
    """

    def __init__(
        self,
        code: str,
        *,
        hand: int | None = None,
        side: int | None = None,
        field: str | None = None,
        rules: RuleSet | None = None,
        names: Sequence[str] | None = None,
        **params: object,
    ) -> None:
        self.code = code
        self.hand = hand
        self.side = side
        self.field = field
        self.params = params
        self._rules = rules
        self._names = tuple(names) if names is not None else None
        super().__init__(self.text())

    def _name(self, index: object, language: str) -> str:
        if isinstance(index, int) and self._names is not None and 0 <= index < len(self._names):
            return self._names[index]
        return text("pad.side", language, index=index)

    def text(self, language: str = "en") -> str:
        """The message in ``language``: where (hand, side, field), then what is wrong."""
        language = language if language in LANGUAGES else "en"
        label = sevens_label(self._rules or RuleSet(), language)
        shown = dict(self.params)
        for key in ("name", "other"):
            if key in shown:
                shown[key] = self._name(shown[key], language)
        for key, noun in _COUNTED.get(self.code, {}).items():
            count = shown.get(key)
            if isinstance(count, int):
                shown[key] = _counted(noun, count, language)
        where: list[str] = []
        if self.hand is not None:
            where.append(text("pad.at.hand", language, hand=self.hand))
        if self.side is not None:
            where.append(self._name(self.side, language))
        if self.field is not None:
            field_key = _FIELD_KEYS.get(self.field)
            shown_field = (
                self.field if field_key is None else text(field_key, language, label=label)
            )
            where.append(shown_field)
        detail = text(_CODE_KEYS[self.code], language, label=label, **shown)
        return (
            text("pad.where", language, where=", ".join(where), detail=detail) if where else detail
        )


# -- the rules' needs --------------------------------------------------------------------------


def _counts_sevens(rules: RuleSet) -> bool:
    return rules.sevens == "sevens" or rules.all_sevens_bonus > 0 or rules.big_wins


def _names_winner(rules: RuleSet) -> bool:
    return rules.sevens in ("ranking", "primiera")


def entry_fields(rules: RuleSet) -> tuple[str, ...]:
    """The fields a hand's entry needs under these rules, in the pad's order.

    >>> from escoba import RULESETS
    >>> entry_fields(RULESETS["escoba"])
    ('cards', 'coins', 'seven_of_coins', 'sevens_winner', 'sweeps')
    >>> entry_fields(RULESETS["escoba-classic"])
    ('cards', 'coins', 'seven_of_coins', 'sevens', 'sweeps')
    >>> entry_fields(RULESETS["scopa"].replace(re_bello=True, napola=True))
    ('cards', 'coins', 'seven_of_coins', 'sevens_winner', 'king_of_coins', 'coin_runs', 'sweeps')
    """
    needed = {"cards", "coins", "seven_of_coins", "sweeps"}
    if _counts_sevens(rules):
        needed.add("sevens")
    if _names_winner(rules):
        needed.add("sevens_winner")
    if rules.re_bello:
        needed.add("king_of_coins")
    if rules.napola:
        needed.add("coin_runs")
    return tuple(name for name in FIELDS if name in needed)


# -- checking one hand -------------------------------------------------------------------------


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _is_side(value: object, sides: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < sides


@dataclass(frozen=True, slots=True)
class _Checked:
    cards: tuple[int, ...]
    coins: tuple[int, ...]
    holder: int
    sweeps: tuple[int, ...]
    sevens: tuple[int, ...] | None
    winner: int | None
    king: int | None
    runs: tuple[int, ...] | None


class _HandChecker:
    """Checks one entry; every refusal is a :class:`ScorePadError` naming where it is."""

    def __init__(
        self, rules: RuleSet, sides: int, number: int, names: Sequence[str] | None
    ) -> None:
        self.rules = rules
        self.sides = sides
        self.number = number
        self.names = names

    def fail(
        self, code: str, *, side: int | None = None, field: str | None = None, **params: object
    ) -> ScorePadError:
        return ScorePadError(
            code,
            hand=self.number,
            side=side,
            field=field,
            rules=self.rules,
            names=self.names,
            **params,
        )

    def per_side(self, field: str, values: object) -> tuple[int, ...]:
        if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
            if values is None:
                raise self.fail("missing", field=field)
            raise self.fail("per_side", field=field, sides=self.sides, value=repr(values))
        if len(values) != self.sides:
            raise self.fail("per_side", field=field, sides=self.sides, value=list(values))
        for side, value in enumerate(values):
            if value is None:
                raise self.fail("missing", side=side, field=field)
            if not _is_count(value):
                raise self.fail("not_whole", side=side, field=field, value=repr(value))
        return tuple(values)

    def check(self, entry: HandEntry) -> _Checked:
        rules = self.rules
        cards = self.per_side("cards", entry.cards)
        coins = self.per_side("coins", entry.coins)
        sevens: tuple[int, ...] | None = None
        if entry.sevens is not None:
            sevens = self.per_side("sevens", entry.sevens)
        elif _counts_sevens(rules):
            raise self.fail("sevens_needed", field="sevens")
        sweeps = self.per_side("sweeps", entry.sweeps)
        holder = entry.seven_of_coins
        if holder is None:
            raise self.fail("holder_needed", field="seven_of_coins")
        if not _is_side(holder, self.sides):
            raise self.fail(
                "not_a_side", field="seven_of_coins", value=repr(holder), last=self.sides - 1
            )
        winner = entry.sevens_winner
        if winner is NOT_GIVEN:
            if _names_winner(rules):
                raise self.fail("winner_needed", field="sevens_winner")
            winner = None
        elif winner is not None and not _is_side(winner, self.sides):
            raise self.fail(
                "not_a_side", field="sevens_winner", value=repr(winner), last=self.sides - 1
            )
        king = entry.king_of_coins
        if king is None:
            if rules.re_bello:
                raise self.fail("king_needed", field="king_of_coins")
        elif not _is_side(king, self.sides):
            raise self.fail(
                "not_a_side", field="king_of_coins", value=repr(king), last=self.sides - 1
            )
        runs: tuple[int, ...] | None = None
        if entry.coin_runs is not None:
            runs = self.per_side("coin_runs", entry.coin_runs)
        elif rules.napola:
            raise self.fail("runs_needed", field="coin_runs")
        for field, values in (("cards", cards), ("coins", coins), ("sevens", sevens)):
            if values is not None and sum(values) != _TOTALS[field]:
                raise self.fail(f"{field}_total", field=field, total=sum(values))
        for side in range(self.sides):
            self.check_side(side, cards[side], coins[side], sevens, sweeps[side], side == holder)
        if king is not None:
            # The king of coins is a coin, and so is the seven of coins if the same side took it.
            needed = 1 + (1 if king == holder else 0)
            if coins[king] < needed:
                raise self.fail("king_coins", side=king, field="coins", coins=needed)
        if runs is not None:
            self.check_runs(runs, coins, holder)
        if _names_winner(rules):
            self.check_winner(winner, cards, coins, sevens)
        return _Checked(cards, coins, holder, sweeps, sevens, winner, king, runs)

    def check_runs(self, runs: tuple[int, ...], coins: tuple[int, ...], holder: int) -> None:
        """A run of coins from the ace: one side at most (one ace of coins), no longer than
        its coins, holding the seven of coins if it passes it (a run of 10 is every coin, the
        king included: the coins' count already says so)."""
        field = "coin_runs"
        started = [side for side, run in enumerate(runs) if run]
        if len(started) > 1:
            raise self.fail("one_run", side=started[1], field=field)
        for side in started:
            run = runs[side]
            if run > coins[side]:
                raise self.fail(
                    "run_over_coins", side=side, field=field, run=run, coins=coins[side]
                )
            if run >= 7 and side != holder:
                raise self.fail("run_seven", side=side, field=field, run=run)

    def check_side(
        self,
        side: int,
        cards: int,
        coins: int,
        all_sevens: tuple[int, ...] | None,
        sweeps: int,
        holds_seven_of_coins: bool,
    ) -> None:
        if coins > cards:
            raise self.fail("over_cards", side=side, field="coins", count=coins, cards=cards)
        if holds_seven_of_coins and coins == 0:
            raise self.fail("holder_coins", side=side, field="coins")
        if all_sevens is not None:
            sevens = all_sevens[side]
            if sevens > cards:
                raise self.fail("over_cards", side=side, field="sevens", count=sevens, cards=cards)
            if holds_seven_of_coins and sevens == 0:
                raise self.fail("holder_sevens", side=side, field="sevens")
            # The seven of coins is both a coin and a seven: count it once.
            needed = coins + sevens - (1 if holds_seven_of_coins else 0)
            if needed > cards:
                raise self.fail(
                    "coins_and_sevens",
                    side=side,
                    field="cards",
                    coins=coins,
                    sevens=sevens,
                    needed=needed,
                    cards=cards,
                )
        # Every sweep takes the played card and at least one table card; the first four table
        # cards make at most two sweeps.
        if 2 * sweeps > cards:
            raise self.fail(
                "sweeps_cards",
                side=side,
                field="sweeps",
                sweeps=sweeps,
                needed=2 * sweeps,
                cards=cards,
            )

    def check_winner(
        self,
        winner: int | None,
        cards: tuple[int, ...],
        coins: tuple[int, ...],
        sevens: tuple[int, ...] | None,
    ) -> None:
        """What the counts already decide about the sevens category (never more)."""
        rules = self.rules
        field = "sevens_winner"
        forced: tuple[int, str] | None = None
        if sevens is not None and 4 in sevens:
            forced = (sevens.index(4), "winner_all_sevens")
        elif sum(1 for count in cards if count) == 1:
            forced = (next(s for s, count in enumerate(cards) if count), "winner_all_cards")
        elif rules.sevens == "ranking" and sevens is not None and sevens.count(max(sevens)) == 1:
            # The setenta key holds one seven per suit first: the most sevens wins it.
            forced = (sevens.index(max(sevens)), "winner_most_sevens")
        if forced is not None and winner != forced[0]:
            raise self.fail(forced[1], field=field, name=forced[0])
        if winner is None:
            return
        if cards[winner] == 0:
            raise self.fail("winner_no_cards", field=field, name=winner)
        if rules.sevens == "ranking" and sevens is not None and sevens[winner] < max(sevens):
            raise self.fail(
                "winner_fewer_sevens", field=field, name=winner, other=sevens.index(max(sevens))
            )
        if rules.primiera_needs_all_suits and (
            cards[winner] < 4 or coins[winner] in (0, cards[winner])
        ):
            raise self.fail(
                "winner_missing_suit",
                field=field,
                name=winner,
                cards=cards[winner],
                coins=coins[winner],
            )


# -- the pad -----------------------------------------------------------------------------------


def tally(
    rules: RuleSet,
    sides: int,
    hands: Sequence[HandEntry],
    *,
    names: Sequence[str] | None = None,
) -> ScorePad:
    """Add up a pad: the points of every hand, the running totals and the winner, if any.

    ``names`` (one per side) only make the error messages speak of the players. A hand entered
    after the hand that won the match is refused.
    """
    if not isinstance(rules, RuleSet):
        raise RulesError(f"rules must be a RuleSet, got {rules!r}")
    if not _is_side(sides, 5) or sides < 2:
        raise ScorePadError("sides_count", field="sides", value=repr(sides))
    if names is not None:
        if isinstance(names, (str, bytes)) or not isinstance(names, Sequence):
            raise ScorePadError("not_a_list", field="names", value=repr(names))
        if len(names) != sides:
            raise ScorePadError("names_count", field="names", sides=sides, value=len(names))
        for side, name in enumerate(names):
            if not isinstance(name, str) or not name.strip():
                raise ScorePadError("name_text", side=side, field="names", value=repr(name))
    if isinstance(hands, (str, bytes)) or not isinstance(hands, Sequence):
        raise ScorePadError("not_a_list", field="hands", value=repr(hands), names=names)
    totals = [0] * sides
    done: list[HandTally] = []
    winner: int | None = None
    for number, entry in enumerate(hands, start=1):
        checker = _HandChecker(rules, sides, number, names)
        if winner is not None:
            raise checker.fail("match_over", after=number - 1, name=winner)
        if not isinstance(entry, HandEntry):
            raise checker.fail("not_an_entry", value=repr(entry))
        hand = checker.check(entry)
        points, breakdown = _score(hand, rules, sides)
        totals = [total + gained for total, gained in zip(totals, points, strict=True)]
        done.append(HandTally(number, points, MappingProxyType(breakdown), tuple(totals)))
        winner = match_winner(totals, rules)
    return ScorePad(rules, sides, tuple(done), tuple(totals), winner)


def _score(
    hand: _Checked, rules: RuleSet, sides: int
) -> tuple[tuple[int, ...], dict[str, tuple[int, ...]]]:
    """The engine's scoring of the counted hand."""
    standing: list[Any]
    if rules.sevens == "sevens":
        assert hand.sevens is not None  # checked: these rules count sevens
        standing = list(hand.sevens)
    else:
        # Setenta or primiera: the named side stands alone at the top; nobody named is a tie.
        standing = [1 if side == hand.winner else 0 for side in range(sides)]
    sevens = hand.sevens or (0,) * sides
    points, breakdown = score_counts(
        hand.cards,
        hand.coins,
        [side == hand.holder for side in range(sides)],
        standing,
        [count == 4 for count in sevens],
        hand.sweeps,
        rules,
        None if hand.king is None else [side == hand.king for side in range(sides)],
        hand.runs,
    )
    return points, breakdown
