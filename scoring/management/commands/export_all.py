"""``manage.py export_all [PATH]``: every record (games of every game type, players, editions,
jobs, users) to one JSON Lines archive, streamed, ending with a trailer that counts the records
and holds a checksum (see ``scoring.archive``); ``-`` or nothing writes to standard output.

A record that cannot be written faithfully stops the export with a non-zero exit and a message
naming it. PATH is written under a temporary name beside it and renamed when complete, so PATH
never holds a cut archive (a previous one there is kept). On standard output a failed export
leaves no trailer, and ``import_all`` refuses what was written: run the pipeline with
``set -o pipefail`` so that the failure also fails the job (README, "Backups")."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import IO, Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.archive import ArchiveError, archive_write


def _write_file(path: Path) -> dict[str, int]:
    partial = path.with_name(path.name + ".partial")
    try:
        with partial.open("wb") as out:
            counts = archive_write(out)
            out.flush()
            os.fsync(out.fileno())
        partial.replace(path)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    return counts


class Command(BaseCommand):
    help = "Write every record to a JSON Lines archive (a backup): manage.py import_all reads it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", nargs="?", default="-", help="the archive file, or - ")

    def handle(self, *args: Any, path: str, **options: Any) -> None:
        try:
            if path == "-":
                out: IO[bytes] = sys.stdout.buffer
                counts = archive_write(out)
                out.flush()
            else:
                counts = _write_file(Path(path))
        except (OSError, ArchiveError) as exc:
            raise CommandError(f"export_all failed: {exc}") from exc
        summary = ", ".join(f"{n} {kind}s" for kind, n in counts.items())
        self.stderr.write(f"archived {summary}")
