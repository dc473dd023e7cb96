#!/usr/bin/env python3
"""Run signprep over the real-world corpus and compare it with the PyMuPDF reference records.

usage: realworld.py [EXTERNAL_DIR] --bin PATH [--json OUT] [--list CATEGORY] [--jobs N] [--timeout S]
                    [--accepted TSV] [--by source|category|both]

EXTERNAL_DIR (default ../shared/corpus/external, from the repository root) holds pdfs/<source>/<name>.pdf with
<name>.pymupdf.json beside each (its README gives the record format). Every PDF is scanned in its own process
(`signprep scan --format ndjson --jobs 1 FILE`), so a crash or a hang costs one file, and the peak RSS of each
file is that process's own (os.wait4). Per source (or per category) and in total it prints:

  files      PDFs with a reference record
  both       read by both (the reference opens it without a password and loads at least one page; we say ok)
  refused    refused by us (status error) although the reference reads it
  ours-only  read by us (status ok) although the reference needs a password (a false "clean")
  ok0        status ok with 0 pages; ok0! of them with no finding at all
  pages!=    both read, page counts differ
  size!=     both read, a page (matched by index) differs in displayed width/height by > 0.5 pt or in rotation
  widgets    widgets the reference lists / our fields on a page / matched by page and name / box within 0.5 pt
  crash      the process died (signal, exit code other than 0 or 1, no record) or the record is internal_error
  timeout    the process ran past --timeout
  dep-msg    a record whose message or hint names a dependency (lopdf, github.com, a URL, a panic text ...)
  rss-MB     the largest peak RSS of one process

Differences listed in benches/realworld-accepted.tsv (file, kind, reason) are counted apart, as "+N acc",
and never make the exit status fail. Exit 0 when nothing unaccepted remains in: refused, ours-only, ok0!,
pages!=, size!=, widgets (count or box), crash, timeout, dep-msg; 1 otherwise; 2 on a usage error.

--list CATEGORY prints the files of one category with the reason (one line each) instead of the tables:
  refused, ours-only, ok0, ok0-silent, pages, size, widgets, crash, timeout, dep, accepted, both-refused, all.
The PDFs and their records stay where they are: nothing is copied.
"""
import argparse, json, os, re, signal, subprocess, sys, threading, time
from concurrent.futures import ThreadPoolExecutor

TOL = 0.5  # points
HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_DIR = os.path.normpath(os.path.join(HERE, '..', '..', 'shared', 'corpus', 'external'))
DEFAULT_ACCEPTED = os.path.join(HERE, 'realworld-accepted.tsv')

# Words that only a dependency's own message would use (names, URLs, panic texts, and lopdf 0.47's
# error texts verbatim). Our messages say what is wrong in our words.
DEPENDENCY = re.compile(
    r'lopdf|github\.com|https?://|J-F-Liu|please open an issue|flate2|miniz|zlib|hayro|\bnom\b|'
    r'ttf.parser|panicked at|called `(?:Option|Result)::|RUST_BACKTRACE|\bcrate\b|'
    r"couldn't parse input|couldn't decompress stream|missing feature of|numberic type cast|"
    r'may indicate a reference cycle|found object ID does not match|object ID \d+ \d+ not found|'
    r'invalid file (?:header|trailer)\b|failed parsing cross reference table|dictionary has wrong type', re.I)

# Kinds of differences (the `kind` column of the accepted table, and the --list categories).
KINDS = ('refused', 'ours-only', 'ok0', 'ok0-silent', 'pages', 'size', 'widgets', 'crash', 'timeout', 'dep')
GATING = ('refused', 'ours-only', 'ok0-silent', 'pages', 'size', 'widgets', 'crash', 'timeout', 'dep')


