"""The HTTP layer of ``escoba serve`` (``escoba.server.http.transport``) against a real server
process with small limits: request heads over the byte or header limit, heads that never
end, idle kept-alive connections, connections per address and in all (WebSockets counted),
text that is not UTF-8, SIGTERM with clients that never read, and the ``serve`` command's
own errors (``--limit``, a corrupt database).

Every socket has a timeout and every wait a deadline, so a server that does not do what it
should fails a test instead of hanging it. Each test also checks that the server logged no
traceback while it ran.
"""

from __future__ import annotations

import itertools
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as websocket_connect
from websockets.typing import Origin

from escoba.cli import app
from escoba.server.config import Settings
from escoba.server.http.app import create_app
from server_helpers import free_port, wait_for_port

LIMITS: dict[str, float] = {
    "header_bytes": 12_000,
    "header_count": 20,
    "header_seconds": 1,
    "idle_seconds": 1,
    "connections_per_address": 4,
    "connections_total": 6,
    "join_seconds": 30,
    "body_seconds": 2,
    "body_rate": 1000,
    "slow_bodies_per_address": 2,
}
"""Small enough to reach in a test; the room sockets that hold connections open are given
time to stay without joining."""

WAIT = 5.0
"""Seconds within which something the server must do has to happen."""

HANDSHAKE_KEY = "dGhlIHNhbXBsZSBub25jZQ=="

Answer = tuple[int, dict[str, str], bytes]
T = TypeVar("T")


@dataclass
class Server:
    process: subprocess.Popen[bytes]
    port: int
    log: Path
    read_up_to: int = 0

    def new_log(self) -> str:
        """What the server wrote since the last call."""
        text = self.log.read_bytes()[self.read_up_to :].decode(errors="replace")
        self.read_up_to += len(text.encode())
        return text

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"


def serve_command(
    port: int, database: str, limits: dict[str, float], options: Sequence[str] = ()
) -> list[str]:
    command = [sys.executable, "-m", "escoba", "serve", "--port", str(port), "--pace", "0"]
    command += ["--database", database, "--computer-workers", "1", *options]
    for name, value in limits.items():
        command += ["--limit", f"{name}={value}"]
    return command


@contextmanager
def running_server(
    folder: Path, limits: dict[str, float], options: Sequence[str] = ()
) -> Iterator[Server]:
    """``escoba serve`` with ``limits`` (and other ``options``) in a process of its own, on
    a SQLite file in ``folder``; killed on leaving the block if it still runs."""
    folder.mkdir(parents=True, exist_ok=True)
    port = free_port()
    log = folder / "server.log"
    command = serve_command(port, f"sqlite:///{folder / 'x.db'}", limits, options)
    with log.open("wb") as output:
        process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT)
    try:
        wait_for_port(port, alive=lambda: process.poll() is None)
        yield Server(process, port, log)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(WAIT)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("transport"), LIMITS) as running:
        yield running


@pytest.fixture
def quiet(server: Server) -> Iterator[Server]:
    """The module's server, which must log no traceback during the test."""
    server.new_log()
    yield server
    logged = server.new_log()
    assert "Traceback" not in logged, logged
    assert server.process.poll() is None, "the server ended"


# -- raw HTTP ---------------------------------------------------------------------------------


