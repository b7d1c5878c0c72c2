"""The JSON body of every API error (``code``, ``message``, ``round``, ``seat``), for the
exception handler and the middleware alike. Imports nothing of the project's own."""

from __future__ import annotations

import logging
from typing import Any

from django.utils.translation import gettext as _

logger = logging.getLogger("potdevin.api")


def body(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"code": code, "message": message, "round": None, "seat": None, **extra}


def out_of_range() -> dict[str, Any]:
    return body("out_of_range", _("A number in the request is too large to be stored."))


def unavailable() -> dict[str, Any]:
    return body("unavailable", _("The database cannot be reached; try again shortly."))


def internal_error() -> dict[str, Any]:
    return body("internal_error", _("Something went wrong on our side; it has been logged."))
