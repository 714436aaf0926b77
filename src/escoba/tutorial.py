"""Learn to play: the first-match tutorial's lessons, as data both front ends share.

Six lessons walk a new player through the seeds' worked examples and beginner tips, one step at
a time: adding up to 15 (and Scopa's match rule), a sweep, the forced capture, the cards left on
the table at a hand's end, scoring a hand, and a few tips. A step is a position (a hand and a
table, or two captured piles to score) and, when the player is to play, the moves it expects.

The expected moves are checked against the engine's own :func:`escoba.captures` when the lessons
are made, so a lesson can never teach an illegal move; :func:`judge` explains every other try:
why an illegal one is refused (not 15, single-card priority, the forced capture) and why a
legal one is not what the step is about. Texts are message keys of the catalogue (domain
``escoba``), filled in with card names in the reader's deck style.

>>> from escoba import Move
>>> step = STEPS[1]
>>> judge(step, Move.parse("4h:4c+7d")).accepted
True
>>> judge(step, Move.parse("4h:4c+3h")).text("en")
'4 + 3 + 4 = 11, not 15.'
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from types import MappingProxyType
from typing import Final, Literal

from .captures import captures
from .cards import Card, DeckStyle, card_name, parse_cards
from .catalogue import message_key, plural, text
from .cheatsheet import category_label, coin_run_name
from .errors import InvalidMoveError
from .explanation import HandExplanation, SideTally, explain_hand
from .moves import Move
from .rules import RULESETS, RuleSet
from .scoring import HandResult, categories_in_play, score_hand

__all__ = [
    "LESSONS",
    "STEPS",
    "STEP_LESSONS",
    "TABLE_LETTERS",
    "Lesson",
    "ScoreRow",
    "Step",
    "Verdict",
    "every_try",
    "explained",
    "hand_points",
    "judge",
    "key_range",
    "legal_moves",
    "lessons_done",
    "score_rows",
    "scored_text",
    "side_names",
    "step_text",
]

StepKind = Literal["read", "play", "score"]
Param = Card | int | str | tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a lesson: something to read, a move to play, or two piles to score.

    ``body`` is what the step says (and asks); ``done`` what it says once the player made an
    expected move; ``other`` why a legal move that the step does not expect is not the point.
    ``params`` fill the texts' placeholders: a card is named in the reader's deck style, cards
    are joined with " + ", numbers are shown as they are.
    """

    body: str
    preset: str = "escoba"
    hand: tuple[Card, ...] = ()
    table: tuple[Card, ...] = ()
    expected: frozenset[Move] = frozenset()
    done: str | None = None
    other: str | None = None
    piles: tuple[tuple[Card, ...], ...] = ()
    sweeps: tuple[int, ...] = ()
    params: Mapping[str, Param] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "params", MappingProxyType(dict(self.params)))
        legal = legal_moves(self)
        if self.expected - legal:
            wrong = ", ".join(sorted(str(m) for m in self.expected - legal))
            raise InvalidMoveError(f"step {self.body}: expects illegal moves {wrong}")
        if self.expected and self.done is None:
            raise ValueError(f"step {self.body}: a step to play needs a text for when it is done")
        if legal - self.expected and self.expected and self.other is None:
            raise ValueError(f"step {self.body}: legal moves it does not expect need a text")

    @property
    def kind(self) -> StepKind:
        """What the player does: reads, plays a move, or reads a hand's scoring."""
        if self.expected:
            return "play"
        return "score" if self.piles else "read"

    @property
    def rules(self) -> RuleSet:
        return RULESETS[self.preset]


@dataclass(frozen=True, slots=True)
class Lesson:
    """A lesson: its title (a message key) and its steps."""

    title: str
    steps: tuple[Step, ...]


@dataclass(frozen=True, slots=True)
class Verdict:
    """What a try gets: accepted or not, whether the engine allows it, and why (a message key
    and its parameters, made into text in the reader's language and deck)."""

    accepted: bool
    legal: bool
    key: str
    params: Mapping[str, Param]

    def text(self, language: str = "en", deck: DeckStyle = "french") -> str:
        return _filled(self.key, self.params, deck, language)


@dataclass(frozen=True, slots=True)
class ScoreRow:
    """One scoring category of a score step: what each side has, and its points."""

    category: str
    label: str
    shown: tuple[str, ...]
    points: tuple[int, ...]


def legal_moves(step: Step) -> frozenset[Move]:
    """Every move the engine allows from the step's hand on its table (none to read)."""
    rules = step.rules
    moves: set[Move] = set()
    for card in step.hand:
        sets = captures(card, step.table, rules)
        moves.update(Move(card, taken) for taken in sets)
        if not sets or not rules.forced_capture:
            moves.add(Move(card))
    return frozenset(moves)


