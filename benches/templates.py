#!/usr/bin/env python3
"""Templates (issue 33): documents per minute converting and scanning Word templates on
2 cores, beside plain PDF scanning of the PDFs they convert to.

For each template size (the generated 1-page and 30-page fixtures of testdata/templates),
N distinct copies are made (an extra zip entry numbered per copy, which LibreOffice ignores:
distinct content hashes, so the cache cannot take one for another), then:

- cold:    `signprep scan --type docx` with an empty cache: converted ahead in groups of up
           to 16 per LibreOffice process, `--convert-jobs 2` processes at once;
- one-by-one: the same with `--files-from -` (no converting ahead): one LibreOffice start
           per template, what converting in groups saves;
- cached:  the same command again: every PDF from the cache;
- pdf:     `signprep scan` of the PDFs the templates converted to (`--keep-pdf`).

Each is one run (LibreOffice's start dominates and varies little), wall time and peak RSS of
the whole process tree (GNU time's maximum resident set: the largest process, signprep or
one LibreOffice). Usage: python3 benches/templates.py [--copies N] [--bin target/release/signprep]
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIZES = [("1 page", "docx_clean_one_page.docx"), ("30 pages", "docx_thirty_pages.docx")]


def copies(src, out_dir, n):
    os.makedirs(out_dir, exist_ok=True)
    with zipfile.ZipFile(src) as z:
        entries = [(i, z.read(i.filename)) for i in z.infolist()]
    for k in range(n):
        path = os.path.join(out_dir, f"t{k:04}.docx")
        with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as w:
            for info, data in entries:
                w.writestr(info, data)
            w.writestr("signprep-bench/copy.txt", f"copy {k}\n")
    return out_dir


def timed(cmd, stdin=None):
    start = time.monotonic()
    p = subprocess.run(
        ["/usr/bin/time", "-v"] + cmd,
        input=stdin,
        capture_output=True,
        text=True,
    )
    wall = time.monotonic() - start
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", p.stderr)
    rss = int(m.group(1)) // 1024 if m else None
    records = [json.loads(l) for l in p.stdout.splitlines() if l.startswith('{"path"')]
    bad = [r["path"] for r in records if r.get("status") != "ok"]
    if p.returncode not in (0, 1) or bad:
        sys.exit(f"{' '.join(cmd)}: exit {p.returncode}, failed {bad[:3]}\n{p.stderr[-2000:]}")
    return wall, rss, records


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--copies", type=int, default=32)
    ap.add_argument("--bin", default=os.path.join(ROOT, "target/release/signprep"))
    args = ap.parse_args()
    version = subprocess.run(["soffice", "--version"], capture_output=True, text=True).stdout.strip()
    print(f"{version}; {os.cpu_count()} cores; {args.copies} distinct copies per size; {args.bin}")
    print()
    print("| template | run | documents | wall s | documents/min | pages/s | peak RSS MiB |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for label, name in SIZES:
        work = tempfile.mkdtemp(prefix="signprep-bench-templates-")
        try:
            src = copies(os.path.join(ROOT, "testdata/templates", name), os.path.join(work, "in"), args.copies)
            cache = os.path.join(work, "cache")
            kept = os.path.join(work, "pdf")
            base = [args.bin, "scan", "--format", "ndjson", "--no-summary", "--jobs", "2", "--convert-jobs", "2"]
            rows = []
            rows.append(("cold", *timed(base + ["--cache-dir", cache, "--keep-pdf", kept, "--type", "docx", src])))
            listing = "\n".join(sorted(os.path.join(src, f) for f in os.listdir(src))) + "\n"
            rows.append(("one by one", *timed(base + ["--no-cache", "--files-from", "-"], stdin=listing)))
            rows.append(("cached", *timed(base + ["--cache-dir", cache, "--type", "docx", src])))
            rows.append(("pdf (plain scan)", *timed(base + [kept])))
            for run, wall, rss, records in rows:
                pages = sum(len(r.get("pages", [])) for r in records)
                print(
                    f"| {label} | {run} | {len(records)} | {wall:.2f} | {len(records) / wall * 60:.0f} "
                    f"| {pages / wall:.0f} | {rss} |"
                )
        finally:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
