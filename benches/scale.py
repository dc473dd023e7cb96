#!/usr/bin/env python3
"""A long batch at scale (issue 36): wall time, pages/s and peak RSS of `signprep scan --jobs 2`
and of the Spark recipe (`RDD.pipe` of docs/src/spark-dask.md, one `scan` process per
partition) at 10,000, 50,000 and 100,000 files, and a check that the records are those of a
sequence of smaller runs.

    python3 benches/scale.py [--bin target/release/signprep] [--counts 10000,50000,100000]
                             [--work /tmp/signprep-scale] [--spark-python PY] [--partitions 8]
                             [--no-spark] [--no-check] [--lock /tmp/signprep-bench.lock]

The files are the compare.py set (the PDFs of ../shared/corpus/{tags,forms,real} whose oracle
says "expect": "ok", 88 files) listed over and over under distinct names: symbolic links in
WORK/files/dNNN/fNNNNNN.pdf (outside the repository; nothing of the corpus is copied). Each
count is the first N of one list, so the 10,000- and 50,000-file outputs are prefixes of the
100,000-file one.

- CLI: `/usr/bin/time -f '%e %M' signprep scan --format ndjson --no-summary --quiet --jobs 2
  --files-from LIST`; pages are counted from the records.
- Spark (PySpark in `local[2]`, with --spark-python, default target/ci-venv/bin/python when it
  imports pyspark): the paths `parallelize`d into --partitions partitions (order kept) and piped
  through `signprep scan --jobs 1 --files-from -`, each partition's process under
  `/usr/bin/time` for its peak RSS; the output written with `saveAsTextFile` and read back in
  partition order. Wall time is the job's (the driver's session start is printed apart).
- Check: the 100,000-file (largest) output equals the concatenated outputs of runs of 10,000
  files each over the same list, byte for byte; each smaller count's output is a prefix of the
  largest; Spark's output equals the CLI's.

With --lock, every measured run holds that lock (`flock`), so benchmarks of other people on a
shared machine never overlap with it.
"""

import argparse
import fcntl
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CORPUS = (ROOT / ".." / "shared" / "corpus").resolve()


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def corpus_set():
    files = []
    for d in ("tags", "forms", "real"):
        for pdf in sorted((CORPUS / d).rglob("*.pdf")):
            oracle = pdf.with_name(pdf.stem + ".oracle.json")
            if oracle.exists() and json.loads(oracle.read_text()).get("expect", "ok") != "ok":
                continue
            files.append(pdf)
    return files


def make_links(work, n):
    """WORK/files/dNNN/fNNNNNN.pdf -> the set's files in turn; returns the list file."""
    src = corpus_set()
    if not src:
        sys.exit(f"no PDFs under {CORPUS}")
    base = work / "files"
    paths = []
    for i in range(n):
        d = base / f"d{i // 1000:03d}"
        p = d / f"f{i:06d}.pdf"
        if not p.is_symlink():
            d.mkdir(parents=True, exist_ok=True)
            p.symlink_to(src[i % len(src)])
        paths.append(str(p))
    return paths


def write_list(path, paths):
    path.write_text("".join(p + "\n" for p in paths))
    return path


