"""Django loads an app's models from ``<app>.models``; the records layer defines them."""

from games.records.models import *  # noqa: F403
