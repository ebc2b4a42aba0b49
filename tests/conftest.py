"""Every test gets its own history database, never the user's."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def private_history(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "history.sqlite"
    monkeypatch.setenv("PINSETTER_DB", f"sqlite:///{path}")
    return path
