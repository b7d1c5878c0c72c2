"""Migration games 0006: stored data the gate of stored JSON would refuse is reported, and
repaired where that changes nothing an engine reads or a person sees.

Games of the three types are stored through today's services, then spoiled behind their back
(as the service stored them before the gate: junk keys in entries and setups, an integer past
64 bits, look-alike names), and the migration is run again from 0005 (it changes no schema)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from django.db import connection

from games.records import services
from games.records.models import Game, Player, Round
from scoring.engine import ENGINES
from tests.accounts import first_club
from tests.records.migrations import latest, migrate

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
    pytest.mark.usefixtures("back_to_latest"),
]

BEFORE = [("games", "0005_generic_records")]
PER_GAME = 30


def _junk(value: Any) -> Any:
    """A copy with an undefined key in each object the formats let through (not in a Bruges
    gain or per-colour counts, nor in Pot de Vin's hands: their keys are data)."""
    if isinstance(value, dict):
        out = {k: v if k in ("gain", "hands", "dice") else _junk(v) for k, v in value.items()}
        out["zz_old_client"] = {"kept": "until now"}
        return out
    if isinstance(value, list):
        return [_junk(v) for v in value]
    return value


def test_the_migration_repairs_what_is_safe_and_reports_the_rest(
    django_user_model: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    owner = django_user_model.objects.create_user("owner")
    logs = []
    for game_type, engine in sorted(ENGINES.items()):
        if not engine.info.logged:  # an "other game" has no log to simulate
            continue
        info = engine.info
        assert info.simulate is not None
        for seed in range(PER_GAME):
            players = info.player_counts[seed % len(info.player_counts)]
            log = json.loads(json.dumps(info.simulate(players=players, seed=seed)))
            log["players"] = [f"{game_type[:3]}{(seed + i) % 9}" for i in range(players)]
            logs.append(log)
    games = services.game_import(club=first_club(), owner=owner, documents=logs)
    exported = {g.pk: services.game_export_log(game=g) for g in games}
    results = {g.pk: g.result for g in Game.objects.all()}

    old = migrate(BEFORE)  # the models as they were then (before clubs, among others)
    OldGame, OldPlayer, OldRound = (old.get_model("games", m) for m in ("Game", "Player", "Round"))
    # What a client could store before the gate: junk keys in every entry and in a setup.
    for rnd in OldRound.objects.all():
        OldRound.objects.filter(pk=rnd.pk).update(data=_junk(rnd.data))
    deal = next(g for g in games if g.game_type == "pot-de-vin" and g.setup.get("hands"))
    OldGame.objects.filter(pk=deal.pk).update(setup={**deal.setup, "zz": 1})
    # An integer no encoder of 64 bits writes, in one entry: reported, left as it is.
    huge = OldRound.objects.filter(game__game_type="bruges").order_by("id").first()
    assert huge is not None
    huge_data = {**copy.deepcopy(OldRound.objects.get(pk=huge.pk).data), "zz": 2**64}
    OldRound.objects.filter(pk=huge.pk).update(data=huge_data)
    # Names: one look-alike of another player's (reported), one alone (repaired). Their keys
    # as the code of the time made them.
    ada = OldPlayer.objects.create(name="Ada", name_key="ada")
    twin = OldPlayer.objects.create(name="Ada\u200b", name_key="ada\u200b")
    alone = OldPlayer.objects.create(name="\u202eZoë\u202c  Ｘ", name_key="\u202ezoë\u202c  x")
    assert ada.pk
    notes = OldGame.objects.filter(game_type="complots").order_by("id").first()
    assert notes is not None
    if connection.vendor == "sqlite":  # PostgreSQL stores no NUL in text
        OldGame.objects.filter(pk=notes.pk).update(notes="before\x00after")
        exported[notes.pk]["notes"] = "beforeafter"  # the NUL alone is gone

    migrate(latest())
    out = capsys.readouterr().out

    for game in Game.objects.all():
        if game.pk == huge.game_id:
            continue
        # Every junk key gone: the log is the one imported, and it still scores the same.
        assert services.game_export_log(game=game) == exported[game.pk], game.pk
        assert game.result == results[game.pk]
    assert Game.objects.get(pk=deal.pk).setup == deal.setup
    assert Round.objects.get(pk=huge.pk).data == huge_data
    assert f"game {huge.game_id}, entry {huge.number}: an integer outside 64 bits at zz" in out

    assert Player.objects.get(pk=twin.pk).name == "Ada\u200b"
    assert f"player {twin.pk}: 'Ada\\u200b' would be 'Ada', another player's name" in out
    repaired = Player.objects.get(pk=alone.pk)
    assert (repaired.name, repaired.name_key) == ("Zoë X", "zoë x")
