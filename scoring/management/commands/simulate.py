"""``manage.py simulate --players N [--teams] [--seed S]``: print one random legal game log."""

from __future__ import annotations

import json
import random
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.engine.potdevin.simulate import simulate


class Command(BaseCommand):
    help = "Print one simulated Pot de Vin game as a potdevin-log/1 document."
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, required=True, help="3 to 6")
        parser.add_argument("--teams", action="store_true", help="team play (4 or 6 players)")
        parser.add_argument("--seed", type=int, help="the same seed gives the same game")
        parser.add_argument(
            "--no-deal", action="store_true", help="leave the deal and trump pile out of the log"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        seed = options["seed"]
        if seed is None:
            seed = random.SystemRandom().randrange(2**32)
        try:
            log = simulate(
                options["players"],
                seed=seed,
                teams=options["teams"],
                record_deal=not options["no_deal"],
            )
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(json.dumps(log, indent=2))
