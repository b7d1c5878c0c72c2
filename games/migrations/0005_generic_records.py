"""One record model for every game.

Pot de Vin's own columns become generic ones: ``Deck`` is an ``Edition`` (its cards are its
``data``, keys unique per game type), a game's deal (``hands``, ``trump_pile``) is its
``setup``, its Jokers its ``finish``, its scorepad ``tableaux`` its ``sheet``, and a round's
``trump`` and ``plays`` are its ``data``. Every value is copied as it was (no engine code runs
here), so every game's exported log and result are the same before and after.
"""

from django.db import migrations, models

BATCH = 500


def _chunked_update(model, fields, rows):
    batch = []
    for row in rows:
        batch.append(row)
        if len(batch) == BATCH:
            model.objects.bulk_update(batch, fields)
            batch = []
    if batch:
        model.objects.bulk_update(batch, fields)


def forward(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Round = apps.get_model("games", "Round")

    def games():
        for game in Game.objects.only("hands", "trump_pile", "jokers", "tableaux").iterator(
            chunk_size=BATCH
        ):
            game.setup = {"hands": game.hands, "trump_pile": game.trump_pile}
            game.finish = None if game.jokers is None else {"jokers": game.jokers}
            game.sheet = game.tableaux
            yield game

    def rounds():
        for rnd in Round.objects.only("trump", "plays").iterator(chunk_size=BATCH):
            rnd.data = {"trump": rnd.trump, "plays": rnd.plays}
            yield rnd

    _chunked_update(Game, ["setup", "finish", "sheet"], games())
    _chunked_update(Round, ["data"], rounds())


def backward(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Round = apps.get_model("games", "Round")

    def games():
        for game in Game.objects.only("setup", "finish", "sheet").iterator(chunk_size=BATCH):
            setup = game.setup or {}
            game.hands = setup.get("hands")
            game.trump_pile = setup.get("trump_pile")
            game.jokers = (game.finish or {}).get("jokers")
            game.tableaux = game.sheet
            yield game

    def rounds():
        for rnd in Round.objects.only("data").iterator(chunk_size=BATCH):
            rnd.trump = rnd.data.get("trump", "")
            rnd.plays = rnd.data.get("plays", [])
            yield rnd

    _chunked_update(Game, ["hands", "trump_pile", "jokers", "tableaux"], games())
    _chunked_update(Round, ["trump", "plays"], rounds())


class Migration(migrations.Migration):
    dependencies = [("games", "0004_player_name_key")]

    operations = [
        # Deck -> Edition
        migrations.RenameModel("Deck", "Edition"),
        migrations.RenameField("Edition", "cards", "data"),
        migrations.AlterField(
            "Edition",
            "data",
            models.JSONField(help_text='Pot de Vin: card to guild symbols, {"A4": ["nobles"]}.'),
        ),
        migrations.AlterField("Edition", "key", models.SlugField(max_length=64)),
        migrations.AlterField("Edition", "game_type", models.CharField(max_length=32)),
        migrations.AlterField(
            "Edition",
            "verified",
            models.BooleanField(
                default=False, help_text="Checked against the printed material by a person."
            ),
        ),
        migrations.AlterModelOptions("Edition", {"ordering": ["game_type", "key"]}),
        migrations.AddConstraint(
            "Edition",
            models.UniqueConstraint(fields=["game_type", "key"], name="edition_key_per_game"),
        ),
        # Game: the generic columns
        migrations.RenameField("Game", "deck", "edition"),
        migrations.AlterField(
            "Game",
            "edition",
            models.ForeignKey(
                blank=True,
                null=True,
                on_delete=models.deletion.PROTECT,
                related_name="games",
                to="games.edition",
            ),
        ),
        migrations.AlterField("Game", "game_type", models.CharField(max_length=32)),
        migrations.AlterField(
            "Game",
            "mode",
            models.CharField(
                choices=[("rounds", "Entry by entry"), ("scorepad", "Final sheet only")],
                default="rounds",
                max_length=16,
            ),
        ),
        migrations.AddField("Game", "variant", models.CharField(blank=True, max_length=32)),
        migrations.AddField("Game", "setup", models.JSONField(blank=True, default=dict)),
        migrations.AddField("Game", "finish", models.JSONField(blank=True, null=True)),
        migrations.AddField(
            "Game",
            "sheet",
            models.JSONField(blank=True, help_text="Scorepad mode only.", null=True),
        ),
        migrations.AddField("Round", "data", models.JSONField(null=True)),
        migrations.RunPython(forward, backward),
        migrations.RemoveField("Game", "hands"),
        migrations.RemoveField("Game", "trump_pile"),
        migrations.RemoveField("Game", "jokers"),
        migrations.RemoveField("Game", "tableaux"),
        migrations.RemoveField("Round", "trump"),
        migrations.RemoveField("Round", "plays"),
        migrations.AlterField("Round", "data", models.JSONField()),
    ]
