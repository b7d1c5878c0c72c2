"""``manage.py demo --games N``: players and simulated games to try the service with."""

from __future__ import annotations

import datetime
import random
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.records import services
from games.records.models import Club, Membership
from scoring.engine import ENGINES, GameInfo, get_engine

PEOPLE = [
    "Ada", "Bea", "Cy", "Dev", "Eli", "Flo", "Gus", "Hana", "Ivo", "Jun", "Kit", "Lea",
]  # fmt: skip
BATCH = 200


def _simulated() -> list[str]:
    """The games played from a log, which a simulator plays (not "other" games)."""
    return sorted(g for g, engine in ENGINES.items() if engine.info.simulate is not None)


class Command(BaseCommand):
    help = "Create players and simulated games (owned by user 'demo') to try the service with."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=50, help="how many games (default 50)")
        parser.add_argument("--seed", type=int, default=1, help="the same seed, the same games")
        parser.add_argument("--owner", default="demo", help="username owning the games")
        parser.add_argument(
            "--club",
            default=None,
            help="slug of the club the games go into (default: the site's first club); the "
            "owner becomes its recorder if they were not in it",
        )
        parser.add_argument(
            "--game",
            action="append",
            choices=_simulated(),
            help="a game to simulate (repeat for several; default: every game)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        count = options["games"]
        if not 0 < count <= 1_000_000:
            raise CommandError("--games takes a number from 1 to 1,000,000")
        rng = random.Random(options["seed"])
        owner, created = get_user_model().objects.get_or_create(username=options["owner"])
        if created:
            owner.set_unusable_password()
            owner.save()
        club = self._club(options["club"])
        Membership.objects.get_or_create(
            club=club, user=owner, defaults={"role": Membership.Role.RECORDER}
        )
        games = [get_engine(g).info for g in options["game"] or _simulated()]
        today = datetime.date.today()
        made = 0
        while made < count:
            batch = min(BATCH, count - made)
            docs = [self._game(rng, rng.choice(games), today) for _ in range(batch)]
            made += len(services.game_import(club=club, owner=owner, documents=docs))
        self.stdout.write(
            f"created {made} games owned by {owner.get_username()!r} in club {club.slug!r}"
        )

    def _club(self, slug: str | None) -> Club:
        if slug:
            club = Club.objects.filter(slug=slug).first()
            if club is None:
                raise CommandError(f"there is no club {slug!r}")
            return club
        # The site's first club (`migrate` makes it; made again on a database emptied since).
        first = Club.objects.order_by("id").first()
        return first or Club.objects.create(name="Club", slug="club")

    def _game(self, rng: random.Random, info: GameInfo, today: datetime.date) -> dict[str, Any]:
        assert info.simulate is not None
        players = rng.choice(info.player_counts)
        extra: dict[str, Any] = {}
        if players in info.team_counts:
            extra["teams"] = rng.random() < 0.4
        if info.variants:
            extra["variant"] = rng.choice(info.variants)
        log = info.simulate(
            players, seed=rng.randrange(2**32), names=rng.sample(PEOPLE, players), **extra
        )
        entries = log[info.entries_key]
        if rng.random() < 0.1 and entries:  # a few games still being played
            log[info.entries_key] = entries[: rng.randrange(len(entries))]
            for key in info.finish_keys:  # the end-of-game choices of the whole game go too
                log.pop(key, None)
        log["played_on"] = (today - datetime.timedelta(days=rng.randrange(365))).isoformat()
        log["location"] = rng.choice(["Club night", "Kitchen table", "Café", ""])
        return log
