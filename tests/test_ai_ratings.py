"""The levels' ratings (issue "An honest ladder", deliverable 2): the Elo fit of a round robin,
its intervals, the measured table, and where people see it."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from escoba import RULESETS
from escoba.ai import LEVELS
from escoba.ai.rated import MEASURED, RATINGS
from escoba.ai.ratings import (
    ANCHOR,
    ELO,
    Results,
    fit_elo,
    level_rating,
    rate_round_robin,
    rated_game,
)

LADDER = Path(__file__).resolve().parent.parent / "benchmarks" / "ladder.py"


def played(truth: dict[str, float], matches: int, seed: int) -> Results:
    """A round robin of ``matches`` a pair between players of the given Elo ratings."""
    rng = random.Random(seed)
    names = sorted(truth)
    results = {}
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            chance = 1 / (1 + 10 ** ((truth[b] - truth[a]) / 400))
            won = sum(rng.random() < chance for _ in range(matches))
            results[(a, b)] = (won, matches - won)
    return results


def test_the_fit_finds_the_ratings_that_played() -> None:
    truth = {"beginner": 1000.0, "x": 1300.0, "y": 1450.0, "z": 1500.0}
    fitted = fit_elo(played(truth, 4000, seed=1))
    assert fitted["beginner"] == ANCHOR
    for name, rating in truth.items():
        assert abs(fitted[name] - rating) < 25, (name, fitted[name])


def test_a_pair_that_won_every_match_is_still_a_finite_distance_apart() -> None:
    """The drawn match counted for every pair (the prior) keeps a clean sweep finite: ten
    wins in ten matches put the winner about 480 points above, not infinitely."""
    fitted = fit_elo({("beginner", "hard"): (0, 10)})
    gap = fitted["hard"] - fitted["beginner"]
    assert math.isfinite(gap)
    assert gap == pytest.approx(ELO * math.log(10.5 / 0.5))


def test_the_intervals_hold_the_fit_and_narrow_with_more_matches() -> None:
    truth = {"beginner": 1000.0, "x": 1200.0, "y": 1350.0}
    few = rate_round_robin(played(truth, 30, seed=2), resamples=200)
    many = rate_round_robin(played(truth, 600, seed=2), resamples=200)
    assert few["beginner"].low == few["beginner"].rating == few["beginner"].high == ANCHOR
    for name in ("x", "y"):
        for table in (few, many):
            assert table[name].low <= table[name].rating <= table[name].high
        assert many[name].high - many[name].low < few[name].high - few[name].low
        assert many[name].low < truth[name] < many[name].high


def test_bad_results_are_refused() -> None:
    with pytest.raises(ValueError, match="the anchor 'beginner' played no match"):
        fit_elo({("a", "b"): (1, 1)})
    with pytest.raises(ValueError, match="bad result for beginner against a"):
        fit_elo({("beginner", "a"): (-1, 2)})


def test_the_measured_table_rates_every_level_weakest_first() -> None:
    """docs/ai.md "The ladder": every level of every rated game, in order, each above the
    one below it; beginner at the anchor."""
    assert set(RATINGS) == {"escoba", "scopa"} == set(MEASURED)
    for game, table in RATINGS.items():
        assert list(table) == list(LEVELS), game
        ratings = [table[level][0] for level in LEVELS]
        assert ratings[0] == ANCHOR
        assert ratings == sorted(ratings) and len(set(ratings)) == len(ratings), game
        for rating, low, high in table.values():
            assert low <= rating <= high
        assert MEASURED[game]["hands"] >= 400 and MEASURED[game]["matches"] > 0


def test_a_level_is_rated_in_its_game_and_a_former_name_as_its_level() -> None:
    assert rated_game(RULESETS["escova"]) == rated_game(RULESETS["escoba-classic"]) == "escoba"
    assert rated_game(RULESETS["scopa"]) == "scopa"
    assert rated_game(RULESETS["scopone-scientifico"]) is None
    hard = level_rating("hard", RULESETS["scopa"])
    assert hard is not None and hard.rating == RATINGS["scopa"]["hard"][0]
    assert hard.about % 10 == 0 and abs(hard.about - hard.rating) <= 5
    assert level_rating("master", RULESETS["scopa"]) == hard
    assert level_rating("hard", RULESETS["scopone-classico"]) is None
    assert level_rating("nobody", RULESETS["escoba"]) is None


@pytest.mark.slow
def test_the_lobby_is_given_each_presets_ratings(client: TestClient) -> None:
    ratings = client.get("/api/presets").json()["ratings"]
    assert "scopone-scientifico" not in ratings
    assert ratings["escoba"] == {
        level: 10 * round(RATINGS["escoba"][level][0] / 10) for level in LEVELS
    }
    assert ratings["scopa"]["hard"] == level_rating("hard", RULESETS["scopa"]).about  # type: ignore[union-attr]


@pytest.mark.slow
def test_a_small_round_robin_writes_ratings_weakest_first(tmp_path: Path) -> None:
    """benchmarks/ladder.py, small: every pair plays, the table comes out in JSON, and the
    random mover is rated below every other level."""
    out = tmp_path / "ladder.json"
    done = subprocess.run(
        [sys.executable, str(LADDER), "--hands", "12", "--block", "12", "--games", "escoba",
         "--workers", "1", "--json", str(out)],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    data = json.loads(out.read_text())["escoba"]
    assert set(data["ratings"]) == set(LEVELS)
    assert len(data["pairs"]) == len(LEVELS) * (len(LEVELS) - 1) // 2
    assert data["matches"] == sum(map(sum, data["pairs"].values())) > 0
    assert data["ratings"]["beginner"][0] == ANCHOR
    assert all(data["ratings"][level][0] > ANCHOR for level in LEVELS[1:])
    assert "round robin" in done.stdout
