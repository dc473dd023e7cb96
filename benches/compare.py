#!/usr/bin/env python3
"""Compare signprep with the tools users would pick instead, and with the lopdf floor.

    python3 benches/compare.py [DIR_OR_PDF ...] [--runs 3] [--only a,b] [--skip pdfplumber]
                               [--wait-idle 120] [--no-install] [--no-build] [--no-write]
    python3 benches/compare.py --from-json target/compare/latest.json   # re-render a run's table

Default file set: the PDFs of ../shared/corpus/{tags,forms,real} whose oracle
(X.oracle.json beside X.pdf) says "expect": "ok". Folders given instead are searched
recursively for *.pdf; a file whose oracle says anything but "ok" is left out.
The forms set is the files whose oracle lists fields (every file when none has an oracle).

What it does:
  1. Installs the peers when missing: pip (pymupdf, pdfplumber, pypdf) and apt-get
     (qpdf, poppler-utils, util-linux for taskset, time), `apt-get update` first.
  2. Builds `cargo build --release -p signprep-cli`, then the floor together with it
     (`-p signprep-cli -p signprep-benches`) so lopdf and its flate2 backend are
     compiled with exactly the features the CLI gets.
  3. Runs every tool as ONE process over the whole set, pinned to core 0
     (`taskset -c 0`), RUNS times, interleaved (round 1 of every tool, then round 2, ...)
     so a burst of background load hits all tools alike; keeps the best wall time and
     the largest peak RSS (`/usr/bin/time -f %M`). Then signprep on all cores (`--jobs 0`,
     not pinned) for the scaling ratio, right after its one-core run in each round, on
     the set and on a longer batch (the set listed BATCH_REPEAT times over); each round's
     ratio is kept and the median of the rounds judges the target (best/best pairs runs
     from different rounds). Two controls of what the machine gives two cores right now:
     two floor processes at once, and two `scan --jobs 1` processes at once (signprep's
     own work split perfectly), each pinned to its own core. The floor and PyMuPDF's
     `search_for` + `widgets()` also run on the batch, one core, for issue 36's targets
     (the same job as PyMuPDF in its loop, and the floor, on the set and on the batch).
  4. Prints a markdown table and writes it into benches/README.md between the
     `<!-- compare:begin -->` / `<!-- compare:end -->` markers; the raw numbers go to
     target/compare/latest.json.

pages/s = pages of the set / wall time of the process. The Python peers also report
the time of their loop alone (without interpreter start-up and imports, ~0.2-2 s);
"signprep / tool" divides by the better of the two, so start-up never flatters signprep.
The background load on the machine (busy cores outside the measured process, sampled
for 0.5 s before each measurement) is reported with the table.
"""

import argparse
import datetime
import importlib.util
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CORPUS = (ROOT / ".." / "shared" / "corpus").resolve()
DEFAULT_DIRS = [CORPUS / "tags", CORPUS / "forms", CORPUS / "real"]
README = HERE / "README.md"
# The scaling batch: the tag set listed this many times over (files re-read from the page cache).
BATCH_REPEAT = 5
BEGIN, END = "<!-- compare:begin -->", "<!-- compare:end -->"

