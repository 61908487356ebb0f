"""A real fleet on a SQLite WAL store: one `celery -A workers worker` (prefork, 2 processes, metrics on)
and Flower with basic auth, shared by this module's tests, per broker: a Redis database of this test
worker's own, flushed, or a RabbitMQ virtual host of its own. The tests marked with BROKERS run on both."""

from __future__ import annotations

import base64
import json
import re
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.workers.conftest import BROKERS, Fleet, flush, free_port, send_raw, waiting_messages, wait_for

pytestmark = [pytest.mark.fleet, pytest.mark.xdist_group("fleet-jobs")]

AUTH = "fleet:s3cret-pass"


@pytest.fixture(scope="module")
def fleets() -> Iterator[dict[str, Fleet]]:
    """The module's fleets by broker URL, each started when a test first asks for it."""
    started: dict[str, Fleet] = {}
    yield started
    for url, fleet in started.items():
        fleet.stop()
        flush(url)


@pytest.fixture
def fleet(fleets: dict[str, Fleet], broker: str, tmp_path_factory: pytest.TempPathFactory) -> Fleet:
    """The module's fleet on `broker` (Redis unless the test is parametrised with BROKERS)."""
    if broker not in fleets:
        tmp = tmp_path_factory.mktemp("fleet")
        flush(broker)
        fleet = fleets[broker] = Fleet(tmp, f"sqlite:///{tmp / 'puzzles.db'}", broker)
        fleet.metrics_port = free_port()         # type: ignore[attr-defined]
        fleet.flower_port = free_port()          # type: ignore[attr-defined]
        fleet.flower(fleet.flower_port, AUTH)    # type: ignore[attr-defined]
        fleet.worker("w1", metrics_port=fleet.metrics_port)  # type: ignore[attr-defined]
    return fleets[broker]


both_brokers = pytest.mark.parametrize("broker", BROKERS, indirect=True)


def _get(url: str, auth: str | None = None) -> tuple[int, str]:
    request = urllib.request.Request(url)
    if auth:
        request.add_header("Authorization", "Basic " + base64.b64encode(auth.encode()).decode())
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode(errors="replace")


@both_brokers
def test_a_job_lands_exactly_n_boards(fleet: Fleet) -> None:
    result = fleet.cli("enqueue", "--game", "queens", "--size", "7", "--count", "30", "--seed", "11",
                       "--wait", "--json")
    assert result.returncode == 0, result.stderr
    sent, status = (json.loads(line) for line in result.stdout.splitlines())   # the job at once, then its end
    assert sent["job"] == status["job"] and sent["requested"] == 30
    assert (status["state"], status["requested"], status["stored"], status["failed"]) == ("done", 30, 30, 0)
    assert status["attempts"] >= 30 and status["attempts"] == 30 + status["rejected"].get("duplicate", 0)
    boards = fleet.boards(status["job"])
    assert len(boards) == 30 == len({b["id"] for b in boards})
    assert all(b["rules"] == {"size": 7, "stars": 1, "diagonals": False} for b in boards)
    # the `jobs` and `export --job` verbs read the same job back
    shown = fleet.cli("jobs", str(status["job"]), "--json")
    assert shown.returncode == 0 and json.loads(shown.stdout)["stored"] == 30
    assert json.loads(shown.stdout)["acceptance"] == round(30 / (30 + sum(status["rejected"].values())), 4)
    assert json.loads(shown.stdout)["boards_per_second"] > 0
    text = fleet.cli("jobs", str(status["job"]))
    assert "requested 30, stored 30" in text.stdout and "state done" in text.stdout
    listing = fleet.cli("jobs")
    # requested and stored, attempts, rejected, acceptance %, boards/s, seconds, the commonest rejection
    share = round(100 * json.loads(shown.stdout)["acceptance"])
    assert re.search(rf"^\s+{status['job']}\s+done\s+30/30\s+{status['attempts']}\s+\d+\s+{share}%\s+\d+\.\d\s+"
                     rf"\d+\.\d\d\s+(\S+ \d+|-)\s+queens 7$", listing.stdout, re.M), listing.stdout
    exported = fleet.cli("export", "--job", str(status["job"]))
    assert exported.returncode == 0
    assert [json.loads(line)["id"] for line in exported.stdout.splitlines()] == [b["id"] for b in boards]
    missing = fleet.cli("jobs", "999999")
    assert missing.returncode == 1 and missing.stderr.strip() == "puzzlefleet: no job with id 999999"
    assert fleet.cli("export", "--job", "999999").returncode == 1


