"""``manage.py stats_rebuild``: recompute every statistic and rating, of every game type, from
the finished games."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from scoring import stats


class Command(BaseCommand):
    help = (
        "Rebuild player statistics (PlayerGame, PlayerStats, HeadToHead) and skill ratings of "
        "every game type from the finished games, e.g. after a deploy or a bulk load."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--skip-ratings", action="store_true", help="rebuild statistics only, not ratings"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        start = time.perf_counter()
        rows = stats.stats_rebuild(ratings=not options["skip_ratings"])
        took = time.perf_counter() - start
        self.stdout.write(f"statistics rebuilt from {rows} player-game rows in {took:.1f} s")
