"""The deployment files parse and keep the fleet's rules: secrets only from the environment, Redis with
AOF and a password, RabbitMQ (a compose profile) with its data on a volume, a worker per queue, grace
periods above the hard time limit, a KEDA scaler per queue for each broker, systemd units for worker,
beat and Flower, a dashboard over the contract's metric names."""

from __future__ import annotations

import configparser
import json
import re
from pathlib import Path
from typing import Any

import yaml

from jobs.queues import broker_queues, queue_keys
from jobs.params import FLEET_QUEUE, queues
from tests.documented import CELERY_WORKER, FLEET_PAGE, documented

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
HARD_LIMIT = 30


def _docs(path: Path) -> list[Any]:
    return [doc for doc in yaml.safe_load_all(path.read_text()) if doc is not None]


def test_every_yaml_and_json_file_parses() -> None:
    files = sorted([*DEPLOY.rglob("*.yaml"), *DEPLOY.rglob("*.yml")])
    assert len(files) >= 8
    for path in files:
        assert _docs(path), path
    for path in DEPLOY.rglob("*.json"):
        json.loads(path.read_text())


def test_compose_takes_every_secret_from_the_environment() -> None:
    text = (DEPLOY / "compose.yaml").read_text()
    compose = _docs(DEPLOY / "compose.yaml")[0]
    services = compose["services"]
    assert {"redis", "postgres", "beat", "flower", "prometheus", "grafana"} <= set(services)
    for name in ("REDIS_PASSWORD", "POSTGRES_PASSWORD", "FLOWER_BASIC_AUTH", "GRAFANA_ADMIN_PASSWORD"):
        assert f"${{{name}:?" in text
    # no literal secret: every password-like value is an ${...} reference
    for service in services.values():
        env = service.get("environment") or {}
        for key, value in env.items():
            if re.search(r"PASSWORD|AUTH|SECRET", key):
                assert str(value).startswith("${"), (key, value)
    redis = " ".join(services["redis"]["command"])
    assert "--appendonly yes" in redis and "--requirepass ${REDIS_PASSWORD" in redis
    assert "FLOWER_BASIC_AUTH" in services["flower"]["environment"]
    for port in services["flower"].get("ports", []) + services["grafana"].get("ports", []):
        assert port.startswith("127.0.0.1:")


def test_compose_runs_a_worker_per_queue_with_metrics_and_a_long_grace() -> None:
    services = _docs(DEPLOY / "compose.yaml")[0]["services"]
    for queue in queues():
        worker = services[f"worker-{queue}"]
        command = worker["command"]
        assert command[:4] == ["celery", "-A", "workers", "worker"]
        assert command[command.index("-Q") + 1].split(",")[0] == queue
        env = worker["environment"]
        assert env["PUZZLEFLEET_METRICS_PORT"] == "9100" and env["PROMETHEUS_MULTIPROC_DIR"]
        # The visibility timeout follows the hard limit (the fleet's default): a dead worker's tasks come
        # back within a minute.
        assert int(env["PUZZLEFLEET_TIME_LIMIT"]) == HARD_LIMIT and "PUZZLEFLEET_VISIBILITY_TIMEOUT" not in env
        assert int(worker["stop_grace_period"].rstrip("s")) > HARD_LIMIT
    assert services["beat"]["command"][:4] == ["celery", "-A", "workers", "beat"]
    prometheus = _docs(DEPLOY / "prometheus" / "prometheus.yml")[0]
    targets = {t for job in prometheus["scrape_configs"] for sc in job["static_configs"] for t in sc["targets"]}
    assert {f"worker-{queue}:9100" for queue in queues()} <= targets


