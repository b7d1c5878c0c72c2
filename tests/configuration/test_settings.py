import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from potdevin_site import celery_app
from potdevin_site.env import (
    DEFAULT_ALLOWED_HOSTS,
    DEV_SECRET_KEY,
    SQLITE_OPTIONS,
    celery_broker,
    database_config,
    env_bool,
    env_list,
    secret_key,
)
from tests.paths import ROOT

REPO_ROOT = ROOT


def test_database_defaults_to_sqlite_under_var(tmp_path: Path) -> None:
    config = database_config({}, tmp_path / "var")
    assert config["ENGINE"] == "django.db.backends.sqlite3"
    assert Path(config["NAME"]) == (tmp_path / "var" / "potdevin.sqlite3").resolve()
    assert config["OPTIONS"] == SQLITE_OPTIONS
    assert config["OPTIONS"]["timeout"] == 20
    assert config["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert "journal_mode=WAL" in config["OPTIONS"]["init_command"]


def test_blank_database_url_means_default(tmp_path: Path) -> None:
    assert database_config({"DATABASE_URL": "  "}, tmp_path) == database_config({}, tmp_path)


def test_sqlite_url_gets_sqlite_options(tmp_path: Path) -> None:
    config = database_config({"DATABASE_URL": f"sqlite:///{tmp_path}/other.db"}, tmp_path)
    assert config["NAME"] == f"{tmp_path}/other.db"
    assert config["OPTIONS"] == SQLITE_OPTIONS


def test_postgres_url_maps_to_postgresql_backend(tmp_path: Path) -> None:
    url = "postgres://alice:s3cret@db.example:6543/potdevin"
    config = database_config({"DATABASE_URL": url}, tmp_path)
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert (config["USER"], config["PASSWORD"]) == ("alice", "s3cret")
    assert (config["HOST"], config["PORT"], config["NAME"]) == ("db.example", 6543, "potdevin")
    assert config["CONN_HEALTH_CHECKS"] is True
    assert "init_command" not in config.get("OPTIONS", {})


def test_settings_use_database_config() -> None:
    expected = database_config(os.environ, settings.VAR_DIR)
    assert settings.DATABASES["default"]["ENGINE"] == expected["ENGINE"]


def test_secret_key_dev_default_only_with_debug() -> None:
    assert secret_key({}, debug=True) == DEV_SECRET_KEY
    assert secret_key({"SECRET_KEY": "abc"}, debug=True) == "abc"
    assert secret_key({"SECRET_KEY": "abc"}, debug=False) == "abc"


@pytest.mark.parametrize("env", [{}, {"SECRET_KEY": ""}, {"SECRET_KEY": DEV_SECRET_KEY}])
def test_secret_key_refused_without_debug(env: dict[str, str]) -> None:
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY"):
        secret_key(env, debug=False)


def _django_setup(extra_env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DEBUG"}}
    env.update(extra_env, DJANGO_SETTINGS_MODULE="potdevin_site.settings")
    return subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_settings_refuse_to_start_without_debug_and_secret_key() -> None:
    refused = _django_setup({"DEBUG": "0"})
    assert refused.returncode != 0
    assert "SECRET_KEY must be set" in refused.stderr
    started = _django_setup({"DEBUG": "0", "SECRET_KEY": "a-real-secret"})
    assert started.returncode == 0, started.stderr


def _deploy_check(extra_env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("POTDEVIN_HSTS", "POTDEVIN_HTTPS"))
    }
    env.update(
        extra_env,
        DEBUG="0",
        SECRET_KEY="k8Zq-3vT_9wLr2mYp7sNc4bXh6dFj1gQa5eWu0iOt8yRz2kVn3",  # long and varied
        DJANGO_SETTINGS_MODULE="potdevin_site.settings",
    )
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_deploy_check_is_clean_behind_https() -> None:
    plain = _deploy_check({})
    assert plain.returncode != 0  # HSTS, SSL redirect and secure cookies are off by default
    for warning in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert warning in plain.stderr
    https = _deploy_check({"POTDEVIN_HTTPS": "1"})
    assert https.returncode == 0, https.stderr
    assert "no issues" in https.stdout


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("1", True), ("true", True), ("ON", True), ("0", False), ("false", False), ("", False)],
)
def test_env_bool(raw: str, expected: bool) -> None:
    assert env_bool({"DEBUG": raw}, "DEBUG", default=not expected) is expected


