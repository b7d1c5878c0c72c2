"""What a page needs to run the engine itself (games/web/engine_files.py): ``engine.zip`` holds
exactly the engine's plain sources, ``words.zip`` the pages' refusal code, the catalogues Django
reads and every game's words; both are built alike every time (their digest is their URL).
Served with their types (``application/wasm`` with DEBUG on and off), cached for a year under a
versioned URL, gzipped where the browser takes it, the same for every reader (no Vary on the
language or the cookie: a sign-in must not download them again); an old digest is gone."""

from __future__ import annotations

import io
import json
import zipfile
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.records.game_types import plugins
from games.web import engine_files, refusals
from tests.paths import ROOT

TYPES = {
    "pyodide.mjs": "text/javascript; charset=utf-8",
    "pyodide.asm.mjs": "text/javascript; charset=utf-8",
    "pyodide.asm.wasm": "application/wasm",
    "python_stdlib.zip": "application/zip",
    "pyodide-lock.json": "application/json",
}


def unzipped(body: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(body)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def test_the_engine_zip_holds_exactly_the_engine_sources() -> None:
    files = unzipped(engine_files.built()["engine.zip"].body)
    engine = ROOT / "scoring" / "engine"
    sources = [ROOT / "scoring" / "__init__.py", *engine.rglob("*.py")]
    assert files == {path.relative_to(ROOT).as_posix(): path.read_bytes() for path in sources}


def test_the_words_zip_holds_the_refusal_code_catalogues_and_words() -> None:
    files = unzipped(engine_files.built()["words.zip"].body)
    modules = {name for name in files if name.endswith(".py")}
    assert modules == {
        "games/__init__.py",
        "games/records/__init__.py",
        "games/records/errors.py",
        "games/records/game_types.py",
        "games/records/i18n.py",
        "games/web/__init__.py",
        "games/web/refusals.py",
        "games/web/browser_check.py",
    }
    for name in modules:
        assert files[name] == (ROOT / name).read_bytes()
    for locale in ("it", "pt_BR"):
        name = f"locale/{locale}/LC_MESSAGES/django.mo"
        assert files[name] == (ROOT / name).read_bytes()
    words = json.loads(files["refusal_words.json"])
    assert words["default"] == settings.LANGUAGE_CODE
    assert set(words["languages"]) == {code for code, _name in settings.LANGUAGES}
    assert words["languages"]["pt-br"]["locale"] == "pt_BR"
    assert words["languages"]["en"]["locale"] is None
    complots = words["languages"]["it"]["games"]["complots"]
    with translation.override("it"):
        vocabulary = refusals.for_game("complots")
        assert complots["words"] == {key: str(word) for key, word in vocabulary.words.items()}
    assert complots["seat_phrases"] == [[p.pattern, p.flags] for p in vocabulary.seat_phrases]
    assert set(words["languages"]["it"]["games"]) == set(plugins())


def test_the_zips_are_built_alike_every_time() -> None:
    before = {name: file.body for name, file in engine_files.built().items()}
    engine_files.built.cache_clear()
    try:
        assert {name: file.body for name, file in engine_files.built().items()} == before
    finally:
        engine_files.built.cache_clear()


@pytest.fixture
def pyodide(skip_or_fail: Any) -> dict[str, Any]:
    installed = engine_files.pyodide_installed()
    if installed is None:
        skip_or_fail("Pyodide is not in var/pyodide (make pyodide)")
    assert installed is not None
    return installed


def manifest(client: Client) -> dict[str, Any]:
    response = client.get(reverse("web:engine-manifest"))
    assert response.status_code == 200
    assert response["Cache-Control"] == "no-cache"
    assert (
        client.get(reverse("web:engine-manifest"), HTTP_IF_NONE_MATCH=response["ETag"]).status_code
        == 304
    )
    found: dict[str, Any] = json.loads(response.content)
    return found


@pytest.mark.parametrize("debug", [True, False])
def test_the_files_are_served_typed_versioned_and_the_same_for_everyone(
    pyodide: dict[str, Any], settings: Any, debug: bool
) -> None:
    settings.DEBUG = debug
    client = Client(HTTP_ACCEPT_LANGUAGE="it")
    client.cookies["django_language"] = "pt-br"
    found = manifest(client)
    assert found["pyodide"] == f"/engine/pyodide/{pyodide['version']}/"
    for name, content_type in TYPES.items():
        response = client.get(found["pyodide"] + name, HTTP_ACCEPT_ENCODING="gzip, br")
        assert response.status_code == 200, name
        assert response["Content-Type"] == content_type
        assert response["Cache-Control"] == "public, max-age=31536000, immutable"
        assert response["Vary"] == "Accept-Encoding"
        assert "Content-Language" not in response
        body = b"".join(response.streaming_content)
        gzipped = "gzip_bytes" in pyodide["files"][name]
        assert response.get("Content-Encoding") == ("gzip" if gzipped else None), name
        assert len(body) == pyodide["files"][name]["gzip_bytes" if gzipped else "bytes"]
    plain = client.get(found["pyodide"] + "pyodide.asm.wasm")
    assert "Content-Encoding" not in plain
    assert b"".join(plain.streaming_content)[:4] == b"\0asm"
    for name in ("engine.zip", "words.zip"):
        response = client.get(found[name])
        assert response.status_code == 200
        assert response["Content-Type"] == "application/zip"
        assert response["Cache-Control"] == "public, max-age=31536000, immutable"
        assert "Vary" not in response
        assert response.content == engine_files.built()[name].body


@pytest.mark.django_db  # the not-found page
@pytest.mark.parametrize(
    "url",
    [
        "/engine/files/0123456789abcdef/engine.zip",
        "/engine/files/{digest}/other.zip",
        "/engine/pyodide/0.26.0/pyodide.mjs",
        "/engine/pyodide/{version}/pyodide.js",
        "/engine/pyodide/{version}/installed.json",
    ],
)
def test_what_is_not_served_is_not_found(pyodide: dict[str, Any], url: str) -> None:
    digest = engine_files.built()["engine.zip"].digest
    response = Client().get(url.format(digest=digest, version=pyodide["version"]))
    assert response.status_code == 404
