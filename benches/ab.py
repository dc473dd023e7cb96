#!/usr/bin/env python3
"""Two or more builds of signprep, interleaved: CPU seconds of `scan --jobs 1` pinned to one core.

    python3 benches/ab.py ROUNDS LIST BIN_BEFORE BIN_AFTER [BIN...]

Each round runs every binary once, back to back, over the PDFs listed in LIST
(`scan --format ndjson --no-summary --quiet --jobs 1 --files-from LIST`, `taskset -c 0`),
and takes the child's user + system time from getrusage (microseconds, unlike GNU time's
hundredths). Printed: each binary's best and median, and for each binary after the first
its best against the first's best and the median of the rounds' ratios (neighbours in a
round share the machine's state, which drifts over minutes on a shared VM). Steadier than
compare.py's wall clock for a before/after of one change; callgrind counts are steadier
still. Run it under `flock /tmp/signprep-bench.lock` beside other benchmarks.
"""
import resource
import statistics
import subprocess
import sys


def cpu_seconds(binary: str, listing: str) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        ["taskset", "-c", "0", binary, "scan", "--format", "ndjson", "--no-summary", "--quiet",
         "--jobs", "1", "--files-from", listing],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    if len(sys.argv) < 5:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    rounds, listing, binaries = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    times: dict[str, list[float]] = {b: [] for b in binaries}
    for _ in range(rounds):
        for b in binaries:
            times[b].append(cpu_seconds(b, listing))
    first = binaries[0]
    for b in binaries:
        print(f"{b}: best {min(times[b]) * 1000:.1f} ms, median {statistics.median(times[b]) * 1000:.1f} ms")
    for b in binaries[1:]:
        ratios = [x / y for x, y in zip(times[b], times[first])]
        print(f"{b} / {first}: best/best {min(times[b]) / min(times[first]):.3f}, "
              f"median of the rounds {statistics.median(ratios):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
