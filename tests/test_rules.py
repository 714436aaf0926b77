"""Rule sets: the eight presets, option validation, combinations, round trips.

Spec: RULES.md, "Rule set options (field names of `RuleSet`)" and "Presets"; for the two
Scopone presets and the regional options, docs/rules.md, "Scopone" and "Regional options".
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from escoba import RULESETS, EscobaError, RulesError, RuleSet, preset_name
from escoba.rules import INT_OPTIONS, MAX_ALL_SEVENS_BONUS, MAX_TARGET_SCORE, MAX_WIN_BY

# RULES.md, "Rule set options": the escoba column of the options table.
ESCOBA: dict[str, Any] = {
    "capture": "sum15",
    "forced_capture": True,
    "last_play_sweep_counts": True,
    "initial_table_sweeps": True,
    "kings_redeal": False,
    "sevens": "ranking",
    "primiera_needs_all_suits": False,
    "all_coins_two": False,
    "all_sevens_bonus": 0,
    "big_wins": False,
    "target_score": 21,
    "win_by": 1,
    # docs/rules.md: the deal (3 cards at a time, 4 on the table) and the regional options,
    # all off.
    "hand_cards": 3,
    "table_cards": 4,
    "ace_takes_all": False,
    "re_bello": False,
    "napola": False,
}

# RULES.md, "Presets": what each preset changes against `escoba`; docs/rules.md, "Scopone", for
# the two Scopone presets (Scopa's rules, the whole deck dealt at the start).
PRESET_CHANGES: dict[str, dict[str, Any]] = {
    "escoba": {},
    "escoba-fournier": {"sevens": "sevens"},
    "escoba-primiera": {"sevens": "primiera", "primiera_needs_all_suits": True},
    "escoba-classic": {"sevens": "sevens", "all_sevens_bonus": 1},
    "scopa": {
        "capture": "match",
        "last_play_sweep_counts": False,
        "initial_table_sweeps": False,
        "kings_redeal": True,
        "sevens": "primiera",
        "target_score": 11,
    },
    "escova": {"sevens": "none", "all_coins_two": True, "target_score": 31},
    "scopone-scientifico": {
        "capture": "match",
        "hand_cards": 10,
        "table_cards": 0,
        "last_play_sweep_counts": False,
        "initial_table_sweeps": False,
        "sevens": "primiera",  # target 21, as escoba's
    },
    "scopone-classico": {
        "capture": "match",
        "hand_cards": 9,
        "last_play_sweep_counts": False,
        "initial_table_sweeps": False,
        "kings_redeal": True,
        "sevens": "primiera",
        "target_score": 11,
    },
}

# The values each option may take (a sample for the integers).
OPTION_VALUES: dict[str, list[Any]] = {
    "capture": ["sum15", "match"],
    "forced_capture": [True, False],
    "last_play_sweep_counts": [True, False],
    "initial_table_sweeps": [True, False],
    "kings_redeal": [True, False],
    "sevens": ["ranking", "sevens", "primiera", "none"],
    "primiera_needs_all_suits": [True, False],
    "all_coins_two": [True, False],
    "all_sevens_bonus": [0, 1, 2, 5, 10],
    "big_wins": [True, False],
    "target_score": [1, 11, 15, 21, 31, 1000],
    "win_by": [1, 2, 3, 100],
    "hand_cards": [1, 3, 9, 10],
    "table_cards": [0, 4],
    "ace_takes_all": [True, False],
    "re_bello": [True, False],
    "napola": [True, False],
}


def expected_options(name: str) -> dict[str, Any]:
    return ESCOBA | PRESET_CHANGES[name]


def nonsense(options: dict[str, Any]) -> str | None:
    """The option a combination is refused for (RULES.md, Presets, last paragraph), or None."""
    if options["capture"] == "match" and options["initial_table_sweeps"]:
        return "initial_table_sweeps"
    if options["table_cards"] == 0 and options["initial_table_sweeps"]:
        return "initial_table_sweeps"
    if options["table_cards"] == 0 and options["kings_redeal"]:
        return "kings_redeal"
    if options["ace_takes_all"] and options["capture"] != "match":
        return "ace_takes_all"
    if options["primiera_needs_all_suits"] and options["sevens"] != "primiera":
        return "primiera_needs_all_suits"
    return None


# --- presets ----------------------------------------------------------------------------------


def test_there_are_exactly_the_eight_presets() -> None:
    """RULES.md, Presets: escoba, escoba-fournier, -primiera, -classic, scopa and escova;
    docs/rules.md, Scopone: scopone-scientifico and scopone-classico."""
    assert set(RULESETS) == set(PRESET_CHANGES)
    assert all(isinstance(rules, RuleSet) for rules in RULESETS.values())


def test_option_names_are_those_of_rules_md() -> None:
    """RULES.md, Rule set options: the field names of RuleSet."""
    assert {f.name for f in dataclasses.fields(RuleSet)} == set(ESCOBA)
    assert set(RULESETS["escoba"].to_dict()) == set(ESCOBA)


@pytest.mark.parametrize("name", PRESET_CHANGES)
def test_preset_option_values(name: str) -> None:
    """RULES.md, Presets and the options table: every option value of every preset."""
    rules = RULESETS[name]
    for option, value in expected_options(name).items():
        actual = getattr(rules, option)
        assert actual == value, f"{name}.{option}"
        assert type(actual) is type(value), f"{name}.{option}"


@pytest.mark.parametrize("name", PRESET_CHANGES)
def test_preset_differences_from_escoba(name: str) -> None:
    """RULES.md, Presets: the column "differs from escoba", exactly."""
    assert RULESETS[name].differences(RULESETS["escoba"]) == PRESET_CHANGES[name]


def test_options_table_columns_scopa_and_escova() -> None:
    """RULES.md, Rule set options: the scopa and escova columns, read directly from the table."""
    scopa = RULESETS["scopa"]
    assert (scopa.capture, scopa.sevens, scopa.target_score) == ("match", "primiera", 11)
    assert scopa.forced_capture and scopa.kings_redeal
    assert not scopa.last_play_sweep_counts and not scopa.initial_table_sweeps
    escova = RULESETS["escova"]
    assert (escova.capture, escova.sevens, escova.target_score) == ("sum15", "none", 31)
    assert escova.all_coins_two and escova.initial_table_sweeps and escova.last_play_sweep_counts
    assert not escova.kings_redeal and not escova.big_wins


def test_default_rule_set_is_escoba() -> None:
    assert RuleSet() == RULESETS["escoba"]
    assert RuleSet().to_dict() == ESCOBA


def test_forced_capture_is_on_in_every_preset() -> None:
    """RULES.md, A move: forced_capture is on in every preset."""
    assert all(rules.forced_capture for rules in RULESETS.values())


@pytest.mark.parametrize("name", PRESET_CHANGES)
def test_preset_name(name: str) -> None:
    assert preset_name(RULESETS[name]) == name
    assert preset_name(RuleSet(**expected_options(name))) == name


def test_preset_name_of_a_custom_rule_set_is_none() -> None:
    assert preset_name(RULESETS["escoba"].replace(target_score=15)) is None
    assert preset_name(RULESETS["scopa"].replace(forced_capture=False)) is None


# --- immutability and value semantics ---------------------------------------------------------


def test_rule_sets_are_frozen() -> None:
    rules = RULESETS["escoba"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.target_score = 15  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del rules.capture
    assert rules.target_score == 21


def test_rule_sets_compare_and_hash_by_value() -> None:
    a = RULESETS["escoba"].replace(target_score=15)
    b = RuleSet(target_score=15)
    assert a == b
    assert hash(a) == hash(b)
    assert a != RULESETS["escoba"]


# --- replace ----------------------------------------------------------------------------------


def test_replace_design_example() -> None:
    """DESIGN.md and RULES.md, Presets: escoba with big_wins=True and target_score=15."""
    base = RULESETS["escoba"]
    rules = base.replace(target_score=15, big_wins=True)
    assert rules.target_score == 15
    assert rules.big_wins is True
    assert rules.to_dict() == ESCOBA | {"target_score": 15, "big_wins": True}
    # The preset itself is untouched.
    assert base.target_score == 21
    assert base.big_wins is False


def test_replace_with_nothing_is_equal() -> None:
    for rules in RULESETS.values():
        assert rules.replace() == rules


@pytest.mark.parametrize("name", PRESET_CHANGES)
@pytest.mark.parametrize("option", OPTION_VALUES)
def test_every_option_combines_with_every_preset(name: str, option: str) -> None:
    """RULES.md, Presets: every option can be combined with every preset; nonsense is refused."""
    base = RULESETS[name]
    for value in OPTION_VALUES[option]:
        options = base.to_dict() | {option: value}
        refused_for = nonsense(options)
        if refused_for is None:
            rules = base.replace(**{option: value})
            assert getattr(rules, option) == value
            assert rules.to_dict() == options
        else:
            with pytest.raises(RulesError, match=refused_for):
                base.replace(**{option: value})


def test_scopa_with_initial_table_sweeps_is_refused() -> None:
    """RULES.md, Presets: initial_table_sweeps with "match" makes no sense."""
    with pytest.raises(RulesError, match="initial_table_sweeps"):
        RULESETS["scopa"].replace(initial_table_sweeps=True)
    with pytest.raises(RulesError, match="initial_table_sweeps"):
        RULESETS["escoba"].replace(capture="match")
    with pytest.raises(RulesError, match="initial_table_sweeps"):
        RuleSet(capture="match")


def test_match_capture_without_initial_table_sweeps_is_fine() -> None:
    rules = RULESETS["escoba"].replace(capture="match", initial_table_sweeps=False)
    assert rules.capture == "match"
    assert not rules.initial_table_sweeps


def test_primiera_needs_all_suits_without_primiera_is_refused() -> None:
    """RULES.md, Sevens category: primiera_needs_all_suits belongs to the primiera mode."""
    for sevens in ("ranking", "sevens", "none"):
        with pytest.raises(RulesError, match="primiera_needs_all_suits"):
            RULESETS["escoba"].replace(sevens=sevens, primiera_needs_all_suits=True)
    with pytest.raises(RulesError, match="primiera_needs_all_suits"):
        RULESETS["escoba-primiera"].replace(sevens="ranking")
    rules = RULESETS["scopa"].replace(primiera_needs_all_suits=True)
    assert rules.primiera_needs_all_suits


def test_several_allowed_combinations() -> None:
    """RULES.md, Presets: options combine freely (examples across the option table)."""
    combos: list[tuple[str, dict[str, Any]]] = [
        ("escoba", {"big_wins": True, "target_score": 15}),
        ("escoba", {"win_by": 2}),
        ("escoba", {"forced_capture": False, "kings_redeal": True}),
        ("escoba-classic", {"big_wins": True, "all_sevens_bonus": 2}),
        ("escova", {"sevens": "ranking", "big_wins": True}),
        ("escova", {"all_coins_two": False, "sevens": "primiera"}),
        ("scopa", {"last_play_sweep_counts": True, "kings_redeal": False, "target_score": 21}),
        ("scopa", {"capture": "sum15", "initial_table_sweeps": True}),
        ("scopa", {"sevens": "ranking", "big_wins": True, "all_coins_two": True}),
        ("escoba-primiera", {"primiera_needs_all_suits": False, "sevens": "sevens"}),
    ]
    for name, changes in combos:
        rules = RULESETS[name].replace(**changes)
        for option, value in changes.items():
            assert getattr(rules, option) == value


# --- bad values -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("capture", "sum-15"),
        ("capture", "Sum15"),
        ("capture", "scopa"),
        ("capture", None),
        ("capture", 15),
        ("sevens", "setenta"),
        ("sevens", "Ranking"),
        ("sevens", None),
        ("sevens", True),
        ("forced_capture", 1),
        ("forced_capture", 0),
        ("forced_capture", "yes"),
        ("forced_capture", None),
        ("last_play_sweep_counts", "false"),
        ("initial_table_sweeps", 1),
        ("kings_redeal", 0),
        ("primiera_needs_all_suits", "true"),
        ("all_coins_two", 1),
        ("big_wins", "no"),
        ("all_sevens_bonus", -1),
        ("all_sevens_bonus", True),
        ("all_sevens_bonus", 1.0),
        ("all_sevens_bonus", "1"),
        ("all_sevens_bonus", None),
        ("all_sevens_bonus", 11),
        ("target_score", 0),
        ("target_score", -21),
        ("target_score", True),
        ("target_score", 21.0),
        ("target_score", "21"),
        ("target_score", 1001),
        ("target_score", 10**4000),
        ("win_by", 0),
        ("win_by", -1),
        ("win_by", False),
        ("win_by", 1.5),
        ("win_by", 101),
    ],
)
def test_bad_values_are_refused_naming_the_option(option: str, value: Any) -> None:
    """RULES.md, Rule set options: each option's allowed values; the error names the option."""
    for name in ("escoba", "scopa"):
        with pytest.raises(RulesError) as info:
            RULESETS[name].replace(**{option: value})
        assert option in str(info.value)
    with pytest.raises(RulesError, match=option):
        RuleSet(**{option: value})
    with pytest.raises(RulesError, match=option):
        RuleSet.from_dict(ESCOBA | {option: value})


