"""Regenerate the OpenSpiel playthrough files in ``tests/golden/openspiel/``.

Each file is a whole hand of one registered game in OpenSpiel's playthrough format (written by
``open_spiel.python.algorithms.generate_playthrough``, as OpenSpiel pins its own games): the
game's type and sizes, then every state with its history, each player's information state and
observation (strings and tensors), the legal actions and the action taken, chance included.
``tests/test_openspiel.py`` replays each file and compares it line by line.

Run ``python scripts/openspiel_playthroughs.py`` after an intended change of behaviour, and
``python scripts/openspiel_playthroughs.py --check`` to compare without writing.
"""

from __future__ import annotations

import sys
from pathlib import Path

from absl import flags
from open_spiel.python.algorithms import generate_playthrough

import escoba.openspiel  # noqa: F401  (registers the games)

PLAYTHROUGH_DIR = Path(__file__).resolve().parent.parent / "tests" / "golden" / "openspiel"

# file name -> (game string, seed of the random actions)
PLAYTHROUGHS: dict[str, tuple[str, int]] = {
    "python_escoba.txt": ("python_escoba", 7),
    "python_scopa_4p_partnerships.txt": ("python_scopa(partnerships=True,players=4)", 11),
    "python_scopone.txt": ("python_scopone", 13),
}


def generate(name: str) -> str:
    """The text of one playthrough file."""
    if not flags.FLAGS.is_parsed():  # the module reads one absl flag, with its default
        flags.FLAGS.mark_as_parsed()
    game, seed = PLAYTHROUGHS[name]
    return str(generate_playthrough.playthrough(game, None, seed=seed))


def replay(path: Path) -> tuple[str, str]:
    """A file's text and the text made again by replaying its recorded actions."""
    if not flags.FLAGS.is_parsed():
        flags.FLAGS.mark_as_parsed()
    original, again = generate_playthrough.replay(str(path))
    return str(original), str(again)


def main(argv: list[str]) -> int:
    check = "--check" in argv
    PLAYTHROUGH_DIR.mkdir(parents=True, exist_ok=True)
    stale = []
    for name in PLAYTHROUGHS:
        path = PLAYTHROUGH_DIR / name
        text = generate(name)
        if check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
        else:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path} ({len(text.splitlines())} lines)")
    if stale:
        print("out of date: " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
