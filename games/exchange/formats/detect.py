"""One way in for every file of plays: the format is found from the content, never the name.

``read_play_file`` takes the bytes of:

- a zip holding one of the files below (BG Stats zips its export);
- BG Stats' export (``BGStatsExport.json``) or one shared play (``.bgsplay``): a JSON object
  with ``plays`` and ``games`` or ``players`` (``bgstats``);
- BoardGameGeek's XML API2 plays document (``bggxml``);
- our own game logs: a JSON object with a ``format`` one of our engines reads
  (``potdevin-log/1``...), or a list of them, given back untouched for the log import
  (``games.records.services.game_import``).

Limits, each refused whole with a ``FormatError`` of a stable code before anything is stored:
the file and a zip's file unpacked are at most ``MAX_FILE_BYTES`` (20 MB: a club's whole BG
Stats export of ten years is a few MB; the unpacked size is counted while reading, so a zip
bomb stops at the limit), a zip holds at most ``MAX_ZIP_FILES`` files, JSON nests at most
``MAX_JSON_DEPTH`` levels and its numbers have at most ``MAX_NUMBER_DIGITS`` digits, XML as
``bggxml.parse`` says.
"""

from __future__ import annotations

import io
import json
import zipfile
import zlib
from typing import Any

from django.utils.translation import gettext as _

from games.exchange.formats import bggxml, bgstats
from games.exchange.formats.plays import FormatError, PlayFile
from games.exchange.formats.reading import shown
from games.records.stored_json import MAX_DEPTH
from scoring.engine import ENGINES

MAX_FILE_BYTES = 20 * 1024 * 1024
MAX_ZIP_FILES = 5  # BG Stats' zip holds one; a few more (a readme, a copy) are let through
MAX_ZIP_ENTRIES = 50  # every entry, folders and a Mac's resource forks included
MAX_JSON_DEPTH = MAX_DEPTH  # an export is 6 levels deep, a game log 6
MAX_NUMBER_DIGITS = 40  # 2**64 has 20; Python refuses past 4300, slowly
_ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")
_READ_CHUNK = 1 << 16


def read_play_file(
    data: bytes, *, filename: str | None = None, max_bytes: int = MAX_FILE_BYTES
) -> PlayFile | list[dict[str, Any]]:
    """The plays of a file of any format this module knows (a ``PlayFile``), or our own log
    documents as a list, untouched. ``filename`` is only quoted in messages.

    Raises ``FormatError``: ``too_large``, ``empty``, ``too_deep``, ``too_many_files``,
    ``malformed`` (no JSON, XML or zip as written, or a structure that is wrong, the key
    named), ``forbidden_xml``, ``unknown_format``, ``unknown_version`` (a log format of ours in
    a version no engine reads)."""
    data = bytes(data)
    if len(data) > max_bytes:
        raise _too_large(max_bytes)
    if data.startswith(_ZIP_MAGIC):
        data = _unzip(data, max_bytes)
        if data.startswith(_ZIP_MAGIC):
            raise FormatError("unknown_format", _("a zip inside a zip is not read"))
    if not data.strip():
        raise FormatError("empty", _("the file is empty"))
    if bggxml.is_xml(data):
        return bggxml.read_xml(data)
    return read_json_document(load_json(data), filename=filename)


def read_json_document(doc: Any, *, filename: str | None = None) -> PlayFile | list[dict[str, Any]]:
    """What a parsed JSON file is (see ``read_play_file``). Raises ``FormatError``."""
    if isinstance(doc, dict) and "format" in doc:
        return [_log(doc, None)]
    if isinstance(doc, list) and doc and any(isinstance(d, dict) and "format" in d for d in doc):
        for index, item in enumerate(doc):
            if not isinstance(item, dict) or "format" not in item:
                raise FormatError(
                    "malformed",
                    _("item %(index)s of the list is not a game log") % {"index": index},
                )
        return [_log(item, index) for index, item in enumerate(doc)]
    if bgstats.is_document(doc):
        return bgstats.read_document(doc)
    raise _unknown(filename)


def _log(doc: dict[str, Any], index: int | None) -> dict[str, Any]:
    """``doc`` when one of our engines reads its ``format``."""
    fmt = doc.get("format")
    known = sorted(engine.log_format for engine in ENGINES.values())
    if fmt in known:
        return doc
    where = "format" if index is None else f"[{index}].format"
    if not isinstance(fmt, str):
        raise FormatError("malformed", _("%(where)s is not text") % {"where": where})
    name = fmt.partition("/")[0]
    if any(k.partition("/")[0] == name for k in known):
        raise FormatError(
            "unknown_version",
            _("%(format)s is a version this server does not read; it reads %(known)s")
            % {"format": shown(fmt), "known": ", ".join(known)},
        )
    raise FormatError(
        "unknown_format",
        _("no game here reads the log format %(format)s; known: %(known)s")
        % {"format": shown(fmt), "known": ", ".join(known)},
    )


