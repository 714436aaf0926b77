"""The score pad: add up a match played with a real deck, hand by hand, by a rule set.

After each hand the players count what every side took and enter it; the pad turns those
counts into points (RULES.md, "Scoring a hand") and names the winner (RULES.md, "Winning the
match"). The categories are decided by :func:`escoba.scoring.score_counts`, the same code that
scores the engine's own hands, so the pad and the engine cannot disagree.

What the players enter for one hand (a :class:`HandEntry`), one number per side:

- ``cards``: how many cards the side took (the sides together: 40);
- ``coins``: how many of them are coins (together: 10);
- ``seven_of_coins``: *which* side took the seven of coins (exactly one);
- ``sweeps``: how many sweeps the side made;
- ``sevens``: how many sevens the side took (together: 4). Needed only when the rules count
  sevens (``sevens="sevens"``, an ``all_sevens_bonus`` or ``big_wins``); checked when given;
- ``sevens_winner``: with setenta (``sevens="ranking"``) or ``primiera``, the side that wins
  the category, or None when nobody does (a tie at the top; with ``primiera_needs_all_suits``,
  no side holding every suit). The players compare their best cards at the table anyway, and
  the category's outcome is all that scoring needs from it, so this is exact and one tap.

The counts are checked against each other (cards 40, coins 10, sevens 4, one holder of the
seven of coins, no side with more coins or sevens than cards, every sweep at least two cards,
a setenta winner with the most sevens...) and a bad entry raises :class:`ScorePadError`, an
:class:`~escoba.errors.InvalidScoreError` whose text names the hand, the side and the field,
in any language of :data:`escoba.messages.LANGUAGES`. Hands are numbered from 1, sides from 0.

>>> from escoba import RULESETS
>>> first = HandEntry(cards=(22, 18), coins=(6, 4), seven_of_coins=0, sweeps=(2, 1),
...                   sevens_winner=0)
>>> pad = tally(RULESETS["escoba"], 2, [first])
>>> pad.hands[0].breakdown["sweeps"], pad.hands[0].points, pad.totals, pad.winner
((2, 1), (6, 1), (6, 1), None)
>>> tally(RULESETS["escoba"], 2, [HandEntry(cards=(22, 17), coins=(6, 4), seven_of_coins=0,
...                                         sweeps=(0, 0), sevens_winner=0)])
Traceback (most recent call last):
...
escoba.scorepad.ScorePadError: Hand 1, cards: the sides took 39 cards in all, but the deck has 40
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final, Literal

from .cheatsheet import sevens_label
from .errors import InvalidScoreError, RulesError
from .messages import LANGUAGES, lookup
from .rules import RuleSet
from .scoring import match_winner, score_counts

__all__ = [
    "FIELDS",
    "NOT_GIVEN",
    "TEXTS",
    "HandEntry",
    "HandTally",
    "ScorePad",
    "ScorePadError",
    "entry_fields",
    "say",
    "tally",
]

FIELDS: Final[tuple[str, ...]] = (
    "cards",
    "coins",
    "seven_of_coins",
    "sevens",
    "sevens_winner",
    "sweeps",
)
"""The fields of a hand's entry, in the order the pad asks for them."""

_PER_SIDE: Final = ("cards", "coins", "sevens", "sweeps")
_TOTALS: Final = {"cards": 40, "coins": 10, "sevens": 4}


class _NotGiven(enum.Enum):
    NOT_GIVEN = "not given"

    def __repr__(self) -> str:
        return "NOT_GIVEN"


NOT_GIVEN: Final = _NotGiven.NOT_GIVEN
"""The ``sevens_winner`` of an entry that does not say (None says "nobody wins it")."""


@dataclass(frozen=True, slots=True, kw_only=True)
class HandEntry:
    """What the players counted after one hand: one number per side (the side's index order)."""

    cards: Sequence[int]
    """Cards each side took (40 in all)."""
    coins: Sequence[int]
    """Coins each side took (10 in all)."""
    seven_of_coins: int
    """The side that took the seven of coins."""
    sweeps: Sequence[int]
    """Sweeps each side made."""
    sevens: Sequence[int] | None = None
    """Sevens each side took (4 in all); None when not counted (see :func:`entry_fields`)."""
    sevens_winner: int | Literal[_NotGiven.NOT_GIVEN] | None = NOT_GIVEN
    """Setenta or primiera: the side that wins the category, None if nobody does."""