def connect(port: int, source: str = "127.0.0.1") -> socket.socket:
    """A TCP connection to the server from the loopback address ``source``."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.settimeout(WAIT)
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", port))
    return sock


def request(
    path: str = "/api/presets", *headers: str, close: bool = False, host: str = "127.0.0.1"
) -> bytes:
    lines = [f"GET {path} HTTP/1.1", f"Host: {host}", *headers]
    if close:
        lines.append("Connection: close")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def read_answer(sock: socket.socket, timeout: float = WAIT) -> Answer:
    """One whole response (it has a Content-Length): status, headers, body."""
    deadline = time.monotonic() + timeout
    data = b""
    while True:
        head, found, body = data.partition(b"\r\n\r\n")
        if found:
            status_line, *lines = head.decode("latin-1").split("\r\n")
            headers = {}
            for line in lines:
                name, _, value = line.partition(":")
                headers[name.strip().lower()] = value.strip()
            length = int(headers["content-length"])
            if len(body) >= length:
                return int(status_line.split()[1]), headers, body[:length]
        left = deadline - time.monotonic()
        assert left > 0, f"no whole answer within {timeout} s: {data[:300]!r}"
        sock.settimeout(left)
        chunk = sock.recv(65536)
        assert chunk, f"the connection ended before a whole answer: {data[:300]!r}"
        data += chunk


def ask(port: int, payload: bytes, source: str = "127.0.0.1") -> Answer:
    """Send ``payload`` on a new connection and read the answer."""
    with connect(port, source) as sock:
        sock.sendall(payload)
        return read_answer(sock)


def error_of(answer: Answer) -> dict[str, Any]:
    """The JSON refusal an answer carries."""
    _status, headers, body = answer
    assert headers["content-type"] == "application/json"
    error: dict[str, Any] = json.loads(body)
    assert error["type"] == "error" and isinstance(error["message"], str), error
    return error


def read_head(sock: socket.socket) -> bytes:
    """An answer's head, read byte by byte so that nothing after it is taken (a 100 Continue,
    which has no body)."""
    head = b""
    while not head.endswith(b"\r\n\r\n"):
        byte = sock.recv(1)
        assert byte, f"the connection ended before a whole head: {head!r}"
        head += byte
    return head


def peek_until(sock: socket.socket, done: Callable[[bytes], bool]) -> bytes:
    """What has come on ``sock`` once ``done`` holds of it, looked at and left unread
    (``MSG_PEEK``): the socket's receive buffer stays as full as the server made it."""
    seen = sock.recv(65536, socket.MSG_PEEK)
    while not done(seen):
        more = sock.recv(len(seen) + 1, socket.MSG_PEEK | socket.MSG_WAITALL)  # a byte more
        assert len(more) > len(seen), f"nothing more came: {seen[-200:]!r}"
        seen = sock.recv(65536, socket.MSG_PEEK)
    return seen


def seconds_until_closed(sock: socket.socket, *, keep_sending: bool = False) -> float:
    """Seconds until the server ends the connection (a reset counts), reading nothing from
    it; with ``keep_sending``, a header line goes out every quarter second meanwhile."""
    start = time.monotonic()
    deadline = start + WAIT
    sock.settimeout(0.25)
    while time.monotonic() < deadline:
        try:
            if keep_sending:
                sock.sendall(b"X-Slow: a\r\n")
            chunk = sock.recv(4096)
        except TimeoutError:
            continue
        except OSError:  # reset, or a send into a closed connection
            return time.monotonic() - start
        assert chunk == b"", f"the server answered a head it never got: {chunk[:200]!r}"
        return time.monotonic() - start
    raise AssertionError(f"the connection was still open after {WAIT} s")


def assert_served(port: int, source: str = "127.0.0.1") -> None:
    status, _headers, body = ask(port, request(close=True), source)
    assert status == 200, body
    assert "presets" in json.loads(body)


def eventually(attempt: Callable[[], T]) -> T:
    """What ``attempt`` gives once it works, trying again for WAIT seconds (a connection a
    client closed takes the server a moment to count out)."""
    deadline = time.monotonic() + WAIT
    while True:
        try:
            return attempt()
        except (AssertionError, OSError, KeyError, InvalidStatus):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def eventually_served(port: int, source: str = "127.0.0.1") -> None:
    eventually(lambda: assert_served(port, source))


# -- WebSockets ---------------------------------------------------------------------------------


def new_room(port: int) -> str:
    body = json.dumps({"nickname": "Ana", "seats": ["person", "person"]}).encode()
    headers = {"Content-Type": "application/json"}
    url = f"http://127.0.0.1:{port}/api/rooms"
    with urllib.request.urlopen(urllib.request.Request(url, body, headers), timeout=WAIT) as r:
        room: str = json.loads(r.read())["room"]
    return room


