"""Every relative link and image of the README and of ``docs/*.md`` reaches something: a file
or folder of the repository, and, where the link names a heading (``players.md#languages``),
a heading of that document (as GitHub makes their anchors)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

FENCE = re.compile(r"^(```|~~~).*?^\1[ \t]*$", re.MULTILINE | re.DOTALL)
CODE_SPAN = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^#{1,6}[ \t]+(.+?)[ \t#]*$", re.MULTILINE)
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def prose(text: str) -> str:
    """The text without its fenced code blocks (a link there is an example, not a link)."""
    return FENCE.sub("", text)


def links(text: str) -> list[str]:
    """The targets of the inline links and images of a Markdown text, outside code."""
    return LINK.findall(CODE_SPAN.sub("x", prose(text)))


def anchor(heading: str) -> str:
    """GitHub's anchor of a heading: its words in lower case, joined by hyphens, with the
    Markdown and the punctuation (but ``-`` and ``_``) taken out."""
    words = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).replace("`", "")
    words = re.sub(r"[^\w\- ]", "", words.strip().lower())
    return words.replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every anchor the headings of a Markdown text make (a repeated one numbered, as GitHub
    does)."""
    found: set[str] = set()
    for heading in HEADING.findall(prose(text)):
        name = base = anchor(heading)
        number = 0
        while name in found:
            number += 1
            name = f"{base}-{number}"
        found.add(name)
    return found


def test_anchor_is_githubs() -> None:
    assert anchor("Playing with people you don't know") == "playing-with-people-you-dont-know"
    assert anchor("The `escoba` command") == "the-escoba-command"
    assert anchor("Running a site: several processes, safety and load") == (
        "running-a-site-several-processes-safety-and-load"
    )
    assert anchors("# A\n\n## A\n\n```\n# not a heading\n```\n") == {"a", "a-1"}


def test_links_skip_code_and_read_images() -> None:
    text = "![a card](cards/7d.png) [`rules`](rules.md#scopone)\n`[no](x.md)`\n"
    text += "```\n[no](y.md)\n```\n"
    assert links(text) == ["cards/7d.png", "rules.md#scopone"]


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: str(path.relative_to(ROOT)))
def test_relative_links_resolve(document: Path) -> None:
    broken = []
    text = document.read_text(encoding="utf-8")
    for target in links(text):
        if SCHEME.match(target):
            continue
        path, _, fragment = target.partition("#")
        file = (document.parent / path).resolve() if path else document
        if not file.exists():
            broken.append(f"{target}: no {file.relative_to(ROOT)}")
        elif (
            fragment
            and file.suffix == ".md"
            and fragment not in anchors(file.read_text(encoding="utf-8"))
        ):
            broken.append(f"{target}: no heading #{fragment} in {file.relative_to(ROOT)}")
    assert not broken, f"{document.relative_to(ROOT)}: " + "; ".join(broken)
