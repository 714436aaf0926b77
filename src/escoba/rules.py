"""Rule sets: every option of the specification as data, and the six presets."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal

from .errors import RulesError

__all__ = [
    "BOOL_OPTIONS",
    "CAPTURE_MODES",
    "INT_OPTIONS",
    "MAX_ALL_SEVENS_BONUS",
    "MAX_TARGET_SCORE",
    "MAX_WIN_BY",
    "PRESET_SEATING",
    "RULESETS",
    "SEVENS_MODES",
    "CaptureMode",
    "RuleSet",
    "SevensMode",
    "nearest_preset",
    "preset_name",
]

CaptureMode = Literal["sum15", "match"]
SevensMode = Literal["ranking", "sevens", "primiera", "none"]

CAPTURE_MODES: Final[tuple[CaptureMode, ...]] = ("sum15", "match")
SEVENS_MODES: Final[tuple[SevensMode, ...]] = ("ranking", "sevens", "primiera", "none")
BOOL_OPTIONS: Final[tuple[str, ...]] = (
    "forced_capture",
    "last_play_sweep_counts",
    "initial_table_sweeps",
    "kings_redeal",
    "primiera_needs_all_suits",
    "all_coins_two",
    "big_wins",
    "ace_takes_all",
    "re_bello",
    "napola",
)

# Upper bounds, so that every rule set makes a match that ends in reasonable time. A hand
# scores some 5 to 15 points in all, so a target of 1000 is already a match of a hundred hands
# or more; a lead of 100 is still reachable within such a match; a bonus of 10 for all four
# sevens is already more than the rest of a hand is worth.
MAX_TARGET_SCORE: Final = 1000
MAX_WIN_BY: Final = 100
MAX_ALL_SEVENS_BONUS: Final = 10

INT_OPTIONS: Final[Mapping[str, tuple[int, int]]] = {
    "hand_cards": (1, 10),
    "table_cards": (0, 4),
    "all_sevens_bonus": (0, MAX_ALL_SEVENS_BONUS),
    "target_score": (1, MAX_TARGET_SCORE),
    "win_by": (1, MAX_WIN_BY),
}
"""The whole-number options with their lowest and highest values."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RuleSet:
    """A complete, validated set of rule options (the defaults are the ``escoba`` preset).

    >>> RULESETS["scopa"].capture, RULESETS["scopa"].target_score
    ('match', 11)
    >>> RULESETS["escoba"].replace(target_score=15, big_wins=True).target_score
    15
    """

    capture: CaptureMode = "sum15"
    """How a card takes: ``sum15`` (Escoba, Escova) or ``match`` (Scopa)."""
    hand_cards: int = 3
    """Cards dealt to each seat at a time: 3, or all at once in Scopone (10, or 9)."""
    table_cards: int = 4
    """Cards dealt face up to the table as a hand begins: 4, or none in Scopone scientifico."""
    forced_capture: bool = True
    """A card that can take must take; if false it may also be dropped."""
    last_play_sweep_counts: bool = True
    """A sweep made by the hand's very last card scores."""
    initial_table_sweeps: bool = True
    """15 or 30 on the first four table cards: the dealer takes them for 1 or 2 sweeps."""
    kings_redeal: bool = False
    """Three or more kings among the first four table cards: deal the hand again."""
    sevens: SevensMode = "ranking"
    """The sevens category: setenta ``ranking``, most ``sevens``, ``primiera`` or ``none``."""
    primiera_needs_all_suits: bool = False
    """A side missing a suit cannot win primiera."""
    all_coins_two: bool = False
    """All ten coins score 2 instead of 1."""
    all_sevens_bonus: int = 0
    """Extra points for a side holding all four sevens."""
    big_wins: bool = False
    """30+ cards against fewer than 10 for every other side score 2; all coins score 2;
    all four sevens add 1."""
    ace_takes_all: bool = False
    """Asso piglia tutto: an ace takes the whole table (not a sweep), unless an ace lies there
    (then it takes that ace) or the table is empty (then it is dropped)."""
    re_bello: bool = False
    """The king of coins scores 1."""
    napola: bool = False
    """The ace, 2 and 3 of coins score 3, and 1 more for each coin in an unbroken run after
    them (4, 5, 6, ...)."""
    target_score: int = 21
    """Points that end the match."""
    win_by: int = 1
    """Lead over every other side needed to win once the target is reached."""

    def __post_init__(self) -> None:
        if self.capture not in CAPTURE_MODES:
            raise RulesError(
                f"capture: {_shown(self.capture)} is not one of "
                f"{', '.join(map(repr, CAPTURE_MODES))}"
            )
        if self.sevens not in SEVENS_MODES:
            raise RulesError(
                f"sevens: {_shown(self.sevens)} is not one of {', '.join(map(repr, SEVENS_MODES))}"
            )
        for name in BOOL_OPTIONS:
            value = getattr(self, name)
            if not isinstance(value, bool):
                raise RulesError(f"{name}: must be true or false, got {_shown(value)}")
        for name, (lowest, highest) in INT_OPTIONS.items():
            value = getattr(self, name)
            if (
                not isinstance(value, int)
                or isinstance(value, bool)
                or not lowest <= value <= highest
            ):
                raise RulesError(
                    f"{name}: must be a whole number from {lowest} to {highest}, "
                    f"got {_shown(value)}"
                )
        if self.capture == "match" and self.initial_table_sweeps:
            raise RulesError(
                "initial_table_sweeps: only makes sense with capture='sum15' "
                "(the first four table cards summing to 15 or 30)"
            )
        if self.table_cards not in (0, 4):
            raise RulesError(f"table_cards: must be 0 or 4, got {_shown(self.table_cards)}")
        if self.table_cards == 0 and (self.initial_table_sweeps or self.kings_redeal):
            name = "initial_table_sweeps" if self.initial_table_sweeps else "kings_redeal"
            raise RulesError(
                f"{name}: only makes sense with table_cards=4 (a rule about the first four "
                "table cards), not table_cards=0"
            )
        if self.ace_takes_all and self.capture != "match":
            raise RulesError(
                "ace_takes_all: only makes sense with capture='match' (Scopa and Scopone)"
            )
        if self.primiera_needs_all_suits and self.sevens != "primiera":
            raise RulesError(
                f"primiera_needs_all_suits: only makes sense with sevens='primiera', "
                f"not sevens={self.sevens!r}"
            )

    @property
    def plays_per_hand(self) -> int:
        """Cards played in a hand: the 40 less the first table cards."""
        return 40 - self.table_cards

    def deals_per_hand(self, players: int) -> int:
        """How many times each seat is dealt in a hand with this many players; a deck that
        does not share out evenly raises ``RulesError``.

        >>> RULESETS["escoba"].deals_per_hand(4), RULESETS["scopone-scientifico"].deals_per_hand(4)
        (3, 1)
        """
        each_deal = self.hand_cards * players
        if self.plays_per_hand % each_deal:
            raise RulesError(
                f"hand_cards: {self.hand_cards} cards to each of {players} players "
                f"({each_deal} a deal) do not share out the {self.plays_per_hand} cards "
                f"left after the {self.table_cards} table cards"
            )
        return self.plays_per_hand // each_deal

    def replace(self, **changes: Any) -> RuleSet:
        """A validated copy with some options changed; unknown options raise ``RulesError``."""
        unknown = sorted(set(changes) - set(OPTION_NAMES))
        if unknown:
            raise RulesError(
                f"unknown rule option {_shown(unknown[0])}; "
                f"the options are {', '.join(OPTION_NAMES)}"
            )
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """Every option by name, JSON-able."""
        return {name: getattr(self, name) for name in OPTION_NAMES}

    @classmethod
    def from_dict(cls, options: Mapping[str, Any]) -> RuleSet:
        """The rule set with these options (the rest from the ``escoba`` base)."""
        if not isinstance(options, Mapping):
            raise RulesError(
                f"rule options must be a mapping of option to value, got {_shown(options)}"
            )
        return cls().replace(**dict(options))

    def differences(self, other: RuleSet) -> dict[str, Any]:
        """The options where this rule set differs from ``other``, with this set's values."""
        return {
            name: getattr(self, name)
            for name in OPTION_NAMES
            if getattr(self, name) != getattr(other, name)
        }


