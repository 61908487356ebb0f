"""`from engine.games import *` works: every name the registry's `__all__` lists exists (a renamed
function left behind in `__all__` makes the star import raise AttributeError). Run in a fresh
interpreter, so that nothing an earlier test imported hides a missing name."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.parametrize("module", ["engine.games", "engine"])
def test_a_star_import_of_the_registry_finds_every_name_it_exports(module: str) -> None:
    script = (f"import {module} as m\n"
              f"from {module} import *\n"
              "missing = [name for name in m.__all__ if name not in globals()]\n"
              "assert not missing, missing\n"
              "print(len(m.__all__))\n")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert int(run.stdout) > 0
