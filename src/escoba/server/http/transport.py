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
* a request's body must come whole within ``body_seconds`` of its head, and at
  ``body_rate`` bytes a second on average from its first second on; one that trickles or
  stalls is answered ``408`` (``body_too_slow``), and an address with more than
  ``slow_bodies_per_address`` such bodies in a minute has its new connections answered
  ``429`` (``too_many_slow_bodies``) until the minute is over;
* a request that is not HTTP/1.1 is answered ``400`` (``bad_request``); a WebSocket text
  frame that is not UTF-8 closes its socket (1007) without a traceback in the log;
* a client that stops reading what it is sent is dropped after ``send_seconds``, and on
  shutdown every connection is ended within seconds, whatever its client or handler does.

The client's address is the socket's: ``X-Forwarded-For`` is read only from the proxies the
operator names (:class:`TrustedProxies`, ``escoba serve --forwarded-allow-ips``), and then
only the address the trusted proxy itself saw counts (the rightmost one it did not add
itself). A trusted proxy's connections are not capped per address (it carries every
client's); the app's limits count the clients it names.

Every refusal here is ``{"type": "error", "code": ..., "message": ...}`` with
``Connection: close``; the connection then takes what the client still sends, without
reading it, for a moment (so that the client gets the answer rather than a reset) and ends.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable
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
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
from websockets.server import ServerProtocol

from ..config import Limits
from ..protocol import ErrorMessage

