"""Build settings values from an environment mapping.

Kept apart from settings.py so the rules can be tested with any mapping,
without reloading Django settings.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

DEV_SECRET_KEY = "django-insecure-potdevin-local-development-only"

DEFAULT_ALLOWED_HOSTS = ("localhost", "127.0.0.1", "[::1]", "testserver")

# Writers wait for the lock (IMMEDIATE + timeout) instead of failing with
# "database is locked"; WAL lets readers run beside the one writer.
SQLITE_OPTIONS: dict[str, Any] = {
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
}

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_bool(env: Mapping[str, str], name: str, default: bool) -> bool:
    raw = env.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false), got {raw!r}")


def env_count(env: Mapping[str, str], name: str, default: int) -> int:
    """A count: a whole number from 0 up."""
    raw = env.get(name)
    if raw is None or not raw.strip():
        return default
    if not raw.strip().isdigit():
        raise ImproperlyConfigured(f"{name} must be a whole number from 0 up, got {raw!r}")
    return int(raw.strip())


def env_list(env: Mapping[str, str], name: str, default: tuple[str, ...]) -> list[str]:
    raw = env.get(name)
    if raw is None or not raw.strip():
        return list(default)
    return [item.strip() for item in raw.split(",") if item.strip()]


def database_config(env: Mapping[str, str], var_dir: Path) -> dict[str, Any]:
    """The default database: DATABASE_URL, else SQLite in var_dir."""
    url = env.get("DATABASE_URL", "").strip()
    if not url:
        url = f"sqlite:///{(var_dir / 'potdevin.sqlite3').resolve()}"
    config: dict[str, Any] = dict(dj_database_url.parse(url))
    if config["ENGINE"] == "django.db.backends.sqlite3":
        config["OPTIONS"] = {**SQLITE_OPTIONS, **config.get("OPTIONS", {})}
        # A file, not Django's in-memory default: tests with real concurrent requests need
        # SQLite's file locking, as in production.
        # One per test run (process), so two runs on one machine never share it.
        name = f"test-potdevin-{os.getpid()}.sqlite3"
        config["TEST"] = {"NAME": str((var_dir / name).resolve())}
    else:
        # Each thread serving requests keeps a connection open this long. 0 (the default)
        # closes it after each request, so the connections are never more than the requests
        # in flight, whatever serves them (runserver starts a thread per request and never
        # reuses one). `make serve` raises it: its sync workers serve one request at a time,
        # one connection each.
        config["CONN_MAX_AGE"] = int(env.get("DATABASE_CONN_MAX_AGE", "0"))
        config["CONN_HEALTH_CHECKS"] = True
        config["TEST"] = {"NAME": f"test_{config['NAME']}_{os.getpid()}"}
    return config


def cache_config(env: Mapping[str, str]) -> dict[str, Any]:
    """CACHE_URL (redis://...) for a shared cache, else memory local to each process."""
    url = env.get("CACHE_URL", "").strip()
    if not url:
        return {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    if not url.startswith(("redis://", "rediss://")):
        raise ImproperlyConfigured(f"CACHE_URL must be a redis:// URL, not {url!r}")
    return {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": url}


def secret_key(env: Mapping[str, str], debug: bool) -> str:
    key = env.get("SECRET_KEY", "").strip()
    if debug:
        return key or DEV_SECRET_KEY
    if not key or key == DEV_SECRET_KEY:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    return key


def celery_broker(env: Mapping[str, str], var_dir: Path) -> tuple[str, dict[str, Any]]:
    """Broker URL and transport options; default: a folder queue under var_dir."""
    url = env.get("CELERY_BROKER_URL", "").strip() or "filesystem://"
    if url.startswith(("redis://", "rediss://")):
        # An unacknowledged task (its worker died) goes back to the queue after this long;
        # workers look for such tasks every quarter of it (kombu's default is ~100 s).
        timeout = int(env.get("CELERY_VISIBILITY_TIMEOUT", "3600"))
        return url, {
            "visibility_timeout": timeout,
            "unacked_restore_interval": min(60, max(1, timeout // 4)),
            "unacked_restore_throttle": 1,
            # Workers take turns to restore through a lock that a worker killed while holding
            # it keeps for this long (kombu's default: 300 s), whatever the timeout above.
            "unacked_mutex_expire": min(300, max(1, timeout)),
        }
    if not url.startswith("filesystem://"):
        return url, {}
    # filesystem:///srv/potdevin/queue names the folder; plain filesystem:// is under var_dir.
    folder = urlsplit(url).path
    root = Path(folder) if folder not in ("", "/") else (var_dir / "celery").resolve()
    # Producer writes to data_folder_out and the worker reads data_folder_in:
    # both processes share these settings, so the two must be the same folder.
    return url, {
        "data_folder_in": str(root / "queue"),
        "data_folder_out": str(root / "queue"),
        "processed_folder": str(root / "processed"),
        "control_folder": str(root / "control"),
        "store_processed": False,
        # The folder queue is polled; kombu's 1 s default would hold a job's batches back.
        "polling_interval": 0.1,
    }


def broker_folders(transport_options: Mapping[str, Any]) -> list[Path]:
    keys = ("data_folder_in", "data_folder_out", "processed_folder", "control_folder")
    return [Path(transport_options[key]) for key in keys if key in transport_options]
