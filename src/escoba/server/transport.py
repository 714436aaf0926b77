"""The HTTP layer under the app: uvicorn on h11, with the connection limits of :class:`Limits`.

:func:`server_config` builds the uvicorn configuration ``escoba serve`` runs. Its protocols
bound what a client can hold before the app sees a request:

* a request's head is refused with ``431`` (``headers_too_large``) past ``header_bytes`` or
  ``header_count`` headers, and a connection that has not sent a whole head within
  ``header_seconds`` of starting one (or of connecting) is closed; so is a kept-alive one
  idle for ``idle_seconds``;
* one client address (an IPv6 /64) may hold ``connections_per_address`` connections and the
  server ``connections_total``, WebSockets included until they end; one more is answered
  ``503`` (``too_many_connections``) as soon as it connects;
* a request that is not HTTP/1.1 is answered ``400`` (``bad_request``); a WebSocket text
  frame that is not UTF-8 closes its socket (1007) without a traceback in the log;
* a client that stops reading what it is sent is dropped after ``send_seconds``, and on
  shutdown every connection is ended within seconds, whatever its client or handler does.

Every refusal here is ``{"type": "error", "code": ..., "message": ...}`` with
``Connection: close``; the connection then takes what the client still sends, without
reading it, for a moment (so that the client gets the answer rather than a reset) and ends.
"""

from __future__ import annotations

import asyncio
import ipaddress
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any, Final

import h11
import uvicorn
from starlette.types import ASGIApp
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState
from websockets.exceptions import (
    HeaderLineTooLong,
    InvalidState,
    RequestLineTooLong,
    TooManyHeaders,
)

from .limits import Limits
from .protocol import ErrorMessage

__all__ = [
    "GRACE_SECONDS",
    "LINGER_SECONDS",
    "WS_MAX_BYTES",
    "Admission",
    "ConnectionGate",
    "HttpProtocol",
    "ServerConfig",
    "WebSocketProtocol",
    "address_key",
    "raise_open_files_limit",
    "server_config",
]

WS_MAX_BYTES: Final = 64 * 1024
"""The largest WebSocket message read; a bigger one closes the socket (1009)."""

GRACE_SECONDS: Final = 3
"""On SIGTERM, handlers get this long to finish before they are cancelled."""

SHUTDOWN_CUT_SECONDS: Final = GRACE_SECONDS - 1
"""On shutdown, a connection still open after this is cut: its handler then ends as on any
disconnect, before the grace is over and it would be cancelled."""

LINGER_SECONDS: Final = 1.0
"""A refused connection stays open this long, its input discarded, before it is cut."""

OPEN_FILES_CAP: Final = 1 << 16
"""The soft limit on open files is raised no higher than this (the hard one may be huge)."""


def address_key(host: str | None) -> str:
    """The client a connection counts against: its IPv4 address, or its IPv6 /64 (one
    machine usually has a whole /64 to pick addresses from).

    >>> address_key("192.0.2.7"), address_key("::ffff:192.0.2.7")
    ('192.0.2.7', '192.0.2.7')
    >>> address_key("2001:db8:1:2:3:4:5:6")
    '2001:db8:1:2::/64'
    """
    if not host:
        return "local"  # a Unix socket: one local client
    try:
        address = ipaddress.ip_address(host.partition("%")[0])
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


@dataclass(eq=False)
class Admission:
    """One admitted connection's place in its gate; released once, when it ends."""

    gate: ConnectionGate
    key: str
    released: bool = False

    def release(self) -> None:
        if not self.released:
            self.released = True
            self.gate.leave(self.key)


@dataclass(eq=False)
class ConnectionGate:
    """The open connections of one server, by client and in all."""

    per_address: int
    total: int
    open: int = 0
    by_address: Counter[str] = field(default_factory=Counter)
    lingering: int = 0
    """Refused connections still taking their answer; at most ``total`` of them."""

    def admit(self, key: str) -> Admission | str:
        """A place for a new connection from ``key``, or why there is none."""
        if self.open >= self.total:
            return f"the server holds as many connections as it takes ({self.total}); try later"
        if self.by_address[key] >= self.per_address:
            return (
                f"this address holds as many connections as one may ({self.per_address}); "
                "close some first"
            )
        self.open += 1
        self.by_address[key] += 1
        return Admission(self, key)

    def leave(self, key: str) -> None:
        self.open -= 1
        self.by_address[key] -= 1
        if self.by_address[key] <= 0:
            del self.by_address[key]  # the counter holds only addresses now connected


