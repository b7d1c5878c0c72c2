from django.urls import include, path
from rest_framework.routers import DefaultRouter

from scoring.api.jobs import ImportJobViewSet, RescoreViewSet

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
router.register("rescore", RescoreViewSet, basename="rescore")
router.register("imports", ImportJobViewSet, basename="import-job")

urlpatterns = [path("", include(router.urls))]