@dataclass(frozen=True, slots=True)
class HandTally:
    """One hand on the pad: its points per side, by category, and the totals after it."""

    number: int
    """The hand's number, from 1."""
    points: tuple[int, ...]
    """Each side's points for the hand."""
    breakdown: Mapping[str, tuple[int, ...]]
    """Points per category (the names of ``escoba.CATEGORIES``), one number per side."""
    totals: tuple[int, ...]
    """Each side's match points after this hand."""


@dataclass(frozen=True, slots=True)
class ScorePad:
    """The added-up pad: every hand, the totals and, once the match is won, the winner."""

    rules: RuleSet
    sides: int
    hands: tuple[HandTally, ...]
    totals: tuple[int, ...]
    """Each side's match points after the last hand."""
    winner: int | None
    """The side that won the match, None while it goes on."""

    @property
    def over(self) -> bool:
        """Whether the match is won (no further hand may be entered)."""
        return self.winner is not None


# -- texts ------------------------------------------------------------------------------------

TEXTS: Final[Mapping[str, Mapping[str, str]]] = {
    "at.hand": {
        "en": "Hand {hand}",
        "de": "Runde {hand}",
        "es": "Mano {hand}",
        "it": "Mano {hand}",
    },
    "side": {
        "en": "side {index}",
        "de": "Seite {index}",
        "es": "bando {index}",
        "it": "squadra {index}",
    },
    "field.cards": {"en": "cards", "de": "Karten", "es": "cartas", "it": "carte"},
    "field.coins": {"en": "coins", "de": "Karo", "es": "oros", "it": "denari"},
    "field.seven_of_coins": {
        "en": "seven of coins",
        "de": "Karo-7",
        "es": "siete de oros",
        "it": "settebello",
    },
    "field.sevens": {"en": "sevens", "de": "Siebenen", "es": "sietes", "it": "sette"},
    "field.sevens_winner": {
        "en": "{label} winner",
        "de": "Gewinner der {label}",
        "es": "ganador de la {label}",
        "it": "vincitore della {label}",
    },
    "field.sweeps": {"en": "sweeps", "de": "Abräumer", "es": "escobas", "it": "scope"},
    "field.sides": {"en": "sides", "de": "Seiten", "es": "bandos", "it": "squadre"},
    "field.names": {"en": "names", "de": "Namen", "es": "nombres", "it": "nomi"},
    "field.hands": {"en": "hands", "de": "Runden", "es": "manos", "it": "mani"},
    "field.rules": {"en": "rules", "de": "Regeln", "es": "reglas", "it": "regole"},
    "field.options": {"en": "options", "de": "Optionen", "es": "opciones", "it": "opzioni"},
    "field.language": {"en": "language", "de": "Sprache", "es": "idioma", "it": "lingua"},
    "not_whole": {
        "en": "must be a whole number, 0 or more, not {value}",
        "de": "muss eine ganze Zahl ab 0 sein, nicht {value}",
        "es": "debe ser un número entero, 0 o más, no {value}",
        "it": "deve essere un numero intero, 0 o più, non {value}",
    },
    "per_side": {
        "en": "needs one number per side ({sides}), not {value}",
        "de": "braucht eine Zahl pro Seite ({sides}), nicht {value}",
        "es": "necesita un número por bando ({sides}), no {value}",
        "it": "serve un numero per squadra ({sides}), non {value}",
    },
    "missing": {
        "en": "is missing",
        "de": "fehlt",
        "es": "falta",
        "it": "manca",
    },
    "sevens_needed": {
        "en": "these rules count sevens: give each side's number of sevens",
        "de": "diese Regeln zählen Siebenen: gib die Zahl der Siebenen jeder Seite an",
        "es": "estas reglas cuentan los sietes: indica cuántos sietes tiene cada bando",
        "it": "queste regole contano i sette: indica quanti sette ha ogni squadra",
    },
    "winner_needed": {
        "en": "say which side wins the {label}, or that nobody does",
        "de": "gib an, welche Seite die {label} gewinnt, oder dass keine sie gewinnt",
        "es": "indica qué bando gana la {label}, o que no la gana nadie",
        "it": "indica quale squadra vince la {label}, o che non la vince nessuno",
    },
    "cards_total": {
        "en": "the sides took {total} cards in all, but the deck has 40",
        "de": "alle Seiten zusammen haben {total} Karten, das Spiel hat aber 40",
        "es": "entre todos los bandos suman {total} cartas, pero la baraja tiene 40",
        "it": "tutte le squadre insieme hanno {total} carte, ma il mazzo ne ha 40",
    },
    "coins_total": {
        "en": "the sides took {total} coins in all, but there are 10",
        "de": "alle Seiten zusammen haben {total} Karo, es gibt aber 10",
        "es": "entre todos los bandos suman {total} oros, pero hay 10",
        "it": "tutte le squadre insieme hanno {total} denari, ma sono 10",
    },
    "sevens_total": {
        "en": "the sides took {total} sevens in all, but there are 4",
        "de": "alle Seiten zusammen haben {total} Siebenen, es gibt aber 4",
        "es": "entre todos los bandos suman {total} sietes, pero hay 4",
        "it": "tutte le squadre insieme hanno {total} sette, ma sono 4",
    },
    "not_a_side": {
        "en": "{value} is not a side: give a side from 0 to {last}",
        "de": "{value} ist keine Seite: gib eine Seite von 0 bis {last} an",
        "es": "{value} no es un bando: indica un bando de 0 a {last}",
        "it": "{value} non è una squadra: indica una squadra da 0 a {last}",
    },
    "holder_needed": {
        "en": "exactly one side took the seven of coins: say which",
        "de": "genau eine Seite hat die Karo-7: gib an, welche",
        "es": "exactamente un bando se llevó el siete de oros: indica cuál",
        "it": "esattamente una squadra ha preso il settebello: indica quale",
    },
    "over_cards": {
        "en": "{count} is more than the {cards} cards this side took",
        "de": "{count} sind mehr als die {cards} Karten dieser Seite",
        "es": "{count} son más que las {cards} cartas de este bando",
        "it": "{count} sono più delle {cards} carte di questa squadra",
    },
    "coins_and_sevens": {
        "en": "{coins} coins and {sevens} sevens make at least {needed} cards, not {cards}",
        "de": "{coins} Karo und {sevens} Siebenen sind mindestens {needed} Karten, nicht {cards}",
        "es": "{coins} oros y {sevens} sietes son al menos {needed} cartas, no {cards}",
        "it": "{coins} denari e {sevens} sette sono almeno {needed} carte, non {cards}",
    },
    "holder_coins": {
        "en": "this side took the seven of coins, so it has at least 1 coin",
        "de": "diese Seite hat die Karo-7, also mindestens 1 Karo",
        "es": "este bando se llevó el siete de oros, así que tiene al menos 1 oro",
        "it": "questa squadra ha il settebello, quindi almeno 1 denaro",
    },
    "holder_sevens": {
        "en": "this side took the seven of coins, so it has at least 1 seven",
        "de": "diese Seite hat die Karo-7, also mindestens 1 Sieben",
        "es": "este bando se llevó el siete de oros, así que tiene al menos 1 siete",
        "it": "questa squadra ha il settebello, quindi almeno 1 sette",
    },
    "sweeps_cards": {
        "en": "{sweeps} sweeps take at least {needed} cards (2 or more each), not {cards}",
        "de": "{sweeps} Abräumer sind mindestens {needed} Karten (je 2 oder mehr), nicht {cards}",
        "es": "{sweeps} escobas son al menos {needed} cartas (2 o más cada una), no {cards}",
        "it": "{sweeps} scope sono almeno {needed} carte (2 o più ciascuna), non {cards}",
    },
    "winner_no_cards": {
        "en": "{name} took no cards, so it cannot win the {label}",
        "de": "{name} hat keine Karten, kann die {label} also nicht gewinnen",
        "es": "{name} no se llevó ninguna carta, así que no puede ganar la {label}",
        "it": "{name} non ha preso carte, quindi non può vincere la {label}",
    },
    "winner_missing_suit": {
        "en": "{name} cannot hold every suit ({cards} cards, {coins} coins), "
        "so it cannot win the {label}",
        "de": "{name} kann nicht jede Farbe haben ({cards} Karten, {coins} Karo), "
        "kann die {label} also nicht gewinnen",
        "es": "{name} no puede tener todos los palos ({cards} cartas, {coins} oros), "
        "así que no puede ganar la {label}",
        "it": "{name} non può avere tutti i semi ({cards} carte, {coins} denari), "
        "quindi non può vincere la {label}",
    },
    "winner_fewer_sevens": {
        "en": "{name} has fewer sevens than {other}, so it cannot win the {label}",
        "de": "{name} hat weniger Siebenen als {other}, kann die {label} also nicht gewinnen",
        "es": "{name} tiene menos sietes que {other}, así que no puede ganar la {label}",
        "it": "{name} ha meno sette di {other}, quindi non può vincere la {label}",
    },
    "winner_all_sevens": {
        "en": "{name} took all four sevens, so it wins the {label}",
        "de": "{name} hat alle vier Siebenen und gewinnt damit die {label}",
        "es": "{name} se llevó los cuatro sietes, así que gana la {label}",
        "it": "{name} ha preso i quattro sette, quindi vince la {label}",
    },
    "winner_most_sevens": {
        "en": "{name} has the most sevens, so it wins the {label}",
        "de": "{name} hat die meisten Siebenen und gewinnt damit die {label}",
        "es": "{name} tiene más sietes que nadie, así que gana la {label}",
        "it": "{name} ha più sette di tutti, quindi vince la {label}",
    },
    "winner_all_cards": {
        "en": "{name} took every card, so it wins the {label}",
        "de": "{name} hat alle Karten und gewinnt damit die {label}",
        "es": "{name} se llevó todas las cartas, así que gana la {label}",
        "it": "{name} ha preso tutte le carte, quindi vince la {label}",
    },
    "match_over": {
        "en": "the match was already won after hand {after} by {name}: start a new pad",
        "de": "die Partie hat schon nach Runde {after} {name} gewonnen: fang einen neuen Block an",
        "es": "{name} ya ganó la partida tras la mano {after}: empieza una hoja nueva",
        "it": "{name} ha già vinto la partita dopo la mano {after}: inizia un nuovo foglio",
    },
    "sides_count": {
        "en": "a score pad has 2 to 4 sides, not {value}",
        "de": "ein Punkteblock hat 2 bis 4 Seiten, nicht {value}",
        "es": "una hoja de puntos tiene de 2 a 4 bandos, no {value}",
        "it": "un segnapunti ha da 2 a 4 squadre, non {value}",
    },
    "names_count": {
        "en": "one name per side ({sides}), not {value}",
        "de": "ein Name pro Seite ({sides}), nicht {value}",
        "es": "un nombre por bando ({sides}), no {value}",
        "it": "un nome per squadra ({sides}), non {value}",
    },
    "name_text": {
        "en": "a name is some text, not {value}",
        "de": "ein Name ist ein Text, nicht {value}",
        "es": "un nombre es un texto, no {value}",
        "it": "un nome è un testo, non {value}",
    },
    "not_a_list": {
        "en": "must be a list, not {value}",
        "de": "muss eine Liste sein, nicht {value}",
        "es": "debe ser una lista, no {value}",
        "it": "deve essere una lista, non {value}",
    },
    "not_an_entry": {
        "en": "is not a hand's entry: {value}",
        "de": "ist kein Eintrag einer Runde: {value}",
        "es": "no es la anotación de una mano: {value}",
        "it": "non è la registrazione di una mano: {value}",
    },
    "unknown_rules": {
        "en": "no rule set is called {value}: choose one of {choices}",
        "de": "es gibt keine Regeln namens {value}: wähle eine von {choices}",
        "es": "no hay reglas llamadas {value}: elige una de {choices}",
        "it": "non esistono regole chiamate {value}: scegline una tra {choices}",
    },
    "bad_option": {
        "en": "{detail}",
        "de": "{detail}",
        "es": "{detail}",
        "it": "{detail}",
    },
    "unknown_field": {
        "en": "there is no field {value}; the fields are {choices}",
        "de": "es gibt kein Feld {value}; die Felder sind {choices}",
        "es": "no existe el campo {value}; los campos son {choices}",
        "it": "non esiste il campo {value}; i campi sono {choices}",
    },
    "bad_request": {
        "en": "is not understood: {detail}",
        "de": "ist unverständlich: {detail}",
        "es": "no se entiende: {detail}",
        "it": "non si capisce: {detail}",
    },
    "not_json": {
        "en": "The request is not a JSON object: {detail}",
        "de": "Die Anfrage ist kein JSON-Objekt: {detail}",
        "es": "La petición no es un objeto JSON: {detail}",
        "it": "La richiesta non è un oggetto JSON: {detail}",
    },
}
"""The pad's texts (error messages and the words they are made of), by key, then language."""


