"""Settings for the project's own pages run in the browser, in Pyodide (``games/web/offline_app``
builds the bundle; ``static/js/app-worker.js`` runs it): one game's records in an in-memory
SQLite database, built from the models at once (no migrations), nothing outside the worker
(no broker, no shared cache, no mail).

What differs from ``settings`` and why:

- the database is ``:memory:``: the snapshot of one game is loaded into it at start and thrown
  away with the worker; the server stays the only store;
- ``MIGRATION_MODULES`` is None for every app: ``migrate --run-syncdb`` creates the tables from
  the models in one step (the migrations' history, and their PostgreSQL-only steps such as
  lz4, mean nothing here);
- Celery runs nothing: tasks would run eagerly in the worker, and no broker is reached;
- a fast password hasher (the user is signed in with ``force_login``, no password is checked).
"""

from __future__ import annotations

import os

from potdevin_site.settings import *  # noqa: F403
from potdevin_site.settings import REST_FRAMEWORK

# Pyodide runs Python inside the page's event loop, so Django sees a running loop and would
# refuse every query as "async unsafe"; the worker runs one request at a time, in one thread.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

DEBUG = False
ALLOWED_HOSTS = ["*"]
DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": ":memory:",
        "ATOMIC_REQUESTS": False,
    }
}
# Every installed app's label (INSTALLED_APPS): no migrations, the tables from the models.
MIGRATION_MODULES = {
    label: None
    for label in (
        *("admin", "auth", "contenttypes", "sessions", "messages", "staticfiles"),
        *("rest_framework", "authtoken", "django_filters", "drf_spectacular"),
        *("drf_spectacular_sidecar",),
        *("django_celery_results", "games", "scoring"),
    )
}
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
# No broker: a task sent here runs in place (and no task is sent by the entry pages).
CELERY_BROKER_URL = "memory://"
CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {}
CELERY_TASK_ALWAYS_EAGER = True
CELERY_RESULT_BACKEND = "cache+memory://"
POTDEVIN_RATINGS_SYNC = False
# The pages' writes are throttled per user by the server; one person at one phone here.
REST_FRAMEWORK = {**REST_FRAMEWORK, "DEFAULT_THROTTLE_CLASSES": []}
RATELIMIT_ENABLE = False
LOGGING = {"version": 1, "disable_existing_loggers": False}
