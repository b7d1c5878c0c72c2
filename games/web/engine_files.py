"""What a page needs to run the rules engine itself (to check an entry where it is made,
offline at the table too), served by the project, never from a CDN:

- Pyodide, as ``make pyodide`` verified it into ``var/pyodide/<version>/`` (``tools/pyodide.py``),
  with a gzip of each file for the browsers that take one;
- ``engine.zip``: the engine's plain sources (``scoring/__init__.py`` and
  ``scoring/engine/**/*.py``, never a compiled ``.so``);
- ``words.zip``: what says a refusal in the page's words, from the pages' own code
  (``games.web.refusals`` and what it imports; ``games.web.browser_check`` says why), the
  compiled catalogues Django reads and each game's refusal words in every language;
- a manifest naming them by URL, read by ``static/js/engine-worker.js``.

The zips are built from the files on disk the first time a process is asked, and kept for its
life, as the code it imported is (a restart, or runserver's reload on a change of source or
catalogue, builds them again). Their URLs hold a digest of their bytes, built alike by every
process (sorted, dated 1980), so they are cached for a year and can never be stale: new
sources, new URL. Everything here is public (the rules and the words are no club's records), so
a phone caches them before it is signed in.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import zipfile
from dataclasses import dataclass, field
from functools import cache
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from django.conf import settings
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import translation
from django.views.decorators.http import condition, require_safe

import scoring
from games.records.game_types import plugins
from games.web import refusals

PYODIDE_DIR = settings.VAR_DIR / "pyodide"
PYODIDE_TYPES = {
    ".mjs": "text/javascript; charset=utf-8",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".json": "application/json",
}
# A versioned URL: its bytes never change.
FOREVER = "public, max-age=31536000, immutable"
ACCEPTS_GZIP = re.compile(r"\bgzip\b")
# What refusals.sentence needs besides the engine, as the modules they are (the package
# __init__ files are empty, so none pulls in more).
PAGE_MODULES = (
    "games",
    "games.records",
    "games.records.errors",
    "games.records.game_types",
    "games.records.i18n",
    "games.web",
    "games.web.refusals",
    "games.web.browser_check",
)
ZIP_DATE = (1980, 1, 1, 0, 0, 0)


@dataclass(frozen=True)
class Built:
    """A file built here: its bytes, their digest (in its URL) and its type."""

    body: bytes
    content_type: str
    digest: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "digest", hashlib.sha256(self.body).hexdigest()[:16])


def _zip(files: dict[str, bytes]) -> bytes:
    """The same bytes for the same files, in every process: sorted names, one date."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, files[name])
    return out.getvalue()


def engine_sources() -> dict[str, bytes]:
    """The engine's plain sources by their path in the project."""
    package = Path(scoring.__file__).resolve().parent
    root = package.parent
    paths = [package / "__init__.py", *sorted((package / "engine").rglob("*.py"))]
    return {path.relative_to(root).as_posix(): path.read_bytes() for path in paths}


def _module_file(name: str) -> tuple[str, bytes]:
    spec = find_spec(name)  # found, never imported (browser_check refuses the server)
    assert spec is not None and spec.origin is not None, name
    path = Path(spec.origin)
    root = path.parents[name.count(".") + (1 if path.name == "__init__.py" else 0)]
    return path.relative_to(root).as_posix(), path.read_bytes()


def _catalogues() -> dict[str, tuple[str, Path]]:
    """Each language's locale folder name and compiled catalogue, where it has one (English,
    the source, has none), found as Django finds them (``LOCALE_PATHS``, the first first)."""
    found = {}
    for code, _name in settings.LANGUAGES:
        locale = translation.to_locale(code)
        for folder in settings.LOCALE_PATHS:
            path = Path(folder) / locale / "LC_MESSAGES" / "django.mo"
            if path.is_file():
                found[code] = (locale, path)
                break
    return found


