"""Rating history keeps half of each page free on PostgreSQL (fillfactor 50), so that a
recompute's update of a row (new values, same player, game and date) is written on the row's
own page: no index entry is added and no foreign key checked again (a heap-only update). A
recompute rewrites every row from its earliest changed date, hundreds of thousands of them.

Nothing is rewritten here: a row written before moves to a page with room the next time it
is updated. Other databases have no such setting."""

from typing import Any

from django.db import migrations

FILLFACTOR = 50


def _table(apps: Any) -> str:
    return str(apps.get_model("scoring", "RatingHistory")._meta.db_table)


def room_to_update(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        table = schema_editor.quote_name(_table(apps))
        schema_editor.execute(f"ALTER TABLE {table} SET (fillfactor = {FILLFACTOR})")


def pages_full(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        table = schema_editor.quote_name(_table(apps))
        schema_editor.execute(f"ALTER TABLE {table} RESET (fillfactor)")


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0011_ratings_pending_club"),
    ]

    operations = [
        migrations.RunPython(room_to_update, pages_full),
    ]
