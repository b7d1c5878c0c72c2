from pathlib import Path

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
