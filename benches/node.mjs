#!/usr/bin/env node
// signprep's Node.js package against the CLI and the Python package, in the same run,
// as benches/python.py measures the Python one:
//
//   node benches/node.mjs --bin target/release/signprep [--package crates/signprep-node]
//        [--wheel target/ci-wheels/signprep-*.whl | --python VENV/bin/python]
//        [--times 20] [--repeat 3] [--seconds 5] [--baseline PKG] DIR...
//
// Every PDF under the DIRs (sorted, listed --times times) is scanned by, each in a fresh
// process pinned with taskset (wall time of the whole process, start-up included):
//
//   cli       signprep scan --format ndjson --no-summary --quiet --jobs N --files-from LIST > FILE
//             (records to a file in the run's temporary directory, pages counted from it once;
//             until 2026-12-03 a pipe this script read, unpinned, possibly on the CLI's cores)
//   scanMany  for await (const r of scanMany(paths, { jobs: N }))   (records parsed to objects)
//   raw       the same with { raw: true }: each record its CLI line, unparsed
//   python    list(signprep.scan_many(paths, jobs=N))               (with --wheel or --python)
//   baseline  scanMany of another build of the package (--baseline DIR: before a change, say)
//
// for N = 1 (taskset -c 0) and 2 (-c 0,1), --repeat rounds; within a round the four run
// back to back, in an order rotated from round to round. Printed: the median pages/s of
// each, and the median over the rounds of each one's ratio to the CLI run beside it (a
// ratio of neighbours survives background load that drifts over minutes better than a
// ratio of medians), and with GNU time the same ratio of CPU seconds (user + system; moved
// less than wall time when another process takes a core away), and "in a running process":
// the packages' scan alone by their own clocks (the scanMany / scan_many call to the last
// record, neither the interpreter's start nor the package's load) against the CLI's whole
// run, which is the comparison for a program already running that would otherwise shell out
// to the CLI for each batch; Node's start and the package's load are printed beside it.
// Then `scan` of in-memory buffers: every distinct file read once, then scanned from its
// Buffer for --seconds with 1 and 8 calls in flight, on 1 and 2 cores: scans/s and pages/s.
//
// --wheel installs that wheel (no dependencies, nothing from an index) into a new virtual
// environment for the run; --python takes one already made. Either way the package must
// be installed from a wheel (its `_native` module inside the environment's site-packages):
// an editable `maturin develop` install, a debug build by default, is refused. The wheel
// to time is the release one .ci/python builds (maturin build --release --zig).
//
// The Node children run without NODE_EXTRA_CA_CERTS: a certificate bundle named there is
// read and parsed at every Node start (~0.1 s on this machine's proxy bundle, 2-3% of a
// run), a setting of the machine and nothing signprep does or needs.
import { spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";

const { values: a, positionals: dirs } = parseArgs({
  allowPositionals: true,
  options: {
    bin: { type: "string" },
    package: { type: "string", default: "crates/signprep-node" },
    python: { type: "string" },
    wheel: { type: "string" },
    times: { type: "string", default: "1" },
    repeat: { type: "string", default: "3" },
    seconds: { type: "string", default: "5" },
    baseline: { type: "string" },
  },
});
if (!a.bin || dirs.length === 0 || (a.python && a.wheel)) {
  console.error(
    "usage: node benches/node.mjs --bin SIGNPREP [--package DIR] [--wheel WHL | --python PY] " +
      "[--times N] [--repeat N] [--seconds S] [--baseline DIR] DIR...",
  );
  process.exit(2);
}
const pkg = resolve(a.package);
const nodeEnv = { ...process.env };
delete nodeEnv.NODE_EXTRA_CA_CERTS;

function pdfs(dir) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...pdfs(p));
    else if (e.name.toLowerCase().endsWith(".pdf")) out.push(p);
  }
  return out;
}

