"""Match records (DESIGN.md "Principles": persisted state is the event log of rules, deck
order and moves; a match is rebuilt by replay): contents, JSON, replay, and corrupted
records."""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import build_deck, card, make_record, play_random, random_move
from escoba import DECK, RULESETS, Card, Game, RecordError, RuleSet

ESCOBA = RULESETS["escoba"]
SCOPA = RULESETS["scopa"]
CONFIGS = [
    ("escoba", 2, False),
    ("scopa", 2, False),
    ("escova", 3, False),
    ("escoba-primiera", 4, False),
    ("escoba-classic", 4, True),
    ("escoba-fournier", 3, False),
]


def config_id(config: tuple[str, int, bool]) -> str:
    preset, players, partnerships = config
    return f"{preset}-{players}p" + ("-partners" if partnerships else "")


def played(rules: RuleSet, players: int, partnerships: bool, seed: int, count: int) -> Game:
    """A match after ``count`` random moves (or finished, if it ends first)."""
    game = Game(rules, players, partnerships, seed=seed)
    rng = random.Random(seed)
    for _ in range(count):
        if game.is_over():
            break
        game.play(random_move(game, rng))
    return game


def state(game: Game) -> dict[str, Any]:
    """Everything the public API shows about a match."""
    return {
        "record": game.record(),
        "observations": [game.observation(s) for s in range(game.players)],
        "hands": [game.hand(s) for s in range(game.players)],
        "histories": [game.history(h) for h in range(len(game.record()["hands"]))],
        "table": game.table,
        "stock_size": game.stock_size,
        "dealer": game.dealer,
        "to_move": game.to_move,
        "legal": game.legal_moves(),
        "captured": game.captured,
        "sweeps": game.sweeps,
        "results": game.results,
        "totals": game.totals,
        "winner": game.winner,
        "over": game.is_over(),
    }


# -- what a record holds -------------------------------------------------------------------


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_record_holds_rules_seats_decks_and_every_move(config: tuple[str, int, bool]) -> None:
    """DESIGN.md: the record holds the rules with every option, the players, the
    partnerships, every hand's deck order(s) and every move, in order."""
    preset, players, partnerships = config
    rules = RULESETS[preset].replace(target_score=7)
    game = Game(rules, players, partnerships, seed=12)
    rng = random.Random(12)
    ours: list[list[str]] = [[]]
    first_hands: list[dict[int, frozenset[Card]]] = [
        {s: frozenset(game.hand(s)) for s in range(players)}
    ]
    while not game.is_over():
        number = game.hand_number
        chosen = random_move(game, rng)
        game.play(chosen)
        ours[number].append(str(chosen))
        if game.hand_number != number and not game.is_over():
            ours.append([])
            first_hands.append({s: frozenset(game.hand(s)) for s in range(players)})
    record = game.record()
    assert record["rules"] == {f.name: getattr(rules, f.name) for f in dataclasses.fields(rules)}
    assert record["rules"]["target_score"] == 7
    assert RuleSet.from_dict(record["rules"]) == rules
    assert record["players"] == players
    assert record["partnerships"] is partnerships
    assert [h["moves"] for h in record["hands"]] == ours
    assert len(record["hands"]) == len(game.results)
    for number, entry in enumerate(record["hands"]):
        assert entry["dealer"] == game.results[number].dealer
        for deck in entry["deals"]:
            assert sorted(deck) == sorted(str(c) for c in DECK)
        deck = entry["deals"][-1]
        for k in range(players):
            seat = (entry["dealer"] + 1 + k) % players
            dealt = {card(t) for t in deck[3 * k : 3 * k + 3]}
            assert first_hands[number][seat] == dealt
        assert len(entry["moves"]) == 36


def test_record_names_the_preset_or_none() -> None:
    """DESIGN.md: a record holds the rules; the preset name is given when the rules are one."""
    for name, rules in RULESETS.items():
        assert Game(rules, 2, seed=1).record()["preset"] == name
    changed = ESCOBA.replace(big_wins=True, target_score=15)
    record = Game(changed, 2, seed=1).record()
    assert record["preset"] is None
    assert record["rules"]["big_wins"] is True
    assert record["rules"]["target_score"] == 15


