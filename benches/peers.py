#!/usr/bin/env python3
"""Drivers for the tools a user would pick instead of signprep (used by compare.py).

    python3 benches/peers.py METHOD LIST_FILE

One process loops over the PDFs listed in LIST_FILE (one path a line) doing the
work signprep does, the way a user of that tool would write it, and prints one
JSON line: {"method", "files", "pages", "found", "failed", "seconds"}.
`found` is the number of tags (tag methods) or widgets/fields (form methods).

Tag methods (find `<# ID #>` with a box, the oracle's regex):
  pymupdf-rawdict   PyMuPDF page.get_text("rawdict"): characters with boxes, lines
                    joined with newlines, regex, box = union of the matched chars
  pymupdf-search    PyMuPDF page.search_for("<#") (and "#>" when it hits), paired on
                    the line, id from the TextPage's words inside the box (one TextPage
                    a page; page.get_textbox costs ~0.1 s a call, so it is not used)
  pymupdf-search-widgets
                    pymupdf-search plus page.widgets() (as pymupdf-widgets): the tags
                    and the fields of each page, the job `signprep scan` does in one pass
  pdfplumber        pdfplumber page.chars, grouped into lines, regex, union of boxes
                    (page.close() after each page so its cache does not pile up)
  pdftotext         poppler `pdftotext -bbox-layout FILE -` per file, the XHTML
                    parsed (lines of words with boxes), regex, union of word boxes
Form methods:
  pymupdf-widgets   PyMuPDF page.widgets(): name, type, rect of every widget
  pypdf-fields      pypdf PdfReader.get_fields() (names and values; no page, no rect)
  qpdf-json         `qpdf --json --json-key=acroform --json-key=pages FILE` per file,
                    parsed, fields counted
"""

import html
import json
import re
import subprocess
import sys
import time

TAG = re.compile(r"<#\s*([^#<>]*?)\s*#>")


def tags_in(text, boxes):
    """Regex over the page text; boxes[i] is the (x0, y0, x1, y1) of text[i] or None."""
    out = []
    for m in TAG.finditer(text):
        bs = [b for b in boxes[m.start():m.end()] if b is not None]
        if not bs:
            continue
        box = (min(b[0] for b in bs), min(b[1] for b in bs), max(b[2] for b in bs), max(b[3] for b in bs))
        out.append((m.group(1), box))
    return out


# --- tags ---------------------------------------------------------------------------

def pymupdf_rawdict(path):
    import pymupdf
    pages = found = 0
    with pymupdf.open(path) as doc:
        for page in doc:
            pages += 1
            text, boxes = [], []
            for block in page.get_text("rawdict")["blocks"]:
                if block.get("type") != 0:
                    continue
                for line in block["lines"]:
                    for span in line["spans"]:
                        for ch in span["chars"]:
                            text.append(ch["c"])
                            boxes.append(ch["bbox"])
                    text.append("\n")
                    boxes.append(None)
            found += len(tags_in("".join(text), boxes))
    return pages, found


def pymupdf_search(path, widgets=False):
    import pymupdf
    pages = found = 0
    with pymupdf.open(path) as doc:
        for page in doc:
            pages += 1
            found += search_page(pymupdf, page)
            if widgets:
                read_widgets(page)
    return pages, found


def search_page(pymupdf, page):
    """Tags on one page with search_for; returns how many."""
    found = 0
    tp = page.get_textpage()
    opens = page.search_for("<#", textpage=tp)
    if not opens:
        return 0
    closes = page.search_for("#>", textpage=tp)
    words = tp.extractWORDS()  # (x0, y0, x1, y1, word, block, line, n)
    for o in opens:
        same_line = [c for c in closes if abs(c.y0 - o.y0) < 1 and c.x0 >= o.x0]
        if not same_line:
            continue
        c = min(same_line, key=lambda r: r.x0)
        box = pymupdf.Rect(o.x0, min(o.y0, c.y0), c.x1, max(o.y1, c.y1))
        inside = [w[4] for w in words if w[0] >= box.x0 - 1 and w[2] <= box.x1 + 1
                  and abs(w[1] - box.y0) < 1]
        _ident = " ".join(inside).removeprefix("<#").removesuffix("#>").strip()
        found += 1
    return found


def pymupdf_search_widgets(path):
    return pymupdf_search(path, widgets=True)