// Besides the whole process's wall time, the script reports its own clock (ms since the
// process began, performance.now()): when Node had started (the script's first line), when
// the package was loaded, and the scan alone (the scanMany call to the last record), which is
// what a program already running, a server say, pays for a batch.
const NODE_SCAN = `
const started = performance.now();
const { readFileSync } = require("node:fs");
const signprep = require(process.argv[1]);
const loaded = performance.now();
const paths = readFileSync(process.argv[2], "utf8").split("\\n").filter(Boolean);
const raw = process.argv[4] === "raw";
(async () => {
  let pages = 0, errors = 0, chars = 0;
  const t0 = performance.now();
  for await (const r of signprep.scanMany(paths, { jobs: Number(process.argv[3]), raw })) {
    if (raw) {
      chars += r.length;
    } else {
      pages += r.pages.length;
      errors += r.status === "error" ? 1 : 0;
    }
  }
  const scanMs = performance.now() - t0;
  console.log(JSON.stringify({ files: paths.length, pages, errors, chars, started, loaded, scanMs }));
})();
`;

const PY_SCAN = `
import json, sys, time, signprep
paths = [l.strip() for l in open(sys.argv[1], encoding="utf-8") if l.strip()]
pages = errors = 0
t0 = time.perf_counter()
for r in signprep.scan_many(paths, jobs=int(sys.argv[2])):
    pages += len(r["pages"])
    errors += r["status"] == "error"
scan_ms = (time.perf_counter() - t0) * 1000
print(json.dumps({"files": len(paths), "pages": pages, "errors": errors, "scanMs": scan_ms}))
`;