def room_socket(server: Server, room: str, source: str = "127.0.0.1") -> ClientConnection:
    """A WebSocket on ``room`` from ``source`` that has not joined (it may stay, unjoined,
    for ``join_seconds``)."""
    sock = connect(server.port, source)
    return websocket_connect(
        f"ws://127.0.0.1:{server.port}/ws/rooms/{room}",
        sock=sock,
        origin=Origin(server.origin),
        open_timeout=WAIT,
        close_timeout=1,
    )


def masked_text_frame(payload: bytes) -> bytes:
    """One WebSocket text frame from a client (masked; a payload under 126 bytes)."""
    mask = os.urandom(4)
    masked = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
    return bytes([0x81, 0x80 | len(payload)]) + mask + masked


# -- request heads --------------------------------------------------------------------------------


@pytest.mark.slow
def test_a_head_over_the_byte_limit_is_refused_with_431_and_others_are_still_served(
    quiet: Server,
) -> None:
    port = quiet.port
    status, _headers, _body = ask(port, request("/api/presets", "X-Fill: " + "a" * 11_000))
    assert status == 200, "a head within the limit is served"
    # A whole head over the limit in one piece, and one that never ends (the attack: the
    # server read on until it had it all)
    for payload in (
        request("/api/presets", "X-Fill: " + "a" * 13_000),
        b"GET /api/presets HTTP/1.1\r\nHost: x\r\nX-Fill: " + b"a" * 200_000,
    ):
        answer = ask(port, payload)
        assert answer[0] == 431
        assert answer[1]["connection"] == "close"
        error = error_of(answer)
        assert error["code"] == "headers_too_large"
        assert "12000 bytes" in error["message"]
        assert_served(port)


@pytest.mark.slow
def test_more_headers_than_the_limit_are_refused_with_431(quiet: Server) -> None:
    port = quiet.port
    allowed = [f"X-Item-{index}: {index}" for index in range(17)]  # 20 with Host, Connection
    status, _headers, _body = ask(port, request("/api/presets", *allowed, close=True))
    assert status == 200
    too_many = [f"X-Item-{index}: {index}" for index in range(25)]
    answer = ask(port, request("/api/presets", *too_many, close=True))
    assert answer[0] == 431
    error = error_of(answer)
    assert error == {
        "type": "error",
        "code": "headers_too_large",
        "message": "requests are limited to 20 headers",
    }
    assert_served(port)


@pytest.mark.slow
def test_a_head_not_sent_whole_within_header_seconds_is_closed(quiet: Server) -> None:
    with connect(quiet.port) as sock:
        sock.sendall(b"GET /api/presets HTTP/1.1\r\nHost: x\r\n")
        waited = seconds_until_closed(sock)
    assert 0.7 <= waited <= 3.0, waited
    # A head that keeps coming, a line at a time, is closed just the same
    with connect(quiet.port) as sock:
        sock.sendall(b"GET /api/presets HTTP/1.1\r\nHost: x\r\n")
        waited = seconds_until_closed(sock, keep_sending=True)
    assert 0.7 <= waited <= 3.0, waited
    assert_served(quiet.port)


@pytest.mark.slow
def test_an_idle_kept_alive_connection_is_closed(quiet: Server) -> None:
    with connect(quiet.port) as sock:
        for _ in range(2):  # kept alive between requests while it asks in time
            sock.sendall(request())
            status, headers, _body = read_answer(sock)
            assert status == 200
            assert headers.get("connection") != "close"
        waited = seconds_until_closed(sock)
    assert 0.7 <= waited <= 3.0, waited
    # After a request it has to send the next head within header_seconds too
    with connect(quiet.port) as sock:
        sock.sendall(request())
        assert read_answer(sock)[0] == 200
        sock.sendall(b"GET /api/presets HTTP/1.1\r\n")
        waited = seconds_until_closed(sock, keep_sending=True)
    assert 0.7 <= waited <= 3.0, waited


