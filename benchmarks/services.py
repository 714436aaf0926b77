"""Private PostgreSQL, Redis and HAProxy for the benchmarks, in a temporary folder.

load.py starts a site of several `escoba serve` processes on them: one PostgreSQL cluster
(Debian's binaries under /usr/lib/postgresql/*/bin; run as the ``postgres`` user when we are
root, since initdb refuses root), one Redis on a Unix socket keeping nothing on disk, and
HAProxy in front, balancing round robin. Each is stopped when its ``with`` block ends.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import resource
import shutil
import socket
import subprocess
import time
from pathlib import Path
from types import TracebackType

import psycopg
import redis

from gc_pauses import free_port


def _stop(process: subprocess.Popen[bytes], seconds: float = 15) -> None:
    process.terminate()
    try:
        process.wait(seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def _said(log: Path) -> str:
    return log.read_text(errors="replace")[-2000:] if log.exists() else ""


class _Foreground:
    """A service run as a child process of ours, stopped when its ``with`` block ends."""

    process: subprocess.Popen[bytes] | None = None

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self.process is not None:
            _stop(self.process)

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid


class Postgres:
    """A PostgreSQL cluster of our own on 127.0.0.1, trusting local connections (it lives
    as long as the benchmark, in its temporary folder); each run gets a new database."""

    def __init__(self, folder: Path) -> None:
        versions = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=_version)
        if not versions:
            raise SystemExit("no PostgreSQL here: apt-get install postgresql (or give --database)")
        self.bin = versions[-1].parent
        self.folder = folder / "postgres"
        self.data = self.folder / "data"
        self.log = self.folder / "postgres.log"
        self.port = free_port()
        self.made = 0
        # initdb and postgres refuse to run as root: then they run as the postgres user,
        # which must be able to reach the folder.
        self.runner: list[str] = []
        if os.getuid() == 0:
            self.runner = ["runuser", "-u", "postgres", "--"]
            folder.chmod(0o711)
        self.folder.mkdir()
        if self.runner:
            account = pwd.getpwnam("postgres")
            os.chown(self.folder, account.pw_uid, account.pw_gid)

    def _run(self, *command: str) -> None:
        done = subprocess.run([*self.runner, *command], capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise SystemExit(f"{command[0]} failed: {done.stderr or done.stdout}")

    def __enter__(self) -> Postgres:
        self._run(
            str(self.bin / "initdb"),
            "--pgdata", str(self.data),
            "--username", "escoba",
            "--auth", "trust",
            "--encoding", "UTF8",
            "--no-instructions",
        )  # fmt: skip
        options = (
            f"-c listen_addresses=127.0.0.1 -c port={self.port}"
            f" -c unix_socket_directories={self.folder} -c max_connections=300"
        )
        self._run(
            str(self.bin / "pg_ctl"),
            "--pgdata", str(self.data),
            "--log", str(self.log),
            "--options", options,
            "--wait",
            "start",
        )  # fmt: skip
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._run(str(self.bin / "pg_ctl"), "--pgdata", str(self.data), "--mode", "fast", "stop")

    @property
    def pid(self) -> int:
        """The postmaster's process id (its backends are its children)."""
        return int((self.data / "postmaster.pid").read_text().split()[0])

    def database(self) -> str:
        """The URL of a new, empty database."""
        self.made += 1
        name = f"escoba_load_{self.made}"
        admin = f"host=127.0.0.1 port={self.port} user=escoba dbname=postgres"
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f"CREATE DATABASE {name}")
        return f"postgresql+psycopg://escoba@127.0.0.1:{self.port}/{name}"


def _version(initdb: Path) -> tuple[int, ...]:
    return tuple(int(part) for part in initdb.parts[-3].split(".") if part.isdigit())


