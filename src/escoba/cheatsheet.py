"""Rule sets in words: a one-screen cheat sheet, one-line summaries, option meanings.

Pure functions from a :class:`RuleSet` to text (no I/O, no markup), so the command line, the
terminal game and the web client can all show the same words. Everything here comes in every
language of :data:`escoba.catalogue.LANGUAGES` (keyword ``language``, English by default);
the texts are the ``cheat.*``, ``preset.*`` and ``option.*`` messages of the catalogue.

>>> from escoba import RULESETS
>>> summary(RULESETS["scopa"])
'match by value (single card first), primiera, kings redeal, last-card sweep void, to 11'
>>> any("Single-card priority" in line for line in cheat_sheet_lines(RULESETS["scopa"]))
True
>>> cheat_sheet_lines(RULESETS["scopa"], language="it")[0]
'Prendere le carte'
>>> preset_origin("escova", "pt-BR"), option_meaning("win_by", "de")
('Escova brasileira', 'nötiger Vorsprung, sobald das Ziel erreicht ist')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from .cards import DECK_STYLES, Card, DeckStyle, card_name
from .catalogue import LANGUAGES, message_key, plural, text
from .errors import EscobaError, RulesError
from .rules import RuleSet
from .scoring import CATEGORIES

__all__ = [
    "CATEGORY_LABELS",
    "OPTION_MEANINGS",
    "PRESET_ORIGINS",
    "Section",
    "category_label",
    "cheat_sheet",
    "cheat_sheet_lines",
    "cheat_sheet_title",
    "coin_run_name",
    "format_value",
    "option_meaning",
    "preset_origin",
    "sevens_label",
    "summary",
]

_PRESET_KEYS: Final[Mapping[str, str]] = {
    "escoba": message_key("preset.escoba"),
    "escoba-fournier": message_key("preset.escoba-fournier"),
    "escoba-primiera": message_key("preset.escoba-primiera"),
    "escoba-classic": message_key("preset.escoba-classic"),
    "scopa": message_key("preset.scopa"),
    "escova": message_key("preset.escova"),
    "scopone-scientifico": message_key("preset.scopone-scientifico"),
    "scopone-classico": message_key("preset.scopone-classico"),
}

_OPTION_KEYS: Final[Mapping[str, str]] = {
    "capture": message_key("option.capture"),
    "hand_cards": message_key("option.hand_cards"),
    "table_cards": message_key("option.table_cards"),
    "forced_capture": message_key("option.forced_capture"),
    "last_play_sweep_counts": message_key("option.last_play_sweep_counts"),
    "initial_table_sweeps": message_key("option.initial_table_sweeps"),
    "kings_redeal": message_key("option.kings_redeal"),
    "sevens": message_key("option.sevens"),
    "primiera_needs_all_suits": message_key("option.primiera_needs_all_suits"),
    "all_coins_two": message_key("option.all_coins_two"),
    "all_sevens_bonus": message_key("option.all_sevens_bonus"),
    "big_wins": message_key("option.big_wins"),
    "ace_takes_all": message_key("option.ace_takes_all"),
    "re_bello": message_key("option.re_bello"),
    "napola": message_key("option.napola"),
    "target_score": message_key("option.target_score"),
    "win_by": message_key("option.win_by"),
}

_CATEGORY_KEYS: Final[Mapping[str, str]] = {
    "cards": message_key("cheat.category.cards"),
    "coins": message_key("cheat.category.coins"),
    "seven_of_coins": message_key("cheat.category.seven_of_coins"),
    "sevens": message_key("cheat.category.sevens"),
    "all_sevens": message_key("cheat.category.all_sevens"),
    "re_bello": message_key("cheat.category.re_bello"),
    "napola": message_key("cheat.category.napola"),
    "sweeps": message_key("cheat.category.sweeps"),
}

_SEVENS_KEYS: Final[Mapping[str, str]] = {
    "ranking": message_key("cheat.sevens.ranking"),
    "sevens": message_key("cheat.sevens.sevens"),
    "primiera": message_key("cheat.sevens.primiera"),
    "none": message_key("cheat.sevens.none"),
}

PRESET_ORIGINS: Final[Mapping[str, str]] = {name: text(key) for name, key in _PRESET_KEYS.items()}
"""What each preset is, in a few English words; :func:`preset_origin` in other languages."""

OPTION_MEANINGS: Final[Mapping[str, str]] = {name: text(key) for name, key in _OPTION_KEYS.items()}
"""One English line per rule option, by option name; :func:`option_meaning` in other
languages. The option names and values stay as the command line writes them."""

CATEGORY_LABELS: Final[Mapping[str, str]] = {
    category: text(_CATEGORY_KEYS[category]) for category in CATEGORIES
}
"""A short English label for each scoring category (see ``CATEGORIES``);
:func:`category_label` gives them in other languages."""


def preset_origin(name: str, language: str = "en") -> str:
    """What a preset is, in a few words ("Italian Scopa")."""
    _checked(language)
    if name not in _PRESET_KEYS:
        raise KeyError(name)
    return text(_PRESET_KEYS[name], language)


def option_meaning(name: str, language: str = "en") -> str:
    """What a rule option means, in one line."""
    _checked(language)
    if name not in _OPTION_KEYS:
        raise KeyError(name)
    return text(_OPTION_KEYS[name], language)


@dataclass(frozen=True, slots=True)
class Section:
    """A titled group of cheat-sheet lines."""

    title: str
    lines: tuple[str, ...]


def _checked(language: str) -> None:
    """Refuse a language the messages do not know, with the error :func:`text` raises.

    Only :func:`category_label` needs it: it may raise ``KeyError`` before calling
    :func:`text`, and an unknown language is named first.
    """
    if language not in LANGUAGES:
        raise EscobaError(f"unknown language {language!r}; choose one of {', '.join(LANGUAGES)}")


def format_value(value: object) -> str:
    """An option value as the command line writes it: ``true``/``false``, numbers, words."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def sevens_label(rules: RuleSet, language: str = "en") -> str:
    """The name of the rule set's sevens category: setenta, most sevens, primiera..."""
    return text(_SEVENS_KEYS[rules.sevens], language)


