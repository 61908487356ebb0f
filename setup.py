"""Builds the engine's private compiled modules.

Compiled modules run with bounds and wraparound checks off. Set PUZZLEFLEET_CYTHON_DEBUG=1 to rebuild
with bounds, wraparound and initialised-check turned back on (the tests can run against such a build).
"""
import importlib.util
import os
import platform
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("PUZZLEFLEET_CYTHON_DEBUG") == "1"
HERE = Path(__file__).resolve().parent


def write_sudoku_table() -> None:
    """Generate the Sudoku technique ids and dispatch (_table.pxi) from the one technique table.

    table.py is loaded by path, not imported, so that nothing of the package (which needs the compiled
    modules) runs before they are built. The file is rewritten only when its text changes, so that an
    unchanged table costs no recompile, and a changed one makes cythonize see _logic.pyx as stale."""
    folder = HERE / "engine" / "games" / "sudoku"
    spec = importlib.util.spec_from_file_location("_sudoku_table", folder / "table.py")
    table = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(table)
    target = folder / table.INCLUDE
    text = table.include_text()
    if not target.exists() or target.read_text() != text:
        target.write_text(text)


write_sudoku_table()

# Set here rather than in the file headers so that the debug switch can override them.
directives = {"language_level": "3", "embedsignature": True,
              "boundscheck": DEBUG, "wraparound": DEBUG, "initializedcheck": DEBUG, "cdivision": not DEBUG}

# The compiled modules, each built from the .pyx of the same path.
MODULES = [
    "engine.core._shape",
    "engine.games.starbattle._search",
    "engine.games.starbattle._repair",
    "engine.games.starbattle.styles._composed",
    "engine.games.starbattle.styles._interlocking",
    "engine.games.starbattle._techniques",
    "engine.games.sudoku._count",
    "engine.games.sudoku._logic",
    "engine.games.killer._count",
    "engine.games.sudoku._canon",
]
FLAGS = ["-O3"] if not DEBUG else ["-O0", "-g"]
# The bitset search and the techniques count bits in their hottest loops: without POPCNT (on every
# x86-64 CPU since 2008) each count is a call into libgcc's table-driven routine.
if platform.machine().lower() in ("x86_64", "amd64"):
    FLAGS.append("-mpopcnt")
extensions = [Extension(name, [name.replace(".", "/") + ".pyx"], extra_compile_args=FLAGS) for name in MODULES]

# Translate and compile the modules side by side: a fresh clone's set-up waits for this.
JOBS = os.cpu_count() or 1
setup(ext_modules=cythonize(extensions, compiler_directives=directives, nthreads=JOBS),
      options={"build_ext": {"parallel": JOBS}})
