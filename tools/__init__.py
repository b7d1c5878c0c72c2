"""Tools beside the service (not part of it): ``python -m tools.<name>``."""
