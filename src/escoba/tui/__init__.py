"""The full-screen terminal game (Textual): ``run_app`` starts a match."""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import DeckStyle
from ..rules import RuleSet
from .app import EscobaApp

__all__ = ["EscobaApp", "run_app"]


def run_app(
    *,
    rules: RuleSet,
    players: int,
    partnerships: bool,
    levels: Sequence[str],
    seed: int | str,
    deck_style: DeckStyle,
    language: str,
) -> None:
    """Play one match full screen: the person at seat 0, computer players of ``levels`` at
    seats 1, 2, ... (the last level repeats when fewer are given)."""
    EscobaApp(
        rules=rules,
        players=players,
        partnerships=partnerships,
        levels=levels,
        seed=seed,
        deck_style=deck_style,
        language=language,
    ).run()
