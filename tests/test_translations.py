"""Every text in every language: the message keys, the cheat sheet, ``escoba rules --language``."""

from __future__ import annotations

import string

import pytest
from typer.testing import CliRunner

from conftest import placeholders
from escoba import RULESETS
from escoba.cheatsheet import (
    category_label,
    cheat_sheet,
    cheat_sheet_lines,
    cheat_sheet_title,
    sevens_label,
    summary,
)
from escoba.cli import app
from escoba.errors import EscobaError
from escoba.messages import LANGUAGES, MESSAGES, text
from escoba.rules import RuleSet
from escoba.scoring import CATEGORIES

runner = CliRunner(env={"COLUMNS": "200", "NO_COLOR": "1"})


def variants(rules: RuleSet) -> list[RuleSet]:
    """The preset and a few changes that switch on the optional lines."""
    return [
        rules,
        rules.replace(big_wins=True, win_by=2, forced_capture=False),
        rules.replace(all_coins_two=True, all_sevens_bonus=2, last_play_sweep_counts=False),
        rules.replace(sevens="primiera", primiera_needs_all_suits=True, kings_redeal=True),
        rules.replace(sevens="none", primiera_needs_all_suits=False),
        rules.replace(sevens="sevens", primiera_needs_all_suits=False, all_sevens_bonus=1),
    ]


# -- messages -------------------------------------------------------------------------------------


def test_the_languages() -> None:
    assert LANGUAGES == ("en", "de", "es", "it")


@pytest.mark.parametrize("key", list(MESSAGES))
def test_every_key_has_every_language_with_the_english_placeholders(key: str) -> None:
    texts = MESSAGES[key]
    assert set(texts) == set(LANGUAGES), key
    english = placeholders(texts["en"])
    for language in LANGUAGES:
        assert texts[language].strip(), (key, language)
        assert placeholders(texts[language]) == english, (key, language)
        assert text(key, language, **dict.fromkeys(english, 7))


def test_no_language_falls_back_to_english_for_words() -> None:
    """Texts that are words (not just placeholders) differ from English somewhere."""
    same = [
        key
        for key, texts in MESSAGES.items()
        if all(texts[language] == texts["en"] for language in LANGUAGES)
        and any(ch.isalpha() for ch in string.Formatter().vformat(texts["en"], (), _Blank()))
    ]
    assert same == []


class _Blank(dict[str, object]):
    def __missing__(self, key: str) -> str:
        return ""


def test_the_game_terms_of_each_language() -> None:
    assert text("play.pad.seven_of_coins", "it") == "settebello"
    assert text("play.pad.coins", "es") == "oros"
    assert "settebello" in text("coach.takes_seven_of_coins", "it")
    assert "siete de oros" in text("coach.takes_seven_of_coins", "es")
    assert "Karo-7" in text("coach.takes_seven_of_coins", "de")
    assert "escoba" in text("coach.sweeps", "es").lower()
    assert "scopa" in text("coach.sweeps", "it").lower()


def test_decimal_comma_in_spanish_and_italian() -> None:
    assert "1.5 points" in text("coach.close_to_best", "en", points=1.5)
    assert "1,5 puntos" in text("coach.close_to_best", "es", points=1.5)
    assert "1,5 punti" in text("coach.close_to_best", "it", points=1.5)


# -- the cheat sheet ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(RULESETS))
def test_cheat_sheet_has_the_same_shape_in_every_language(name: str) -> None:
    for rules in variants(RULESETS[name]):
        english = cheat_sheet(rules)
        for language in LANGUAGES:
            sections = cheat_sheet(rules, language)
            assert [len(s.lines) for s in sections] == [len(s.lines) for s in english]
            lines = cheat_sheet_lines(rules, language)
            assert len(lines) == len(cheat_sheet_lines(rules))
            assert all(len(line) <= 160 and "\n" not in line for line in lines), language
            assert "{" not in "".join(lines) and "}" not in "".join(lines)
            assert cheat_sheet_lines(rules, language) == lines  # pure
            one_line = summary(rules, language)
            assert "\n" not in one_line
            assert str(rules.target_score) in one_line
            if language != "en":
                assert lines != cheat_sheet_lines(rules), language
                assert one_line != summary(rules), language


