#!/usr/bin/env node
// signprep's Node.js package against the CLI (and the Python package, when a venv is given),
// as benches/python.py measures the Python one:
//
//   node benches/node.mjs --bin target/release/signprep [--package crates/signprep-node]
//        [--python VENV/bin/python] [--times 40] [--repeat 3] DIR...
//
// Every PDF under the DIRs (sorted, listed --times times) is scanned by, each in a fresh
// process pinned with taskset (wall time of the whole process, start-up included):
//
//   cli       signprep scan --format ndjson --no-summary --quiet --jobs N --files-from LIST
//   scanMany  for await (const r of scanMany(paths, { jobs: N }))   (records parsed to objects)
//   python    list(signprep.scan_many(paths, jobs=N))               (with --python)
//
// for N = 1 (taskset -c 0) and 2 (-c 0,1), --repeat times alternating; the median pages/s of
// each and the ratios. Then `scan` of in-memory buffers: every distinct file read once, then
// scanned from its Buffer for --seconds (default 5) with 1 and 8 calls in flight, on 1 and 2
// cores: scans/s and pages/s.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";

const { values: a, positionals: dirs } = parseArgs({
  allowPositionals: true,
  options: {
    bin: { type: "string" },
    package: { type: "string", default: "crates/signprep-node" },
    python: { type: "string" },
    times: { type: "string", default: "1" },
    repeat: { type: "string", default: "3" },
    seconds: { type: "string", default: "5" },
  },
});
if (!a.bin || dirs.length === 0) {
  console.error("usage: node benches/node.mjs --bin SIGNPREP [--package DIR] [--python PY] DIR...");
  process.exit(2);
}
const pkg = resolve(a.package);

function pdfs(dir) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...pdfs(p));
    else if (e.name.toLowerCase().endsWith(".pdf")) out.push(p);
  }
  return out;
}

const NODE_SCAN = `
const { readFileSync } = require("node:fs");
const signprep = require(process.argv[1]);
const paths = readFileSync(process.argv[2], "utf8").split("\\n").filter(Boolean);
(async () => {
  let pages = 0, errors = 0;
  for await (const r of signprep.scanMany(paths, { jobs: Number(process.argv[3]) })) {
    pages += r.pages.length;
    errors += r.status === "error" ? 1 : 0;
  }
  console.log(JSON.stringify({ files: paths.length, pages, errors }));
})();
`;

const PY_SCAN = `
import json, sys, signprep
paths = [l.strip() for l in open(sys.argv[1], encoding="utf-8") if l.strip()]
pages = errors = 0
for r in signprep.scan_many(paths, jobs=int(sys.argv[2])):
    pages += len(r["pages"])
    errors += r["status"] == "error"
print(json.dumps({"files": len(paths), "pages": pages, "errors": errors}))
`;

const BUFFERS = `
const { readFileSync } = require("node:fs");
const signprep = require(process.argv[1]);
const paths = readFileSync(process.argv[2], "utf8").split("\\n").filter(Boolean);
const inFlight = Number(process.argv[3]);
const seconds = Number(process.argv[4]);
(async () => {
  const buffers = paths.map((p) => readFileSync(p));
  const pagesOf = [];
  for (const b of buffers) pagesOf.push(await signprep.scan(b).then((r) => r.pages.length, () => 0));
  let scans = 0, pages = 0, i = 0;
  const end = performance.now() + seconds * 1000;
  const start = performance.now();
  await Promise.all(Array.from({ length: inFlight }, async () => {
    while (performance.now() < end) {
      const k = i++ % buffers.length;
      await signprep.scan(buffers[k]).catch(() => null);
      scans += 1;
      pages += pagesOf[k];
    }
  }));
  const secs = (performance.now() - start) / 1000;
  console.log(JSON.stringify({ scans, pages, seconds: secs, rss: process.memoryUsage().rss }));
})();
`;

function timed(cmd, args) {
  const start = performance.now();
  const out = spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 1 << 30 });
  return { secs: (performance.now() - start) / 1000, out };
}

