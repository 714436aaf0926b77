"""Shared helpers for the game, record, observation, property and golden tests.

Positions are built through records (``Game.from_record``) with chosen deck orders, so they
go through the public path. The module also holds a small reference implementation of the
move rules of RULES.md ("A move"), written independently of ``escoba.captures``, against which
the engine's legal moves are checked.

Deck order, as records use it (RULES.md "A hand", step 1): three cards to each seat starting
with the seat after the dealer, then four cards face up to the table; the rest is the stock,
dealt from the front in later rounds (three to each seat, again starting after the dealer).
"""

from __future__ import annotations

import dataclasses
import random
import string
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from escoba import (
    DECK,
    RULESETS,
    Card,
    Game,
    HandResult,
    InitialSweep,
    Move,
    Observation,
    Play,
    Redeal,
    RulesError,
    RuleSet,
    parse_cards,
    preset_name,
)

if TYPE_CHECKING:
    from escoba.ai.simulation import Simulation

RECORD_HEADER = {"format": "escoba-record", "version": 1}

SEATINGS = [(2, False), (3, False), (4, False), (4, True)]
"""Every seating: 2, 3 or 4 players, and 4 in two partnerships."""


def shares_out(rules: RuleSet, players: int) -> bool:
    """Whether the deck shares out evenly among the seats under ``rules`` (Scopone's does not
    among 3)."""
    try:
        rules.deals_per_hand(players)
    except RulesError:
        return False
    return True


SEATED_PRESETS = [
    (preset, players, partnerships)
    for preset in sorted(RULESETS)
    for players, partnerships in SEATINGS
    if shares_out(RULESETS[preset], players)
]
"""Every preset in every seating its deck shares out among, as (preset, players,
partnerships)."""

# The database backends the server tests run on (SQLite; PostgreSQL too when asked), the server
# tests' fixtures (an app on a test database), and the browser tests' fixtures (a running
# server, Chromium through Playwright). ``server_helpers`` comes before ``web_browser``, which
# imports it, so that pytest loads it as a plugin first (and rewrites its asserts).
pytest_plugins = ["markers", "database_fixtures", "redis_fixtures", "server_helpers", "web_browser"]


def card(text: str) -> Card:
    """One card from its text."""
    return Card.parse(text)


def cards(text: str) -> frozenset[Card]:
    """A set of cards from text such as ``"As 3h"``."""
    return frozenset(parse_cards(text))


def move(text: str) -> Move:
    """A move from its text."""
    return Move.parse(text)


def moves(texts: Iterable[str]) -> set[Move]:
    return {Move.parse(t) for t in texts}


