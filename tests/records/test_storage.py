"""How game records are stored on PostgreSQL."""

import pytest
from django.db import connection

from games.records.models import Game

pytestmark = pytest.mark.django_db


def test_results_are_compressed_with_lz4_where_the_server_has_it() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("column compression is PostgreSQL's")
    with connection.cursor() as cursor:
        cursor.execute("SELECT enumvals FROM pg_settings WHERE name = 'default_toast_compression'")
        (methods,) = cursor.fetchone()
        cursor.execute(
            "SELECT attcompression FROM pg_attribute"
            " WHERE attrelid = %s::regclass AND attname = 'result'",
            [Game._meta.db_table],
        )
        (method,) = cursor.fetchone()
    # 'l' is lz4; '' is the server default (pglz), kept by servers built without lz4.
    assert method == ("l" if "lz4" in methods else "")
