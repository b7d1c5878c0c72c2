from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views import defaults
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from potdevin_site.celery import app


class HealthSerializer(serializers.Serializer):
    status = serializers.CharField()


class HealthView(APIView):
    """Liveness check. Touches no database."""

    # No auth or DB work, so benchmarks can use it as the request-overhead baseline.
    authentication_classes: list[type] = []
    permission_classes = [AllowAny]

    @extend_schema(responses=HealthSerializer, operation_id="health")
    def get(self, request: Request) -> Response:
        return Response({"status": "ok"})


class ReadinessSerializer(serializers.Serializer):
    status = serializers.CharField(help_text="`ok`, or `unavailable` with a 503.")
    database = serializers.CharField(help_text="`ok` or what went wrong.")
    broker = serializers.CharField(help_text="`ok` or what went wrong.")


def _database_state() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any failure means "not ready"; the reason is reported
        return f"{type(exc).__name__}: {exc}"[:200]
    return "ok"


def _broker_state() -> str:
    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
    except Exception as exc:  # any failure means "not ready"; the reason is reported
        return f"{type(exc).__name__}: {exc}"[:200]
    return "ok"


class ReadinessView(APIView):
    """Readiness check: whether the database and the job broker answer. 503 while either does
    not (a load balancer sends no traffic then; ``/api/health/`` stays a liveness check)."""

    authentication_classes: list[type] = []
    permission_classes = [AllowAny]

    @extend_schema(
        responses={200: ReadinessSerializer, 503: ReadinessSerializer}, operation_id="ready"
    )
    def get(self, request: Request) -> Response:
        state = {"database": _database_state(), "broker": _broker_state()}
        ready = all(v == "ok" for v in state.values())
        body = {"status": "ok" if ready else "unavailable", **state}
        if not ready:
            body.update(code="unavailable", message=_("A service the API needs does not answer."))
        return Response(body, status=200 if ready else 503)


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """404 for a URL that no route takes (settings.DEBUG off): under /api/ the API's JSON error
    body, like every other API error; elsewhere Django's page."""
    if request.path.startswith("/api/"):
        body = {"code": "not_found", "message": _("Not found."), "round": None, "seat": None}
        return JsonResponse(body, status=404)
    return defaults.page_not_found(request, exception)