def category_label(category: str, rules: RuleSet, language: str = "en") -> str:
    """A category's label, naming the sevens category of these rules."""
    _checked(language)
    if category == "sevens" and rules.sevens != "none":
        return text("cheat.category.sevens_named", language, label=sevens_label(rules, language))
    if category not in CATEGORY_LABELS:
        raise KeyError(category)
    return text(_CATEGORY_KEYS[category], language)


def _all_sevens_bonus(rules: RuleSet) -> int:
    # big_wins and all_sevens_bonus name the same extra point; together the larger counts.
    return max(rules.all_sevens_bonus, 1 if rules.big_wins else 0)


def summary(rules: RuleSet, language: str = "en") -> str:
    """The rule set in one short line.

    >>> from escoba import RULESETS
    >>> summary(RULESETS["escova"])
    'sum to 15, no sevens category, all coins score 2, to 31'
    >>> summary(RULESETS["escova"], language="es")
    'sumar 15, sin categoría de sietes, todos los oros valen 2, a 31'
    """
    lang = language
    if rules.capture == "sum15":
        parts = [text("cheat.summary.sum15", lang)]
    else:
        parts = [text("cheat.summary.match", lang)]
    if rules.hand_cards != 3:
        cards = plural("count.cards", rules.hand_cards, lang)
        parts.append(text("cheat.summary.hand_cards", lang, cards=cards))
    if not rules.table_cards:
        parts.append(text("cheat.summary.empty_table", lang))
    if not rules.forced_capture:
        parts.append(text("cheat.summary.capture_optional", lang))
    if rules.ace_takes_all:
        parts.append(text("cheat.summary.ace_takes_all", lang))
    label = sevens_label(rules, lang)
    if rules.primiera_needs_all_suits:
        label = text("cheat.summary.needs_all_suits", lang, label=label)
    parts.append(label)
    if rules.all_coins_two and not rules.big_wins:
        parts.append(text("cheat.summary.all_coins_two", lang))
    bonus = _all_sevens_bonus(rules)
    if rules.big_wins:
        parts.append(text("cheat.summary.big_wins", lang))
    elif bonus:
        parts.append(text("cheat.summary.all_sevens", lang, bonus=bonus))
    if rules.re_bello:
        parts.append(text("cheat.summary.re_bello", lang))
    if rules.napola:
        parts.append(text("cheat.summary.napola", lang))
    if rules.kings_redeal:
        parts.append(text("cheat.summary.kings_redeal", lang))
    if not rules.last_play_sweep_counts:
        parts.append(text("cheat.summary.last_sweep_void", lang))
    if rules.capture == "sum15" and not rules.initial_table_sweeps:
        parts.append(text("cheat.summary.no_initial_sweeps", lang))
    target = rules.target_score
    if rules.win_by > 1:
        parts.append(text("cheat.summary.target_by", lang, target=target, win_by=rules.win_by))
    else:
        parts.append(text("cheat.summary.target", lang, target=target))
    return ", ".join(parts)


