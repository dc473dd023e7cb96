#!/usr/bin/env bash
# Builds the working corpora fuzz/corpus/<target>/ (not committed) from the
# committed seeds (fuzz/seeds/), the generated fixtures and hostile files
# (testdata/), the streams inside them, the pre-flight cases and the example
# (request bodies and manifests), and every regression input.
# Extra local PDFs (never committed) can be added: fuzz/seed.sh DIR...
set -euo pipefail
cd "$(dirname "$0")"
for t in document content cmap forms check_body manifest; do
    mkdir -p "corpus/$t"
    cp -n ../testdata/regressions/"$t"/* "corpus/$t/" 2>/dev/null || true
done
cp -n seeds/cmap/* corpus/cmap/
cp -n seeds/content/* corpus/content/
cp -n seeds/forms/* corpus/forms/
cp -n ../testdata/fixtures/*.pdf ../testdata/hostile/*.pdf corpus/document/
# Bodies and manifests of `signprep check`: the pre-flight cases (testdata/check)
# and the example's expected outputs (testdata/example). check_body also gets
# each body behind a kind byte (0x01 pack ... 0x07 manifest, as --kind).
for f in ../testdata/check/*/*.json ../testdata/example/expected/*.json; do
    name="$(basename "$(dirname "$f")")_$(basename "$f")"
    cp -n "$f" "corpus/check_body/$name"
    for k in 1 2 3 4; do
        { printf "\\x0$k"; cat "$f"; } > "corpus/check_body/k${k}_$name"
    done
done
for f in ../testdata/check/*/*.toml ../testdata/example/pack.toml; do
    cp -n "$f" "corpus/manifest/$(basename "$(dirname "$f")")_$(basename "$f")"
done
for d in "$@"; do
    find "$d" -maxdepth 1 -name '*.pdf' -size -2M -exec cp -n {} corpus/document/ \;
done
# Content streams and CMaps found inside the PDFs.
python3 - corpus/document/*.pdf <<'PY'
import hashlib, re, sys, zlib
for path in sys.argv[1:]:
    data = open(path, "rb").read()
    for m in re.finditer(rb"obj\s*<<(.{0,400}?)>>\s*stream\r?\n", data, re.S):
        end = data.find(b"endstream", m.end())
        if end < 0:
            continue
        raw, head = data[m.end():end], m.group(1)
        if b"/FlateDecode" in head:
            try:
                raw = zlib.decompressobj().decompress(raw, 1 << 20)
            except zlib.error:
                continue
        if b"/Length1" in head or b"/Subtype /Image" in head or b"/Subtype/Image" in head:
            continue
        if b"begincmap" in raw or b"beginbfchar" in raw or b"beginbfrange" in raw:
            target = "cmap"
        elif re.search(rb"\b(Tj|TJ|Do|BT)\b", raw):
            target = "content"
        else:
            continue
        raw = raw[:65536]
        name = hashlib.sha1(raw).hexdigest()
        open(f"corpus/{target}/{name}", "wb").write(raw)
PY
for t in document content cmap forms check_body manifest; do
    echo "$t: $(ls "corpus/$t" | wc -l) inputs"
done
