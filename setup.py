"""Builds the engine's private compiled modules.

Compiled modules run with bounds and wraparound checks off. Set PUZZLEFLEET_CYTHON_DEBUG=1 to rebuild
with bounds, wraparound and initialised-check turned back on (the tests can run against such a build).
"""
import importlib.util
import os
import platform
import sys
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("PUZZLEFLEET_CYTHON_DEBUG") == "1"
HERE = Path(__file__).resolve().parent


def _by_path(name: str, path: Path, register: bool = False):
    """The module at `path`, run without importing its package; with `register`, importable as `name`
    for the modules loaded after it."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    if register:
        sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def write_sudoku_table() -> None:
    """Generate the Sudoku technique ids and dispatch (_table.pxi) from the one technique table.

    table.py is loaded by path, not imported, so that nothing of the package (which needs the compiled
    modules and the runtime dependencies) runs before they are built; so are the two modules of
    engine.ladder its lines are made of (the Technique record and the Step it names), which import
    nothing else of ours. The file is rewritten only when its text changes, so that an unchanged table
    costs no recompile, and a changed one makes cythonize see _logic.pyx as stale."""
    ladder = HERE / "engine" / "ladder"
    loaded = [name for name in ("engine.ladder.step", "engine.ladder.table") if name not in sys.modules]
    for name in loaded:
        _by_path(name, ladder / f"{name.rsplit('.', 1)[1]}.py", register=True)
    try:
        folder = HERE / "engine" / "games" / "sudoku"
        table = _by_path("_sudoku_table", folder / "table.py")
    finally:
        for name in loaded:
            del sys.modules[name]
    target = folder / table.INCLUDE
    text = table.include_text()
    if not target.exists() or target.read_text() != text:
        target.write_text(text)


def write_starbattle_digest() -> None:
    """Write the digest of the compiled Star Battle finders' sources (_built_from.pxi), which state.py
    checks on import: a build older than its sources is refused. Loaded by path, as above; rewritten
    only when it changes."""
    folder = HERE / "engine" / "games" / "starbattle"
    spec = importlib.util.spec_from_file_location("_starbattle_built", folder / "built.py")
    built = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(built)
    target = folder / built.INCLUDE
    text = built.include_text(folder)
    if not target.exists() or target.read_text() != text:
        target.write_text(text)


write_sudoku_table()
write_starbattle_digest()

# Set here rather than in the file headers so that the debug switch can override them.
directives = {"language_level": "3", "embedsignature": True,
              "boundscheck": DEBUG, "wraparound": DEBUG, "initializedcheck": DEBUG, "cdivision": not DEBUG}

# The compiled modules: every .pyx under engine/, each built as the module of its path, so that a game's
# package brings its compiled code with it and nothing here names a game.
MODULES = sorted(".".join(path.relative_to(HERE).with_suffix("").parts) for path in (HERE / "engine").rglob("*.pyx"))
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
