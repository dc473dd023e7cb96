#!/usr/bin/env python3
"""The edited-document corpus (issue 32): real PDFs with an incremental update on top.

For every PDF under the given folders that PyMuPDF opens without repair and without a
password, this appends an incremental update (PyMuPDF `saveIncr`, the way Acrobat and most
editors save) that writes a new tag `<# EDITED_N #>` on page 1, then asks `signprep scan`
for the edited copy and requires that tag: a reader that takes any object as it was before
the edit misses it. Files PyMuPDF will not update incrementally are counted, not edited.

    python3 tools/edited_corpus.py --signprep target/release/signprep \
        --out /tmp/edited ../shared/corpus/external/pdfs ../shared/corpus/real

Needs PyMuPDF (`pip install pymupdf`). The copies are written under --out, never beside the
inputs, and are not part of the repository (the inputs are not ours to ship).
"""

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path


def edit(src: Path, dst: Path, tag: str) -> str | None:
    """Copies src to dst and appends the update; None on success, else why not."""
    import pymupdf

    try:
        doc = pymupdf.open(src)
    except Exception as e:  # noqa: BLE001 - any refusal is a reason to skip
        return f"not opened: {type(e).__name__}"
    try:
        if doc.needs_pass:
            return "password"
        if doc.is_repaired:
            return "repaired by MuPDF (no incremental update possible)"
        if doc.page_count == 0:
            return "no page"
        doc.close()
        shutil.copyfile(src, dst)
        doc = pymupdf.open(dst)
        page = doc[0]
        r = page.rect
        page.insert_text((r.x0 + 36, r.y0 + 36), f"<# {tag} #>", fontname="cour", fontsize=10)
        doc.save(dst, incremental=True, encryption=pymupdf.PDF_ENCRYPT_KEEP)
        return None
    except Exception as e:  # noqa: BLE001
        dst.unlink(missing_ok=True)
        return f"not updated: {type(e).__name__}: {e}"
    finally:
        doc.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--signprep", required=True)
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--limit", type=int, default=0, help="at most this many inputs")
    ap.add_argument("dirs", nargs="+", type=Path)
    a = ap.parse_args()
    a.out.mkdir(parents=True, exist_ok=True)
    inputs = sorted(p for d in a.dirs for p in d.rglob("*.pdf"))
    if a.limit:
        inputs = inputs[: a.limit]
    edited, skipped = [], {}
    for i, src in enumerate(inputs):
        tag = f"EDITED_{i}"
        dst = a.out / f"{i:04d}_{src.name}"
        why = edit(src, dst, tag)
        if why is None:
            edited.append((src, dst, tag))
        else:
            skipped.setdefault(why.split(":")[0], []).append(str(src))
    wrong, refused = [], []
    paths = [str(d) for _, d, _ in edited]
    out = subprocess.run(
        [a.signprep, "scan", "--format", "ndjson", "--no-fields", *paths],
        capture_output=True, text=True, check=False,
    )
    records = {}
    for line in out.stdout.splitlines():
        rec = json.loads(line)
        if "path" in rec:
            records[rec["path"]] = rec
    for src, dst, tag in edited:
        rec = records.get(str(dst))
        if rec is None or rec.get("status") == "error" or rec.get("error"):
            code = (rec or {}).get("error", {}).get("code", "no record")
            refused.append((str(src), code))
            continue
        ids = [t.get("tag_id") for t in rec.get("tags", [])]
        if tag not in ids:
            wrong.append((str(src), ids[:5]))
    print(f"inputs {len(inputs)}, edited {len(edited)}, skipped {sum(map(len, skipped.values()))}")
    for why, files in sorted(skipped.items()):
        print(f"  skipped ({why}): {len(files)}")
    print(f"read as edited: {len(edited) - len(wrong) - len(refused)} of {len(edited)}")
    print(f"refused by signprep: {len(refused)}")
    for src, code in refused:
        print(f"  refused {code}: {src}")
    print(f"read stale (edited tag missing): {len(wrong)}")
    for src, ids in wrong:
        print(f"  STALE {src}: tags {ids}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
