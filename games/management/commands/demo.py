"""``manage.py demo --games N``: players and simulated games to try the service with."""

from __future__ import annotations

import datetime
import random
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import services
from scoring.engine.potdevin.simulate import simulate

PEOPLE = [
    "Ada", "Bea", "Cy", "Dev", "Eli", "Flo", "Gus", "Hana", "Ivo", "Jun", "Kit", "Lea",
]  # fmt: skip
BATCH = 200


class Command(BaseCommand):
    help = "Create players and simulated Pot de Vin games (owned by user 'demo') to try it out."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=50, help="how many games (default 50)")
        parser.add_argument("--seed", type=int, default=1, help="the same seed, the same games")
        parser.add_argument("--owner", default="demo", help="username owning the games")

    def handle(self, *args: Any, **options: Any) -> None:
        count = options["games"]
        if not 0 < count <= 1_000_000:
            raise CommandError("--games takes a number from 1 to 1,000,000")
        rng = random.Random(options["seed"])
        owner, created = get_user_model().objects.get_or_create(username=options["owner"])
        if created:
            owner.set_unusable_password()
            owner.save()
        today = datetime.date.today()
        made = 0
        while made < count:
            docs = [self._game(rng, today) for _ in range(min(BATCH, count - made))]
            made += len(services.game_import(owner=owner, documents=docs))
        self.stdout.write(f"created {made} games owned by {owner.get_username()!r}")

    def _game(self, rng: random.Random, today: datetime.date) -> dict[str, Any]:
        players = rng.choice([3, 4, 4, 5, 6])
        log = simulate(
            players,
            seed=rng.randrange(2**32),
            teams=players in (4, 6) and rng.random() < 0.4,
            record_deal=rng.random() < 0.5,
            names=rng.sample(PEOPLE, players),
        )
        if rng.random() < 0.1:  # a few games still being played
            log["rounds"] = log["rounds"][: rng.randrange(len(log["rounds"]))]
        log["played_on"] = (today - datetime.timedelta(days=rng.randrange(365))).isoformat()
        log["location"] = rng.choice(["Club night", "Kitchen table", "Café", ""])
        return log
