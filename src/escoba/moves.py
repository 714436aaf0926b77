"""A move: one card from the hand and the exact set of table cards it takes (maybe none).

Text form: ``4h:4c+7d`` plays the 4 of cups taking 4c and 7d; ``Qd`` drops the queen of coins.
Internally a move is the int ``card index | capture mask << 6``; Move objects are interned
by that key, so the engine hands out the same object for the same move.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from .cards import DECK, Card, cards_of_mask
from .errors import InvalidCardError, InvalidMoveError

__all__ = ["Move"]

_CACHE_LIMIT: Final = 1 << 20


class _Interned(dict[int, "Move"]):
    """Moves by key, made on first use (``INTERNED[key]`` is the move with that key)."""

    def __missing__(self, key: int) -> Move:
        if len(self) >= _CACHE_LIMIT:
            self.clear()
        move = object.__new__(Move)
        object.__setattr__(move, "key", key)
        object.__setattr__(move, "_captures", None)
        self[key] = move
        return move


class Move:
    """One card played, and the table cards it takes.

    >>> m = Move.parse("4h:7d+4c")
    >>> str(m), m.card, sorted(m.captures), m.is_capture
    ('4h:7d+4c', Card('4h'), [Card('7d'), Card('4c')], True)
    >>> Move.parse("Qd") == Move(Card.parse("Qd"))
    True
    """

    __slots__ = ("_captures", "key")

    key: int
    """The internal key: card index plus capture mask shifted by 6 (a plain slot: the engine
    reads it on every move)."""
    _captures: frozenset[Card] | None

    def __init__(self, card: Card, captures: Iterable[Card] = ()) -> None:
        if not isinstance(card, Card):
            raise InvalidMoveError(f"a move needs the played Card, got {card!r}")
        if isinstance(captures, (str, bytes)):
            raise InvalidMoveError(f"captures must be Cards, not text {captures!r}")
        listed = list(captures)
        taken = frozenset(listed)
        if len(taken) != len(listed):
            raise InvalidMoveError(f"a move takes each card once: {listed!r}")
        mask = 0
        for item in taken:
            if not isinstance(item, Card):
                raise InvalidMoveError(f"a move can only take Cards, got {item!r}")
            mask |= item.bit
        if mask & card.bit:
            raise InvalidMoveError(f"the played card {card} cannot also be taken from the table")
        object.__setattr__(self, "key", card.index | mask << 6)
        object.__setattr__(self, "_captures", taken)

    @classmethod
    def of_key(cls, key: int) -> Move:
        """The interned move with this internal key."""
        return INTERNED[key]

    @classmethod
    def parse(cls, text: str) -> Move:
        """Parse ``"4h:4c+7d"`` (a capture) or ``"Qd"`` (a drop); suit symbols work too."""
        if not isinstance(text, str):
            raise InvalidMoveError(f"a move's text must be a string, got {text!r}")
        played, colon, taken = text.strip().partition(":")
        try:
            card = Card.parse(played)
        except InvalidCardError as error:
            raise InvalidMoveError(f"move {text!r}: the played card: {error}") from None
        if colon and not taken.strip():
            raise InvalidMoveError(
                f"move {text!r}: nothing after ':' (write just {played} to drop)"
            )
        captured: list[Card] = []
        if colon:
            for position, word in enumerate(taken.split("+"), start=1):
                try:
                    captured.append(Card.parse(word))
                except InvalidCardError as error:
                    raise InvalidMoveError(
                        f"move {text!r}: taken card {position}: {error}"
                    ) from None
        if len(set(captured)) != len(captured):
            raise InvalidMoveError(f"move {text!r}: a card is taken twice")
        return cls(card, captured)

    @property
    def card(self) -> Card:
        """The card played from the hand."""
        return DECK[self.key & 63]

    @property
    def captures(self) -> frozenset[Card]:
        """The table cards taken (empty for a drop)."""
        taken = self._captures
        if taken is None:
            taken = frozenset(cards_of_mask(self.key >> 6))
            object.__setattr__(self, "_captures", taken)
        return taken

    @property
    def capture_mask(self) -> int:
        """The taken cards as a bit set."""
        return self.key >> 6

    @property
    def is_capture(self) -> bool:
        """True if the move takes cards, False for a drop."""
        return self.key >= 64

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("moves are immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("moves are immutable")

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Move.parse, (str(self),))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Move):
            return self.key == other.key
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.key)

    def __lt__(self, other: Move) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return self.key < other.key

    def __str__(self) -> str:
        text = str(DECK[self.key & 63])
        if self.key >= 64:
            text += ":" + "+".join(str(c) for c in cards_of_mask(self.key >> 6))
        return text

    def __repr__(self) -> str:
        return f"Move({str(self)!r})"


INTERNED: Final = _Interned()