class ServerConfig(uvicorn.Config):
    """uvicorn's configuration with the server's limits and its connection gate, which the
    protocols find through the ``config`` uvicorn hands them."""

    def __init__(self, app: ASGIApp, *, limits: Limits, **options: Any) -> None:
        super().__init__(app, **options)
        self.limits = limits
        self.gate = ConnectionGate(
            per_address=limits.connections_per_address, total=limits.connections_total
        )


def _settings(config: uvicorn.Config) -> ServerConfig:
    if not isinstance(config, ServerConfig):
        raise TypeError("the escoba protocols need the ServerConfig of server_config()")
    return config


def _refusal(status: int, code: str, message: str) -> bytes:
    """A whole HTTP response refusing the request, written as is (before h11 has a request
    to answer, or after it gave up on one)."""
    body = ErrorMessage(code=code, message=message).model_dump_json().encode()
    head = (
        f"HTTP/1.1 {status} {HTTPStatus(status).phrase}\r\n"
        "content-type: application/json\r\n"
        f"content-length: {len(body)}\r\n"
        "x-content-type-options: nosniff\r\n"
        "connection: close\r\n\r\n"
    )
    return head.encode("ascii") + body


class _HeadRefused(h11.RemoteProtocolError):
    """A complete request head over the limits (its message says which)."""


class _Parser(h11.Connection):
    """h11's server side, which also checks each complete request head against the limits
    (h11 bounds only a head still arriving: one that comes whole in a read passes) and
    keeps the last parsing error, so that the answer can say what it was."""

    def __init__(self, on_head: Callable[[h11.Request], None], *, max_head: int) -> None:
        super().__init__(h11.SERVER, max_incomplete_event_size=max_head)
        self.on_head = on_head
        self.failure: h11.RemoteProtocolError | None = None

    def next_event(self) -> h11.Event | type[h11.NEED_DATA] | type[h11.PAUSED]:
        try:
            event = super().next_event()
            if isinstance(event, h11.Request):
                self.on_head(event)
        except h11.RemoteProtocolError as error:
            self.failure = error
            raise
        return event


def _head_size(request: h11.Request) -> int:
    """The bytes of a head as sent, give or take the spaces h11 strips."""
    line = len(request.method) + len(request.target) + len(b"  HTTP/1.1\r\n")
    return line + sum(len(name) + len(value) + 4 for name, value in request.headers) + 2


