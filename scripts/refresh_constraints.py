"""Write ``constraints.txt``: the versions the tests pass with, of every package ``escoba[test]``
pulls in, as installed here.

After ``python3 -m pip install -U -e '.[test]'`` (or any change of versions) and a green test
run, ``python scripts/refresh_constraints.py`` pins what is installed; ``.ci/run`` installs
with ``-c constraints.txt``, so CI tests these versions until the next refresh.
``--check`` compares instead of writing (exit code 1 when they differ).

It follows the requirements of the ``test`` extra in ``pyproject.toml`` through the installed
distributions (their extras and environment markers evaluated for this Python), so only what
the tests need is pinned, not whatever else the environment holds.
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
OUTPUT = ROOT / "constraints.txt"
HEADER = """\
# The versions the tests pass with: every package `escoba[test]` pulls in.
# .ci/run installs with: python3 -m pip install -c constraints.txt -e '.[test]'
# Refresh after upgrading and a green test run: python scripts/refresh_constraints.py
"""


def wanted(requirement: Requirement, extras: set[str]) -> bool:
    """Whether ``requirement`` applies here when ``extras`` are asked for."""
    if requirement.marker is None:
        return True
    # evaluate() adds this Python's environment to the extra
    return any(requirement.marker.evaluate({"extra": extra}) for extra in (extras or {""}))


def declared(extra: str) -> list[Requirement]:
    """The requirements of ``escoba[extra]`` as ``pyproject.toml`` says now (the installed
    metadata may be older), its own other extras followed."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    requirements: list[Requirement] = [Requirement(text) for text in project["dependencies"]]
    for text in project["optional-dependencies"][extra]:
        requirement = Requirement(text)
        if canonicalize_name(requirement.name) == canonicalize_name(project["name"]):
            requirements += [r for inner in requirement.extras for r in declared(inner)]
        else:
            requirements.append(requirement)
    return requirements


def pins(extra: str = "test") -> dict[str, str]:
    """Name and installed version of every distribution ``escoba[extra]`` needs."""
    found: dict[str, str] = {}
    todo: list[tuple[str, set[str]]] = [
        (requirement.name, set(requirement.extras))
        for requirement in declared(extra)
        if wanted(requirement, set())
    ]
    seen: set[tuple[str, frozenset[str]]] = set()
    while todo:
        name, asked = todo.pop()
        key = (canonicalize_name(name), frozenset(asked))
        if key in seen:
            continue
        seen.add(key)
        try:
            distribution = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            sys.exit(f"{name} is not installed: python3 -m pip install -e '.[test]' first")
        found[canonicalize_name(name)] = distribution.version
        for text in distribution.requires or []:
            requirement = Requirement(text)
            if wanted(requirement, asked):
                todo.append((requirement.name, set(requirement.extras)))
    return found


def render(found: dict[str, str]) -> str:
    return HEADER + "".join(f"{name}=={found[name]}\n" for name in sorted(found))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args(argv)
    text = render(pins())
    if args.check:
        if OUTPUT.read_text(encoding="utf-8") != text:
            print(f"{OUTPUT.name} differs from what is installed", file=sys.stderr)
            return 1
        return 0
    OUTPUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUTPUT.name}: {text.count('==')} packages")
    return 0


if __name__ == "__main__":
    sys.exit(main())
