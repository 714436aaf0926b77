"""Words for the plain-text game and the replay: cards, moves, seats, sides, the score pad.

Everything here turns public facts into lines in the reader's language; it never looks at
a hand it is not given.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..cards import Card, DeckStyle, card_name
from ..messages import text
from ..moves import Move
from ..observation import Deal, Event, InitialSweep, Play, Redeal
from ..scoring import CATEGORIES, HandResult

__all__ = ["Words", "capital"]


class Words:
    """Lines for one reader: a deck style, a language, and the seat that is "you" (if any)."""

    def __init__(
        self,
        deck: DeckStyle,
        language: str,
        sides: Sequence[Sequence[int]],
        levels: Sequence[str | None],
        you: int | None = None,
    ) -> None:
        self.deck: DeckStyle = deck
        self.language = language
        self.sides = tuple(tuple(side) for side in sides)
        self.levels = tuple(levels)
        self.you = you

    def __call__(self, key: str, **params: object) -> str:
        return text(key, self.language, **params)

    # -- cards and moves

    def card(self, card: Card) -> str:
        return card_name(card, self.deck, self.language)

    def cards(self, cards: Iterable[Card]) -> str:
        shown = sorted(cards)
        return ", ".join(map(self.card, shown)) if shown else self("play.nothing")

    def move(self, move: Move, sweep: bool = False) -> str:
        if move.captures:
            taken = " + ".join(self.card(c) for c in sorted(move.captures))
            words = self("play.take", card=self.card(move.card), cards=taken)
        else:
            words = self("play.drop", card=self.card(move.card))
        return words + (self("play.sweep") if sweep else "")

    # -- seats and sides

    def seat(self, seat: int) -> str:
        return self("play.you") if seat == self.you else self("play.seat", seat=seat)

    def side(self, side: int) -> str:
        seats = self.sides[side]
        if len(seats) == 1:
            return self.seat(seats[0])
        if self.you in seats:
            partner = next(s for s in seats if s != self.you)
            return self("play.you_and_partner", seat=partner)
        return self("play.seats", first=seats[0], second=seats[1])

    def scores(self, totals: Sequence[int]) -> str:
        return "; ".join(f"{self.side(i)}: {points}" for i, points in enumerate(totals))

    def played(self, seat: int, move: Move, sweep: bool) -> str:
        """One line for a move: "You play ...", "seat 1 (medium) plays ..."."""
        words = self.move(move, sweep)
        if seat == self.you:
            return self("play.you_play", move=words)
        level = self.levels[seat] if seat < len(self.levels) else None
        who = self.seat(seat)
        if level is None:
            return capital(self("play.seat_plays", who=who, move=words))
        return capital(self("play.computer_plays", who=who, level=level, move=words))

    def event(self, event: Event) -> str | None:
        """A public event other than a deal as a line (None for a deal)."""
        if isinstance(event, Play):
            return self.played(event.seat, event.move, event.sweep)
        if isinstance(event, InitialSweep):
            return self(
                "play.initial_sweep",
                cards=self.cards(event.cards),
                total=sum(c.value for c in event.cards),
                who=self.seat(event.dealer),
                sweeps=event.sweeps,
            )
        if isinstance(event, Redeal):
            return self("play.redeal", cards=self.cards(event.table))
        assert isinstance(event, Deal)
        return None

    # -- the end of a hand

    def hand_end(self, number: int, result: HandResult, totals: Sequence[int]) -> list[str]:
        """The leftovers line, and the score pad: every category per side, the hand's points
        and the running match totals."""
        lines: list[str] = []
        if result.leftovers and result.last_capturer is not None:
            key = "play.you_leftovers" if result.last_capturer == self.you else "play.leftovers"
            line = self(
                key, who=self.seat(result.last_capturer), cards=self.cards(result.leftovers)
            )
            lines.append(capital(line))
        lines.append(self("play.hand_over", number=number + 1))
        lines.append(self("play.pad_title", number=number + 1))
        names = [self.side(i) for i in range(len(self.sides))]
        rows: list[tuple[str, Sequence[int]]] = [
            (label, result.breakdown[category])
            for category, label in zip(CATEGORIES, self.category_labels(), strict=True)
        ]
        rows.append((self("play.pad.hand"), result.points))
        rows.append((self("play.pad.total"), totals))
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

    def category_labels(self) -> list[str]:
        """The score pad's row labels, one per scoring category, in pad order."""
        return [self(f"play.pad.{category}") for category in CATEGORIES]


def capital(line: str) -> str:
    """The line with its first letter a capital (seat names start lines too)."""
    return line[:1].upper() + line[1:]
