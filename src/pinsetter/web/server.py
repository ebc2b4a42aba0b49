"""How the web app runs under uvicorn (`pinsetter serve`, and the tests' real servers): one config for both.

A WebSocket handshake request that `websockets` refuses before reading it whole (an
address over 8192 bytes, its request line limit; a header line over that; more than
128 headers) gets `websockets`' own text/plain 414 or 431 from uvicorn (0.55 and
later; before, it got no answer at all and the client waited forever).
`WebSocketProtocol` answers instead with the API's one-line JSON error, as every
other refusal, and closes the connection.
"""

from __future__ import annotations

from typing import Any

import orjson
import uvicorn
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.datastructures import Headers
from websockets.exceptions import HeaderLineTooLong, RequestLineTooLong, TooManyHeaders
from websockets.http11 import MAX_LINE_LENGTH, Response

from pinsetter.i18n import _

__all__ = ["WebSocketProtocol", "server_config"]

WS_MAX_SIZE = 65536  # bytes of one WebSocket frame (a table's message is at most 4 KiB)


class WebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, answering in JSON a handshake request `websockets` could not read."""

    def handle_handshake_exception(self) -> None:
        refused = self.conn.handshake_exc
        self.conn.data_to_send()  # websockets' own text/plain answer (or none at all): ours instead
        if isinstance(refused, RequestLineTooLong):
            status, reason = 414, "URI Too Long"
            message = _("the address is over {limit} bytes").format(limit=MAX_LINE_LENGTH)
        elif isinstance(refused, (HeaderLineTooLong, TooManyHeaders)):
            status, reason = 431, "Request Header Fields Too Large"
            message = _("the request's headers are too large")
        else:
            status, reason = 400, "Bad Request"
            message = _("not a WebSocket handshake request")
        body = orjson.dumps({"error": message})
        headers = Headers(
            [("Content-Type", "application/json"), ("Content-Length", str(len(body))), ("Connection", "close")]
        )
        self.transport.write(Response(status, reason, headers, body).serialize())
        self.handshake_complete = self.close_sent = True
        self.transport.close()
        self.logger.warning("WebSocket handshake refused (%s): %s", status, refused)


def server_config(app: Any, host: str, port: int, **settings: Any) -> uvicorn.Config:
    """uvicorn's settings for the app: WebSocket frames over 64 KiB refused before they are read, no compression.

    No per-message compression: browsers ask for it, and deflating every seat's state after every
    step cost a third more server CPU per action for a few KB saved (docs/tables.md, Load).
    """
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        ws=WebSocketProtocol,
        ws_max_size=WS_MAX_SIZE,
        ws_per_message_deflate=False,
        **{"log_level": "warning", **settings},
    )