def every_try(step: Step) -> list[Move]:
    """Every move a player could try: each hand card with each set of table cards (maybe none),
    legal or not, in the canonical order of their text."""
    tries = [
        Move(card, taken)
        for card in step.hand
        for size in range(len(step.table) + 1)
        for taken in combinations(step.table, size)
    ]
    return sorted(tries, key=str)


def judge(step: Step, move: Move) -> Verdict:
    """Whether ``move`` is what the step asks, and why (or why not).

    A card not in the hand, or a table card not on the table, is refused with
    :class:`InvalidMoveError` naming it: no lesson offers it.
    """
    if not step.expected:
        raise InvalidMoveError("this step has nothing to play")
    if move.card not in step.hand:
        raise InvalidMoveError(f"{move.card} is not in the hand of this step")
    strays = sorted(move.captures - set(step.table))
    if strays:
        raise InvalidMoveError(f"{strays[0]} is not on the table of this step")
    taken = tuple(sorted(move.captures, key=_by_value))
    left = sum(c.value for c in step.table) - sum(c.value for c in taken)
    if not move.is_capture:
        left += move.card.value
    about: dict[str, Param] = {"card": move.card, "cards": taken, "left": left, "need": 15 - left}
    if move in step.expected:
        return Verdict(True, True, step.done or "", {**step.params, **about})
    if move in legal_moves(step):
        return Verdict(False, True, step.other or "", {**step.params, **about})
    key, why = _why_illegal(step, move.card, taken)
    return Verdict(False, False, key, {**about, **why})


def _by_value(card: Card) -> tuple[int, int]:
    return card.value, card.index


def _why_illegal(step: Step, card: Card, taken: tuple[Card, ...]) -> tuple[str, dict[str, Param]]:
    """The message saying which rule of RULES.md ("A move") a try breaks."""
    if not taken:  # a drop, by a card that can take
        example = min(captures(card, step.table, step.rules), key=len)
        return message_key("tutorial.why.forced"), {
            "example": tuple(sorted(example, key=_by_value))
        }
    total = sum(c.value for c in taken)
    if step.rules.capture == "sum15":
        values = " + ".join(str(c.value) for c in (card, *taken))
        return message_key("tutorial.why.not_15"), {"sum": values, "total": total + card.value}
    equal = tuple(c for c in step.table if c.value == card.value)
    if equal:
        return message_key("tutorial.why.priority"), {"equal": equal}
    values = " + ".join(str(c.value) for c in taken)
    return message_key("tutorial.why.not_value"), {
        "sum": values,
        "total": total,
        "value": card.value,
    }


def _shown(value: object, deck: DeckStyle, language: str) -> object:
    if isinstance(value, Card):
        return card_name(value, deck, language)
    if isinstance(value, tuple):
        return " + ".join(card_name(c, deck, language) for c in value if isinstance(c, Card))
    return value


def _filled(key: str, params: Mapping[str, object], deck: DeckStyle, language: str) -> str:
    return text(key, language, **{n: _shown(v, deck, language) for n, v in params.items()})


def step_text(step: Step, language: str = "en", deck: DeckStyle = "french") -> str:
    """What the step says, in a language, its cards named in the deck style."""
    return _filled(step.body, step.params, deck, language)


_SEVEN_OF_COINS: Final = Card.parse("7d")
_KING_OF_COINS: Final = Card.parse("Kd")
_SIDES: Final = (message_key("tutorial.side.you"), message_key("tutorial.side.opponent"))


def side_names(language: str = "en") -> tuple[str, ...]:
    """The two sides of a score step: the player and the opponent."""
    return tuple(text(key, language) for key in _SIDES)


def explained(step: Step) -> HandExplanation:
    """A score step's hand as the engine scores and explains it (:func:`escoba.explain_hand`)."""
    score = score_hand(step.piles, step.sweeps, step.rules)
    result = HandResult(
        dealer=0,
        piles=tuple(frozenset(pile) for pile in step.piles),
        sweeps=step.sweeps,
        points=score.points,
        breakdown=score.breakdown,
        leftovers=frozenset(),
        last_capturer=None,
    )
    return explain_hand(result, step.rules)


def scored_text(points: Sequence[int], language: str = "en") -> str:
    """Who scores in a category ("You +1"), or that a tie gives nobody the point."""
    names = side_names(language)
    scored = [f"{names[side]} +{p}" for side, p in enumerate(points) if p]
    return ", ".join(scored) or text("tutorial.score.tie", language)


def hand_points(step: Step) -> tuple[int, ...]:
    """A score step's points per side."""
    return explained(step).points


