"""Template tags of the pages (``{% load error_summary %}``)."""
