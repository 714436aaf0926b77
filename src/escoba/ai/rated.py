"""The computer levels' measured ratings (written by ``benchmarks/ladder.py --write``)."""

from __future__ import annotations

from typing import Final

RATINGS: Final[dict[str, dict[str, tuple[float, float, float]]]] = {
    "escoba": {
        "beginner": (1000.0, 1000.0, 1000.0),
        "easy": (1567.7, 1447.9, 1665.9),
        "medium": (1789.5, 1655.6, 1903.3),
        "hard": (1882.4, 1746.8, 1987.0),
    },
    "scopa": {
        "beginner": (1000.0, 1000.0, 1000.0),
        "easy": (1410.0, 1346.5, 1470.5),
        "medium": (1495.4, 1431.5, 1557.8),
        "hard": (1648.9, 1578.8, 1716.3),
    },
}
"""Each rated game's levels: (rating, low, high), the interval at 95%."""

MEASURED: Final[dict[str, dict[str, int]]] = {
    "escoba": {"hands": 400, "matches": 791, "seed": 2026},
    "scopa": {"hands": 400, "matches": 1180, "seed": 2026},
}
"""How each game's table was measured: duplicate hands per pair, matches, seed."""
