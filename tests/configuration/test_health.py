from pathlib import Path
from typing import Any

import pytest
import yaml
from django.core.management import call_command
from django.test import Client

EXTERNAL_ASSET_HOSTS = ("cdn.jsdelivr", "unpkg.com", "cdnjs", "fonts.googleapis")


def test_health_returns_ok(client: Client) -> None:
    response = client.get("/api/health/")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_schema_is_served_and_lists_health(client: Client) -> None:
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = response.json()
    assert schema["info"]["title"] == "potdevin API"
    assert "/api/health/" in schema["paths"]


def test_swagger_ui_uses_sidecar_assets(client: Client) -> None:
    response = client.get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "drf_spectacular_sidecar/swagger-ui-dist" in html
    assert not [host for host in EXTERNAL_ASSET_HOSTS if host in html]


def test_redoc_uses_sidecar_assets(client: Client) -> None:
    response = client.get("/api/redoc/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "drf_spectacular_sidecar/redoc" in html
    assert not [host for host in EXTERNAL_ASSET_HOSTS if host in html]


def test_spectacular_validates_without_warnings(tmp_path: Path) -> None:
    out = tmp_path / "schema.yml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    schema = yaml.safe_load(out.read_text())
    assert "/api/health/" in schema["paths"]


@pytest.mark.django_db
def test_ready_reports_the_database_and_the_broker(client: Client) -> None:
    response = client.get("/api/ready/")
    assert response.status_code == 200, response.content
    assert response.json() == {"status": "ok", "database": "ok", "broker": "ok"}


@pytest.mark.django_db
def test_ready_is_503_while_the_broker_does_not_answer(client: Client, monkeypatch: Any) -> None:
    from potdevin_site.celery import app

    # Port 9 (discard) on this machine: nothing listens there. Celery reads the variable
    # before its own setting, so both change.
    gone = "redis://127.0.0.1:9/0"
    monkeypatch.setenv("CELERY_BROKER_URL", gone)
    monkeypatch.setattr(app.conf, "broker_url", gone)
    response = client.get("/api/ready/")
    assert response.status_code == 503
    body = response.json()
    assert (body["status"], body["code"], body["database"]) == ("unavailable", "unavailable", "ok")
    assert body["broker"] != "ok"
    assert client.get("/api/health/").status_code == 200  # liveness does not depend on it


@pytest.mark.django_db
def test_ready_is_503_while_the_database_does_not_answer(client: Client, monkeypatch: Any) -> None:
    from django.db import OperationalError, connection

    def refused() -> Any:
        raise OperationalError("connection refused")

    monkeypatch.setattr(connection, "cursor", refused)
    response = client.get("/api/ready/")
    assert response.status_code == 503
    body = response.json()
    assert body["database"].startswith("OperationalError") and body["broker"] == "ok"
