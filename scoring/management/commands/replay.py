"""``manage.py replay PATH...``: replay log files through the rules engine, one JSON line each."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from scoring.engine import LogError, engine_for_log


def replay_file(path: Path) -> dict[str, Any]:
    """The replay result of the log at ``path``, or ``{"error": {...}}`` if it is impossible."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return {"error": LogError("unreadable", f"{path}: {exc}").as_dict()}
    try:
        log = json.loads(text)
    except json.JSONDecodeError as exc:
        return {"error": LogError("malformed", f"{path}: not JSON ({exc})").as_dict()}
    try:
        return engine_for_log(log).replay(log)
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

    def handle(self, *args: Any, paths: list[Path], **options: Any) -> None:
        failed = False
        for path in paths:
            out = replay_file(path)
            failed = failed or "error" in out
            self.stdout.write(json.dumps(out, ensure_ascii=False))
        if failed:
            raise SystemExit(1)
