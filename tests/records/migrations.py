"""Moving the test database to a migration state and back, for the tests of data migrations."""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate(targets: list[tuple[str, str]]) -> Any:
    """Migrate to ``targets`` (forwards or backwards); the apps of that state."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def latest() -> list[tuple[str, str]]:
    """Every app's last migration."""
    return MigrationExecutor(connection).loader.graph.leaf_nodes()
