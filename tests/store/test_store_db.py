"""store.db.process_engine: one engine per process, made (and the store migrated) on first use, and
made again in a process forked after that."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from store import db as db_mod


def test_a_process_has_one_engine_and_a_forked_one_its_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PUZZLEFLEET_DB", f"sqlite:///{tmp_path / 'puzzles.db'}")
    monkeypatch.setattr(db_mod, "_process_engine", None)
    engine = db_mod.process_engine()
    try:
        assert db_mod.process_engine() is engine
        assert db_mod.schema_revision(engine) == db_mod.SCHEMA_REVISION          # migrated on first use
        pid = os.fork()
        if pid == 0:
            os._exit(0 if db_mod.process_engine() is not engine else 1)
        assert os.waitpid(pid, 0)[1] == 0
        assert db_mod.process_engine() is engine
    finally:
        engine.dispose()