def load_cases(root):
    """(pdf path, relative path, source, category, reference record) for every PDF with a record."""
    cats = {}
    manifest = os.path.join(root, 'manifest.tsv')
    if os.path.exists(manifest):
        with open(manifest, encoding='utf-8') as fh:
            head = fh.readline().rstrip('\n').split('\t')
            for line in fh:
                row = dict(zip(head, line.rstrip('\n').split('\t')))
                cats[row.get('path')] = row.get('category', '')
    cases = []
    for dirpath, _, files in os.walk(os.path.join(root, 'pdfs')):
        for f in sorted(files):
            if not f.lower().endswith('.pdf'):
                continue
            pdf = os.path.join(dirpath, f)
            ref = pdf[:-4] + '.pymupdf.json'
            if not os.path.exists(ref):
                continue
            with open(ref, encoding='utf-8') as fh:
                rec = json.load(fh)
            rel = os.path.relpath(pdf, root)
            cases.append((pdf, rel, rel.split(os.sep)[1], cats.get(rel, '?'), rec))
    cases.sort(key=lambda c: c[1])
    return cases


def load_accepted(path):
    """{(file, kind): reason}. `file` is the path relative to the corpus (pdfs/<source>/<name>.pdf)."""
    acc = {}
    if not path or not os.path.exists(path):
        return acc
    with open(path, encoding='utf-8') as fh:
        for n, line in enumerate(fh, 1):
            line = line.rstrip('\n')
            if not line.strip() or line.startswith('#'):
                continue
            parts = line.split('\t')
            if len(parts) < 3 or parts[0] == 'file':
                if parts[0] != 'file':
                    print(f'{path}:{n}: expected file<TAB>kind<TAB>reason', file=sys.stderr)
                continue
            if parts[1] not in KINDS:
                print(f'{path}:{n}: unknown kind {parts[1]!r} (one of {", ".join(KINDS)})', file=sys.stderr)
                continue
            acc[(parts[0], parts[1])] = parts[2]
    return acc