def test_a_request_line_that_is_not_http_is_refused_with_400_json(quiet: Server) -> None:
    answer = ask(quiet.port, b"GET /room/\xff HTTP/1.1\r\nHost: x\r\n\r\n")
    assert answer[0] == 400
    assert error_of(answer)["code"] == "bad_request"
    assert_served(quiet.port)


@pytest.mark.slow
@pytest.mark.parametrize("path", ["/api/scorepad", "/api/rooms"])
def test_a_client_gone_in_the_middle_of_its_body_is_no_error(quiet: Server, path: str) -> None:
    """A body promised 1000 bytes long, a few sent, then the client goes: nothing to answer,
    and nothing for the server's log (the fixture fails the test on a traceback)."""
    with connect(quiet.port) as sock:
        # "Expect: 100-continue" has the server say when its handler first asks for the
        # body: the bytes sent with the head are read by then, and it waits for the rest.
        sock.sendall(
            f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            'Content-Length: 1000\r\nExpect: 100-continue\r\n\r\n{"a":'.encode()
        )
        assert read_head(sock).startswith(b"HTTP/1.1 100 ")
        sock.shutdown(socket.SHUT_WR)  # gone: the server reads the end of the stream...
        assert sock.recv(4096) == b""  # ...and closes the connection, answering nothing
    assert_served(quiet.port)


# -- request bodies ----------------------------------------------------------------------------


_addresses = itertools.count(1)


def fresh_address() -> str:
    """A loopback address no test has used on the module's server (which keeps counting
    each address's slow bodies across tests)."""
    number = next(_addresses)
    return f"127.0.{5 + number // 250}.{1 + number % 250}"


def post_head(length: int, path: str = "/api/rooms") -> bytes:
    return (
        f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        f"Content-Length: {length}\r\n\r\n"
    ).encode()


def refused_body(sock: socket.socket, started: float) -> tuple[float, dict[str, Any]]:
    """The seconds from ``started`` to the server's refusal on ``sock``, and its error."""
    answer = read_answer(sock)
    assert answer[0] == 408, answer
    return time.monotonic() - started, error_of(answer)


@pytest.mark.slow
def test_a_stalled_body_is_refused_with_408_at_once(quiet: Server) -> None:
    """One byte of a promised 200, then nothing: refused after the first second (the rate),
    not at the whole body's deadline."""
    source1 = fresh_address()
    with connect(quiet.port, source1) as sock:
        sock.sendall(post_head(200))
        started = time.monotonic()
        sock.sendall(b"{")
        waited, error = refused_body(sock, started)
        assert error["code"] == "body_too_slow"
        assert "1000 bytes a second" in error["message"]
        assert seconds_until_closed(sock) < 2.0
    assert 0.8 <= waited <= 1.8, waited
    assert_served(quiet.port, source1)


def trickle(port: int, piece: bytes, every: float) -> tuple[float, dict[str, Any]]:
    """Promise a 60,000-byte body and send ``piece`` every ``every`` seconds until the server
    answers; the seconds from the head to its refusal, and the refusal."""
    with connect(port, fresh_address()) as sock:
        sock.sendall(post_head(60_000))
        started = time.monotonic()
        sock.settimeout(every)
        answer = b""
        while not answer and time.monotonic() - started < WAIT:
            try:
                sock.sendall(piece)
                answer = sock.recv(65536, socket.MSG_PEEK)
            except TimeoutError:
                continue
        return refused_body(sock, started)


@pytest.mark.slow
def test_a_trickled_body_is_refused_at_the_rate_or_the_deadline(quiet: Server) -> None:
    # A byte every 0.2 s: far under the rate, refused at the first second
    waited, error = trickle(quiet.port, b" ", 0.2)
    assert error["code"] == "body_too_slow"
    assert 0.8 <= waited <= 1.8, waited
    # Fast enough for the rate (1,500 bytes a second), but not whole within body_seconds
    waited, error = trickle(quiet.port, b" " * 150, 0.1)
    assert error["code"] == "body_too_slow"
    assert "within 2 s" in error["message"]
    assert 1.8 <= waited <= 3.0, waited