def _checked_deck(deck: str) -> DeckStyle:
    for style in DECK_STYLES:
        if deck == style:
            return style
    raise EscobaError(f"unknown deck style {deck!r}; choose one of {', '.join(DECK_STYLES)}")


def _rank_name(rank: str, deck: DeckStyle, language: str) -> str:
    """A rank as the deck names it: "J" (or "B", "V") on French cards, "sota", "fante"..."""
    name = card_name(Card.parse(rank + "d"), deck, language)
    # French cards: the rank before the suit symbol; Spanish and Italian: "sota de oros".
    return name[:-1] if deck == "french" else name.split(" ")[0]


def coin_run_name(run: int, deck: DeckStyle = "french", language: str = "en") -> str:
    """A run of coins from the ace (napola), by its ranks as the deck names them.

    >>> coin_run_name(4), coin_run_name(9, "french", "de"), coin_run_name(3, "italian")
    ('A-2-3-4', 'A-2-3-4-5-6-7-B-D', 'asso-2-3')
    """
    _checked(language)
    style = _checked_deck(deck)
    ranks = "A234567JQK"[:run]
    return "-".join(_rank_name(rank, style, language) for rank in ranks)


def _ranks(deck: DeckStyle, language: str) -> dict[str, str]:
    """The ace and the face cards by their placeholder names in the cheat sheet's texts."""
    ranks = {"ace": "A", "jack": "J", "queen": "Q", "king": "K"}
    return {name: _rank_name(rank, deck, language) for name, rank in ranks.items()}


# A deck's suit names are words of its own language: no need to explain them to its readers.
_OWN_LANGUAGE: Final[Mapping[str, str]] = {"spanish": "es", "italian": "it"}


def _suits(deck: DeckStyle, language: str) -> tuple[str, ...]:
    """Which suit is coins (and the others) on these cards, unless the deck says so itself."""
    if _OWN_LANGUAGE.get(deck) == language:
        return ()
    if deck == "french":
        names = [card_name(Card.parse("A" + suit), deck, language)[-1] for suit in "dhsc"]
    else:
        names = [
            card_name(Card.parse("A" + suit), deck, language).split(" ")[-1] for suit in "dhsc"
        ]
    coins, cups, swords, clubs = names
    seven = card_name(Card.parse("7d"), deck, language)
    return (
        text(
            "cheat.suits",
            language,
            coins=coins,
            cups=cups,
            swords=swords,
            clubs=clubs,
            seven=seven,
        ),
    )


def _example(rules: RuleSet, deck: DeckStyle, language: str) -> str:
    """A capture on these cards: a face card, so that its value is seen at work."""
    if rules.capture == "sum15":
        card, first, second = (Card.parse(c) for c in ("Qc", "4h", "2s"))
        key = message_key("cheat.example_sum15")
    else:
        card, first, second = (Card.parse(c) for c in ("Kc", "6h", "4s"))
        key = message_key("cheat.example_match")
    return text(
        key,
        language,
        card=card_name(card, deck, language),
        value=card.value,
        first=card_name(first, deck, language),
        first_value=first.value,
        second=card_name(second, deck, language),
        second_value=second.value,
    )