def test_env_bool_default_and_garbage() -> None:
    assert env_bool({}, "DEBUG", default=True) is True
    with pytest.raises(ImproperlyConfigured):
        env_bool({"DEBUG": "maybe"}, "DEBUG", default=True)


def test_allowed_hosts_parsing() -> None:
    assert env_list({}, "ALLOWED_HOSTS", ("a", "b")) == ["a", "b"]
    assert env_list({"ALLOWED_HOSTS": " x.org, ,y.org "}, "ALLOWED_HOSTS", ("a",)) == [
        "x.org",
        "y.org",
    ]


def test_default_allowed_hosts() -> None:
    defaults = ["localhost", "127.0.0.1", "[::1]", "testserver"]
    assert env_list({}, "ALLOWED_HOSTS", DEFAULT_ALLOWED_HOSTS) == defaults
    if "ALLOWED_HOSTS" not in os.environ:
        # The test runner may append "testserver" again, so compare the start only.
        assert settings.ALLOWED_HOSTS[: len(defaults)] == defaults


def test_celery_broker_defaults_to_filesystem_queue(tmp_path: Path) -> None:
    url, options = celery_broker({}, tmp_path)
    assert url == "filesystem://"
    queue = str((tmp_path / "celery" / "queue").resolve())
    # One folder for both ends, or the worker would never see what the web process sends.
    assert options["data_folder_in"] == options["data_folder_out"] == queue
    assert options["processed_folder"].startswith(str(tmp_path.resolve() / "celery"))


def test_celery_broker_filesystem_url_names_the_folder(tmp_path: Path) -> None:
    url, options = celery_broker({"CELERY_BROKER_URL": "filesystem:///srv/q"}, tmp_path)
    assert url == "filesystem:///srv/q"
    assert options["data_folder_in"] == options["data_folder_out"] == "/srv/q/queue"
    assert options["processed_folder"] == "/srv/q/processed"
    assert options["control_folder"] == "/srv/q/control"


def test_celery_broker_url_from_env(tmp_path: Path) -> None:
    assert celery_broker({"CELERY_BROKER_URL": "amqp://guest@h:5672//"}, tmp_path) == (
        "amqp://guest@h:5672//",
        {},
    )


def test_redis_broker_redelivers_after_the_visibility_timeout(tmp_path: Path) -> None:
    env = {"CELERY_BROKER_URL": "redis://h:6379/0"}
    url, options = celery_broker(env, tmp_path)
    assert url == "redis://h:6379/0"
    assert options["visibility_timeout"] == 3600
    # kombu sweeps every interval x throttle seconds: a quarter of the timeout, at most 60 s.
    assert options["unacked_restore_interval"] * options["unacked_restore_throttle"] == 60
    assert options["unacked_mutex_expire"] == 300
    env["CELERY_VISIBILITY_TIMEOUT"] = "5"
    options = celery_broker(env, tmp_path)[1]
    assert options["visibility_timeout"] == 5
    # A worker killed holding the restore lock holds up redelivery no longer than the timeout.
    assert options["unacked_mutex_expire"] == 5
    assert options["unacked_restore_interval"] * options["unacked_restore_throttle"] == 1


def test_celery_app_reads_django_settings() -> None:
    conf = celery_app.conf
    if os.environ.get("CELERY_BROKER_URL"):
        assert conf.broker_url == settings.CELERY_BROKER_URL
    else:  # tests/conftest.py keeps a bare pytest run off the developer's folder queue
        assert conf.broker_url == "memory://"
    assert conf.result_backend == settings.CELERY_RESULT_BACKEND
    assert conf.task_acks_late is True
    assert conf.task_reject_on_worker_lost is True
    assert conf.worker_prefetch_multiplier == 1
    assert conf.task_time_limit and conf.task_soft_time_limit
    assert conf.task_soft_time_limit < conf.task_time_limit
    if "CELERY_RESULT_BACKEND" not in os.environ:
        assert conf.result_backend == "django-db"
    assert "django_celery_results" in settings.INSTALLED_APPS
    if conf.broker_url.startswith("filesystem://"):
        for key in ("data_folder_in", "processed_folder", "control_folder"):
            assert Path(conf.broker_transport_options[key]).is_dir()


def test_cache_is_per_process_unless_a_redis_url_is_given() -> None:
    from potdevin_site.env import cache_config

    assert cache_config({})["BACKEND"].endswith("LocMemCache")
    shared = cache_config({"CACHE_URL": "redis://127.0.0.1:6379/2"})
    assert shared == {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:6379/2",
    }
    with pytest.raises(ImproperlyConfigured):
        cache_config({"CACHE_URL": "memcached://h"})
