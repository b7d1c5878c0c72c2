"""Players are told apart by a folded key computed in Python (case and Unicode forms), instead
of a unique LOWER(name) that SQLite folds for ASCII only."""

import unicodedata

from django.db import migrations, models


def fill_keys(apps, schema_editor):
    Player = apps.get_model("games", "Player")
    seen = set()
    for player in Player.objects.order_by("id"):
        # games.models.name_key as it is now (a migration keeps its own copy).
        key = unicodedata.normalize("NFKC", player.name.strip()).casefold()
        if key in seen:
            # "Úna" and "úna", told apart before on SQLite: both kept, the later one found by
            # its id until it is renamed.
            key = f"{key}#{player.pk}"
        seen.add(key)
        player.name_key = key
        player.save(update_fields=["name_key"])


class Migration(migrations.Migration):
    dependencies = [("games", "0003_result_lz4")]

    operations = [
        migrations.AddField(
            model_name="player",
            name="name_key",
            field=models.CharField(default="", editable=False, max_length=240),
            preserve_default=False,
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="player",
            name="name_key",
            field=models.CharField(editable=False, max_length=240, unique=True),
        ),
        migrations.RemoveConstraint(
            model_name="player",
            name="player_name_unique_ci",
        ),
    ]