def test_whole_number_options_have_these_bounds() -> None:
    """Every rule set makes a match that ends: the whole-number options are bounded above."""
    assert (MAX_TARGET_SCORE, MAX_WIN_BY, MAX_ALL_SEVENS_BONUS) == (1000, 100, 10)
    assert INT_OPTIONS == {
        "hand_cards": (1, 10),
        "table_cards": (0, 4),
        "all_sevens_bonus": (0, MAX_ALL_SEVENS_BONUS),
        "target_score": (1, MAX_TARGET_SCORE),
        "win_by": (1, MAX_WIN_BY),
    }
    assert {name for name in ESCOBA if type(ESCOBA[name]) is int} == set(INT_OPTIONS)


@pytest.mark.parametrize(("option", "bounds"), INT_OPTIONS.items())
def test_whole_number_options_take_their_bounds_and_nothing_past_them(
    option: str, bounds: tuple[int, int]
) -> None:
    lowest, highest = bounds
    # No table cards: the rules about the first four table cards must be off.
    base = RULESETS["scopa"].replace(kings_redeal=False)
    for value in (lowest, highest):
        assert getattr(base.replace(**{option: value}), option) == value
    for value in (lowest - 1, highest + 1):
        with pytest.raises(RulesError) as info:
            base.replace(**{option: value})
        assert str(info.value) == (
            f"{option}: must be a whole number from {lowest} to {highest}, got {value}"
        )


