"""What the timed-rounds benchmarks (engine.py, env.py) share: their options and one core."""

from __future__ import annotations

import argparse
import os
from pathlib import Path


def round_options(doc: str | None) -> argparse.Namespace:
    """Parse ``--rounds``, ``--seconds`` and ``--json`` and keep the process on one core, so
    that every round runs alike."""
    parser = argparse.ArgumentParser(description=(doc or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="rounds per measurement")
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per round")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    return args