def pdfplumber_chars(path):
    import pdfplumber
    pages = found = 0
    with pdfplumber.open(path) as pdf:
        for page in pdf.pages:
            pages += 1
            text, boxes = [], []
            prev = None
            for ch in page.chars:
                if prev is not None and (abs(ch["top"] - prev["top"]) > 1 or ch["x0"] < prev["x0"] - 1):
                    text.append("\n")
                    boxes.append(None)
                text.append(ch["text"])
                boxes.append((ch["x0"], ch["top"], ch["x1"], ch["bottom"]))
                prev = ch
            found += len(tags_in("".join(text), boxes))
            page.close()
    return pages, found


WORD = re.compile(r'<word xMin="([-\d.]+)" yMin="([-\d.]+)" xMax="([-\d.]+)" yMax="([-\d.]+)">(.*?)</word>')


def pdftotext_bbox(path):
    out = subprocess.run(["pdftotext", "-q", "-bbox-layout", path, "-"], capture_output=True, check=False)
    if out.returncode != 0:
        raise RuntimeError(f"pdftotext exit {out.returncode}")
    doc = out.stdout.decode("utf-8", "replace")
    pages = found = 0
    for page in doc.split("<page ")[1:]:
        pages += 1
        text, boxes = [], []
        for line in page.split("<line ")[1:]:
            first = True
            for m in WORD.finditer(line):
                if not first:
                    text.append(" ")
                    boxes.append(None)
                first = False
                box = (float(m.group(1)), float(m.group(2)), float(m.group(3)), float(m.group(4)))
                word = html.unescape(m.group(5))
                text.append(word)
                boxes.extend([box] * len(word))
            text.append("\n")
            boxes.append(None)
        # text holds words, boxes one entry per character: the join lines them up
        found += len(tags_in("".join(text), boxes))
    return pages, found


# --- forms --------------------------------------------------------------------------

def pymupdf_widgets(path):
    import pymupdf
    pages = found = 0
    with pymupdf.open(path) as doc:
        for page in doc:
            pages += 1
            found += read_widgets(page)
    return pages, found


def read_widgets(page):
    """Name, type, rect, flags and value of every widget on the page; returns how many."""
    found = 0
    for w in page.widgets():
        _ = (w.field_name, w.field_type_string, tuple(w.rect), w.field_flags, w.field_value)
        found += 1
    return found


def pypdf_fields(path):
    from pypdf import PdfReader
    reader = PdfReader(path)
    pages = len(reader.pages)
    fields = reader.get_fields() or {}
    return pages, len(fields)


def qpdf_json(path):
    out = subprocess.run(["qpdf", "--json", "--json-key=acroform", "--json-key=pages", path],
                         capture_output=True, check=False)
    if out.returncode not in (0, 3):  # 3: warnings
        raise RuntimeError(f"qpdf exit {out.returncode}")
    j = json.loads(out.stdout)
    return len(j.get("pages", [])), len(j.get("acroform", {}).get("fields", []))


METHODS = {
    "pymupdf-rawdict": pymupdf_rawdict,
    "pymupdf-search": pymupdf_search,
    "pymupdf-search-widgets": pymupdf_search_widgets,
    "pdfplumber": pdfplumber_chars,
    "pdftotext": pdftotext_bbox,
    "pymupdf-widgets": pymupdf_widgets,
    "pypdf-fields": pypdf_fields,
    "qpdf-json": qpdf_json,
}


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in METHODS:
        sys.exit(f"usage: peers.py {{{'|'.join(METHODS)}}} LIST_FILE")
    method = METHODS[sys.argv[1]]
    with open(sys.argv[2], encoding="utf-8") as f:
        files = [line.strip() for line in f if line.strip()]
    if sys.argv[1].startswith("pymupdf"):
        import pymupdf
        pymupdf.TOOLS.mupdf_display_errors(False)
        pymupdf.TOOLS.mupdf_display_warnings(False)
    if sys.argv[1] in ("pdfplumber", "pypdf-fields"):
        import logging
        logging.disable(logging.WARNING)
    started = time.perf_counter()
    pages = found = failed = 0
    for path in files:
        try:
            p, n = method(path)
            pages += p
            found += n
        except Exception:  # noqa: BLE001 - a peer failing on a file is counted, not fatal
            failed += 1
    seconds = time.perf_counter() - started
    print(json.dumps({"method": sys.argv[1], "files": len(files), "pages": pages, "found": found,
                      "failed": failed, "seconds": round(seconds, 6)}))


if __name__ == "__main__":
    main()
