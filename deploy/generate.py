"""Writes the per-queue parts of the deployment files from the game registry's queues.

    make deploy-files            # or: .venv/bin/python deploy/generate.py

A registered game needs a worker, a KEDA scaler per broker, a scrape target and so on in every
deployment. Those parts are written here, one template per block, between the lines
`# BEGIN GENERATED <section>` and `# END GENERATED <section>` of each file (the rest of the file is
written by hand and kept as it is); the dashboard's queue-length queries are set in its JSON, which
has no comments. tests/deploy/test_deploy_generate.py fails when a checked-in file differs from what
this writes now, so a game registered without running it fails CI.
"""

from __future__ import annotations

import json
import re
import sys
import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path

from jobs.queues import broker_queues
from jobs.params import FLEET_QUEUE, queues

DEPLOY = Path(__file__).resolve().parent
COMMENT_WIDTH = 115
DEFAULT_MAX_REPLICAS = 6
# Deployment tuning, not game rules: Queens is the game asked for most, so its workers may scale further.
MAX_REPLICAS = {"queens": 8}

K8S_WORKER = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: worker-{queue}
  namespace: puzzlefleet
  labels: {{app.kubernetes.io/name: puzzlefleet, app.kubernetes.io/component: worker, puzzlefleet/queue: {queue}}}
spec:
  replicas: 1                       # KEDA (keda.yaml) scales this on the length of the {queue} list
  selector:
    matchLabels: {{app.kubernetes.io/component: worker, puzzlefleet/queue: {queue}}}
  template:
    metadata:
      labels: {{app.kubernetes.io/name: puzzlefleet, app.kubernetes.io/component: worker, puzzlefleet/queue: {queue}}}
      annotations:
        prometheus.io/scrape: "true"
        prometheus.io/port: "9100"
        prometheus.io/path: /metrics
    spec:
      # Above the hard time limit (30 s): on scale-down Celery's warm shutdown finishes running tasks.
      terminationGracePeriodSeconds: 60
      securityContext: {{runAsNonRoot: true, runAsUser: 10001}}
      containers:
        - name: worker
          image: puzzlefleet:latest
          args: ["celery", "-A", "workers", "worker", "-Q", "{queue},{fleet}", "-n", "{queue}@$(POD_NAME)",
                 "--pool", "prefork", "--concurrency", "2", "-l", "info", "--without-gossip", "--without-mingle"]
          envFrom:
            - configMapRef: {{name: puzzlefleet-config}}
          env:
            - name: POD_NAME
              valueFrom: {{fieldRef: {{fieldPath: metadata.name}}}}
            - name: PUZZLEFLEET_BROKER
              valueFrom: {{secretKeyRef: {{name: puzzlefleet-secrets, key: broker-url}}}}
            - name: PUZZLEFLEET_DB
              valueFrom: {{secretKeyRef: {{name: puzzlefleet-secrets, key: db-url}}}}
          ports:
            - {{name: metrics, containerPort: 9100}}
          readinessProbe:
            httpGet: {{path: /metrics, port: metrics}}
            initialDelaySeconds: 10
            periodSeconds: 30
          resources:
            requests: {{cpu: "2", memory: 512Mi}}
            limits: {{memory: 2Gi}}
          volumeMounts:
            - {{name: metrics, mountPath: /tmp/puzzlefleet-metrics}}
      volumes:
        - name: metrics
          emptyDir: {{}}
"""

# One ScaledObject per queue and broker: the same scaling, the broker's triggers.
SCALED_OBJECT = """\
apiVersion: keda.sh/v1alpha1
kind: ScaledObject
metadata:
  name: worker-{queue}
  namespace: puzzlefleet
spec:
  scaleTargetRef:
    name: worker-{queue}
  minReplicaCount: 0
  maxReplicaCount: {max_replicas}
  pollingInterval: 15
  cooldownPeriod: 300
  triggers:
{triggers}"""

REDIS_TRIGGER = """\
    - type: redis
      metadata:
        address: redis.puzzlefleet.svc.cluster.local:6379
        databaseIndex: "0"
        listName: {name}
        listLength: "{length}"
        activationListLength: "0"
      authenticationRef:
        name: puzzlefleet-redis
"""

RABBITMQ_TRIGGER = """\
    - type: rabbitmq
      metadata:
        protocol: amqp
        queueName: {name}
        mode: QueueLength
        value: "{length}"
        activationValue: "0"
      authenticationRef:
        name: puzzlefleet-rabbitmq
"""

REDIS_LISTS_COMMENT = """\
    # A queue's messages are in two Redis lists (jobs/queues.py, queue_keys): new work in
    # "{queue}\\x06\\x165" (kombu's list for priority 5), what beat's sweep sent again in "{queue}".