def score_rows(step: Step, language: str = "en", deck: DeckStyle = "french") -> list[ScoreRow]:
    """A score step's categories: what each side holds in each, and the points it makes."""
    why = explained(step)
    rows: list[ScoreRow] = []
    for category in categories_in_play(step.rules):
        points = why.breakdown[category]
        if category == "all_sevens" and not any(points):
            continue
        shown = tuple(
            _held(category, tally, why.sevens_mode, language, deck) for tally in why.sides
        )
        rows.append(
            ScoreRow(category, category_label(category, step.rules, language), shown, points)
        )
    return rows


def _held(category: str, tally: SideTally, sevens: str, language: str, deck: DeckStyle) -> str:
    """What a side holds in a category, as a player counts it."""
    if category == "cards":
        return plural("count.cards", tally.cards, language)
    if category == "coins":
        return plural("count.coins", tally.coins, language)
    if category == "seven_of_coins":
        return card_name(_SEVEN_OF_COINS, deck, language) if tally.seven_of_coins else "—"
    if category == "sweeps":
        return plural("count.sweeps", tally.sweeps, language)
    if category == "re_bello":
        return card_name(_KING_OF_COINS, deck, language) if tally.king_of_coins else "—"
    if category == "napola":
        return coin_run_name(tally.coin_run, deck, language) if tally.coin_run else "—"
    if category == "all_sevens" or sevens == "sevens":
        return plural("count.sevens", len(tally.sevens), language)
    names = " ".join(card_name(card, deck, language) for card in tally.ranked_best)
    if sevens == "primiera":
        points = dict(zip(tally.best, tally.best_points, strict=True))
        parts = " + ".join(str(points[card]) for card in tally.ranked_best)
        return f"{names}: {parts} = {tally.primiera}"
    return names


def _moves(*texts: str) -> frozenset[Move]:
    return frozenset(Move.parse(t) for t in texts)


def _card(text_: str) -> Card:
    return Card.parse(text_)


# -- the lessons ------------------------------------------------------------------------------
# Positions from the seeds' worked examples (seeds/000: A♠ 3♥ 4♣ 7♦ and a 4; Anna's and Ben's
# setenta; seeds/002: 5, 4, A and a 5; A, 2, 6 and an 8; the primiera 7♦ 6♥ 7♠ A♣ = 76;
# seeds/003: 3♠ 2♣ A♥ 4♦ swept by a 5) and RULES.md.

# Seed 000's example hand: Anna 23 cards, 4 coins, the setenta, two sweeps (4 points); Ben 6
# coins and the seven of coins (2 points). Their best cards: 7♠ 7♥ 6♦ 5♣ against 7♦ 7♣ A♠ A♥.
_ANNA: Final = parse_cards("3d 4d 5d 6d 3h 4h 5h 6h 7h Jh Qh Kh 3s 4s 5s 6s 7s Js Qs Ks 5c Qc Kc")
_BEN: Final = parse_cards("Ad 2d 7d Jd Qd Kd Ah 2h As 2s Ac 2c 3c 4c 6c 7c Jc")
# Scopa: the seed's primiera 7♦ 6♥ 7♠ A♣ = 76 loses to 6♦ 7♥ 6♠ 7♣ = 78; coins tie 5 to 5.
_YOURS: Final = parse_cards("Ad 2d 3d 4d 7d 4h 5h 6h 3s 4s 5s 7s Js Qs Ks Ac 2c 3c Jc")
_THEIRS: Final = parse_cards("5d 6d Jd Qd Kd Ah 2h 3h 7h Jh Qh Kh As 2s 6s 4c 5c 6c 7c Qc Kc")