OPTION_NAMES: Final[tuple[str, ...]] = tuple(f.name for f in dataclasses.fields(RuleSet))

RULESETS: Final[Mapping[str, RuleSet]] = {
    "escoba": RuleSet(),
    "escoba-fournier": RuleSet(sevens="sevens"),
    "escoba-primiera": RuleSet(sevens="primiera", primiera_needs_all_suits=True),
    "escoba-classic": RuleSet(sevens="sevens", all_sevens_bonus=1),
    "scopa": RuleSet(
        capture="match",
        last_play_sweep_counts=False,
        initial_table_sweeps=False,
        kings_redeal=True,
        sevens="primiera",
        target_score=11,
    ),
    "escova": RuleSet(sevens="none", all_coins_two=True, target_score=31),
    "scopone-scientifico": RuleSet(
        capture="match",
        hand_cards=10,
        table_cards=0,
        last_play_sweep_counts=False,
        initial_table_sweeps=False,
        sevens="primiera",
        target_score=21,
    ),
    "scopone-classico": RuleSet(
        capture="match",
        hand_cards=9,
        last_play_sweep_counts=False,
        initial_table_sweeps=False,
        kings_redeal=True,
        sevens="primiera",
        target_score=11,
    ),
}
"""The presets by name: the six of the specification and the two Scopone."""

PRESET_SEATING: Final[Mapping[str, tuple[int, bool]]] = {
    "scopone-scientifico": (4, True),
    "scopone-classico": (4, True),
}
"""How a preset is usually seated, (players, partnerships), where it is not 2 alone: Scopone
is a game for two partnerships of two."""


def preset_name(rules: RuleSet) -> str | None:
    """The name of the preset equal to ``rules``, or None."""
    for name, preset in RULESETS.items():
        if preset == rules:
            return name
    return None


def nearest_preset(rules: RuleSet) -> tuple[str, dict[str, Any]]:
    """The preset ``rules`` differ least from (the first of :data:`RULESETS` on a tie), and
    the options where they differ, with the values of ``rules``.

    >>> nearest_preset(RULESETS["scopa"].replace(target_score=21))
    ('scopa', {'target_score': 21})
    """
    name = min(RULESETS, key=lambda name: len(rules.differences(RULESETS[name])))
    return name, rules.differences(RULESETS[name])


_SHOWN_LENGTH: Final = 60


def _shown(value: object) -> str:
    """A refused value for an error message, shortened: values come from clients, and a huge
    one would make a huge message (or fail: Python will not print an int of 4,300+ digits)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 100:
        return f"a number of about {int(value.bit_length() * 0.30103)} digits"
    try:
        text = repr(value)
    except (ValueError, RecursionError):
        return f"a {type(value).__name__} too big to show"
    return text if len(text) <= _SHOWN_LENGTH else text[: _SHOWN_LENGTH - 1] + "…"
