"""Every text in every language: the gettext catalogues, plural forms, the glossary's words, the
cheat sheet, ``escoba rules --language``."""

from __future__ import annotations

import fnmatch
import importlib.util
import io
import re
import string
import tomllib
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from typer.testing import CliRunner

from conftest import placeholders
from escoba import RULESETS
from escoba.catalogue import (
    LANGUAGE_NAMES,
    PLURAL_CATEGORIES,
    as_json,
    directory,
    is_plural,
    keys,
    own_texts,
    plural,
    translations,
)
from escoba.catalogue import text as catalogue_text
from escoba.cheatsheet import (
    category_label,
    cheat_sheet,
    cheat_sheet_lines,
    cheat_sheet_title,
    option_meaning,
    preset_origin,
    sevens_label,
    summary,
)
from escoba.cli import app
from escoba.errors import EscobaError
from escoba.messages import LANGUAGES, counted, deck_name, level_name, text
from escoba.rules import RuleSet
from escoba.scoring import CATEGORIES

runner = CliRunner(env={"COLUMNS": "200", "NO_COLOR": "1"})

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "src" / "escoba" / "locale"
DOMAINS = sorted(path.stem for path in (LOCALE / "en" / "LC_MESSAGES").glob("*.po"))
"""Every domain there is a catalogue of: ``escoba`` (the Python side), ``web`` (the pages)..."""


def variants(rules: RuleSet) -> list[RuleSet]:
    """The preset and a few changes that switch on the optional lines (the kings' redeal
    needs the first table cards; asso piglia tutto, capture by matching value)."""
    redeal = rules.table_cards > 0
    return [
        rules,
        rules.replace(big_wins=True, win_by=2, forced_capture=False),
        rules.replace(all_coins_two=True, all_sevens_bonus=2, last_play_sweep_counts=False),
        rules.replace(sevens="primiera", primiera_needs_all_suits=True, kings_redeal=redeal),
        rules.replace(sevens="none", primiera_needs_all_suits=False),
        rules.replace(sevens="sevens", primiera_needs_all_suits=False, all_sevens_bonus=1),
        rules.replace(re_bello=True, napola=True, ace_takes_all=rules.capture == "match"),
        rules.replace(hand_cards=1, table_cards=0, kings_redeal=False, initial_table_sweeps=False),
    ]


def forms(value: str | tuple[str, ...]) -> tuple[str, ...]:
    return value if isinstance(value, tuple) else (value,)


def every_message() -> Iterator[tuple[str, str]]:
    for domain in DOMAINS:
        for key in sorted(own_texts("en", domain)):
            yield domain, key


# -- the languages and the catalogues -------------------------------------------------------------


def test_the_languages() -> None:
    assert LANGUAGES == ("en", "de", "es", "it", "fr", "pt-BR")
    assert set(LANGUAGE_NAMES) == set(LANGUAGES)
    assert [directory(language) for language in LANGUAGES] == [
        "en",
        "de",
        "es",
        "it",
        "fr",
        "pt_BR",
    ]
    assert "escoba" in DOMAINS
    for domain in DOMAINS:
        for language in LANGUAGES:
            assert (LOCALE / directory(language) / "LC_MESSAGES" / f"{domain}.po").is_file()
            assert (LOCALE / directory(language) / "LC_MESSAGES" / f"{domain}.mo").is_file()


@pytest.mark.parametrize(("domain", "key"), list(every_message()))
def test_every_message_in_every_language_with_the_english_placeholders(
    domain: str, key: str
) -> None:
    english = own_texts("en", domain)[key]
    wanted = placeholders(forms(english)[0])
    if isinstance(english, tuple):
        assert len(english) == len(PLURAL_CATEGORIES), key
    for language in LANGUAGES:
        own = own_texts(language, domain).get(key)
        assert own is not None, (domain, key, language)
        assert isinstance(own, tuple) == isinstance(english, tuple), (key, language)
        assert len(forms(own)) == len(forms(english)), (key, language)
        for form in forms(own):
            assert form.strip(), (key, language)
            assert placeholders(form) == wanted, (key, language, form)
        if domain == "escoba":
            values = dict.fromkeys(wanted, 7)
            assert text(key, language, **values)
            assert "{" not in text(key, language, **(values | {"text": "x"})).replace("{}", "")


def test_no_language_falls_back_to_english_for_words() -> None:
    """Texts that are words (not just placeholders) differ from English somewhere."""
    same = []
    for key in keys():
        english = forms(own_texts("en")[key])
        if all(forms(own_texts(language)[key]) == english for language in LANGUAGES) and any(
            ch.isalpha() for ch in string.Formatter().vformat(english[0], (), _Blank())
        ):
            same.append(key)
    assert same == []


class _Blank(dict[str, object]):
    def __missing__(self, key: str) -> str:
        return ""


