"""Migration scoring 0013: an import job's documents waiting in the database (jsonb on
PostgreSQL) become JSON text, each with the same value; written after it, they are stored as
text as they came, and read back as the values they were."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection

from scoring.models import Job, JobInput
from tests.accounts import first_club
from tests.records.migrations import migrate

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
    pytest.mark.usefixtures("back_to_latest"),
]

BEFORE = [("scoring", "0012_rating_history_room_to_update")]
AFTER = [("scoring", "0013_job_inputs_as_text")]

# Written by hand: what a document may hold that text and jsonb write out differently (key
# order, spaces, escapes, numbers) and what both must keep.
DOCUMENTS = [
    {
        "format": "potdevin-log/1",
        "players": ["Café ☕", "Zoë 👩🏽‍🚀", 'say "hi"\n\t\\'],
        "rounds": [],
    },
    {"b": 1, "a": [None, True, False, 0.1, -0.0, 1e-7, 9223372036854775807, -(2**63)], "": {}},
    {"nested": [[[{"deep": [1, [2, [3]]]}]]], "unicode_escape": "\u00e9\u0001\u2028"},
]


def _column_type() -> str:
    with connection.cursor() as cursor:
        columns = connection.introspection.get_table_description(cursor, JobInput._meta.db_table)
    found = next(c for c in columns if c.name == "document")
    return str(connection.introspection.get_field_type(found.type_code, found))


def test_the_documents_waiting_keep_their_values_as_json_text(django_user_model: Any) -> None:
    owner = django_user_model.objects.create_user("owner")
    club = first_club()
    apps = migrate(BEFORE)
    OldJob, OldInput = apps.get_model("scoring", "Job"), apps.get_model("scoring", "JobInput")
    job = OldJob.objects.create(
        kind="import", status="running", total=3, created_by_id=owner.pk, club_id=club.pk
    )
    for key, document in enumerate(DOCUMENTS):
        OldInput.objects.create(job=job, key=key, document=document)

    migrate(AFTER)
    stored = dict(JobInput.objects.filter(job_id=job.pk).values_list("key", "document"))
    assert stored == dict(enumerate(DOCUMENTS))
    assert _column_type() == "TextField"
    if connection.vendor == "postgresql":  # the text is JSON that PostgreSQL itself reads
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT COUNT(*) FROM {JobInput._meta.db_table} WHERE document::jsonb IS NOT NULL"
            )
            assert cursor.fetchone()[0] == len(DOCUMENTS)


def test_a_document_written_after_is_read_back_as_it_was(django_user_model: Any) -> None:
    owner = django_user_model.objects.create_user("owner")
    job = Job.objects.create(kind=Job.Kind.IMPORT, total=3, created_by=owner, club=first_club())
    JobInput.objects.bulk_create(
        JobInput(job=job, key=key, document=document) for key, document in enumerate(DOCUMENTS)
    )
    stored = dict(JobInput.objects.filter(job=job).values_list("key", "document"))
    assert stored == dict(enumerate(DOCUMENTS))
    # Kept as text, as it came: the first document's keys in their order, not jsonb's.
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT document FROM {JobInput._meta.db_table} WHERE job_id = %s AND key = 0",
            [job.pk],
        )
        text = cursor.fetchone()[0]
    assert text.index('"format"') < text.index('"players"') < text.index('"rounds"')
