from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularRedocView,
    SpectacularSwaggerView,
)

from potdevin_site.views import HealthView, ReadinessView

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/health/", HealthView.as_view(), name="health"),
    path("api/ready/", ReadinessView.as_view(), name="ready"),
    path("api/", include("games.api.urls")),
    path("api/", include("scoring.api.urls")),
    path("api/", include("scoring.api.stats_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="swagger-ui"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="schema"), name="redoc"),
    # The pages' scripts' words in the reader's language (the project's own catalogue only).
    path("jsi18n/", JavaScriptCatalog.as_view(packages=["games"]), name="javascript-catalog"),
    # The web scorepad: server-rendered pages for the table.
    path("", include("games.web.urls")),
]

# A URL no route takes: JSON under /api/ (DEBUG off).
handler404 = "potdevin_site.views.not_found"
