"""The read API is what its own OpenAPI schema says: schemathesis, with every check and every phase
(the stateful one following the schema's links), against `puzzlefleet serve` run as a user runs it,
on a small real store, finds nothing; and every operation answered 2xx to a request the stateful
phase reached it by."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
from collections import Counter, defaultdict
from pathlib import Path

from tests.api.conftest import make_store
from tests.serve_support import serving

EXAMPLES = 10            # per operation and phase (the coverage phase adds its own): the run stays under a minute
STATEFUL_SCENARIOS = 60  # enough that each link is followed (every operation is asserted reached)


def _schemathesis(base: str, folder: Path) -> tuple[subprocess.CompletedProcess[str], list[dict]]:
    report = folder / "run.ndjson"
    config = folder / "schemathesis.toml"
    config.write_text(f"[phases.stateful.generation]\nmax-examples = {STATEFUL_SCENARIOS}\n")
    exe = Path(sys.executable).with_name("schemathesis")
    run = subprocess.run([str(exe), "--config-file", str(config), "run", f"{base}/openapi.json",
                          "--checks", "all", "--phases", "examples,coverage,fuzzing,stateful",
                          "--max-examples", str(EXAMPLES), "--seed", "1", "--workers", "1",
                          "--report", "ndjson", "--report-ndjson-path", str(report)],
                         capture_output=True, text=True, timeout=240, cwd=folder)
    return run, [json.loads(line) for line in report.read_text().splitlines() if line.strip()]


def test_schemathesis_finds_nothing_and_reaches_every_operation(tmp_path):
    env = {**os.environ, "PUZZLEFLEET_DB": make_store(tmp_path / "puzzles.db")}
    with serving(env) as base:
        with urllib.request.urlopen(f"{base}/openapi.json", timeout=10) as r:
            schema = json.load(r)
        run, events = _schemathesis(base, tmp_path)
    failed = [(check["name"], case_id) for event in events if "ScenarioFinished" in event
              for case_id, checks in event["ScenarioFinished"]["recorder"].get("checks", {}).items()
              for check in checks if check["status"] != "success"]
    assert run.returncode == 0 and not failed, (failed, run.stdout[-6000:], run.stderr[-2000:])

    answered: dict[str, dict[str, Counter[int]]] = defaultdict(lambda: defaultdict(Counter))
    for event in events:
        scenario = event.get("ScenarioFinished")
        if scenario is None:
            continue
        recorder = scenario["recorder"]
        for case_id, case in recorder.get("cases", {}).items():
            response = (recorder.get("interactions", {}).get(case_id) or {}).get("response")
            if response is not None and case["value"]["method"] == "GET":
                answered[scenario["phase"]][case["value"]["path"]][response["status_code"]] += 1
    operations = {path for path, methods in schema["paths"].items() if "get" in methods}
    assert len(operations) >= 13
    for phase in ("coverage", "fuzzing"):
        assert set(answered[phase]) == operations, (phase, sorted(operations - set(answered[phase])))
    # The stateful phase gets to each operation only by the schema's links: each answered 2xx there.
    reached = {path for path, statuses in answered["stateful"].items() if any(200 <= s < 300 for s in statuses)}
    assert reached == operations, (sorted(operations - reached), dict(answered["stateful"]))
