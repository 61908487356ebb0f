"""Metrics the way docs/fleet.md (and the README's quick start) starts a worker, the command read from
the page: `PUZZLEFLEET_METRICS_PORT=... celery -A workers worker -Q queens,fleet -n queens@%h -c 2 -l info
--without-gossip --without-mingle`, with no other metrics setting, shows the counters of a job and its
per-job summary; the summary leaves /metrics once its window (PUZZLEFLEET_JOB_METRICS_SECONDS) has
passed; every per-job metric the Grafana dashboard queries is really on /metrics."""

from __future__ import annotations

import json
import re
import urllib.request
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from tests.documented import documented_worker
from tests.workers.conftest import Fleet, free_port, wait_for

pytestmark = [pytest.mark.fleet, pytest.mark.slow]

CELERY_PROGRAM = ("celery", "-A", "workers")        # what Fleet._start puts before its arguments
DASHBOARD = Path(__file__).resolve().parents[2] / "deploy" / "grafana" / "dashboards" / "puzzlefleet.json"


def _documented_worker(fleet: Fleet, port: int, **env: str):
    """The Queens worker as docs/fleet.md starts it, on a free port instead of the page's."""
    command = documented_worker("queens")
    assert set(command.env) == {"PUZZLEFLEET_METRICS_PORT"}, command.env      # the port alone
    worker = fleet._start("queens", command.argv[len(CELERY_PROGRAM):],
                          {**command.env, "PUZZLEFLEET_METRICS_PORT": str(port), **env})
    worker.wait_for_log(" ready.")
    return worker


def _metrics(port: int) -> str:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as r:
        return r.read().decode()


def _samples(text: str, name: str) -> dict[tuple[tuple[str, str], ...], float]:
    """The samples of one metric: labels (sorted pairs) -> value."""
    found = {}
    for labels, value in re.findall(rf"^{name}\{{([^}}]*)\}} (\S+)$", text, re.M):
        found[tuple(sorted(re.findall(r'(\w+)="([^"]*)"', labels)))] = float(value)
    return found


def _job(fleet: Fleet, job_id: int) -> dict:
    shown = fleet.cli("jobs", str(job_id), "--json")
    assert shown.returncode == 0, shown.stderr
    return json.loads(shown.stdout)


def test_metrics_as_the_docs_start_a_worker(fleet_factory, tmp_path) -> None:
    fleet = fleet_factory(f"sqlite:///{tmp_path / 'metrics.db'}")
    port = free_port()
    worker = _documented_worker(fleet, port)
    sent = fleet.cli("enqueue", "--game", "queens", "--size", "6", "--count", "5", "--seed", "3", "--wait", "--json")
    assert sent.returncode == 0, sent.stderr + worker.text()[-3000:]
    job = json.loads(sent.stdout.splitlines()[-1])
    # A job for a queue this worker does not consume: not this worker's to report.
    other = fleet.cli("enqueue", "--game", "sudoku", "--size", "9", "--count", "2", "--json")
    assert other.returncode == 0, other.stderr
    other_id = json.loads(other.stdout.splitlines()[-1])["job"]
    text = _metrics(port)
    assert re.search(r'^puzzlefleet_boards_accepted_total\{band="none",game="queens",size="6"\} 5\.0$', text, re.M), text
    assert re.search(r'^puzzlefleet_slot_tasks_total\{game="queens",outcome="finished"\} \d', text, re.M)
    assert re.search(r'^puzzlefleet_generation_seconds_count\{game="queens",size="6"\} \d', text, re.M)

    # The per-job summary agrees with `puzzlefleet jobs ID --json`.
    shown = _job(fleet, job["job"])
    key = (("game", "queens"), ("job_id", str(job["job"])))
    assert re.search(r"^puzzlefleet_job_summary_up 1\.0$", text, re.M), text
    assert _samples(text, "puzzlefleet_job_requested_boards") == {key: 5.0}
    assert _samples(text, "puzzlefleet_job_stored_boards") == {key: 5.0}
    assert _samples(text, "puzzlefleet_job_open") == {key: 0.0}
    assert _samples(text, "puzzlefleet_job_boards_per_second") == {key: shown["boards_per_second"]}
    assert _samples(text, "puzzlefleet_job_acceptance_ratio") == {key: shown["acceptance"]}
    assert 0 < shown["acceptance"] <= 1
    assert shown["acceptance"] == round(5 / (5 + sum(shown["rejected"].values())), 4)
    assert _samples(text, "puzzlefleet_job_rejected_candidates") == {
        (*key, ("reason", reason)): float(n) for reason, n in shown["rejected"].items()}
    assert f'job_id="{other_id}"' not in text

    # Every puzzlefleet_job_* metric the dashboard charts is on /metrics.
    dashboard = json.loads(DASHBOARD.read_text())
    charted = {name for panel in dashboard["panels"] for target in panel.get("targets", [])
               for name in re.findall(r"puzzlefleet_job_\w+", target["expr"])}
    assert len(charted) >= 5, charted
    served = set(re.findall(r"^(puzzlefleet_job_\w+)", text, re.M))
    assert charted <= served, charted - served


def test_a_finished_jobs_gauges_leave_after_their_window(fleet_factory, tmp_path) -> None:
    window = 8
    fleet = fleet_factory(f"sqlite:///{tmp_path / 'window.db'}")
    port = free_port()
    _documented_worker(fleet, port, PUZZLEFLEET_JOB_METRICS_SECONDS=str(window))
    sent = fleet.cli("enqueue", "--game", "queens", "--size", "6", "--count", "3", "--seed", "5", "--wait", "--json")
    assert sent.returncode == 0, sent.stderr
    job_id = json.loads(sent.stdout.splitlines()[0])["job"]
    label = f'job_id="{job_id}"'
    last_change = datetime.fromisoformat(_job(fleet, job_id)["updated_at"])
    asked = datetime.now(timezone.utc)
    assert asked - last_change < timedelta(seconds=window - 2), "the machine is too slow for this window"
    assert label in _metrics(port)

    def gone() -> datetime | None:
        asked = datetime.now(timezone.utc)
        return asked if label not in _metrics(port) else None
    left = wait_for(gone, window + 15, f"job {job_id}'s gauges to leave /metrics", interval=0.25)
    assert left - last_change >= timedelta(seconds=window - 0.5)      # kept for its window, not less
    text = _metrics(port)
    assert "puzzlefleet_job_summary_up 1.0" in text and "job_id=" not in text
    # The counters stay: they are the fleet's totals, not the job's.
    assert re.search(r'^puzzlefleet_boards_accepted_total\{band="none",game="queens",size="6"\} 3\.0$', text, re.M)