// Where the interpreter's signprep comes from: refused unless installed from a wheel.
const PY_WHERE = `
import json, os, sys, sysconfig, signprep, signprep._native as native
site = {os.path.realpath(sysconfig.get_paths()[k]) for k in ("purelib", "platlib")}
so = os.path.realpath(native.__file__)
print(json.dumps({"native": so, "wheel": any(so.startswith(d + os.sep) for d in site),
                  "python": sys.version.split()[0]}))
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

/** GNU time, when there is one: the CPU seconds (user + system) of each run beside its wall time. */
const gnuTime = existsSync("/usr/bin/time") ? "/usr/bin/time" : null;
let cpuFile = null;

/** Runs `cmd`; its standard output captured, or written to the file `toFile` when given. */
function timed(cmd, args, env = process.env, toFile = null) {
  const [c, as] = gnuTime && cpuFile ? [gnuTime, ["-f", "%U %S", "-o", cpuFile, cmd, ...args]] : [cmd, args];
  const fd = toFile === null ? null : openSync(toFile, "w");
  const stdio = fd === null ? "pipe" : ["ignore", fd, "pipe"];
  const start = performance.now();
  const out = spawnSync(c, as, { encoding: "utf8", maxBuffer: 1 << 30, env, stdio });
  const secs = (performance.now() - start) / 1000;
  if (fd !== null) closeSync(fd);
  let cpu = null;
  if (c === gnuTime) {
    const m = /([\d.]+) ([\d.]+)\s*$/.exec(readFileSync(cpuFile, "utf8"));
    cpu = m ? Number(m[1]) + Number(m[2]) : null;
  }
  return { secs, cpu, out };
}

/** The pages of the CLI's records and their characters (lines without newlines, in UTF-16 code
 * units as JavaScript counts them): from the first run, every run writing the same. */
let cliPages = null;
let cliChars = null;

/** Where the timed CLI runs write their records (a file, as `signprep scan > records.ndjson` does). */
let cliOut = null;

function cli(listing, jobs, cpus) {
  const { secs, cpu, out } = timed("taskset", ["-c", cpus, a.bin, "scan", "--format", "ndjson", "--no-summary",
    "--quiet", "--jobs", String(jobs), "--files-from", listing], process.env, cliOut);
  if (out.status !== 0 && out.status !== 1) throw new Error(out.stderr);
  if (cliPages === null) {
    const lines = readFileSync(cliOut, "utf8").split("\n").filter(Boolean);
    cliPages = lines.reduce((n, l) => n + JSON.parse(l).pages.length, 0);
    cliChars = lines.reduce((n, l) => n + l.length, 0);
  }
  return { secs, cpu, pages: cliPages };
}

function node(listing, jobs, cpus, mode = "objects", dir = pkg) {
  const { secs, cpu, out } = timed("taskset", ["-c", cpus, process.execPath, "-e", NODE_SCAN, dir, listing,
    String(jobs), mode], nodeEnv);
  if (out.status !== 0) throw new Error(out.stderr);
  const m = JSON.parse(out.stdout);
  return { secs, cpu, pages: mode === "raw" ? cliPages : m.pages, chars: m.chars, scanSecs: m.scanMs / 1000,
    fixed: { start: m.started, load: m.loaded - m.started } };
}

function python(py, listing, jobs, cpus) {
  const { secs, cpu, out } = timed("taskset", ["-c", cpus, py, "-c", PY_SCAN, listing, String(jobs)]);
  if (out.status !== 0) throw new Error(out.stderr);
  const m = JSON.parse(out.stdout);
  return { secs, cpu, pages: m.pages, scanSecs: m.scanMs / 1000 };
}

/** The interpreter to time: --python as given, or a new environment with --wheel installed. */
function pythonOf(tmp) {
  let py = a.python;
  if (a.wheel) {
    const venv = join(tmp, "venv");
    for (const [cmd, args] of [
      ["python3", ["-m", "venv", venv]],
      [join(venv, "bin", "python"), ["-m", "pip", "install", "-q", "--no-deps", "--no-index", resolve(a.wheel)]],
    ]) {
      const out = spawnSync(cmd, args, { encoding: "utf8" });
      if (out.status !== 0) throw new Error(`${cmd} ${args.join(" ")}: ${out.stderr}`);
    }
    py = join(venv, "bin", "python");
  }
  if (!py) return null;
  const out = spawnSync(py, ["-c", PY_WHERE], { encoding: "utf8", cwd: tmp });
  if (out.status !== 0) throw new Error(`${py} cannot import signprep: ${out.stderr}`);
  const where = JSON.parse(out.stdout);
  if (!where.wheel) {
    throw new Error(
      `${py}'s signprep._native is ${where.native}, outside the environment's site-packages ` +
        "(an editable `maturin develop` install, a debug build by default): install the release wheel " +
        "(maturin build --release, as .ci/python does) or pass it with --wheel",
    );
  }
  console.log(`python: ${py} (Python ${where.python}), signprep._native from ${where.native}`);
  return py;
}

const median = (v) => {
  const s = [...v].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const distinct = dirs.flatMap((d) => pdfs(d)).sort();
const files = Array.from({ length: Number(a.times) }, () => distinct).flat();
const tmp = mkdtempSync(join(tmpdir(), "signprep-bench-node-"));
try {
  const py = pythonOf(tmp);
  const listing = join(tmp, "files.txt");
  writeFileSync(listing, files.join("\n") + "\n");
  const once = join(tmp, "distinct.txt");
  writeFileSync(once, distinct.join("\n") + "\n");
  const rates = {};
  const ratios = {};
  const cpuRatios = {};
  const inRatios = {};
  const fixed = {};
  cpuFile = join(tmp, "cpu.txt");
  cliOut = join(tmp, "records.ndjson");
  const runners = [
    ["cli", cli],
    ["scanMany", (l, j, c) => node(l, j, c, "objects")],
    ["raw", (l, j, c) => node(l, j, c, "raw")],
    ...(py ? [["python", (l, j, c) => python(py, l, j, c)]] : []),
    ...(a.baseline ? [["baseline", (l, j, c) => node(l, j, c, "objects", resolve(a.baseline))]] : []),
  ];
  // The CLI's first run counts the pages the others are rated by.
  cli(listing, 2, "0,1");
  for (let r = 0; r < Number(a.repeat); r++) {
    for (const [jobs, cpus] of [[1, "0"], [2, "0,1"]]) {
      const order = runners.map((_, i) => runners[(i + r) % runners.length]);
      const round = {};
      const cpu = {};
      const inProcess = {};
      for (const [name, run] of order) {
        const m = run(listing, jobs, cpus);
        round[name] = m.pages / m.secs;
        cpu[name] = m.cpu;
        if (m.scanSecs) inProcess[name] = m.pages / m.scanSecs;
        if (m.fixed) for (const [k, v] of Object.entries(m.fixed)) (fixed[k] ??= []).push(v);
        (rates[`${name}-${jobs}`] ??= []).push(round[name]);
        if (name === "raw" && m.chars !== cliChars) {
          throw new Error(`scanMany's raw lines hold ${m.chars} characters, the CLI's ${cliChars}`);
        }
      }
      for (const name of Object.keys(round)) {
        (ratios[`${name}-${jobs}`] ??= []).push(round[name] / round.cli);
        if (cpu[name] && cpu.cli) (cpuRatios[`${name}-${jobs}`] ??= []).push(cpu.cli / cpu[name]);
      }
      for (const name of Object.keys(inProcess)) {
        (inRatios[`${name}-${jobs}`] ??= []).push(inProcess[name] / round.cli);
      }
    }
  }
  const med = Object.fromEntries(Object.entries(rates).map(([k, v]) => [k, median(v)]));
  const rat = Object.fromEntries(Object.entries(ratios).map(([k, v]) => [k, median(v)]));
  const cpuRat = Object.fromEntries(Object.entries(cpuRatios).map(([k, v]) => [k, median(v)]));
  const inRat = Object.fromEntries(Object.entries(inRatios).map(([k, v]) => [k, median(v)]));
  const f = (x) => x.toFixed(1).padStart(8);
  const q = (x) => x.toFixed(3);
  console.log(`${files.length} files, ${cliPages} pages (signprep's count); pages/s, median of ${a.repeat} rounds ` +
    "(x/cli: the median of the rounds' ratios to the CLI run beside them):");
  for (const jobs of [1, 2]) {
    const k = (n) => `${n}-${jobs}`;
    let line = `  ${jobs} core${jobs > 1 ? "s" : " "}: cli ${f(med[k("cli")])}   scanMany ${f(med[k("scanMany")])} ` +
      `(x/cli ${q(rat[k("scanMany")])})   raw ${f(med[k("raw")])} (x/cli ${q(rat[k("raw")])})`;
    if (py) line += `   python ${f(med[k("python")])} (x/cli ${q(rat[k("python")])})`;
    if (a.baseline) line += `   baseline ${f(med[k("baseline")])} (x/cli ${q(rat[k("baseline")])})`;
    console.log(line);
  }
  console.log("  2 cores / 1 core: " + runners.map(([n]) => `${n} ${(med[`${n}-2`] / med[`${n}-1`]).toFixed(2)}x`).join("   "));
  if (Object.keys(cpuRat).length) {
    // CPU time is less moved than wall time by another process taking a core away.
    for (const jobs of [1, 2]) {
      console.log(`  CPU (user + system) of the CLI's / of each, median of the rounds, ${jobs} core${jobs > 1 ? "s" : " "}: ` +
        runners.slice(1).map(([n]) => `${n} ${q(cpuRat[`${n}-${jobs}`])}`).join("   "));
    }
  }
  // The same runs by the packages' own clocks: the scan alone, the call to the last record, against the
  // CLI's whole run (its start included: a program that shells out to the CLI pays it every batch).
  for (const jobs of [1, 2]) {
    console.log(`  in a running process (the scan alone / the CLI's whole run), ${jobs} core${jobs > 1 ? "s" : " "}: ` +
      runners.slice(1).filter(([n]) => inRat[`${n}-${jobs}`] !== undefined)
        .map(([n]) => `${n} ${q(inRat[`${n}-${jobs}`])}`).join("   "));
  }
  if (fixed.start) {
    console.log(`  Node's start before the script ran, median ${median(fixed.start).toFixed(1)} ms; ` +
      `loading the package ${median(fixed.load).toFixed(1)} ms`);
  }
  console.log("  every round:", JSON.stringify(Object.fromEntries(Object.entries(rates).map(([k, v]) => [k, v.map((x) => +x.toFixed(1))]))));

  console.log(`scan() of in-memory Buffers (${distinct.length} distinct files, ${a.seconds} s each):`);
  for (const [cores, cpus] of [[1, "0"], [2, "0,1"]]) {
    for (const inFlight of [1, 8]) {
      const out = spawnSync("taskset", ["-c", cpus, process.execPath, "-e", BUFFERS, pkg, once, String(inFlight), a.seconds],
        { encoding: "utf8", env: nodeEnv });
      if (out.status !== 0) throw new Error(out.stderr);
      const m = JSON.parse(out.stdout);
      console.log(`  ${cores} core${cores > 1 ? "s" : " "}, ${inFlight} in flight: ${f(m.scans / m.seconds)} scans/s ` +
        `${f(m.pages / m.seconds)} pages/s   rss ${(m.rss / 1e6).toFixed(0)} MB`);
    }
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

