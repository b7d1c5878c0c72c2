from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0008_import_plays"),
    ]

    operations = [
        migrations.AddField(
            model_name="playergame",
            name="detailed",
            field=models.BooleanField(
                default=True,
                help_text="Whether the game's own counters are known: false for a play known by "
                "its final scores only (Game.Mode.RESULT), whose counters are all null.",
            ),
        ),
        migrations.AddField(
            model_name="playerstats",
            name="detailed_games",
            field=models.PositiveIntegerField(
                default=0,
                help_text="Games whose own counters are known (not known by final scores only): "
                "what the game's own figures are over.",
            ),
        ),
    ]
