"""Statistics and ratings per game type.

Every statistics and ratings row gets a ``game_type``; the rows stored so far are Pot de Vin's,
the only game there was. The Pot de Vin columns of ``PlayerGame`` and ``PlayerStats`` (rounds
won, gems, sweeps, negative guild columns, revokes) move into the ``counters`` JSON column under
the names the Pot de Vin statistics module gives them (games/plugins/potdevin/stats.py), in SQL,
so the statistics served right after the migration are the ones served before it. Counters that
did not exist before (``cards_won``) appear with the next refresh of a player, or at once with
``manage.py stats_rebuild``.

The guilds are written out here (rules D1) rather than imported: a migration does not import
live engine code. Backwards, the statistics are cleared (they are derived data: run
``manage.py stats_rebuild`` after migrating back).
"""

from typing import Any

import django.db.models.deletion
from django.db import migrations, models

GUILDS = ("nobles", "artists", "traders", "workmen", "knights", "assassins")
POT_DE_VIN = "pot-de-vin"


def _object(vendor: str, pairs: list[tuple[str, str]]) -> str:
    build = "jsonb_build_object" if vendor == "postgresql" else "json_object"
    items = ", ".join(f"'{key}', {value}" for key, value in pairs)
    return f"{build}({items})"


def _negative_column(vendor: str, guild: str) -> str:
    if vendor == "postgresql":
        return f"COALESCE((negative_columns ->> '{guild}')::int, 0)"
    return f"COALESCE(json_extract(negative_columns, '$.{guild}'), 0)"


def counters_from_columns(apps: Any, schema_editor: Any) -> None:
    connection = schema_editor.connection
    vendor = connection.vendor
    q = connection.ops.quote_name
    game_pairs = [
        ("logged_games", "CASE WHEN rounds_won IS NULL THEN 0 ELSE 1 END"),
        ("rounds_won", "rounds_won"),
        ("gems_paid", "gems_paid"),
        ("gems_won", "gems_won"),
        ("pot_de_vin_sweeps", "CASE WHEN pot_de_vin_sweep THEN 1 ELSE 0 END"),
        *(
            (f"negative_{g}", f"CASE WHEN (negative_guilds & {1 << i}) <> 0 THEN 1 ELSE 0 END")
            for i, g in enumerate(GUILDS)
        ),
        ("revokes", "revokes"),
    ]
    stats_pairs = [
        ("logged_games", "logged_games"),
        ("rounds_won", "rounds_won"),
        ("gems_paid", "gems_paid"),
        ("gems_won", "gems_won"),
        ("pot_de_vin_sweeps", "sweeps"),
        *((f"negative_{g}", _negative_column(vendor, g)) for g in GUILDS),
        ("revokes", "revokes"),
    ]
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {q('scoring_playergame')} SET counters = {_object(vendor, game_pairs)}"
        )
        cursor.execute(
            f"UPDATE {q('scoring_playerstats')} SET counters = {_object(vendor, stats_pairs)}, "
            "scored_games = games"
        )