def run_one(binary, pdf, timeout, extra):
    """Scan one file in its own process: (record or None, exit status, signal, timed out, seconds, peak RSS KiB)."""
    t0 = time.time()
    proc = subprocess.Popen([binary, 'scan', '--format', 'ndjson', '--jobs', '1', *extra, pdf],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    timed_out = threading.Event()

    def kill():
        timed_out.set()
        try:
            os.kill(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    timer = threading.Timer(timeout, kill)
    timer.start()
    out = proc.stdout.read()
    proc.stdout.close()
    # wait4 reaps this child alone and gives its own rusage (ru_maxrss in KiB on Linux).
    _, status, usage = os.wait4(proc.pid, 0)
    timer.cancel()
    proc.returncode = os.waitstatus_to_exitcode(status)
    dt = time.time() - t0
    rec = None
    for line in out.decode('utf-8', 'replace').splitlines():
        line = line.strip()
        if line.startswith('{'):
            try:
                d = json.loads(line)
            except json.JSONDecodeError:
                continue
            if 'path' in d and 'status' in d:
                rec = d
    sig = -proc.returncode if proc.returncode < 0 else 0
    return rec, proc.returncode, sig, timed_out.is_set(), dt, usage.ru_maxrss


def ref_state(ref):
    """`password` (needs a password), `empty` (opens, no page), `read`."""
    if ref.get('open_error') or ref.get('needs_pass'):
        return 'password' if ref.get('needs_pass') else 'error'
    return 'read' if ref.get('pages') else 'empty'


def messages(rec):
    """Every user-facing text of a record."""
    out = []
    err = rec.get('error') or {}
    out.append(err.get('message') or '')
    for d in rec.get('diagnostics') or []:
        out.append(d.get('message') or '')
        out.append(d.get('hint') or '')
    return [m for m in out if m]


def in_page(item, pages):
    off = 0.0
    for pg in pages:
        if pg.get('index') == item.get('page'):
            off = pg.get('y_offset', 0.0) or 0.0
    return item['x'], item['y'] - off, item['width'], item['height']


def compare_widgets(ref_w, ours, pages):
    """Greedy nearest match on (page, name). Returns (matched, box_ok, problems)."""
    pool = [f for f in ours if f.get('page') is not None]
    matched, box_ok, problems = 0, 0, []
    for e in ref_w:
        best, bestd = None, None
        for g in pool:
            if g.get('page') != e['page'] or (g.get('name') or '') != (e.get('name') or ''):
                continue
            gx, gy, _, _ = in_page(g, pages)
            d = abs(gx - e['x']) + abs(gy - e['y'])
            if bestd is None or d < bestd:
                best, bestd = g, d
        if best is None:
            problems.append(f"widget {e.get('name')!r} p{e['page']}: not found")
            continue
        pool.remove(best)
        matched += 1
        gx, gy, gw, gh = in_page(best, pages)
        dx = max(abs(gx - e['x']), abs(gx + gw - e['x'] - e['width']))
        dy = max(abs(gy - e['y']), abs(gy + gh - e['y'] - e['height']))
        if dx <= TOL and dy <= TOL:
            box_ok += 1
        else:
            problems.append(f"widget {e.get('name')!r} p{e['page']}: box off dx={dx:.2f} dy={dy:.2f}")
    for g in pool:
        problems.append(f"widget {g.get('name')!r} p{g.get('page')}: ours only")
    return matched, box_ok, problems


def judge(case, res):
    """One file's outcome: a dict of counters and {kind: reason} for its differences."""
    pdf, rel, source, cat, ref = case
    rec, code, sig, timed_out, dt, rss = res
    rs = ref_state(ref)
    o = dict(file=rel, source=source, category=cat, ref=rs, exit=code, seconds=round(dt, 3), rss_kb=rss,
             status=None, error=None, pages=None, ref_pages=ref.get('page_count'), widgets_ref=0, widgets_ours=0,
             widgets_matched=0, widgets_box=0, diffs={})
    diffs = o['diffs']
    if timed_out:
        diffs['timeout'] = f'ran past the time limit ({dt:.0f} s)'
        return o
    if rec is None or sig or code not in (0, 1):
        diffs['crash'] = f'exit {code}' + (f' (signal {sig})' if sig else '') + ('' if rec else ', no record')
        if rec is None:
            return o
    o['status'] = rec.get('status')
    err = rec.get('error') or {}
    if err:
        o['error'] = f"{err.get('code')}: {err.get('message')}"
        if err.get('code') == 'internal_error':
            diffs['crash'] = o['error']
    dep = [m for m in messages(rec) if DEPENDENCY.search(m)]
    if dep:
        diffs['dep'] = dep[0][:200]
    pages = rec.get('pages') or []
    o['pages'] = len(pages)
    ok = rec.get('status') == 'ok'
    if ok and not pages:
        diags = rec.get('diagnostics') or []
        diffs['ok0'] = ('with ' + ', '.join(sorted({d.get('code', '?') for d in diags}))) if diags else 'no finding'
        if not diags:
            diffs['ok0-silent'] = 'status ok, 0 pages, no finding'
    if rs == 'password' and ok:
        diffs['ours-only'] = f'the reference needs a password; we say ok with {len(pages)} page(s)'
    if rs == 'read' and not ok:
        diffs['refused'] = o['error'] or 'no record'
    if rs == 'empty' and not ok:
        o['both_refused'] = o['error']
    if rs == 'password' and not ok:
        o['both_refused'] = o['error']
    if rs != 'read' or not ok:
        return o
    # Both read: pages and widgets.
    if len(pages) != ref.get('page_count'):
        diffs['pages'] = f"{len(pages)} page(s), reference {ref.get('page_count')}"
    bad = []
    ours_by_index = {p.get('index'): p for p in pages}
    for rp in ref.get('pages') or []:
        p = ours_by_index.get(rp['index'])
        if p is None:
            continue
        if (abs(p['width'] - rp['width']) > TOL or abs(p['height'] - rp['height']) > TOL
                or p.get('rotation', 0) != rp.get('rotation', 0)):
            uu = p.get('user_unit')
            bad.append(f"p{rp['index']} {p['width']:g}x{p['height']:g}/{p.get('rotation', 0)}"
                       f"{f' (UserUnit {uu:g})' if uu else ''} vs {rp['width']:g}x{rp['height']:g}/{rp.get('rotation', 0)}")
    if bad:
        diffs['size'] = f"{len(bad)} page(s): " + '; '.join(bad[:3]) + (' ...' if len(bad) > 3 else '')
    ref_w = ref.get('widgets') or []
    fields = rec.get('fields') or []
    o['widgets_ref'] = len(ref_w)
    o['widgets_ours'] = sum(1 for f in fields if f.get('page') is not None)
    m, b, probs = compare_widgets(ref_w, fields, pages)
    o['widgets_matched'], o['widgets_box'] = m, b
    if probs:
        diffs['widgets'] = f"{len(probs)} problem(s): " + '; '.join(probs[:3]) + (' ...' if len(probs) > 3 else '')
    return o


def apply_accepted(results, accepted):
    used = set()
    for o in results:
        o['accepted'] = {}
        for kind in list(o['diffs']):
            key = (o['file'], kind)
            if key in accepted:
                o['accepted'][kind] = accepted[key]
                used.add(key)
    return [k for k in accepted if k not in used]


def summarise(rows):
    s = dict(files=len(rows), both=0, refused=0, ours_only=0, both_refused=0, ok0=0, ok0_silent=0, pages=0,
             size=0, w_ref=0, w_ours=0, w_match=0, w_box=0, widgets=0, crash=0, timeout=0, dep=0, rss_kb=0,
             seconds=0.0, accepted=0)
    key = {'ours-only': 'ours_only', 'ok0-silent': 'ok0_silent'}
    for o in rows:
        if o['ref'] == 'read' and o['status'] == 'ok':
            s['both'] += 1
        if o.get('both_refused'):
            s['both_refused'] += 1
        for kind in o['diffs']:
            if kind in o['accepted']:
                s['accepted'] += 1
            else:
                s[key.get(kind, kind)] += 1
        s['w_ref'] += o['widgets_ref']; s['w_ours'] += o['widgets_ours']
        s['w_match'] += o['widgets_matched']; s['w_box'] += o['widgets_box']
        s['rss_kb'] = max(s['rss_kb'], o['rss_kb'])
        s['seconds'] += o['seconds']
    return s


COLS = [('files', 'files'), ('both', 'both'), ('refused', 'refused'), ('ours-only', 'ours_only'),
        ('both-ref', 'both_refused'), ('ok0', 'ok0'), ('ok0!', 'ok0_silent'), ('pages!=', 'pages'),
        ('size!=', 'size'), ('widgets ref/ours/name/box', None), ('w-files', 'widgets'), ('crash', 'crash'),
        ('timeout', 'timeout'), ('dep-msg', 'dep'), ('acc', 'accepted'), ('rss-MB', None), ('sec', None)]


def table(title, groups):
    head = [title] + [c for c, _ in COLS]
    lines = [head]
    for name, s in groups:
        row = [name]
        for c, k in COLS:
            if k:
                row.append(str(s[k]))
            elif c.startswith('widgets'):
                row.append(f"{s['w_ref']}/{s['w_ours']}/{s['w_match']}/{s['w_box']}")
            elif c == 'rss-MB':
                row.append(f"{s['rss_kb'] / 1024:.1f}")
            else:
                row.append(f"{s['seconds']:.1f}")
        lines.append(row)
    widths = [max(len(r[i]) for r in lines) for i in range(len(head))]
    out = []
    for n, r in enumerate(lines):
        out.append('| ' + ' | '.join(v.ljust(widths[i]) if i == 0 else v.rjust(widths[i]) for i, v in enumerate(r)) + ' |')
        if n == 0:
            out.append('|' + '|'.join('-' * (w + 2) for w in widths) + '|')
    return '\n'.join(out)


def listing(results, cat):
    out = []
    for o in results:
        if cat == 'all':
            kinds = list(o['diffs'])
        elif cat == 'accepted':
            kinds = list(o['accepted'])
        elif cat == 'both-refused':
            if o.get('both_refused'):
                out.append(f"{o['file']}\tboth-refused\t(reference: {o['ref']}) {o['both_refused']}")
            continue
        else:
            kinds = [cat] if cat in o['diffs'] else []
        for k in kinds:
            mark = f" [accepted: {o['accepted'][k]}]" if k in o['accepted'] else ''
            out.append(f"{o['file']}\t{k}\t{o['diffs'][k]}{mark}")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('dir', nargs='?', default=DEFAULT_DIR)
    ap.add_argument('--bin', required=True)
    ap.add_argument('--json', help='write every file\'s outcome and the totals here')
    ap.add_argument('--list', metavar='CATEGORY', choices=KINDS + ('accepted', 'both-refused', 'all'))
    ap.add_argument('--accepted', default=DEFAULT_ACCEPTED)
    ap.add_argument('--by', choices=('source', 'category', 'both'), default='both')
    ap.add_argument('--jobs', type=int, default=2, help='files scanned at once (each in its own process)')
    ap.add_argument('--timeout', type=float, default=60.0, help='seconds per file')
    ap.add_argument('--only', help='regex on the relative path: scan only the matching files')
    ap.add_argument('--scan-arg', action='append', default=[], help='extra argument for `signprep scan` (repeatable)')
    a = ap.parse_args()
    cases = load_cases(a.dir)
    if a.only:
        cases = [c for c in cases if re.search(a.only, c[1])]
    if not cases:
        print(f'no PDF with a .pymupdf.json record under {a.dir}/pdfs'); return 2
    if not os.access(a.bin, os.X_OK):
        print(f'cannot run {a.bin}'); return 2
    accepted = load_accepted(a.accepted)
    t0 = time.time()
    with ThreadPoolExecutor(max(1, a.jobs)) as pool:
        raw = list(pool.map(lambda c: run_one(a.bin, c[0], a.timeout, a.scan_arg), cases))
    wall = time.time() - t0
    results = [judge(c, r) for c, r in zip(cases, raw)]
    unused = apply_accepted(results, accepted)
    if a.list:
        for line in listing(results, a.list):
            print(line)
        return 0
    groups = []
    if a.by in ('source', 'both'):
        srcs = sorted({o['source'] for o in results}, key=lambda s: -sum(o['source'] == s for o in results))
        groups.append(('source', [(s, summarise([o for o in results if o['source'] == s])) for s in srcs]))
    if a.by in ('category', 'both'):
        cats = sorted({o['category'] for o in results}, key=lambda s: -sum(o['category'] == s for o in results))
        groups.append(('category', [(s, summarise([o for o in results if o['category'] == s])) for s in cats]))
    total = summarise(results)
    for title, rows in groups:
        print(table(title, rows + [('total', total)]))
        print()
    for k in unused:
        print(f'accepted difference not seen (stale?): {k[0]} {k[1]}')
    gate = {k: total[k.replace('-', '_')] for k in GATING}
    bad = {k: v for k, v in gate.items() if v}
    print(f"files={total['files']} both={total['both']} refused={total['refused']} ours-only={total['ours_only']} "
          f"ok0-silent={total['ok0_silent']} widgets {total['w_box']}/{total['w_ref']} in box "
          f"(ours {total['w_ours']}) accepted={total['accepted']} crash={total['crash']} timeout={total['timeout']} "
          f"dep-msg={total['dep']} peak-rss={total['rss_kb'] / 1024:.1f}MB wall={wall:.1f}s "
          + ('OK' if not bad else 'FAIL ' + ' '.join(f'{k}={v}' for k, v in bad.items())))
    if a.json:
        with open(a.json, 'w', encoding='utf-8') as fh:
            json.dump(dict(bin=a.bin, dir=a.dir, wall_seconds=round(wall, 2), total=total,
                           groups={t: dict(rows) for t, rows in groups}, files=results), fh, indent=1)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
