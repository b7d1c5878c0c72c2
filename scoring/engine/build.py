"""Compile the engine's hot modules with mypyc, in place, beside their sources.

``python -m scoring.engine.build`` (run by ``make``). The compiled modules are an accelerator
only: the same sources run unchanged as plain Python wherever no C compiler is available, and
``POTDEVIN_PURE_ENGINE=1`` makes the test suite import the plain sources.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MODULES = [
    "scoring/engine/errors.py",
    "scoring/engine/potdevin/cards.py",
    "scoring/engine/potdevin/rules.py",
    "scoring/engine/potdevin/decks.py",
    "scoring/engine/potdevin/state.py",
    "scoring/engine/potdevin/reading.py",
    "scoring/engine/potdevin/header.py",
    "scoring/engine/potdevin/play.py",
    "scoring/engine/potdevin/score.py",
    "scoring/engine/potdevin/sheet.py",
    "scoring/engine/potdevin/engine.py",
    "scoring/engine/complots/rules.py",
    "scoring/engine/complots/state.py",
    "scoring/engine/complots/reading.py",
    "scoring/engine/complots/header.py",
    "scoring/engine/complots/resolve.py",
    "scoring/engine/complots/play.py",
    "scoring/engine/complots/engine.py",
    "scoring/engine/bruges/rules.py",
    "scoring/engine/bruges/editions.py",
    "scoring/engine/bruges/state.py",
    "scoring/engine/bruges/reading.py",
    "scoring/engine/bruges/header.py",
    "scoring/engine/bruges/penalties.py",
    "scoring/engine/bruges/effects.py",
    "scoring/engine/bruges/turns.py",
    "scoring/engine/bruges/play.py",
    "scoring/engine/bruges/score.py",
    "scoring/engine/bruges/engine.py",
    "scoring/engine/other/rules.py",
    "scoring/engine/other/scores.py",
    "scoring/engine/other/engine.py",
]


def main() -> int:
    from mypyc.build import mypycify
    from setuptools import setup  # type: ignore[import-untyped]

    sys.path.insert(0, str(ROOT))
    extensions = mypycify(
        MODULES,
        opt_level="3",
        target_dir="var/build/engine",
        # The shared runtime goes inside the package, so it imports from anywhere.
        group_name="scoring.engine._native",
    )
    setup(
        name="potdevin-engine",
        ext_modules=extensions,
        # --force: a source change that leaves the generated C as it was (a docstring) must
        # still give newer binaries, which the tests check against their sources.
        script_args=["-q", "build_ext", "--inplace", "--force", "--build-temp", "var/build/engine"],
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