def placeholders(template: str) -> set[str]:
    """The names of the ``{placeholders}`` of a text template."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


# -- decks and records -------------------------------------------------------------------


def build_deck(
    players: int,
    dealer: int,
    *,
    hands: Mapping[int, str] | None = None,
    table: str = "",
    rounds: Sequence[Mapping[int, str]] = (),
    rest: str = "",
    hand_cards: int = 3,
    table_cards: int = 4,
) -> list[str]:
    """A deck order (40 card texts) that deals the given cards.

    ``hands`` maps a seat to its cards of the first deal (``hand_cards`` each: 3, or 10 or 9
    in Scopone), ``table`` gives the face-up cards (``table_cards``), ``rounds`` the seats'
    cards of later deals. Unnamed places are filled with the cards of ``rest`` first, then
    with the unused cards in canonical order.
    """
    slots: list[Card | None] = [None] * 40
    order = [(dealer + i) % players for i in range(1, players + 1)]

    def put(position: int, text: str, size: int) -> None:
        chosen = parse_cards(text)
        if len(chosen) != size:
            raise ValueError(f"{text!r}: need {size} cards")
        slots[position : position + size] = list(chosen)

    size = hand_cards
    for k, seat in enumerate(order):
        if hands and seat in hands:
            put(size * k, hands[seat], size)
    if table:
        put(size * players, table, table_cards)
    for r, later in enumerate(rounds, start=1):
        base = size * players + table_cards + (r - 1) * size * players
        for k, seat in enumerate(order):
            if seat in later:
                put(base + size * k, later[seat], size)
    named = [c for c in slots if c is not None]
    if len(set(named)) != len(named):
        raise ValueError("a card is named twice")
    filler = [c for c in parse_cards(rest) if c not in named]
    filler += [c for c in DECK if c not in named and c not in filler]
    it = iter(filler)
    return [str(c if c is not None else next(it)) for c in slots]


def make_record(
    rules: RuleSet,
    players: int,
    decks: Sequence[Sequence[Sequence[str]]],
    *,
    partnerships: bool = False,
    first_dealer: int = 0,
    moves: Sequence[Sequence[str]] = (),
    seed: int | str = 0,
) -> dict[str, Any]:
    """A record: ``decks[h]`` lists the deck order(s) of hand ``h`` (more than one when the
    hand is dealt again), ``moves[h]`` its moves."""
    return {
        **RECORD_HEADER,
        "rules": rules.to_dict(),
        "preset": preset_name(rules),
        "players": players,
        "partnerships": partnerships,
        "seed": seed,
        "first_dealer": first_dealer,
        "hands": [
            {
                "dealer": (first_dealer + h) % players,
                "deals": [list(d) for d in deals],
                "moves": list(moves[h]) if h < len(moves) else [],
            }
            for h, deals in enumerate(decks)
        ],
    }


def game_with_deck(
    rules: RuleSet,
    players: int,
    deck: Sequence[str],
    *,
    dealer: int = 0,
    partnerships: bool = False,
    moves: Sequence[str] = (),
) -> Game:
    """A game whose first hand is dealt from ``deck`` by ``dealer``, after ``moves``."""
    record = make_record(
        rules,
        players,
        [[deck]],
        partnerships=partnerships,
        first_dealer=dealer,
        moves=[moves],
    )
    return Game.from_record(record)


# -- an independent reference of the move rules (RULES.md "A move") ------------------------


def reference_captures(
    played: Card, table: Iterable[Card], capture: str, ace_takes_all: bool = False
) -> set[frozenset[Card]]:
    """Every set of table cards ``played`` may take, by brute force over subsets.

    sum15: a non-empty set whose values plus the card's make 15. match: one card of equal value
    if there is any (single-card priority), else two or more cards summing to the card's value;
    with ``ace_takes_all`` (asso piglia tutto) an ace with no ace on the table takes it all.
    """
    cards_on_table = sorted(table, key=lambda c: c.index)
    if capture == "match":
        same = [c for c in cards_on_table if c.value == played.value]
        if same:
            return {frozenset([c]) for c in same}
        if ace_takes_all and played.value == 1:
            return {frozenset(cards_on_table)} if cards_on_table else set()
        target, smallest = played.value, 2
    else:
        target, smallest = 15 - played.value, 1
    found: set[frozenset[Card]] = set()
    chosen: list[Card] = []

    def walk(start: int, total: int) -> None:
        if total == target:
            if len(chosen) >= smallest:
                found.add(frozenset(chosen))
            return
        for j in range(start, len(cards_on_table)):
            value = cards_on_table[j].value
            if total + value <= target:
                chosen.append(cards_on_table[j])
                walk(j + 1, total + value)
                chosen.pop()

    walk(0, 0)
    return found


def reference_legal_moves(hand: Iterable[Card], table: Iterable[Card], rules: RuleSet) -> set[Move]:
    """The legal moves by RULES.md: any card; it must take if it can (``forced_capture``)."""
    table = tuple(table)
    legal: set[Move] = set()
    for played in hand:
        sets = reference_captures(played, table, rules.capture, rules.ace_takes_all)
        legal.update(Move(played, taken) for taken in sets)
        if not sets or not rules.forced_capture:
            legal.add(Move(played))
    return legal


# -- looking at a game -------------------------------------------------------------------


def current_deck(game: Game) -> list[Card]:
    """The deck order the current (or last) hand is dealt from, as the record holds it."""
    return [Card.parse(t) for t in game.record()["hands"][-1]["deals"][-1]]


def stock_cards(game: Game) -> list[Card]:
    """The undealt stock: the tail of the current deck (dealing takes from the front)."""
    size = game.stock_size
    return current_deck(game)[40 - size :] if size else []


def true_simulation(game: Game) -> Simulation:
    """The searches' simulation of the game's hand with every hidden card where it really is."""
    from escoba.ai.sampling import Determinization
    from escoba.ai.simulation import Simulation

    seat = game.to_move
    assert seat is not None
    deal = Determinization(
        hands=tuple(tuple(sorted(c.index for c in game.hand(s))) for s in range(game.players)),
        stock=tuple(c.index for c in stock_cards(game)),
    )
    return Simulation.from_observation(game.observation(seat), deal)


def hidden_from(game: Game, seat: int) -> set[Card]:
    """Cards ``seat`` must not see: every other seat's hand (partners' too) and the stock."""
    hidden = set(stock_cards(game))
    for other in range(game.players):
        if other != seat:
            hidden.update(game.hand(other))
    return hidden


def card_places(game: Game) -> dict[Card, list[str]]:
    """Where every card is now: hands, table, stock, captured piles."""
    places: dict[Card, list[str]] = {c: [] for c in DECK}
    for seat in range(game.players):
        for c in game.hand(seat):
            places[c].append(f"hand of seat {seat}")
    for c in game.table:
        places[c].append("table")
    for c in stock_cards(game):
        places[c].append("stock")
    for side, pile in enumerate(game.captured):
        for c in pile:
            places[c].append(f"pile of side {side}")
    return places


def assert_cards_accounted(game: Game) -> None:
    """Each of the 40 cards is in exactly one place."""
    wrong = {str(c): where for c, where in card_places(game).items() if len(where) != 1}
    assert not wrong, f"cards not in exactly one place: {wrong}"


def cards_in(value: object) -> Iterator[Card]:
    """Every card anywhere inside ``value``, walking dataclasses, containers and mappings.

    Unknown types fail the walk, so nothing can hide in a field the walk does not look into.
    """
    if isinstance(value, Card):
        yield value
    elif isinstance(value, Move):
        yield value.card
        yield from value.captures
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from cards_in(getattr(value, field.name))
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield from cards_in(key)
            yield from cards_in(item)
    elif isinstance(value, (tuple, list, frozenset, set)):
        for item in value:
            yield from cards_in(item)
    elif value is None or isinstance(value, (str, int, float)):
        return
    else:
        raise AssertionError(f"unexpected value of type {type(value).__name__} in an observation")


def current_hand_cards_in(obs: Observation) -> set[Card]:
    """The cards an observation mentions about the current deal.

    Left out: ``results`` (finished hands, whose every card was shown when they were scored)
    and ``Redeal`` events (the face-up cards of a deal that was thrown in and shuffled again).
    Both show cards of an earlier shuffle, which say nothing about where a card is now.
    """
    found: set[Card] = set()
    for field in dataclasses.fields(obs):
        if field.name == "results":
            continue
        value = getattr(obs, field.name)
        if field.name == "history":
            value = tuple(e for e in value if not isinstance(e, Redeal))
        found.update(cards_in(value))
    return found


def assert_observation_hides(game: Game, seat: int) -> None:
    """The observation of ``seat`` names no card of another hand or of the stock."""
    obs = game.observation(seat)
    leaked = current_hand_cards_in(obs) & hidden_from(game, seat)
    assert not leaked, f"seat {seat} sees hidden cards {sorted(map(str, leaked))}"
    assert set(obs.hand) == set(game.hand(seat))


# -- playing -----------------------------------------------------------------------------


def sorted_moves(game: Game) -> list[Move]:
    """The legal moves in a fixed order (by text), whatever order the engine lists them in."""
    return sorted(game.legal_moves(), key=str)


def random_move(game: Game, rng: random.Random) -> Move:
    return rng.choice(sorted_moves(game))


def play_random(
    game: Game,
    rng: random.Random,
    *,
    stop: Callable[[Game], bool] | None = None,
    after: Callable[[Game, Move], None] | None = None,
) -> None:
    """Play random legal moves until the match ends or ``stop(game)`` holds before a move."""
    while not game.is_over():
        if stop is not None and stop(game):
            return
        chosen = random_move(game, rng)
        game.play(chosen)
        if after is not None:
            after(game, chosen)


def play_hand(game: Game, rng: random.Random) -> HandResult:
    """Play the current hand to its end with random moves; its result."""
    done = len(game.results)
    play_random(game, rng, stop=lambda g: len(g.results) > done)
    assert len(game.results) == done + 1
    return game.results[-1]


def last_capturer_of(game: Game, hand_number: int) -> int | None:
    """The seat that captured last in a finished hand, from its public history."""
    last: int | None = None
    for event in game.history(hand_number):
        if isinstance(event, InitialSweep):
            last = event.dealer
        elif isinstance(event, Play) and event.captures:
            last = event.seat
    return last


def end_table(result: HandResult) -> frozenset[Card]:
    """The table when a hand's last card was played, before leftovers went anywhere: the
    leftovers, plus the cards nobody holds when nobody captured."""
    held: set[Card] = set()
    for pile in result.piles:
        held |= pile
    return result.leftovers | frozenset(c for c in DECK if c not in held)


def match_should_end(totals: Sequence[int], rules: RuleSet) -> int | None:
    """RULES.md "Winning the match": the side that has reached the target and leads every
    other side by at least ``win_by``, or None."""
    for side, total in enumerate(totals):
        if total >= rules.target_score and all(
            total - other >= rules.win_by for o, other in enumerate(totals) if o != side
        ):
            return side
    return None


def table_of_deal(
    deck: Sequence[str], players: int, rules: RuleSet | None = None
) -> frozenset[Card]:
    """The face-up cards a deck order deals: those after each seat's first hand (3 cards
    and 4 on the table unless ``rules`` say otherwise)."""
    hand_cards, table_cards = (3, 4) if rules is None else (rules.hand_cards, rules.table_cards)
    first = hand_cards * players
    return frozenset(Card.parse(t) for t in deck[first : first + table_cards])


def audit_finished_hand(game: Game, number: int) -> None:
    """Check a finished hand against RULES.md from its public history and its deck alone.

    Replays the history on a model table: plays in seat order from the seat after the dealer,
    each capture taken from the table, sweeps exactly when a capture empties the table (not
    by the hand's last card unless ``last_play_sweep_counts``), initial-table sweeps only on 15
    or 30, redeals only on 3+ kings, leftovers to the last capturer and never a sweep.
    """
    rules = game.rules
    n = game.players
    entry = game.record()["hands"][number]
    result = game.results[number]
    assert result.dealer == entry["dealer"]
    deals = entry["deals"]
    events = game.history(number)
    redeals = [e for e in events if isinstance(e, Redeal)]
    assert len(redeals) == len(deals) - 1
    for thrown, event in zip(deals, redeals, strict=False):
        table_cards = table_of_deal(thrown, n, rules)
        assert rules.kings_redeal
        assert set(event.table) == table_cards
        assert sum(c.value == 10 for c in table_cards) >= 3
    table = set(table_of_deal(deals[-1], n, rules))
    if rules.kings_redeal:
        assert sum(c.value == 10 for c in table) < 3
    sides = len(game.sides)
    sweeps = [0] * sides
    piles: list[set[Card]] = [set() for _ in range(sides)]
    last: int | None = None
    initial = [e for e in events if isinstance(e, InitialSweep)]
    total = sum(c.value for c in table)
    if rules.initial_table_sweeps and total in (15, 30):
        assert len(initial) == 1
        assert initial[0].dealer == result.dealer
        assert initial[0].cards == table
        assert initial[0].sweeps == total // 15
        side = game.side_of(result.dealer)
        sweeps[side] += total // 15
        piles[side] |= table
        last = result.dealer
        table = set()
    else:
        assert not initial
    plays = [e for e in events if isinstance(e, Play)]
    assert len(plays) == rules.plays_per_hand
    for i, play in enumerate(plays):
        assert play.seat == (result.dealer + 1 + i) % n
        side = game.side_of(play.seat)
        if play.captures:
            assert play.captures <= table
            table -= play.captures
            piles[side] |= play.captures | {play.card}
            last = play.seat
            swept = (
                not table
                and (i < rules.plays_per_hand - 1 or rules.last_play_sweep_counts)
                # asso piglia tutto: an ace taking the table (holding no ace) sweeps nothing
                and not (
                    rules.ace_takes_all
                    and play.card.value == 1
                    and all(c.value != 1 for c in play.captures)
                )
            )
            sweeps[side] += swept
            assert play.sweep == swept, f"play {i + 1} {play.move}: sweep flag"
        else:
            assert not play.sweep
            table.add(play.card)
    assert result.last_capturer == last
    assert result.sweeps == tuple(sweeps)
    assert tuple(result.breakdown["sweeps"]) == result.sweeps
    if last is None:
        assert result.leftovers == frozenset()
    else:
        assert result.leftovers == table
        piles[game.side_of(last)] |= table
    assert end_table(result) == table
    assert result.piles == tuple(frozenset(p) for p in piles)
