#!/usr/bin/env bash
# Whole-corpus throughput and peak memory of the release binary.
# usage: benches/corpus-run.sh [CORPUS_DIR]   (default ../shared/corpus)
# Prints, per folder and for everything: files, pages, wall seconds, pages/s, peak RSS,
# with 1 thread and with all cores. Not a test: numbers go into benches/RESULTS.md by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=${1:-../shared/corpus}
cargo build --release -q -p signprep-cli
bin=target/release/signprep
run() {
    local jobs=$1; shift
    local out; out=$(mktemp)
    /usr/bin/time -f "%e %M" -o "$out.time" "$bin" scan --format ndjson --jobs "$jobs" "$@" >"$out" 2>/dev/null || true
    local pages; pages=$(python3 -c "import json,sys; print(sum(len(json.loads(l).get('pages',[])) for l in open(sys.argv[1]) if l.startswith('{\"path\"')))" "$out")
    local files; files=$(grep -c '^{"path"' "$out" || true)
    read -r secs kb < <(tail -n 1 "$out.time")
    python3 -c "import sys; f,p,s,k,j,n=sys.argv[1:]; s=float(s); print(f'{n:<24} jobs={j:<3} files={f:<5} pages={p:<6} {s:6.2f}s {int(p)/max(s,1e-3):8.0f} pages/s  peak RSS {int(k)/1024:6.1f} MB')" "$files" "$pages" "$secs" "$kb" "$jobs" "$(basename "${@: -1}")"
    rm -f "$out" "$out.time"
}
for jobs in 1 0; do
    for d in tags forms real malformed; do
        run "$jobs" "$corpus/$d"
    done
    run "$jobs" "$corpus/tags" "$corpus/forms" "$corpus/real" "$corpus/malformed"
done
