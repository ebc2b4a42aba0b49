"""The references scores are measured against, shared by statistics and the end of a game."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pinsetter.solvers.reference import reference


def test_exact_distribution_reference() -> None:
    ref = reference("tenpins")
    assert ref is not None and ref.exact and ref.distribution is not None
    assert ref.mean == pytest.approx(74.47916666666669, abs=1e-9)
    assert ref.beats(0) == 0.0
    assert ref.beats(301) == pytest.approx(1.0, abs=1e-12)
    assert ref.beats(73.2) == pytest.approx(ref.distribution.cdf(73))  # scores 0..73 are below 73.2
    assert reference("tenpins", {"frames": 10}) is ref  # computed once per game and options


def test_optimal_player_reference_follows_the_options() -> None:
    with_tokens, without = reference("rolling-pins"), reference("rolling-pins", {"tokens": False})
    assert with_tokens is not None and without is not None
    assert with_tokens.mean == pytest.approx(145.14355201492685, abs=1e-9)
    assert without.mean == pytest.approx(89.01846055915482, abs=1e-9)
    assert with_tokens.beats(150) is None
    assert reference("rolling-pins", {"advanced": True}) is None


def test_measured_reference_is_not_exact() -> None:
    ref = reference("bowling-solitaire")
    assert ref is not None and not ref.exact and ref.against == "Expert bot"


def test_a_server_works_out_every_game_s_reference_in_the_background_as_it_starts(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`pinsetter serve` asks for each game's reference once, in a thread, before it serves.

    A server's first finished game of each kind then pays nothing for it (docs/tables.md, Load).
    """
    import uvicorn

    from pinsetter.cli import web_command
    from pinsetter.cli.app import app
    from pinsetter.games.registry import GAMES
    from pinsetter.solvers import reference as module

    events: list[str] = []
    asked: list[tuple[str, str]] = []
    served = threading.Event()

    def reference(game_id: str) -> None:
        served.wait(timeout=5)  # a server that waited for the warm-up would serve only after these
        asked.append((game_id, threading.current_thread().name))
        events.append(f"asked {game_id}")

    def run(_server: object, sockets: object = None) -> None:
        events.append("served")
        served.set()

    monkeypatch.setattr(module, "reference", reference)
    threads: list[threading.Thread] = []
    warming = web_command.start_warming

    def start_warming() -> threading.Thread:
        thread = warming()
        threads.append(thread)
        events.append("warming")
        return thread

    monkeypatch.setattr(web_command, "start_warming", start_warming)
    monkeypatch.setattr(uvicorn.Server, "run", run)
    result = CliRunner().invoke(app, ["serve", "--port", "0", "--db", f"sqlite:///{tmp_path / 'h.db'}"])
    assert result.exit_code == 0, result.output
    assert threads[0].daemon
    threads[0].join(timeout=30)
    # Started before serving, and not waited for: every reference is asked for once serving began.
    assert events == ["warming", "served", *(f"asked {game_id}" for game_id in GAMES)]
    assert asked == [(game_id, "warm-references") for game_id in GAMES]