"""

HOUSEKEEPING_COMMENT = """\
    # Housekeeping (beat's sweep for stalled jobs, the daily set) goes to `{fleet}`, which every worker
    # consumes: this trigger wakes the {queue} workers when it waits, so an idle cluster scaled to zero
    # still runs them.
"""

COMPOSE_WORKER = """\
  worker-{queue}:
    <<: *fleet
    command: ["celery", "-A", "workers", "worker", "-Q", "{queue},{fleet}", "-n", "{queue}@%h",
              "--pool", "prefork", "--concurrency", "${{{concurrency_variable}:-2}}", "-l", "info",
              "--without-gossip", "--without-mingle"]
    environment:
      <<: *worker-env
    # Above the hard time limit (30 s): a stopping worker finishes its running tasks first.
    stop_grace_period: 60s
"""

REDIS_EXPORTER_KEYS = '      REDIS_EXPORTER_CHECK_SINGLE_KEYS: "{keys}"\n'

PROMETHEUS_TARGET = """\
      - targets: ["worker-{queue}:9100"]
        labels: {{queue: {queue}}}
"""

SYSTEMD_METRICS_PORTS = "#   PUZZLEFLEET_METRICS_PORT={first}{others}\n"
FIRST_SYSTEMD_METRICS_PORT = 9101

DASHBOARD_QUEUE_LENGTHS = {
    # A queue's Redis lists (its own name, kombu's priority lists) summed under the queue's name.
    "redis_key_size": 'sum by (queue) (label_replace(redis_key_size{{key=~"({queues})(\\\\x06\\\\x16[0-9]+)?"}}, '
                      '"queue", "$1", "key", "({queues})(\\\\x06\\\\x16[0-9]+)?"))',
    "rabbitmq_detailed_queue_messages_ready":
        'rabbitmq_detailed_queue_messages_ready{{queue=~"({queues})(\\\\.resent)?"}}',
}

SECTION = re.compile(r"(?P<begin>^(?P<indent>[ \t]*)# BEGIN GENERATED (?P<name>[\w-]+)[^\n]*\n)"
                     r".*?"
                     r"(?P<end>^(?P=indent)# END GENERATED (?P=name)\n)", re.MULTILINE | re.DOTALL)


def _housekeeping_waker(queue_names: Sequence[str]) -> str:
    """The queue whose scaler also wakes on the housekeeping queue: the first game's (built-ins first)."""
    return queue_names[0]


def _scaled_object(queue: str, waker: str, *, trigger: str, lists: Sequence[str], lists_comment: str) -> str:
    triggers = lists_comment.format(queue=queue)
    triggers += "".join(trigger.format(name=name, length=20) for name in lists)
    if queue == waker:
        triggers += HOUSEKEEPING_COMMENT.format(fleet=FLEET_QUEUE, queue=queue)
        triggers += trigger.format(name=FLEET_QUEUE, length=1)
    max_replicas = MAX_REPLICAS.get(queue, DEFAULT_MAX_REPLICAS)
    return SCALED_OBJECT.format(queue=queue, max_replicas=max_replicas, triggers=triggers)


def _yaml_name(name: str) -> str:
    """A queue or list name as a YAML scalar: double-quoted with \\x escapes when it holds control
    characters (kombu's priority lists do)."""
    if name.isprintable():
        return name
    return '"' + "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in name) + '"'


def _redis_scalers(queue_names: Sequence[str]) -> str:
    waker = _housekeeping_waker(queue_names)
    # New work first, then what the sweep sent again, as the comment above the triggers says.
    return "---\n".join(_scaled_object(queue, waker, trigger=REDIS_TRIGGER, lists_comment=REDIS_LISTS_COMMENT,
                                       lists=[_yaml_name(key) for key in reversed(broker_queues(queue, "redis"))])
                        for queue in queue_names)


def _rabbitmq_scalers(queue_names: Sequence[str]) -> str:
    waker = _housekeeping_waker(queue_names)
    return "---\n".join(_scaled_object(queue, waker, trigger=RABBITMQ_TRIGGER, lists_comment="",
                                       lists=broker_queues(queue, "amqp"))
                        for queue in queue_names)


def _k8s_workers(queue_names: Sequence[str]) -> str:
    return "---\n".join(K8S_WORKER.format(queue=queue, fleet=FLEET_QUEUE) for queue in queue_names)


def _compose_workers(queue_names: Sequence[str]) -> str:
    return "\n".join(COMPOSE_WORKER.format(queue=queue, fleet=FLEET_QUEUE,
                                           concurrency_variable=re.sub(r"\W", "_", queue.upper()) + "_CONCURRENCY")
                     for queue in queue_names)


