"""``manage.py import_all PATH``: restore an archive of ``export_all`` into an empty database
(after ``migrate``), every id kept; statistics and ratings are rebuilt after."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.archive import ArchiveError, archive_restore


class Command(BaseCommand):
    help = "Restore a JSON Lines archive of export_all into an empty database."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help="the archive file")

    def handle(self, *args: Any, path: str, **options: Any) -> None:
        try:
            with Path(path).open("rb") as source:
                counts = archive_restore(source)
        except (OSError, ArchiveError) as exc:
            raise CommandError(str(exc)) from exc
        summary = ", ".join(f"{n} {kind}s" for kind, n in counts.items())
        self.stdout.write(f"restored {summary or 'nothing'}")