def clear_statistics(apps: Any, schema_editor: Any) -> None:
    for name in ("PlayerGame", "PlayerStats", "HeadToHead", "Rating", "RatingHistory"):
        apps.get_model("scoring", name).objects.all().delete()
    apps.get_model("scoring", "RatingsPending").objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0005_job_progressed_at"),
    ]

    operations = [
        # Everything stored so far is Pot de Vin.
        *(
            migrations.AddField(
                model_name=model,
                name="game_type",
                field=models.CharField(default=POT_DE_VIN, max_length=32),
                preserve_default=False,
            )
            for model in (
                "playergame",
                "playerstats",
                "headtohead",
                "rating",
                "ratinghistory",
                "ratingspending",
            )
        ),
        migrations.AddField(
            model_name="playergame",
            name="counters",
            field=models.JSONField(
                default=dict,
                help_text="The game's own counters for this seat, by name (integers; null: not "
                "known): its engine's info.stats and its plugin's statistics module.",
            ),
        ),
        migrations.AlterField(
            model_name="playergame",
            name="score",
            field=models.IntegerField(
                help_text="The player's score, or the team's in team play; null in a game "
                "without scores (ranks only).",
                null=True,
            ),
        ),
        migrations.AddField(
            model_name="playerstats",
            name="counters",
            field=models.JSONField(
                default=dict, help_text="Counter name to its sum over the games."
            ),
        ),
        migrations.AddField(
            model_name="playerstats",
            name="scored_games",
            field=models.PositiveIntegerField(default=0, help_text="Games with a score."),
        ),
        migrations.RunPython(counters_from_columns, migrations.RunPython.noop),
        *(
            migrations.RemoveField(model_name="playergame", name=name)
            for name in (
                "rounds_won",
                "gems_paid",
                "gems_won",
                "pot_de_vin_sweep",
                "negative_guilds",
                "revokes",
            )
        ),
        *(
            migrations.RemoveField(model_name="playerstats", name=name)
            for name in (
                "logged_games",
                "rounds_won",
                "gems_paid",
                "gems_won",
                "sweeps",
                "negative_columns",
                "revokes",
            )
        ),
        migrations.AlterField(
            model_name="playerstats",
            name="bucket",
            field=models.CharField(max_length=16),
        ),
        # Keys and indexes with the game type.
        migrations.RemoveIndex(model_name="playergame", name="player_game_by_date"),
        migrations.RemoveIndex(model_name="playergame", name="player_game_date"),
        migrations.AddIndex(
            model_name="playergame",
            index=models.Index(
                fields=["player", "game_type", "played_on", "game"], name="player_game_by_date"
            ),
        ),
        migrations.AddIndex(
            model_name="playergame",
            index=models.Index(fields=["game_type", "played_on", "game"], name="player_game_date"),
        ),
        migrations.RemoveConstraint(model_name="playerstats", name="player_stats_unique"),
        migrations.AddConstraint(
            model_name="playerstats",
            constraint=models.UniqueConstraint(
                fields=("player", "game_type", "bucket"), name="player_stats_unique"
            ),
        ),
        migrations.RemoveConstraint(model_name="headtohead", name="head_to_head_unique"),
        migrations.AddConstraint(
            model_name="headtohead",
            constraint=models.UniqueConstraint(
                fields=("player", "opponent", "game_type"), name="head_to_head_unique"
            ),
        ),
        migrations.RemoveIndex(model_name="headtohead", name="head_to_head_by_games"),
        migrations.AddIndex(
            model_name="headtohead",
            index=models.Index(
                fields=["player", "game_type", "-games"], name="head_to_head_by_games"
            ),
        ),
        migrations.AlterField(
            model_name="rating",
            name="player",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="ratings",
                to="games.player",
            ),
        ),
        migrations.AddConstraint(
            model_name="rating",
            constraint=models.UniqueConstraint(
                fields=("player", "game_type"), name="rating_unique"
            ),
        ),
        migrations.RemoveIndex(model_name="rating", name="rating_leaderboard"),
        migrations.AddIndex(
            model_name="rating",
            index=models.Index(
                fields=["game_type", "-ordinal", "player"], name="rating_leaderboard"
            ),
        ),
        migrations.RemoveIndex(model_name="ratinghistory", name="rating_history_by_date"),
        migrations.RemoveIndex(model_name="ratinghistory", name="rating_history_date"),
        migrations.AddIndex(
            model_name="ratinghistory",
            index=models.Index(
                fields=["player", "game_type", "played_on", "game"], name="rating_history_by_date"
            ),
        ),
        migrations.AddIndex(
            model_name="ratinghistory",
            index=models.Index(
                fields=["game_type", "played_on", "game"], name="rating_history_date"
            ),
        ),
        # Backwards, the old columns come back empty: clear the derived rows first.
        migrations.RunPython(migrations.RunPython.noop, clear_statistics),
    ]