def _taking(rules: RuleSet, language: str, deck: DeckStyle) -> tuple[str, ...]:
    lines = [text("cheat.values", language, **_ranks(deck, language))]
    lines += _suits(deck, language)
    if rules.capture == "sum15":
        lines.append(text("cheat.take_sum15", language))
        lines.append(_example(rules, deck, language))
    else:
        lines.append(text("cheat.take_match", language))
        lines.append(_example(rules, deck, language))
        lines.append(text("cheat.single_card_priority", language))
    if rules.ace_takes_all:
        lines.append(text("cheat.ace_takes_all", language, ace=_rank_name("A", deck, language)))
    if rules.forced_capture:
        lines.append(text("cheat.forced_capture", language))
    else:
        lines.append(text("cheat.capture_optional", language))
    lines.append(text("cheat.drop", language))
    return tuple(lines)


def _sweeps(rules: RuleSet, language: str, deck: DeckStyle) -> tuple[str, ...]:
    if rules.capture == "sum15":
        lines = [text("cheat.sweep_sum15", language)]
    else:
        lines = [text("cheat.sweep_match", language)]
    if rules.ace_takes_all:
        lines.append(text("cheat.ace_no_sweep", language, ace=_rank_name("A", deck, language)))
    if rules.last_play_sweep_counts:
        lines.append(text("cheat.last_sweep_counts", language))
    else:
        lines.append(text("cheat.last_sweep_void", language))
    lines.append(text("cheat.leftovers", language))
    return tuple(lines)


def _deals(rules: RuleSet) -> dict[int, int | None]:
    """Deals in a hand by number of players (2, 3, 4); None where the deck does not share out."""
    deals: dict[int, int | None] = {}
    for players in (2, 3, 4):
        try:
            deals[players] = rules.deals_per_hand(players)
        except RulesError:
            deals[players] = None
    return deals


def _dealing(rules: RuleSet, language: str) -> tuple[str, ...]:
    lang = language
    cards = plural("count.cards", rules.hand_cards, lang)
    if rules.table_cards:
        lines = [text("cheat.deal", lang, cards=cards)]
    else:
        lines = [text("cheat.deal_empty_table", lang, cards=cards)]
    deals = _deals(rules)
    shared = {players: count for players, count in deals.items() if count is not None}
    at_once = [plural("count.players", n, lang) for n, count in shared.items() if count == 1]
    if len(at_once) == len(shared):
        lines.append(text("cheat.no_stock", lang))
    else:
        counts = [
            text("cheat.deals_with", lang, deals=count, players=plural("count.players", n, lang))
            for n, count in shared.items()
            if count > 1
        ]
        lines.append(text("cheat.deal_more", lang, cards=cards, deals=", ".join(counts)))
        if at_once:
            lines.append(text("cheat.no_stock_with", lang, players=", ".join(at_once)))
    refused = [plural("count.players", players, lang) for players, n in deals.items() if not n]
    if refused:
        lines.append(text("cheat.not_shared", lang, players=", ".join(refused)))
    if deals[4] == 1:
        # Scopone: the whole deck to four players, who play it in two partnerships.
        lines.append(text("cheat.usual_partnerships", lang, players=4))
    if rules.initial_table_sweeps:
        lines.append(text("cheat.initial_sweeps", language))
    elif rules.capture == "sum15":
        lines.append(text("cheat.no_initial_sweeps", language))
    if rules.kings_redeal:
        lines.append(text("cheat.kings_redeal", language))
    return tuple(lines)