# key: (label, set, kind, pinned)
# A tag-set peer is compared with the signprep run doing the same job: the peers that
# find tags only with `scan --no-fields` (when it was measured), those that also read
# the fields with the full `scan`.
SAME_JOB_AS_FULL_SCAN = {"pymupdf-search-widgets"}
TOOLS = {
    # Runs go in this order within a round: each scaling run right after the one-core run it is
    # divided by (and each control right after its own one-core run), so the pair shares the
    # machine's state.
    "signprep": ("**signprep** `scan --jobs 1` (tags and fields)", "tags", "signprep", True),
    "signprep-all": ("**signprep** `scan --jobs 0` (all cores, not pinned)", "tags", "signprep", False),
    # control: what the machine gives signprep's own work, split perfectly between two processes
    "signprep-pair": ("control: two `scan --jobs 1` processes at once, one per core", "tags", "pair", False),
    # the same two runs on a longer batch (the tag set BATCH_REPEAT times over): what a
    # batch of thousands of files sees, where process start-up (~2-5 ms) is amortized
    "signprep-batch": ("**signprep** `scan --jobs 1`, batch", "batch", "signprep", True),
    "signprep-batch-all": ("**signprep** `scan --jobs 0`, batch", "batch", "signprep", False),
    # the floor and PyMuPDF's same job on the batch too (issue 36 judges both sets)
    "floor-batch": ("lopdf floor: load + inflate `/Contents`", "batch", "floor", True),
    "signprep-tags": ("**signprep** `scan --jobs 1 --no-fields` (tags only)", "tags", "signprep", True),
    "floor-inflate": ("lopdf floor: load + inflate `/Contents`", "tags", "floor", True),
    # control: what the machine gives a perfectly parallel job right now
    "control-pair": ("control: two floor-inflate processes at once, one per core", "tags", "pair", False),
    "floor-tokenize": ("lopdf floor: load + `Content::decode`", "tags", "floor", True),
    "pymupdf-rawdict": ("PyMuPDF `rawdict` chars + regex", "tags", "peer", True),
    "pymupdf-search": ("PyMuPDF `search_for(\"<#\")`", "tags", "peer", True),
    "pymupdf-search-widgets": ("PyMuPDF `search_for(\"<#\")` + `widgets()` (tags and fields)", "tags", "peer", True),
    "pymupdf-search-widgets-batch": ("PyMuPDF `search_for(\"<#\")` + `widgets()` (tags and fields)", "batch", "peer",
                                     True),
    "pdftotext": ("poppler `pdftotext -bbox-layout` + parsing", "tags", "peer", True),
    "pdfplumber": ("pdfplumber chars + regex", "tags", "peer", True),
    "signprep-forms": ("**signprep** `scan --jobs 1` (tags and fields)", "forms", "signprep", True),
    "pymupdf-widgets": ("PyMuPDF `widgets()`", "forms", "peer", True),
    "pypdf-fields": ("pypdf `get_fields()` (names only, no page)", "forms", "peer", True),
    "qpdf-json": ("`qpdf --json` (acroform + pages keys)", "forms", "peer", True),
}


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def run_quiet(cmd, **kw):
    return subprocess.run(cmd, check=False, capture_output=True, text=True, **kw)


# --- 1. peers -----------------------------------------------------------------------

def ensure_peers(install):
    py_missing = [pkg for mod, pkg in (("pymupdf", "pymupdf"), ("pdfplumber", "pdfplumber"), ("pypdf", "pypdf"))
                  if importlib.util.find_spec(mod) is None]
    bins = {"qpdf": "qpdf", "pdftotext": "poppler-utils", "taskset": "util-linux"}
    apt_missing = sorted({pkg for b, pkg in bins.items() if shutil.which(b) is None}
                         | ({"time"} if not os.access("/usr/bin/time", os.X_OK) else set()))
    if not install:
        if py_missing or apt_missing:
            sys.exit(f"missing: {py_missing + apt_missing} (run without --no-install)")
        return
    if apt_missing:
        sudo = [] if os.geteuid() == 0 else ["sudo"]
        log(f"apt-get install {' '.join(apt_missing)}")
        subprocess.run(sudo + ["apt-get", "update", "-qq"], check=True)
        subprocess.run(sudo + ["apt-get", "install", "-y", "-qq", "--no-install-recommends", *apt_missing],
                       check=True, env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})
    if py_missing:
        log(f"pip install {' '.join(py_missing)}")
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", *py_missing], check=True)


def versions():
    v = {}
    code = ("import pymupdf, pdfplumber, pypdf; "
            "print(pymupdf.VersionBind, pdfplumber.__version__, pypdf.__version__)")
    out = run_quiet([sys.executable, "-c", code]).stdout.split()
    if len(out) == 3:
        v["PyMuPDF"], v["pdfplumber"], v["pypdf"] = out
    v["qpdf"] = (run_quiet(["qpdf", "--version"]).stdout.splitlines() or ["?"])[0].split()[-1]
    m = re.search(r"pdftotext version (\S+)", run_quiet(["pdftotext", "-v"]).stderr)
    v["poppler"] = m.group(1) if m else "?"
    v["python"] = platform.python_version()
    v["rustc"] = run_quiet(["rustc", "-V"]).stdout.strip().removeprefix("rustc ")
    return v


# --- 2. build -----------------------------------------------------------------------

def build(bin_override):
    meta = json.loads(run_quiet(["cargo", "metadata", "--format-version", "1", "--no-deps"], cwd=ROOT).stdout)
    target = Path(meta["target_directory"]) / "release"
    if bin_override:
        return Path(bin_override), target / "floor"
    for cmd in (["cargo", "build", "--release", "-p", "signprep-cli"],
                ["cargo", "build", "--release", "-p", "signprep-cli", "-p", "signprep-benches"]):
        log(" ".join(cmd))
        subprocess.run(cmd, cwd=ROOT, check=True)
    return target / "signprep", target / "floor"


# --- file sets ----------------------------------------------------------------------

