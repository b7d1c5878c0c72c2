from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView


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


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """404 for a URL that no route takes (settings.DEBUG off): under /api/ the API's JSON error
    body, like every other API error; elsewhere Django's page."""
    if request.path.startswith("/api/"):
        body = {"code": "not_found", "message": "Not found.", "round": None, "seat": None}
        return JsonResponse(body, status=404)
    return defaults.page_not_found(request, exception)
