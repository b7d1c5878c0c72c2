"""The default deck of rules D1, stored as deck version "standard" (not verified)."""

from django.db import migrations

from scoring.engine.potdevin.decks import STANDARD_DECK


def create_standard_deck(apps, schema_editor):
    Deck = apps.get_model("games", "Deck")
    data = STANDARD_DECK.as_dict()
    Deck.objects.get_or_create(
        key=data["id"],
        defaults={
            "game_type": "pot-de-vin",
            "description": data["description"],
            "verified": False,
            "cards": data["cards"],
        },
    )


def remove_standard_deck(apps, schema_editor):
    apps.get_model("games", "Deck").objects.filter(key=STANDARD_DECK.id, games=None).delete()


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]
    operations = [migrations.RunPython(create_standard_deck, remove_standard_deck)]
