"""``manage.py replay PATH...``: replay log files through the rules engine, one JSON line each."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.engine import LogError, engine_for_log


def replay_file(path: Path, edition: dict[str, Any] | None = None) -> dict[str, Any]:
    """The replay result of the log at ``path``, or ``{"error": {...}}`` if it is impossible.
    ``edition`` is an edition document (``{"id": ..., ...data}``) to replay against instead of
    the one the log names, for a game with editions."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return {"error": LogError("unreadable", f"{path}: {exc}").as_dict()}
    try:
        log = json.loads(text)
    except json.JSONDecodeError as exc:
        return {"error": LogError("malformed", f"{path}: not JSON ({exc})").as_dict()}
    try:
        engine = engine_for_log(log)
        if edition is None:
            return engine.replay(log)
        load = engine.info.edition_from_data
        if load is None:
            raise LogError("no_editions", f"{engine.info.label} has no editions")
        data = {k: v for k, v in edition.items() if k != "id"}
        return engine.replay(log, edition=load(str(edition.get("id") or "given"), data))
    except LogError as exc:
        return {"error": exc.as_dict()}


class Command(BaseCommand):
    help = (
        "Replay game logs and print one JSON object per log, in order: the replay result, or "
        '{"error": {"code", "message", "round", "seat"}}. Exits with status 1 if any log is '
        "impossible."
    )
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("paths", nargs="+", type=Path, metavar="PATH", help="log files")
        parser.add_argument(
            "--edition",
            type=Path,
            metavar="FILE",
            help='an edition as JSON (a Bruges board: {"id", "prestige_points", '
            '"canal"}) to replay against instead of the one each log names',
        )

    def handle(self, *args: Any, paths: list[Path], **options: Any) -> None:
        edition = None
        if options["edition"] is not None:
            try:
                edition = json.loads(options["edition"].read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
                raise CommandError(f"--edition: {exc}") from exc
            if not isinstance(edition, dict):
                raise CommandError("--edition: an edition is a JSON object")
        failed = False
        for path in paths:
            out = replay_file(path, edition)
            failed = failed or "error" in out
            self.stdout.write(json.dumps(out, ensure_ascii=False))
        if failed:
            raise SystemExit(1)
