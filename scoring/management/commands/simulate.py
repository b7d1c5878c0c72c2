"""``manage.py simulate [--game G] --players N [--seed S] [options]``: print one random legal
game log of any registered game."""

from __future__ import annotations

import json
import random
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.records.game_types import default_game_type
from scoring.engine import ENGINES, get_engine


class Command(BaseCommand):
    help = (
        "Print one simulated game as its log document (Pot de Vin: potdevin-log/1; Complots: "
        "complots-log/1)."
    )
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--game",
            default=default_game_type(),
            choices=sorted(g for g, e in ENGINES.items() if e.info.simulate is not None),
            help="the game to simulate",
        )
        parser.add_argument("--players", type=int, required=True, help="how many players")
        parser.add_argument("--seed", type=int, help="the same seed gives the same game")
        parser.add_argument("--teams", action="store_true", help="team play, where the game has it")
        parser.add_argument(
            "--variant", help="the game's variant (Complots: ambassador, inquisitor)"
        )
        parser.add_argument(
            "--no-deal", action="store_true", help="Pot de Vin: leave the deal out of the log"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        info = get_engine(options["game"]).info
        if info.simulate is None:
            raise CommandError(f"{info.label} has no simulator")
        players = options["players"]
        if players not in info.player_counts:
            counts = ", ".join(map(str, info.player_counts))
            raise CommandError(f"{info.label} is for {counts} players, not {players}")
        seed = options["seed"]
        if seed is None:
            seed = random.SystemRandom().randrange(2**32)
        extra: dict[str, Any] = {}
        if options["teams"]:
            if players not in info.team_counts:
                raise CommandError(f"{info.label} has no team play for {players} players")
            extra["teams"] = True
        if options["variant"] is not None:
            if options["variant"] not in info.variants:
                known = ", ".join(info.variants) or "none"
                raise CommandError(f"{info.label} variants: {known}")
            extra["variant"] = options["variant"]
        if options["no_deal"]:
            if "hands" not in info.setup_keys:
                raise CommandError(f"{info.label} logs no deal")
            extra["record_deal"] = False
        try:
            log = info.simulate(players, seed=seed, **extra)
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(json.dumps(log, indent=2))