def say(key: str, language: str = "en", **params: object) -> str:
    """A text of the pad's catalogue in a language (English where there is none)."""
    return lookup(TEXTS, key, language if language in LANGUAGES else "en", **params)


class ScorePadError(InvalidScoreError):
    """An entry on the pad that cannot be right: the text names the hand, the side and the field.

    ``code`` says what is wrong (the key of its text in :data:`TEXTS`); ``hand`` (from 1),
    ``side`` (from 0) and ``field`` say where, each None when the error is not about one.
    :meth:`text` gives the message in another language.
    """

    def __init__(
        self,
        code: str,
        *,
        hand: int | None = None,
        side: int | None = None,
        field: str | None = None,
        rules: RuleSet | None = None,
        names: Sequence[str] | None = None,
        **params: object,
    ) -> None:
        self.code = code
        self.hand = hand
        self.side = side
        self.field = field
        self.params = params
        self._rules = rules
        self._names = tuple(names) if names is not None else None
        super().__init__(self.text("en"))

    def _name(self, index: object, language: str) -> str:
        if isinstance(index, int) and self._names is not None and 0 <= index < len(self._names):
            return self._names[index]
        return say("side", language, index=index)

    def text(self, language: str = "en") -> str:
        """The message in ``language``: where (hand, side, field), then what is wrong."""
        label = sevens_label(self._rules or RuleSet(), language if language in LANGUAGES else "en")
        shown = dict(self.params)
        for key in ("name", "other"):
            if key in shown:
                shown[key] = self._name(shown[key], language)
        where: list[str] = []
        if self.hand is not None:
            where.append(say("at.hand", language, hand=self.hand))
        if self.side is not None:
            where.append(self._name(self.side, language))
        if self.field is not None:
            where.append(say(f"field.{self.field}", language, label=label))
        detail = say(self.code, language, label=label, **shown)
        return f"{', '.join(where)}: {detail}" if where else detail


