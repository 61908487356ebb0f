"""store.progress: the job reader `puzzlefleet jobs` uses, through the DB-API driver alone, says what
the repository says (SQLite and PostgreSQL), and never imports SQLAlchemy."""

from __future__ import annotations

import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, update
from sqlmodel import col

import store
from store import Job, JobTally, StoreError, read_jobs


def _job(engine: Engine, requested: int) -> int:
    with store.session(engine) as s:
        return store.create_job(session=s, game="queens", rules="queens 8", band=None,
                                params={"game": "queens", "size": 8}, seed=7, requested=requested)


def _without_elapsed(job: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in job.items() if k not in ("elapsed", "boards_per_second")}   # an open job's run on


def test_the_driver_reader_agrees_with_the_repository(db_url: str, engine: Engine, board: Any) -> None:
    first, second = _job(engine, 2), _job(engine, 1)
    with store.session(engine) as s:
        store.record_attempts(session=s, job_id=second, max_attempts=3, attempts=[
            store.Attempt(slot=0, attempt=0, seed=1, data=None, fingerprint=None, rejected={"timeout": 1},
                          seconds=0.5),
            store.Attempt(slot=0, attempt=1, seed=2, data=board("a")[0], fingerprint=board("a")[1],
                          rejected={"ambiguous": 2}, seconds=0.25)])
    with store.session(engine, read_only=True) as s:
        expected = [store.get_job(session=s, job_id=j) for j in (second, first)]
        assert [_without_elapsed(j) for j in store.list_jobs(session=s)] == [_without_elapsed(j) for j in expected]
    listed = read_jobs(url=db_url)
    assert [_without_elapsed(j) for j in listed] == [_without_elapsed(j) for j in expected]
    done = read_jobs(url=db_url, job_id=second)
    assert done == [expected[0]]        # a finished job's elapsed is fixed: the whole dict agrees
    assert done[0]["state"] == "done" and done[0]["rejected"] == {"ambiguous": 2, "timeout": 1}
    assert done[0]["acceptance"] == 0.25 and listed[1]["acceptance"] is None     # 1 of 4; no candidate yet
    elapsed = done[0]["elapsed"]            # rounded to the millisecond: bound the rate by its rounding
    assert 1 / (elapsed + 0.0005) - 0.001 <= done[0]["boards_per_second"] <= 1 / max(elapsed - 0.0005, 1e-3) + 0.001
    assert read_jobs(url=db_url, job_id=second + 100) == []
    assert [j["job"] for j in read_jobs(url=db_url, limit=1)] == [second]


def test_active_within_keeps_open_jobs_and_those_finished_lately(db_url: str, engine: Engine, board: Any) -> None:
    """What the per-job metrics read: open jobs however old, finished ones only within the window."""
    old_done, old_open, new_done = _job(engine, 1), _job(engine, 1), _job(engine, 1)
    for job_id, key in ((old_done, "x"), (new_done, "y")):
        with store.session(engine) as s:
            store.record_attempts(session=s, job_id=job_id, max_attempts=3, attempts=[
                store.Attempt(slot=0, attempt=0, seed=1, data=board(key)[0], fingerprint=board(key)[1],
                              rejected={}, seconds=0.1)])
        with store.session(engine) as s:
            store.settle_job(session=s, job_id=job_id)
    two_hours_ago = datetime.now(timezone.utc) - timedelta(hours=2)
    with store.session(engine) as s:
        s.execute(update(Job).where(col(Job.id).in_([old_done, old_open])).values(
            created_at=two_hours_ago, updated_at=two_hours_ago))
        s.execute(update(JobTally).where(col(JobTally.job_id).in_([old_done, old_open])).values(
            updated_at=two_hours_ago))
    assert [j["job"] for j in read_jobs(url=db_url, active_within=3600)] == [new_done, old_open]
    assert [j["job"] for j in read_jobs(url=db_url, active_within=3 * 3600)] == [new_done, old_open, old_done]
    assert [j["job"] for j in read_jobs(url=db_url, active_within=3600, limit=1)] == [new_done]


def test_a_store_that_does_not_exist_yet_holds_no_jobs(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'nothing-here.db'}"
    assert read_jobs(url=url) == [] and read_jobs(url=url, job_id=1) == []
    assert not (tmp_path / "nothing-here.db").exists()          # reading created nothing
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    assert read_jobs(url=f"sqlite:///{empty}") == []             # a file with no job table yet


@pytest.mark.parametrize("url, message", [
    ("puzzles.db", "cannot parse"),
    ("mysql://root@localhost/db", "unsupported database 'mysql'"),
    ("postgresql://someone:secret@127.0.0.1:1/x", "cannot read jobs from postgresql://someone:\\*\\*\\*@"),
])
def test_bad_urls_are_one_line(url: str, message: str) -> None:
    with pytest.raises(StoreError, match=message) as caught:
        read_jobs(url=url)
    assert "\n" not in str(caught.value) and "secret" not in str(caught.value)


def test_the_jobs_verb_imports_neither_sqlalchemy_nor_the_engine() -> None:
    """What keeps `puzzlefleet jobs` fast (BENCHMARKS.md): its imports, checked in a fresh interpreter."""
    code = ("import sys; from puzzlefleet import cli; cli.build_parser().parse_args(['jobs', '3']); "
            "print(sorted(m for m in ('sqlalchemy', 'sqlmodel', 'alembic', 'engine', 'celery') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                         cwd=Path(__file__).resolve().parents[2])
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_the_lazy_package_names_agree_with_its_type_checking_imports() -> None:
    """store/__init__ lists its names twice (loaded on first use, and for type checkers): the same set,
    and every one loads."""
    import ast
    source = Path(store.__file__).read_text()
    guarded = next(node for node in ast.parse(source).body
                   if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING")
    typed = {alias.name for node in guarded.body if isinstance(node, ast.ImportFrom) for alias in node.names}
    assert typed == set(store.__all__)
    assert all(getattr(store, name) is not None for name in store.__all__)


def test_the_acceptance_line_reads_at_a_glance() -> None:
    from store.progress import acceptance_line
    assert acceptance_line(4, {"dull": 3, "ambiguous": 2}) == "4 of 9 candidates accepted (44%); rejected: dull 3, ambiguous 2"
    assert acceptance_line(0, {}) == "0 of 0 candidates accepted"
    assert acceptance_line(1, {"a": 1, "b": 1, "c": 1, "d": 5}, most=2) == (
        "1 of 9 candidates accepted (11%); rejected: d 5, a 1 +2 more")
