"""The cheat sheet, the summaries and ``escoba rules`` for Scopone and the regional options
(issue 18): the deal as the rules make it, asso piglia tutto, re bello and napola."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from escoba import RULESETS, RuleSet
from escoba.catalogue import LANGUAGES
from escoba.cheatsheet import (
    cheat_sheet,
    cheat_sheet_lines,
    coin_run_name,
    option_meaning,
    preset_origin,
    summary,
)
from escoba.cli import app

SCIENTIFICO = RULESETS["scopone-scientifico"]
CLASSICO = RULESETS["scopone-classico"]
REGIONAL = RULESETS["scopa"].replace(ace_takes_all=True, re_bello=True, napola=True)

runner = CliRunner(env={"COLUMNS": "200", "NO_COLOR": "1"})


def section(rules: RuleSet, title: str, language: str = "en") -> list[str]:
    for part in cheat_sheet(rules, language):
        if part.title == title:
            return list(part.lines)
    raise AssertionError(title)


def test_scopone_scientifico_deals_the_whole_deck_to_four_partners() -> None:
    """The whole deck, 10 cards each, nothing on the table; two players get two deals of 10,
    three cannot share out 40 cards by 10."""
    assert section(SCIENTIFICO, "Dealing") == [
        "10 cards to each seat and none to the table, which starts empty; the seat after the "
        "dealer plays first.",
        "When the hands are empty, another 10 cards each from the stock (deals: 2 with 2 players).",
        "With 4 players the whole deck is dealt at once: no stock, no further deals.",
        "Not for 3 players: the cards do not share out evenly.",
        "Usually 4 players in two partnerships: seats 0 and 2 against 1 and 3.",
    ]
    italian = section(SCIENTIFICO, "Distribuzione", "it")
    assert italian[0].startswith("10 carte a ogni posto e nessuna in tavola")
    assert "Con 4 giocatori si dà tutto il mazzo in una volta" in italian[2]
    assert "a coppie" in italian[4]
    assert summary(SCIENTIFICO) == (
        "match by value (single card first), 10 cards each, table empty at first, primiera, "
        "last-card sweep void, to 21"
    )
    assert "10 carte a testa, tavolo vuoto all'inizio" in summary(SCIENTIFICO, "it")


def test_scopone_classico_deals_nine_each_and_four_to_the_table() -> None:
    dealing = section(CLASSICO, "Dealing")
    assert dealing[0].startswith("9 cards to each seat, 4 face up to the table")
    assert "With 4 players the whole deck is dealt at once" in dealing[2]
    assert dealing[-1].startswith("Kings redeal")
    assert "Winning: first to 11" in [part.title for part in cheat_sheet(CLASSICO)]
    assert summary(CLASSICO, "es").startswith("por valor (primero la carta sola), 9 cartas a")


def test_the_three_card_deal_keeps_its_counts() -> None:
    dealing = section(RULESETS["escoba"], "Dealing")
    assert dealing[:2] == [
        "3 cards to each seat, 4 face up to the table; the seat after the dealer plays first.",
        "When the hands are empty, another 3 cards each from the stock (deals: 6 with 2 "
        "players, 4 with 3 players, 3 with 4 players).",
    ]
    german = section(RULESETS["escoba"], "Geben", "de")[1]
    assert "(6-mal für 2 Spieler, 4-mal für 3 Spieler, 3-mal für 4 Spieler)" in german


def test_asso_piglia_tutto_in_taking_and_sweeps() -> None:
    """An ace takes the whole table, an ace there alone, nothing on an empty table; and
    taking the table so is no sweep."""
    taking = section(REGIONAL, "Taking cards")
    assert (
        "Asso piglia tutto: an A takes the whole table; but with an A there it takes that A "
        "alone, and on an empty table it is dropped."
    ) in taking
    assert "An A that takes the whole table by asso piglia tutto makes no sweep." in section(
        REGIONAL, "Sweeps"
    )
    german = "\n".join(cheat_sheet_lines(REGIONAL, "de", "spanish"))
    assert "Asso piglia tutto: ein as nimmt den ganzen Tisch" in german
    assert "keine Escoba" in german
    assert not any("piglia" in line for line in cheat_sheet_lines(RULESETS["scopa"]))
    assert "asso piglia tutto" in summary(REGIONAL)


def test_re_bello_and_napola_in_the_scoring() -> None:
    scoring = section(REGIONAL, "Scoring each hand")
    assert "Re bello, the king of coins (K♦): 1." in scoring
    assert (
        "Napola: the A, 2 and 3 of coins score 3, and 1 more for each coin that follows "
        "without a gap (4, 5, 6...): A-2-3-4 of coins score 4."
    ) in scoring
    french = "\n".join(cheat_sheet_lines(REGIONAL, "fr"))
    assert "Re bello, le roi de deniers (R♦)\u00a0: 1." in french
    assert "A-2-3-4 de deniers valent 4" in french
    italian = "\n".join(cheat_sheet_lines(REGIONAL, "it", "italian"))
    assert "Re bello (re di denari): 1." in italian and "asso-2-3-4 di denari" in italian
    assert summary(REGIONAL).endswith(
        "primiera, re bello, napola, kings redeal, last-card sweep void, to 11"
    )
    plain = "\n".join(cheat_sheet_lines(RULESETS["scopa"]))
    assert "Re bello" not in plain and "Napola" not in plain


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_sheet_with_every_option_fits_one_screen(language: str) -> None:
    rules = SCIENTIFICO.replace(ace_takes_all=True, re_bello=True, napola=True)
    lines = cheat_sheet_lines(rules, language, "italian")
    assert len(lines) <= 32
    assert all(len(line) <= 160 for line in lines)


def test_names_of_the_presets_options_and_runs() -> None:
    assert preset_origin("scopone-scientifico") == "Italian Scopone scientifico"
    assert preset_origin("scopone-classico", "it") == "Scopone classico"
    assert option_meaning("hand_cards").startswith("cards dealt to each seat at a time")
    assert option_meaning("table_cards", "es").startswith("cartas boca arriba en la mesa")
    assert (
        option_meaning("ace_takes_all", "it") == "asso piglia tutto: l'asso prende tutto il tavolo"
    )
    assert option_meaning("re_bello", "de") == "Re bello: der Karo-König zählt 1"
    assert option_meaning("napola").startswith("napola: A-2-3 of coins score 3")
    assert coin_run_name(10, "spanish", "es") == "as-2-3-4-5-6-7-sota-caballo-rey"


def test_rules_command_shows_the_scopone_deal_and_the_options() -> None:
    result = runner.invoke(app, ["rules", "scopone-classico", "--language", "it"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "hand_cards" in out and "table_cards" in out
    assert option_meaning("hand_cards", "it") in out
    assert "9 carte a ogni posto e 4 scoperte in tavola" in out
    result = runner.invoke(app, ["rules", "scopa", "--set", "napola=true", "--set", "re_bello=yes"])
    assert result.exit_code == 0, result.output
    assert "scopa with re_bello=true, napola=true" in result.stdout
    assert "Napola: the A, 2 and 3 of coins score 3" in result.stdout
    refused = runner.invoke(app, ["rules", "escoba", "--set", "ace_takes_all=true"])
    assert refused.exit_code == 2
    assert "ace_takes_all: only makes sense with capture='match'" in refused.stderr
