"""The public view of a match (DESIGN.md "Principles": hidden information stays hidden; "The
server": spectators get the engine's public view of a match, never a seat's view with fields
blanked): what everybody at the table sees, and what a spectator is sent."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest

from conftest import (
    SEATED_PRESETS,
    current_hand_cards_in,
    hidden_from,
    random_move,
)
from escoba import RULESETS, Card, Game, Observation, PublicView, Redeal
from escoba.server.protocol import MatchView, match_view

PER_SEAT = {"seat", "hand", "legal_moves"}
"""What a seat's observation holds beyond the public view: its own part."""


def preset_id(config: tuple[str, int, bool]) -> str:
    preset, players, partnerships = config
    return f"{preset}-{players}p" + ("-partners" if partnerships else "")


def positions(game: Game, seed: int, hands: int) -> Iterator[Game]:
    """The game before every move of its first ``hands`` hands (random moves), and after."""
    rng = random.Random(seed)
    while not game.is_over() and game.hand_number < hands:
        yield game
        game.play(random_move(game, rng))
    yield game


def hidden_from_everybody(game: Game) -> set[Card]:
    """Every card nobody at the table may see: every hand and the stock."""
    return hidden_from(game, 0) | set(game.hand(0))


def cards_of_match_view(view: MatchView) -> set[str]:
    """The cards a MatchView names about the current deal: everything but the finished hands'
    results and the face-up cards of a deal thrown in (earlier shuffles, shown to all)."""
    named = set(view.hand) | set(view.table)
    for pile in view.captured:
        named.update(pile)
    for move in view.legal:
        named.add(move.card)
        named.update(move.captures)
    for event in view.history:
        if event.kind != "redeal":
            named.update(event.captures, event.cards)
            if event.card is not None:
                named.add(event.card)
    return named


@pytest.mark.parametrize("config", SEATED_PRESETS, ids=preset_id)
def test_a_spectator_never_sees_a_card_of_a_hand_or_the_stock(
    config: tuple[str, int, bool],
) -> None:
    """DESIGN.md "Principles": at every position of random matches of every preset and
    seating, the public view (and the spectator's MatchView built from it) names no card of
    any hand or of the stock, and shows no hand, no legal move and no seat."""
    preset, players, partnerships = config
    for seed in range(3):
        game = Game(RULESETS[preset], players, partnerships, seed=seed)
        for current in positions(game, seed, hands=2):
            hidden = hidden_from_everybody(current)
            view = current.public_view()
            leaked = current_hand_cards_in(view) & hidden  # type: ignore[arg-type]
            assert not leaked, f"the public view shows {sorted(map(str, leaked))}"
            sent = match_view(view)
            assert sent.seat is None and sent.hand == [] and sent.legal == []
            shown = cards_of_match_view(sent) & {str(card) for card in hidden}
            assert not shown, f"a spectator was sent {sorted(shown)}"


def test_the_public_view_type_has_no_private_field() -> None:
    """DESIGN.md "The server": a spectator's view comes from a type that has no seat, hand or
    legal moves; an observation is that view plus exactly the seat's own part."""
    public = {field.name for field in dataclasses.fields(PublicView)}
    seat_view = {field.name for field in dataclasses.fields(Observation)}
    assert not public & PER_SEAT
    assert seat_view - public == PER_SEAT
    assert public < seat_view


@pytest.mark.parametrize(
    "config",
    [("escoba", 2, False), ("scopa", 3, False), ("escoba-primiera", 4, True)],
    ids=preset_id,
)
def test_every_field_of_the_public_view_is_the_same_for_every_seat(
    config: tuple[str, int, bool],
) -> None:
    """DESIGN.md "Principles": whatever a field of the public view holds, every seat sees the
    same: a field holding one seat's private knowledge (its hand, its moves) would differ
    from seat to seat and fail here. Each seat's observation is the public view and its own
    part, and the public part of an observation is a PublicView, not the observation."""
    preset, players, partnerships = config
    game = Game(RULESETS[preset], players, partnerships, seed=4)
    for current in positions(game, seed=4, hands=2):
        view = current.public_view()
        assert type(view) is PublicView
        for seat in range(players):
            observation = current.observation(seat)
            public = observation.public
            assert type(public) is PublicView
            for field in dataclasses.fields(PublicView):
                mine = getattr(observation, field.name)
                assert mine == getattr(view, field.name) == getattr(public, field.name), field


def test_a_spectator_is_sent_the_public_part_of_a_seat_view() -> None:
    """DESIGN.md "The server": the view a spectator is sent equals the public part of any
    seat's; a seat's own view adds its seat, hand and legal moves only."""
    game = Game(RULESETS["escoba"], 2, seed=12)
    for current in positions(game, seed=12, hands=1):
        spectator = match_view(current.public_view())
        for seat in range(current.players):
            assert match_view(current.observation(seat).public) == spectator
            own = match_view(current.observation(seat))
            assert own.seat == seat
            assert own.hand == [str(card) for card in current.hand(seat)]
            public_part = own.model_copy(update={"seat": None, "hand": [], "legal": []})
            assert public_part == spectator


def test_the_public_view_shows_a_redealt_table_only_as_a_redeal() -> None:
    """RULES.md "A hand" 3: a deal thrown in on three kings shows its table as a Redeal event
    in the public view, as it does to every seat."""
    scopa = RULESETS["scopa"]
    seed = next(s for s in range(20000) if isinstance(Game(scopa, 2, seed=s).history()[0], Redeal))
    game = Game(scopa, 2, seed=seed)
    view = game.public_view()
    assert isinstance(view.history[0], Redeal)
    assert view.history == game.observation(0).history
