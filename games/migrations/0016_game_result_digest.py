"""Each game keeps the digest of its result (``Game.result_digest``), so that a re-score compares
a result computed again with the stored one without reading it; the games stored before get
theirs from their stored results here.

The digest is written out as it is defined today (``games.records.models.result_digest``, which
``tests/records/test_migration_result_digest.py`` holds this copy to): a migration does not
follow the code that changes after it."""

import hashlib
import json

import orjson
from django.db import migrations, models

BATCH = 2000
_CANONICAL = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS


def _digest(text):
    try:
        result = orjson.loads(text)
    except orjson.JSONDecodeError:  # what orjson refuses and json reads
        result = json.loads(text)
    if result is None:
        return None
    try:
        return hashlib.sha256(orjson.dumps(result, option=_CANONICAL)).hexdigest()
    except orjson.JSONEncodeError:
        return None  # unknown: a re-score compares the stored result itself


def fill_digests(apps, schema_editor):
    """Page by page in id order (a million games are a few hundred pages), each page's digests
    written in one statement on PostgreSQL."""
    Game = apps.get_model("games", "Game")
    connection = schema_editor.connection
    table = schema_editor.quote_name(Game._meta.db_table)
    pg = connection.vendor == "postgresql"
    text = "result::text" if pg else "result"
    last = 0
    with connection.cursor() as cursor:
        while True:
            cursor.execute(
                f"SELECT id, {text} FROM {table} WHERE id > %s AND result IS NOT NULL "
                "ORDER BY id LIMIT %s",
                [last, BATCH],
            )
            rows = cursor.fetchall()
            if not rows:
                return
            last = rows[-1][0]
            ids = [pk for pk, _ in rows]
            digests = [_digest(value) for _, value in rows]
            if pg:
                cursor.execute(
                    f"UPDATE {table} SET result_digest = v.digest "
                    "FROM unnest(%s::bigint[], %s::varchar[]) AS v(id, digest) "
                    f"WHERE {table}.id = v.id",
                    [ids, digests],
                )
            else:
                cursor.executemany(
                    f"UPDATE {table} SET result_digest = %s WHERE id = %s",
                    list(zip(digests, ids, strict=True)),
                )


class Migration(migrations.Migration):
    dependencies = [("games", "0015_idempotency_keys")]

    operations = [
        migrations.AddField(
            model_name="game",
            name="result_digest",
            field=models.CharField(blank=True, editable=False, max_length=64, null=True),
        ),
        migrations.RunPython(fill_digests, migrations.RunPython.noop),
    ]
