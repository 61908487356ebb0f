"""Builds the engine's private compiled modules.

Compiled modules run with bounds and wraparound checks off. Set PUZZLEFLEET_CYTHON_DEBUG=1 to rebuild
with bounds, wraparound and initialised-check turned back on (the tests can run against such a build).
"""
import os

from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("PUZZLEFLEET_CYTHON_DEBUG") == "1"

# Set here rather than in the file headers so that the debug switch can override them.
directives = {"language_level": "3", "embedsignature": True,
              "boundscheck": DEBUG, "wraparound": DEBUG, "initializedcheck": DEBUG, "cdivision": not DEBUG}

extensions = [
    Extension("engine.games.starbattle._search", ["engine/games/starbattle/_search.pyx"],
              extra_compile_args=["-O3"] if not DEBUG else ["-O0", "-g"]),
    Extension("engine.games.starbattle._techniques", ["engine/games/starbattle/_techniques.pyx"],
              extra_compile_args=["-O3"] if not DEBUG else ["-O0", "-g"]),
    Extension("engine.games.sudoku._count", ["engine/games/sudoku/_count.pyx"],
              extra_compile_args=["-O3"] if not DEBUG else ["-O0", "-g"]),
    Extension("engine.games.sudoku._logic", ["engine/games/sudoku/_logic.pyx"],
              extra_compile_args=["-O3"] if not DEBUG else ["-O0", "-g"]),
    Extension("engine.games.sudoku._canon", ["engine/games/sudoku/_canon.pyx"],
              extra_compile_args=["-O3"] if not DEBUG else ["-O0", "-g"]),
]

setup(ext_modules=cythonize(extensions, compiler_directives=directives))