def test_every_preset_is_within_the_bounds() -> None:
    for rules in RULESETS.values():
        for option, (lowest, highest) in INT_OPTIONS.items():
            assert lowest <= getattr(rules, option) <= highest


def test_huge_values_make_short_messages() -> None:
    """A client's 4,000-digit target (a match that would never end) is refused, and the message
    does not repeat it; nor does it repeat a long string or a deep list."""
    with pytest.raises(RulesError) as info:
        RuleSet.from_dict({"target_score": 10**4000})
    assert str(info.value) == (
        "target_score: must be a whole number from 1 to 1000, got a number of about 4000 digits"
    )
    with pytest.raises(RulesError) as info:
        RuleSet(sevens="x" * 10_000)  # type: ignore[arg-type]
    assert len(str(info.value)) < 200
    with pytest.raises(RulesError) as info:
        RULESETS["escoba"].replace(**{"y" * 10_000: 1})
    assert len(str(info.value)) < 400
    deep: list[Any] = []
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(RulesError, match=r"win_by: .* got a list too big to show"):
        RuleSet(win_by=deep)  # type: ignore[arg-type]


def test_unknown_option_is_refused_naming_it() -> None:
    with pytest.raises(RulesError, match="'target'"):
        RULESETS["escoba"].replace(target=15)
    with pytest.raises(RulesError, match="'setenta'"):
        RuleSet.from_dict(ESCOBA | {"setenta": True})


