"""Random play (``escoba.simulate``) in Scopone and with the regional options (issue "Scopone
and the regional ways of playing Scopa"): matches end, the new categories are counted, and a
seating the deck does not share out is refused with the rules' error."""

from __future__ import annotations

import pytest

from escoba import RULESETS, RulesError
from escoba.scoring import categories_in_play
from escoba.simulate import simulate


def test_scopone_with_the_regional_options_counts_re_bello_and_napola() -> None:
    rules = RULESETS["scopone-scientifico"].replace(re_bello=True, napola=True, target_score=11)
    summary = simulate(rules, matches=3, players=4, partnerships=True, seed=1)
    assert summary.sides == ((0, 2), (1, 3)) and sum(summary.win_share) == pytest.approx(1)
    # The king of coins is taken in every hand (the last capturer takes what is left).
    assert summary.category_means["re_bello"] == 1.0
    assert summary.category_means["napola"] >= 0.0
    shown = categories_in_play(rules)
    assert {"re_bello", "napola"} <= set(shown)
    assert summary.mean_points_per_hand == pytest.approx(
        sum(summary.category_means[c] for c in shown)
    )


def test_three_players_cannot_share_a_scopone_deck() -> None:
    with pytest.raises(RulesError, match="do not share out"):
        simulate(RULESETS["scopone-classico"], matches=1, players=3)
