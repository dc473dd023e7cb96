#!/usr/bin/env bash
# Every subcommand's output over the fixture, hostile and corpus sets, one case per file
# (NAME.out, NAME.err, NAME.rc, and the files a command writes), for a before/after
# comparison of a refactoring: build two binaries, run this for each into the SAME output
# folder (paths are part of the output; move the first away before the second run), then
# `diff -r`. Only `scan --format table`'s summary line (its timing) differs between two runs
# of one binary.
#
#   tools/outputs.sh BIN OUT [TESTDATA] [CORPUS]
#   TESTDATA: a frozen copy of testdata/ (default: this checkout's; freeze it with
#             `git archive REV testdata | tar -x -C DIR` when the fixtures change between the two)
#   CORPUS:   ../shared/corpus (measured only, never copied)
set -uo pipefail
BIN=$(realpath "$1"); OUT=$(realpath -m "$2")
M=$(realpath "${3:-$(dirname "$0")/../testdata}")
C=$(realpath "${4:-$(dirname "$0")/../../shared/corpus}")
rm -rf "$OUT"; mkdir -p "$OUT"
scratch=$(mktemp -d); trap 'rm -rf "$scratch"' EXIT; cd "$scratch"
case_() { local name=$1; shift; "$@" >"$OUT/$name.out" 2>"$OUT/$name.err"; echo $? >"$OUT/$name.rc"; }
SETS="fixtures:$M/fixtures hostile:$M/hostile checkpdfs:$M/check/pdfs migrate:$M/migrate"
for s in tags forms real malformed external/pdfs; do
    [ -d "$C/$s" ] && SETS="$SETS corpus-${s%%/*}:$C/$s"
done
for s in $SETS; do n=${s%%:*}; d=${s#*:}
    case_ scan-$n "$BIN" scan "$d" --format ndjson -j 2
    case_ scan1-$n "$BIN" scan "$d" --format json -j 1
    case_ scanall-$n "$BIN" scan "$d" --format ndjson --dialect all --data-fields -j 2
    case_ scantable-$n "$BIN" scan "$d" --format table --no-fields
    case_ check-$n "$BIN" check "$d" --format json -j 2
    case_ checkh-$n "$BIN" check "$d"
    case_ checksarif-$n "$BIN" check "$d" --format sarif
done
case_ check-cases "$BIN" check "$M/check/cases" --format json
case_ checkh-cases "$BIN" check "$M/check/cases"
case_ check-clean "$BIN" check "$M/check/clean"
case_ check-example "$BIN" check "$M/example/pack.toml" --format json
for s in fixtures hostile migrate; do
    case_ report-$s "$BIN" report "$M/$s" -o "$OUT/report-$s.html" -q -j 2
done
case_ pack-example "$BIN" pack "$M/example/pack.toml" -o "$OUT/pack-example.json"
case_ packv0-example "$BIN" pack "$M/example/pack.toml" --v0 -o "$OUT/packv0-example.json"
for f in "$M"/migrate/*.pdf "$M"/fixtures/vendor_*.pdf; do b=$(basename "$f" .pdf)
    case_ migrate-$b "$BIN" migrate "$f" --dialect all --strip --out "$OUT/mig-$b"
done
case_ migrate-folder "$BIN" migrate "$M/migrate" --dialect all --out "$OUT/migfolder"
for f in base14_courier cropbox_offset hidden_tags rotated_pages form_signature invalid_ids; do
    case_ preview-$f "$BIN" preview "$M/fixtures/$f.pdf" --overlay-json -o "$OUT/prev/$f" -j 2
done
case_ preview-mig "$BIN" preview "$M/migrate/adobe_contract.pdf" --dialect all --overlay-json -o "$OUT/prev/mig"
case_ preview-manifest "$BIN" preview --manifest "$M/example/pack.toml" --overlay-json -o "$OUT/prev/manifest"
case_ preview-pack "$BIN" preview --pack "$OUT/pack-example.json" --overlay-json -o "$OUT/prev/pack"
case_ explain-md "$BIN" explain --markdown
case_ explain-1 "$BIN" explain tag_id_not_uppercase
case_ explain-bad "$BIN" explain no_such_code
for s in pack v0 manifest scan; do case_ schema-$s "$BIN" schema $s; done
case_ completions "$BIN" completions bash
case_ man "$BIN" man
case_ help "$BIN" --help
for c in scan check pack migrate schema explain preview report serve completions man; do
    case_ help-$c "$BIN" $c --help
done
case_ usage-bad "$BIN" scan --jobs x a.pdf
case_ usage-none "$BIN"
case_ missing "$BIN" scan /nonexistent.pdf
echo "$(ls "$OUT" | wc -l) entries in $OUT"