@pytest.mark.slow
def test_a_body_sent_in_time_is_read(quiet: Server) -> None:
    """A body that comes in pieces, each in time, is read as usual (the room is made)."""
    body = json.dumps({"nickname": "Ana", "seats": ["person", "person"]}).encode()
    with connect(quiet.port, fresh_address()) as sock:
        sock.sendall(post_head(len(body)))
        for piece in (body[:10], body[10:20], body[20:]):
            time.sleep(0.3)
            sock.sendall(piece)
        status, _headers, answer = read_answer(sock)
    assert status == 201, answer
    assert json.loads(answer)["room"]


@pytest.mark.slow
def test_an_address_that_sends_slow_bodies_again_and_again_is_barred(quiet: Server) -> None:
    """Past slow_bodies_per_address (2 here) slow bodies in a minute, an address's new
    connections are refused with 429 at once; other addresses are served."""
    source = fresh_address()
    for _ in range(3):
        with connect(quiet.port, source) as sock:
            sock.sendall(post_head(100) + b"{")
            refused_body(sock, time.monotonic())
    with connect(quiet.port, source) as sock:
        answer = read_answer(sock)
        assert answer[0] == 429
        error = error_of(answer)
        assert error["code"] == "too_many_slow_bodies"
        assert "3 request bodies too slowly" in error["message"]
    assert_served(quiet.port, fresh_address())


# -- forwarding headers ------------------------------------------------------------------------


def create_from(port: int, forwarded: str | None, source: str = "127.0.0.1") -> int:
    """Create a room from ``source`` with ``X-Forwarded-For: forwarded``; the status."""
    body = json.dumps({"nickname": "Ana", "seats": ["person", "person"]}).encode()
    headers = "" if forwarded is None else f"X-Forwarded-For: {forwarded}\r\n"
    head = (
        f"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        f"{headers}Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    ).encode()
    status, _headers, answer = ask(port, head + body, source)
    assert status in (201, 429), answer
    if status == 429:
        assert error_of((status, _headers, answer))["code"] == "too_many_rooms"
    return status


@pytest.mark.slow
def test_a_client_cannot_choose_its_address_by_a_forwarding_header(tmp_path: Path) -> None:
    """Without a trusted proxy, X-Forwarded-For is ignored: rooms are counted against the
    socket's address whatever the header says (uvicorn alone would believe it from
    127.0.0.1)."""
    with running_server(tmp_path, {"rooms_per_address": 3}) as running:
        statuses = [create_from(running.port, f"10.7.0.{i}") for i in range(5)]
        assert statuses == [201, 201, 201, 429, 429]
        assert create_from(running.port, None, "127.0.0.2") == 201  # another socket address
        assert "Traceback" not in running.log.read_text()


@pytest.mark.slow
def test_behind_a_trusted_proxy_the_address_it_saw_counts(tmp_path: Path) -> None:
    """With --forwarded-allow-ips 127.0.0.1, the rightmost X-Forwarded-For address (the one
    the proxy saw) is the client: what a client wrote before it counts for nothing, and a
    client that is not a trusted proxy is still its socket's address."""
    options = ["--forwarded-allow-ips", "127.0.0.1,10.9.0.0/16"]
    with running_server(tmp_path, {"rooms_per_address": 2}, options) as running:
        port = running.port
        assert create_from(port, "192.0.2.9") == 201
        assert create_from(port, "10.7.0.1, 192.0.2.9") == 201  # a forged entry before it
        assert create_from(port, "10.7.0.2, 192.0.2.9") == 429
        assert create_from(port, "192.0.2.9, 10.9.1.1") == 429  # through two trusted proxies
        assert create_from(port, "192.0.2.10") == 201  # another client of the proxy
        # IPv6 clients count by their /64
        assert create_from(port, "2001:db8:1:2::1") == 201
        assert create_from(port, "2001:db8:1:2::ffff") == 201
        assert create_from(port, "2001:db8:1:2:3::9") == 429
        # 127.0.0.2 is no trusted proxy: its header is ignored, its own address counts
        assert [create_from(port, f"10.8.0.{i}", "127.0.0.2") for i in range(3)] == [
            201,
            201,
            429,
        ]
        assert "Traceback" not in running.log.read_text()


