"""The web pages' texts: the gettext domain ``web`` and ``GET /api/texts?language=..``.

Every language answers with the same keys as English, each text with the same ``{placeholders}``
and each plural message with the forms "one" and "other"; an unknown language is refused,
naming it. Every key the pages use exists (scripts/web_texts.py finds them), no page script
keeps a text of its own, and each web.mo is compiled from its web.po.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from fastapi.testclient import TestClient

from escoba.catalogue import LANGUAGES, as_json, keys
from escoba.server.http.routes.texts import SHARED, page_texts
from server_helpers import assert_refused, running_app

ROOT = Path(__file__).resolve().parent.parent
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("web_texts", ROOT / "scripts" / "web_texts.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses and typing look a module up by name
    spec.loader.exec_module(module)
    return module


web_texts = _script()


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with running_app(tmp_path_factory.mktemp("texts") / "escoba.db") as started:
        yield started


@pytest.fixture(scope="module")
def answers(client: TestClient) -> dict[str, dict[str, Any]]:
    """Each language's answer, read once."""
    found = {}
    for language in LANGUAGES:
        response = client.get("/api/texts", params={"language": language})
        assert response.status_code == 200, response.text
        assert response.headers["content-type"] == "application/json"
        found[language] = response.json()
    return found


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def test_every_language_has_the_english_keys_and_placeholders(
    answers: dict[str, dict[str, Any]],
) -> None:
    english = answers["en"]
    assert len(english) > 200
    for language, texts in answers.items():
        assert texts.keys() == english.keys(), language
        for key, text in texts.items():
            model = english[key]
            if isinstance(model, str):
                assert isinstance(text, str) and text.strip(), (language, key)
                assert placeholders(text) == placeholders(model), (language, key, text)
            else:
                # "other" says everything English says; "one" may leave the count unsaid
                # ("une carte"), nothing else.
                assert set(text) == {"one", "other"}, (language, key, text)
                assert placeholders(text["other"]) == placeholders(model["other"]), (language, key)
                assert placeholders(text["one"]) <= placeholders(model["other"]), (language, key)
                assert text["one"].strip() and text["other"].strip(), (language, key)


def test_plural_messages_have_their_one_and_other_forms(
    answers: dict[str, dict[str, Any]],
) -> None:
    plurals = {key for key, text in answers["en"].items() if isinstance(text, dict)}
    # the pages' own and the shared counts ("3 cards")
    assert {"common.stock_left", "lobby.options_changed", "count.cards", "count.sweeps"} <= plurals
    assert answers["en"]["common.stock_left"] == {
        "one": "{count} card left in the stock",
        "other": "{count} cards left in the stock",
    }
    assert answers["fr"]["lobby.options_changed"]["one"] == "Options de règles ({count} modifiée)"
    assert answers["pt-BR"]["count.cards_taken"] == {
        "one": "{count} carta levada",
        "other": "{count} cartas levadas",
    }
    for language in LANGUAGES:
        for key in plurals:
            assert "{count}" in answers[language][key]["other"], (language, key)


def test_translations_are_the_languages_own(answers: dict[str, dict[str, Any]]) -> None:
    """No language but English shows an English page: most texts differ from English (names
    such as "Escoba" or "Deutsch", and a few shared words, stay), none is a key."""
    english = answers["en"]
    for language, texts in answers.items():
        for key, text in texts.items():
            assert text != key, (language, key)
        if language != "en":
            same = [key for key, text in texts.items() if text == english[key]]
            assert len(same) < len(texts) // 8, (language, same)


def test_the_answer_is_the_web_catalogue_and_the_shared_words_only(
    answers: dict[str, dict[str, Any]],
) -> None:
    """Static texts, nothing else: the web domain, and the escoba domain's keys under
    SHARED, exactly as the catalogues hold them."""
    for language, texts in answers.items():
        web = as_json(language, "web")
        shared = {
            key: text for key, text in as_json(language, "escoba").items() if key.startswith(SHARED)
        }
        assert texts == {**shared, **web}
        assert not web.keys() & shared.keys()
        assert texts == page_texts(language)