def test_every_catalogue_has_two_plural_forms() -> None:
    """PLURAL_CATEGORIES maps gettext's two forms to CLDR's "one" and "other": right for our
    languages, and only while every catalogue says two forms and picks them as expected."""
    assert PLURAL_CATEGORIES == ("one", "other")
    for domain in DOMAINS:
        for language in LANGUAGES:
            path = LOCALE / directory(language) / "LC_MESSAGES" / f"{domain}.po"
            with path.open("rb") as po:
                catalog = read_po(po)
            assert catalog.num_plurals == 2, (domain, language)
            form = translations(language, domain).plural  # the header's plural rule
            assert (form(1), form(2), form(1000000)) == (0, 1, 1), (domain, language)
            # French and Brazilian Portuguese say "0 carte", "0 carta": 0 takes form "one".
            assert form(0) == (0 if language in ("fr", "pt-BR") else 1), (domain, language)


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_mo_is_compiled_from_its_po(domain: str) -> None:
    """The committed .mo files are what the .po files compile to: a stale .mo fails.
    Fix: ``python scripts/translations.py compile`` (``scripts/web_texts.py compile`` for web)."""
    for language in LANGUAGES:
        folder = LOCALE / directory(language) / "LC_MESSAGES"
        with (folder / f"{domain}.po").open("rb") as po:
            catalog = read_po(po, locale=directory(language), domain=domain)
        compiled = io.BytesIO()
        write_mo(compiled, catalog)
        assert (folder / f"{domain}.mo").read_bytes() == compiled.getvalue(), (domain, language)


def test_the_catalogues_are_package_data() -> None:
    """pyproject.toml ships every catalogue file with the package: the runtime reads the .mo."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["escoba"]
    package = ROOT / "src" / "escoba"
    files = [path for path in LOCALE.rglob("*") if path.is_file()]
    assert any(path.suffix == ".mo" for path in files)
    for path in files:
        shown = path.relative_to(package).as_posix()
        assert any(fnmatch.fnmatch(shown, pattern) for pattern in patterns), shown


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "translations", ROOT / "scripts" / "translations.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _template_keys(path: Path) -> dict[str, bool]:
    """The keys of a template, each with whether it has plural forms."""
    with path.open("rb") as pot:
        catalog = read_po(pot)
    return {
        message.id[0] if message.pluralizable else message.id: message.pluralizable
        for message in catalog
        if message.id
    }


@pytest.mark.slow
def test_the_keys_in_the_sources_are_the_catalogues_keys(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``pybabel extract`` (scripts/translations.py) finds exactly the catalogue's keys, plural
    where the catalogue has plural forms: no key is missing a text, no text is left unused, and
    the committed template is up to date (``python scripts/translations.py all``)."""
    monkeypatch.chdir(ROOT)
    fresh = tmp_path / "escoba.pot"
    _script().extract(fresh)
    extracted = _template_keys(fresh)
    assert all(re.fullmatch(r"[a-z]+(\.[a-z0-9_-]+)+", key) for key in extracted), extracted
    catalogue = {key: is_plural(key) for key in keys()}
    assert extracted == catalogue
    assert _template_keys(LOCALE / "escoba.pot") == extracted


# -- text and plural ------------------------------------------------------------------------------


def test_plural_picks_the_form_by_the_count() -> None:
    assert plural("count.cards", 1) == "1 card"
    assert plural("count.cards", 2) == "2 cards"
    assert plural("count.cards", 0) == "0 cards"
    assert plural("count.sweeps", 1, "de") == "1 Escoba"
    assert plural("count.sweeps", 3, "de") == "3 Escobas"
    assert plural("count.cards", 1, "es") == "1 carta"
    assert plural("count.points", 2, "it") == "2 punti"
    assert plural("count.cards", 0, "fr") == "0 carte"  # French: 0 and 1 are singular
    assert plural("count.cards", 2, "fr") == "2 cartes"
    assert plural("count.sweeps", 1, "pt-BR") == "1 escova"
    assert plural("count.sweeps", 5, "pt-BR") == "5 escovas"
    assert text("coach.takes_cards", "en", count=1) == "Takes 1 card."
    assert counted("coach.takes_cards", 2).text() == "Takes 2 cards."
    assert catalogue_text("play.you", "fr") == "vous"


def test_the_count_is_a_placeholder_unless_given() -> None:
    assert plural("tui.cards_held", 1, "en", name="Seat 1") == "Seat 1: 1 card"
    assert plural("count.cards", 4, "en", count="four") == "four cards"


