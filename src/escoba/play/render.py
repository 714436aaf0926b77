"""Words for the plain-text game and the replay: cards, moves, seats, sides, the score pad.

Everything here turns public facts into lines in the reader's language; it never looks at
a hand it is not given.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from ..cards import Card, DeckStyle, Suit, card_name
from ..catalogue import message_key, plural, text
from ..cheatsheet import coin_run_name
from ..explanation import HandExplanation
from ..messages import level_name, move_name
from ..moves import Move
from ..observation import Deal, Event, InitialSweep, Observation, Play, Redeal
from ..rules import RuleSet
from ..scoring import CATEGORIES, HandResult, categories_in_play

__all__ = ["Captures", "Words", "by_suit", "capital", "captures_shown", "computer_names"]

_PAD_KEYS: Final[Mapping[str, str]] = {
    "cards": message_key("play.pad.cards"),
    "coins": message_key("play.pad.coins"),
    "seven_of_coins": message_key("play.pad.seven_of_coins"),
    "sevens": message_key("play.pad.sevens"),
    "all_sevens": message_key("play.pad.all_sevens"),
    "re_bello": message_key("play.pad.re_bello"),
    "napola": message_key("play.pad.napola"),
    "sweeps": message_key("play.pad.sweeps"),
}
"""The score pad's row label of each scoring category."""


def computer_names(
    levels: Sequence[str | None], language: str, *, with_level: bool = True
) -> dict[int, str]:
    """The name of each computer seat, by seat: "Computer (medium)" when it is the only one,
    "Computer 1 (medium)", "Computer 2 (hard)"... numbered in seat order when there are more,
    so that turn and move lines say which one. ``with_level=False`` leaves the level out.

    >>> computer_names([None, "hard", "hard"], "en")
    {1: 'Computer 1 (hard)', 2: 'Computer 2 (hard)'}
    >>> computer_names([None, "easy"], "de", with_level=False)
    {1: 'Computer'}
    """
    seats = [seat for seat, level in enumerate(levels) if level is not None]
    names: dict[int, str] = {}
    for number, seat in enumerate(seats, start=1):
        level = level_name(levels[seat] or "", language)
        if len(seats) == 1:
            if with_level:
                names[seat] = text("seat.computer", language, level=level)
            else:
                names[seat] = text("seat.computer_short", language)
        elif with_level:
            names[seat] = text("seat.computer_number", language, number=number, level=level)
        else:
            names[seat] = text("seat.computer_number_short", language, number=number)
    return names


@dataclass(frozen=True, slots=True)
class Captures:
    """The cards each side has captured in one hand, and its sweeps."""

    hand_number: int
    piles: tuple[frozenset[Card], ...]
    sweeps: tuple[int, ...]


def captures_shown(observation: Observation, results: Sequence[HandResult]) -> Captures:
    """The captures a player asks to see: those of the hand being played, or, between hands
    (nothing captured yet in the new hand) and after the match, those of the hand just ended,
    its leftovers included. Every capture is made face up: nothing hidden is shown.
    """
    between = observation.winner is not None or not any(observation.captured)
    if between and results:
        last = results[-1]
        return Captures(len(results) - 1, last.piles, last.sweeps)
    return Captures(observation.hand_number, observation.captured, observation.sweeps)


def by_suit(cards: Iterable[Card]) -> list[list[Card]]:
    """The cards grouped by suit (coins, cups, swords, clubs), each group in rank order;
    a suit with no card makes no group."""
    groups: dict[Suit, list[Card]] = {}
    for card in sorted(cards):  # the deck's order: by suit, then by rank
        groups.setdefault(card.suit, []).append(card)
    return list(groups.values())


