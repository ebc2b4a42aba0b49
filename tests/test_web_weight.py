"""The page's weight (issue 25): what a browser downloads goes gzipped, versioned and cached.

Not timed: benchmarks/web_weight.py measures the transferred sizes and the board's draw time in Chromium.
"""

from __future__ import annotations

import gzip
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import pinsetter.web
from pinsetter.web.app import create_app, page_texts

STATIC = Path(pinsetter.web.__file__).parent / "static"
MODULES = sorted(str(path.relative_to(STATIC)) for path in STATIC.rglob("*.js"))


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with TestClient(create_app(str(tmp_path_factory.mktemp("weight") / "weight.sqlite"))) as test_client:
        yield test_client


def raw(client: TestClient, path: str, encoding: str = "gzip, deflate, br") -> tuple[dict[str, str], bytes]:
    """The response's headers and its body as sent (still compressed)."""
    with client.stream("GET", path, headers={"accept-encoding": encoding}) as response:
        assert response.status_code == 200, path
        return dict(response.headers), b"".join(response.iter_raw())


def versioned(client: TestClient) -> str:
    found = re.search(r'src="(/static/v/[0-9a-f]{12}/)app\.js"', client.get("/").text)
    assert found, "the page names its modules at a versioned address"
    return found.group(1)


@pytest.mark.parametrize("name", [*MODULES, "style.css"])
def test_scripts_and_styles_go_gzipped_when_asked(client: TestClient, name: str) -> None:
    for prefix in ("/static/", versioned(client)):
        headers, body = raw(client, prefix + name)
        assert headers["content-encoding"] == "gzip" and "accept-encoding" in headers["vary"].lower()
        original = (STATIC / name).read_bytes()
        assert gzip.decompress(body) == original and len(body) < len(original)


@pytest.mark.parametrize("path", ["/", "/api/i18n/ja", "/api/catalog"])
def test_the_page_and_its_catalogs_go_gzipped_when_asked(client: TestClient, path: str) -> None:
    headers, body = raw(client, path)
    assert headers["content-encoding"] == "gzip"
    assert gzip.decompress(body) == client.get(path).content


def test_nothing_is_compressed_for_a_client_that_does_not_ask(client: TestClient) -> None:
    for path in ("/api/i18n/ja", "/static/js/board.js", versioned(client) + "app.js"):
        headers, body = raw(client, path, encoding="identity")
        assert "content-encoding" not in headers and body == client.get(path).content


def test_versioned_files_are_kept_a_year_and_the_rest_revalidated(client: TestClient) -> None:
    """The page's own addresses change with any file's content, so they may be cached for good; the page
    itself and the unversioned addresses are checked with the server each time (a 304 when unchanged)."""
    prefix = versioned(client)
    assert raw(client, prefix + "js/board.js")[0]["cache-control"] == "public, max-age=31536000, immutable"
    assert raw(client, "/")[0]["cache-control"] == "no-cache"
    headers = raw(client, "/static/js/board.js")[0]
    assert headers["cache-control"] == "no-cache"
    again = client.get("/static/js/board.js", headers={"if-none-match": headers["etag"]})
    assert again.status_code == 304
    assert 'href="' + prefix + 'style.css"' in client.get("/").text
    assert client.get(prefix + "../../app.py").status_code == 404


def test_the_version_follows_the_files(client: TestClient, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """An edited file gets a new address at the next page load, without a restart."""
    import shutil

    import pinsetter.web.app as web_app

    copy = tmp_path / "static"
    shutil.copytree(STATIC, copy)
    monkeypatch.setattr(web_app, "STATIC", copy)
    before = web_app.index_page()
    (copy / "style.css").write_text((copy / "style.css").read_text() + "\n/* edited */\n")
    after = web_app.index_page()
    assert before != after and re.sub(r"/v/\w+/", "/v/x/", before) == re.sub(r"/v/\w+/", "/v/x/", after)


def test_the_page_catalog_holds_the_scripts_texts_only(client: TestClient) -> None:
    """Every text the scripts look up is in it (with its translation when there is one), and nothing else."""
    messages = client.get("/api/i18n/ja").json()["messages"]
    texts = page_texts()
    assert set(messages) <= texts and len(messages) >= len(texts) * 0.9
    for source in MODULES:
        for literal in re.findall(r'\bt\("([^"\\{]+)"\)', (STATIC / source).read_text(encoding="utf-8")):
            assert literal in texts, (source, literal)