# -- the rules' needs --------------------------------------------------------------------------


def _counts_sevens(rules: RuleSet) -> bool:
    return rules.sevens == "sevens" or rules.all_sevens_bonus > 0 or rules.big_wins


def _names_winner(rules: RuleSet) -> bool:
    return rules.sevens in ("ranking", "primiera")


def entry_fields(rules: RuleSet) -> tuple[str, ...]:
    """The fields a hand's entry needs under these rules, in the pad's order.

    >>> from escoba import RULESETS
    >>> entry_fields(RULESETS["escoba"])
    ('cards', 'coins', 'seven_of_coins', 'sevens_winner', 'sweeps')
    >>> entry_fields(RULESETS["escoba-classic"])
    ('cards', 'coins', 'seven_of_coins', 'sevens', 'sweeps')
    """
    needed = {"cards", "coins", "seven_of_coins", "sweeps"}
    if _counts_sevens(rules):
        needed.add("sevens")
    if _names_winner(rules):
        needed.add("sevens_winner")
    return tuple(name for name in FIELDS if name in needed)


# -- checking one hand -------------------------------------------------------------------------


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _is_side(value: object, sides: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < sides


@dataclass(frozen=True, slots=True)
class _Checked:
    cards: tuple[int, ...]
    coins: tuple[int, ...]
    holder: int
    sweeps: tuple[int, ...]
    sevens: tuple[int, ...] | None
    winner: int | None


class _HandChecker:
    """Checks one entry; every refusal is a :class:`ScorePadError` naming where it is."""

    def __init__(
        self, rules: RuleSet, sides: int, number: int, names: Sequence[str] | None
    ) -> None:
        self.rules = rules
        self.sides = sides
        self.number = number
        self.names = names

    def fail(
        self, code: str, *, side: int | None = None, field: str | None = None, **params: object
    ) -> ScorePadError:
        return ScorePadError(
            code,
            hand=self.number,
            side=side,
            field=field,
            rules=self.rules,
            names=self.names,
            **params,
        )

    def per_side(self, field: str, values: object) -> tuple[int, ...]:
        if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
            if values is None:
                raise self.fail("missing", field=field)
            raise self.fail("per_side", field=field, sides=self.sides, value=repr(values))
        if len(values) != self.sides:
            raise self.fail("per_side", field=field, sides=self.sides, value=list(values))
        for side, value in enumerate(values):
            if value is None:
                raise self.fail("missing", side=side, field=field)
            if not _is_count(value):
                raise self.fail("not_whole", side=side, field=field, value=repr(value))
        return tuple(values)

    def check(self, entry: HandEntry) -> _Checked:
        rules = self.rules
        cards = self.per_side("cards", entry.cards)
        coins = self.per_side("coins", entry.coins)
        sevens: tuple[int, ...] | None = None
        if entry.sevens is not None:
            sevens = self.per_side("sevens", entry.sevens)
        elif _counts_sevens(rules):
            raise self.fail("sevens_needed", field="sevens")
        sweeps = self.per_side("sweeps", entry.sweeps)
        holder = entry.seven_of_coins
        if holder is None:
            raise self.fail("holder_needed", field="seven_of_coins")
        if not _is_side(holder, self.sides):
            raise self.fail(
                "not_a_side", field="seven_of_coins", value=repr(holder), last=self.sides - 1
            )
        winner = entry.sevens_winner
        if winner is NOT_GIVEN:
            if _names_winner(rules):
                raise self.fail("winner_needed", field="sevens_winner")
            winner = None
        elif winner is not None and not _is_side(winner, self.sides):
            raise self.fail(
                "not_a_side", field="sevens_winner", value=repr(winner), last=self.sides - 1
            )
        for field, values in (("cards", cards), ("coins", coins), ("sevens", sevens)):
            if values is not None and sum(values) != _TOTALS[field]:
                raise self.fail(f"{field}_total", field=field, total=sum(values))
        for side in range(self.sides):
            self.check_side(side, cards[side], coins[side], sevens, sweeps[side], side == holder)
        if _names_winner(rules):
            self.check_winner(winner, cards, coins, sevens)
        return _Checked(cards, coins, holder, sweeps, sevens, winner)

    def check_side(
        self,
        side: int,
        cards: int,
        coins: int,
        all_sevens: tuple[int, ...] | None,
        sweeps: int,
        holds_seven_of_coins: bool,
    ) -> None:
        if coins > cards:
            raise self.fail("over_cards", side=side, field="coins", count=coins, cards=cards)
        if holds_seven_of_coins and coins == 0:
            raise self.fail("holder_coins", side=side, field="coins")
        if all_sevens is not None:
            sevens = all_sevens[side]
            if sevens > cards:
                raise self.fail("over_cards", side=side, field="sevens", count=sevens, cards=cards)
            if holds_seven_of_coins and sevens == 0:
                raise self.fail("holder_sevens", side=side, field="sevens")
            # The seven of coins is both a coin and a seven: count it once.
            needed = coins + sevens - (1 if holds_seven_of_coins else 0)
            if needed > cards:
                raise self.fail(
                    "coins_and_sevens",
                    side=side,
                    field="cards",
                    coins=coins,
                    sevens=sevens,
                    needed=needed,
                    cards=cards,
                )
        # Every sweep takes the played card and at least one table card; the first four table
        # cards make at most two sweeps.
        if 2 * sweeps > cards:
            raise self.fail(
                "sweeps_cards",
                side=side,
                field="sweeps",
                sweeps=sweeps,
                needed=2 * sweeps,
                cards=cards,
            )

    def check_winner(
        self,
        winner: int | None,
        cards: tuple[int, ...],
        coins: tuple[int, ...],
        sevens: tuple[int, ...] | None,
    ) -> None:
        """What the counts already decide about the sevens category (never more)."""
        rules = self.rules
        field = "sevens_winner"
        forced: tuple[int, str] | None = None
        if sevens is not None and 4 in sevens:
            forced = (sevens.index(4), "winner_all_sevens")
        elif sum(1 for count in cards if count) == 1:
            forced = (next(s for s, count in enumerate(cards) if count), "winner_all_cards")
        elif rules.sevens == "ranking" and sevens is not None and sevens.count(max(sevens)) == 1:
            # The setenta key holds one seven per suit first: the most sevens wins it.
            forced = (sevens.index(max(sevens)), "winner_most_sevens")
        if forced is not None and winner != forced[0]:
            raise self.fail(forced[1], field=field, name=forced[0])
        if winner is None:
            return
        if cards[winner] == 0:
            raise self.fail("winner_no_cards", field=field, name=winner)
        if rules.sevens == "ranking" and sevens is not None and sevens[winner] < max(sevens):
            raise self.fail(
                "winner_fewer_sevens", field=field, name=winner, other=sevens.index(max(sevens))
            )
        if rules.primiera_needs_all_suits and (
            cards[winner] < 4 or coins[winner] in (0, cards[winner])
        ):
            raise self.fail(
                "winner_missing_suit",
                field=field,
                name=winner,
                cards=cards[winner],
                coins=coins[winner],
            )


# -- the pad -----------------------------------------------------------------------------------


def tally(
    rules: RuleSet,
    sides: int,
    hands: Sequence[HandEntry],
    *,
    names: Sequence[str] | None = None,
) -> ScorePad:
    """Add up a pad: the points of every hand, the running totals and the winner, if any.

    ``names`` (one per side) only make the error messages speak of the players. A hand entered
    after the hand that won the match is refused.
    """
    if not isinstance(rules, RuleSet):
        raise RulesError(f"rules must be a RuleSet, got {rules!r}")
    if not _is_side(sides, 5) or sides < 2:
        raise ScorePadError("sides_count", field="sides", value=repr(sides))
    if names is not None:
        if isinstance(names, (str, bytes)) or not isinstance(names, Sequence):
            raise ScorePadError("not_a_list", field="names", value=repr(names))
        if len(names) != sides:
            raise ScorePadError("names_count", field="names", sides=sides, value=len(names))
        for side, name in enumerate(names):
            if not isinstance(name, str) or not name.strip():
                raise ScorePadError("name_text", side=side, field="names", value=repr(name))
    if isinstance(hands, (str, bytes)) or not isinstance(hands, Sequence):
        raise ScorePadError("not_a_list", field="hands", value=repr(hands), names=names)
    totals = [0] * sides
    done: list[HandTally] = []
    winner: int | None = None
    for number, entry in enumerate(hands, start=1):
        checker = _HandChecker(rules, sides, number, names)
        if winner is not None:
            raise checker.fail("match_over", after=number - 1, name=winner)
        if not isinstance(entry, HandEntry):
            raise checker.fail("not_an_entry", value=repr(entry))
        hand = checker.check(entry)
        points, breakdown = _score(hand, rules, sides)
        totals = [total + gained for total, gained in zip(totals, points, strict=True)]
        done.append(HandTally(number, points, MappingProxyType(breakdown), tuple(totals)))
        winner = match_winner(totals, rules)
    return ScorePad(rules, sides, tuple(done), tuple(totals), winner)


def _score(
    hand: _Checked, rules: RuleSet, sides: int
) -> tuple[tuple[int, ...], dict[str, tuple[int, ...]]]:
    """The engine's scoring of the counted hand."""
    standing: list[Any]
    if rules.sevens == "sevens":
        assert hand.sevens is not None  # checked: these rules count sevens
        standing = list(hand.sevens)
    else:
        # Setenta or primiera: the named side stands alone at the top; nobody named is a tie.
        standing = [1 if side == hand.winner else 0 for side in range(sides)]
    sevens = hand.sevens or (0,) * sides
    points, breakdown = score_counts(
        hand.cards,
        hand.coins,
        [side == hand.holder for side in range(sides)],
        standing,
        [count == 4 for count in sevens],
        hand.sweeps,
        rules,
    )
    return points, breakdown
