"""Run the benchmark modules: ``python -m bench [NAME ...]``.

Every module in this package that defines ``main()`` runs, ``engine`` first,
then the rest by name; give names to run only those. The modules in ``OPT_IN`` run only
when named: ``scale`` (``make bench-scale``) loads a million games, for half an hour or more.
"""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys
from collections.abc import Sequence

import bench

FIRST = ("engine",)
OPT_IN = ("scale",)


def discover() -> list[str]:
    names = sorted(
        info.name for info in pkgutil.iter_modules(bench.__path__) if not info.name.startswith("_")
    )
    return [n for n in FIRST if n in names] + [n for n in names if n not in FIRST]


def run(selected: Sequence[str]) -> int:
    available = discover()
    unknown = [name for name in selected if name not in available]
    if unknown:
        print(f"unknown bench module(s): {', '.join(unknown)}", file=sys.stderr)
        print(f"available: {', '.join(available) or 'none'}", file=sys.stderr)
        return 2
    names = list(selected) or [name for name in available if name not in OPT_IN]
    if len(names) > 1:
        # One process per module: each sets Django up on a database of its own.
        status = 0
        for name in names:
            done = subprocess.run([sys.executable, "-m", "bench", name], check=False)
            status = status or done.returncode
        return status
    name = names[0]
    module = importlib.import_module(f"bench.{name}")
    entry = getattr(module, "main", None)
    if not callable(entry):
        print(f"bench.{name} has no main()")
        return 2
    print(f"== bench.{name}", flush=True)
    result = entry()
    return result if isinstance(result, int) else 0


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
