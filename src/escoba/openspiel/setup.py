"""What an OpenSpiel game's parameters fix, shared by the game, its states and its observer."""

from __future__ import annotations

from dataclasses import dataclass

from ..env.actions import ActionLayout, layout_for
from ..rules import RuleSet

__all__ = ["Setup"]


@dataclass(frozen=True, slots=True)
class Setup:
    """What a game's parameters fix: shared by all its states, never copied."""

    rules: RuleSet
    players: int
    partnerships: bool
    returns: str
    max_hands: int

    @property
    def layout(self) -> ActionLayout:
        return layout_for(self.rules)

    @property
    def sides(self) -> int:
        return 2 if self.partnerships else self.players

    def __deepcopy__(self, memo: dict[int, object]) -> Setup:
        return self