@pytest.mark.parametrize("count", [0, 10, 36, 100, 10_000])
@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_record_is_json_and_round_trips(config: tuple[str, int, bool], count: int) -> None:
    """DESIGN.md: record() is JSON-able data; the JSON text replays to the same match."""
    preset, players, partnerships = config
    game = played(RULESETS[preset], players, partnerships, seed=count, count=count)
    record = game.record()
    text = json.dumps(record)
    assert json.loads(text) == record
    replayed = Game.from_record(json.loads(text))
    assert replayed.record() == record
    assert json.dumps(replayed.record()) == text


def test_record_is_a_fresh_copy() -> None:
    """DESIGN.md "every public way to change state is checked": changing a returned record
    does not change the match, nor does changing the record a match was replayed from."""
    game = played(ESCOBA, 2, False, seed=3, count=40)
    record = game.record()
    saved = copy.deepcopy(record)
    record["hands"][0]["moves"].clear()
    record["hands"][0]["deals"][0].reverse()
    record["players"] = 3
    assert game.record() == saved
    source = copy.deepcopy(saved)
    replayed = Game.from_record(source)
    source["hands"][-1]["moves"].append("Ad")
    source["hands"][0]["deals"][0].reverse()
    assert replayed.record() == saved


# -- replay --------------------------------------------------------------------------------


@pytest.mark.parametrize("count", [0, 1, 35, 36, 37, 80, 10_000])
@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_replay_reaches_the_same_state(config: tuple[str, int, bool], count: int) -> None:
    """DESIGN.md: Game.from_record replays to the same state (same record, observations,
    hands, table, results and totals), for unfinished and finished matches."""
    preset, players, partnerships = config
    game = played(RULESETS[preset], players, partnerships, seed=count + 1, count=count)
    replayed = Game.from_record(game.record())
    assert state(replayed) == state(game)
    if count == 10_000:
        assert game.is_over()


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
@pytest.mark.parametrize("count", [0, 20, 36, 50])
def test_replayed_match_continues_like_the_original(
    config: tuple[str, int, bool], count: int
) -> None:
    """DESIGN.md: a replayed unfinished match continues identically to the original when both
    play the same moves (later hands are dealt from the seed alike)."""
    preset, players, partnerships = config
    # A target no single hand reaches, so the replay crosses at least one hand boundary.
    rules = RULESETS[preset].replace(target_score=15)
    game = played(rules, players, partnerships, seed=count + 7, count=count)
    replayed = Game.from_record(game.record())
    rng = random.Random(count)
    while not game.is_over():
        assert replayed.legal_moves() == game.legal_moves()
        assert replayed.observation(game.to_move or 0) == game.observation(game.to_move or 0)
        chosen = random_move(game, rng)
        game.play(chosen)
        replayed.play(str(chosen))
    assert replayed.is_over()
    assert state(replayed) == state(game)
    assert len(game.results) >= 2


def test_a_record_with_chosen_decks_is_dealt_from_them() -> None:
    """DESIGN.md: the record fixes the deck of each hand; replay deals from it, not the seed."""
    deck = build_deck(2, 1, hands={0: "7d 7h 7s", 1: "Kd Kh Ks"}, table="As 2s 3s 4s")
    game = Game.from_record(make_record(ESCOBA, 2, [[deck]], first_dealer=1, seed=99))
    assert game.dealer == 1
    assert game.to_move == 0
    assert set(game.hand(0)) == {card("7d"), card("7h"), card("7s")}
    assert set(game.hand(1)) == {card("Kd"), card("Kh"), card("Ks")}
    assert game.record()["hands"][0]["deals"] == [deck]
    assert game.record()["seed"] == 99


def test_kings_redeal_record_replays_both_decks() -> None:
    """RULES.md "A hand" 3 and DESIGN.md: a Scopa hand dealt again holds both deck orders,
    and the record replays to the same state."""
    first = build_deck(2, 0, table="Kd Kh Ks 5c")
    second = build_deck(2, 0, table="As 2h 3s 4c")
    game = Game.from_record(make_record(SCOPA, 2, [[first, second]]))
    play_random(game, random.Random(1), stop=lambda g: g.hand_number > 0)
    record = game.record()
    assert record["hands"][0]["deals"] == [first, second]
    assert state(Game.from_record(json.loads(json.dumps(record)))) == state(game)


# -- corrupted records ---------------------------------------------------------------------

Mutation = Callable[[dict[str, Any]], object]


def unfinished_record() -> dict[str, Any]:
    """Escoba, 2 players: hand 1 finished, 5 moves into hand 2."""
    return played(ESCOBA, 2, False, seed=5, count=41).record()


