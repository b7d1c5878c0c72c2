"""The client's address, as the deployment says to trust it: the one key of every rate limit
per address (the pages' django-ratelimit through ``RATELIMIT_IP_META_KEY``; the API's DRF
throttles read the same setting as ``NUM_PROXIES`` and the same rule).

A header is a client's word: ``X-Forwarded-For`` is believed only as far as the deployment
says proxies of its own stand in front (``POTDEVIN_TRUSTED_PROXIES``, default 0). With none,
the address is the connection's (``REMOTE_ADDR``), whatever the request claims, so a guesser
who makes up a new address for each try is still one client. Behind N proxies, each appends
the address it was reached from, so the client is the N-th entry from the right: what is left
of it was written by the client and is never read."""

from __future__ import annotations

import ipaddress
from typing import Any

from django.conf import settings


def client_address(request: Any) -> str:
    """The address rate limits count a request under (see the module's doc)."""
    remote = request.META.get("REMOTE_ADDR", "")
    proxies = settings.POTDEVIN_TRUSTED_PROXIES
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR")
    if not proxies or not forwarded:
        return remote
    entries = forwarded.split(",")
    claimed = entries[-min(proxies, len(entries))].strip()
    try:
        return str(ipaddress.ip_address(claimed))
    except ValueError:  # not an address a proxy of ours wrote: the connection's, then
        return remote