def test_rules_errors_are_value_errors() -> None:
    with pytest.raises(ValueError, match="target_score"):
        RULESETS["escoba"].replace(target_score=0)
    with pytest.raises(EscobaError, match="target_score"):
        RULESETS["escoba"].replace(target_score=0)


# --- to_dict / from_dict ----------------------------------------------------------------------


@pytest.mark.parametrize("name", PRESET_CHANGES)
def test_dict_round_trip(name: str) -> None:
    rules = RULESETS[name]
    data = rules.to_dict()
    assert data == expected_options(name)
    assert RuleSet.from_dict(data) == rules
    # JSON-able, and still the same after a trip through JSON.
    assert RuleSet.from_dict(json.loads(json.dumps(data))) == rules


def test_dict_round_trip_of_a_custom_rule_set() -> None:
    rules = RULESETS["escova"].replace(big_wins=True, win_by=2, sevens="sevens", target_score=15)
    assert RuleSet.from_dict(rules.to_dict()) == rules


def test_from_dict_fills_missing_options_from_escoba() -> None:
    rules = RuleSet.from_dict({"target_score": 15})
    assert rules == RULESETS["escoba"].replace(target_score=15)
    assert RuleSet.from_dict({}) == RULESETS["escoba"]


@pytest.mark.parametrize("value", [None, [("target_score", 15)], "escoba", 21])
def test_from_dict_refuses_non_mappings(value: Any) -> None:
    with pytest.raises(RulesError):
        RuleSet.from_dict(value)


def test_to_dict_is_a_copy() -> None:
    rules = RULESETS["escoba"]
    data = rules.to_dict()
    data["target_score"] = 99
    assert rules.target_score == 21
    assert RULESETS["escoba"].to_dict()["target_score"] == 21