def select_files(paths):
    files = []
    for p in paths:
        p = Path(p).resolve()
        found = [p] if p.is_file() else sorted(p.rglob("*.pdf"))
        for pdf in found:
            oracle = pdf.with_name(pdf.stem + ".oracle.json")
            entry = {"path": str(pdf), "pages": None, "fields": None}
            if oracle.exists():
                o = json.loads(oracle.read_text())
                if o.get("expect", "ok") != "ok":
                    continue
                entry["pages"] = len(o.get("pages", []))
                entry["fields"] = len(o.get("fields", []))
            files.append(entry)
    return files


def signprep_pages(records):
    return {r["path"]: len(r.get("pages", [])) for r in records}


# --- 3. measuring -------------------------------------------------------------------

def cpu_times():
    with open("/proc/stat") as f:
        parts = [int(x) for x in f.readline().split()[1:]]
    idle = parts[3] + parts[4]
    return sum(parts[:8]), idle


def background_busy(seconds=0.5):
    """Busy cores while we are idle: what the other engineers' builds take."""
    t0, i0 = cpu_times()
    time.sleep(seconds)
    t1, i1 = cpu_times()
    total = max(t1 - t0, 1)
    return (1 - (i1 - i0) / total) * (os.cpu_count() or 1)


def wait_idle(limit, threshold):
    deadline = time.monotonic() + limit
    busy = background_busy()
    while busy > threshold and time.monotonic() < deadline:
        time.sleep(2)
        busy = background_busy()
    return busy


def measure(cmd, pinned, workdir):
    timefile = workdir / "time.txt"
    out, err = workdir / "out.txt", workdir / "err.txt"
    full = ["/usr/bin/time", "-f", "%e %M", "-o", str(timefile)] + (["taskset", "-c", "0"] if pinned else []) + cmd
    with open(out, "wb") as o, open(err, "wb") as e:
        t0 = time.perf_counter()
        rc = subprocess.run(full, stdout=o, stderr=e, check=False).returncode
        wall = time.perf_counter() - t0
    rss_kb = int(timefile.read_text().split()[-1])
    return rc, wall, rss_kb, out.read_bytes(), err.read_bytes()


def instructions(cmd, workdir):
    """Instructions executed (callgrind's Ir, all threads): stable however busy the machine is."""
    out = workdir / "callgrind.out"
    p = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *cmd],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)
    m = re.findall(r"Collected : (\d+)", p.stderr)
    out.unlink(missing_ok=True)
    return int(m[-1]) if m else None


def measure_pair(cmd, workdir):
    """Runs cmd twice at once, pinned to cores 0 and 1; the wall time of the pair."""
    procs = []
    t0 = time.perf_counter()
    for core in ("0", "1"):
        procs.append(subprocess.Popen(["taskset", "-c", core, *cmd], stdout=subprocess.DEVNULL,
                                      stderr=subprocess.DEVNULL))
    rc = max(p.wait() for p in procs)
    return rc, time.perf_counter() - t0


def command(key, kind, lists, signprep, floor):
    lst = str(lists[TOOLS[key][1]])
    if key == "signprep-pair":
        return [str(signprep), "scan", "--format", "ndjson", "--jobs", "1", "--files-from", lst]
    if kind == "pair":
        return [str(floor), "--mode", "inflate", "--files-from", lst]
    if kind == "signprep":
        jobs = "0" if key.endswith("-all") else "1"
        extra = ["--no-fields"] if key == "signprep-tags" else []
        return [str(signprep), "scan", "--format", "ndjson", "--jobs", jobs, *extra, "--files-from", lst]
    if kind == "floor":
        mode = "inflate" if key == "floor-batch" else key.removeprefix("floor-")
        return [str(floor), "--mode", mode, "--files-from", lst]
    return [sys.executable, str(HERE / "peers.py"), key.removesuffix("-batch"), lst]


def parse_output(kind, rc, stdout, stderr):
    """(ok, info) where info has pages, found, failed and maybe loop seconds."""
    text = stdout.decode("utf-8", "replace")
    if kind == "signprep":
        if rc not in (0, 1):
            return False, {"error": stderr.decode("utf-8", "replace")[-500:]}
        records = [json.loads(line) for line in text.splitlines() if line.strip()]
        records = [r for r in records if "path" in r]
        return True, {"pages": sum(len(r.get("pages", [])) for r in records),
                      "found": sum(len(r.get("tags", [])) for r in records),
                      "fields": sum(len(r.get("fields", [])) for r in records),
                      "failed": sum(r.get("status") != "ok" for r in records),
                      "records": records}
    if rc != 0:
        return False, {"error": stderr.decode("utf-8", "replace")[-500:]}
    j = json.loads(text.strip().splitlines()[-1])
    info = {"pages": j["pages"], "found": j.get("found", j.get("operations")), "failed": j["failed"]}
    if kind == "peer":
        info["loop_seconds"] = j["seconds"]
    return True, info


