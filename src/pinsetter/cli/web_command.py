"""`pinsetter serve`: the web app under uvicorn."""

from __future__ import annotations

from typing import Annotated

import typer

from pinsetter.cli.common import DbOpt, app, fail, whole_number


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="address to listen on (127.0.0.1: this machine only)")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port", parser=whole_number(0, 65535))] = 8000,
    db: DbOpt = None,
    origin: Annotated[
        list[str] | None,
        typer.Option(
            help="another web origin allowed to open table WebSockets, e.g. https://bowl.example (repeatable)"
        ),
    ] = None,
) -> None:
    """Serve the web app: play all four games in a browser, host online tables (works offline)."""
    import uvicorn

    from pinsetter.web.app import create_app

    try:
        web = create_app(db, origins=tuple(origin or ()))
    except Exception as exc:  # the history cannot be opened: one line
        fail(f"cannot open the game history {db or ''}: {exc}")
    shown = f"[{host}]" if ":" in host else host
    typer.echo(f"pinsetter: serving on http://{shown}:{port}/ (Ctrl+C stops)")
    try:
        uvicorn.run(web, host=host, port=port, log_level="warning")
    except (OSError, SystemExit) as exc:
        fail(f"cannot serve on {host}:{port}: {exc}")
