"""Fixtures of the CLI tests: a fresh SQLite store per test."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "PUZZLEFLEET_DB": f"sqlite:///{tmp_path / 'p.db'}"}