@pytest.mark.parametrize("language", LANGUAGES)
def test_cheat_sheet_carries_the_rule_numbers(language: str) -> None:
    scopa = "\n".join(cheat_sheet_lines(RULESETS["scopa"], language))
    assert "11" in cheat_sheet(RULESETS["scopa"], language)[-1].title
    for value in ("21", "18", "16", "15", "14", "13", "12", "10"):
        assert f"={value}" in scopa, (language, value)
    escova = cheat_sheet_lines(RULESETS["escova"], language)
    assert any("31" in line for line in escova)
    escoba = "\n".join(cheat_sheet_lines(RULESETS["escoba"], language))
    assert "7 > 6 >" in escoba and "15" in escoba
    longer = RULESETS["escoba"].replace(target_score=15, win_by=2)
    win = cheat_sheet(longer, language)[-1]
    assert "15" in win.title and "15" in win.lines[0] and "2" in win.lines[0]
    assert "15" in summary(longer, language) and "2" in summary(longer, language)
    bonus = "\n".join(cheat_sheet_lines(RULESETS["escoba"].replace(all_sevens_bonus=2), language))
    assert "2 " in bonus
    assert cheat_sheet_title("scopa", language).endswith(": scopa")


def test_cheat_sheet_in_italian_spanish_and_german() -> None:
    scopa = "\n".join(cheat_sheet_lines(RULESETS["scopa"], "it"))
    assert "Settebello: 1." in scopa
    assert "Più denari: 1." in scopa
    assert "fante=8, cavallo=9, re=10" in scopa
    assert "Primiera: 1." in scopa
    escoba = "\n".join(cheat_sheet_lines(RULESETS["escoba"], "es"))
    assert "Siete de oros: 1." in escoba
    assert "Más oros: 1." in escoba
    assert "Setenta: 1." in escoba
    assert "sota=8, caballo=9, rey=10" in escoba
    german = "\n".join(cheat_sheet_lines(RULESETS["escoba"], "de"))
    assert "Karo-7: 1." in german and "Escoba" in german and "Setenta" in german
    assert cheat_sheet_title("escoba", "de") == "Spickzettel: escoba"
    assert summary(RULESETS["escoba"], "es") == "sumar 15, setenta, a 21"
    assert summary(RULESETS["escoba"], "it") == "somma 15, setenta, a 21"


def test_english_stays_the_default() -> None:
    rules = RULESETS["scopa"]
    assert cheat_sheet_lines(rules) == cheat_sheet_lines(rules, language="en")
    assert summary(rules) == summary(rules, "en")
    assert cheat_sheet_lines(rules)[0] == "Taking cards"


def test_labels_in_every_language() -> None:
    rules = RULESETS["scopa"]
    assert sevens_label(rules, "it") == "primiera"
    assert category_label("seven_of_coins", rules, "it") == "settebello"
    assert category_label("coins", rules, "es") == "más oros"
    assert category_label("sevens", rules, "de") == "Siebener-Wertung (Primiera)"
    for language in LANGUAGES:
        labels = {category_label(category, rules, language) for category in CATEGORIES}
        assert len(labels) == len(CATEGORIES)


@pytest.mark.parametrize("language", ["fr", "EN", "", "english"])
def test_unknown_language_is_refused(language: str) -> None:
    rules = RULESETS["escoba"]
    calls = (
        lambda: cheat_sheet(rules, language),
        lambda: cheat_sheet_lines(rules, language),
        lambda: summary(rules, language),
        lambda: sevens_label(rules, language),
        lambda: category_label("coins", rules, language),
        lambda: cheat_sheet_title("escoba", language),
    )
    for call in calls:
        with pytest.raises(EscobaError, match=f"unknown language {language!r}"):
            call()


# -- escoba rules --language ----------------------------------------------------------------------


def test_rules_scopa_in_italian() -> None:
    result = runner.invoke(app, ["rules", "scopa", "--language", "it"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Promemoria: scopa" in out
    assert "Prendere le carte" in out
    assert "Settebello: 1." in out
    assert "Vittoria: il primo a 11" in out
    assert "Taking cards" not in out
    assert "target_score" in out  # the options table keeps the option names


@pytest.mark.parametrize(
    ("language", "words"),
    [("de", "Spickzettel: escoba"), ("es", "Chuleta: escoba"), ("EN", "Cheat sheet: escoba")],
)
def test_rules_in_other_languages(language: str, words: str) -> None:
    result = runner.invoke(app, ["rules", "escoba", "--language", language])
    assert result.exit_code == 0, result.output
    assert words in result.stdout


def test_rules_list_in_spanish() -> None:
    result = runner.invoke(app, ["rules", "--language", "es"])
    assert result.exit_code == 0, result.output
    assert "sumar 15, setenta, a 21" in result.stdout


def test_rules_refuses_an_unknown_language() -> None:
    result = runner.invoke(app, ["rules", "scopa", "--language", "fr"])
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: ")
    assert "'fr'" in lines[0] and "en, de, es, it" in lines[0]