def finished_record() -> dict[str, Any]:
    return played(ESCOBA.replace(target_score=3), 2, False, seed=5, count=10_000).record()


def setter(path: tuple[Any, ...], value: object) -> Mutation:
    def mutate(record: dict[str, Any]) -> object:
        target: Any = record
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        return record

    return mutate


def deleter(*path: Any) -> Mutation:
    def mutate(record: dict[str, Any]) -> object:
        target: Any = record
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]
        return record

    return mutate


def duplicate_card(record: dict[str, Any]) -> object:
    deck = record["hands"][0]["deals"][0]
    deck[5] = deck[6]
    return record


def stock_card_played(record: dict[str, Any]) -> object:
    """Move 3 of hand 1 drops the deck's last card, which is still in the stock then."""
    entry = record["hands"][0]
    entry["moves"][2] = entry["deals"][-1][-1]
    return record


def extra_move(record: dict[str, Any]) -> object:
    record["hands"][0]["moves"].append(record["hands"][1]["moves"][0])
    return record


def short_hand(record: dict[str, Any]) -> object:
    record["hands"][0]["moves"].pop()
    return record


def wrong_dealer(record: dict[str, Any]) -> object:
    record["hands"][1]["dealer"] = record["hands"][0]["dealer"]
    return record


def wrong_first_dealer(record: dict[str, Any]) -> object:
    record["first_dealer"] = 1 - record["first_dealer"]
    return record


def hand_after_the_end(record: dict[str, Any]) -> dict[str, Any]:
    last = record["hands"][-1]
    record["hands"].append({"dealer": 1 - last["dealer"], "deals": last["deals"], "moves": []})
    return record


UNFINISHED_CORRUPTIONS: list[tuple[str, Mutation, list[str]]] = [
    ("not a mapping", lambda r: [r], ["mapping"]),
    ("wrong format", setter(("format",), "chess-pgn"), ["format", "chess-pgn"]),
    ("wrong version", setter(("version",), 2), ["version"]),
    ("no format", deleter("format"), ["format"]),
    ("no rules", deleter("rules"), ["rules", "missing"]),
    ("no players", deleter("players"), ["players", "missing"]),
    ("no partnerships", deleter("partnerships"), ["partnerships", "missing"]),
    ("no seed", deleter("seed"), ["seed", "missing"]),
    ("no first dealer", deleter("first_dealer"), ["first_dealer", "missing"]),
    ("no hands", deleter("hands"), ["hands", "missing"]),
    ("no deals", deleter("hands", 0, "deals"), ["hand 1", "deals"]),
    ("no moves", deleter("hands", 1, "moves"), ["hand 2", "moves"]),
    ("bad capture rule", setter(("rules", "capture"), "poker"), ["capture", "poker"]),
    ("unknown option", setter(("rules", "jokers"), True), ["jokers"]),
    ("bad target", setter(("rules", "target_score"), 0), ["target_score"]),
    ("rules as text", setter(("rules",), "escoba"), ["rules"]),
    (
        "nonsense combination",
        setter(("rules", "capture"), "match"),
        ["initial_table_sweeps"],
    ),
    ("five players", setter(("players",), 5), ["players"]),
    ("players as text", setter(("players",), "2"), ["players"]),
    ("partners of two", setter(("partnerships",), True), ["partnerships"]),
    ("seed as a list", setter(("seed",), [1, 2]), ["seed"]),
    ("dealer out of range", setter(("first_dealer",), 7), ["first_dealer"]),
    ("empty hands", setter(("hands",), []), ["hands"]),
    ("no deck", setter(("hands", 0, "deals"), []), ["hand 1"]),
    ("duplicate card", duplicate_card, ["hand 1", "twice"]),
    ("bad card", setter(("hands", 0, "deals", 0, 7), "Xx"), ["hand 1", "Xx"]),
    ("Spanish number", setter(("hands", 0, "deals", 0, 7), "10d"), ["hand 1", "10d"]),
    ("short deck", deleter("hands", 1, "deals", 0, 39), ["hand 2", "40"]),
    ("illegal move", stock_card_played, ["hand 1, move 3"]),
    ("garbage move", setter(("hands", 1, "moves", 1), "seven of coins"), ["hand 2, move 2"]),
    ("move not text", setter(("hands", 0, "moves", 0), 7), ["hand 1", "moves"]),
    ("too many moves", extra_move, ["hand 1", "more moves"]),
    ("short non-final hand", short_hand, ["hand 1", "35", "36"]),
    ("wrong dealer", wrong_dealer, ["hand 2", "dealer"]),
    ("wrong first dealer", wrong_first_dealer, ["hand 1", "dealer"]),
]


