#!/usr/bin/env python3
"""Tag findings per file, and the files whose findings differ between two binaries (issue 25).

usage: tag_findings.py DIR [DIR...] --bin PATH [--json OUT]
       tag_findings.py --diff BEFORE.json AFTER.json

Every PDF under the folders is scanned by one `signprep scan --format ndjson --jobs 1 --files-from -` run;
for each file the findings whose code is a tag finding (`tag_*`, `text_unmappable`) are counted by code, with
the page and tag of each `tag_unterminated`. `--json` keeps them, so that a run before a change and one after
can be compared with `--diff`, which lists every file whose counts changed and the totals per code, before and
after. The PDFs stay where they are: nothing is copied.
"""
import argparse, json, os, subprocess, sys
from collections import Counter

CODES = ('text_unmappable',)


def is_tag_code(code):
    return code.startswith('tag_') or code in CODES


def pdfs(dirs):
    out = []
    for d in dirs:
        for root, _, files in os.walk(d):
            out.extend(os.path.join(root, f) for f in sorted(files) if f.lower().endswith('.pdf'))
    return sorted(out)


def run(binary, paths):
    proc = subprocess.run([binary, 'scan', '--format', 'ndjson', '--jobs', '1', '--files-from', '-'],
                          input='\n'.join(paths).encode() + b'\n', stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, check=False)
    found = {}
    for line in proc.stdout.decode('utf-8', 'replace').splitlines():
        if not line.startswith('{'):
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            continue
        if 'path' not in rec:
            continue
        diags = [d for d in rec.get('diagnostics') or [] if is_tag_code(d.get('code', ''))]
        found[rec['path']] = {
            'status': rec.get('status'),
            'counts': dict(sorted(Counter(d['code'] for d in diags).items())),
            'unterminated': [[d.get('page'), d.get('tag')] for d in diags if d['code'] == 'tag_unterminated'],
        }
    return found


def diff(before, after):
    totals = {'before': Counter(), 'after': Counter()}
    changed = []
    for path in sorted(set(before) | set(after)):
        b = before.get(path, {}).get('counts', {})
        a = after.get(path, {}).get('counts', {})
        totals['before'].update(b)
        totals['after'].update(a)
        if a != b:
            changed.append((path, b, a))
    for path, b, a in changed:
        print(f'{path}\n    before {b or "{}"}\n    after  {a or "{}"}')
    codes = sorted(set(totals['before']) | set(totals['after']))
    print(f'\n{len(changed)} of {len(set(before) | set(after))} files changed')
    for c in codes:
        print(f'  {c:24} {totals["before"][c]:5} -> {totals["after"][c]:5}')
    files = {k: sum(1 for r in d.values() if r.get('counts', {}).get('tag_unterminated'))
             for k, d in (('before', before), ('after', after))}
    print(f'  files with tag_unterminated: {files["before"]} -> {files["after"]}')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('dirs', nargs='*')
    ap.add_argument('--bin')
    ap.add_argument('--json')
    ap.add_argument('--diff', nargs=2, metavar=('BEFORE', 'AFTER'))
    args = ap.parse_args()
    if args.diff:
        with open(args.diff[0]) as fb, open(args.diff[1]) as fa:
            diff(json.load(fb), json.load(fa))
        return 0
    if not args.bin or not args.dirs:
        ap.error('give folders and --bin, or --diff BEFORE AFTER')
    found = run(args.bin, pdfs(args.dirs))
    if args.json:
        with open(args.json, 'w') as fh:
            json.dump(found, fh, indent=1, sort_keys=True)
    total = Counter()
    for r in found.values():
        total.update(r['counts'])
    print(f'{len(found)} files; ' + ', '.join(f'{c} {n}' for c, n in sorted(total.items())))
    return 0


if __name__ == '__main__':
    sys.exit(main())
