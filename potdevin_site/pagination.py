"""Page-number pagination whose page size is capped: an absurd size is refused, not served."""

from __future__ import annotations

from django.utils.translation import gettext as _
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request


class CappedPagination(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200

    def get_page_size(self, request: Request) -> int:
        raw = request.query_params.get(self.page_size_query_param)
        if raw is None:
            return self.page_size
        # isascii: str.isdigit() also accepts digits such as '²' that int() refuses.
        if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= self.max_page_size:
            raise ValidationError(
                {
                    self.page_size_query_param: [
                        _("a whole number from 1 to %(most)s") % {"most": self.max_page_size}
                    ]
                }
            )
        return int(raw)

    def get_schema_operation_parameters(self, view: object) -> list[dict[str, object]]:
        params = super().get_schema_operation_parameters(view)
        for p in params:
            if p["name"] == self.page_size_query_param:
                p["schema"] = {"type": "integer", "minimum": 1, "maximum": self.max_page_size}
            elif p["name"] == self.page_query_param:
                p["schema"] = {"type": "integer", "minimum": 1}
        return params