def test_an_unknown_language_is_refused_naming_it(client: TestClient) -> None:
    for asked in ("xx", "pt_BR", "EN", "pt", ""):
        body = assert_refused(
            client.get("/api/texts", params={"language": asked}), 404, "unknown_language"
        )
        assert repr(asked) in body["message"]
        assert "pt-BR" in body["message"]  # and the languages there are
    too_long = client.get("/api/texts", params={"language": "x" * 50})
    assert_refused(too_long, 422, "bad_request")
    assert "language" in too_long.json()["message"]


def test_english_when_no_language_is_asked(
    client: TestClient, answers: dict[str, dict[str, Any]]
) -> None:
    assert client.get("/api/texts").json() == answers["en"]


def test_the_answer_is_kept_by_the_browser(client: TestClient) -> None:
    first = client.get("/api/texts", params={"language": "fr"})
    etag = first.headers["etag"]
    assert re.fullmatch(r'"[0-9a-f]{32}"', etag)
    assert "max-age=" in first.headers["cache-control"]
    assert first.headers["content-language"] == "fr"
    again = client.get("/api/texts", params={"language": "fr"}, headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert not again.content
    assert again.headers["etag"] == etag
    # another language is another answer, with its own tag
    german = client.get("/api/texts", params={"language": "de"}, headers={"If-None-Match": etag})
    assert german.status_code == 200
    assert german.headers["etag"] != etag


def test_every_key_the_pages_use_is_in_the_catalogues() -> None:
    """The keys written in the scripts and the HTML, and those built from values, all exist;
    every key of web.po is used by a page."""
    assert web_texts.problems() == []
    used = web_texts.used_keys()
    # a few of each kind: an HTML attribute, a script literal, a built key, a shared word
    assert {"lobby.tagline", "game.your_turn", "rules.preset.escova", "level.hard"} <= used
    assert {"cheat.category.seven_of_coins", "count.sweeps", "error.room_full"} <= used
    web = keys("web")
    assert web <= used
    assert used <= web | {key for key in keys("escoba") if key.startswith(SHARED)}


def test_a_key_built_from_a_value_must_be_listed() -> None:
    assert set(web_texts.built_patterns()) <= set(web_texts.BUILT)
    assert "lobby.blurb.*" in web_texts.built_patterns()


def test_the_scripts_keep_no_texts() -> None:
    """The texts live in the catalogues only: no English text of the web domain (but short
    words and names) appears in a page script, and no script registers a catalogue."""
    english = {text for text in as_json("en", "web").values() if isinstance(text, str)}
    sentences = {text for text in english if len(text) > 12 and " " in text}
    assert len(sentences) > 50
    for path in sorted(web_texts.WEB.glob("*.js")):
        source = path.read_text(encoding="utf-8")
        # A catalogue registered by a bare register(...) call (a service worker's is fine).
        assert not re.search(r"(?<![.\w])register\(", source), path.name
        found = sorted(text for text in sentences if text in source)
        assert not found, (path.name, found)


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_web_mo_is_compiled_from_its_po(language: str) -> None:
    assert web_texts.mo_path(language).read_bytes() == web_texts.compiled(language), (
        f"{language}: run python scripts/web_texts.py compile"
    )


def test_the_glossary_words() -> None:
    """docs/glossary.md: one name per idea. The sweep is an Escoba in German and an escova in
    Brazilian Portuguese, the score pad a Placar; French puts a no-break space before : ; ! ?"""
    german = " ".join(text for text in _texts("de"))
    assert "Abräumer" not in german
    assert "Escoba" in german
    brazilian = " ".join(_texts("pt-BR"))
    assert "escova" in brazilian and "Placar" in brazilian and "sete belo" in brazilian
    assert "coger" not in " ".join(_texts("es"))
    for text in _texts("fr"):
        assert not re.search(r"[^\s\u00a0][:;!?](\s|$)", text), text
        assert not re.search(r" [:;!?]", text), text


def _texts(language: str) -> list[str]:
    found: list[str] = []
    for text in as_json(language, "web").values():
        found += [text] if isinstance(text, str) else list(text.values())
    return found
