"""Extract, update and compile the gettext catalogue ``escoba`` (``src/escoba/locale``).

Every text the Python side shows is a message whose msgid is its key (``"coach.best"``); the
English catalogue holds the English text. The steps, each the ``pybabel`` command shown::

    python scripts/translations.py extract   # the keys in the sources -> locale/escoba.pot
        pybabel extract -F scripts/babel.cfg --no-default-keywords -k text -k plural:1,1 ...
            -o src/escoba/locale/escoba.pot src
    python scripts/translations.py update    # escoba.pot -> every language's escoba.po
        pybabel update -i src/escoba/locale/escoba.pot -d src/escoba/locale -D escoba
            --ignore-obsolete --no-fuzzy-matching
    python scripts/translations.py compile   # every escoba.po -> its escoba.mo
        pybabel compile -d src/escoba/locale -D escoba --statistics
    python scripts/translations.py all       # the three in turn

``update`` also writes each message's English text above it in the other languages' files
(``#. en: ...``), for whoever translates. A new key arrives untranslated in every language,
English included: write its texts (the English one in ``locale/en``) and compile. A new
language: ``pybabel init -i src/escoba/locale/escoba.pot -d src/escoba/locale -D escoba -l xx``,
two plural forms in its ``Plural-Forms`` header (see ``escoba.catalogue.PLURAL_CATEGORIES``),
and its code in ``escoba.catalogue.LANGUAGES``. ``tests/test_translations.py`` checks that the
keys in the sources and in the catalogues agree, and that every ``.mo`` is compiled from its
``.po``. The web pages' domain ``web`` has its own script, ``scripts/web_texts.py``.
"""

from __future__ import annotations

import os
import sys
from importlib.metadata import version
from pathlib import Path
from typing import Final

from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po, write_po

ROOT: Final = Path(__file__).resolve().parent.parent
LOCALE: Final = ROOT / "src" / "escoba" / "locale"
TEMPLATE: Final = LOCALE / "escoba.pot"
DOMAIN: Final = "escoba"

KEYWORDS: Final = (
    "text",  # catalogue.text, messages.text, Words.text
    "plural:1,1",  # catalogue.plural, Words.plural: the key is the msgid and its plural
    "counted:1,1",  # messages.counted, a Message with plural forms
    "message_key",  # catalogue.message_key, a key kept for later
    "Message",  # messages.Message
    "t",  # tui.texts.t
    "tn:1,1",  # tui.texts.tn
    "tr",  # the terminal apps' own t
    "fill",  # tui.widgets.fill, t with coloured parts
    "_fill",  # the game app's fill
)
"""The functions whose first argument is a message key."""


def pybabel(*arguments: str) -> None:
    print("pybabel", " ".join(arguments))
    CommandLineInterface().run(["pybabel", *arguments])


def extract(template: Path = TEMPLATE) -> None:
    """Write the template; run from the top of the repository (``main`` goes there)."""
    keywords = [f"--keyword={keyword}" for keyword in KEYWORDS]
    pybabel(
        "extract",
        "--mapping-file=" + str(ROOT / "scripts" / "babel.cfg"),
        "--no-default-keywords",
        *keywords,
        "--project=escoba",
        "--version=" + version("escoba"),
        "--copyright-holder=The escoba developers",
        "--output-file=" + str(template),
        "src",  # from the top of the repository: locations read "src/escoba/..."
    )


def update() -> None:
    pybabel(
        "update",
        "--input-file=" + str(TEMPLATE),
        "--output-dir=" + str(LOCALE),
        "--domain=" + DOMAIN,
        "--ignore-obsolete",
        "--no-fuzzy-matching",
    )
    english = _read(LOCALE / "en" / "LC_MESSAGES" / f"{DOMAIN}.po")
    for path in sorted(LOCALE.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        if path.parent.parent.name == "en":
            continue
        catalog = _read(path)
        for message in catalog:
            if not message.id:
                continue
            shown = english.get(message.id)
            string = shown.string if shown is not None else None
            if isinstance(string, (list, tuple)):
                string = " | ".join(string)
            message.auto_comments = [f"en: {string}"] if string else []
        with path.open("wb") as out:
            write_po(out, catalog, ignore_obsolete=True)


def compile_all() -> None:
    pybabel("compile", "--directory=" + str(LOCALE), "--domain=" + DOMAIN, "--statistics")


def _read(path: Path):  # type: ignore[no-untyped-def]  (Babel ships no types)
    with path.open("rb") as po:
        return read_po(po)


STEPS: Final = {"extract": (extract,), "update": (update,), "compile": (compile_all,)}


def main(arguments: list[str]) -> int:
    os.chdir(ROOT)
    steps = {**STEPS, "all": (extract, update, compile_all)}
    if len(arguments) != 1 or arguments[0] not in steps:
        print(f"usage: python scripts/translations.py {{{'|'.join(steps)}}}", file=sys.stderr)
        return 2
    for step in steps[arguments[0]]:
        step()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
