"""An archive read back: each line checked whole and a JSON object as it is read, then
the trailer checked against every record read (``_Reader``)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from typing import Any

from scoring.archive.lines import ARCHIVE_FORMAT, KINDS, LATER_KINDS, ArchiveError, _decode


class _Reader:
    """An archive's records, checked as they are read: each line whole (ending with a newline)
    and a JSON object; then ``finish`` checks the trailer against what was read."""

    def __init__(self, source: Iterable[bytes]) -> None:
        self._source = iter(source)
        self.number = 0  # of the last line read
        self.counts = dict.fromkeys(KINDS, 0)
        self._digest = hashlib.sha256()
        self._trailer: dict[str, Any] | None = None
        self._digest_before_trailer = ""

    def _line(self) -> bytes | None:
        line = next(self._source, None)
        if line is None:
            return None
        self.number += 1
        if not line.endswith(b"\n"):
            raise ArchiveError(
                f"the archive is incomplete: its last line ({self.number}) is cut short"
            )
        return line

    def _object(self, line: bytes) -> dict[str, Any]:
        try:
            value = _decode(line)
        except ValueError as exc:
            raise ArchiveError(f"line {self.number} is not JSON: {exc}") from exc
        if not isinstance(value, dict):
            raise ArchiveError(f"line {self.number} is not a JSON object")
        return value

    def header(self) -> dict[str, Any]:
        line = self._line()
        if line is None:
            raise ArchiveError("the archive is incomplete: the file is empty")
        self._digest.update(line)
        header = self._object(line)
        if header.get("archive") != ARCHIVE_FORMAT:
            raise ArchiveError(f"not a {ARCHIVE_FORMAT} archive")
        return header

    def records(self) -> Iterator[dict[str, Any]]:
        """The records up to the trailer (kept for ``finish``)."""
        while (line := self._line()) is not None:
            record = self._object(line)
            if "trailer" in record:
                self._trailer = record
                self._digest_before_trailer = self._digest.hexdigest()
                return
            self._digest.update(line)
            kind = record.get("kind")
            if kind not in self.counts:
                raise ArchiveError(f"line {self.number}: unknown record kind {kind!r}")
            self.counts[kind] += 1
            yield record

    def finish(self) -> None:
        """Raise ``ArchiveError`` unless the archive ended with a trailer that matches every
        record read, and nothing after it."""
        trailer = self._trailer
        if trailer is None:
            raise ArchiveError(
                f"the archive is incomplete: it ends after line {self.number} without its "
                "trailer (an export that stopped, or a file cut short)"
            )
        if trailer.get("trailer") != ARCHIVE_FORMAT:
            raise ArchiveError(f"line {self.number}: not a {ARCHIVE_FORMAT} trailer")
        if next(self._source, None) is not None:
            raise ArchiveError(
                f"line {self.number + 1} follows the trailer, which must end the archive"
            )
        counts = trailer.get("counts")
        if isinstance(counts, dict):
            counts = dict.fromkeys(LATER_KINDS, 0) | counts  # written before they existed
        if counts != self.counts:
            raise ArchiveError(
                f"the trailer counts {trailer.get('counts')} but the archive holds "
                f"{self.counts}: records are missing or were added"
            )
        if trailer.get("sha256") != self._digest_before_trailer:
            raise ArchiveError(
                "the archive's checksum does not match its trailer's: it was altered or damaged"
            )

    @property
    def written_before_clubs(self) -> bool:
        """Whether the trailer (checked by ``finish``) counts no club: an older archive."""
        return self._trailer is not None and "club" not in self._trailer["counts"]