@contextmanager
def locked(lock):
    if not lock:
        yield
        return
    with open(lock, "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        yield


def pages_of(out):
    pages = 0
    with open(out, "rb") as f:
        for line in f:
            pages += len(json.loads(line).get("pages", []))
    return pages


def run_cli(bin_, lst, out, jobs, lock):
    tfile = out.with_suffix(".time")
    cmd = ["/usr/bin/time", "-f", "%e %M", "-o", str(tfile), str(bin_), "scan", "--format", "ndjson",
           "--no-summary", "--quiet", "--jobs", str(jobs), "--files-from", str(lst)]
    with locked(lock), open(out, "wb") as o, open(out.with_suffix(".err"), "wb") as e:
        rc = subprocess.run(cmd, stdout=o, stderr=e, stdin=subprocess.DEVNULL).returncode
    if rc > 1:
        sys.exit(f"{' '.join(cmd)}: exit {rc}")
    secs, kb = tfile.read_text().split()[-2:]
    return float(secs), int(kb)


SPARK_JOB = r"""
import json, sys, time, glob, os
from pyspark.sql import SparkSession
lst, out, cmd, parts = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
t0 = time.monotonic()
spark = (SparkSession.builder.master("local[2]").appName("signprep-scale")
         .config("spark.ui.enabled", "false").config("spark.driver.memory", "2g").getOrCreate())
spark.sparkContext.setLogLevel("ERROR")
t1 = time.monotonic()
paths = [l.rstrip("\n") for l in open(lst)]
rdd = spark.sparkContext.parallelize(paths, parts).pipe(cmd, checkCode=True)
rdd.saveAsTextFile(out)
t2 = time.monotonic()
spark.stop()
print(json.dumps({"start": t1 - t0, "job": t2 - t1}))
"""


def run_spark(py, bin_, lst, work, n, parts, lock):
    out = work / f"spark-{n}"
    shutil.rmtree(out, ignore_errors=True)
    rss = work / f"spark-{n}.rss"
    rss.unlink(missing_ok=True)
    # The documented recipe (exit 1 means findings only), each process under /usr/bin/time.
    cmd = (f"sh -c '/usr/bin/time -a -o {rss} -f %M {bin_} scan --format ndjson --no-summary --quiet "
           f"--jobs 1 --allow-empty --files-from -; [ $? -le 1 ]'")
    script = work / "spark_job.py"
    script.write_text(SPARK_JOB)
    with locked(lock):
        p = subprocess.run([py, str(script), str(lst), str(out), cmd, str(parts)], capture_output=True,
                           text=True, stdin=subprocess.DEVNULL)
    if p.returncode != 0:
        sys.exit(f"spark job failed:\n{p.stderr[-3000:]}")
    times = json.loads(p.stdout.strip().splitlines()[-1])
    merged = work / f"spark-{n}.ndjson"
    with open(merged, "wb") as m:
        for part in sorted(out.glob("part-*")):
            m.write(part.read_bytes())
    # GNU time adds "Command exited with non-zero status 1" for a partition with findings.
    peak = max(int(x) for x in rss.read_text().split() if x.isdigit())
    return times, peak, merged


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", default=str(ROOT / "target" / "release" / "signprep"))
    ap.add_argument("--counts", default="10000,50000,100000")
    ap.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "signprep-scale"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--spark-python", default=str(ROOT / "target" / "ci-venv" / "bin" / "python"))
    ap.add_argument("--partitions", type=int, default=8)
    ap.add_argument("--chunk", type=int, default=10000, help="files per run of the sequence check")
    ap.add_argument("--no-spark", action="store_true")
    ap.add_argument("--no-check", action="store_true")
    ap.add_argument("--lock", default="/tmp/signprep-bench.lock")
    a = ap.parse_args()
    bin_ = Path(a.bin).resolve()
    counts = sorted(int(c) for c in a.counts.split(","))
    work = Path(a.work)
    work.mkdir(parents=True, exist_ok=True)
    big = counts[-1]
    log(f"links: {big} under {work}/files")
    paths = make_links(work, big)
    rows, outs = [], {}
    for n in counts:
        lst = write_list(work / f"list-{n}.txt", paths[:n])
        out = work / f"cli-{n}.ndjson"
        log(f"cli: {n} files")
        secs, kb = run_cli(bin_, lst, out, a.jobs, a.lock)
        pages = pages_of(out)
        outs[n] = out
        rows.append(("CLI `scan --jobs %d`" % a.jobs, n, secs, pages, kb / 1024, ""))
    spark = not a.no_spark and subprocess.run([a.spark_python, "-c", "import pyspark"],
                                              capture_output=True).returncode == 0
    if not a.no_spark and not spark:
        log(f"no pyspark in {a.spark_python}: Spark rows left out")
    checks = []
    if spark:
        for n in counts:
            log(f"spark: {n} files, {a.partitions} partitions")
            times, peak, merged = run_spark(a.spark_python, bin_, work / f"list-{n}.txt", work, n,
                                            a.partitions, a.lock)
            pages = pages_of(merged)
            rows.append((f"Spark `RDD.pipe`, local[2], {a.partitions} partitions", n, times["job"], pages,
                         peak / 1024, f"session start {times['start']:.1f} s"))
            same = merged.read_bytes() == outs[n].read_bytes()
            checks.append(f"Spark output of {n:,} files equals the CLI's: {'yes' if same else 'NO'}")
    if not a.no_check:
        seq = work / "sequence.ndjson"
        with open(seq, "wb") as s:
            for i in range(0, big, a.chunk):
                lst = write_list(work / "chunk.txt", paths[i:i + a.chunk])
                part = work / "chunk.ndjson"
                log(f"sequence: files {i}..{min(i + a.chunk, big)}")
                run_cli(bin_, lst, part, a.jobs, None)
                s.write(part.read_bytes())
        whole = outs[big].read_bytes()
        checks.append(f"CLI output of {big:,} files equals {-(-big // a.chunk)} runs of {a.chunk:,} in sequence: "
                      f"{'yes' if seq.read_bytes() == whole else 'NO'}")
        for n in counts[:-1]:
            checks.append(f"CLI output of {n:,} files is a prefix of the {big:,}-file one: "
                          f"{'yes' if whole.startswith(outs[n].read_bytes()) else 'NO'}")
    print("| run | files | pages | wall s | pages/s | peak RSS MB | |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for what, n, secs, pages, mb, note in rows:
        print(f"| {what} | {n:,} | {pages:,} | {secs:.1f} | {pages / secs:,.0f} | {mb:.1f} | {note} |")
    print()
    for c in checks:
        print(f"- {c}")
    return 0 if all(c.endswith("yes") for c in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