class Words:
    """Lines for one reader: a deck style, a language, and the seat that is "you" (if any).

    ``rules``, the match's, leave out of the score pad the categories that cannot score under
    them (re bello and napola unless played...); without them every category is shown.
    """

    def __init__(
        self,
        deck: DeckStyle,
        language: str,
        sides: Sequence[Sequence[int]],
        levels: Sequence[str | None],
        you: int | None = None,
        rules: RuleSet | None = None,
    ) -> None:
        self.deck: DeckStyle = deck
        self.language = language
        self.sides = tuple(tuple(side) for side in sides)
        self.levels = tuple(levels)
        self.you = you
        self.categories = CATEGORIES if rules is None else categories_in_play(rules)
        """The score pad's categories, in pad order."""
        self._computers = computer_names(self.levels, language, with_level=False)

    def text(self, key: str, **params: object) -> str:
        """A message in the reader's language."""
        return text(key, self.language, **params)

    def plural(self, key: str, count: int, **params: object) -> str:
        """The form of a message for ``count`` things, in the reader's language."""
        return plural(key, count, self.language, **params)

    __call__ = text

    def level(self, level: str) -> str:
        """A computer level's name."""
        return level_name(level, self.language)

    # -- cards and moves

    def card(self, card: Card) -> str:
        return card_name(card, self.deck, self.language)

    def cards(self, cards: Iterable[Card]) -> str:
        shown = sorted(cards)
        return ", ".join(map(self.card, shown)) if shown else self.text("play.nothing")

    def card_list(self, cards: Iterable[Card]) -> str:
        """Cards as a sentence says them: "6♦, 2♥ and 4♣"."""
        names = [self.card(card) for card in sorted(cards)]
        if len(names) < 2:
            return names[0] if names else self.text("play.nothing")
        return self.text("play.and", first=", ".join(names[:-1]), last=names[-1])

    def move_phrase(self, move: Move) -> str:
        """A move in words, for a sentence about it: "3♦ taking 6♦, 2♥ and 4♣"."""
        if move.captures:
            return self.text(
                "play.take", card=self.card(move.card), cards=self.card_list(move.captures)
            )
        return self.text("play.drop", card=self.card(move.card))

    def move(self, move: Move, sweep: bool = False) -> str:
        """A move in words (:func:`escoba.messages.move_name`), with ", sweep" after a sweep."""
        words = move_name(move, self.deck, self.language)
        return words + (self.text("play.sweep") if sweep else "")

    # -- seats and sides

    def seat(self, seat: int) -> str:
        """The person ("you"), a computer's name ("Computer 2"), or "seat 3"."""
        if seat == self.you:
            return self.text("play.you")
        if seat in self._computers:
            return self._computers[seat]
        return self.text("play.seat", seat=seat + 1)  # counted from 1, as the web does

    def side(self, side: int) -> str:
        seats = self.sides[side]
        if len(seats) == 1:
            return self.seat(seats[0])
        if self.you in seats:
            partner = next(s for s in seats if s != self.you)
            return self.text("play.you_and_partner", seat=partner + 1)
        return self.text("play.seats", first=seats[0] + 1, second=seats[1] + 1)

    def scores(self, totals: Sequence[int]) -> str:
        return "; ".join(
            self.text("play.score_of", side=self.side(i), points=points)
            for i, points in enumerate(totals)
        )

    def played(self, seat: int, move: Move, sweep: bool) -> str:
        """One line for a move: "You play ...", "Computer 1 (medium) plays ..."."""
        words = self.move(move, sweep)
        if seat == self.you:
            return self.text("play.you_play", move=words)
        level = self.levels[seat] if seat < len(self.levels) else None
        who = self.seat(seat)
        if level is None:
            return capital(self.text("play.seat_plays", who=who, move=words))
        level = self.level(level)
        return capital(self.text("play.computer_plays", who=who, level=level, move=words))

    def event(self, event: Event) -> str | None:
        """A public event other than a deal as a line (None for a deal)."""
        if isinstance(event, Play):
            return self.played(event.seat, event.move, event.sweep)
        if isinstance(event, InitialSweep):
            return self.text(
                "play.initial_sweep",
                cards=self.cards(event.cards),
                total=sum(c.value for c in event.cards),
                who=self.seat(event.dealer),
                sweeps=event.sweeps,
            )
        if isinstance(event, Redeal):
            return self.text("play.redeal", cards=self.cards(event.table))
        assert isinstance(event, Deal)
        return None

    # -- the end of a hand

    def hand_end(self, number: int, result: HandResult, totals: Sequence[int]) -> list[str]:
        """The leftovers line, and the score pad: every category per side, the hand's points
        and the running match totals."""
        lines: list[str] = []
        if result.leftovers and result.last_capturer is not None:
            if result.last_capturer == self.you:
                key = message_key("play.you_leftovers")
            else:
                key = message_key("play.leftovers")
            line = self.text(
                key, who=self.seat(result.last_capturer), cards=self.cards(result.leftovers)
            )
            lines.append(capital(line))
        lines.append(self.text("play.hand_over", number=number + 1))
        return lines + self.score_pad(number, result, totals)

    def score_pad(self, number: int, result: HandResult, totals: Sequence[int]) -> list[str]:
        """One hand's score pad: its title, every category per side, the hand's points and
        the match totals after it."""
        lines = [self.text("play.pad_title", number=number + 1)]
        names = [self.side(i) for i in range(len(self.sides))]
        rows: list[tuple[str, Sequence[int]]] = [
            (label, result.breakdown[category])
            for category, label in zip(self.categories, self.category_labels(), strict=True)
        ]
        rows.append((self.text("play.pad.hand"), result.points))
        rows.append((self.text("play.pad.total"), totals))
        first = max(len(label) for label, _ in rows)
        widths = [max(len(name), 3) for name in names]
        lines.append(
            "  "
            + " " * first
            + "".join(f"  {name:>{w}}" for name, w in zip(names, widths, strict=True))
        )
        for label, values in rows:
            cells = "".join(f"  {v:>{w}}" for v, w in zip(values, widths, strict=True))
            lines.append(f"  {label:<{first}}{cells}")
        return lines

    def explanation(self, number: int, why: HandExplanation) -> list[str]:
        """What each side took, behind the hand's points: one line per count (cards, coins,
        the seven of coins, the sevens or each suit's best card, the primiera, the king of
        coins and the run of coins where the rules score them, sweeps)."""

        def row(label_key: str, values: Sequence[object]) -> str:
            shown = "; ".join(
                self.text("play.score_of", side=self.side(side), points=value)
                for side, value in enumerate(values)
            )
            return "  " + self.text("play.why.row", label=self.text(label_key), values=shown)

        def named(cards: Sequence[Card]) -> str:
            return ", ".join(map(self.card, cards)) if cards else "–"

        sides = why.sides
        seven = Card.parse("7d")
        lines = [self.text("tui.why.title", n=number + 1)]
        lines.append(row("tui.why.cards", [side.cards for side in sides]))
        lines.append(row("tui.why.coins", [side.coins for side in sides]))
        lines.append(
            row(
                "tui.why.seven_of_coins",
                [named([seven] if s.seven_of_coins else []) for s in sides],
            )
        )
        if why.sevens_mode in ("sevens", "none"):
            lines.append(row("tui.why.sevens", [named(side.sevens) for side in sides]))
        else:
            lines.append(row("tui.why.best", [named(side.ranked_best) for side in sides]))
        if why.sevens_mode == "primiera":
            sums = [
                "+".join(str(p) for p in sorted(side.best_points, reverse=True) if p)
                + f" = {side.primiera}"
                for side in sides
            ]
            lines.append(row("tui.why.primiera", sums))
        if why.re_bello:
            king = Card.parse("Kd")
            lines.append(
                row(
                    "tui.why.king_of_coins",
                    [named([king] if s.king_of_coins else []) for s in sides],
                )
            )
        if why.napola:
            runs = [
                self.coin_run(side.coin_run, points)
                for side, points in zip(sides, why.breakdown["napola"], strict=True)
            ]
            lines.append(row("tui.why.coin_run", runs))
        lines.append(row("tui.why.sweeps", [side.sweeps for side in sides]))
        return lines

    def coin_run(self, run: int, points: int) -> str:
        """A run of coins from the ace and the points it scored: "A-2-3-4: 4 points", "A-2",
        or "–" without the ace of coins."""
        if not run:
            return "–"
        name = coin_run_name(run, self.deck, self.language)
        if not points:
            return name
        return self.text("tui.why.run", run=name, points=self.plural("count.points", points))

    def captures(self, captures: Captures) -> list[str]:
        """The captured cards of a hand: its title, then each side's count and sweeps, and
        one line per suit of its cards in rank order."""
        lines = [self.text("tui.captures_title", n=captures.hand_number + 1) + ":"]
        for side, pile in enumerate(captures.piles):
            sweeps = captures.sweeps[side]
            lines.append(
                "  "
                + capital(
                    self.plural("play.captured", len(pile), side=self.side(side), sweeps=sweeps)
                )
            )
            lines.extend("    " + ", ".join(map(self.card, suit)) for suit in by_suit(pile))
        return lines

    def category_labels(self) -> list[str]:
        """The score pad's row labels, one per scoring category shown, in pad order."""
        return [self.text(_PAD_KEYS[category]) for category in self.categories]


def capital(line: str) -> str:
    """The line with its first letter a capital (seat names start lines too)."""
    return line[:1].upper() + line[1:]
