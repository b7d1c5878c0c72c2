from typing import Any

from django.apps import AppConfig
from django.db.models.signals import post_migrate


def _store_builtin_editions(sender: AppConfig, **kwargs: Any) -> None:
    from games.records.services import editions_ensure_builtin

    editions_ensure_builtin()


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Game records"

    def ready(self) -> None:
        # The editions the engines ship are stored once the tables exist, never by a read.
        post_migrate.connect(_store_builtin_editions, sender=self)
