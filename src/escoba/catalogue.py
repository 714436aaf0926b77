"""The gettext catalogues: every text a person reads, by message key, in six languages.

Texts live in ``escoba/locale/<ll or ll_CC>/LC_MESSAGES/<domain>.po`` and their compiled
``.mo`` files, read here with the standard library's :mod:`gettext` only. A message's msgid
is its key (``"coach.best"``); the English catalogue holds the English text, as every other
language's holds its own. The domain ``escoba`` has the texts of the Python side (coach,
terminal game, cheat sheet, score pad); other domains (``web``) are read the same way.

A language without a text for a key shows the English one. An unknown language is refused
with an :class:`~escoba.errors.EscobaError` naming the languages there are, as is an unknown
key or a missing placeholder value: those are mistakes of the caller, not of the reader.

>>> text("coach.best", "es")
'La mejor jugada aquí.'
>>> plural("count.cards", 1), plural("count.cards", 3, "de")
('1 card', '3 Karten')
"""

from __future__ import annotations

import functools
import gettext
import re
import struct
from importlib import resources
from typing import Final

from .errors import EscobaError

__all__ = [
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "PLURAL_CATEGORIES",
    "as_json",
    "directory",
    "is_plural",
    "keys",
    "message_key",
    "own_texts",
    "plural",
    "text",
    "translations",
]

LANGUAGES: Final = ("en", "de", "es", "it", "fr", "pt-BR")
"""The languages, by the codes people and browsers use (BCP 47); English first, the default."""

LANGUAGE_NAMES: Final = {
    "en": "English",
    "de": "Deutsch",
    "es": "Español",
    "it": "Italiano",
    "fr": "Français",
    "pt-BR": "Português (Brasil)",
}
"""Each language by its own name, for a language picker: the same whatever language is shown."""

PLURAL_CATEGORIES: Final = ("one", "other")
"""The CLDR plural category of each gettext plural form, by index. Right for our six
languages: all have two forms, 0 for "one" (1; in French and Brazilian Portuguese also 0) and 1
for "other". CLDR also names a "many" for a million in French, Spanish, Italian and
Portuguese, which these catalogues write as "other": a browser picks
``forms[new Intl.PluralRules(lang).select(n)] ?? forms.other``. A language with other plural
rules needs its own row here, and :func:`as_json` refuses a catalogue with more forms."""

_DOMAIN_NAME: Final = re.compile(r"[a-z][a-z0-9_]*")


def directory(language: str) -> str:
    """The locale directory of a language: ``pt-BR`` lives in ``pt_BR``, as gettext names it."""
    _check_language(language)
    return language.replace("-", "_")


def message_key(key: str) -> str:
    """The key itself: marks a key that code keeps for later (in a table, say) so that
    ``pybabel extract`` finds it like the keys passed to :func:`text` and :func:`plural`."""
    return key


@functools.cache
def translations(language: str, domain: str = "escoba") -> gettext.GNUTranslations:
    """The compiled catalogue of a language and domain, English behind it for any text the
    language lacks. Read once and kept; treat it as read-only."""
    _messages(language, domain)  # first: a missing catalogue fails with our error, not OSError
    with _mo_path(language, domain).open("rb") as mo:
        found = gettext.GNUTranslations(mo)
    if language != "en":
        found.add_fallback(translations("en", domain))
    return found


@functools.cache
def keys(domain: str = "escoba") -> frozenset[str]:
    """Every message key of a domain (those of its English catalogue)."""
    singular, plurals = _messages("en", domain)
    return frozenset(singular) | frozenset(plurals)


def is_plural(key: str, domain: str = "escoba") -> bool:
    """Whether a message has plural forms (shown with :func:`plural`, given a count)."""
    singular, plurals = _messages("en", domain)
    if key not in singular and key not in plurals:
        raise EscobaError(f"unknown message key {key!r}")
    return key in plurals


def text(key: str, language: str = "en", /, **params: object) -> str:
    """The text of a message in a language, its ``{placeholders}`` filled in.

    Numbers are written the language's way: a fraction with one decimal, after a decimal
    comma in every language but English.

    >>> text("coach.close_to_best", "fr", points=1.5)
    'Aussi bon que le meilleur coup, à 1,5 point près.'
    """
    singular, plurals = _messages("en", "escoba")
    if key not in singular:
        if key in plurals:
            raise EscobaError(f"message {key!r} has plural forms: use plural(), with a count")
        raise EscobaError(f"unknown message key {key!r}")
    return _fill(key, translations(language).gettext(key), language, params)


