"""Where the tests find the project's own files."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