@pytest.mark.parametrize("value", ["*", "localhost", "127.0.0.1,nonsense", "10.0.0.0/33"])
def test_a_bad_forwarded_allow_ips_is_one_line_and_exit_code_2(value: str) -> None:
    result = runner.invoke(app, ["serve", "--port", "1", "--forwarded-allow-ips", value])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: --forwarded-allow-ips: "), lines[0]
    assert "is not an IP address or network" in lines[0]


# -- connections -----------------------------------------------------------------------------------


def assert_refused(port: int, source: str, says: str) -> None:
    """A new connection from ``source`` is answered 503 before it sends anything, then
    closed."""
    with connect(port, source) as sock:
        answer = read_answer(sock)
        assert answer[0] == 503
        error = error_of(answer)
        assert error["code"] == "too_many_connections"
        assert says in error["message"], error
        assert seconds_until_closed(sock) < 2.0


def test_one_address_may_hold_connections_per_address_websockets_included(
    quiet: Server,
) -> None:
    room = new_room(quiet.port)
    with ExitStack() as stack:
        held = [stack.enter_context(room_socket(quiet, room)) for _ in range(4)]
        assert_refused(quiet.port, "127.0.0.1", "this address")
        assert_served(quiet.port, "127.0.0.9")  # other addresses are still served
        held[0].close()
        eventually_served(quiet.port)  # admitted again once one has ended
        stack.enter_context(eventually(lambda: room_socket(quiet, room)))
        assert_refused(quiet.port, "127.0.0.1", "this address")
    eventually_served(quiet.port)


def test_the_server_holds_at_most_connections_total(quiet: Server) -> None:
    room = new_room(quiet.port)
    with ExitStack() as stack:
        held = [
            stack.enter_context(room_socket(quiet, room, source))
            for source in ("127.0.0.2",) * 3 + ("127.0.0.3",) * 3
        ]
        assert_refused(quiet.port, "127.0.0.4", "the server holds")
        assert_refused(quiet.port, "127.0.0.2", "the server holds")
        held[-1].close()
        eventually_served(quiet.port, "127.0.0.4")
    eventually_served(quiet.port)


def test_a_text_message_that_is_not_utf8_closes_the_socket_with_1007(quiet: Server) -> None:
    room = new_room(quiet.port)
    with room_socket(quiet, room) as websocket:
        websocket.send(b'{"type": "\xff"}', text=True)
        with pytest.raises(ConnectionClosed) as closed:
            for _ in range(10):  # whatever came before the close
                websocket.recv(timeout=WAIT)
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == 1007


def test_a_websocket_handshake_websockets_cannot_read_is_answered(quiet: Server) -> None:
    room = new_room(quiet.port)
    handshake = request(
        f"/ws/rooms/{room}",
        "Upgrade: websocket",
        "Connection: Upgrade",
        f"Sec-WebSocket-Key: {HANDSHAKE_KEY}",
        "Sec-WebSocket-Version: 13",
        "X-Long: " + "a" * 9000,  # within header_bytes, over the websockets library's 8 KiB
    )
    with connect(quiet.port) as sock:
        sock.sendall(handshake)
        answer = read_answer(sock)
        assert answer[0] == 431
        assert error_of(answer)["code"] == "headers_too_large"
        assert seconds_until_closed(sock) < 3.0


def test_frames_sent_right_behind_the_handshake_are_read(quiet: Server) -> None:
    room = new_room(quiet.port)
    handshake = request(
        f"/ws/rooms/{room}",
        "Upgrade: websocket",
        "Connection: Upgrade",
        f"Sec-WebSocket-Key: {HANDSHAKE_KEY}",
        "Sec-WebSocket-Version: 13",
        f"Origin: {quiet.origin}",
        host=f"127.0.0.1:{quiet.port}",
    )
    pong = b'\x81\x0f{"type":"pong"}'  # one unmasked text frame, as the server sends it
    with connect(quiet.port) as sock:
        sock.sendall(handshake + masked_text_frame(b'{"type": "ping"}'))  # one write
        deadline = time.monotonic() + WAIT
        received = b""
        while pong not in received:
            assert time.monotonic() < deadline, f"no pong: {received[-200:]!r}"
            chunk = sock.recv(4096)
            assert chunk, f"closed without a pong: {received[-200:]!r}"
            received += chunk
    assert received.startswith(b"HTTP/1.1 101 ")


