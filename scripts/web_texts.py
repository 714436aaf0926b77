"""The web pages' message keys, and the gettext domain ``web`` that holds their texts.

The pages (``src/escoba/web``) look their texts up by key: ``t("game.hint")``,
``tn("common.stock_left", n)`` and ``known(...)`` in the scripts, ``data-i18n="lobby.title"``
(and ``data-i18n-title``, ``-placeholder``, ``-aria``) in the HTML. This script finds those
keys: every string literal in a script that reads like a key of ours (a namespace below, a
dot, a name), every such attribute, and the keys the scripts build from a value
(```level.${level}```), which :data:`BUILT` lists with the values they take. A key built
another way fails :func:`used_keys` until it is listed there.

Usage::

    python scripts/web_texts.py check     # keys the pages use but no catalogue has, and
                                          # web.po keys no page uses (exit status 1 if any)
    python scripts/web_texts.py update    # add the missing keys to every web.po (untranslated),
                                          # and the English text above each message
    python scripts/web_texts.py compile   # web.po -> web.mo, in every language

``tests/test_web_texts.py`` runs the same checks, and checks that each web.mo is compiled
from its web.po.
"""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Final

from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from escoba.ai import LEVELS
from escoba.catalogue import LANGUAGES, directory, keys
from escoba.rules import CAPTURE_MODES, OPTION_NAMES, RULESETS, SEVENS_MODES
from escoba.scoring import CATEGORIES
from escoba.server.http.routes.texts import SHARED
from escoba.server.protocol import PHRASES
from escoba.server.rooms.clocks import CLOCK_PRESETS

ROOT: Final = Path(__file__).resolve().parent.parent
WEB: Final = ROOT / "src" / "escoba" / "web"
LOCALE: Final = ROOT / "src" / "escoba" / "locale"
DOMAIN: Final = "web"

WEB_NAMESPACES: Final = (
    "account", "analysis", "common", "error", "game", "history", "language", "leaderboard",
    "learn", "lobby", "nav", "profile", "puzzles", "ratings", "replay", "rules", "scorepad",
    "talk",
)  # fmt: skip
"""The first parts of the ``web`` domain's keys."""

SHARED_NAMESPACES: Final = tuple(prefix.split(".")[0] for prefix in SHARED)
"""The first parts of the ``escoba`` domain's keys the pages use (texts_api.SHARED)."""

ERROR_CODES: Final = (
    "bad_message", "bad_nickname", "bad_token", "busy", "hint_pending", "illegal_move",
    "match_not_over", "match_over", "network", "not_against_computers", "not_joined",
    "not_seated", "not_your_turn", "nothing_to_take_back", "rate_limited", "room_full",
    "restarting", "room_reloaded", "seat_taken", "server_busy", "storage_failed",
    "talk_too_fast", "no_free_text", "bad_text", "nobody_left", "not_abandoned",
    "bad_username", "username_taken", "weak_password", "password_too_long", "bad_credentials",
    "too_many_attempts", "account_disabled", "bad_passkey", "flow_expired", "bad_csrf",
    "cross_site", "sign_in_needed", "not_ratable", "confirm_username",
)  # fmt: skip
"""The refusals the pages say in the reader's language (``error.<code>``); any other code
shows the server's own message. ``network`` is the page's own: the server cannot be reached."""

BUILT: Final[dict[str, Callable[[], Iterable[str | tuple[str, ...]]]]] = {
    "cheat.category.*": lambda: CATEGORIES,
    "cheat.sevens.*": lambda: SEVENS_MODES,
    "deck.*": lambda: ("french", "spanish", "italian"),
    "error.*": lambda: ERROR_CODES,
    "game.status_*": lambda: ("connecting", "connected", "reconnecting"),
    "language.*": lambda: LANGUAGES,
    "level.*": lambda: LEVELS,
    "lobby.blurb.*": lambda: RULESETS,
    "lobby.clock.*": lambda: CLOCK_PRESETS,
    "rules.option.*": lambda: OPTION_NAMES,
    # options with named values other than the sevens (those are cheat.sevens.*)
    "rules.option.*.*": lambda: (("capture", mode) for mode in CAPTURE_MODES),
    "rules.preset.*": lambda: RULESETS,
    "scorepad.field.*": lambda: ("cards", "coins", "sevens", "coin_runs", "sweeps"),
    "talk.phrase.*": lambda: PHRASES,
}
"""Each key the scripts build from a value, written with ``*`` for each ``${...}``, and the
values that go in (a tuple of one value for each ``*``)."""

