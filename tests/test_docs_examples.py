"""The documents' Python examples written as plain code, not as doctests (``docs/environment.md``,
``docs/openspiel.md``): each document's ``python`` blocks run in order in one namespace, as
a reader would paste them. The doctests of the README and of ``docs/*.md`` run through
pytest's ``--doctest-glob`` (pyproject.toml)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PYTHON_BLOCK = re.compile(r"^```python[ \t]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)


def plain_blocks(text: str) -> list[str]:
    """The ``python`` blocks of a Markdown text that are plain code (doctests are run apart)."""
    return [block for block in PYTHON_BLOCK.findall(text) if not block.lstrip().startswith(">>>")]


DOCUMENTS = [
    path
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    if plain_blocks(path.read_text(encoding="utf-8"))
]


def test_plain_blocks_leave_doctests_out() -> None:
    text = "```python\nx = 1\n```\n\n```python\n>>> 1\n1\n```\n\n```sh\nls\n```\n"
    assert plain_blocks(text) == ["x = 1\n"]


def test_the_documents_with_plain_examples_are_found() -> None:
    names = {path.name for path in DOCUMENTS}
    assert {"environment.md", "openspiel.md"} <= names


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: str(path.relative_to(ROOT)))
def test_plain_examples_run(document: Path) -> None:
    namespace: dict[str, object] = {"__name__": f"example:{document.name}"}
    for number, block in enumerate(plain_blocks(document.read_text(encoding="utf-8")), 1):
        code = compile(block, f"{document.relative_to(ROOT)}, python block {number}", "exec")
        exec(code, namespace)
