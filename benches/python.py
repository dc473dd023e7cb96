#!/usr/bin/env python3
"""signprep.scan_many (the Python package) against the CLI, and against PyMuPDF.

    python3 benches/python.py --bin target/release/signprep --python VENV/bin/python DIR...

VENV has the signprep wheel installed (and pymupdf for the peer row). Every PDF under the
DIRs (sorted) is scanned by, each in a fresh process pinned with taskset:

  cli      signprep scan --format ndjson --no-summary --quiet --jobs N --files-from LIST > FILE
  python   list(signprep.scan_many(paths, jobs=N))   (records as dicts, in input order)
  pymupdf  benches/peers.py pymupdf-search-widgets: tags (search_for) + widgets() in
           one process, one core (PyMuPDF has no threads of its own)

for N = 1 (taskset -c 0) and 2 (-c 0,1), --repeat times alternating, and prints the
median pages/s of each with the ratios. Wall time of the whole process (interpreter
start and imports included for Python; a few tens of ms).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))

PY_SCAN = """
import json, sys, signprep
paths = [l.strip() for l in open(sys.argv[1], encoding="utf-8") if l.strip()]
pages = errors = 0
for r in signprep.scan_many(paths, jobs=int(sys.argv[2])):
    pages += len(r["pages"])
    errors += r["status"] == "error"
print(json.dumps({"files": len(paths), "pages": pages, "errors": errors}))
"""


def pdfs(dirs):
    out = []
    for d in dirs:
        for root, _, files in os.walk(d):
            out.extend(os.path.join(root, f) for f in files if f.lower().endswith(".pdf"))
    return sorted(out)


def timed(cmd, stdout=None):
    """Runs `cmd`: its standard output captured, or written to the open file `stdout`."""
    start = time.perf_counter()
    out = subprocess.run(cmd, stdout=subprocess.PIPE if stdout is None else stdout,
                         stderr=subprocess.PIPE, text=True, check=False)
    return time.perf_counter() - start, out


def cli(binary, listing, jobs, cpus):
    # The records go to a file (as `signprep scan > out.ndjson`), counted after the clock
    # stops: read through a pipe by this script, unpinned, they took CPU from the CLI's
    # own cores and stalled it on a full pipe (benches/README.md, 2026-12-03).
    with tempfile.TemporaryFile("w+", encoding="utf-8") as records:
        secs, out = timed(["taskset", "-c", cpus, binary, "scan", "--format", "ndjson", "--no-summary",
                           "--quiet", "--jobs", str(jobs), "--files-from", listing], stdout=records)
        assert out.returncode in (0, 1), out.stderr
        records.seek(0)
        pages = sum(len(json.loads(line)["pages"]) for line in records if line.strip())
    return secs, pages


def python(interp, listing, jobs, cpus):
    secs, out = timed(["taskset", "-c", cpus, interp, "-c", PY_SCAN, listing, str(jobs)])
    assert out.returncode == 0, out.stderr
    return secs, json.loads(out.stdout)["pages"]


def pymupdf(interp, listing):
    _, out = timed(["taskset", "-c", "0", interp, os.path.join(HERE, "peers.py"),
                    "pymupdf-search-widgets", listing])
    assert out.returncode == 0, out.stderr
    r = json.loads(out.stdout)
    return r["seconds"], r["pages"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--python", required=True)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-pymupdf", action="store_true")
    ap.add_argument("--times", type=int, default=1,
                    help="list every file this many times (a longer run: start-up amortised)")
    ap.add_argument("dirs", nargs="+")
    a = ap.parse_args()
    files = pdfs(a.dirs) * a.times
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("\n".join(files) + "\n")
        listing = f.name
    try:
        rates = {}
        for _ in range(a.repeat):
            for jobs, cpus in ((1, "0"), (2, "0,1")):
                for name, run in (("cli", lambda: cli(a.bin, listing, jobs, cpus)),
                                  ("python", lambda: python(a.python, listing, jobs, cpus))):
                    secs, pages = run()
                    rates.setdefault((name, jobs), []).append(pages / secs)
                    rates.setdefault(("pages", 0), [pages])
            if not a.no_pymupdf:
                secs, pages = pymupdf(a.python, listing)
                rates.setdefault(("pymupdf", 1), []).append(pages / secs)
        med = {k: statistics.median(v) for k, v in rates.items()}
        print(f"{len(files)} files, {rates[('pages', 0)][0]} pages (signprep's count), "
              f"median of {a.repeat} runs, pages/s:")
        for jobs in (1, 2):
            c, p = med[("cli", jobs)], med[("python", jobs)]
            print(f"  {jobs} core{'s' if jobs > 1 else ' '}: cli {c:8.1f}   scan_many {p:8.1f}   "
                  f"scan_many/cli {p / c:5.3f}")
        print(f"  scan_many 2 cores / 1 core: {med[('python', 2)] / med[('python', 1)]:.2f}x   "
              f"cli: {med[('cli', 2)] / med[('cli', 1)]:.2f}x")
        if ("pymupdf", 1) in med:
            m = med[("pymupdf", 1)]
            print(f"  PyMuPDF search_for + widgets, 1 core: {m:8.1f} pages/s   "
                  f"scan_many 1 core / PyMuPDF {med[('python', 1)] / m:.2f}x")
        print("  raw:", json.dumps({f"{k[0]}-{k[1]}": [round(x, 1) for x in v] for k, v in rates.items()}))
    finally:
        os.unlink(listing)


if __name__ == "__main__":
    sys.exit(main())