# --- 4. report ----------------------------------------------------------------------

def fmt_rate(x):
    return "–" if x is None else f"{x:,.0f}"


def fmt_mb(kb):
    return f"{kb / 1024:.0f} MB" if kb >= 10 * 1024 else f"{kb / 1024:.1f} MB"


def fmt_x(x):
    return "–" if x is None else f"{x:.2f}×"


def verdict(ok, gap):
    return "**met**" if ok else f"**not met**: {gap}"


def report(res, sets, meta, counts):
    def rate(key):
        r = res.get(key)
        return None if not r else sets[TOOLS[key][1]]["pages"] / r["wall"]

    def loop_rate(key):
        r = res.get(key)
        return None if not r or not r.get("loop") else sets[TOOLS[key][1]]["pages"] / r["loop"]

    def median_rate(key):
        r = res.get(key)
        return sets[TOOLS[key][1]]["pages"] / statistics.median(r["walls"]) if r and r.get("walls") else None

    def round_time(r, i):
        """A tool's time in round i: its wall time, or its loop time when it reports one."""
        return min(x for x in (r["rounds"][i], r.get("loop_rounds", {}).get(i)) if x is not None)

    def paired(one, many, factor=1):
        """Median over the rounds of factor × time(one) / time(many), each round's pair sharing
        the machine's state (a drift of its speed over the run moves both alike)."""
        a, b = res.get(one), res.get(many)
        if any(r and r.get("loops") and "loop_rounds" not in r for r in (a, b)):
            return None  # a run recorded before the loop times were kept per round
        common = sorted(set(a["rounds"]) & set(b["rounds"])) if a and b else []
        return statistics.median(factor * round_time(a, i) / round_time(b, i) for i in common) if common else None

    def paired_rate_ratio(sp_key, other):
        """Median over the rounds of signprep's rate / the other's in the same round."""
        return paired(other, sp_key, sets[TOOLS[sp_key][1]]["pages"] / sets[TOOLS[other][1]]["pages"])

    def best_rate(key):
        return max(x for x in (rate(key), loop_rate(key)) if x is not None) if res.get(key) else None

    def same_job(key):
        """The signprep run a tool is compared with."""
        if TOOLS[key][1] == "forms":
            return "signprep-forms"
        if TOOLS[key][1] == "batch":
            return "signprep-batch"
        if TOOLS[key][2] == "peer" and key not in SAME_JOB_AS_FULL_SCAN and "signprep-tags" in res:
            return "signprep-tags"
        return "signprep"

    lines = []
    day = meta["date"]
    lines.append(f"Run {day} on {meta['machine']}; signprep {meta['rev']}. "
                 f"Background load from other processes, sampled before each measurement: "
                 f"median {meta['bg_median']:.2f}, max {meta['bg_max']:.2f} busy cores of {meta['cores']}. "
                 f"Best of {meta['runs']} interleaved runs (pages/s, and every ratio), with the median "
                 f"beside it to show the spread; peak RSS is the largest of the runs.")
    lines.append("")
    lines.append("Versions: " + ", ".join(f"{k} {v}" for k, v in meta["versions"].items()) + ".")
    for set_name, title in (("tags", "Tag scan"), ("batch", f"Batch (the tag set {BATCH_REPEAT} times over)"),
                            ("forms", "Form fields")):
        s = sets[set_name]
        if not any(TOOLS[k][1] == set_name and TOOLS[k][3] for k in res):
            continue
        lines += ["", f"### {title}: {s['files']} files, {s['pages']} pages, one core (`taskset -c 0`)", ""]
        what = "widgets / fields found" if set_name == "forms" else "tags found"
        lines.append(f"| tool | pages/s | median of the runs | pages/s in loop | peak RSS | signprep / tool | {what} | failed files |")
        lines.append("|---|---:|---:|---:|---:|---:|---:|---:|")
        for key, (label, tset, kind, pinned) in TOOLS.items():
            if tset != set_name or not pinned or key not in res:
                continue
            r = res[key]
            base = rate(same_job(key))
            ratio = "1" if kind == "signprep" else (f"{base / best_rate(key):.2f}×" if base else "–")
            if kind == "floor":
                ratio = f"{base / rate(key):.0%} of it" if base else "–"
            found = r["found"]
            if kind == "signprep" and set_name == "forms":
                found = r["fields"]
            if kind == "floor":
                found = "–" if key in ("floor-inflate", "floor-batch") else f"{found:,} ops"
            median = median_rate(key)
            lines.append(f"| {label} | {fmt_rate(rate(key))} | {fmt_rate(median)} | {fmt_rate(loop_rate(key))} | "
                         f"{fmt_mb(r['rss'])} | {ratio} | {found} | {r['failed']} |")
    lines += ["", "### Scaling (signprep)", "",
              f"Best of the runs, and the median of each round's ratio (a round runs the one-core and the "
              f"all-core run back to back, so they share the machine's state; the best one-core run and the "
              f"best all-core run usually come from different rounds). Batch: the tag set listed "
              f"{BATCH_REPEAT} times over ({sets['batch']['files']} files, {sets['batch']['pages']:,} pages), where "
              f"process start-up is amortized as in a real batch.", "",
              "| run | pages/s | median of the runs | peak RSS | vs one core: best | median of the rounds |",
              "|---|---:|---:|---:|---:|---:|"]
    for one, many, what in (("signprep", "signprep-all", "tag set"), ("signprep-batch", "signprep-batch-all", "batch")):
        if one in res:
            lines.append(f"| {what}: `--jobs 1`, `taskset -c 0` | {fmt_rate(rate(one))} | {fmt_rate(median_rate(one))} | "
                         f"{fmt_mb(res[one]['rss'])} | 1 | 1 |")
        if many in res and one in res:
            lines.append(f"| {what}: `--jobs 0`, {meta['cores']} cores | {fmt_rate(rate(many))} | "
                         f"{fmt_rate(median_rate(many))} | {fmt_mb(res[many]['rss'])} | "
                         f"{rate(many) / rate(one):.2f}× | {fmt_x(paired(one, many))} |")
    if "control-pair" in res and "floor-inflate" in res:
        ceiling = 2 * res["floor-inflate"]["wall"] / res["control-pair"]["wall"]
        lines.append(f"| control: two floor-inflate processes at once, one per core | "
                     f"{2 * rate('control-pair'):,.0f} | – | – | {ceiling:.2f}× one floor process | "
                     f"{fmt_x(paired('floor-inflate', 'control-pair', 2))} |")
    if "signprep-pair" in res and "signprep" in res:
        ceiling = 2 * res["signprep"]["wall"] / res["signprep-pair"]["wall"]
        lines.append(f"| control: two `scan --jobs 1` processes at once, one per core | "
                     f"{2 * rate('signprep-pair'):,.0f} | – | – | {ceiling:.2f}× one core | "
                     f"{fmt_x(paired('signprep', 'signprep-pair', 2))} |")

    if counts.get("signprep"):
        pages = sets["tags"]["pages"]
        lines += ["", "### Instructions (callgrind, tag-scan set, one thread): unaffected by background load", "",
                  "| run | instructions | per page | signprep / it |", "|---|---:|---:|---:|"]
        for key in ("signprep", "floor-inflate", "floor-tokenize"):
            if counts.get(key):
                share = "1" if key == "signprep" else f"{counts['signprep'] / counts[key]:.2f}×"
                lines.append(f"| {TOOLS[key][0]} | {counts[key] / 1e6:,.0f} M | {counts[key] / pages / 1e3:,.0f} k | {share} |")

    # targets
    t = []
    sp = rate("signprep")
    mu = [k for k in ("pymupdf-rawdict", "pymupdf-search") if k in res]
    if sp and mu:
        # Each PyMuPDF method against the signprep run doing the same job, in its
        # loop (without interpreter start-up): the strictest reading.
        parts, same_job_ok = [], True
        if "pymupdf-search-widgets" in res:
            x = sp / best_rate("pymupdf-search-widgets")
            same_job_ok = x >= 10
            parts.append(f"tags and fields: {x:.1f}× {TOOLS['pymupdf-search-widgets'][0].split(' (')[0]} "
                         f"({best_rate('pymupdf-search-widgets'):,.0f} pages/s)")
        best_mu = max(mu, key=best_rate)
        st = rate(same_job(best_mu))
        x_tags = st / best_rate(best_mu)
        ok = same_job_ok and x_tags >= 10
        who = "`--no-fields`" if same_job(best_mu) == "signprep-tags" else "the full scan"
        parts.append(f"tags only ({who}): {x_tags:.1f}× its faster tags-only method in its loop "
                     f"({TOOLS[best_mu][0]}, {best_rate(best_mu):,.0f} pages/s)")
        # The issue's own PyMuPDF figures (260-340 pages/s) are whole-process rates.
        x_whole = st / rate(best_mu)
        parts.append(f"tags only against its whole-process rate ({rate(best_mu):,.0f} pages/s, how the issue "
                     f"measured PyMuPDF): {x_whole:.1f}×")
        gap = f"tags only against its loop at {x_tags / 10:.0%} of the target"
        if "floor-inflate" in res:
            need = 10 * best_rate(best_mu)
            gap += (f": 10× would be {need:,.0f} pages/s, {need / rate('floor-inflate'):.0%} of the lopdf "
                    f"load + inflate floor of the same run")
        if not ok and same_job_ok and x_whole >= 10:
            # Met as the issue measured it, and for the same job in PyMuPDF's loop; the
            # strictest reading is kept visible.
            text = f"**met** for the same job and against whole-process rates; **not met**: {gap}"
        else:
            text = verdict(ok, gap)
        t.append(("Tag scan ≥ 10× PyMuPDF pages/s", "; ".join(parts), text))
    if sp and "floor-inflate" in res:
        f = sp / rate("floor-inflate")
        extra = ""
        if counts.get("signprep") and counts.get("floor-inflate"):
            extra = f"; by instructions {counts['floor-inflate'] / counts['signprep']:.0%}"
        t.append(("Tag scan ≥ 60% of lopdf load + inflate",
                  f"{f:.0%} ({sp:,.0f} of {rate('floor-inflate'):,.0f} pages/s){extra}",
                  verdict(f >= 0.6, f"needs {0.6 * rate('floor-inflate'):,.0f} pages/s, {0.6 / f:.2f}× more")))
    sf = rate("signprep-forms")
    if sf and "pymupdf-widgets" in res:
        x = sf / best_rate("pymupdf-widgets")
        t.append(("Forms ≥ 5× PyMuPDF `widgets()`", f"{x:.1f}×", verdict(x >= 5, f"{x / 5:.0%} of the target")))
    if sp and "signprep-all" in res:
        x, xm = rate("signprep-all") / sp, paired("signprep", "signprep-all")
        measured = f"tag set {x:.2f}× best / {fmt_x(xm)} median of the rounds"
        xb = paired("signprep-batch", "signprep-batch-all")
        if xb is not None:
            measured += (f"; batch of {sets['batch']['files']} files "
                         f"{rate('signprep-batch-all') / rate('signprep-batch'):.2f}× best / {xb:.2f}× median")
        given = []
        if "signprep-pair" in res:
            given.append(f"two `--jobs 1` processes {fmt_x(paired('signprep', 'signprep-pair', 2))}")
        if "control-pair" in res and "floor-inflate" in res:
            given.append(f"two floor processes {fmt_x(paired('floor-inflate', 'control-pair', 2))}")
        if given:
            measured += f" (medians of the same rounds' controls: {' and '.join(given)})"
        # The verdict: the median of the rounds on the batch when it was measured.
        judged = xb if xb is not None else xm
        t.append((f"{meta['cores']} cores ≥ 1.8× one core", measured,
                  verdict(judged >= 1.8, f"{judged:.2f}× < 1.8×")))
    sp_rss = max(res[k]["rss"] for k in ("signprep", "signprep-all") if k in res) if sp else None
    if sp_rss:
        t.append(("Peak RSS < 40 MB, whole set, one process", f"{fmt_mb(sp_rss)} (largest signprep run)",
                  verdict(sp_rss < 40 * 1024, f"{fmt_mb(sp_rss - 40 * 1024)} over")))
        if mu:
            mu_rss = min(res[k]["rss"] for k in mu)
            t.append(("Peak RSS < 1/3 of PyMuPDF's", f"{sp_rss / mu_rss:.0%} of {fmt_mb(mu_rss)}",
                      verdict(sp_rss * 3 < mu_rss, "above a third")))
    if t:
        lines += ["", "### Targets (issue 8)", "", "| target | measured | |", "|---|---|---|"]
        lines += [f"| {a} | {b} | {c} |" for a, b, c in t]
    # Issue 36: the same job as PyMuPDF in its loop, and the floor, on the set and on the batch.
    t36 = []
    for what, sp_key, mu_key, floor_key in (("88-file set" if sets["tags"]["files"] == 88 else "tag set",
                                              "signprep", "pymupdf-search-widgets", "floor-inflate"),
                                             ("batch", "signprep-batch", "pymupdf-search-widgets-batch", "floor-batch")):
        s_rate = rate(sp_key)
        if s_rate and mu_key in res:
            x = s_rate / best_rate(mu_key)
            xp = paired_rate_ratio(sp_key, mu_key)
            t36.append((f"{what}: ≥ 15× PyMuPDF `search_for` + `widgets()` in its loop (the same job)",
                        f"{x:.1f}× ({s_rate:,.0f} against {best_rate(mu_key):,.0f} pages/s); "
                        + (f"median of the rounds {xp:.1f}×" if xp else "median of the rounds not recorded"),
                        verdict(x >= 15, f"{x / 15:.0%} of the target")))
        if s_rate and floor_key in res:
            f = s_rate / rate(floor_key)
            fp = paired_rate_ratio(sp_key, floor_key)
            t36.append((f"{what}: ≥ 85% of the lopdf load + inflate floor",
                        f"{f:.0%} ({s_rate:,.0f} of {rate(floor_key):,.0f} pages/s); "
                        + (f"median of the rounds {fp:.0%}" if fp else "median of the rounds not recorded"),
                        verdict(f >= 0.85, f"needs {0.85 * rate(floor_key):,.0f} pages/s, "
                                           f"{0.85 / f:.2f}× more")))
    if t36:
        lines += ["", "### Targets (issue 36)", "", "| target | measured | |", "|---|---|---|"]
        lines += [f"| {a} | {b} | {c} |" for a, b, c in t36]
    noisy = [k for k, r in res.items() if r["spread"] > 0.25]
    if noisy:
        lines += ["", f"Noisy (slowest run > 25% over the best): {', '.join(noisy)}; "
                      "the best run is the one least disturbed."]
    return "\n".join(lines) + "\n"