class Redis(_Foreground):
    """A redis-server of our own on a Unix socket, keeping nothing on disk."""

    def __init__(self, folder: Path) -> None:
        if shutil.which("redis-server") is None:
            raise SystemExit("no redis-server here: apt-get install redis-server (or give --redis)")
        self.folder = folder / "redis"
        self.folder.mkdir()
        self.socket = self.folder / "redis.sock"
        self.log = self.folder / "redis.log"
        self.url = f"unix://{self.socket}?db=0"

    def __enter__(self) -> Redis:
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                [
                    "redis-server",
                    "--port", "0",
                    "--unixsocket", str(self.socket),
                    "--unixsocketperm", "700",
                    "--save", "",
                    "--appendonly", "no",
                    "--dir", str(self.folder),
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
            )  # fmt: skip
        deadline = time.monotonic() + 10
        while True:
            if self.process.poll() is not None:
                raise SystemExit(f"redis-server ended at start: {_said(self.log)}")
            with contextlib.suppress(redis.ConnectionError, FileNotFoundError):
                with redis.Redis.from_url(self.url) as client:
                    client.ping()
                return self
            if time.monotonic() > deadline:
                _stop(self.process)
                raise SystemExit("redis-server did not answer within 10 seconds")
            time.sleep(0.05)


HAPROXY_CONFIG = """\
global
    maxconn {maxconn}
    stats socket {stats} mode 600
    # One thread: the machine's cores are for the servers and the load generator.
    nbthread 1

defaults
    mode http
    timeout connect 5s
    timeout http-request 10s
    timeout client 120s
    timeout server 120s
    # A WebSocket, once upgraded, is a tunnel: the pages ping every 20 s.
    timeout tunnel 1h
    timeout client-fin 5s
    retries 2
    option redispatch

frontend site
    bind 127.0.0.1:{port}
    maxconn {maxconn}
    default_backend escoba

backend escoba
    balance roundrobin
    option httpchk GET /api/health
    http-check expect status 200
    default-server check inter 1s fall 2 rise 2 maxconn {maxconn}
{servers}
"""


def haproxy_config(port: int, backends: list[int], stats: Path, maxconn: int) -> str:
    """HAProxy's configuration: ``port`` on loopback balanced round robin over the servers
    on ``backends`` (their ports on loopback), WebSocket upgrades passed through, and its
    statistics on the Unix socket ``stats``."""
    servers = "\n".join(
        f"    server escoba{index} 127.0.0.1:{backend}"
        for index, backend in enumerate(backends, start=1)
    )
    return HAPROXY_CONFIG.format(port=port, maxconn=maxconn, stats=stats, servers=servers)


class Balancer(_Foreground):
    """HAProxy in front of the servers, in the foreground, its configuration in the
    folder; ready once every server passes its health check."""

    def __init__(self, folder: Path, backends: list[int]) -> None:
        if shutil.which("haproxy") is None:
            raise SystemExit("no haproxy here: apt-get install haproxy")
        self.port = free_port()
        self.config = folder / "haproxy.cfg"
        self.stats = folder / "haproxy.sock"
        # Each connection through HAProxy takes two descriptors (client and server side).
        descriptors = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
        maxconn = (descriptors - 200) // 2
        self.config.write_text(haproxy_config(self.port, backends, self.stats, maxconn))
        self.log = folder / "haproxy.log"
        self.backends = len(backends)

    def __enter__(self) -> Balancer:
        checked = subprocess.run(
            ["haproxy", "-c", "-q", "-f", str(self.config)],
            capture_output=True,
            text=True,
            check=False,
        )
        if checked.returncode != 0:
            raise SystemExit(f"haproxy refused its configuration: {checked.stderr}")
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                ["haproxy", "-db", "-f", str(self.config)], stdout=log, stderr=subprocess.STDOUT
            )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and self.process.poll() is None:
            if self._healthy():
                return self
            time.sleep(0.2)
        _stop(self.process)
        raise SystemExit(f"haproxy did not pass its servers: {_said(self.log)}")

    def _healthy(self) -> bool:
        """Whether HAProxy counts every server up (its health checks passed)."""
        try:
            with socket.socket(socket.AF_UNIX) as stats:
                stats.connect(str(self.stats))
                stats.sendall(b"show stat\n")
                answer = b""
                while chunk := stats.recv(65536):
                    answer += chunk
        except OSError:
            return False
        lines = answer.decode().splitlines()
        if not lines or not lines[0].startswith("# "):
            return False
        columns = lines[0][2:].split(",")
        rows = [dict(zip(columns, line.split(","), strict=False)) for line in lines[1:] if line]
        servers = [row for row in rows if row.get("svname", "").startswith("escoba")]
        return len(servers) == self.backends and all(row["status"] == "UP" for row in servers)
