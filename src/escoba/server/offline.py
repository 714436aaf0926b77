"""The installable web app: its service worker, as served at ``/sw.js``.

The worker (``web/sw.js``) keeps the pages' files so that they open while the server cannot be
reached. What it keeps is listed here, from the files themselves: every static file, each page
address with its file, and the pages' texts in every language. The list's digest is the
worker's version: a changed file gives a new worker, which replaces what the old one kept.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Final
from urllib.parse import quote

from ..catalogue import LANGUAGES

__all__ = ["SERVICE_WORKER", "service_worker"]

SERVICE_WORKER: Final = "sw.js"
"""The worker's own file among the pages' files (never kept by itself)."""


def service_worker(web: Path, locale: Path, pages: Mapping[str, str]) -> bytes:
    """The worker's script: ``web/sw.js`` after a first line that tells it what to keep.

    ``pages`` maps each page's address to its file in ``web`` (an address ending in ``/`` is
    a prefix: ``/room/`` for every room); ``locale`` holds the compiled catalogues, whose
    texts the pages fetch, so that a change of texts is a new version too.
    """
    names = sorted(
        path.name for path in web.iterdir() if path.is_file() and path.name != SERVICE_WORKER
    )
    files = [f"/static/{quote(name)}" for name in names]
    files += [f"/api/texts?language={language}" for language in LANGUAGES]
    kept_pages = {address: f"/static/{quote(name)}" for address, name in sorted(pages.items())}
    digest = hashlib.sha256()
    for path in [web / name for name in names] + sorted(locale.rglob("*.mo")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    digest.update(json.dumps(kept_pages, sort_keys=True).encode())
    config = {"version": digest.hexdigest()[:16], "files": files, "pages": kept_pages}
    head = f"self.ESCOBA_OFFLINE = {json.dumps(config, sort_keys=True)};\n"
    return head.encode() + (web / SERVICE_WORKER).read_bytes()
