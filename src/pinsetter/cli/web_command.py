"""`pinsetter serve`: the web app under uvicorn."""

from __future__ import annotations

import gc
import logging
import socket
import threading
from typing import Annotated
from urllib.parse import urlsplit

import typer

from pinsetter.cli.common import DbOpt, app, fail, whole_number
from pinsetter.i18n import N_, _
from pinsetter.usertext import visible

GC_YOUNG = 10_000  # allocations between collections of the youngest objects (CPython's default: 700)


@app.command()
def serve(
    host: Annotated[str, typer.Option(help=N_("address to listen on (127.0.0.1: this machine only)"))] = "127.0.0.1",
    port: Annotated[int, typer.Option(help=N_("port"), parser=whole_number(0, 65535))] = 8000,
    db: DbOpt = None,
    origin: Annotated[
        list[str] | None,
        typer.Option(
            help=N_("another web origin allowed to open table WebSockets, e.g. https://bowl.example (repeatable)")
        ),
    ] = None,
) -> None:
    """Serve the web app: play all four games in a browser, host online tables (works offline)."""
    import uvicorn

    from pinsetter.web.app import create_app
    from pinsetter.web.server import server_config

    origins = tuple(_origin(allowed) for allowed in origin or ())
    try:
        web = create_app(db, origins=origins)
    except Exception as exc:  # the history cannot be opened: one line
        fail(_("cannot open the game history {db}: {error}").format(db=db or "", error=exc))
    # Everything loaded so far lives as long as the server: out of the collector's way, so that its
    # full collections stay short (the slowest took ~100 ms with 50 tables at bot speed, ~20 ms after).
    # A step makes many short-lived objects: collecting the young ones every 10,000 allocations
    # (not 700) cut the collector's share of the server's CPU from ~10% to ~2% (docs/tables.md, Load).
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_YOUNG, 10, 10)
    listening = _listen(host, port)  # before saying "serving": a port in use is one clear line, not a log
    start_warming()
    port = listening.getsockname()[1]  # --port 0: the port the system chose
    shown = f"[{host}]" if ":" in host else host or "0.0.0.0"  # "": every interface
    config = server_config(web, host, port)  # the WebSocket limits (docs/tables.md, Threat model)
    try:
        typer.echo(_("pinsetter: serving on {url} (Ctrl+C stops)").format(url=f"http://{shown}:{port}/"))
        uvicorn.Server(config).run(sockets=[listening])
    except KeyboardInterrupt:  # Ctrl+C (uvicorn shuts down cleanly, then re-raises it): a normal stop
        return
    except (OSError, SystemExit) as exc:
        fail(_("cannot serve on {address}: {error}").format(address=f"{host}:{port}", error=exc))


def start_warming() -> threading.Thread:
    """Work out what the end of a game shows (`warm_references`) in the background as the server starts.

    The first finished game of each kind then shows its ending at once instead of computing it
    inside its request, with every table this process serves waiting (docs/tables.md, Load).
    """
    warming = threading.Thread(target=_warm, name="warm-references", daemon=True)
    warming.start()
    return warming


def _warm() -> None:
    """`warm_references`; a failure is logged, and the ending that needs it tries again."""
    try:
        from pinsetter.solvers.reference import warm_references

        warm_references()
    except Exception:
        logging.getLogger(__name__).warning("the references for the ends of games were not worked out", exc_info=True)


def _listen(host: str, port: int) -> socket.socket:
    """A socket bound to the address, or one line saying why not (a port in use, an unknown host)."""
    address = f"{host}:{port}"
    # The address family as uvicorn chooses it: IPv6 only for an IPv6 address, so that `localhost`
    # is 127.0.0.1 even where the system lists ::1 first; "" is every interface, as uvicorn reads it.
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        family, kind, protocol, _name, where = socket.getaddrinfo(
            host or None, port, family=family, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except (socket.gaierror, UnicodeError) as exc:
        fail(_("cannot serve on {address}: no such address ({error})").format(address=address, error=exc))
    listening = socket.socket(family, kind, protocol)
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listening.bind(where)
    except OSError as exc:
        listening.close()
        fail(_("cannot serve on {address}: {error}").format(address=address, error=exc.strerror or exc))
    listening.set_inheritable(True)
    return listening


def _origin(text: str) -> str:
    """An origin as a browser sends it (`https://host`, `http://host:port`: no path, no trailing slash)."""
    try:
        parts = urlsplit(text)
        hostname = parts.hostname
    except ValueError:  # an unclosed `[` (as in an escape sequence), a bad port: no origin at all
        parts, hostname = urlsplit(""), None
    odd = "?" in text or "#" in text or "@" in parts.netloc or parts.netloc != parts.netloc.lower()
    odd = odd or text != visible(text) or any(c.isspace() for c in text)  # escapes, controls, spaces
    if parts.scheme not in ("http", "https") or not hostname or parts.path not in ("", "/") or odd:
        fail(
            _("--origin {value}: expected a web origin such as https://bowl.example").format(value=repr(visible(text)))
        )
    return text.rstrip("/")
