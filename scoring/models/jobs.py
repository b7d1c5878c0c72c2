"""Batch jobs run by Celery workers: re-scoring stored games, importing many logs or the plays of
another app's file.

Progress is counted from ``JobItem`` rows, one per game (re-score) or document (import),
unique per job: a batch that a dead worker leaves unacknowledged is delivered again, and the
items it already wrote (in the same transaction as its results) make the second run a no-op
for them, so every game is scored, and counted, exactly once.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models

from games.records.access import Can
from games.records.adapters import json_decoded
from games.records.bulk import json_bytes


class Job(models.Model):
    class Kind(models.TextChoices):
        RESCORE = "rescore", "Re-score"
        IMPORT = "import", "Import"

    class Status(models.TextChoices):
        # An import of a file read and planned, waiting for who started it to confirm it (the
        # phone page shows the plan first); its plays wait in its inputs.
        PLANNED = "planned", "Planned"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"  # could not be queued

    kind = models.CharField(max_length=16, choices=Kind.choices)
    # The club whose games the job reads or writes; null: every club's (a re-score by staff).
    club = models.ForeignKey(
        "games.Club", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.RUNNING)
    params = models.JSONField(default=dict, blank=True)
    total = models.PositiveIntegerField(default=0)
    # Items written so far, and how many of them failed: each batch adds its own in its
    # transaction, so a poll reads two numbers instead of counting a million items.
    done = models.PositiveIntegerField(default=0)
    failed = models.PositiveIntegerField(default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # When a batch of the job last finished: a running job whose batches stopped coming lost
    # one to its broker, and needs a resume (scoring.jobs.job_resume).
    progressed_at = models.DateTimeField(null=True, blank=True)
    error = models.TextField(blank=True)

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"{self.kind} job {self.pk} ({self.status})"

    @property
    def role_to_start(self) -> Can:
        """The role in its club that starting this kind of job takes: an import writes games
        (a recorder's), a re-score rewrites every result (an admin's). Who started a job
        must still hold it to confirm or resume it (``access.owner_or_admin``)."""
        return Can.RECORD if self.kind == self.Kind.IMPORT else Can.ADMIN


class JobKeys(models.Model):
    """Every game a re-score job was started on, so that the batches of the games it has not
    done yet can be sent again (``scoring.jobs.job_resume``). Apart from ``Job``: read only
    then, and a job over every game holds a long list. (An import's keys are 0..total-1.)"""

    job = models.OneToOneField(Job, on_delete=models.CASCADE, related_name="keys")
    keys = models.JSONField(default=list)

    def __str__(self) -> str:
        return f"job {self.job_id}: {len(self.keys)} keys"


class JSONText(models.TextField):
    """A JSON value kept as text: written once, read back whole, never searched. PostgreSQL
    stores text as it comes, where jsonb parses it on the way in and writes it out again on the
    way back (three times the server's CPU for an import job's documents, measured). Read as
    the value (orjson); written from the value, or by COPY (``insert``) from its JSON text."""

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        return json_decoded(value)

    def get_prep_value(self, value: Any) -> Any:
        return None if value is None else json_bytes(value).decode()

    def deconstruct(self) -> Any:
        # Only Python's reading and writing differ from a TextField's: migrations see one, and
        # run without this module (they import no project code).
        name, _, args, kwargs = super().deconstruct()
        return name, "django.db.models.TextField", args, kwargs


class JobInput(models.Model):
    """An import job's documents (log documents, or plays read from another app's file:
    ``params["input"] == "plays"``), kept until its batches have read them."""

    job = models.ForeignKey(Job, on_delete=models.CASCADE, related_name="inputs")
    key = models.PositiveIntegerField()  # the document's index in the request
    document = JSONText()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["job", "key"], name="job_input_unique"),
        ]

    def __str__(self) -> str:
        return f"job {self.job_id} document {self.key}"


class JobItem(models.Model):
    """One game re-scored, or one document imported (or refused), by a job."""

    # A re-scored game's outcomes: its result found unchanged (nothing written), rewritten, or
    # rewritten with other winners.
    UNCHANGED, CHANGED, WINNERS_CHANGED = "unchanged", "changed", "winners_changed"
    RESCORE_WRITTEN = (CHANGED, WINNERS_CHANGED)

    job = models.ForeignKey(Job, on_delete=models.CASCADE, related_name="items")
    key = models.PositiveIntegerField()  # game id (re-score) or document index (import)
    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    ok = models.BooleanField()
    # A play of another app's file: what its import did (``games.exchange.imports``: created,
    # updated, unchanged or skipped). A re-scored game: ``unchanged`` (nothing written), ``changed``
    # (its result rewritten) or ``winners_changed`` (and its winners differ). Blank otherwise.
    outcome = models.CharField(max_length=16, blank=True)
    error = models.JSONField(null=True, blank=True)  # {"code", "message", "round", "seat"}
    winners_before = models.JSONField(null=True, blank=True)
    winners_after = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["job", "key"]
        constraints = [
            models.UniqueConstraint(fields=["job", "key"], name="job_item_unique"),
        ]
        indexes = [
            models.Index(fields=["job", "ok"]),
            models.Index(fields=["job", "outcome"], name="job_item_outcome"),
        ]

    def __str__(self) -> str:
        return f"job {self.job_id} item {self.key} ({'ok' if self.ok else 'failed'})"
