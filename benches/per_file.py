#!/usr/bin/env python3
"""Where the time of a file set goes, file by file: signprep against PyMuPDF.

Times each file of the compare.py set (or the folders given) in-process,
best of N: signprep through its Python package (``signprep.scan``, the
whole scan: tags, fields, findings), PyMuPDF doing the same job as
compare.py's ``pymupdf-search-widgets`` (``search_for("<#")`` per page plus
``widgets()``; benches/peers.py). Prints the files that take most of
signprep's time, with each one's share and the ratio, so that a set's ratio
can be read as the mix of its files (issue 36).

  python3 benches/per_file.py --signprep-python target/ci-venv/bin/python [FOLDER...]

``--signprep-python``: an interpreter with the signprep wheel installed
(.ci/python leaves one in target/ci-venv). PyMuPDF runs in this interpreter
(``pip install pymupdf``). Pin both to one core with ``taskset -c 0``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import compare  # noqa: E402  (the file set: compare.select_files)

TIMER = r"""
import json, sys, time
import signprep
files = json.load(open(sys.argv[1]))
runs = int(sys.argv[2])
out = {}
for f in files:
    best = float("inf")
    for _ in range(runs):
        t = time.perf_counter()
        try:
            signprep.scan(f)
        except signprep.Error:
            pass
        best = min(best, time.perf_counter() - t)
    out[f] = best
json.dump(out, open(sys.argv[3], "w"))
"""


def time_pymupdf(files: list[str], runs: int) -> dict[str, float]:
    import peers

    out = {}
    for f in files:
        best = float("inf")
        for _ in range(runs):
            t = time.perf_counter()
            peers.pymupdf_search_widgets(f)
            best = min(best, time.perf_counter() - t)
        out[f] = best
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folders", nargs="*", help="default: compare.py's set")
    ap.add_argument("--signprep-python", required=True, help="a Python with the signprep wheel installed")
    ap.add_argument("--runs", type=int, default=5, help="best of this many per file (default 5)")
    ap.add_argument("--top", type=int, default=15, help="files listed (default 15)")
    args = ap.parse_args()
    folders = args.folders or [str(compare.CORPUS / d) for d in ("tags", "forms", "real")]
    files = [e["path"] for e in compare.select_files(folders)]
    with tempfile.TemporaryDirectory() as tmp:
        listing, result = Path(tmp, "files.json"), Path(tmp, "times.json")
        listing.write_text(json.dumps(files))
        subprocess.run([args.signprep_python, "-c", TIMER, str(listing), str(args.runs), str(result)], check=True)
        ours = json.loads(result.read_text())
    theirs = time_pymupdf(files, args.runs)
    total_ours, total_theirs = sum(ours.values()), sum(theirs.values())
    print(f"{len(files)} files: signprep {total_ours * 1000:.1f} ms, PyMuPDF {total_theirs * 1000:.1f} ms, "
          f"{total_theirs / total_ours:.1f}x (best of {args.runs} per file, in-process)")
    print(f"{'signprep ms':>11} {'share':>6} {'PyMuPDF ms':>10} {'ratio':>6}  file")
    for f in sorted(files, key=lambda f: -ours[f])[: args.top]:
        print(f"{ours[f] * 1000:11.2f} {ours[f] / total_ours:6.1%} {theirs[f] * 1000:10.1f} "
              f"{theirs[f] / ours[f]:5.1f}x  {Path(f).parent.name}/{Path(f).name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
