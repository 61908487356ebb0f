"""deploy/generate.py: the per-queue parts of the deployment files come from the game registry. The
checked-in files are what it writes now (a game registered without `make deploy-files` fails here), and
a game registered in-process gets its blocks in every file."""

from __future__ import annotations

import importlib
import importlib.util
import json
import re
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml

import engine
from jobs.queues import broker_queues
from jobs.params import FLEET_QUEUE, queues

ROOT = Path(__file__).resolve().parents[2]


def _script(path: Path) -> ModuleType:
    """A script's module: deploy/ is no package."""
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


generate = _script(ROOT / "deploy" / "generate.py")


def _docs(text: str) -> list[Any]:
    return [doc for doc in yaml.safe_load_all(text) if doc is not None]


def test_the_checked_in_files_are_what_the_generator_writes_for_the_registry() -> None:
    stale = [str(path.relative_to(ROOT)) for path, text in generate.generated_files().items()
             if path.read_text() != text]
    assert not stale, f"run `make deploy-files`: {stale} differ from what deploy/generate.py writes"


def test_the_generator_rewrites_only_its_marked_sections() -> None:
    for path, text in generate.generated_files(queue_names=["alpha", "beta"]).items():
        if path.suffix != ".json":
            assert "# BEGIN GENERATED" in text and "# END GENERATED" in text, path
            hand_written = generate.SECTION.sub("", path.read_text())
            assert generate.SECTION.sub("", text) == hand_written, path


@pytest.fixture
def toy_queue(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The queue of tests/toygame's Latin squares, registered as tests/toygame/test_toygame.py does."""
    monkeypatch.syspath_prepend(str(ROOT / "tests" / "toygame"))
    game = importlib.import_module("toy_latin").GAME
    engine.register(game)
    yield game.queue
    engine.unregister(game.name)


def test_a_registered_game_gets_its_blocks_in_every_file(toy_queue: str) -> None:
    queue = toy_queue
    assert queue == queues()[-1]
    files = {str(path.relative_to(ROOT / "deploy")): text for path, text in generate.generated_files().items()}

    compose = _docs(files["compose.yaml"])[0]["services"]
    command = compose[f"worker-{queue}"]["command"]
    assert command[command.index("-Q") + 1] == f"{queue},{FLEET_QUEUE}"
    exporter_keys = compose["redis-exporter"]["environment"]["REDIS_EXPORTER_CHECK_SINGLE_KEYS"].split(",")
    assert exporter_keys == [f"db0={key}" for name in (*queues(), FLEET_QUEUE) for key in broker_queues(name, "redis")]

    deployments = {d["metadata"]["name"] for d in _docs(files["k8s/workers.yaml"])}
    assert deployments == {f"worker-{name}" for name in queues()}
    for scalers, broker, name_field in (("k8s/keda.yaml", "redis", "listName"),
                                        ("k8s/rabbitmq/keda.yaml", "amqp", "queueName")):
        scaled = {d["spec"]["scaleTargetRef"]["name"]: d for d in _docs(files[scalers])
                  if d["kind"] == "ScaledObject"}
        assert set(scaled) == deployments, scalers
        waiting_in = [t["metadata"][name_field] for t in scaled[f"worker-{queue}"]["spec"]["triggers"]]
        assert sorted(waiting_in) == sorted(broker_queues(queue, broker)), scalers

    prometheus = _docs(files["prometheus/prometheus.yml"])[0]
    workers_job = next(job for job in prometheus["scrape_configs"] if job["job_name"] == "puzzlefleet-workers")
    assert {"targets": [f"worker-{queue}:9100"], "labels": {"queue": queue}} in workers_job["static_configs"]

    assert f"puzzlefleet-worker@{queue}" in files["systemd/puzzlefleet-worker@.service"]
    assert f"worker-{queue}.env" in files["systemd/fleet.env.example"]
    ports = ", ".join(str(9101 + index) for index in range(1, len(queues())))
    assert f"PUZZLEFLEET_METRICS_PORT=9101   ({ports})" in files["systemd/fleet.env.example"]

    dashboard = json.loads(files["grafana/dashboards/puzzlefleet.json"])
    exprs = [t["expr"] for p in dashboard["panels"] for t in p.get("targets", [])]
    alternatives = "|".join((*queues(), FLEET_QUEUE))
    redis_lengths = next(expr for expr in exprs if "redis_key_size" in expr)
    # The exported lists count under their queue's name: the key regex (a PromQL string, then RE2) and
    # label_replace's, read as Prometheus reads them, take every list and give back the queue.
    key_pattern, _, _, _, name_pattern = re.findall(r'"((?:[^"\\]|\\.)*)"', redis_lengths)
    assert key_pattern == name_pattern
    pattern = re.compile(key_pattern.encode().decode("unicode_escape"))
    for name in (*queues(), FLEET_QUEUE):
        for key in broker_queues(name, "redis"):
            found = pattern.fullmatch(key)
            assert found is not None and found[1] == name, key
    assert pattern.fullmatch(queue + "x") is None
    assert f'rabbitmq_detailed_queue_messages_ready{{queue=~"({alternatives})(\\\\.resent)?"}}' in exprs


def test_only_the_first_games_scaler_wakes_on_the_housekeeping_queue(toy_queue: str) -> None:
    for path, text in generate.generated_files().items():
        if path.name == "keda.yaml":
            wakers = [d["metadata"]["name"] for d in _docs(text) if d["kind"] == "ScaledObject"
                      for t in d["spec"]["triggers"] if FLEET_QUEUE in t["metadata"].values()]
            assert wakers == [f"worker-{queues()[0]}"], path
