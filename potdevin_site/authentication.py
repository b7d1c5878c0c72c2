"""A token checked for shape before any database sees it: one with a character no token has
(NUL, which PostgreSQL refuses in a query, or any other) is simply not a credential: 401, never
a 500. Session keys likewise: ``potdevin_site.sessions``."""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication

_TOKEN = re.compile(r"[0-9a-f]{40}")  # DRF's Token.generate_key


class StrictTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, key: str) -> Any:
        if not _TOKEN.fullmatch(key):
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        return super().authenticate_credentials(key)
