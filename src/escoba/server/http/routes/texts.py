"""The web pages' texts over HTTP: ``GET /api/texts?language=fr``.

The answer is one JSON object, message key to text, in the asked language: every message of
the gettext domain ``web`` (``escoba/locale/<ll>/LC_MESSAGES/web.po``, the pages' own words)
and those of the domain ``escoba`` that the pages share with the Python side (scoring
categories, sevens rules, counts such as "3 cards", deck styles, computer levels:
:data:`SHARED`), so that a word is written once. A message with plural forms is an object of
its forms by CLDR plural category, ``{"one": "{count} card", "other": "{count} cards"}``; the
page picks one with ``Intl.PluralRules`` (see ``web/i18n.js``). A text the language lacks is
the English one.

The texts are the same for everybody and change only with the installed catalogues: the
answer is made once per language, and carries an ETag and ``Cache-Control`` so that a browser
keeps it (and a request with ``If-None-Match`` gets ``304 Not Modified``). An unknown language
is refused with status 404 and ``{"type": "error", "code": "unknown_language", "message":
...}`` naming it and the languages there are.
"""

from __future__ import annotations

import functools
import hashlib
import json
from typing import Annotated, Final

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, Response

from ....catalogue import LANGUAGES, as_json
from ...protocol import ErrorMessage

__all__ = ["CACHE_CONTROL", "SHARED", "page_texts", "router"]

router = APIRouter()

SHARED: Final[tuple[str, ...]] = ("cheat.category.", "cheat.sevens.", "count.", "deck.", "level.")
"""The prefixes of the ``escoba`` domain's keys the pages use too: scoring categories, sevens
rules, counts ("3 cards"), deck styles, computer levels."""

CACHE_CONTROL: Final = "public, max-age=600"
"""Kept ten minutes, then asked again with the ETag: a new version of the server's texts
reaches a page within that time, and an unchanged one costs a 304."""


@functools.cache
def page_texts(language: str) -> dict[str, str | dict[str, str]]:
    """Every text the pages use, in ``language``, by message key (see the module's doc).

    >>> page_texts("fr")["language.pt-BR"]
    'Português (Brasil)'
    """
    shared = {
        key: value for key, value in as_json(language, "escoba").items() if key.startswith(SHARED)
    }
    own = as_json(language, "web")
    if clash := sorted(shared.keys() & own.keys()):
        raise ValueError(f"keys in both the web and the escoba catalogues: {', '.join(clash)}")
    return {**shared, **own}


@functools.cache
def _answer(language: str) -> tuple[bytes, str]:
    """The JSON body for a language, and its ETag."""
    body = json.dumps(
        page_texts(language), ensure_ascii=False, sort_keys=True, separators=(",", ":")
    ).encode()
    return body, f'"{hashlib.sha256(body).hexdigest()[:32]}"'


@router.get("/api/texts")
async def texts(request: Request, language: Annotated[str, Query(max_length=8)] = "en") -> Response:
    """The pages' texts in ``language`` (one of ``en``, ``de``, ``es``, ``it``, ``fr``,
    ``pt-BR``), message key to text (or to plural forms by CLDR category)."""
    if language not in LANGUAGES:
        refusal = ErrorMessage(
            code="unknown_language",
            message=f"unknown language {language!r}; the texts are in {', '.join(LANGUAGES)}",
        )
        return JSONResponse(refusal.model_dump(), status_code=404)
    body, etag = _answer(language)
    headers = {"ETag": etag, "Cache-Control": CACHE_CONTROL, "Content-Language": language}
    asked = _etags(request.headers.get("if-none-match", ""))
    if etag in asked or "*" in asked:
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)


def _etags(header: str) -> set[str]:
    """The entity tags an If-None-Match header names (weak ones compare as strong ones)."""
    return {tag.strip().removeprefix("W/") for tag in header.split(",") if tag.strip()}
