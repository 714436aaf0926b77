"""The arena: duplicate deals between players, its figures, and the ``escoba arena`` command."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path

import pytest
from typer.testing import CliRunner

from escoba import RULESETS, Game, Move, Observation
from escoba.ai import Player
from escoba.arena import (
    ELO_LIMIT,
    ArenaError,
    ArenaGame,
    ArenaResult,
    Entrant,
    elo_from_score,
    play_arena,
    seat_lines,
)
from escoba.cli import app

ESCOBA = RULESETS["escoba"]
runner = CliRunner(env={"COLUMNS": "250", "NO_COLOR": "1"})


class FirstLegal:
    """A deterministic test player: the first legal move. It checks what it is given."""

    name = "first"

    def __init__(self, seed: int = 0) -> None:
        assert isinstance(seed, int)

    def choose(self, observation: Observation, legal: Sequence[Move]) -> Move:
        assert type(observation) is Observation
        assert not isinstance(observation, Game)
        assert all(type(move) is Move for move in legal)
        assert tuple(legal) == observation.legal_moves and legal
        assert observation.to_move == observation.seat
        return legal[0]


class LastLegal(FirstLegal):
    name = "last"

    def choose(self, observation: Observation, legal: Sequence[Move]) -> Move:
        super().choose(observation, legal)
        return legal[-1]


class Cheater(FirstLegal):
    name = "cheater"

    def choose(self, observation: Observation, legal: Sequence[Move]) -> Move:
        return Move.parse("Kd:7d")  # never legal: a king takes nothing in Escoba's 15


FIRST = Entrant("first", FirstLegal)
LAST = Entrant("last", LastLegal)


def collect(
    players: Sequence[str | Entrant], hands: int, **options: object
) -> tuple[ArenaResult, list[ArenaGame]]:
    games: list[ArenaGame] = []
    result = play_arena(
        players,
        rules=options.pop("rules", ESCOBA),  # type: ignore[arg-type]
        hands=hands,
        on_game=games.append,
        **options,  # type: ignore[arg-type]
    )
    return result, games


# -- seatings ------------------------------------------------------------------------------------


def test_seat_lines_put_every_entrant_in_every_seat_once() -> None:
    for entrants, seats, partnerships in [
        (2, 2, False),
        (3, 3, False),
        (4, 4, False),
        (4, 4, True),
    ]:
        lines = seat_lines(entrants, seats, partnerships)
        assert len(lines) == seats
        for seat in range(seats):
            assert sorted(line[seat] for line in lines) == list(range(entrants))
    assert seat_lines(2, 4, True) == ((0, 1, 0, 1), (1, 0, 1, 0))
    # four entrants in partnerships: partners (0 and 2, 1 and 3) always sit opposite
    for line in seat_lines(4, 4, True):
        assert {line[0], line[2]} in ({0, 2}, {1, 3})


# -- the duplicate deal ----------------------------------------------------------------------------


def test_each_deck_is_played_in_every_rotation_with_the_same_deck_and_dealer() -> None:
    result, games = collect([FIRST, LAST], 3, seed=5)
    assert result.rotations == 2 and result.games == 6 == len(games)
    assert [g.number for g in games] == list(range(1, 7))
    assert all(g.total == 6 for g in games)
    decks = []
    for hand in range(3):
        pair = [g for g in games if g.hand == hand]
        assert [g.rotation for g in pair] == [0, 1]
        assert [g.seating for g in pair] == [(0, 1), (1, 0)]
        records = [g.record for g in pair]
        assert len(records[0]["hands"]) == len(records[1]["hands"]) == 1
        first, second = (r["hands"][0] for r in records)
        assert first["deals"] == second["deals"]
        assert first["dealer"] == second["dealer"]
        assert len(first["moves"]) == 36
        decks.append(first["deals"][0])
        # the record replays to the reported result
        replayed = Game.from_record(records[0])
        assert replayed.results[0].points == pair[0].result.points
    assert len({tuple(d) for d in decks}) == 3  # a new deck for every duplicate hand


def test_the_same_seed_gives_the_same_figures_and_another_seed_other_decks() -> None:
    one = play_arena(["beginner", "beginner"], rules=ESCOBA, hands=6, seed=11)
    two = play_arena(["beginner", "beginner"], rules=ESCOBA, hands=6, seed=11)
    assert one.to_json() | {"seconds": 0} == two.to_json() | {"seconds": 0}
    _, games_a = collect(["beginner", "beginner"], 2, seed=11)
    _, games_b = collect(["beginner", "beginner"], 2, seed=12)
    assert games_a[0].record["hands"][0]["deals"] != games_b[0].record["hands"][0]["deals"]


def test_kings_redeal_decks_are_replayed_too() -> None:
    result, games = collect([FIRST, LAST], 12, rules=RULESETS["scopa"], seed=2)
    assert result.games == 24
    for hand in range(12):
        a, b = (g.record["hands"][0]["deals"] for g in games if g.hand == hand)
        assert a == b


# -- the figures -----------------------------------------------------------------------------------


def test_figures_are_consistent() -> None:
    result, games = collect([FIRST, LAST], 10, seed=3)
    totals = [sum(g.points[e] for g in games) for e in range(2)]
    assert result.total_points == tuple(totals)
    for e in range(2):
        assert result.mean_points[e] == pytest.approx(totals[e] / result.games)
        low, high = result.ci95[e]
        assert low <= result.mean_points[e] <= high
        low, high = result.margin_ci95[e]
        assert low <= result.margin[e] <= high
    assert result.mean_difference == pytest.approx(result.mean_points[0] - result.mean_points[1])
    assert result.margin[1] == pytest.approx(-result.margin[0])
    assert result.difference_ci95 == result.margin_ci95[0]
    assert result.wins[0] == result.losses[1] and result.draws[0] == result.draws[1]
    assert result.wins[0] + result.draws[0] + result.losses[0] == result.hands
    assert result.score_rate[0] + result.score_rate[1] == pytest.approx(1)
    assert result.score_rate[0] == pytest.approx((result.wins[0] + result.draws[0] / 2) / 10)
    assert result.elo[0] == pytest.approx(-result.elo[1])
    assert result.elo[0] == pytest.approx(elo_from_score(result.score_rate[0]))
    assert sum(result.match_wins) == result.matches
    # a game's points are its side's points
    for g in games:
        assert g.points == tuple(g.result.points[g.seating.index(e)] for e in range(2))


def test_identical_deterministic_players_cancel_exactly_per_duplicate_pair() -> None:
    result, games = collect([FIRST, FIRST], 8, seed=4)
    for hand in range(8):
        a, b = (g for g in games if g.hand == hand)
        assert a.points[0] + b.points[0] == a.points[1] + b.points[1]
        assert a.record["hands"][0]["moves"] == b.record["hands"][0]["moves"]
    assert result.mean_difference == 0 and result.difference_ci95 == (0.0, 0.0)
    assert result.mean_points[0] == result.mean_points[1]
    assert result.draws == (8, 8) and result.elo == (0.0, 0.0)
    assert result.match_wins[0] == result.match_wins[1]


def test_random_players_of_one_level_share_seeds_by_seat_and_cancel_too() -> None:
    result = play_arena(["beginner", "beginner"], rules=ESCOBA, hands=10, seed=9)
    assert result.mean_difference == 0
    assert result.elo == (0.0, 0.0)


def test_a_stronger_player_shows_up() -> None:
    # FirstLegal vs LastLegal differ; whatever the sign, the figures agree with each other
    result = play_arena([FIRST, LAST], rules=ESCOBA, hands=30, seed=1)
    diff = result.mean_difference
    assert diff is not None
    if result.score_rate[0] > 0.5:
        assert result.elo[0] > 0
    low, high = result.difference_ci95 or (0, 0)
    assert low < high


@pytest.mark.parametrize(
    ("players", "options", "rotations"),
    [
        (["beginner", "beginner", "beginner"], {}, 3),
        ([FIRST, LAST, FIRST, LAST], {}, 4),
        ([FIRST, LAST], {"partnerships": True}, 2),
        ([FIRST, LAST, LAST, FIRST], {"partnerships": True}, 4),
    ],
)
def test_more_seats_and_partnerships(
    players: list[str | Entrant], options: dict[str, object], rotations: int
) -> None:
    result, games = collect(players, 3, seed=6, **options)
    assert result.rotations == rotations and result.games == 3 * rotations == len(games)
    seats = 4 if options else len(players)
    assert result.seats == seats
    for g in games:
        # partners score together: an entrant's points are those of its side
        for seat, e in enumerate(g.seating):
            side = seat % 2 if options else seat
            assert g.points[e] == g.result.points[side]
    for e in range(len(players)):
        assert result.mean_points[e] == pytest.approx(result.total_points[e] / result.games)
    assert math.fsum(result.margin) == pytest.approx(0)
    if len(players) == 2:
        assert result.mean_difference is not None
    else:
        assert result.mean_difference is None and result.difference_ci95 is None


def test_four_entrants_in_partnerships_partners_have_the_same_figures() -> None:
    result = play_arena(
        [FIRST, LAST, FIRST, LAST], rules=ESCOBA, hands=4, partnerships=True, seed=1
    )
    assert result.mean_points[0] == result.mean_points[2]
    assert result.mean_points[1] == result.mean_points[3]
    assert result.score_rate[0] == pytest.approx(1 - result.score_rate[1])


@pytest.mark.parametrize(
    ("preset", "seats", "plays"),
    [("scopone-scientifico", 4, 40), ("scopone-classico", 4, 36), ("scopone-scientifico", 2, 40)],
)
def test_scopone_hands_are_played_whole(preset: str, seats: int, plays: int) -> None:
    # Scopone deals the whole deck at once (10 or 9 cards each, 4 seats in partnerships; or
    # two deals of 10 between 2): a game of the arena is that one hand, every card played.
    rules = RULESETS[preset].replace(ace_takes_all=True, re_bello=True, napola=True)
    partnerships = seats == 4
    result, games = collect(["easy", "beginner"], 2, rules=rules, partnerships=partnerships)
    assert result.seats == seats and result.games == 4 == len(games)
    for game in games:
        (hand,) = game.record["hands"]
        assert len(hand["moves"]) == plays
        assert set(game.result.breakdown) >= {"re_bello", "napola"}
    assert result.mean_difference is not None


@pytest.mark.parametrize("preset", ["scopone-scientifico", "scopone-classico"])
def test_a_seating_the_deck_does_not_share_out_is_refused(preset: str) -> None:
    # 3 seats cannot share Scopone's 40 (or 36) cards in hands of 10 (or 9): the rules' error.
    with pytest.raises(ArenaError, match="do not share out") as info:
        play_arena(["beginner"] * 3, rules=RULESETS[preset], hands=1)
    assert "3 players" in str(info.value)


def test_a_short_target_chains_many_matches() -> None:
    rules = ESCOBA.replace(target_score=3)
    result = play_arena([FIRST, LAST], rules=rules, hands=6, seed=3)
    assert result.matches >= 6  # nearly every hand reaches 3 points
    assert sum(result.match_wins) == result.matches


def test_elo_from_score() -> None:
    assert elo_from_score(0.5) == 0
    assert elo_from_score(0.0) == -ELO_LIMIT and elo_from_score(1.0) == ELO_LIMIT
    assert elo_from_score(0.76) == pytest.approx(-400 * math.log10(1 / 0.76 - 1))
    assert elo_from_score(0.2) == pytest.approx(-elo_from_score(0.8))


def test_to_json_has_the_keys_and_is_json() -> None:
    result = play_arena(["beginner", FIRST], rules=ESCOBA, hands=3, seed=1)
    data = json.loads(json.dumps(result.to_json()))
    for key in ("players", "hands", "mean_points", "ci95", "elo", "seconds"):
        assert key in data
    assert data["players"] == ["beginner", "first"]
    assert data["hands"] == 3 and data["games"] == 6
    assert len(data["ci95"]) == 2 and len(data["ci95"][0]) == 2
    one = play_arena(["beginner", FIRST], rules=ESCOBA, hands=1, seed=1)
    assert one.to_json()["ci95"] == [None, None]  # one hand: no interval


# -- errors ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "options", "fragment"),
    [
        (["beginner", "wizard"], {}, "unknown player level 'wizard'"),
        (["beginner"], {}, "2, 3 or 4"),
        (["beginner"] * 3, {"seats": 2}, "one player per seat"),
        (["beginner"] * 3, {"partnerships": True}, "2 players (one per side) or 4"),
        (["beginner"] * 2, {"partnerships": True, "seats": 2}, "need 4 players"),
        (["beginner"] * 2, {"hands": 0}, "hands"),
        (["beginner"] * 2, {"seed": "x"}, "seed"),
        (["beginner"] * 2, {"rules": "escoba"}, "RuleSet"),
    ],
)
def test_bad_arguments_raise_clear_errors(
    players: list[str], options: dict[str, object], fragment: str
) -> None:
    arguments: dict[str, object] = {"rules": ESCOBA, "hands": 2} | options
    with pytest.raises(ArenaError) as info:
        play_arena(players, **arguments)  # type: ignore[arg-type]
    assert fragment in str(info.value)
    assert isinstance(info.value, ValueError)


def test_an_illegal_move_names_the_player() -> None:
    with pytest.raises(ArenaError, match=r"player .cheater. in seat \d chose an illegal move"):
        play_arena([FIRST, Entrant("cheater", Cheater)], rules=ESCOBA, hands=1)


def test_test_players_satisfy_the_protocol() -> None:
    assert isinstance(FirstLegal(), Player) and isinstance(LastLegal(), Player)


# -- escoba arena ----------------------------------------------------------------------------------


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.stdout, result.stderr


def test_cli_prints_a_table_and_writes_json(tmp_path: Path) -> None:
    target = tmp_path / "arena.json"
    code, out, err = run(
        "arena", "beginner", "beginner", "--hands", "5", "--rules", "escoba", "--players", "2",
        "--seed", "3", "--json", str(target),
    )  # fmt: skip
    assert code == 0, err
    assert "Arena: 5 duplicate hands of escoba, 2 players" in out
    rows = [line for line in out.splitlines() if " beginner " in line]
    assert len(rows) == 2
    assert "±" in rows[0] and "+0" in rows[0]
    data = json.loads(target.read_text())
    assert data["players"] == ["beginner", "beginner"] and data["hands"] == 5
    assert data["seed"] == 3 and data["rules"] == "escoba"
    assert f"{data['mean_points'][0]:.2f}" in rows[0]


def test_cli_three_players_and_partnerships() -> None:
    code, out, err = run("arena", "beginner", "beginner", "beginner", "--hands", "2")
    assert code == 0, err
    assert "3 players" in out and "3 seat rotations" in out
    code, out, err = run(
        "arena", "beginner", "beginner", "--partnerships", "--hands", "2", "--rules", "scopa"
    )
    assert code == 0, err
    assert "4 players in partnerships" in out and "2 seat rotations" in out


def test_cli_scopone_in_partnerships() -> None:
    code, out, err = run(
        "arena", "easy", "beginner", "--partnerships", "--players", "4", "--hands", "1",
        "--rules", "scopone-scientifico", "--set", "ace_takes_all=true",
    )  # fmt: skip
    assert code == 0, err
    assert "scopone-scientifico" in out and "4 players in partnerships" in out
    assert "2 seat rotations" in out


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["arena", "beginner", "wizard"], "unknown player level 'wizard'"),
        (
            ["arena", *["beginner"] * 3, "--rules", "scopone-classico"],
            "hand_cards: 9 cards to each of 3 players (27 a deal) do not share out",
        ),
        (["arena", "beginner", "beginner", "--players", "3"], "--players 3: give one PLAYER"),
        (["arena", "beginner"], "give 2, 3 or 4 PLAYERs, one per seat, got 1"),
        (["arena", *["beginner"] * 5], "give 2, 3 or 4 PLAYERs"),
        (["arena", "beginner", "beginner", "--hands", "0"], "--hands: must be 1 or more"),
        (["arena", "beginner", "beginner", "--rules", "poker"], "unknown preset 'poker'"),
        (["arena", "beginner", "beginner", "--players", "5"], "--players: must be 2, 3 or 4"),
        (
            ["arena", "beginner", "beginner", "--partnerships", "--players", "2"],
            "needs --players 4",
        ),
        (["arena", *["beginner"] * 3, "--partnerships"], "2 players (one per side)"),
        (["arena", "beginner", "beginner", "--set", "target_score=0"], "target_score"),
        (["arena"], "Missing argument"),
    ],
)
def test_cli_errors_are_one_line_with_exit_code_2(args: list[str], fragment: str) -> None:
    code, out, err = run(*args)
    assert code == 2, (code, out, err)
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("Error: ") and fragment in lines[0], lines[0]


def test_cli_json_to_an_unwritable_place_is_a_clear_error(tmp_path: Path) -> None:
    target = tmp_path / "missing" / "arena.json"
    code, _, err = run("arena", "beginner", "beginner", "--hands", "1", "--json", str(target))
    assert code == 2 and "Error: --json: cannot write" in err
