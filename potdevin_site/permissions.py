"""Who may read and who may write."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request
from rest_framework.throttling import UserRateThrottle


class SignedInOrPublicReads(BasePermission):
    """Signed-in users read and write (objects decide further); anonymous users read only when
    POTDEVIN_PUBLIC_READS is on, and never write."""

    def has_permission(self, request: Request, view: Any) -> bool:
        if request.user and request.user.is_authenticated:
            return True
        return request.method in SAFE_METHODS and settings.POTDEVIN_PUBLIC_READS


def owner_or_staff(user: Any, owner_id: int | None) -> bool:
    """Whether ``user`` may change a record owned by ``owner_id``: its owner, or staff (the one
    rule of the API and the pages)."""
    return bool(user and (user.is_staff or owner_id == user.pk))


class OwnerOrStaffWrites(BasePermission):
    """Only the record's owner, or staff, changes it."""

    owner_field = "owner_id"

    def has_object_permission(self, request: Request, view: Any, obj: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        owner = getattr(obj, getattr(view, "owner_field", self.owner_field), None)
        return owner_or_staff(request.user, owner)


class StaffWrites(BasePermission):
    def has_permission(self, request: Request, view: Any) -> bool:
        return request.method in SAFE_METHODS or bool(request.user and request.user.is_staff)


class WriteRateThrottle(UserRateThrottle):
    """Throttles writes only, per user (or per address for anonymous requests)."""

    scope = "writes"

    def allow_request(self, request: Request, view: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return super().allow_request(request, view)
