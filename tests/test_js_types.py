"""The browser client's types of the server's messages (types/protocol.d.ts) are the ones the
pydantic models give: ``scripts/js_types.py`` generates them, and the client is type-checked
against them (tsconfig.json), so the two cannot drift apart."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "js_types.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("js_types", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_the_committed_types_are_the_models() -> None:
    """Fix: ``python scripts/js_types.py update`` after changing a model of the wire."""
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "check"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr


@pytest.mark.slow
def test_a_changed_model_fails_the_check(tmp_path: Path) -> None:
    js_types = _script()
    js_types.OUT = tmp_path / "protocol.d.ts"
    assert js_types.main(["check"]) == 1  # missing
    assert js_types.main(["update"]) == 0
    assert js_types.main(["check"]) == 0
    text = js_types.OUT.read_text(encoding="utf-8")
    js_types.OUT.write_text(text.replace("hand_ended: boolean;", "hand_ended?: boolean;"))
    assert js_types.main(["check"]) == 1


@pytest.mark.slow
def test_every_model_of_the_wire_has_its_type() -> None:
    text = _script().generate()
    for name in (
        "StateMessage",
        "RoomInfo",
        "SeatInfo",
        "TableListing",
        "MatchView",
        "AccountAnswer",
        "Leaderboard",
        "RoomRatings",
        "YourMatches",
        "ServerMessage",
    ):
        assert f"  interface {name} {{" in text or f"  type {name} =" in text, name
    # What the server sends has every field; what the browser sends may leave defaults out.
    assert "    hand_ended: boolean;\n" in text
    assert "    listed?: boolean;\n" in text