def test_compose_has_a_rabbitmq_profile_the_fleet_waits_for() -> None:
    text = (DEPLOY / "compose.yaml").read_text()
    compose = _docs(DEPLOY / "compose.yaml")[0]
    services = compose["services"]
    rabbit = services["rabbitmq"]
    assert rabbit["profiles"] == ["rabbitmq"] and rabbit["hostname"] == "rabbitmq"     # the node name, fixed
    assert "rabbitmq-data:/var/lib/rabbitmq" in rabbit["volumes"] and "rabbitmq-data" in compose["volumes"]
    assert rabbit["environment"]["RABBITMQ_DEFAULT_PASS"].startswith("${RABBITMQ_PASSWORD:?")
    assert all(port.startswith("127.0.0.1:") for port in rabbit["ports"])
    assert rabbit["healthcheck"]["test"][:2] == ["CMD", "rabbitmq-diagnostics"]
    # Plugins: the management API (Flower's broker page) and Prometheus; a consumer timeout above the
    # hard time limit, the longest a task may hold its message.
    mounted = {volume.split(":")[1]: DEPLOY / volume.split(":")[0] for volume in rabbit["volumes"]
               if volume.startswith("./")}
    plugins = mounted["/etc/rabbitmq/enabled_plugins"].read_text()
    assert "rabbitmq_management" in plugins and "rabbitmq_prometheus" in plugins
    conf = dict(line.split(" = ") for line in mounted["/etc/rabbitmq/conf.d/90-puzzlefleet.conf"].read_text()
                .splitlines() if " = " in line and not line.startswith("#"))
    fleet_env = compose["x-fleet-env"]
    assert int(conf["consumer_timeout"]) > 1000 * int(fleet_env["PUZZLEFLEET_TIME_LIMIT"])
    # The broker URL is the environment's, Redis by default; every fleet service waits for RabbitMQ when
    # its profile is on (required: false, so not without it).
    assert fleet_env["PUZZLEFLEET_BROKER"].startswith("${PUZZLEFLEET_BROKER:-redis://")
    assert "COMPOSE_PROFILES=rabbitmq" in text and "PUZZLEFLEET_BROKER=amqp://" in text
    fleet_services = [s for s in services.values() if s.get("image") == "puzzlefleet:local"]
    assert len(fleet_services) == len(queues()) + 2
    for service in fleet_services:
        assert service["depends_on"]["rabbitmq"] == {"condition": "service_healthy", "required": False}
        assert service["depends_on"]["redis"]["condition"] == "service_healthy"
    prometheus = _docs(DEPLOY / "prometheus" / "prometheus.yml")[0]
    targets = {t for job in prometheus["scrape_configs"] for sc in job["static_configs"] for t in sc["targets"]}
    assert "rabbitmq:15692" in targets


def test_kubernetes_on_rabbitmq_scales_on_each_queue_and_its_resent_twin() -> None:
    """deploy/k8s/rabbitmq/keda.yaml, applied instead of deploy/k8s/keda.yaml: the same workers, KEDA's
    RabbitMQ scaler over every queue a worker's messages wait in, the host from a secret."""
    docs = _docs(DEPLOY / "k8s" / "rabbitmq" / "keda.yaml")
    auth = next(d for d in docs if d["kind"] == "TriggerAuthentication")
    assert auth["metadata"]["name"] == "puzzlefleet-rabbitmq"
    assert auth["spec"]["secretTargetRef"] == [{"parameter": "host", "name": "puzzlefleet-secrets",
                                                "key": "rabbitmq-url"}]
    scaled = {d["spec"]["scaleTargetRef"]["name"]: d for d in docs if d["kind"] == "ScaledObject"}
    redis_scaled = {d["spec"]["scaleTargetRef"]["name"]: d for d in _docs(DEPLOY / "k8s" / "keda.yaml")
                    if d["kind"] == "ScaledObject"}
    assert set(scaled) == set(redis_scaled) == {f"worker-{queue}" for queue in queues()}
    for name, scaler in scaled.items():
        queue = name.removeprefix("worker-")
        triggers = scaler["spec"]["triggers"]
        assert set(broker_queues(queue, "amqp")) <= {t["metadata"]["queueName"] for t in triggers}
        for trigger in triggers:
            assert trigger["type"] == "rabbitmq" and trigger["authenticationRef"]["name"] == "puzzlefleet-rabbitmq"
            assert trigger["metadata"]["mode"] == "QueueLength" and "host" not in trigger["metadata"]
        for key in ("minReplicaCount", "maxReplicaCount", "pollingInterval", "cooldownPeriod"):
            assert scaler["spec"][key] == redis_scaled[name]["spec"][key], (name, key)
    assert any(t["metadata"]["queueName"] == FLEET_QUEUE for d in scaled.values() for t in d["spec"]["triggers"])
    assert "rabbitmq-url" in (DEPLOY / "k8s" / "config.yaml").read_text()


