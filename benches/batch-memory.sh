#!/usr/bin/env bash
# Peak RSS, wall time and time to the first record of `signprep scan` over generated
# folders of N small PDFs (copies of testdata/fixtures under different names, in 100
# sub-folders). Not a test: the numbers go into benches/batch-memory.md by hand.
# usage: benches/batch-memory.sh [N...]        (default: 1000 10000)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p signprep-cli
bin=$PWD/target/release/signprep
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(1000 10000)
for n in "${counts[@]}"; do
    dir="$work/n$n"
    python3 - "$dir" "$n" <<'PY'
import glob, os, shutil, sys
dest, n = sys.argv[1], int(sys.argv[2])
src = sorted(glob.glob('testdata/fixtures/*.pdf'))
for i in range(n):
    d = os.path.join(dest, 'd%02d' % (i % 100))
    os.makedirs(d, exist_ok=True)
    shutil.copyfile(src[i % len(src)], os.path.join(d, 'f%06d.pdf' % i))
PY
    for jobs in 1 0; do
        /usr/bin/time -f "%M %e" -o "$work/time" "$bin" scan --format ndjson --jobs "$jobs" "$dir" >"$work/out" 2>/dev/null || true
        read -r kb secs < <(tail -n 1 "$work/time")
        records=$(grep -c '"path"' "$work/out" || true)
        first=$(python3 - "$bin" "$dir" "$jobs" <<'PY'
import subprocess, sys, time
t = time.monotonic()
p = subprocess.Popen([sys.argv[1], 'scan', '--format', 'ndjson', '--jobs', sys.argv[3], sys.argv[2]],
                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
p.stdout.readline()
print('%.3f' % (time.monotonic() - t))
p.kill(); p.wait()
PY
)
        printf '%-8s jobs=%-2s records=%-7s peak RSS %6.1f MB  wall %6.2f s  first record %s s\n' \
            "$n" "$jobs" "$records" "$(awk -v k="$kb" 'BEGIN { print k / 1024 }')" "$secs" "$first"
    done
    rm -rf "$dir"
done
