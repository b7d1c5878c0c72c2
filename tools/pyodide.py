"""Pyodide for the pages' offline checks: ``python -m tools.pyodide`` (``make pyodide``).

The browser runs the engine's own sources under Pyodide, which the project serves itself,
never from a CDN (``games/web/engine_files.py``). This downloads the npm package at the version
pinned here and refuses it unless its sha512 is the one pinned (the registry's
``dist.integrity`` for that version, copied here once: a file changed since is refused, not
believed). Only the files a page loads are kept, each beside a gzip of itself
(served to browsers that take it), under ``var/pyodide/<version>/``; ``installed.json``, what
the server reads, is written last, so an interrupted run leaves nothing served. Run again, it
does nothing when that version is there. Standard library only: make runs it with the plain
python3.11, the virtualenv not needed.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import hmac
import io
import json
import sys
import tarfile
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

VERSION = "314.0.8"
TARBALL = f"https://registry.npmjs.org/pyodide/-/pyodide-{VERSION}.tgz"
# https://registry.npmjs.org/pyodide/314.0.8 -> dist.integrity
INTEGRITY = (
    "sha512-74Wq1kXOC+CCEzAfxuRAO701nAcCMLjf8NrwvWpu8S41dVMXwXmLQ05dYB+F4e46AdnGo0oq7YH"
    "SVUpHsoarLQ=="
)
# What loadPyodide() fetches for a page that uses no packages beyond the standard library.
FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
ROOT = Path(__file__).resolve().parent.parent / "var" / "pyodide"
INSTALLED = "installed.json"
# A gzip is kept only where it saves this much (the standard library's zip barely shrinks).
WORTH_GZIP = 0.9


class Refused(Exception):
    """The download is not the pinned package: nothing is installed from it."""


def verified(data: bytes, integrity: str) -> bytes:
    """``data`` if its digest is ``integrity`` (npm's Subresource Integrity form,
    ``sha512-<base64>``). Raises ``Refused``."""
    algorithm, _, expected = integrity.partition("-")
    digest = base64.b64encode(hashlib.new(algorithm, data).digest()).decode()
    if not hmac.compare_digest(digest, expected):
        raise Refused(f"the tarball's {algorithm} is {digest}, not the pinned {expected}")
    return data


def download(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=120) as response:
        data: bytes = response.read()
    return data


def installed(root: Path = ROOT) -> dict[str, Any] | None:
    """What ``root`` holds (``installed.json``) if it is this version, whole; else None."""
    try:
        found: dict[str, Any] = json.loads((root / INSTALLED).read_text())
    except (OSError, ValueError):
        return None
    if found.get("version") != VERSION or found.get("integrity") != INTEGRITY:
        return None
    folder = root / VERSION
    for name, facts in found["files"].items():
        if _size(folder / name) != facts["bytes"]:
            return None
        if "gzip_bytes" in facts and _size(folder / f"{name}.gz") != facts["gzip_bytes"]:
            return None
    return found


def _size(path: Path) -> int | None:
    return path.stat().st_size if path.is_file() else None


def install(root: Path = ROOT, fetch: Callable[[str], bytes] = download) -> dict[str, Any]:
    """Pyodide ``VERSION`` under ``root``, downloaded and verified unless already there.
    Raises ``Refused`` (nothing written then)."""
    found = installed(root)
    if found is not None:
        return found
    data = verified(fetch(TARBALL), INTEGRITY)
    folder = root / VERSION
    folder.mkdir(parents=True, exist_ok=True)
    files: dict[str, Any] = {}
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        for name in FILES:
            # Read by name, never extracted whole: no path in the archive is trusted.
            member = tar.extractfile(f"package/{name}")
            if member is None:
                raise Refused(f"package/{name} is not a file in the tarball")
            body = member.read()
            _write(folder / name, body)
            files[name] = {"bytes": len(body), "sha256": hashlib.sha256(body).hexdigest()}
            packed = gzip.compress(body, compresslevel=9, mtime=0)
            if len(packed) < WORTH_GZIP * len(body):
                _write(folder / f"{name}.gz", packed)
                files[name]["gzip_bytes"] = len(packed)
            else:
                (folder / f"{name}.gz").unlink(missing_ok=True)
    record = {"version": VERSION, "integrity": INTEGRITY, "files": files}
    _write(root / INSTALLED, json.dumps(record, indent=2).encode())
    return record


def _write(path: Path, body: bytes) -> None:
    """Written whole or not at all (a reader never sees half a file)."""
    partial = path.with_name(path.name + ".part")
    partial.write_bytes(body)
    partial.replace(path)


def main() -> int:
    before = installed()
    try:
        record = install()
    except Refused as exc:
        print(f"pyodide {VERSION}: refused: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:  # no network, no disk: nothing served, make stops
        print(f"pyodide {VERSION}: not downloaded: {exc}", file=sys.stderr)
        return 1
    if before is not None:
        (ROOT / INSTALLED).touch()  # newer than this script: make asks no more
    total = sum(f["bytes"] for f in record["files"].values())
    done = "already there" if before is not None else "downloaded and verified"
    print(f"pyodide {VERSION}: {done} ({len(record['files'])} files, {total:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
