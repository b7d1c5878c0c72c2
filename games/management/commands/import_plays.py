"""``manage.py import_plays FILE --club SLUG --user USERNAME [--dry-run]``: bring a file of plays
into a club, its format found from the content (``games.exchange.formats.detect``): BG Stats' export
or one shared play (``.bgsplay``), zipped or not, BoardGameGeek's XML plays document, or our own
game logs (which go through the log import, ``games.records.services.game_import``). ``-`` reads
standard input.

Prints the import's summary as JSON (``games.exchange.imports.plan_summary``: what was created,
matched, updated, left unchanged, and every play skipped with its code and reason); with
``--dry-run`` what the import would do, writing nothing. The import is one transaction: a file
refused, or a play the records refuse, stores nothing and exits non-zero with one line saying
why."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.exchange import imports
from games.exchange.formats.detect import read_play_file
from games.exchange.formats.plays import FormatError
from games.records import access
from games.records.errors import RecordError
from games.records.models import Club
from scoring.engine import LogError


class Command(BaseCommand):
    help = (
        "Import a file of plays (BG Stats export or play, BoardGameGeek plays XML, our game "
        "logs) into a club; prints a JSON summary."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the file, or - for standard input")
        parser.add_argument("--club", required=True, help="slug of the club the plays go into")
        parser.add_argument(
            "--user", required=True, help="username of the club's recorder who imports them"
        )
        parser.add_argument(
            "--dry-run",
            action="store_true",
            help="say what would be created, matched, updated or skipped; write nothing",
        )

    def handle(self, *args: Any, file: str, club: str, user: str, **options: Any) -> None:
        found = Club.objects.filter(slug=club).first()
        if found is None:
            raise CommandError(f"no club with the slug {club!r}")
        account = get_user_model().objects.filter(username=user).first()
        if account is None:
            raise CommandError(f"no user called {user!r}")
        if not access.may(account, found.pk, access.Can.RECORD):
            raise CommandError(f"{user} may not record in {found.slug}: make them its recorder")
        try:
            data = sys.stdin.buffer.read() if file == "-" else Path(file).read_bytes()
        except OSError as exc:
            raise CommandError(f"cannot read {file}: {exc.strerror or exc}") from exc
        name = None if file == "-" else Path(file).name
        try:
            read = read_play_file(data, filename=name)
            summary = imports.file_import(
                club=found, owner=account, read=read, dry_run=options["dry_run"]
            )
        except FormatError as exc:
            raise CommandError(f"{exc.code}: {exc.message}; nothing was imported") from exc
        except (LogError, RecordError) as exc:
            raise CommandError(f"{_said(exc)}; nothing was imported") from exc
        self.stdout.write(json.dumps(summary, ensure_ascii=False, indent=2))


def _said(exc: LogError | RecordError) -> str:
    where = []
    index = getattr(exc, "index", None)
    if index is not None:
        where.append(f"item {index}")
    if exc.seat is not None:
        where.append(f"seat {exc.seat}")
    place = f" ({', '.join(where)})" if where else ""
    return f"{exc.code}{place}: {exc.message if isinstance(exc, RecordError) else exc}"
