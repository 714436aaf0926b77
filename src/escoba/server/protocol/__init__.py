"""The JSON protocol between the browser and the server, as typed message models.

Both the server and the tests build and read messages through these models; `docs/protocol.md`
describes them for client authors. Every message is a JSON object with a ``type``.

Client to server, over the room's WebSocket: ``join``, ``watch``, ``play``, ``take_back``,
``hint``, ``rematch``, ``ping``. Server to client: ``welcome``, ``state``, ``hint``, ``error``,
``pong``.
Over HTTP: room creation and joining, room info, presets, finished matches and replays, the
cheat sheet. A refusal is always an ``error`` message (over HTTP, with a 4xx status).
"""

from .messages import *  # noqa: F403  (the messages and the views are the protocol)
from .messages import __all__ as _messages
from .views import *  # noqa: F403
from .views import __all__ as _views

__all__ = [*_messages, *_views]  # noqa: PLE0604
