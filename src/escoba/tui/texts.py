"""The terminal UI's texts: the ``tui.*`` messages of the catalogue (:mod:`escoba.catalogue`).

:func:`t` takes a full key (``"tui.stock"``, ``"level.hard"``) or, as it always has, one
without its ``tui.`` (``"stock"``). A language the catalogue does not know shows English: the
setup screen may be handed anything.

>>> t("tui.stock", "it", n=3), t("stock", "xx", n=3), tn("tui.cards_held", 1, "fr", name="A")
('Mazzo: 3', 'Stock: 3', 'A\\xa0: 1 carte')
"""

from __future__ import annotations

from typing import Final

from ..catalogue import LANGUAGES, keys, plural, text

__all__ = ["UI_LANGUAGES", "t", "tn"]

UI_LANGUAGES: Final = LANGUAGES


def _key(key: str) -> str:
    return key if key in keys() else f"tui.{key}"


def _language(language: str) -> str:
    return language if language in LANGUAGES else "en"


def t(key: str, language: str = "en", **params: object) -> str:
    """The text of ``key`` in ``language`` (English where there is none), filled in."""
    return text(_key(key), _language(language), **params)


def tn(key: str, count: int, language: str = "en", **params: object) -> str:
    """The form of ``key`` for ``count`` things in ``language``, filled in (``{count}`` too)."""
    return plural(_key(key), count, _language(language), **params)
