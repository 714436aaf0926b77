"""State messages built from shared parts (escoba.server.protocol.wire) are the protocol's messages:
the same text as ``StateMessage(...).model_dump_json()``, for every seat and for spectators,
at every position of whole matches."""

from __future__ import annotations

import random

import pytest

from conftest import build_deck
from escoba import RULESETS, Game
from escoba.observation import Event, TakeBack
from escoba.server.protocol import (
    RoomInfo,
    SeatInfo,
    StateMessage,
    event_view,
    match_view,
)
from escoba.server.protocol.wire import HandHistory, StateTexts, event_text

ROOM = RoomInfo(
    id="r",
    invite="/room/r",
    preset="scopa",
    rules=RULESETS["scopa"].to_dict(),
    players=2,
    partnerships=False,
    deals_per_hand=1,
    sides=[[0], [1]],
    seats=[
        SeatInfo(
            seat=0, kind="person", level=None, nickname='Añá "ü"\\', taken=True, connected=True
        ),
        SeatInfo(seat=1, kind="computer", level="easy", nickname=None, taken=True, connected=True),
    ],
    match_number=1,
    status="playing",
)


def expected(game: Game, seat: int | None, event: Event | TakeBack | None, ended: bool) -> str:
    view = match_view(game.public_view() if seat is None else game.observation(seat))
    return StateMessage(
        room=ROOM,
        match=view,
        event=None if event is None else event_view(event),
        hand_ended=ended,
    ).model_dump_json()


def built(
    game: Game,
    seat: int | None,
    event: Event | TakeBack | None,
    ended: bool,
    history: HandHistory | None = None,
) -> str:
    texts = StateTexts(
        ROOM.model_dump_json(),
        game.public_view(),
        None if event is None else event_text(event),
        ended,
        history,
    )
    return texts.spectator() if seat is None else texts.seat(game, seat)


# A first deal voided by three kings on the table (Scopa), shown as a redeal.
THREE_KINGS = build_deck(2, 0, hands={1: "2d 3d 4d", 0: "2h 3h 4h"}, table="Kd Kh Ks 5c")


@pytest.mark.parametrize(
    ("preset", "players", "partnerships", "seed"),
    [
        ("escoba", 3, False, 1),  # initial sweeps, a stock dealt in rounds
        ("scopone-classico", 4, True, 2),  # partnerships, nine cards each
        ("scopa", 2, False, 3),  # a redeal
    ],
)
@pytest.mark.slow
def test_every_seat_and_spectator_gets_the_models_text(
    preset: str, players: int, partnerships: bool, seed: int
) -> None:
    """Whole matches, with a take back now and then: at each position every seat's message
    is the one its own observation makes (its hand, its legal moves), the spectators' the
    one the public view makes, byte for byte; with the hand's events made afresh, or kept
    from one position to the next as a room keeps them (through take backs and new hands)."""
    decks = [THREE_KINGS] if preset == "scopa" else None
    game = Game(
        RULESETS[preset],
        players=players,
        partnerships=partnerships,
        seed=seed,
        first_dealer=0,
        decks=decks,
    )
    rng = random.Random(seed)
    event: Event | TakeBack | None = None
    ended = False
    positions = 0
    history = HandHistory()
    while True:
        for seat in (None, *range(players)):
            wanted = expected(game, seat, event, ended)
            assert built(game, seat, event, ended) == wanted
            assert built(game, seat, event, ended, history) == wanted
        positions += 1
        if game.is_over():
            break
        if event is not None and not ended and rng.random() < 0.05:
            event, ended = game.take_back(), False
            continue
        play = game.play(rng.choice(game.legal_moves()))
        event, ended = play, play.result is not None
    assert positions > 100 and game.results


def test_a_seats_message_holds_its_own_cards_only() -> None:
    """Messages of one position share every public part, never a seat's own: each holds its
    own hand and, for the seat to move, its legal moves."""
    game = Game(RULESETS["escoba"], players=2, seed=5)
    texts = StateTexts(ROOM.model_dump_json(), game.public_view(), None, False)
    mover = game.to_move
    assert mover is not None
    for seat in range(2):
        message = StateMessage.model_validate_json(texts.seat(game, seat))
        assert message.match.seat == seat
        assert message.match.hand == [str(card) for card in game.hand(seat)]
        assert bool(message.match.legal) == (seat == mover)
    watched = StateMessage.model_validate_json(texts.spectator())
    assert (watched.match.seat, watched.match.hand, watched.match.legal) == (None, [], [])
