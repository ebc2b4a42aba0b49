"""The test suite writes nothing outside temporary folders (issue item 11).

The solver cache (`PINSETTER_CACHE_DIR`) and the game history (`PINSETTER_DB`)
point into a temporary folder from the first test's setup to the end of the
session, so that no test, nor a worker process it starts (which inherits the
environment), touches the user's cache or data directories. Every test
also gets a history database of its own. Hypothesis keeps no example database
and its caches go to the temporary folder too (by default it writes
`.hypothesis/` into the working tree).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import sqlalchemy as sa
from hypothesis import settings
from hypothesis.configuration import set_hypothesis_home_dir

from api_support import api_client
from pinsetter.i18n import DEFAULT_LANGUAGE, set_language

if TYPE_CHECKING:
    from fastapi.testclient import TestClient

# Set at import: Hypothesis writes its caches while test modules are collected.
HYPOTHESIS_HOME = Path(tempfile.mkdtemp(prefix="pinsetter-hypothesis-"))
set_hypothesis_home_dir(HYPOTHESIS_HOME)
settings.register_profile("pinsetter", database=None)
settings.load_profile("pinsetter")


def pytest_unconfigure(config: pytest.Config) -> None:
    shutil.rmtree(HYPOTHESIS_HOME, ignore_errors=True)


@pytest.fixture(autouse=True, scope="session")
def private_folders(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One temporary home for the session's solver cache and a fallback history."""
    root = tmp_path_factory.mktemp("pinsetter-home")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PINSETTER_CACHE_DIR", str(root / "cache"))
        patch.setenv("MPLCONFIGDIR", str(root / "matplotlib"))
        patch.setenv("PINSETTER_DB", f"sqlite:///{root / 'history.sqlite'}")
        yield root


@pytest.fixture(autouse=True)
def private_history(private_folders: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test's own history database, never the user's nor another test's."""
    path = tmp_path / "history.sqlite"
    monkeypatch.setenv("PINSETTER_DB", f"sqlite:///{path}")
    return path


POSTGRES_DEFAULT = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


@pytest.fixture(params=["en", "ja"])
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    """Each language in turn, English again afterwards: for tests that must hold in every language."""
    set_language(request.param)
    yield request.param
    set_language(DEFAULT_LANGUAGE)


@pytest.fixture
def postgres() -> Iterator[str]:
    """A URL into a fresh schema of the PostgreSQL test server (`PINSETTER_TEST_POSTGRES`), dropped afterwards.

    Without a server the test is skipped with a one-line reason, except under CI=true, where it fails.
    """
    base = os.environ.get("PINSETTER_TEST_POSTGRES", POSTGRES_DEFAULT)
    schema = f"pinsetter_test_{uuid.uuid4().hex[:12]}"
    try:
        engine = sa.create_engine(base)
        with engine.begin() as connection:
            connection.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    except Exception as exc:  # no driver or no server
        if os.environ.get("CI") == "true":
            raise
        shown = sa.make_url(base).render_as_string(hide_password=True)
        pytest.skip(f"no PostgreSQL at {shown}: {str(exc).splitlines()[0]}")
    url = sa.make_url(base).update_query_dict({"options": f"-csearch_path={schema}"})
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with engine.begin() as connection:
            connection.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        engine.dispose()


@pytest.fixture
def db(tmp_path: Path) -> str:
    """A fresh SQLite history for the web app under test."""
    return str(tmp_path / "h.sqlite")


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    """The web app over `db`, with its lifespan running."""
    from fastapi.testclient import TestClient

    from pinsetter.web.app import create_app

    with TestClient(create_app(db)) as test_client:
        yield test_client


# --- the browser pages: one server, one Chromium and one API client per test module ----------------
# A browser test module gets these by naming them; a module that needs another set-up defines its own
# fixture of the same name, which wins over these.


@pytest.fixture(scope="module")
def base(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app under uvicorn in a background thread, over a temporary history of this module's own."""
    from browser_support import served

    name = request.module.__name__.rsplit(".", 1)[-1]
    with served(tmp_path_factory.mktemp(name) / f"{name}.sqlite") as url:
        yield url


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from browser_support import artifacts_folder

    return artifacts_folder(tmp_path_factory)


@pytest.fixture(scope="module")
def driver(base: str) -> Iterator[Any]:
    """Headless Chromium on the front page, bots moving at once."""
    from browser_support import chrome

    browser = chrome()
    browser.get(base + "/#/")
    browser.execute_script("localStorage.setItem('pinsetter.pace', '0')")
    yield browser
    browser.quit()


@pytest.fixture
def api(base: str) -> Iterator[Any]:

    with api_client(base) as client:
        yield client