def write_readme(block):
    text = README.read_text() if README.exists() else "# Benchmarks\n"
    new = f"{BEGIN}\n{block}{END}"
    if BEGIN in text and END in text:
        text = text[:text.index(BEGIN)] + new + text[text.index(END) + len(END):]
    else:
        text = text.rstrip("\n") + "\n\n## Latest comparison\n\n" + new + "\n"
    README.write_text(text)


def machine():
    model = "?"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    with open("/proc/meminfo") as f:
        mem_gb = int(f.readline().split()[1]) / 1024 / 1024
    return f"{os.cpu_count()} cores ({model}), {mem_gb:.0f} GB RAM, Linux {platform.release()}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="*", help="folders or PDFs (default: the shared corpus)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--only", help="comma-separated tool keys: " + ",".join(TOOLS))
    ap.add_argument("--skip", default="", help="comma-separated tool keys to leave out")
    ap.add_argument("--wait-idle", type=float, default=0, metavar="SECONDS",
                    help="before each measurement wait up to SECONDS for the background load to drop "
                         "below --idle-below busy cores")
    ap.add_argument("--idle-below", type=float, default=0.5, metavar="CORES")
    ap.add_argument("--instructions", action="store_true",
                    help="also count the instructions of signprep and the floor with callgrind "
                         "(valgrind; ~1 min): a noise-free check of the floor ratio")
    ap.add_argument("--no-install", action="store_true")
    ap.add_argument("--no-build", action="store_true", help="use the binaries already in target/release")
    ap.add_argument("--bin", help="signprep binary to measure (implies --no-build for it)")
    ap.add_argument("--no-write", action="store_true", help="do not touch benches/README.md")
    ap.add_argument("--from-json", metavar="PATH",
                    help="measure nothing: print (and write) the table of an earlier run's "
                         "target/compare/latest.json")
    args = ap.parse_args()
    if args.from_json:
        saved = json.loads(Path(args.from_json).read_text())
        block = report(saved["results"], saved["sets"], saved["meta"], saved["instructions"])
        print(block)
        if not args.no_write:
            write_readme(block)
        return

    keys = [k for k in TOOLS if (not args.only or k in args.only.split(",")) and k not in args.skip.split(",")]
    ensure_peers(not args.no_install)
    if args.no_build:
        meta = json.loads(run_quiet(["cargo", "metadata", "--format-version", "1", "--no-deps"], cwd=ROOT).stdout)
        rel = Path(meta["target_directory"]) / "release"
        signprep, floor = Path(args.bin) if args.bin else rel / "signprep", rel / "floor"
    else:
        signprep, floor = build(args.bin)

    files = select_files(args.paths or DEFAULT_DIRS)
    if not files:
        sys.exit("no PDF files")
    workdir = Path(tempfile.mkdtemp(prefix="signprep-compare-"))
    all_list, forms_list = workdir / "tags.txt", workdir / "forms.txt"
    all_list.write_text("".join(f["path"] + "\n" for f in files))
    batch_list = workdir / "batch.txt"
    batch_list.write_text(all_list.read_text() * BATCH_REPEAT)
    with_oracle = [f for f in files if f["fields"] is not None]
    form_files = [f for f in files if f["fields"]] if with_oracle else files
    forms_list.write_text("".join(f["path"] + "\n" for f in form_files))
    for f in files:  # warm the page cache
        Path(f["path"]).read_bytes()

    # page counts: the oracle's, else signprep's
    rc, _, _, out, err = measure([str(signprep), "scan", "--format", "ndjson", "--jobs", "1", "--files-from",
                                  str(all_list)], False, workdir)
    ok, info = parse_output("signprep", rc, out, err)
    if not ok:
        sys.exit(f"signprep failed: {info['error']}")
    counted = signprep_pages(info["records"])
    for f in files:
        sp = counted.get(f["path"])
        if f["pages"] is None:
            f["pages"] = sp or 0
        elif sp is not None and sp != f["pages"]:
            log(f"note: {f['path']}: oracle {f['pages']} pages, signprep {sp}")
    sets = {"tags": {"files": len(files), "pages": sum(f["pages"] for f in files)},
            "forms": {"files": len(form_files), "pages": sum(f["pages"] for f in form_files)}}
    sets["batch"] = {k: v * BATCH_REPEAT for k, v in sets["tags"].items()}
    log(f"tag set: {sets['tags']['files']} files, {sets['tags']['pages']} pages; "
        f"forms set: {sets['forms']['files']} files, {sets['forms']['pages']} pages")

    lists = {"tags": all_list, "forms": forms_list, "batch": batch_list}
    res, background = {}, []
    for run in range(args.runs):
        for key in keys:
            _, tset, kind, pinned = TOOLS[key]
            bg = wait_idle(args.wait_idle, args.idle_below) if args.wait_idle else background_busy()
            background.append(bg)
            if kind == "pair":
                rc, wall = measure_pair(command(key, kind, lists, signprep, floor), workdir)
                # signprep exits 1 when a file has error-level findings.
                if rc == 0 or (key == "signprep-pair" and rc == 1):
                    r = res.setdefault(key, {"walls": [], "loops": [], "rss": 0, "failed": 0, "rounds": {}})
                    r["walls"].append(wall)
                    r["rounds"][run] = wall
                log(f"run {run + 1}/{args.runs} {key:16} {wall:7.2f} s  (background {bg:.2f} cores)")
                continue
            rc, wall, rss, out, err = measure(command(key, kind, lists, signprep, floor), pinned, workdir)
            ok, info = parse_output(kind, rc, out, err)
            if not ok:
                log(f"{key}: failed (exit {rc}): {info['error']}")
                continue
            r = res.setdefault(key, {"walls": [], "loops": [], "rss": 0, "rounds": {}})
            r["walls"].append(wall)
            r["rounds"][run] = wall
            if "loop_seconds" in info:
                r["loops"].append(info["loop_seconds"])
                r.setdefault("loop_rounds", {})[run] = info["loop_seconds"]
            r["rss"] = max(r["rss"], rss)
            r.update({k: info[k] for k in ("pages", "found", "failed", "fields") if k in info})
            pages = sets[tset]["pages"]
            log(f"run {run + 1}/{args.runs} {key:16} {wall:7.2f} s {pages / wall:9.0f} pages/s "
                f"{rss / 1024:7.1f} MB  (background {bg:.2f} cores)")
    for r in res.values():
        r["wall"] = min(r["walls"])
        r["loop"] = min(r["loops"]) if r["loops"] else None
        spread = (max(r["walls"]) - r["wall"]) / r["wall"]
        r["spread"] = spread

    counts = {}
    if args.instructions:
        if shutil.which("valgrind") is None and not args.no_install:
            sudo = [] if os.geteuid() == 0 else ["sudo"]
            subprocess.run(sudo + ["apt-get", "install", "-y", "-qq", "--no-install-recommends", "valgrind"],
                           check=False, env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})
        for key in ("signprep", "floor-inflate", "floor-tokenize"):
            if key in keys:
                counts[key] = instructions(command(key, TOOLS[key][2], lists, signprep, floor), workdir)
                log(f"instructions {key:16} {counts[key]:,}" if counts[key] else f"instructions {key}: failed")

    rev = run_quiet(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT).stdout.strip()
    dirty = run_quiet(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT).stdout.strip()
    meta = {
        "date": datetime.datetime.now().strftime("%Y-%m-%d %H:%M"),
        "machine": machine(),
        "cores": os.cpu_count(),
        "rev": f"`{rev}`" + (" with uncommitted changes" if dirty else ""),
        "runs": args.runs,
        "bg_median": statistics.median(background) if background else 0.0,
        "bg_max": max(background) if background else 0.0,
        "versions": versions(),
    }
    block = report(res, sets, meta, counts)
    print(block)
    out_dir = ROOT / "target" / "compare"
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "latest.json").write_text(json.dumps({"meta": meta, "sets": sets, "results": res,
                                                      "instructions": counts}, indent=1))
    if not args.no_write:
        write_readme(block)
        log(f"wrote {README.relative_to(ROOT)}")
    shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