__all__ = [
    "GRACE_SECONDS",
    "LINGER_SECONDS",
    "WS_MAX_BYTES",
    "Admission",
    "ConnectionGate",
    "HttpProtocol",
    "ServerConfig",
    "TrustedProxies",
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

SLOW_WINDOW_SECONDS: Final = 60.0
"""Bodies refused as too slow are counted against their address over this long."""

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


IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network


class TrustedProxies:
    """The proxies whose ``X-Forwarded-For`` the server believes: addresses and networks
    (``127.0.0.1``, ``10.0.0.0/8``, ``::1``); none by default, so that no client can choose
    the address its limits are counted by.

    >>> proxies = TrustedProxies(["127.0.0.1", "10.0.0.0/8"])
    >>> proxies.trusts("10.1.2.3"), proxies.trusts("192.0.2.1"), proxies.trusts(None)
    (True, False, False)
    >>> TrustedProxies(["*"])
    Traceback (most recent call last):
    ...
    ValueError: '*' is not an IP address or network (such as 127.0.0.1 or 10.0.0.0/8)
    """

    def __init__(self, items: Iterable[str] = ()) -> None:
        networks: list[IPNetwork] = []
        for item in items:
            text = item.strip()
            try:
                networks.append(ipaddress.ip_network(text, strict=False))
            except ValueError:
                raise ValueError(
                    f"{text!r} is not an IP address or network (such as 127.0.0.1 or 10.0.0.0/8)"
                ) from None
        self.networks: tuple[IPNetwork, ...] = tuple(networks)

    def __bool__(self) -> bool:
        return bool(self.networks)

    def trusts(self, host: str | None) -> bool:
        """Whether a connection from ``host`` comes from a trusted proxy."""
        if not host or not self.networks:
            return False
        try:
            address = ipaddress.ip_address(host.partition("%")[0])
        except ValueError:
            return False
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
            address = address.ipv4_mapped
        return any(address in network for network in self.networks)

    def as_uvicorn(self) -> list[str]:
        """The list uvicorn's proxy-headers middleware takes."""
        return [str(network) for network in self.networks]


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
    slow_per_address: int = 8
    clock: Callable[[], float] = time.monotonic
    open: int = 0
    by_address: Counter[str] = field(default_factory=Counter)
    lingering: int = 0
    """Refused connections still taking their answer; at most ``total`` of them."""
    slow: dict[str, deque[float]] = field(default_factory=dict)
    """Per address: when each of its recent bodies was refused as too slow."""

    def admit(self, key: str, *, proxy: bool = False) -> Admission | str:
        """A place for a new connection from ``key`` (a trusted ``proxy``'s are not
        counted per address), or why there is none."""
        if self.open >= self.total:
            return f"the server holds as many connections as it takes ({self.total}); try later"
        if proxy:
            self.open += 1
            return Admission(self, "")
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
        if not key:
            return  # a trusted proxy's
        self.by_address[key] -= 1
        if self.by_address[key] <= 0:
            del self.by_address[key]  # the counter holds only addresses now connected

    def slow_body(self, key: str) -> None:
        """Count a body refused as too slow against ``key``."""
        self._recent_slow(key).append(self.clock())

    def barred(self, key: str) -> str | None:
        """Why ``key`` may not connect now (it sent too many slow bodies lately), or None."""
        recent = self._recent_slow(key)
        if len(recent) <= self.slow_per_address:
            if not recent:
                del self.slow[key]
            return None
        wait = max(1, round(recent[0] + SLOW_WINDOW_SECONDS - self.clock()))
        return (
            f"this address sent {len(recent)} request bodies too slowly in a minute "
            f"(at most {self.slow_per_address}); try again in {wait} s"
        )

    def _recent_slow(self, key: str) -> deque[float]:
        recent = self.slow.setdefault(key, deque())
        oldest = self.clock() - SLOW_WINDOW_SECONDS
        while recent and recent[0] < oldest:
            recent.popleft()
        return recent


class ServerConfig(uvicorn.Config):
    """uvicorn's configuration with the server's limits and its connection gate, which the
    protocols find through the ``config`` uvicorn hands them."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        limits: Limits,
        proxies: TrustedProxies | None = None,
        **options: Any,
    ) -> None:
        self.proxies = proxies or TrustedProxies()
        # uvicorn believes X-Forwarded-For from 127.0.0.1 unless told otherwise: here only
        # from the proxies named, and then only the address the last of them saw
        super().__init__(
            app,
            proxy_headers=bool(self.proxies),
            forwarded_allow_ips=self.proxies.as_uvicorn(),
            **options,
        )
        self.limits = limits
        self.gate = ConnectionGate(
            per_address=limits.connections_per_address,
            total=limits.connections_total,
            slow_per_address=limits.slow_bodies_per_address,
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
        self.proxies = settings.proxies
        self.conn = _Parser(self._check_head, max_head=self.limits.header_bytes)
        self.admission: Admission | None = None
        self.address = ""
        """The address the connection counts against ("" for a trusted proxy's)."""
        self.timers = _Timers(self.loop)
        self.refused = False
        self.lingers = False
        self.body_started: float | None = None
        """When the body being received began (None: no body under way)."""
        self.body_bytes = 0

    # -- a connection's life

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        host = self.client[0] if self.client else None
        proxy = self.proxies.trusts(host)
        self.address = "" if proxy else address_key(host)
        barred = None if proxy else self.gate.barred(self.address)
        if barred is not None:
            self._refuse(429, "too_many_slow_bodies", barred)
            return
        admitted = self.gate.admit(self.address, proxy=proxy)
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
        self._watch_body(len(data))

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

    # -- bodies

    def _watch_body(self, received: int) -> None:
        """Time the body under way: it must be whole within ``body_seconds`` of its head,
        at ``body_rate`` bytes a second on average from its first second on."""
        if self.refused or self.transport.get_protocol() is not self:
            return  # answered already, or a WebSocket now
        if self.conn.their_state is not h11.SEND_BODY:
            if self.body_started is not None:  # whole (or given up): no more to time
                self.body_started = None
                self.timers.stop("body")
                self.timers.stop("body rate")
            return
        if self.body_started is None:
            # The bytes of the packet that ended the head are not counted: a little generous
            self.body_started = self.loop.time()
            self.body_bytes = 0
            self.timers.start("body", self.limits.body_seconds, self._body_too_slow)
            self.timers.start("body rate", 1.0, self._check_body_rate)
        else:
            self.body_bytes += received

    def _check_body_rate(self) -> None:
        if self.body_started is None:
            return
        elapsed = self.loop.time() - self.body_started
        if self.body_bytes < self.limits.body_rate * elapsed:
            self._body_too_slow()
        else:
            self.timers.start("body rate", 1.0, self._check_body_rate)

    def _body_too_slow(self) -> None:
        """Refuse a body that trickles or stalls, and count it against its address."""
        if self.body_started is None or self.refused:
            return
        self.body_started = None
        self.timers.stop("body")
        self.timers.stop("body rate")
        if self.address:
            self.gate.slow_body(self.address)
        cycle = self.cycle
        if self.transport.is_closing() or (cycle is not None and cycle.response_started):
            self.transport.abort()  # answered already, or ending: nothing more to say
            return
        self._refuse(
            408,
            "body_too_slow",
            f"a request's body must come whole within {self.limits.body_seconds:g} s, "
            f"at {self.limits.body_rate} bytes a second at least",
        )


SEND_WINDOW_BITS: Final = 15
SEND_LEVEL: Final = 3
"""How the server compresses what it sends (permessage-deflate): with a window of 2**15
bytes, zlib's largest, at zlib's level 3. A state message repeats most of the one before
it, which a window as large as a message finds whole. With uvicorn's settings (a 4 KiB
window, level 6) a two-player state took 76 us to compress, to 796 bytes; with these 16 us,
to 238 bytes (four players: 197 us to 1,990 bytes, now 45 us to 790). Each connection's
compressor holds 144 KiB instead of 32 KiB. What clients send is read as before."""


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
        if config.ws_per_message_deflate:
            self.conn = ServerProtocol(
                extensions=[
                    ServerPerMessageDeflateFactory(
                        server_max_window_bits=SEND_WINDOW_BITS,
                        client_max_window_bits=12,
                        compress_settings={"memLevel": 5, "level": SEND_LEVEL},
                    )
                ],
                max_size=config.ws_max_size,
                logger=logging.getLogger("uvicorn.error"),
            )
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
    app: ASGIApp,
    *,
    host: str,
    port: int,
    limits: Limits,
    proxies: TrustedProxies | None = None,
    log_level: str = "warning",
) -> uvicorn.Config:
    """The uvicorn configuration to serve ``app`` within ``limits``, believing the
    forwarding headers of ``proxies`` alone; each call has its own connection counts."""
    return ServerConfig(
        app,
        limits=limits,
        proxies=proxies,
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