_NAMESPACES: Final = "|".join(WEB_NAMESPACES + SHARED_NAMESPACES)
_LITERAL: Final = re.compile(rf"""(["'])((?:{_NAMESPACES})\.[A-Za-z0-9_.-]+)\1""")
_TEMPLATE: Final = re.compile(rf"`((?:{_NAMESPACES})\.[^`]*\$\{{[^`]*)`")
_ATTRIBUTE: Final = re.compile(r"""data-i18n(?:-title|-placeholder|-aria)?=(["'])([^"']+)\1""")


def _scripts() -> list[Path]:
    return sorted(WEB.glob("*.js"))


def _pages() -> list[Path]:
    return sorted(WEB.glob("*.html"))


def literal_keys() -> set[str]:
    """The keys written out in the scripts (header.js's markup among them: its attribute
    values are string literals' look-alikes) and in the pages' HTML attributes."""
    found: set[str] = set()
    for path in _scripts():
        found.update(
            match.group(2) for match in _LITERAL.finditer(path.read_text(encoding="utf-8"))
        )
    for path in _pages():
        found.update(m.group(2) for m in _ATTRIBUTE.finditer(path.read_text(encoding="utf-8")))
    return found


def built_patterns() -> dict[str, list[str]]:
    """The keys the scripts build, as ``*`` patterns, each with the files that build it."""
    found: dict[str, list[str]] = {}
    for path in _scripts():
        for match in _TEMPLATE.finditer(path.read_text(encoding="utf-8")):
            pattern = re.sub(r"\$\{[^}]*\}", "*", match.group(1))
            found.setdefault(pattern, []).append(path.name)
    return found


def used_keys() -> set[str]:
    """Every key the pages may look up. Raises ValueError naming a built key that
    :data:`BUILT` does not list."""
    keys = literal_keys()
    for pattern, files in sorted(built_patterns().items()):
        if pattern not in BUILT:
            raise ValueError(
                f"{', '.join(sorted(set(files)))} build keys {pattern!r} from a value: list the"
                " values it takes in BUILT (scripts/web_texts.py)"
            )
        keys.update(_fill(pattern, value) for value in BUILT[pattern]())
    return keys


def _fill(pattern: str, value: str | tuple[str, ...]) -> str:
    parts = iter((value,) if isinstance(value, str) else value)
    return re.sub(r"\*", lambda _: next(parts), pattern)


def po_path(language: str) -> Path:
    return LOCALE / directory(language) / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(language: str) -> Path:
    return po_path(language).with_suffix(".mo")


def read_catalogue(language: str) -> Catalog:
    with po_path(language).open("rb") as po:
        return read_po(po, locale=directory(language), domain=DOMAIN)


def compiled(language: str) -> bytes:
    """The .mo that web.po compiles to (what ``pybabel compile`` writes, fuzzy entries left out)."""
    out = io.BytesIO()
    write_mo(out, read_catalogue(language), use_fuzzy=False)
    return out.getvalue()


def problems() -> list[str]:
    """Keys the pages use that no catalogue has, and web keys no page uses."""
    used = used_keys()
    shared = {key for key in keys("escoba") if key.startswith(SHARED)}
    own = {message.id if isinstance(message.id, str) else message.id[0]
           for message in read_catalogue("en") if message.id}  # fmt: skip
    found = [f"missing: {key}" for key in sorted(used - own - shared)]
    found += [f"not used by any page: {key}" for key in sorted(own - used)]
    return found


def update() -> None:
    """Add the keys the pages use but web.po lacks to every language's web.po, untranslated
    and write each message's English text above it in the other languages' files
    (``#. en: ...``), for whoever translates; as scripts/translations.py does for ``escoba``."""
    shared = {key for key in keys("escoba") if key.startswith(SHARED)}
    english = read_catalogue("en")
    for language in LANGUAGES:
        catalogue = read_catalogue(language)
        new = sorted(key for key in used_keys() - shared if key not in catalogue)
        for key in new:
            catalogue[key] = Message(key, "")
        if language != "en":
            for message in catalogue:
                if message.id:
                    shown = english.get(message.id)
                    string = shown.string if shown is not None else None
                    if isinstance(string, (list, tuple)):
                        string = " | ".join(string)
                    message.auto_comments = [f"en: {string}"] if string else []
        with po_path(language).open("wb") as po:
            write_po(po, catalogue, width=100, sort_output=True)
        if new:
            print(f"{language}: added {', '.join(new)}")


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    if command == "check":
        found = problems()
        for line in found:
            print(line)
        return 1 if found else 0
    if command == "update":
        update()
        return 0
    if command == "compile":
        for language in LANGUAGES:
            mo_path(language).write_bytes(compiled(language))
        return 0
    print(f"unknown command {command!r}: use check, update or compile", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
