"""What the scale bench loads: its clubs, their players, and each club's logs, copied from a
pool of simulated ones."""

from __future__ import annotations

import datetime
import json
import random
from collections.abc import Callable, Sequence
from typing import Any

from bench.scale.config import DAYS, FIRST_DAY, PLAYERS_PER_CLUB, SAMPLE_PLAYERS, SHARES
from games.records.models import Club, Membership, Player
from scoring.engine.bruges.simulate import simulate as bruges
from scoring.engine.complots.simulate import simulate as complots
from scoring.engine.potdevin.simulate import simulate as potdevin


def log_pool(size: int) -> dict[str, list[dict[str, Any]]]:
    """``size`` simulated logs per game type, of every player count, each decoded from its JSON
    as a stored log is."""
    simulators: dict[str, Callable[[int], dict[str, Any]]] = {
        "pot-de-vin": lambda k: potdevin(3 + k % 4, seed=k, teams=k % 8 == 1),
        "complots": lambda k: complots(2 + k % 7, seed=k),
        "bruges": lambda k: bruges(2 + k % 3, seed=k),
    }
    return {
        game_type: [json.loads(json.dumps(simulate(k))) for k in range(size)]
        for game_type, simulate in simulators.items()
    }


def club_documents(
    pool: dict[str, list[dict[str, Any]]], club: int, count: int
) -> list[dict[str, Any]]:
    """``count`` logs of club number ``club``: the pool's, with the club's players and dates.
    The same for the same club."""
    rng = random.Random(club)
    names = [f"Player {k:02d}" for k in range(PLAYERS_PER_CLUB)]
    kinds = [game_type for game_type, share in SHARES for _ in range(share)]
    documents = []
    for n in range(count):
        template = rng.choice(pool[kinds[n % len(kinds)]])
        played_on = FIRST_DAY + datetime.timedelta(days=rng.randrange(DAYS))
        documents.append(
            {
                **template,
                "players": rng.sample(names, len(template["players"])),
                "played_on": played_on.isoformat(),
            }
        )
    return documents


def clubs_create(owner: Any, count: int) -> list[Any]:
    clubs = Club.objects.bulk_create(
        Club(name=f"Club {k:05d}", slug=f"scale-{k:05d}") for k in range(count)
    )
    Membership.objects.bulk_create(
        Membership(club=club, user=owner, role=Membership.Role.OWNER) for club in clubs
    )
    return clubs


def reader_join(reader: Any, clubs: Sequence[Any]) -> None:
    Membership.objects.bulk_create(
        Membership(club=club, user=reader, role=Membership.Role.MEMBER) for club in clubs
    )


def sample_players(clubs: Sequence[Any]) -> list[tuple[int, str]]:
    """The players whose reads are timed (id, club slug): the first SAMPLE_PLAYERS of each of
    ``clubs`` (the logs made them). The same players at every size: their clubs are full by
    the checkpoint, so only what the other clubs add around them grows."""
    sample: list[tuple[int, str]] = []
    for club in clubs:
        ids = Player.objects.filter(club=club).order_by("pk").values_list("pk", flat=True)
        sample.extend((pk, club.slug) for pk in ids[:SAMPLE_PLAYERS])
    return sample
