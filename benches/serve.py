#!/usr/bin/env python3
"""`signprep serve` against `signprep scan` on the same files, in the same run (issue 28).

    python3 benches/serve.py [--bin target/release/signprep] [--jobs 2] [--rounds 3] [FOLDER...]

File set: as compare.py's (the PDFs of ../shared/corpus/{tags,forms,real} whose oracle
says "expect": "ok"), read for measuring only. For each round:

- the CLI: `signprep scan --jobs N --format ndjson --no-summary FILES`, wall time of the
  process: pages/s;
- the server: `signprep serve --jobs N --quiet` on 127.0.0.1:0, every file POSTed to
  /v1/scan once per concurrency level (1, 8, 32; keep-alive connections, one per client
  thread, bodies read before the clock starts): pages/s over the wall time of the level,
  and p50/p99 latency of the requests; every answer is compared with the CLI's record.

Then, on one server: peak RSS (VmHWM) and RSS after 100 and after 10,000 requests (the set
cycled at concurrency 8). Stdlib only. Prints a Markdown table.
"""

import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benches"))
from compare import select_files  # noqa: E402


def start_server(binary, jobs):
    p = subprocess.Popen(
        [binary, "serve", "--addr", "127.0.0.1:0", "--jobs", str(jobs), "--quiet",
         "--max-pending", "256", "--max-body", "64M"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    line = p.stderr.readline()
    url = line[line.index("http://"):].split()[0].rstrip("/")
    host, port = url[len("http://"):].split(":")
    # Drain stderr for the server's life.
    threading.Thread(target=lambda: [None for _ in p.stderr], daemon=True).start()
    return p, host, int(port)


def post_all(host, port, items, concurrency):
    """POSTs every (path, body) once; returns (wall seconds, latencies, answers by path)."""
    lock = threading.Lock()
    queue = list(enumerate(items))
    latencies, answers = [], {}

    def client():
        conn = http.client.HTTPConnection(host, port, timeout=300)
        while True:
            with lock:
                if not queue:
                    break
                _, (path, body) = queue.pop()
            t = time.perf_counter()
            conn.request("POST", "/v1/scan?name=" + path, body,
                         {"Content-Type": "application/pdf"})
            r = conn.getresponse()
            data = r.read()
            dt = time.perf_counter() - t
            with lock:
                latencies.append(dt)
                answers[path] = (r.status, data)
        conn.close()

    threads = [threading.Thread(target=client) for _ in range(concurrency)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.perf_counter() - start, latencies, answers


def rss(pid, key):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1]) // 1024
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("folders", nargs="*")
    ap.add_argument("--bin", default=str(ROOT / "target/release/signprep"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--levels", default="1,8,32")
    ap.add_argument("--memory-requests", type=int, default=10000)
    a = ap.parse_args()
    corpus = ROOT.parent / "shared" / "corpus"
    folders = a.folders or [str(corpus / d) for d in ("tags", "forms", "real")]
    files = [f["path"] for f in select_files(folders)]
    items = [(p, Path(p).read_bytes()) for p in files]
    levels = [int(x) for x in a.levels.split(",")]

    cli_rates, server = [], {c: [] for c in levels}
    mismatches = 0
    for _ in range(a.rounds):
        t = time.perf_counter()
        out = subprocess.run([a.bin, "scan", "--jobs", str(a.jobs), "--format", "ndjson",
                              "--no-summary", *files], capture_output=True, check=False)
        wall = time.perf_counter() - t
        lines = out.stdout.splitlines(keepends=True)
        want = {json.loads(l)["path"]: l for l in lines}
        pages = sum(len(json.loads(l).get("pages", [])) for l in lines)
        cli_rates.append(pages / wall)
        proc, host, port = start_server(a.bin, a.jobs)
        try:
            for c in levels:
                wall, lat, answers = post_all(host, port, items, c)
                mismatches += sum(1 for p, (_, body) in answers.items() if body != want.get(p))
                lat.sort()
                server[c].append((pages / wall, lat[len(lat) // 2], lat[min(len(lat) - 1, int(len(lat) * 0.99))]))
        finally:
            proc.terminate()
            proc.wait()

    proc, host, port = start_server(a.bin, a.jobs)
    try:
        cycled = [items[i % len(items)] for i in range(100)]
        post_all(host, port, cycled, 8)
        after_100 = rss(proc.pid, "VmRSS")
        done = 100
        while done < a.memory_requests:
            n = min(len(items) * 4, a.memory_requests - done)
            post_all(host, port, [items[i % len(items)] for i in range(n)], 8)
            done += n
        after_n = rss(proc.pid, "VmRSS")
        peak = rss(proc.pid, "VmHWM")
    finally:
        proc.terminate()
        proc.wait()

    cli = max(cli_rates)
    print(f"{len(files)} files, {pages} pages; --jobs {a.jobs}; best of {a.rounds} rounds; "
          f"{os.cpu_count()} cores; answers differing from the CLI's records: {mismatches}\n")
    print("| run | pages/s | vs CLI | p50 ms | p99 ms |")
    print("|---|---|---|---|---|")
    print(f"| `signprep scan --jobs {a.jobs}` | {cli:.0f} | 1.00 | | |")
    for c in levels:
        best = max(server[c])
        print(f"| serve, concurrency {c} | {best[0]:.0f} | {best[0] / cli:.2f} | "
              f"{best[1] * 1000:.1f} | {best[2] * 1000:.1f} |")
    print(f"\nServer RSS: {after_100} MB after 100 requests, {after_n} MB after {done}; "
          f"peak {peak} MB.")


if __name__ == "__main__":
    main()
