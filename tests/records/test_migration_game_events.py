"""Migration games 0008: the games stored before histories were kept get the history their rows
record: created by their owner at their creation, each entry entered at its time and a game
logged entry by entry finished at its finish, by nobody known (no user, no name).

Games of the three types are stored through today's services, the database is taken back to
0007 (no history table) and migrated again."""

from __future__ import annotations

from typing import Any

import pytest

from games.records import services
from games.records.models import Game, GameEvent, Round
from scoring.engine import ENGINES
from tests.accounts import first_club
from tests.records.migrations import migrate

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
    pytest.mark.usefixtures("back_to_latest"),
]

BEFORE = [("games", "0007_user_settings")]
PER_GAME = 12


def test_the_games_stored_before_get_the_history_their_rows_record(
    django_user_model: Any,
) -> None:
    owner = django_user_model.objects.create_user("owner")
    services.editions_ensure_builtin()
    logs = []
    for _, engine in sorted(ENGINES.items()):
        if not engine.info.logged:  # an "other game" has no log to simulate
            continue
        info = engine.info
        assert info.simulate is not None
        for seed in range(PER_GAME):
            players = info.player_counts[seed % len(info.player_counts)]
            log = info.simulate(players=players, seed=seed)
            if seed % 3 == 0:  # some games in progress: their last entries not yet entered
                log = {**log, info.entries_key: log[info.entries_key][:2]}
                log.pop("final", None)
            logs.append(log)
    services.game_import(club=first_club(), owner=owner, documents=logs)
    games = list(Game.objects.order_by("id"))
    assert {g.status for g in games} == {Game.Status.FINISHED, Game.Status.IN_PROGRESS}
    # What each game's rows say, read before the migration.
    expected = set()
    for game in games:
        expected.add((game.pk, "created", None, owner.pk, "owner", game.created_at))
        if game.status == Game.Status.FINISHED:
            expected.add((game.pk, "finished", None, None, "", game.finished_at))
    for entry in Round.objects.all():
        expected.add((entry.game_id, "added", entry.number, None, "", entry.created_at))
    assert len(expected) > 3 * PER_GAME * 3

    migrate(BEFORE)
    migrate([("games", "0008_game_events")])

    rows = GameEvent.objects.values_list("game_id", "action", "number", "user_id", "username", "at")
    assert set(rows) == expected
    assert GameEvent.objects.count() == len(expected)