# -- shutting down ---------------------------------------------------------------------------------


@pytest.mark.slow
def test_sigterm_ends_the_server_within_seconds_whatever_its_clients_do(
    tmp_path: Path,
) -> None:
    limits: dict[str, float] = {
        "header_seconds": 60,
        "idle_seconds": 60,
        "join_seconds": 60,
        # The app keeps a client that does not read (so uvicorn cannot close its socket)
        "send_backlog": 100_000,
        "send_seconds": 600,
    }
    with running_server(tmp_path, limits) as running, ExitStack() as stack:
        room = new_room(running.port)
        # A WebSocket whose client never reads, not even the handshake's answer, while it
        # asks for far more answers than its small receive buffer takes
        silent = stack.enter_context(socket.socket(socket.AF_INET, socket.SOCK_STREAM))
        silent.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        silent.settimeout(WAIT)
        silent.connect(("127.0.0.1", running.port))
        silent.sendall(
            request(
                f"/ws/rooms/{room}",
                "Upgrade: websocket",
                "Connection: Upgrade",
                f"Sec-WebSocket-Key: {HANDSHAKE_KEY}",
                "Sec-WebSocket-Version: 13",
                f"Origin: {running.origin}",
                host=f"127.0.0.1:{running.port}",  # as the Origin says: a page of this site
            )
        )
        # Not that it reads the answer (it looks, leaving it unread): the server has
        # switched protocols once it has answered
        peek_until(silent, lambda seen: b"\r\n\r\n" in seen)
        silent.sendall(masked_text_frame(b'{"type": "ping"}') * 5000)
        # A head that never ends; a body that never ends, whose handler waits for the rest
        # (it asks for the body: the server says "100 Continue")
        stack.enter_context(connect(running.port)).sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
        body = stack.enter_context(connect(running.port))
        body.sendall(
            b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b'Content-Length: 100\r\nExpect: 100-continue\r\n\r\n{"nickname": '
        )
        assert read_head(body).startswith(b"HTTP/1.1 100 ")
        # and a spectator whose handler waits for messages (the server took the connections
        # opened before it first)
        watching = stack.enter_context(room_socket(running, room))
        watching.send(json.dumps({"type": "watch"}))
        assert json.loads(watching.recv(timeout=WAIT))["type"] == "welcome"
        # The server answers the flood: far more answers than the silent socket takes
        peek_until(silent, lambda seen: b'{"type":"pong"}' in seen)
        assert running.process.poll() is None
        start = time.monotonic()
        running.process.send_signal(signal.SIGTERM)
        try:
            running.process.wait(timeout=8)
        except subprocess.TimeoutExpired:
            pytest.fail("the server was still running 8 s after SIGTERM")
        took = time.monotonic() - start
    assert took < 8
    assert "Traceback" not in running.log.read_text(errors="replace")


# -- the serve command's errors ------------------------------------------------------------------

runner = CliRunner(env={"COLUMNS": "200", "NO_COLOR": "1"})


@pytest.mark.parametrize(
    ("option", "said"),
    [
        ("nonsense=3", "--limit: unknown limit 'nonsense'; the limits are: header_bytes, "),
        ("header_bytes=lots", "--limit: header_bytes: must be a whole number, got 'lots'"),
        ("header_bytes=1.5", "--limit: header_bytes: must be a whole number, got '1.5'"),
        ("header_seconds=soon", "--limit: header_seconds: must be a number (of seconds)"),
        ("header_seconds=inf", "--limit: header_seconds: must be a finite number"),
        ("connections_total=0", "--limit: connections_total: must be a positive number"),
        ("header_bytes", "--limit: expected NAME=VALUE"),
    ],
)
def test_a_bad_limit_is_one_line_and_exit_code_2(option: str, said: str) -> None:
    result = runner.invoke(app, ["serve", "--port", "1", "--limit", option])
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"Error: {said}"), lines[0]