def test_numbers_the_way_each_language_writes_them() -> None:
    assert "1.5 points" in text("coach.close_to_best", "en", points=1.5)
    assert "1,5 puntos" in text("coach.close_to_best", "es", points=1.5)
    assert "1,5 punti" in text("coach.close_to_best", "it", points=1.5)
    assert "1,5 Punkte" in text("coach.close_to_best", "de", points=1.5)
    assert "1,5 point" in text("coach.close_to_best", "fr", points=1.5)
    assert "1,5 ponto" in text("coach.close_to_best", "pt-BR", points=1.5)


def test_as_json_gives_plural_forms_by_cldr_category() -> None:
    for domain in DOMAINS:
        english = as_json("en", domain)
        for language in LANGUAGES:
            texts = as_json(language, domain)
            assert texts.keys() == english.keys()
            for key, value in texts.items():
                if isinstance(english[key], dict):
                    assert isinstance(value, dict) and set(value) == {"one", "other"}, key
                else:
                    assert isinstance(value, str) and value, key
    assert as_json("fr", "escoba")["count.cards"] == {
        "one": "{count} carte",
        "other": "{count} cartes",
    }
    assert as_json("de", "escoba")["coach.best"] == "Der beste Zug hier."


def test_unknown_languages_keys_and_domains_are_refused() -> None:
    for language in ("xx", "EN", "", "english", "pt_BR", "pt-br", "pt"):
        with pytest.raises(EscobaError, match=f"unknown language {language!r}"):
            catalogue_text("coach.best", language)
        with pytest.raises(EscobaError, match="en, de, es, it, fr, pt-BR"):
            translations(language)
        with pytest.raises(EscobaError, match="unknown language"):
            as_json(language, "escoba")
        with pytest.raises(EscobaError, match="unknown language"):
            text("coach.best", language)
    with pytest.raises(EscobaError, match=r"unknown message key 'coach\.nope'"):
        catalogue_text("coach.nope")
    with pytest.raises(EscobaError, match="use plural"):
        catalogue_text("count.cards")
    with pytest.raises(EscobaError, match="use text"):
        plural("coach.best", 2)
    with pytest.raises(EscobaError, match="whole number"):
        plural("count.cards", 1.5)  # type: ignore[arg-type]
    with pytest.raises(EscobaError, match="give its count"):
        text("count.cards", "en")
    with pytest.raises(EscobaError, match="needs a value for 'seat'"):
        catalogue_text("play.seat", "de")
    with pytest.raises(EscobaError, match="no 'nope' catalogue"):
        as_json("en", "nope")
    for domain in ("../en", "Escoba", "", "a/b"):
        with pytest.raises(EscobaError, match="lower-case name"):
            translations("en", domain)


def test_the_terminal_and_the_score_pad_show_english_for_an_unknown_language() -> None:
    """Documented: the terminal UI's t() and the pad's say() fall back to English."""
    from escoba.scorepad import say
    from escoba.tui.texts import t, tn

    assert t("tui.stock", "xx", n=3) == "Stock: 3"
    assert tn("tui.cards_held", 2, "xx", name="A") == "A: 2 cards"
    assert say("side", "xx", index=1) == say("pad.side", "en", index=1) == "side 1"


# -- one name for each idea (docs/glossary.md) ----------------------------------------------------


def test_the_game_terms_of_each_language() -> None:
    assert text("play.pad.seven_of_coins", "it") == "settebello"
    assert text("play.pad.coins", "es") == "oros"
    assert "settebello" in text("coach.takes_seven_of_coins", "it")
    assert "siete de oros" in text("coach.takes_seven_of_coins", "es")
    assert "Karo-7" in text("coach.takes_seven_of_coins", "de")
    assert "escoba" in text("coach.sweeps", "es").lower()
    assert "scopa" in text("coach.sweeps", "it").lower()
    assert "Escoba" in text("coach.sweeps", "de")
    assert "sept de deniers" in text("coach.takes_seven_of_coins", "fr")
    assert "escoba" in text("coach.sweeps", "fr")
    assert "sete belo" in text("coach.takes_seven_of_coins", "pt-BR")
    assert "escova" in text("coach.sweeps", "pt-BR").lower()
    assert text("play.pad.coins", "pt-BR") == "ouros"
    assert [level_name(level, "fr") for level in ("beginner", "medium", "hard")] == [
        "débutant",
        "moyen",
        "difficile",
    ]
    # The former levels merged into hard (docs/ai.md, "The ladder") are named as hard.
    assert level_name("master", "fr") == level_name("expert", "fr") == "difficile"
    assert deck_name("italian", "de") == "italienisch"
    assert level_name("a level of its own") == "a level of its own"


AVOIDED = {
    "de": ["Abräumer", "Abräumen", "Spielzettel", "Stichzwang", "gestochen", "sticht"],
    "es": ["coger", "coge", "asiento"],
    "it": ["mossa", "mosse"],
    "fr": ["scopa !", "balayage", "carreau", "tu "],
    "pt-BR": ["varrida", "naipe de ouro ", "mão {", "tu "],
}
"""Words the glossary chose against (another word names the idea), per language."""


