"""``{% idempotency_field %}``: the hidden key of a form that writes (``games.api.idempotency``),
made once per rendered form, so the same form sent twice is one write."""

from __future__ import annotations

import uuid

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

register = template.Library()


@register.simple_tag
def idempotency_field() -> SafeString:
    return format_html('<input type="hidden" name="idempotency_key" value="{}">', uuid.uuid4().hex)
