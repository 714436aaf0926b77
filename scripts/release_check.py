"""Check that a release installs and runs: build it, install it where no source tree is, use it.

1. ``python -m build`` makes the sdist and, from it, the wheel (so the sdist is complete too).
2. Every file of ``src/escoba`` that git tracks must be in the wheel and in the sdist (the
   modules, and what ``[tool.setuptools.package-data]`` ships: ``web/*``, ``locale/*``, the
   migrations, the puzzles' ``data/*.json``, ``py.typed``).
3. A fresh virtual environment in a temporary folder (``python -m venv``; the current folder
   is that folder, and nothing of the clone is on the path) installs the wheel with the
   ``web`` extra from the package index pip is configured with, as a player would; redis and
   psycopg, which only the ``site`` extra adds, must not come with it.
4. Its ``escoba serve --port P --database sqlite:///...`` answers the lobby ``/``, an image
   and the card faces' module, ``/api/texts?language=fr`` and ``/sw.js``;
   ``escoba play --plain`` plays a match against the computer to its end.

Run ``python scripts/release_check.py`` (``--keep`` keeps the temporary folder and says where);
``tests/test_release.py`` runs it (marked ``slow`` and ``release``; it needs the package
index). Installing takes a minute or two; pip's cache makes a second run quicker.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.request
import zipfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "escoba"
SITE_ONLY = ("redis", "psycopg")
"""Top-level modules of the ``site`` extra that ``web`` must not install."""


class ReleaseError(Exception):
    """What is wrong with the release, in one line."""


def say(message: str) -> None:
    print(f"release_check: {message}", flush=True)


def run(
    command: Sequence[str | Path], *, cwd: Path, env: dict[str, str], timeout: float = 900
) -> str:
    """``command``'s standard output; its error output in the exception when it fails."""
    result = subprocess.run(
        [str(part) for part in command],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    if result.returncode != 0:
        shown = " ".join(str(part) for part in command)
        raise ReleaseError(f"{shown} failed ({result.returncode}):\n{result.stderr[-4000:]}")
    return result.stdout


def clean_env(home: Path) -> dict[str, str]:
    """The environment of the installed package's commands: none of this clone's."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("PYTHON", "VIRTUAL_ENV", "ESCOBA_"))
    }
    env["ESCOBA_DATA_DIR"] = str(home / "data")
    env["NO_COLOR"] = "1"
    env["COLUMNS"] = "200"
    return env


def tracked_package_files() -> set[str]:
    """The files of ``src/escoba`` that git tracks, relative to ``src``."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", f"src/{PACKAGE}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return {name.removeprefix("src/") for name in listed.split("\0") if name}


def build(outdir: Path, env: dict[str, str]) -> tuple[Path, Path]:
    """The sdist and the wheel ``python -m build`` makes from this clone."""
    say("building the sdist and the wheel")
    run([sys.executable, "-m", "build", "--outdir", outdir, ROOT], cwd=outdir.parent, env=env)
    (sdist,) = outdir.glob(f"{PACKAGE}-*.tar.gz")
    (wheel,) = outdir.glob(f"{PACKAGE}-*.whl")
    return sdist, wheel


def check_contents(sdist: Path, wheel: Path, expected: set[str]) -> None:
    """Every tracked file of the package is in the wheel and in the sdist."""
    with zipfile.ZipFile(wheel) as archive:
        in_wheel = set(archive.namelist())
    missing = sorted(expected - in_wheel)
    if missing:
        raise ReleaseError(f"the wheel lacks {len(missing)} files: {', '.join(missing[:20])}")
    with tarfile.open(sdist) as archive:
        # escoba-0.1.0/src/escoba/... -> escoba/...
        in_sdist = {
            name.split("/", 2)[2]
            for name in archive.getnames()
            if name.count("/") >= 2 and name.split("/", 2)[1] == "src"
        }
    missing = sorted(expected - in_sdist)
    if missing:
        raise ReleaseError(f"the sdist lacks {len(missing)} files: {', '.join(missing[:20])}")
    say(f"the wheel and the sdist hold all {len(expected)} files of src/{PACKAGE}")


def install(wheel: Path, home: Path, env: dict[str, str]) -> Path:
    """A fresh virtual environment in ``home`` with ``wheel[web]``; its ``bin`` folder."""
    say("installing the wheel with the web extra in a fresh virtual environment")
    venv = home / "venv"
    run([sys.executable, "-m", "venv", venv], cwd=home, env=env)
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    run(
        [
            bin_dir / "python",
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            f"{PACKAGE}[web] @ {wheel.as_uri()}",
        ],
        cwd=home,
        env=env,
    )
    where = run(
        [bin_dir / "python", "-c", f"import {PACKAGE}; print({PACKAGE}.__file__)"],
        cwd=home,
        env=env,
    ).strip()
    if not Path(where).is_relative_to(venv):
        raise ReleaseError(f"{PACKAGE} was imported from {where}, not from the installed wheel")
    for name in SITE_ONLY:
        found = run(
            [
                bin_dir / "python",
                "-c",
                f"import importlib.util; print(importlib.util.find_spec({name!r}) is not None)",
            ],
            cwd=home,
            env=env,
        ).strip()
        if found != "False":
            raise ReleaseError(f"the web extra installed {name}, which only the site extra needs")
    return bin_dir


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def fetch(url: str) -> tuple[int, str, bytes]:
    """Status, content type and body of a GET."""
    with urllib.request.urlopen(url, timeout=30) as answer:
        return answer.status, answer.headers.get("Content-Type", ""), answer.read()


@contextmanager
def serving(bin_dir: Path, home: Path, env: dict[str, str]) -> Iterator[str]:
    """The installed ``escoba serve`` on SQLite, running; its base URL."""
    port = free_port()
    database = home / "escoba.sqlite"
    server = subprocess.Popen(
        [
            str(bin_dir / "escoba"),
            "serve",
            "--port",
            str(port),
            "--database",
            f"sqlite:///{database}",
            "--computer-workers",
            "1",
        ],
        cwd=home,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        # The line comes once the port is listening: requests made after it are answered.
        line = server.stdout.readline()
        if "playing at" not in line:
            server.kill()
            _, errors = server.communicate(timeout=30)
            raise ReleaseError(f"escoba serve did not start: {line.strip()} {errors.strip()}")
        yield f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        try:
            server.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.communicate()


def check_server(base: str) -> None:
    """The lobby, an image, the card faces, the French texts and the service worker."""
    checks = [
        ("/", "text/html", b"<html"),
        ("/static/icon-192.png", "image/png", b"\x89PNG"),
        ("/static/favicon.svg", "image/svg+xml", b"<svg"),
        ("/static/cards.js", "javascript", b"export"),
        ("/api/texts?language=fr", "application/json", b"{"),
        ("/sw.js", "javascript", b""),
    ]
    for path, kind, start in checks:
        status, content_type, body = fetch(base + path)
        if status != 200 or kind not in content_type or start not in body[:4096]:
            raise ReleaseError(f"GET {path}: {status} {content_type}, {body[:80]!r}")
    _, _, body = fetch(base + "/api/texts?language=fr")
    texts = json.loads(body)
    if not texts:
        raise ReleaseError("GET /api/texts?language=fr: no texts")
    say(f"escoba serve answered {', '.join(path for path, _, _ in checks)}")


def check_play(bin_dir: Path, home: Path, env: dict[str, str]) -> None:
    """A whole match of ``escoba play --plain``, always choosing the first move."""
    result = subprocess.run(
        [str(bin_dir / "escoba"), "play", "--plain", "--seed", "1"],
        input="1\n" * 400,
        cwd=home,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    if result.returncode != 0 or "Final score" not in result.stdout:
        raise ReleaseError(
            f"escoba play --plain ({result.returncode}): {result.stdout[-800:]}"
            f"{result.stderr[-800:]}"
        )
    say("escoba play --plain played a match to its end")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = parser.parse_args(argv)
    started = time.monotonic()
    home = Path(tempfile.mkdtemp(prefix="escoba-release-")).resolve()
    env = clean_env(home)
    try:
        sdist, wheel = build(home / "dist", env)
        check_contents(sdist, wheel, tracked_package_files())
        bin_dir = install(wheel, home, env)
        with serving(bin_dir, home, env) as base:
            check_server(base)
        check_play(bin_dir, home, env)
    except (ReleaseError, subprocess.TimeoutExpired, OSError) as error:
        print(f"release_check: FAILED: {error}", file=sys.stderr)
        return 1
    finally:
        if args.keep:
            say(f"kept {home}")
        else:
            shutil.rmtree(home, ignore_errors=True)
    say(f"the release installs and runs ({time.monotonic() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
