"""The release installs and runs: ``scripts/release_check.py`` builds the sdist and the wheel,
checks that they hold every file of the package, installs the wheel with the ``web`` extra in
a fresh virtual environment away from this clone, and uses it (``escoba serve``'s pages and
API, ``escoba play --plain``). It needs the package index pip is configured with."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).parents[1] / "scripts" / "release_check.py"


@pytest.mark.slow
@pytest.mark.release
def test_the_wheel_installs_in_a_fresh_environment_and_plays(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, str(SCRIPT)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=1200,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "the release installs and runs" in result.stdout