LESSONS: Final[tuple[Lesson, ...]] = (
    Lesson(
        message_key("tutorial.lesson.sum"),
        (
            Step(
                message_key("tutorial.values.body"),
                params={"jack": _card("Jd"), "queen": _card("Qd"), "king": _card("Kd")},
            ),
            Step(
                message_key("tutorial.fifteen.body"),
                hand=parse_cards("4h Qs 2c"),
                table=parse_cards("As 3h 4c 7d"),
                expected=_moves("4h:4c+7d", "4h:As+3h+7d"),
                done=message_key("tutorial.fifteen.done"),
                other=message_key("tutorial.fifteen.other"),
                params={"four": _card("4h"), "seven": _card("7d")},
            ),
            Step(
                message_key("tutorial.match.body"),
                preset="scopa",
                hand=parse_cards("5d Jh"),
                table=parse_cards("Ah 4s 5c"),
                expected=_moves("5d:5c"),
                done=message_key("tutorial.match.done"),
                other=message_key("tutorial.match.other"),
                params={"five": _card("5d")},
            ),
            Step(
                message_key("tutorial.match_sum.body"),
                preset="scopa",
                hand=parse_cards("Jd 4h"),
                table=parse_cards("Ac 2d 6s"),
                expected=_moves("Jd:2d+6s"),
                done=message_key("tutorial.match_sum.done"),
                other=message_key("tutorial.match_sum.other"),
                params={"jack": _card("Jd")},
            ),
        ),
    ),
    Lesson(
        message_key("tutorial.lesson.sweep"),
        (
            Step(
                message_key("tutorial.sweep.body"),
                hand=parse_cards("5s Kh 7c"),
                table=parse_cards("Ah 4d 3s 2c"),
                expected=_moves("5s:Ah+4d+3s+2c"),
                done=message_key("tutorial.sweep.done"),
                other=message_key("tutorial.sweep.other"),
            ),
        ),
    ),
    Lesson(
        message_key("tutorial.lesson.forced"),
        (
            Step(
                message_key("tutorial.forced.body"),
                hand=parse_cards("3d 4c"),
                table=parse_cards("2s 6h Kc"),
                expected=_moves("3d:2s+Kc", "4c"),
                done=message_key("tutorial.forced.done"),
                params={"three": _card("3d"), "four": _card("4c")},
            ),
        ),
    ),
    Lesson(
        message_key("tutorial.lesson.leftovers"),
        (
            Step(
                message_key("tutorial.last_capture.body"),
                hand=parse_cards("7s"),
                table=parse_cards("2h 3c 5d Qs"),
                expected=_moves("7s:3c+5d"),
                done=message_key("tutorial.last_capture.done"),
                params={"left_cards": parse_cards("2h Qs")},
            ),
            Step(
                message_key("tutorial.leftovers.body"),
                hand=parse_cards("Jc"),
                table=parse_cards("2h 4d Qs"),
                expected=_moves("Jc"),
                done=message_key("tutorial.leftovers.done"),
                params={"left_cards": parse_cards("2h 4d Qs Jc")},
            ),
        ),
    ),
    Lesson(
        message_key("tutorial.lesson.scoring"),
        (
            Step(
                message_key("tutorial.setenta.body"),
                piles=(_ANNA, _BEN),
                sweeps=(2, 0),
            ),
            Step(
                message_key("tutorial.primiera.body"),
                preset="scopa",
                piles=(_YOURS, _THEIRS),
                sweeps=(1, 0),
            ),
        ),
    ),
    Lesson(
        message_key("tutorial.lesson.tips"),
        (
            Step(
                message_key("tutorial.empty_table.body"),
                hand=parse_cards("6h Kc 2s"),
                expected=_moves("2s"),
                done=message_key("tutorial.empty_table.done"),
                other=message_key("tutorial.empty_table.other"),
            ),
            Step(
                message_key("tutorial.seven_of_coins.body"),
                hand=parse_cards("5c Kh 2c"),
                table=parse_cards("7d 3s 5h"),
                expected=_moves("5c:7d+3s"),
                done=message_key("tutorial.seven_of_coins.done"),
                other=message_key("tutorial.seven_of_coins.other"),
                params={"seven": _card("7d")},
            ),
            Step(message_key("tutorial.count.body")),
        ),
    ),
)
"""The lessons, in order."""

STEPS: Final[tuple[Step, ...]] = tuple(step for lesson in LESSONS for step in lesson.steps)
"""Every step of every lesson, in order ("Step 3 of 13")."""

STEP_LESSONS: Final[tuple[int, ...]] = tuple(
    number for number, lesson in enumerate(LESSONS) for _ in lesson.steps
)
"""The lesson of each step of ``STEPS``, by its index in ``LESSONS``."""

TABLE_LETTERS: Final = "abcde"
"""The letters the terminal tutorials give the table's cards (a step has at most five)."""


def lessons_done(done: Collection[int]) -> tuple[bool, ...]:
    """Which lessons are done, given the steps done (indexes in ``STEPS``): a step to play is
    done once its right move was made, any other step once it was shown. Reading past an
    exercise never ticks its lesson.

    >>> lessons_done({4})
    (False, True, False, False, False, False)
    """
    return tuple(
        all(index in done for index, lesson in enumerate(STEP_LESSONS) if lesson == number)
        for number in range(len(LESSONS))
    )


def key_range(keys: str) -> str:
    """The keys a person presses for some cards, as a range: "a-d" for four, "1" for one.

    >>> key_range("abcd"), key_range("1"), key_range("")
    ('a-d', '1', '')
    """
    return keys if len(keys) < 2 else f"{keys[0]}-{keys[-1]}"
