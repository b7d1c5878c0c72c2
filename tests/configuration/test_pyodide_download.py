"""`make pyodide` (tools/pyodide.py) keeps only a verified Pyodide: a tarball whose sha512 is not
the pinned one is refused and nothing is written; a good one gives the five files a page loads
(and their gzips), nothing else from the archive, and running again downloads nothing."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import tarfile
from pathlib import Path

import pytest

from tools import pyodide


def tarball(extra: dict[str, bytes] | None = None) -> bytes:
    """An npm tarball holding Pyodide's five files (and ``extra`` members)."""
    members = {f"package/{name}": name.encode() * 200 for name in pyodide.FILES}
    members.update(extra or {})
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as tar:
        for name, body in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(body)
            tar.addfile(info, io.BytesIO(body))
    return out.getvalue()


def integrity(data: bytes) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


def test_a_tampered_tarball_is_refused_and_nothing_installed(tmp_path: Path) -> None:
    with pytest.raises(pyodide.Refused, match="not the pinned"):
        pyodide.install(tmp_path, fetch=lambda url: tarball())
    assert list(tmp_path.iterdir()) == []


def test_the_pinned_tarball_gives_the_five_files_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tarball({"package/../../escaped.txt": b"x", "package/pyodide.js": b"y"})
    monkeypatch.setattr(pyodide, "INTEGRITY", integrity(data))
    fetched: list[str] = []

    def fetch(url: str) -> bytes:
        fetched.append(url)
        return data

    record = pyodide.install(tmp_path, fetch=fetch)
    assert fetched == [pyodide.TARBALL]
    folder = tmp_path / pyodide.VERSION
    kept = {path.name for path in folder.iterdir()}
    assert kept == {*pyodide.FILES, *(f"{name}.gz" for name in pyodide.FILES)}
    assert not (tmp_path.parent / "escaped.txt").exists()
    assert json.loads((tmp_path / pyodide.INSTALLED).read_text()) == record
    for name in pyodide.FILES:
        assert (folder / name).read_bytes() == name.encode() * 200

    assert pyodide.install(tmp_path, fetch=fetch) == record
    assert len(fetched) == 1, "already there: nothing downloaded"
    (folder / "pyodide.asm.wasm").write_bytes(b"cut short")
    pyodide.install(tmp_path, fetch=fetch)
    assert len(fetched) == 2, "a file changed since: installed again"
