"""``constraints.txt`` (the versions CI installs, written by scripts/refresh_constraints.py)
agrees with ``pyproject.toml``: every requirement of the ``test`` extra, the ones it reaches
through the other extras included, is pinned, to a version its range allows."""

from __future__ import annotations

import sys
from pathlib import Path

from packaging.utils import canonicalize_name

ROOT = Path(__file__).parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import refresh_constraints  # noqa: E402


def pinned() -> dict[str, str]:
    found: dict[str, str] = {}
    for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            name, _, version = line.partition("==")
            found[canonicalize_name(name)] = version
    return found


def test_every_requirement_of_the_tests_is_pinned_within_its_range() -> None:
    pins = pinned()
    declared = [r for r in refresh_constraints.declared("test") if r.marker is None]
    assert {canonicalize_name(r.name) for r in declared} >= {"uvicorn", "redis", "psycopg", "build"}
    for requirement in declared:
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{name} is not pinned: python scripts/refresh_constraints.py"
        assert requirement.specifier.contains(pins[name], prereleases=True), (
            f"{name}=={pins[name]} is outside {requirement}"
        )


def test_the_pins_are_exact_and_sorted() -> None:
    lines = [
        line
        for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines()
        if line and not line.startswith("#")
    ]
    assert all("==" in line for line in lines)
    names = [line.partition("==")[0] for line in lines]
    assert names == sorted(names)