def test_the_same_job_seed_gives_the_same_boards_as_the_embedded_run(fleet: Fleet, tmp_path: Path) -> None:
    sent = fleet.enqueue("--game", "queens", "--size", "8", "--count", "5", "--seed", "123")
    status = fleet.wait_job(sent["job"])
    assert status["state"] == "done"
    fleet_ids = [b["id"] for b in fleet.boards(sent["job"])]
    other = {**fleet.env, "PUZZLEFLEET_DB": f"sqlite:///{tmp_path / 'embedded.db'}"}
    import subprocess
    from tests.workers.conftest import BIN
    run = subprocess.run([str(BIN / "puzzlefleet"), "generate", "--game", "queens", "--size", "8", "--count", "5",
                          "--seed", "123"], env=other, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    embedded = subprocess.run([str(BIN / "puzzlefleet"), "export"], env=other, cwd=tmp_path, capture_output=True,
                              text=True, timeout=60)
    assert sorted(json.loads(line)["id"] for line in embedded.stdout.splitlines()) == sorted(fleet_ids)


@both_brokers
def test_the_same_subtask_delivered_twice_stores_one_board(fleet: Fleet) -> None:
    job_id, params = fleet.new_job(6, size=9)
    # every slot's message three times over, back to back: the two pool processes run copies at once
    ids = send_raw(fleet.broker, *[([job_id, slot, slot + 1, params, 99], "queens") for slot in range(6)
                                   for _ in range(3)])
    fleet.wait_job(job_id)
    worker = next(p for p in fleet.procs if p.name == "w1")
    wait_for(lambda: all(f"generate_slots[{i}] succeeded" in worker.text() for i in ids), 30,
             "every copy to run")
    status = fleet.job(job_id)
    assert (status["state"], status["stored"]) == ("done", 6)
    assert status["attempts"] == 6 + status["rejected"].get("duplicate", 0)   # each attempt counted once
    boards = fleet.boards(job_id)
    assert len(boards) == 6 == len({b["id"] for b in boards})


@both_brokers
def test_overlapping_ranges_store_each_slot_once(fleet: Fleet) -> None:
    """Ranges that overlap (a redelivered task beside the ranges it handed over) share slots safely."""
    job_id, params = fleet.new_job(40, size=8)
    send_raw(fleet.broker, ([job_id, 0, 25, params, 99], "queens"), ([job_id, 10, 40, params, 99], "queens"),
             ([job_id, 25, 40, params, 99], "queens"))
    status = fleet.wait_job(job_id)
    assert (status["state"], status["stored"]) == ("done", 40)
    assert status["attempts"] == 40 + status["rejected"].get("duplicate", 0)
    assert len({b["id"] for b in fleet.boards(job_id)}) == 40


def test_a_slow_range_is_split_over_the_pool(fleet_factory: Callable[..., Fleet], tmp_path: Path,
                                             redis_url: str) -> None:
    """A worker whose tasks split after 1 ms (less than any board takes): one message of 12 slots
    becomes several tasks, sent by the worker itself (slot 0 done, then 7..11, 5..6 and 4 handed over
    by the first task alone), and the job still ends with exactly 12 boards."""
    broker = redis_url.rsplit("/", 1)[0] + "/7"    # a database of its own: the module's worker keeps out
    flush(broker)
    try:
        # A visibility timeout long enough that no task hands over for want of time (VISIBILITY = 5 s
        # leaves a budget of one attempt): only the split hands slots over here.
        split = fleet_factory(f"sqlite:///{tmp_path / 'split.db'}", broker, PUZZLEFLEET_SPLIT_SECONDS="0.001",
                              PUZZLEFLEET_VISIBILITY_TIMEOUT="900")
        worker = split.worker("splitter")
        job_id, params = split.new_job(12, size=9)
        send_raw(split.broker, ([job_id, 0, 12, params, 99], "queens"))
        status = split.wait_job(job_id)
        assert (status["state"], status["stored"]) == ("done", 12)
        assert status["attempts"] == 12 + status["rejected"].get("duplicate", 0)     # no slot worked twice
        assert len({b["id"] for b in split.boards(job_id)}) == 12
        wait_for(lambda: worker.text().count("] received") >= 4, 10, "the handed-over tasks in the log")
        assert "'handed_over': [[" in worker.text()
        split.stop()
    finally:
        flush(broker)


@both_brokers
def test_bad_task_arguments_fail_once_and_are_never_retried(fleet: Fleet) -> None:
    job_id, params = fleet.new_job(2)
    bad = [
        ([job_id, 0, 1, {**params, "size": 99}, 1], "queens"),           # size out of range
        ([job_id, 0, 1, {**params, "size": 0}, 1], "queens"),
        ([job_id, 0, 1, {**params, "band": "impossible"}, 1], "queens"),  # unknown band
        ([job_id, 0, 1, {**params, "game": "chess"}, 1], "queens"),
        ([job_id, 0, 1, {**params, "style": "cubist"}, 1], "queens"),     # unknown style
        ([job_id, "zero", 1, params, 1], "queens"),                       # malformed slot
        ([job_id, 1, 0, params, 1], "queens"),                            # empty range
        ([job_id, 1, 5, params, 1], "queens"),                            # no such slots
        ([987654, 0, 1, params, 1], "queens"),                            # no such job
        ([job_id, 0], "queens"),                                          # missing arguments
    ]
    ids = send_raw(fleet.broker, *bad)
    worker = next(p for p in fleet.procs if p.name == "w1")

    def all_failed() -> bool:
        text = worker.text()
        return all(f"[{task_id}] raised" in text or f"[{task_id}]" in text and "TypeError" in text
                   for task_id in ids)
    wait_for(all_failed, 30, "the bad tasks to fail")
    import time
    time.sleep(1.5)            # time enough for any (wrong) retry to show up
    text = worker.text()
    for task_id in ids:
        assert text.count(f"generate_slots[{task_id}] received") == 1, task_id    # delivered once: no retry
        assert f"generate_slots[{task_id}] retry" not in text
    assert text.count("raised expected: BadTask") >= len(bad) - 1
    status = fleet.job(job_id)
    assert (status["stored"], status["attempts"], status["state"]) == (0, 0, "queued")
    assert waiting_messages(fleet.broker, ("queens",)) == {}         # nothing left to deliver, on either broker
    if fleet.broker.startswith("redis"):
        from tests.workers.conftest import redis_client
        assert redis_client(fleet.broker).hlen("unacked") == 0


@both_brokers
def test_flower_refuses_unauthenticated_requests(fleet: Fleet) -> None:
    base = f"http://127.0.0.1:{fleet.flower_port}"    # type: ignore[attr-defined]
    assert _get(base + "/")[0] == 401
    assert _get(base + "/api/workers")[0] == 401
    assert _get(base + "/", "fleet:wrong")[0] == 401
    status, _ = _get(base + "/", AUTH)
    assert status == 200
    # a task's summary (its return value) is what Flower shows
    sent = fleet.enqueue("--game", "queens", "--size", "6", "--count", "3", "--seed", "4")
    fleet.wait_job(sent["job"])

    def summaries() -> list[str]:
        code, body = _get(base + "/api/tasks?taskname=puzzlefleet.generate_slots&state=SUCCESS", AUTH)
        assert code == 200
        return [t.get("result") or "" for t in json.loads(body).values()
                if f"'job': {sent['job']}," in (t.get("result") or "")]
    results = wait_for(lambda: len(summaries()) == 3 and summaries(), 20, "Flower to show the summaries")
    assert all("'accepted': 1" in r and "'rejected':" in r and "'seconds':" in r for r in results)
    # at a glance: the result leads with the acceptance line, and the task list has a result column
    assert all(re.match(r"\{'result': '1 of \d+ candidates accepted \(\d+%\)", r) for r in results), results
    code, page = _get(base + "/tasks", AUTH)
    assert code == 200 and '<th data-column="result">Result</th>' in page


def test_a_banded_job_stores_boards_of_that_band_only(fleet: Fleet) -> None:
    result = fleet.cli("enqueue", "--game", "queens", "--size", "7", "--band", "medium", "--count", "4",
                       "--seed", "21", "--wait", "--json")
    assert result.returncode == 0, result.stderr
    status = json.loads(result.stdout.splitlines()[-1])
    assert (status["state"], status["stored"], status["band"]) == ("done", 4, "medium")
    boards = fleet.boards(status["job"])
    assert [b["difficulty"]["band"] for b in boards] == ["medium"] * 4
    exported = fleet.cli("export", "--job", str(status["job"]), "--band", "medium")
    assert len(exported.stdout.splitlines()) == 4
    assert fleet.cli("export", "--job", str(status["job"]), "--band", "easy").stdout == ""
    code, text = _get(f"http://127.0.0.1:{fleet.metrics_port}/metrics")    # type: ignore[attr-defined]
    assert re.search(r'^puzzlefleet_boards_accepted_total\{band="medium",game="queens",size="7"\} 4\.0$', text, re.M)


def test_a_styled_job_stores_boards_drawn_in_that_style(fleet: Fleet) -> None:
    """--style travels with the job's parameters to the worker, which draws every board in it."""
    result = fleet.cli("enqueue", "--game", "queens", "--size", "7", "--style", "organic", "--count", "3",
                       "--seed", "12", "--wait", "--json")
    assert result.returncode == 0, result.stderr
    status = json.loads(result.stdout.splitlines()[-1])       # the job line first, then its end
    assert (status["state"], status["stored"], status["params"]["style"]) == ("done", 3, "organic")
    boards = fleet.boards(status["job"])
    assert [(b["style"], b["generation"]["style"]) for b in boards] == [("organic", "organic")] * 3
    exported = fleet.cli("export", "--job", str(status["job"]), "--style", "organic")
    assert [json.loads(line)["id"] for line in exported.stdout.splitlines()] == [b["id"] for b in boards]
    listed = fleet.cli("list", "--style", "organic", "--size", "7").stdout.splitlines()[1:]
    assert sorted(line.split()[0] for line in listed) == sorted(b["id"] for b in boards)


def test_a_sudoku_job_by_clue_band_lands_on_its_own_queue(fleet: Fleet) -> None:
    result = fleet.cli("enqueue", "--game", "sudoku", "--size", "9", "--band", "hard", "--band-by", "clues",
                       "--count", "3", "--seed", "5", "--wait", "--json")
    assert result.returncode == 0, result.stderr
    status = json.loads(result.stdout.splitlines()[-1])
    assert (status["state"], status["stored"]) == ("done", 3)
    boards = fleet.boards(status["job"])
    assert all(b["game"] == "sudoku" and 24 <= 81 - b["givens"].count(".") <= 29 for b in boards)
    assert len({b["id"] for b in boards}) == 3


def test_metrics_show_the_counters_after_a_job(fleet: Fleet) -> None:
    sent = fleet.enqueue("--game", "queens", "--size", "5", "--count", "4", "--seed", "8")
    status = fleet.wait_job(sent["job"])
    assert status["stored"] == 4
    again = fleet.enqueue("--game", "queens", "--size", "5", "--count", "1", "--seed", "8")
    assert fleet.wait_job(again["job"])["rejected"].get("duplicate")      # the same seeds: the same boards first
    port = fleet.metrics_port    # type: ignore[attr-defined]
    code, text = _get(f"http://127.0.0.1:{port}/metrics")
    assert code == 200
    assert re.search(r'^puzzlefleet_boards_accepted_total\{band="none",game="queens",size="5"\} 5\.0$', text, re.M)
    assert "# TYPE puzzlefleet_candidates_rejected_total counter" in text
    assert re.search(r'^puzzlefleet_generation_seconds_count\{game="queens",size="5"\} \d', text, re.M)
    # the second job's duplicates at least, counted by reason
    assert re.search(r'^puzzlefleet_candidates_rejected_total\{game="queens",reason="[a-z-]+"\} \d', text, re.M)
