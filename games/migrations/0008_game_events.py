"""Each game's history (GameEvent), begun for the games stored before it from what they
record: created by their owner at their creation, each entry added at its time and a game
finished at its finish, by a person not recorded then (no user, no name)."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

BATCH = 2000


def begin_histories(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Round = apps.get_model("games", "Round")
    GameEvent = apps.get_model("games", "GameEvent")
    User = apps.get_model(settings.AUTH_USER_MODEL)
    names = dict(User.objects.values_list("id", "username"))
    batch = []

    def add(**fields):
        batch.append(GameEvent(**fields))
        if len(batch) >= BATCH:
            GameEvent.objects.bulk_create(batch)
            batch.clear()

    games = Game.objects.order_by("id").values_list(
        "id", "owner_id", "created_at", "mode", "status", "finished_at"
    )
    for game_id, owner_id, created_at, mode, status, finished_at in games.iterator(BATCH):
        add(
            game_id=game_id,
            action="created",
            user_id=owner_id,
            username=names.get(owner_id, ""),
            at=created_at,
        )
        if mode == "rounds" and status == "finished" and finished_at is not None:
            add(game_id=game_id, action="finished", at=finished_at)
    entries = Round.objects.order_by("game_id", "number").values_list(
        "game_id", "number", "created_at"
    )
    for game_id, number, created_at in entries.iterator(BATCH):
        add(game_id=game_id, action="added", number=number, at=created_at)
    GameEvent.objects.bulk_create(batch)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0007_user_settings"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="GameEvent",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "action",
                    models.CharField(
                        choices=[
                            ("created", "Created"),
                            ("edited", "Edited"),
                            ("added", "Entry added"),
                            ("corrected", "Entry corrected"),
                            ("undone", "Entry undone"),
                            ("finished", "Finished"),
                            ("reopened", "Reopened"),
                            ("deleted", "Deleted"),
                        ],
                        max_length=16,
                    ),
                ),
                ("number", models.PositiveSmallIntegerField(blank=True, null=True)),
                ("username", models.CharField(blank=True, max_length=150)),
                ("at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "game",
                    models.ForeignKey(
                        db_constraint=False,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="events",
                        to="games.game",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["game", "at", "id"],
                "indexes": [
                    models.Index(fields=["game", "at", "id"], name="games_gamee_game_id_ba5750_idx")
                ],
            },
        ),
        migrations.RunPython(begin_histories, migrations.RunPython.noop, elidable=True),
    ]
