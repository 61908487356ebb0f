"""The suite keeps itself honest: pytest collects no test from a conftest (one written there never
runs), and no test is skipped because a name is missing (a rename would silence it: fail instead)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def test_no_conftest_defines_a_test() -> None:
    found = [f"{path.relative_to(TESTS)}:{node.lineno} {node.name}"
             for path in TESTS.rglob("conftest.py")
             for node in ast.walk(ast.parse(path.read_text()))
             if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
             and node.name.lower().startswith("test")]
    assert found == []


def test_no_test_is_skipped_for_a_missing_name() -> None:
    pattern = re.compile(r"skipif\(\s*not\s+hasattr\(|importorskip\(")
    found = [f"{path.relative_to(TESTS)}:{number}" for path in TESTS.rglob("*.py")
             for number, line in enumerate(path.read_text().splitlines(), 1)
             if pattern.search(line) and path != Path(__file__)]
    assert found == []
