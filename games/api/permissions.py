"""Who may read and who may write."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request
from rest_framework.throttling import UserRateThrottle

from games.records import access


class SignedInOrPublicReads(BasePermission):
    """Signed-in users read and write (their clubs' records decide further:
    ``games.records.access``); anonymous visitors read only what a view opens to them
    (``public_reads``: the finished games and leaderboards of clubs with public results), and never
    write."""

    def has_permission(self, request: Request, view: Any) -> bool:
        if request.user and request.user.is_authenticated:
            return True
        return request.method in SAFE_METHODS and getattr(view, "public_reads", False)


def owner_or_staff(user: Any, owner_id: int | None) -> bool:
    """Whether ``user`` is the one who made a record (``owner_id``), or staff."""
    return bool(user and user.is_authenticated and (user.is_staff or owner_id == user.pk))


def may_change(user: Any, obj: Any) -> bool:
    """Whether ``user`` may change ``obj``, a record of a club (the one rule of the API and the
    pages): the club's recorders change any of its records."""
    return access.may(user, obj.club_id, access.Can.RECORD)


def may_remove(user: Any, obj: Any, owner_field: str = "owner_id") -> bool:
    """Whether ``user`` may delete ``obj``: a recorder the record they made, an admin any."""
    made_it = owner_or_staff(user, getattr(obj, owner_field, None))
    return access.may(user, obj.club_id, access.Can.RECORD if made_it else access.Can.ADMIN)


class ClubWrites(BasePermission):
    """A club's record is changed by its recorders (``may_change``) and removed by the one who
    made it or an admin (``may_remove``); a view's ``owner_field`` names who made it."""

    owner_field = "owner_id"

    def has_object_permission(self, request: Request, view: Any, obj: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        owner_field = getattr(view, "owner_field", self.owner_field)
        if request.method == "DELETE" and getattr(view, "action", None) == "destroy":
            return may_remove(request.user, obj, owner_field)
        return may_change(request.user, obj)


class StaffWrites(BasePermission):
    def has_permission(self, request: Request, view: Any) -> bool:
        return request.method in SAFE_METHODS or bool(request.user and request.user.is_staff)


def page_rate(scope: str) -> str:
    """The API's throttle rate of ``scope`` ("20/min") in django-ratelimit's form ("20/m"),
    so that a page and its API route share one limit setting."""
    count, period = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"][scope].split("/")
    return f"{count}/{period[0]}"


class WriteRateThrottle(UserRateThrottle):
    """Throttles writes only, per user (or per address for anonymous requests)."""

    scope = "writes"

    def allow_request(self, request: Request, view: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return super().allow_request(request, view)