def test_kubernetes_workers_outlast_the_hard_limit_and_scale_on_their_queue() -> None:
    docs = [d for path in sorted((DEPLOY / "k8s").glob("*.yaml")) for d in _docs(path)]
    assert not [d for d in docs if d["kind"] == "Secret"], "secrets are created out of band"
    config = next(d for d in docs if d["kind"] == "ConfigMap")["data"]
    hard = int(config["PUZZLEFLEET_TIME_LIMIT"])
    assert "PUZZLEFLEET_VISIBILITY_TIMEOUT" not in config          # it follows the hard limit
    workers = {d["metadata"]["name"]: d for d in docs if d["kind"] == "Deployment"
               and d["metadata"]["name"].startswith("worker-")}
    assert set(workers) == {f"worker-{queue}" for queue in queues()}
    scaled = {d["spec"]["scaleTargetRef"]["name"]: d for d in docs if d["kind"] == "ScaledObject"}
    assert set(scaled) == set(workers)
    for name, deployment in workers.items():
        spec = deployment["spec"]["template"]["spec"]
        assert spec["terminationGracePeriodSeconds"] > hard
        args = spec["containers"][0]["args"]
        queue = name.removeprefix("worker-")
        assert args[:4] == ["celery", "-A", "workers", "worker"] and args[args.index("-Q") + 1].startswith(queue)
        # Every Redis list the queue's messages may wait in (new work, and what the sweep sent again).
        triggers = scaled[name]["spec"]["triggers"]
        assert set(queue_keys(queue)) <= {t["metadata"]["listName"] for t in triggers}
        for trigger in triggers:
            assert trigger["type"] == "redis" and trigger["authenticationRef"]["name"] == "puzzlefleet-redis"
        env = {e["name"]: e for e in spec["containers"][0]["env"]}
        assert "secretKeyRef" in env["PUZZLEFLEET_BROKER"]["valueFrom"]
    # An idle cluster scaled to zero still runs the housekeeping queue: some scaler wakes on it.
    fleet_triggers = [t for d in scaled.values() for t in d["spec"]["triggers"]
                      if t["metadata"].get("listName") == FLEET_QUEUE]
    assert fleet_triggers or any(d["spec"].get("minReplicaCount", 0) >= 1 for d in scaled.values())
    beat = next(d for d in docs if d["kind"] == "Deployment" and d["metadata"]["name"] == "beat")
    assert beat["spec"]["replicas"] == 1 and beat["spec"]["strategy"]["type"] == "Recreate"


