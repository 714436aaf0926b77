"""The test markers (listed in pyproject.toml), set from what a test uses so that none can
be forgotten.

- ``browser``: drives Chromium (asks for the ``chromium`` fixture, directly or through
  ``page`` or ``context``).
- ``postgres``: the PostgreSQL run of a server test (``database_backend`` is ``postgresql``).
- ``redis``: talks to a Redis server (asks for ``redis_url``).
- ``cluster``: runs a site of several server processes (``tests/test_server_cluster.py``).
- ``slow``: outside the quick loop. Every ``browser``, ``postgres`` and ``cluster`` test, the
  examples of the documents (``README.md``, ``docs/*.md``: one doctest a file, whole matches
  played in some), and the tests marked ``@pytest.mark.slow`` by hand: those that take half a
  second or more on their own (matches played to the end, arenas, real sockets' deadlines).

``pytest -m "not slow"`` is the loop to run while working; CONTRIBUTING.md says which run
when.
"""

from __future__ import annotations

import pytest

CLUSTER_MODULES = {"test_server_cluster.py"}
"""The modules whose every test runs a site of several server processes."""


def markers_of(item: pytest.Item) -> set[str]:
    """The markers ``item`` gets from what it uses."""
    found: set[str] = set()
    fixtures = set(getattr(item, "fixturenames", ()))
    callspec = getattr(item, "callspec", None)
    if "chromium" in fixtures:
        found.add("browser")
    if callspec is not None and callspec.params.get("database_backend") == "postgresql":
        found.add("postgres")
    if "redis_url" in fixtures:
        found.add("redis")
    if item.path.name in CLUSTER_MODULES:
        found.add("cluster")
    if found & {"browser", "postgres", "cluster"} or item.path.suffix == ".md":
        found.add("slow")
    return found


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        for name in markers_of(item) - {mark.name for mark in item.iter_markers()}:
            item.add_marker(name)
