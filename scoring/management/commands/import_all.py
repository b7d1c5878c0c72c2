"""``manage.py import_all PATH``: restore an archive of ``export_all`` into an empty database
(after ``migrate``), every id kept; statistics and ratings are rebuilt after. ``-`` reads
standard input (``gunzip -c backup.jsonl.gz | manage.py import_all -``).

The restore is one transaction: an archive without its trailer (cut short), whose counts or
checksum differ from what was read, or that cannot be restored here is refused with a non-zero
exit, and nothing is written."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.archive import ArchiveError, archive_restore


class Command(BaseCommand):
    help = "Restore a JSON Lines archive of export_all into an empty database."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help="the archive file, or - for standard input")

    def handle(self, *args: Any, path: str, **options: Any) -> None:
        try:
            if path == "-":
                counts = archive_restore(sys.stdin.buffer)
            else:
                with Path(path).open("rb") as source:
                    counts = archive_restore(source)
        except (OSError, ArchiveError) as exc:
            raise CommandError(f"{exc}; nothing was restored") from exc
        summary = ", ".join(f"{n} {kind}s" for kind, n in counts.items())
        self.stdout.write(f"restored {summary}")
