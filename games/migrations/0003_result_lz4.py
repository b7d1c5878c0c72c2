"""PostgreSQL: compress stored results with lz4 instead of the default pglz.

A result is several KB of JSON, rewritten for every game by a re-score; lz4 compresses it
several times faster. Servers built without lz4 keep pglz, and other databases are untouched.
"""

from django.db import DatabaseError, migrations, transaction


def use_lz4(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    Game = apps.get_model("games", "Game")
    table = schema_editor.quote_name(Game._meta.db_table)
    try:
        with transaction.atomic(using=schema_editor.connection.alias):
            schema_editor.execute(f"ALTER TABLE {table} ALTER COLUMN result SET COMPRESSION lz4")
    except DatabaseError:
        pass  # "compression method lz4 not supported": this server was built without it


def use_default(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    Game = apps.get_model("games", "Game")
    table = schema_editor.quote_name(Game._meta.db_table)
    schema_editor.execute(f"ALTER TABLE {table} ALTER COLUMN result SET COMPRESSION default")


class Migration(migrations.Migration):
    dependencies = [("games", "0002_standard_deck")]

    operations = [migrations.RunPython(use_lz4, use_default)]