class _Timers:
    """The one-shot timers of a connection, by name, all cancelled when it ends."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.handles: dict[str, asyncio.TimerHandle] = {}

    def start(self, name: str, delay: float, callback: Callable[[], None]) -> None:
        self.stop(name)

        def fire() -> None:
            del self.handles[name]
            callback()

        self.handles[name] = self.loop.call_later(delay, fire)

    def stop(self, name: str) -> None:
        handle = self.handles.pop(name, None)
        if handle is not None:
            handle.cancel()

    def running(self, name: str) -> bool:
        return name in self.handles

    def stop_all(self) -> None:
        for handle in self.handles.values():
            handle.cancel()
        self.handles.clear()

    def cut_later(self, transport: asyncio.Transport, delay: float) -> None:
        """Cut the connection in ``delay`` seconds, unless it has ended by then: a
        transport that is only closed stays open while its client does not read what is
        left to send."""
        if not self.running("cut"):
            self.start("cut", delay, transport.abort)


class _StallGuard(asyncio.Protocol):
    """A peer whose send buffer stays full (it stopped reading) is cut after
    ``send_seconds``."""

    timers: _Timers
    limits: Limits
    transport: asyncio.Transport

    def pause_writing(self) -> None:
        super().pause_writing()
        self.timers.start("stalled", self.limits.send_seconds, self.transport.abort)

    def resume_writing(self) -> None:
        super().resume_writing()
        self.timers.stop("stalled")


class HttpProtocol(_StallGuard, H11Protocol):
    """uvicorn's h11 protocol, with the limits of :class:`Limits` on heads and
    connections."""

    def __init__(
        self,
        config: uvicorn.Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        settings = _settings(config)
        self.limits = settings.limits
        self.gate = settings.gate
        self.conn = _Parser(self._check_head, max_head=self.limits.header_bytes)
        self.admission: Admission | None = None
        self.timers = _Timers(self.loop)
        self.refused = False
        self.lingers = False

    # -- a connection's life

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        host = self.client[0] if self.client else None
        admitted = self.gate.admit(address_key(host))
        if isinstance(admitted, str):
            self._refuse(503, "too_many_connections", admitted)
            return
        self.admission = admitted
        self.timers.start("head", self.limits.header_seconds, self._head_timed_out)

    def connection_lost(self, exc: Exception | None) -> None:
        self.timers.stop_all()
        if self.lingers:
            self.lingers = False
            self.gate.lingering -= 1
        if self.admission is not None:
            self.admission.release()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.refused:
            return  # answered already: what else comes is not read
        if self.conn.their_state is h11.IDLE and not self.timers.running("head"):
            # A new request begins: its head must be whole in time, however slowly it comes
            self.timers.start("head", self.limits.header_seconds, self._head_timed_out)
        super().data_received(data)

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        super().handle_websocket_upgrade(event)
        successor = self.transport.get_protocol()
        if isinstance(successor, WebSocketProtocol):
            # The connection lives on in the WebSocket protocol, which releases its place
            successor.admission, self.admission = self.admission, None
            early, _closed = self.conn.trailing_data
            if early:
                # Frames sent right behind the handshake, read with it: uvicorn drops them
                successor.data_received(early)
        self.timers.stop_all()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self.transport.is_closing():  # closed after this answer, which may never be read
            self.timers.cut_later(self.transport, self.limits.send_seconds)

    def timeout_keep_alive_handler(self) -> None:
        super().timeout_keep_alive_handler()
        self.timers.cut_later(self.transport, self.limits.send_seconds)

    def shutdown(self) -> None:
        try:
            super().shutdown()
        except h11.LocalProtocolError:
            self.transport.close()  # between h11's states: no goodbye to say, just go
        self.timers.cut_later(self.transport, SHUTDOWN_CUT_SECONDS)

    # -- refusals

    def _check_head(self, request: h11.Request) -> None:
        self.timers.stop("head")
        if len(request.headers) > self.limits.header_count:
            message = f"requests are limited to {self.limits.header_count} headers"
            raise _HeadRefused(message, error_status_hint=431)
        if _head_size(request) > self.limits.header_bytes:
            raise _HeadRefused(self._head_bytes_message(), error_status_hint=431)

    def _head_bytes_message(self) -> str:
        return (
            "a request's head (its request line and headers) is limited to "
            f"{self.limits.header_bytes} bytes"
        )

    def send_400_response(self, msg: str) -> None:
        # uvicorn's answer to every parsing error, a plain-text 400: ours tells them apart
        failure = self.conn.failure if isinstance(self.conn, _Parser) else None
        if isinstance(failure, _HeadRefused):
            self._refuse(431, "headers_too_large", str(failure))
        elif failure is not None and failure.error_status_hint == 431:
            self._refuse(431, "headers_too_large", self._head_bytes_message())  # h11's own
        else:
            detail = f" ({str(failure)[:100]})" if failure is not None else ""
            self._refuse(400, "bad_request", f"not a valid HTTP/1.1 request{detail}")

    def _refuse(self, status: int, code: str, message: str) -> None:
        """Answer ``status`` and end the connection: at once if too many refused ones are
        still open, else after the client has had a moment to read the answer."""
        self.refused = True
        self.timers.stop_all()
        self._unset_keepalive_if_required()
        self.connections.discard(self)  # nothing of it is left to serve or shut down
        if self.admission is not None:
            self.admission.release()
        if self.gate.lingering >= self.gate.total:
            self.transport.abort()
            return
        self.gate.lingering += 1
        self.lingers = True
        self.transport.write(_refusal(status, code, message))
        if self.transport.can_write_eof():
            self.transport.write_eof()  # done sending; reading (and discarding) goes on
        else:
            self.transport.close()
        self.timers.cut_later(self.transport, LINGER_SECONDS)

    def _head_timed_out(self) -> None:
        if self.conn.their_state is h11.IDLE:
            self.transport.abort()


class WebSocketProtocol(_StallGuard, WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol (on the websockets library's sans-I/O core), which
    holds its connection's place in the gate until it ends, answers a handshake that
    websockets cannot parse, and closes on text that is not UTF-8 without logging a
    traceback."""

    def __init__(
        self,
        config: uvicorn.Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.limits = _settings(config).limits
        self.admission: Admission | None = None
        self.timers = _Timers(self.loop)

    def connection_lost(self, exc: Exception | None) -> None:
        self.timers.stop_all()
        if self.admission is not None:
            self.admission.release()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.handshake_exc is not None and not self.handshake_initiated:
            # Before uvicorn 0.55, nothing answered or closed a handshake websockets refused
            self._refuse_handshake()

    def handle_handshake_exception(self) -> None:
        # uvicorn 0.55 and later: answer with our JSON refusal, not websockets' plain text
        self.handshake_complete = True
        self._refuse_handshake()

    def _refuse_handshake(self) -> None:
        """Answer a handshake websockets refused before uvicorn saw a request (a header line
        over 8 KiB, say) with the JSON refusal every other answer uses, and close."""
        failure = self.conn.handshake_exc
        if failure is None or self.close_sent:
            return
        self.close_sent = True
        self.conn.data_to_send()  # its own plain-text answer, not sent
        too_large = (HeaderLineTooLong, TooManyHeaders, RequestLineTooLong)
        if isinstance(failure, too_large):
            answer = _refusal(431, "headers_too_large", f"WebSocket handshake: {failure}")
        else:
            answer = _refusal(400, "bad_request", f"WebSocket handshake: {failure}")
        self.transport.write(answer)
        self.transport.close()
        self.timers.cut_later(self.transport, LINGER_SECONDS)

    def send_receive_event_to_app(self) -> None:
        if self.curr_msg_data_type == "text" and not self.close_sent:
            try:
                b"".join(self.frames).decode()
            except UnicodeDecodeError:
                # RFC 6455 8.1: invalid UTF-8 in a text message fails the connection (1007)
                self.frames = []
                try:
                    self.conn.send_close(1007, "text messages must be UTF-8")
                except InvalidState:
                    self.transport.close()
                    return
                self.handle_parser_exception()
                return
        super().send_receive_event_to_app()

    def shutdown(self) -> None:
        super().shutdown()
        self.timers.cut_later(self.transport, SHUTDOWN_CUT_SECONDS)


def server_config(
    app: ASGIApp, *, host: str, port: int, limits: Limits, log_level: str = "warning"
) -> uvicorn.Config:
    """The uvicorn configuration to serve ``app`` within ``limits``; each call has its own
    connection counts."""
    return ServerConfig(
        app,
        limits=limits,
        host=host,
        port=port,
        log_level=log_level,
        http=HttpProtocol,
        ws=WebSocketProtocol,
        h11_max_incomplete_event_size=limits.header_bytes,
        # uvicorn annotates whole seconds but only hands them to call_later
        timeout_keep_alive=limits.idle_seconds,
        # The gate refuses first; this only catches connections it does not count
        limit_concurrency=limits.connections_total + 1,
        backlog=min(2048, max(128, limits.connections_total)),
        ws_max_size=WS_MAX_BYTES,
        ws_ping_interval=limits.ping_seconds,
        ws_ping_timeout=limits.ping_seconds,
        timeout_graceful_shutdown=GRACE_SECONDS,
    )


def raise_open_files_limit(cap: int = OPEN_FILES_CAP) -> int | None:
    """Raise this process's soft limit on open files to its hard limit, but no higher than
    ``cap`` (never lowering it); the soft limit now, or None where there is none."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not on Unix
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = cap if hard == resource.RLIM_INFINITY else min(hard, cap)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        except (ValueError, OSError):
            return soft
        return wanted
    return soft