@pytest.mark.parametrize("language", list(AVOIDED))
def test_one_name_for_each_idea(language: str) -> None:
    for domain in DOMAINS:
        # The French deck's suits are named as that deck names them ("sept de carreau"):
        # a screen reader says the card shown, not the game's word for the suit.
        values = [
            v for k, v in own_texts(language, domain).items() if not k.startswith("game.suit_")
        ]
        texts = " ".join(form for value in values for form in forms(value))
        for word in AVOIDED[language]:
            assert word not in texts, (language, domain, word)


def test_french_typography() -> None:
    """A no-break space before : ; ! ? in French, never a plain one."""
    for domain in DOMAINS:
        for value in own_texts("fr", domain).values():
            for form in forms(value):
                assert not re.search(r" [:;!?]", form), form


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
    # The card values follow the deck shown: Italian cards, Spanish cards.
    scopa = "\n".join(cheat_sheet_lines(RULESETS["scopa"], "it", "italian"))
    assert "Settebello: 1." in scopa
    assert "Più denari: 1." in scopa
    assert "fante=8, cavallo=9, re=10" in scopa
    assert "Primiera: 1." in scopa
    escoba = "\n".join(cheat_sheet_lines(RULESETS["escoba"], "es", "spanish"))
    assert "Siete de oros: 1." in escoba
    assert "Más oros: 1." in escoba
    assert "Setenta: 1." in escoba
    assert "sota=8, caballo=9, rey=10" in escoba
    german = "\n".join(cheat_sheet_lines(RULESETS["escoba"], "de"))
    assert "Karo-7: 1." in german and "Escoba" in german and "Setenta" in german
    assert cheat_sheet_title("escoba", "de") == "Spickzettel: escoba"
    assert summary(RULESETS["escoba"], "es") == "sumar 15, setenta, a 21"
    assert summary(RULESETS["escoba"], "it") == "somma 15, setenta, a 21"


def test_cheat_sheet_in_french_and_brazilian_portuguese() -> None:
    escova = "\n".join(cheat_sheet_lines(RULESETS["escova"], "pt-BR"))
    assert "Sete belo: 1." in escova and "Mais ouros: 1 (2 com os 10 ouros)." in escova
    assert "escova" in escova and "carteador" in escova
    assert cheat_sheet_title("escova", "pt-BR") == "Resumo das regras: escova"
    assert summary(RULESETS["escova"], "pt-BR") == (
        "somar 15, sem categoria dos setes, todos os ouros valem 2, até 31"
    )
    scopa = "\n".join(cheat_sheet_lines(RULESETS["scopa"], "fr"))
    # French cards read in French: the valet, dame and roi are V, D and R on screen.
    assert "Sept de deniers\u00a0: 1." in scopa and "V=8, D=9, R=10" in scopa
    assert cheat_sheet_title("scopa", "fr") == "Aide-mémoire\u00a0: scopa"


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
    assert category_label("seven_of_coins", rules, "pt-BR") == "sete belo"
    for language in LANGUAGES:
        labels = {category_label(category, rules, language) for category in CATEGORIES}
        assert len(labels) == len(CATEGORIES)


def test_presets_and_options_in_every_language() -> None:
    assert preset_origin("scopa") == "Italian Scopa"
    assert preset_origin("escova", "pt-BR") == "Escova brasileira"
    assert option_meaning("forced_capture", "fr") == "une carte qui peut prendre doit prendre"
    with pytest.raises(KeyError):
        preset_origin("nope")
    with pytest.raises(EscobaError, match="unknown language 'xx'"):
        option_meaning("win_by", "xx")


@pytest.mark.parametrize("language", ["xx", "EN", "", "english", "pt_BR"])
def test_unknown_language_is_refused(language: str) -> None:
    rules = RULESETS["escoba"]
    calls = (
        lambda: cheat_sheet(rules, language),
        lambda: cheat_sheet_lines(rules, language),
        lambda: summary(rules, language),
        lambda: sevens_label(rules, language),
        lambda: category_label("coins", rules, language),
        lambda: cheat_sheet_title("escoba", language),
        lambda: preset_origin("escoba", language),
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
    [
        ("de", "Spickzettel: escoba"),
        ("es", "Chuleta: escoba"),
        ("EN", "Cheat sheet: escoba"),
        ("fr", "Aide-mémoire\u00a0: escoba"),
        ("pt-BR", "Resumo das regras: escoba"),
        ("pt-br", "Resumo das regras: escoba"),
    ],
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
    result = runner.invoke(app, ["rules", "scopa", "--language", "xx"])
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: ")
    assert "'xx'" in lines[0] and "en, de, es, it, fr, pt-BR" in lines[0]