@pytest.mark.parametrize(
    ("mutate", "fragments"),
    [pytest.param(m, f, id=name) for name, m, f in UNFINISHED_CORRUPTIONS],
)
def test_corrupted_records_raise_record_error(mutate: Mutation, fragments: list[str]) -> None:
    """DESIGN.md "Exceptions": a malformed record or one that does not replay raises
    RecordError (a ValueError) whose message names the problem (and the hand and move)."""
    record = unfinished_record()
    Game.from_record(record)  # the intact record replays
    corrupted = mutate(copy.deepcopy(record))
    with pytest.raises(RecordError) as raised:
        Game.from_record(corrupted)  # type: ignore[arg-type]
    assert isinstance(raised.value, ValueError)
    for fragment in fragments:
        assert fragment in str(raised.value), str(raised.value)


def test_a_hand_after_the_end_of_the_match_is_refused() -> None:
    """RULES.md "Winning the match": once a side has won, no further hand is played; a record
    that goes on raises RecordError."""
    record = finished_record()
    assert Game.from_record(record).is_over()
    with pytest.raises(RecordError, match="ended"):
        Game.from_record(hand_after_the_end(copy.deepcopy(record)))
    moved = copy.deepcopy(record)
    moved["hands"][-1]["moves"].append("Ad")
    with pytest.raises(RecordError, match="more moves"):
        Game.from_record(moved)


def test_kings_redeal_records_must_hold_the_right_number_of_decks() -> None:
    """RULES.md "A hand" 3: a Scopa deck with 3 kings on the table must be followed by another
    deck; a second deck after a deal without 3 kings is refused too."""
    kings = build_deck(2, 0, table="Kd Kh Ks 5c")
    plain = build_deck(2, 0, table="As 2h 3s 4c")
    with pytest.raises(RecordError, match="hand 1"):
        Game.from_record(make_record(SCOPA, 2, [[kings]]))
    with pytest.raises(RecordError, match="hand 1"):
        Game.from_record(make_record(SCOPA, 2, [[plain, kings]]))
    with pytest.raises(RecordError, match="hand 1"):
        Game.from_record(make_record(ESCOBA, 2, [[kings, plain]]))


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 50) | st.sampled_from(["", "Ad", "7d:Kd", "x"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=4,
)


def json_paths(value: object, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path] if path else []
    if isinstance(value, dict):
        for key, item in value.items():
            found += json_paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += json_paths(item, (*path, index))
    return found


BASE_RECORD = played(SCOPA, 3, False, seed=2, count=50).record()
BASE_PATHS = json_paths(BASE_RECORD)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    edits=st.lists(
        st.tuples(st.sampled_from(BASE_PATHS), st.booleans(), JSON_VALUES), min_size=1, max_size=3
    )
)
def test_any_damaged_record_replays_or_raises_record_error(
    edits: list[tuple[tuple[Any, ...], bool, object]],
) -> None:
    """DESIGN.md "Exceptions": whatever is damaged in a record (a field deleted or replaced by
    any JSON value), from_record either replays it or raises RecordError, never another
    exception; a record that replays gives a record that replays to the same state."""
    record = copy.deepcopy(BASE_RECORD)
    for path, delete, value in edits:
        target: Any = record
        try:
            for key in path[:-1]:
                target = target[key]
            if delete and isinstance(target, dict):
                del target[path[-1]]
            else:
                target[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue  # an earlier edit removed or replaced this place
    try:
        game = Game.from_record(record)
    except RecordError as error:
        assert str(error)
        return
    assert Game.from_record(game.record()).record() == game.record()


def test_the_game_never_imports_the_records_module() -> None:
    """DESIGN.md "No import circle anywhere in src/": the records module imports the game (its
    replay is a client of Game), and the game reaches neither it nor anything importing it:
    it writes and reads records through the record's format alone."""
    grimp = pytest.importorskip("grimp")
    graph = grimp.build_graph("escoba")
    chain = graph.find_shortest_chain
    assert chain(importer="escoba.game", imported="escoba.records") is None
    assert chain(importer="escoba.record_format", imported="escoba.game") is None
    assert "escoba.game" in graph.find_modules_directly_imported_by("escoba.records")