def plural(key: str, count: int, language: str = "en", /, **params: object) -> str:
    """The form of a message for ``count`` things ("1 card", "2 cards"), its placeholders
    filled in; ``{count}`` is the count unless given otherwise.

    >>> plural("count.sweeps", 2, "it")
    '2 scope'
    """
    singular, plurals = _messages("en", "escoba")
    if key not in plurals:
        if key in singular:
            raise EscobaError(f"message {key!r} has no plural forms: use text()")
        raise EscobaError(f"unknown message key {key!r}")
    if isinstance(count, bool) or not isinstance(count, int):
        raise EscobaError(f"the count of message {key!r} must be a whole number, not {count!r}")
    params = {"count": count, **params}
    return _fill(key, translations(language).ngettext(key, key, count), language, params)


def own_texts(language: str, domain: str = "escoba") -> dict[str, str | tuple[str, ...]]:
    """The texts a language's catalogue holds itself, by key, without English behind them:
    a text, or the plural forms (by gettext's index). For checking a catalogue; to show a
    text, use :func:`text` or :func:`plural`."""
    singular, plurals = _messages(language, domain)
    return {**singular, **plurals}


def as_json(language: str, domain: str) -> dict[str, str | dict[str, str]]:
    """Every message of a domain in a language (English where it has none), ready for JSON.

    A message with plural forms maps to its forms by CLDR plural category (see
    :data:`PLURAL_CATEGORIES`), so that a browser picks one with ``Intl.PluralRules``:

    >>> as_json("pt-BR", "escoba")["count.sweeps"]
    {'one': '{count} escova', 'other': '{count} escovas'}
    """
    english, english_plurals = _messages("en", domain)
    singular, plurals = _messages(language, domain)
    result: dict[str, str | dict[str, str]] = {}
    for key in sorted(english.keys() | english_plurals.keys()):
        if key in english:
            result[key] = singular.get(key) or english[key]
        else:
            forms = plurals.get(key) or english_plurals[key]
            if len(forms) != len(PLURAL_CATEGORIES):
                raise EscobaError(
                    f"message {key!r} of {domain!r} in {language} has {len(forms)} plural forms;"
                    f" PLURAL_CATEGORIES knows only {len(PLURAL_CATEGORIES)}"
                )
            result[key] = dict(zip(PLURAL_CATEGORIES, forms, strict=True))
    return result


# -- reading the compiled catalogues ---------------------------------------------------------


def _check_language(language: str) -> None:
    if language not in LANGUAGES:
        raise EscobaError(f"unknown language {language!r}; choose one of {', '.join(LANGUAGES)}")


def _mo_path(language: str, domain: str) -> resources.abc.Traversable:
    _check_language(language)
    if not isinstance(domain, str) or not _DOMAIN_NAME.fullmatch(domain):
        raise EscobaError(f"a catalogue domain is a lower-case name like 'escoba', not {domain!r}")
    path = resources.files(__package__) / "locale" / directory(language) / "LC_MESSAGES"
    return path / f"{domain}.mo"


@functools.cache
def _messages(language: str, domain: str) -> tuple[dict[str, str], dict[str, tuple[str, ...]]]:
    """The messages of one compiled catalogue, without fallback: texts by key, and the forms
    of plural messages by key. Untranslated messages are not in a ``.mo`` at all."""
    path = _mo_path(language, domain)
    if not path.is_file():
        raise EscobaError(f"there is no {domain!r} catalogue for {language}")
    return _read_mo(path.read_bytes(), f"{directory(language)}/LC_MESSAGES/{domain}.mo")


def _read_mo(data: bytes, name: str) -> tuple[dict[str, str], dict[str, tuple[str, ...]]]:
    """Parse the GNU ``.mo`` format (magic, count, offsets of the two string tables)."""
    for order in ("<", ">"):
        if len(data) >= 20 and struct.unpack(f"{order}I", data[:4])[0] == 0x950412DE:
            break
    else:
        raise EscobaError(f"{name} is not a compiled gettext catalogue")
    count, ids_at, strings_at = struct.unpack(f"{order}3I", data[8:20])
    singular: dict[str, str] = {}
    plurals: dict[str, tuple[str, ...]] = {}
    for index in range(count):
        id_length, id_at = struct.unpack(f"{order}2I", data[ids_at + 8 * index :][:8])
        string_length, string_at = struct.unpack(f"{order}2I", data[strings_at + 8 * index :][:8])
        msgid = data[id_at : id_at + id_length].decode()
        msgstr = data[string_at : string_at + string_length].decode()
        if not msgid:
            continue  # the header
        if "\0" in msgid:
            plurals[msgid.split("\0")[0]] = tuple(msgstr.split("\0"))
        else:
            singular[msgid] = msgstr
    return singular, plurals


def _fill(key: str, template: str, language: str, params: dict[str, object]) -> str:
    shown = {name: _number(value, language) for name, value in params.items()}
    try:
        return template.format(**shown)
    except KeyError as missing:
        raise EscobaError(f"message {key!r} needs a value for {missing}") from None


def _number(value: object, language: str) -> object:
    """Fractions with one decimal, written with a decimal comma where the language uses one."""
    if isinstance(value, float):
        written = f"{value:.1f}"
        return written if language == "en" else written.replace(".", ",")
    return value