def _scoring(rules: RuleSet, language: str, deck: DeckStyle) -> tuple[str, ...]:
    lang = language
    ace = _rank_name("A", deck, language)
    if rules.big_wins:
        lines = [text("cheat.most_cards_big", lang)]
    else:
        lines = [text("cheat.most_cards", lang)]
    if rules.all_coins_two or rules.big_wins:
        lines.append(text("cheat.most_coins_two", lang))
    else:
        lines.append(text("cheat.most_coins", lang))
    lines.append(text("cheat.seven_of_coins", lang))
    if rules.sevens == "ranking":
        lines.append(text("cheat.setenta", lang, order=text("cheat.setenta_order", lang, ace=ace)))
    elif rules.sevens == "sevens":
        lines.append(text("cheat.most_sevens", lang))
    elif rules.sevens == "primiera":
        values = text("cheat.primiera_values", lang, ace=ace)
        if rules.primiera_needs_all_suits:
            lines.append(text("cheat.primiera_all_suits", lang, values=values))
        else:
            lines.append(text("cheat.primiera", lang, values=values))
    else:
        lines.append(text("cheat.no_sevens", lang))
    bonus = _all_sevens_bonus(rules)
    if bonus:
        points = plural("count.points", bonus, lang)
        lines.append(text("cheat.all_sevens_bonus", lang, points=points))
    if rules.re_bello:
        lines.append(text("cheat.re_bello", lang, card=card_name(Card.parse("Kd"), deck, lang)))
    if rules.napola:
        lines.append(text("cheat.napola", lang, ace=ace))
    lines.append(text("cheat.each_sweep", lang))
    lines.append(text("cheat.tie", lang))
    return tuple(lines)


def _winning(rules: RuleSet, language: str) -> tuple[str, ...]:
    if rules.win_by == 1:
        return (text("cheat.win", language, target=rules.target_score),)
    return (text("cheat.win_by", language, target=rules.target_score, win_by=rules.win_by),)


def cheat_sheet(
    rules: RuleSet, language: str = "en", deck: DeckStyle = "french"
) -> tuple[Section, ...]:
    """The rules of one rule set, in sections short enough for one screen.

    The card values, the suits and the examples speak of the cards of ``deck`` (a deck
    style of :data:`escoba.cards.DECK_STYLES`), as the player sees them:

    >>> from escoba import RULESETS
    >>> cheat_sheet(RULESETS["escoba"], "en", deck="spanish")[0].lines[0]
    'Values: as=1, 2 to 7 as printed, sota=8, caballo=9, rey=10.'
    >>> cheat_sheet(RULESETS["escoba"])[0].lines[1]
    'Suits: coins = ♦, cups = ♥, swords = ♠, clubs = ♣; the seven of coins is the 7♦.'

    Every language gives the same sections with the same number of lines, but for the
    suits' line, left out where the deck's suit names are the reader's own words (Spanish
    cards in Spanish, Italian cards in Italian). An unknown deck style is refused with an
    :class:`~escoba.errors.EscobaError` naming the styles there are.
    """
    lang = language
    _checked(lang)
    style = _checked_deck(deck)
    winning = text("cheat.section.winning", lang, target=rules.target_score)
    return (
        Section(text("cheat.section.taking", lang), _taking(rules, lang, style)),
        Section(text("cheat.section.sweeps", lang), _sweeps(rules, lang, style)),
        Section(text("cheat.section.dealing", lang), _dealing(rules, lang)),
        Section(text("cheat.section.scoring", lang), _scoring(rules, lang, style)),
        Section(winning, _winning(rules, lang)),
    )


def cheat_sheet_lines(
    rules: RuleSet, language: str = "en", deck: DeckStyle = "french"
) -> tuple[str, ...]:
    """The cheat sheet as plain lines: each section's title, then its lines as bullets."""
    lines: list[str] = []
    for section in cheat_sheet(rules, language, deck):
        lines.append(section.title)
        lines.extend(f"  - {line}" for line in section.lines)
    return tuple(lines)


def cheat_sheet_title(title: str, language: str = "en") -> str:
    """The heading over a cheat sheet: "Cheat sheet: scopa", "Spickzettel: scopa"..."""
    return text("cheat.title", language, title=title)
