"""``python -m escoba`` and the ``escoba`` console script.

The engine needs nothing beyond the standard library; the command line needs the ``cli``
extra, and says so instead of failing with a traceback when it is missing.
"""

from __future__ import annotations

import sys


def main() -> None:
    try:
        from .cli import main as cli_main
    except ImportError as missing:
        sys.exit(
            f"escoba: the command line needs {missing.name!r}; "
            "install it with: python3 -m pip install 'escoba[cli]'"
        )
    cli_main()


if __name__ == "__main__":
    main()