def refusal_words() -> dict[str, Any]:
    """Every game's refusal words (``refusals.for_game``) in every language, as the browser's
    ``browser_check`` reads them."""
    catalogues = _catalogues()
    languages = {}
    for code, _name in settings.LANGUAGES:
        games = {}
        with translation.override(code):
            for game_type in plugins():
                vocabulary = refusals.for_game(game_type)
                games[game_type] = {
                    "words": {key: str(word) for key, word in vocabulary.words.items()},
                    "seat_phrases": [[p.pattern, p.flags] for p in vocabulary.seat_phrases],
                }
        locale = catalogues[code][0] if code in catalogues else None
        languages[code] = {"locale": locale, "games": games}
    return {"default": settings.LANGUAGE_CODE, "languages": languages}


def page_files() -> dict[str, bytes]:
    """words.zip's files: the modules, the catalogues, the games' words."""
    files = dict(_module_file(name) for name in PAGE_MODULES)
    for locale, path in _catalogues().values():
        files[f"locale/{locale}/LC_MESSAGES/django.mo"] = path.read_bytes()
    words = json.dumps(refusal_words(), ensure_ascii=False, sort_keys=True, indent=1)
    files["refusal_words.json"] = words.encode()
    return files


@cache
def built() -> dict[str, Built]:
    """The files built from the sources, once per process (see the module's docstring)."""
    return {
        "engine.zip": Built(_zip(engine_sources()), "application/zip"),
        "words.zip": Built(_zip(page_files()), "application/zip"),
    }


def pyodide_installed() -> dict[str, Any] | None:
    """What ``make pyodide`` installed (``var/pyodide/installed.json``), or None."""
    try:
        found: dict[str, Any] = json.loads((PYODIDE_DIR / "installed.json").read_text())
    except (OSError, ValueError):
        return None
    return found


def _manifest_body() -> bytes:
    pyodide = pyodide_installed()
    index = None
    if pyodide is not None:  # the folder's URL: Pyodide finds its own files in it
        first = "pyodide.mjs"
        index = reverse("web:engine-pyodide", args=[pyodide["version"], first])[: -len(first)]
    files = {name: reverse("web:engine-file", args=[f.digest, name]) for name, f in built().items()}
    return json.dumps({"pyodide": index, **files}).encode()


@require_safe
@condition(etag_func=lambda request: hashlib.sha256(_manifest_body()).hexdigest()[:16])
def manifest(request: HttpRequest) -> HttpResponse:
    """Where the worker finds Pyodide and the zips: ``{"pyodide": index URL or null (not
    installed: no offline checks), "engine.zip": URL, "words.zip": URL}``. Asked again every
    time (an ETag answers 304 when nothing changed)."""
    response = HttpResponse(_manifest_body(), content_type="application/json")
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def pyodide_file(request: HttpRequest, version: str, name: str) -> HttpResponse:
    """A file of Pyodide at ``version``, gzipped for a browser that takes it."""
    pyodide = pyodide_installed()
    if pyodide is None or version != pyodide["version"] or name not in pyodide["files"]:
        raise Http404
    path = PYODIDE_DIR / version / name
    content_type = PYODIDE_TYPES[path.suffix]
    packed = path.with_name(f"{name}.gz")
    accepts_gzip = ACCEPTS_GZIP.search(request.headers.get("Accept-Encoding", ""))
    if accepts_gzip and "gzip_bytes" in pyodide["files"][name] and packed.is_file():
        response = FileResponse(packed.open("rb"), content_type=content_type)
        response["Content-Encoding"] = "gzip"
    else:
        response = FileResponse(path.open("rb"), content_type=content_type)
    # FileResponse names the file for a download; this one is read by the page.
    response.headers.pop("Content-Disposition", None)
    response["Cache-Control"] = FOREVER
    response["Vary"] = "Accept-Encoding"
    return response


@require_safe
def engine_file(request: HttpRequest, digest: str, name: str) -> HttpResponse:
    """``engine.zip`` or ``words.zip`` as built now; another digest is gone (404)."""
    file = built().get(name)
    if file is None or digest != file.digest:
        raise Http404
    response = HttpResponse(file.body, content_type=file.content_type)
    response["Cache-Control"] = FOREVER
    return response
