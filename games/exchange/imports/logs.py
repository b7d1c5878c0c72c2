"""Our own game logs in the import's terms (what they would create, as the import's summary),
and the one way in for every file read: another app's plays or our logs (``file_import``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from games.exchange.formats.plays import PlayFile
from games.exchange.imports.matching import plays_plan
from games.exchange.imports.store import plays_store
from games.records import services
from games.records.errors import RecordError
from games.records.i18n import engine_message
from games.records.models import Club, Player, name_key
from scoring.engine import LogError

LOG_FORMAT = "log"  # the summary's format of our own game logs


def file_import(
    *,
    club: Club,
    owner: AbstractBaseUser,
    read: PlayFile | list[dict[str, Any]],
    dry_run: bool = False,
    by: AbstractBaseUser | None = None,
) -> dict[str, Any]:
    """Import what ``games.exchange.formats.detect.read_play_file`` read: another app's plays
    (``plays_store``), or our own game logs (``services.game_import``), all or nothing; with
    ``dry_run``, what would be done, writing nothing. Returns the summary (``plan_summary``).
    Raises ``RecordError`` (with the play's or the document's ``index``) and ``LogError``."""
    if isinstance(read, list):
        return _logs_import(club, owner, read, dry_run)
    if dry_run:
        return plays_plan(club=club, play_file=read).summary()
    plan, outcomes = plays_store(club=club, owner=owner, play_file=read, by=by)
    return plan.summary(outcomes)


def logs_plan(
    *, club: Club, owner: AbstractBaseUser, documents: Sequence[dict[str, Any]]
) -> dict[str, Any]:
    """What importing our own log documents would create (``services.import_plan`` on each,
    which writes nothing), as a summary. Raises ``RecordError`` naming the first document the
    import would refuse (``index``): the log import is all or nothing."""
    editions = services.EditionCache()
    names: list[str] = []
    types: Counter[str] = Counter()
    for index, document in enumerate(documents):
        try:
            game, seated, _ = services.import_plan(
                club=club, owner=owner, document=document, editions=editions
            )
        except LogError as exc:
            # i18n: engine message
            raise RecordError(
                exc.code, engine_message(exc), round=exc.round, seat=exc.seat, index=index
            ) from exc
        except RecordError as exc:
            exc.index = index
            raise
        names.extend(seated)
        types[game.game_type] += 1
    keys = {name_key(n) for n in names}
    roster = Player.objects.filter(club=club, name_key__in=keys)
    known = set(roster.values_list("name_key", flat=True))
    count = len(documents)
    return {
        "format": LOG_FORMAT,
        "plays": count,
        "created": {
            "games": count,
            "players": len(keys - known),
            "board_games": 0,
            "locations": 0,
        },
        "matched": {"players": len(keys & known), "board_games": 0, "locations": 0},
        "updated": 0,
        "unchanged": 0,
        "game_types": dict(sorted(types.items())),
        "skipped": [],
        "problems": [],
    }


def _logs_import(
    club: Club, owner: AbstractBaseUser, documents: list[dict[str, Any]], dry_run: bool
) -> dict[str, Any]:
    with transaction.atomic():
        summary = logs_plan(club=club, owner=owner, documents=documents)
        if not dry_run:
            services.game_import(club=club, owner=owner, documents=documents)
    return summary
