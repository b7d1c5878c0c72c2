"""The rules engine stays pure Python: no Django, DRF or Celery, directly or not."""

import ast
import os
import subprocess
import sys

import pytest

from tests.paths import ROOT

REPO_ROOT = ROOT
ENGINE_DIR = REPO_ROOT / "scoring" / "engine"
FORBIDDEN = {"django", "rest_framework", "celery", "kombu"}

pytestmark = pytest.mark.skipif(
    not (ENGINE_DIR / "__init__.py").exists(), reason="scoring.engine not present yet"
)


def test_importing_engine_loads_no_framework() -> None:
    code = (
        "import sys; import scoring.engine; import scoring.engine.potdevin; "
        f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {sorted(FORBIDDEN)!r}); "
        "print(bad)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO_ROOT,
        env={k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def _imported_roots(tree: ast.AST) -> set[str]:
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute | ast.Name)
            and (getattr(node.func, "attr", None) or getattr(node.func, "id", None))
            in {"import_module", "__import__"}
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            roots.add(node.args[0].value.split(".")[0])
    return roots


def test_engine_sources_import_no_framework() -> None:
    sources = sorted(ENGINE_DIR.rglob("*.py"))
    assert sources
    offenders = {
        str(path.relative_to(REPO_ROOT)): sorted(bad)
        for path in sources
        if (bad := _imported_roots(ast.parse(path.read_text(), str(path))) & FORBIDDEN)
    }
    assert offenders == {}