def _redis_exporter_keys(queue_names: Sequence[str]) -> str:
    # Every list of a queue: new work waits in kombu's priority list, not under the queue's own name.
    keys = ",".join(f"db0={key}" for queue in (*queue_names, FLEET_QUEUE) for key in broker_queues(queue, "redis"))
    return REDIS_EXPORTER_KEYS.format(keys=_yaml_name(keys).strip('"'))


def _prometheus_targets(queue_names: Sequence[str]) -> str:
    return "".join(PROMETHEUS_TARGET.format(queue=queue) for queue in queue_names)


def _comment(words: Sequence[str], *, first: str, indent: str, continuation: str = "") -> str:
    """Comment lines of at most COMMENT_WIDTH characters: `first`, then the words, each further line
    starting with `indent` and every line but the last ending with `continuation`."""
    lines = textwrap.wrap(" ".join(words), width=COMMENT_WIDTH - len(continuation), initial_indent=first,
                          subsequent_indent=indent, break_long_words=False, break_on_hyphens=False)
    return f"{continuation}\n".join(lines) + "\n"


def _in_words(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _systemd_enable(queue_names: Sequence[str]) -> str:
    first = "# A worker for one queue:  systemctl enable --now "
    return _comment([f"puzzlefleet-worker@{queue}" for queue in queue_names], first=first,
                    indent="#" + " " * 47, continuation=" \\")


def _systemd_env_files(queue_names: Sequence[str]) -> str:
    files = _in_words([f"worker-{queue}.env" for queue in queue_names])
    ports = range(FIRST_SYSTEMD_METRICS_PORT, FIRST_SYSTEMD_METRICS_PORT + len(queue_names))
    others = f"   ({', '.join(map(str, ports[1:]))})" if len(ports) > 1 else ""
    return (_comment(f"per queue, in /etc/puzzlefleet/{files}:".split(), first="# ", indent="#   ")
            + SYSTEMD_METRICS_PORTS.format(first=ports[0], others=others))


SECTIONS: dict[str, Callable[[Sequence[str]], str]] = {
    "worker-deployments": _k8s_workers,
    "redis-scalers": _redis_scalers,
    "rabbitmq-scalers": _rabbitmq_scalers,
    "worker-services": _compose_workers,
    "redis-exporter-keys": _redis_exporter_keys,
    "worker-targets": _prometheus_targets,
    "worker-units": _systemd_enable,
    "worker-env-files": _systemd_env_files,
}


def _with_sections(text: str, queue_names: Sequence[str]) -> str:
    if not SECTION.search(text):
        raise ValueError("no `# BEGIN GENERATED <section>` ... `# END GENERATED <section>` lines")
    return SECTION.sub(lambda match: match["begin"] + SECTIONS[match["name"]](queue_names) + match["end"], text)


def _with_dashboard_queries(text: str, queue_names: Sequence[str]) -> str:
    dashboard = json.loads(text)
    alternatives = "|".join((*queue_names, FLEET_QUEUE))
    for panel in dashboard["panels"]:
        for target in panel.get("targets", []):
            metric = next((metric for metric in DASHBOARD_QUEUE_LENGTHS if metric in target["expr"]), None)
            if metric is not None:
                target["expr"] = DASHBOARD_QUEUE_LENGTHS[metric].format(queues=alternatives)
                target["legendFormat"] = "{{queue}}"
    return json.dumps(dashboard, indent=2) + "\n"


GENERATED: dict[str, Callable[[str, Sequence[str]], str]] = {
    "compose.yaml": _with_sections,
    "k8s/workers.yaml": _with_sections,
    "k8s/keda.yaml": _with_sections,
    "k8s/rabbitmq/keda.yaml": _with_sections,
    "prometheus/prometheus.yml": _with_sections,
    "systemd/fleet.env.example": _with_sections,
    "systemd/puzzlefleet-worker@.service": _with_sections,
    "grafana/dashboards/puzzlefleet.json": _with_dashboard_queries,
}


def generated_files(queue_names: Sequence[str] | None = None) -> dict[Path, str]:
    """Each generated file's path and whole text as this writes it for these queues (default: every
    registered game's, from the registry), its hand-written parts as they are in the file now."""
    names = tuple(queues() if queue_names is None else queue_names)
    return {DEPLOY / relative: rewrite((DEPLOY / relative).read_text(), names)
            for relative, rewrite in GENERATED.items()}


def main() -> int:
    for path, text in generated_files().items():
        if path.read_text() != text:
            path.write_text(text)
            print(f"rewrote {path.relative_to(DEPLOY.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
