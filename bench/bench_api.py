"""Read API throughput and latency: one uvicorn worker (`puzzlefleet serve`) on a SQLite store.

    .venv/bin/python bench/bench_api.py [--boards 200] [--seconds 10] [--connections 32] [--quick] [--static]

Fills a fresh SQLite store with generated Queens and Star Battle boards, starts `puzzlefleet serve`
(one process, access log off), then loads it with `wrk` (or, when wrk is missing, a Python load
generator of threads on keep-alive connections) for each route: a listing page, a board by id (ids
drawn at random), the steps, and the SVG. Prints a Markdown table: requests/s and p50/p99 latency,
against the targets >= 1,000 req/s and p99 <= 20 ms; then (with wrk) board JSON while as many
clients fetch PNGs, which must keep >= 80% of its rate alone while the PNGs keep >= 1,000 req/s.

With --static the server writes its puzzle pictures to a folder (PUZZLEFLEET_PICTURES_DIR) and nginx,
set up as deploy/nginx/puzzlefleet.conf, stands in front: the same mixed load is measured with the PNGs
sent by nginx from those files, the JSON once through nginx and once straight to uvicorn.
"""

from __future__ import annotations

import argparse
import http.client
import os
import platform
import random
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.games.starbattle import Rules, generate  # noqa: E402
from store import init_db, make_engine, save_board, session  # noqa: E402
from machine import cpu_model, write_result  # noqa: E402
from tests.serve_support import nginx_in_front  # noqa: E402

TARGET_RPS, TARGET_P99_MS = 1000, 20.0




def fill(url: str, count: int) -> list[str]:
    db = make_engine(url)
    init_db(db)
    ids: list[str] = []
    kinds = [Rules(8, 1, False), Rules(9, 1, False), Rules(10, 2, False)]
    seed = 0
    with session(db) as s:
        while len(ids) < count:
            board, _ = generate(kinds[seed % len(kinds)], seed)
            seed += 1
            if save_board(session=s, data=board.to_json(), fingerprint=board.fingerprint):
                ids.append(board.id)
    db.dispose()
    return ids


def pages(base: str, first: str) -> list[str]:
    """The listing's every page, by its `next` links from `first`."""
    import json
    found, path = [], first
    while path:
        found.append(path)
        with urllib.request.urlopen(base + path) as answer:
            path = json.load(answer)["next"]
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wrk(base: str, paths: list[str], seconds: int, connections: int, threads: int,
        pause_ms: int | None = None) -> tuple[float, float, float]:
    """requests/s, p50 ms, p99 ms; a Lua script draws one of `paths` per request. With `pause_ms`,
    each connection waits that long after each answer (clients at a pace, not flat out)."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write("paths = {" + ",".join(f'"{p}"' for p in paths) + "}\n"
                     "math.randomseed(7)\n"
                     "request = function() return wrk.format('GET', paths[math.random(#paths)]) end\n"
                     + (f"delay = function() return {pause_ms} end\n" if pause_ms else ""))
    try:
        out = subprocess.run(["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--latency",
                              "-s", script.name, base], capture_output=True, text=True, check=True).stdout
    finally:
        os.unlink(script.name)
    if re.search(r"Non-2xx or 3xx responses: (\d+)", out):
        raise SystemExit(f"wrk saw errors:\n{out}")
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))

    def ms(label: str) -> float:
        value, unit = re.search(rf"\s{label}%\s+([\d.]+)(us|ms|s)", out).groups()
        return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]
    return rps, ms("50"), ms("99")


def python_load(base: str, paths: list[str], seconds: int, connections: int) -> tuple[float, float, float]:
    """The same measurement without wrk: threads on keep-alive connections (the client is slower than
    wrk, so this under-reports the server)."""
    host, port = base.removeprefix("http://").split(":")
    latencies: list[float] = []
    lock = threading.Lock()
    stop = time.perf_counter() + seconds

    def worker(seed: int) -> None:
        rng, mine = random.Random(seed), []
        conn = http.client.HTTPConnection(host, int(port), timeout=10)
        while time.perf_counter() < stop:
            started = time.perf_counter()
            conn.request("GET", rng.choice(paths))
            response = conn.getresponse()
            response.read()
            if response.status != 200:
                raise SystemExit(f"status {response.status}")
            mine.append(time.perf_counter() - started)
        with lock:
            latencies.extend(mine)

    workers = [threading.Thread(target=worker, args=(i,)) for i in range(connections)]
    began = time.perf_counter()
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    elapsed = time.perf_counter() - began
    latencies.sort()
    return (len(latencies) / elapsed, statistics.median(latencies) * 1000,
            latencies[int(0.99 * (len(latencies) - 1))] * 1000)


MIXED_SHARE = 0.8     # board JSON keeps this share of its rate while as many clients fetch pictures


def alongside(json_base: str, png_base: str, ids: list[str], args: argparse.Namespace, *, query: str = "",
              pause_ms: int | None = None) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
    """Board JSON from `json_base` while as many other clients fetch PNGs from `png_base` (wrk each),
    flat out or, with `pause_ms`, each pausing that long between requests."""
    pictures: dict[str, tuple[float, float, float]] = {}
    loader = threading.Thread(target=lambda: pictures.setdefault("png", wrk(
        png_base, [f"/boards/{i}.png{query}" for i in ids], args.seconds, args.connections, args.threads,
        pause_ms)))
    loader.start()
    board = wrk(json_base, [f"/boards/{i}" for i in ids], args.seconds, args.connections, args.threads)
    loader.join()
    return board, pictures["png"]


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of a process and of its children (nginx's workers), from /proc."""
    ticks, total = os.sysconf("SC_CLK_TCK"), 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(entry.name) == pid or int(fields[1]) == pid:       # fields: state, ppid, ..., utime, stime
            total += (int(fields[11]) + int(fields[12])) / ticks
    return total