function cli(listing, jobs, cpus) {
  const { secs, out } = timed("taskset", ["-c", cpus, a.bin, "scan", "--format", "ndjson", "--no-summary",
    "--quiet", "--jobs", String(jobs), "--files-from", listing]);
  if (out.status !== 0 && out.status !== 1) throw new Error(out.stderr);
  const pages = out.stdout.split("\n").filter(Boolean).reduce((n, l) => n + JSON.parse(l).pages.length, 0);
  return { secs, pages };
}

function node(listing, jobs, cpus) {
  const { secs, out } = timed("taskset", ["-c", cpus, process.execPath, "-e", NODE_SCAN, pkg, listing, String(jobs)]);
  if (out.status !== 0) throw new Error(out.stderr);
  return { secs, pages: JSON.parse(out.stdout).pages };
}

function python(listing, jobs, cpus) {
  const { secs, out } = timed("taskset", ["-c", cpus, a.python, "-c", PY_SCAN, listing, String(jobs)]);
  if (out.status !== 0) throw new Error(out.stderr);
  return { secs, pages: JSON.parse(out.stdout).pages };
}

const median = (v) => {
  const s = [...v].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const distinct = dirs.flatMap((d) => pdfs(d)).sort();
const files = Array.from({ length: Number(a.times) }, () => distinct).flat();
const tmp = mkdtempSync(join(tmpdir(), "signprep-bench-node-"));
try {
  const listing = join(tmp, "files.txt");
  writeFileSync(listing, files.join("\n") + "\n");
  const once = join(tmp, "distinct.txt");
  writeFileSync(once, distinct.join("\n") + "\n");
  const rates = {};
  let pages = 0;
  const runners = [["cli", cli], ["scanMany", node], ...(a.python ? [["python", python]] : [])];
  for (let r = 0; r < Number(a.repeat); r++) {
    for (const [jobs, cpus] of [[1, "0"], [2, "0,1"]]) {
      for (const [name, run] of runners) {
        const m = run(listing, jobs, cpus);
        (rates[`${name}-${jobs}`] ??= []).push(m.pages / m.secs);
        pages = m.pages;
      }
    }
  }
  const med = Object.fromEntries(Object.entries(rates).map(([k, v]) => [k, median(v)]));
  const f = (x) => x.toFixed(1).padStart(9);
  console.log(`${files.length} files, ${pages} pages (signprep's count), median of ${a.repeat} runs, pages/s:`);
  for (const jobs of [1, 2]) {
    const c = med[`cli-${jobs}`];
    const n = med[`scanMany-${jobs}`];
    let line = `  ${jobs} core${jobs > 1 ? "s" : " "}: cli ${f(c)}   scanMany ${f(n)}   scanMany/cli ${(n / c).toFixed(3)}`;
    if (a.python) {
      const p = med[`python-${jobs}`];
      line += `   scan_many (Python) ${f(p)}   python/cli ${(p / c).toFixed(3)}`;
    }
    console.log(line);
  }
  console.log(`  2 cores / 1 core: scanMany ${(med["scanMany-2"] / med["scanMany-1"]).toFixed(2)}x   ` +
    `cli ${(med["cli-2"] / med["cli-1"]).toFixed(2)}x`);
  console.log("  raw:", JSON.stringify(Object.fromEntries(Object.entries(rates).map(([k, v]) => [k, v.map((x) => +x.toFixed(1))]))));

  console.log(`scan() of in-memory Buffers (${distinct.length} distinct files, ${a.seconds} s each):`);
  for (const [cores, cpus] of [[1, "0"], [2, "0,1"]]) {
    for (const inFlight of [1, 8]) {
      const out = spawnSync("taskset", ["-c", cpus, process.execPath, "-e", BUFFERS, pkg, once, String(inFlight), a.seconds],
        { encoding: "utf8" });
      if (out.status !== 0) throw new Error(out.stderr);
      const m = JSON.parse(out.stdout);
      console.log(`  ${cores} core${cores > 1 ? "s" : " "}, ${inFlight} in flight: ${f(m.scans / m.seconds)} scans/s ` +
        `${f(m.pages / m.seconds)} pages/s   rss ${(m.rss / 1e6).toFixed(0)} MB`);
    }
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
