"""``escoba replay FILE``: a recorded match hand by hand, with every hand shown.

A record holds each hand's deck, so the replay shows what every seat was dealt; then each
move, and the score pad after each finished hand. The file may be a saved match (from
``escoba play``) or a bare match record (``Game.record()``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence

from ..cards import Card, DeckStyle
from ..errors import RecordError
from ..explanation import explain_hand
from ..game import Game
from ..observation import Deal, Event, Play, TakeBack
from ..records import TAKE_BACK
from ..rules import RuleSet, preset_name
from .local_match import SAVE_FORMAT, LocalMatch, LocalMatchError
from .render import Words

__all__ = ["load", "replay_lines"]


def load(text: str) -> tuple[Game, Sequence[str | None], int | None, DeckStyle, str]:
    """The match in a file's text: the game, the levels, the person's seat, deck and language.

    Raises LocalMatchError for text that is neither a saved match nor a record.
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise LocalMatchError(f"not JSON: {error}") from None
    if isinstance(data, Mapping) and data.get("format") == SAVE_FORMAT:
        match = LocalMatch.from_json(data)
        return match.game, match.levels, match.person, match.deck, match.language
    try:
        game = Game.from_record(data)
    except RecordError as error:
        raise LocalMatchError(str(error)) from None
    return game, [None] * game.players, None, "french", "en"


def _dealt(
    deck: Sequence[str], rules: RuleSet, players: int, dealer: int, round_: int
) -> dict[int, list[Card]]:
    """The cards each seat got in deal ``round_`` (1 is the deal that opens the hand): the
    seats' cards of the first deal, the table's after them, then the further deals."""
    size = rules.hand_cards
    each_deal = size * players
    start = 0 if round_ == 1 else each_deal + rules.table_cards + (round_ - 2) * each_deal
    dealt: dict[int, list[Card]] = {}
    for k in range(players):
        seat = (dealer + 1 + k) % players
        first = start + size * k
        dealt[seat] = [Card.parse(t) for t in deck[first : first + size]]
    return dealt


def _hand_events(game: Game) -> list[list[Event | TakeBack]]:
    """Each hand's events in the order they happened: a hand's history keeps the moves that
    stand only, the record also the moves taken back and their take backs."""
    record = game.record()
    if not any(TAKE_BACK in hand["moves"] for hand in record["hands"]):
        return [list(game.history(number)) for number in range(len(record["hands"]))]
    hands: list[list[Event | TakeBack]] = [[]]

    def seen(now: Game, event: Play | TakeBack | None) -> None:
        if event is None:
            hands[0].extend(now.history())
            return
        hands[-1].append(event)
        if isinstance(event, Play):
            if event.deal is not None:
                hands[-1].append(event.deal)
            if event.next_hand:
                hands.append(list(event.next_hand))

    Game.from_record(record, seen)
    return hands


def replay_lines(game: Game, words: Words) -> Iterator[str]:
    """The whole match, hand by hand, every hand shown."""
    w = words
    record = game.record()
    name = preset_name(game.rules) or w.text("play.custom_rules")
    players = w.plural("count.players", game.players)
    yield w.text("replay.title", rules=name, players=players, seed=game.seed)
    results = game.results
    totals = [0] * len(game.sides)
    events = _hand_events(game)
    for number, entry in enumerate(record["hands"]):
        deck: list[str] = entry["deals"][-1]
        dealer: int = entry["dealer"]
        yield ""
        yield w.text("play.hand", number=number + 1, dealer=w.seat(dealer))
        for event in events[number]:
            if isinstance(event, TakeBack):
                taken = w.text(
                    "replay.took_back", who=w.seat(event.seat), move=w.move_phrase(event.move)
                )
                yield "  " + taken
                continue
            if isinstance(event, Deal):
                dealt = _dealt(deck, game.rules, game.players, dealer, event.round)
                hands = "; ".join(
                    f"{w.seat(seat)}: {w.cards(dealt[seat])}" for seat in range(game.players)
                )
                yield w.text("replay.hands", hands=hands)
                if event.round == 1 and game.rules.table_cards:
                    first = game.rules.hand_cards * game.players
                    table = [Card.parse(t) for t in deck[first : first + game.rules.table_cards]]
                    yield w.text("replay.table", cards=w.cards(table))
                continue
            line = w.event(event)
            if line is not None:
                yield "  " + line
        if number < len(results):
            result = results[number]
            totals = [t + p for t, p in zip(totals, result.points, strict=True)]
            yield from w.hand_end(number, result, totals)
            yield from w.explanation(number, explain_hand(result, game.rules))
        else:
            yield w.text("replay.unfinished")
    yield ""
    if game.winner is not None:
        yield w.text("play.winner", winner=w.side(game.winner), scores=w.scores(game.totals))
    else:
        yield w.text("replay.match_unfinished", scores=w.scores(game.totals))
