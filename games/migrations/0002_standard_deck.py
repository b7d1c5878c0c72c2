"""The default deck of rules D1, stored as deck version "standard" (not verified).

The layout is written out here as it was when this migration was made: a migration must not
import live engine code, which may change or move.
"""

from django.db import migrations

STANDARD_KEY = "standard"
DESCRIPTION = "Default layout of rules D1, built from a rule: NOT verified against the printed cards. Correct it by creating a new deck version."
CARDS = {
    "A10": ["nobles", "nobles"],
    "A11": ["knights", "knights"],
    "A12": ["traders", "traders"],
    "A4": ["nobles"],
    "A5": ["artists"],
    "A6": ["traders"],
    "A7": ["workmen"],
    "A8": ["knights"],
    "A9": ["assassins"],
    "E10": ["traders", "traders"],
    "E11": ["nobles", "nobles"],
    "E12": ["knights", "knights"],
    "E4": ["traders"],
    "E5": ["workmen"],
    "E6": ["knights"],
    "E7": ["assassins"],
    "E8": ["nobles"],
    "E9": ["artists"],
    "P10": ["artists", "artists"],
    "P11": ["assassins", "assassins"],
    "P12": ["workmen", "workmen"],
    "P4": ["artists"],
    "P5": ["traders"],
    "P6": ["workmen"],
    "P7": ["knights"],
    "P8": ["assassins"],
    "P9": ["nobles"],
    "U10": ["workmen", "workmen"],
    "U11": ["artists", "artists"],
    "U12": ["assassins", "assassins"],
    "U4": ["workmen"],
    "U5": ["knights"],
    "U6": ["assassins"],
    "U7": ["nobles"],
    "U8": ["artists"],
    "U9": ["traders"],
}


def create_standard_deck(apps, schema_editor):
    Deck = apps.get_model("games", "Deck")
    Deck.objects.get_or_create(
        key=STANDARD_KEY,
        defaults={
            "game_type": "pot-de-vin",
            "description": DESCRIPTION,
            "verified": False,
            "cards": CARDS,
        },
    )


def remove_standard_deck(apps, schema_editor):
    apps.get_model("games", "Deck").objects.filter(key=STANDARD_KEY, games=None).delete()


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]
    operations = [migrations.RunPython(create_standard_deck, remove_standard_deck)]