def _unit(name: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str     # type: ignore[assignment]
    parser.read_string((DEPLOY / "systemd" / name).read_text())
    return parser


def test_systemd_units_for_worker_beat_and_flower() -> None:
    worker = _unit("puzzlefleet-worker@.service")["Service"]
    assert "celery -A workers worker -Q %i" in worker["ExecStart"]
    assert int(worker["TimeoutStopSec"]) > HARD_LIMIT and worker["KillSignal"] == "SIGTERM"
    assert "celery -A workers beat" in _unit("puzzlefleet-beat.service")["Service"]["ExecStart"]
    flower = _unit("puzzlefleet-flower.service")["Service"]
    assert "celery -A workers flower --address=127.0.0.1" in flower["ExecStart"]
    for name in ("puzzlefleet-worker@.service", "puzzlefleet-beat.service", "puzzlefleet-flower.service"):
        text = (DEPLOY / "systemd" / name).read_text()
        assert "EnvironmentFile=/etc/puzzlefleet/fleet.env" in text and "PASSWORD" not in text


def test_the_dashboard_charts_the_contract_metrics() -> None:
    dashboard = json.loads((DEPLOY / "grafana" / "dashboards" / "puzzlefleet.json").read_text())
    exprs = " ".join(t["expr"] for p in dashboard["panels"] for t in p["targets"])
    for metric in ("puzzlefleet_boards_accepted_total", "puzzlefleet_candidates_rejected_total",
                   "puzzlefleet_generation_seconds_bucket"):
        assert metric in exprs
    assert len({p["id"] for p in dashboard["panels"]}) == len(dashboard["panels"])
    # Every fleet metric a panel queries is one the workers export (a renamed metric fails here; the
    # metrics test reads the per-job ones off a real worker's /metrics).
    from workers.metrics import JOB_GAUGES, exported_names
    queried = set(re.findall(r"puzzlefleet_\w+", exprs))
    assert queried <= exported_names(), sorted(queried - exported_names())
    # The per-job summary is charted: requested, stored, acceptance, rejections by reason, boards/s.
    assert set(JOB_GAUGES) - {"puzzlefleet_job_open"} <= queried
    by_job = [expr for expr in re.findall(r"max by \(([^)]*)\) \((puzzlefleet_job_\w+)", exprs)]
    assert by_job and all({"job_id", "game"} <= set(map(str.strip, labels.split(","))) for labels, _ in by_job)


def _consumed(command: list[str] | str) -> set[str]:
    words = command.split() if isinstance(command, str) else command
    return set(words[words.index("-Q") + 1].split(",")) if "-Q" in words else set()


def test_every_games_queue_has_a_worker_in_every_deployment() -> None:
    """Derived from the game registry: a game added without a worker anywhere (the deployment files, or
    the commands docs/fleet.md runs the fleet with) fails here."""
    wanted = {*queues(), FLEET_QUEUE}
    compose = _docs(DEPLOY / "compose.yaml")[0]["services"]
    served = set().union(*(_consumed(service.get("command") or []) for service in compose.values()))
    assert wanted <= served, f"compose: no worker for {sorted(wanted - served)}"
    k8s = [d for path in sorted((DEPLOY / "k8s").glob("*.yaml")) for d in _docs(path)]
    served = set().union(*(_consumed(c.get("args") or []) for d in k8s if d["kind"] == "Deployment"
                           for c in d["spec"]["template"]["spec"]["containers"]))
    assert wanted <= served, f"k8s: no worker for {sorted(wanted - served)}"
    enabled = (DEPLOY / "systemd" / "puzzlefleet-worker@.service").read_text()
    assert all(f"puzzlefleet-worker@{queue}" in enabled for queue in queues())
    example = (DEPLOY / "systemd" / "fleet.env.example").read_text()
    assert all(f"worker-{queue}.env" in example for queue in queues())
    served = set().union(*(_consumed(command.argv) for command in documented(CELERY_WORKER, FLEET_PAGE)))
    assert wanted <= served, f"docs/fleet.md: no worker for {sorted(wanted - served)}"


def test_every_worker_runs_without_gossip_and_mingle() -> None:
    """Nothing in the fleet uses them, and after a broker restart they only add errors to the log."""
    commands: list[str] = []
    compose = _docs(DEPLOY / "compose.yaml")[0]["services"]
    commands += [" ".join(s["command"]) for s in compose.values() if s.get("command", [])[3:4] == ["worker"]]
    k8s = [d for path in sorted((DEPLOY / "k8s").glob("*.yaml")) for d in _docs(path)]
    commands += [" ".join(c["args"]) for d in k8s if d["kind"] == "Deployment"
                 for c in d["spec"]["template"]["spec"]["containers"] if c.get("args", [])[3:4] == ["worker"]]
    commands.append(_unit("puzzlefleet-worker@.service")["Service"]["ExecStart"])
    commands += [line for line in (DEPLOY / "Dockerfile").read_text().splitlines() if line.startswith("CMD")]
    documented_workers = [command.text for command in documented(CELERY_WORKER) if "-Q" in command.argv]
    assert {"README.md", "fleet.md"} <= {command.page.name for command in documented(CELERY_WORKER)}
    commands += documented_workers          # as README.md and docs/fleet.md start them
    assert len(commands) >= 14, commands
    for command in commands:
        assert "--without-gossip" in command and "--without-mingle" in command, command