@pytest.mark.slow
def test_a_corrupt_database_file_is_one_line_and_exit_code_2(tmp_path: Path) -> None:
    database = tmp_path / "x.db"
    database.write_bytes(bytes(range(256)) * 32)  # the same bytes as random ones, to SQLite
    command = serve_command(free_port(), f"sqlite:///{database}", {})
    done = subprocess.run(command, capture_output=True, timeout=60, check=False)
    assert done.returncode == 2, done
    assert b"playing at" not in done.stdout
    lines = done.stderr.decode().strip().splitlines()
    assert lines == [f"Error: --database: cannot open sqlite:///{database}: file is not a database"]


@pytest.mark.parametrize("origin", ["cards.example.org", "ftp://cards.example.org", "https://x/y"])
def test_a_bad_origin_option_is_one_line_and_exit_code_2(origin: str) -> None:
    result = runner.invoke(app, ["serve", "--port", "1", "--origin", origin])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert lines == [
        f"Error: --origin: not a web origin such as https://cards.example.org: {origin!r}"
    ]


@pytest.mark.parametrize(
    ("site", "said"),
    [
        ("192.0.2.7", "passkeys need a host name, not an address"),
        ("https://play.example.org", "not a host name such as play.example.org"),
        ("play.example.org:8000", "not a host name such as play.example.org"),
    ],
)
def test_a_bad_passkey_site_is_one_line_and_exit_code_2(site: str, said: str) -> None:
    result = runner.invoke(app, ["serve", "--port", "1", "--passkey-site", site])
    assert result.exit_code == 2, result.output
    assert result.stderr.strip().splitlines() == [f"Error: --passkey-site: {said}: {site!r}"]


def test_passkeys_are_made_for_the_passkey_site_given(tmp_path: Path) -> None:
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'x.db'}", passkey_site="cards.test")
    with TestClient(create_app(settings)) as client:
        started = client.post("/api/account/passkeys/options", json={"username": "Ana"})
        assert started.json()["options"]["rp"]["id"] == "cards.test"


@pytest.mark.slow
def test_behind_a_trusted_tls_proxy_the_session_cookie_is_secure(tmp_path: Path) -> None:
    """The proxy's X-Forwarded-Proto says the visitor came over HTTPS: the session cookie is
    Secure; from anyone else the header counts for nothing."""
    body = {"username": "Ana", "password": "a long enough secret"}
    https = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "192.0.2.9"}
    options = ["--forwarded-allow-ips", "127.0.0.1"]
    with running_server(tmp_path / "proxied", {}, options) as running:
        base = f"http://127.0.0.1:{running.port}"
        made = httpx.post(base + "/api/account/register", json=body, headers=https)
        assert made.status_code == 201, made.text
        assert "; Secure" in made.headers["set-cookie"]
    with running_server(tmp_path / "direct", {}, []) as running:
        base = f"http://127.0.0.1:{running.port}"
        made = httpx.post(base + "/api/account/register", json=body, headers=https)
        assert made.status_code == 201, made.text
        assert "Secure" not in made.headers["set-cookie"]


@pytest.mark.slow
def test_a_port_in_use_is_said_before_playing_at(tmp_path: Path) -> None:
    """A port another program listens on: one line, exit code 2, and no "playing at"."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        command = serve_command(port, f"sqlite:///{tmp_path / 'x.db'}", {})
        done = subprocess.run(command, capture_output=True, timeout=60, check=False)
    assert done.returncode == 2, done
    assert b"playing at" not in done.stdout
    assert done.stderr.decode().strip().splitlines() == [
        f"Error: --port: {port} is in use on 127.0.0.1: stop what uses it, or choose another port"
    ]