COSTS: list[tuple[str, float, float]] = []      # (route, API CPU us per request, nginx CPU us per request)


def costed(label: str, api_pid: int, nginx_pid: int, run: Callable[[], tuple[float, float, float]],
           seconds: int) -> tuple[float, float, float]:
    """Run one wrk load and note what each server spent on a request: CPU time, which the machine's
    other work disturbs far less than requests per second."""
    api, front = cpu_seconds(api_pid), cpu_seconds(nginx_pid)
    result = run()
    requests = max(1.0, result[0] * seconds)
    COSTS.append((label, 1e6 * (cpu_seconds(api_pid) - api) / requests, 1e6 * (cpu_seconds(nginx_pid) - front) / requests))
    return result


def static_pictures(base: str, api_pid: int, ids: list[str], pictures: Path, folder: Path,
                    args: argparse.Namespace) -> list[tuple[str, float, float, float, bool]]:
    """The mixed load with nginx in front: PNGs sent from the files the API wrote, flat out and at a
    pace of about 1,000 req/s in all; at that pace, for comparison, PNGs the API sends from its memory
    (solution pictures, which are not files, through the same nginx). Notes each server's CPU time per
    request of the routes alone (COSTS)."""
    rows: list[tuple[str, float, float, float, bool]] = []
    clients = args.connections
    pause = max(1, int(1000 * clients / (1.1 * TARGET_RPS)))    # each client's pause: a little over TARGET_RPS in all
    with nginx_in_front(base, pictures, folder) as front:
        for i in ids:       # the first request of each picture draws it (and writes the puzzle's file)
            urllib.request.urlopen(f"{front}/boards/{i}.png").close()
            urllib.request.urlopen(f"{front}/boards/{i}.png?solution=1").close()
        assert len(list((pictures / "boards").glob("*.png"))) == len(ids)
        nginx_pid = int((folder / "nginx.pid").read_text())
        paths = [f"/boards/{i}" for i in ids]

        def alone_on(label: str, route: list[str]) -> tuple[float, float, float]:
            return costed(label, api_pid, nginx_pid, lambda: wrk(front, route, args.seconds, clients, args.threads),
                          args.seconds)
        alone = alone_on("GET /boards/{id} (JSON)", paths)
        rows.append(("GET /boards/{id} through nginx, alone", *alone, alone[0] >= TARGET_RPS))
        png = alone_on("GET /boards/{id}.png (a file)", [f"/boards/{i}.png" for i in ids])
        rows.append(("GET /boards/{id}.png, files sent by nginx, alone", *png, png[0] >= TARGET_RPS))
        memory = alone_on("GET /boards/{id}.png?solution=1 (the API's memory)",
                          [f"/boards/{i}.png?solution=1" for i in ids])
        rows.append(("GET /boards/{id}.png?solution=1, from the API's memory through nginx, alone", *memory,
                     memory[0] >= TARGET_RPS))

        def mixed(label: str, png_label: str, **options: object) -> None:
            board, png = alongside(front, front, ids, args, **options)  # type: ignore[arg-type]
            rows.append((f"GET /boards/{{id}} through nginx while {clients} clients fetch {label} "
                         f"({100 * board[0] / alone[0]:.0f}% of alone)", *board, board[0] >= MIXED_SHARE * alone[0]))
            rows.append((f"{png_label} meanwhile", *png, png[0] >= TARGET_RPS))

        mixed("PNG files flat out", "GET /boards/{id}.png (files, nginx)")
        mixed(f"PNG files, {pause} ms between requests", "GET /boards/{id}.png (files, nginx)", pause_ms=pause)
        mixed(f"PNGs from the API's memory, {pause} ms between requests",
              "GET /boards/{id}.png?solution=1 (the API's memory)", query="?solution=1", pause_ms=pause)
        direct = wrk(base, paths, args.seconds, clients, args.threads)
        rows.append(("GET /boards/{id} straight to uvicorn, alone (again)", *direct, direct[0] >= TARGET_RPS))
        board, png = alongside(base, front, ids, args)
        rows.append((f"GET /boards/{{id}} straight to uvicorn while {clients} clients fetch PNG files from nginx "
                     f"flat out ({100 * board[0] / direct[0]:.0f}% of alone)", *board,
                     board[0] >= MIXED_SHARE * direct[0]))
        rows.append(("GET /boards/{id}.png (files, nginx) meanwhile", *png, png[0] >= TARGET_RPS))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=200)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--threads", type=int, default=1, help="wrk threads")
    parser.add_argument("--quick", action="store_true", help="50 boards, 3 s per route")
    parser.add_argument("--static", action="store_true",
                        help="also measure pictures sent as files by nginx (deploy/nginx/puzzlefleet.conf)")
    args = parser.parse_args()
    load_at_start = os.getloadavg()[0]
    if args.quick:
        args.boards, args.seconds = 50, 3
    folder = tempfile.mkdtemp(prefix="bench-api-")
    url = f"sqlite:///{folder}/puzzles.db"
    print(f"filling {url} with {args.boards} boards...", file=sys.stderr, flush=True)
    ids = fill(url, args.boards)
    port = free_port()
    exe = Path(sys.executable).with_name("puzzlefleet")
    pictures = Path(folder) / "pictures"
    env = {**os.environ, "PUZZLEFLEET_DB": url}
    if args.static:
        os.chmod(folder, 0o755)               # nginx's workers run as another user
        pictures.mkdir(mode=0o755)
        env["PUZZLEFLEET_PICTURES_DIR"] = str(pictures)
    server = subprocess.Popen([str(exe), "serve", "--port", str(port), "--no-access-log"], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                urllib.request.urlopen(f"{base}/health", timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        routes = [
            ("GET /boards?limit=20 (listing, filters rotated)",
             pages(base, "/boards?limit=20")
             + ["/boards?game=queens&limit=20", "/boards?game=starbattle&stars=2&limit=20",
                "/boards?size=9&limit=20"]),
            ("GET /boards/{id} (random ids)", [f"/boards/{i}" for i in ids]),
            ("GET /boards/{id}/steps", [f"/boards/{i}/steps" for i in ids]),
            ("GET /boards/{id}.svg", [f"/boards/{i}.svg" for i in ids]),
            ("GET /boards/{id}.png", [f"/boards/{i}.png" for i in ids]),
        ]
        tool = "wrk" if shutil.which("wrk") else "python"
        rows: list[tuple[str, float, float, float]] = []
        mixed: list[tuple[str, float, float, float, bool]] = []
        for name, paths in routes:
            urllib.request.urlopen(base + paths[0]).close()           # warm up
            if tool == "wrk":
                rps, p50, p99 = wrk(base, paths, args.seconds, args.connections, args.threads)
            else:
                rps, p50, p99 = python_load(base, paths, args.seconds, args.connections)
            rows.append((name, rps, p50, p99))
            print(f"  {name}: {rps:.0f} req/s, p99 {p99:.1f} ms", file=sys.stderr, flush=True)
        if tool == "wrk":
            # Board JSON while as many other clients fetch PNGs: the pictures must not starve it.
            (rps, p50, p99), png = alongside(base, base, ids, args)
            alone = next(row[1] for row in rows if row[0].startswith("GET /boards/{id} "))
            mixed = [(f"GET /boards/{{id}} while {args.connections} clients fetch PNGs "
                      f"({100 * rps / alone:.0f}% of alone; target >= {100 * MIXED_SHARE:.0f}%)",
                      rps, p50, p99, rps >= MIXED_SHARE * alone),
                     ("GET /boards/{id}.png meanwhile", *png, png[0] >= TARGET_RPS)]
            if args.static:
                mixed += static_pictures(base, server.pid, ids, pictures, Path(folder), args)
            for name, r, _, q, _ in mixed:
                print(f"  {name}: {r:.0f} req/s, p99 {q:.1f} ms", file=sys.stderr, flush=True)
    finally:
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(folder, ignore_errors=True)
    print(f"\n### Read API: one uvicorn worker, SQLite, {args.boards} boards\n")
    print(f"Load: {tool}, {args.connections} connections"
          + (f", {args.threads} threads" if tool == "wrk" else "")
          + f", {args.seconds} s per route; machine: {cpu_model()}, {os.cpu_count()} CPUs; "
          f"Python {platform.python_version()}; load average {os.getloadavg()[0]:.1f} at the end. "
          f"Targets: >= {TARGET_RPS} req/s, p99 <= {TARGET_P99_MS:g} ms.\n")
    print("| route | req/s | p50 ms | p99 ms | target |")
    print("| --- | ---: | ---: | ---: | --- |")
    for name, rps, p50, p99 in rows:
        met = "met" if rps >= TARGET_RPS and p99 <= TARGET_P99_MS else "**missed**"
        print(f"| {name} | {rps:,.0f} | {p50:.1f} | {p99:.1f} | {met} |")
    for name, rps, p50, p99, ok in mixed:
        print(f"| {name} | {rps:,.0f} | {p50:.1f} | {p99:.1f} | {'met' if ok else '**missed**'} |")
    if COSTS:
        print("\nCPU time per request, each route alone through nginx (the servers' own, from /proc):\n")
        print("| route | API µs | nginx µs |")
        print("| --- | ---: | ---: |")
        for name, api, front in COSTS:
            print(f"| {name} | {api:,.0f} | {front:,.0f} |")
    routes = [[name, f"{rps:,.0f}", f"{p50:.1f}", f"{p99:.1f}",
               "met" if rps >= TARGET_RPS and p99 <= TARGET_P99_MS else "**missed**"] for name, rps, p50, p99 in rows]
    routes += [[name, f"{rps:,.0f}", f"{p50:.1f}", f"{p99:.1f}", "met" if ok else "**missed**"]
               for name, rps, p50, p99, ok in mixed]
    tables = [{"title": "routes", "columns": ["route", "req/s", "p50 ms", "p99 ms", "target"], "rows": routes}]
    if COSTS:
        tables.append({"title": "CPU time per request", "columns": ["route", "API µs", "nginx µs"],
                       "rows": [[name, f"{api:,.0f}", f"{front:,.0f}"] for name, api, front in COSTS]})
    write_result("api" + ("-static" if args.static else "") + ("-quick" if args.quick else ""), tables,
                 notes=[f"Load: {tool}, {args.connections} connections, {args.seconds} s per route, one uvicorn "
                        f"worker on SQLite holding {args.boards} boards; targets >= {TARGET_RPS} req/s, "
                        f"p99 <= {TARGET_P99_MS:g} ms; load average {os.getloadavg()[0]:.1f} at the end."],
                 load_at_start=load_at_start)
    return 0


if __name__ == "__main__":
    sys.exit(main())