def _unknown(filename: str | None) -> FormatError:
    if filename:
        return FormatError(
            "unknown_format",
            _(
                "%(name)s is not a file this import reads: a BG Stats export or play, "
                "a BoardGameGeek plays XML, or a game log"
            )
            % {"name": shown(filename)},
        )
    return FormatError(
        "unknown_format",
        _(
            "this is not a file this import reads: a BG Stats export or play, "
            "a BoardGameGeek plays XML, or a game log"
        ),
    )


def _too_large(limit: int) -> FormatError:
    return FormatError(
        "too_large",
        _("the file is over %(megabytes)s MB") % {"megabytes": round(limit / 1024 / 1024, 1)},
    )


# --- JSON -----------------------------------------------------------------------------------


def _parse_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise FormatError(
            "out_of_range",
            _("the file holds a number of more than %(digits)s digits")
            % {"digits": MAX_NUMBER_DIGITS},
        )
    return int(digits)


def _refuse_constant(name: str) -> Any:
    raise FormatError("malformed", _("%(name)s is not a JSON number") % {"name": name})


def load_json(data: bytes) -> Any:
    """``data`` parsed as JSON (UTF-8, -16 or -32, with or without a byte order mark).
    Raises ``FormatError``: ``malformed`` (no JSON, NaN or Infinity), ``out_of_range`` (a
    number of more than ``MAX_NUMBER_DIGITS`` digits), ``too_deep`` (nested past
    ``MAX_JSON_DEPTH``)."""
    try:
        doc = json.loads(data, parse_int=_parse_int, parse_constant=_refuse_constant)
    except FormatError:  # from the hooks (a ValueError, as the decoder's own errors)
        raise
    except RecursionError:
        raise _too_deep() from None
    except json.JSONDecodeError as error:
        raise FormatError(
            "malformed",
            _("the file is not JSON (line %(line)s, column %(column)s)")
            % {"line": error.lineno, "column": error.colno},
        ) from None
    except (UnicodeDecodeError, ValueError):
        raise FormatError("malformed", _("the file is not JSON text")) from None
    _check_depth(doc)
    return doc


def _too_deep() -> FormatError:
    return FormatError(
        "too_deep",
        _("the file is nested more than %(depth)s levels deep") % {"depth": MAX_JSON_DEPTH},
    )


def _check_depth(doc: Any) -> None:
    """Refuse a document nested past ``MAX_JSON_DEPTH`` (walked without recursion)."""
    stack: list[tuple[Any, int]] = [(doc, 1)] if isinstance(doc, dict | list) else []
    while stack:
        value, depth = stack.pop()
        if depth > MAX_JSON_DEPTH:
            raise _too_deep()
        children = value.values() if isinstance(value, dict) else value
        stack.extend((c, depth + 1) for c in children if isinstance(c, dict | list))


# --- zip ------------------------------------------------------------------------------------


def _junk(name: str) -> bool:
    """What a Mac adds to a zip it makes."""
    base = name.rsplit("/", 1)[-1]
    return name.startswith("__MACOSX/") or base.startswith("._") or base == ".DS_Store"


_ZIP_ERRORS = (
    zipfile.BadZipFile,
    zipfile.LargeZipFile,
    zlib.error,
    EOFError,
    OSError,
    ValueError,
    RuntimeError,  # an encrypted file
    NotImplementedError,  # a compression the library does not have
)


def _unzip(data: bytes, max_bytes: int) -> bytes:
    """The one file of a zip this import reads (nothing is written to disk), unpacked and
    counted while it is read. Raises ``FormatError`` (malformed, too_many_files, too_large)."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        entries = archive.infolist()
    except _ZIP_ERRORS:
        raise FormatError("malformed", _("the zip cannot be read")) from None
    files = [e for e in entries if not e.is_dir() and not _junk(e.filename)]
    if len(entries) > MAX_ZIP_ENTRIES or len(files) > MAX_ZIP_FILES:
        raise FormatError(
            "too_many_files",
            _("the zip holds %(count)s files; at most %(most)s")
            % {"count": len(files), "most": MAX_ZIP_FILES},
        )
    if not files:
        raise FormatError("malformed", _("the zip holds no file"))
    if len(files) > 1:
        named = [e for e in files if e.filename.lower().endswith((".json", ".bgsplay", ".xml"))]
        if len(named) != 1:
            raise FormatError(
                "malformed",
                _("the zip holds several files and it is not clear which to read: %(names)s")
                % {"names": ", ".join(shown(e.filename) for e in files)},
            )
        files = named
    entry = files[0]
    if entry.file_size > max_bytes:
        raise _too_large(max_bytes)
    out = io.BytesIO()
    try:
        with archive.open(entry) as member:
            while chunk := member.read(_READ_CHUNK):
                if out.tell() + len(chunk) > max_bytes:
                    raise _too_large(max_bytes)
                out.write(chunk)
    except FormatError:
        raise
    except _ZIP_ERRORS:
        raise FormatError(
            "malformed", _("%(name)s in the zip cannot be read") % {"name": shown(entry.filename)}
        ) from None
    return out.getvalue()
