"""``manage.py export_all [PATH]``: every record (games of every game type, players, editions,
jobs, users) to one JSON Lines archive, streamed; ``-`` or nothing writes to standard output."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from scoring.archive import archive_write


class Command(BaseCommand):
    help = "Write every record to a JSON Lines archive (a backup): manage.py import_all reads it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", nargs="?", default="-", help="the archive file, or - ")

    def handle(self, *args: Any, path: str, **options: Any) -> None:
        if path == "-":
            counts = archive_write(sys.stdout.buffer)
        else:
            with Path(path).open("wb") as out:
                counts = archive_write(out)
        summary = ", ".join(f"{n} {kind}s" for kind, n in counts.items())
        self.stderr.write(f"archived {summary or 'nothing'}")
