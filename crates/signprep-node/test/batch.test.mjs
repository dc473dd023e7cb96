// scanMany: order, sources of every kind, progress, early stop, a source that throws,
// and the event loop kept responsive during a large batch.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { bigPdf, filesIn, fixtures, lines, signprep } from "./helpers.mjs";

const pdfs = filesIn(fixtures);

test("records come in input order whatever the sizes, on 1 and 2 threads", async () => {
  // Large files first would finish last: the order is still the input's.
  const big = bigPdf(60);
  const sources = [];
  for (let i = 0; i < 40; i++) {
    sources.push(i % 10 === 0 ? { name: `big-${i}`, data: big } : pdfs[i % pdfs.length]);
  }
  for (const jobs of [1, 2]) {
    const got = [];
    for await (const r of signprep.scanMany(sources, { jobs, window: 8 })) got.push(r.path);
    assert.deepEqual(got, sources.map((s) => (typeof s === "string" ? s : s.name)), `jobs ${jobs}`);
  }
});

test("sources: an async generator of paths, bytes and { name, data }; progress for each", async () => {
  async function* gen() {
    for (const [i, f] of pdfs.slice(0, 12).entries()) {
      await sleep(1);
      if (i % 3 === 0) yield f;
      else if (i % 3 === 1) yield readFileSync(f);
      else yield { name: `mem-${i}`, data: new Uint8Array(readFileSync(f)) };
    }
  }
  const progress = [];
  const got = [];
  for await (const r of signprep.scanMany(gen(), { onProgress: (p) => progress.push(p) })) got.push(r.path);
  assert.equal(got.length, 12);
  assert.deepEqual(progress.map((p) => p.done), Array.from({ length: 12 }, (_, i) => i + 1));
  assert.ok(progress.every((p) => p.total === undefined));
  assert.deepEqual(got.slice(0, 3), [pdfs[0], "-", "mem-2"]);

  const counted = [];
  for await (const _ of signprep.scanMany(pdfs.slice(0, 5), { onProgress: (p) => counted.push(p.total) })) {
    // consumed
  }
  assert.deepEqual(counted, [5, 5, 5, 5, 5]);
});

test("an error thrown by the sources comes after the records before it", async () => {
  function* gen() {
    yield pdfs[0];
    yield pdfs[1];
    throw new Error("the listing failed");
  }
  const got = [];
  await assert.rejects(
    (async () => {
      for await (const r of signprep.scanMany(gen())) got.push(r.path);
    })(),
    /the listing failed/,
  );
  assert.deepEqual(got, [pdfs[0], pdfs[1]]);
  const bad = [];
  await assert.rejects(
    (async () => {
      for await (const r of signprep.scanMany([pdfs[0], 42])) bad.push(r.path);
    })(),
    TypeError,
  );
  assert.deepEqual(bad, [pdfs[0]]);
});

test("breaking out early stops the run and closes the sources", async () => {
  let closed = false;
  let pulled = 0;
  function* endless() {
    try {
      for (;;) {
        pulled += 1;
        yield pdfs[pulled % pdfs.length];
      }
    } finally {
      closed = true;
    }
  }
  let n = 0;
  for await (const _ of signprep.scanMany(endless(), { window: 16 })) {
    if (++n === 50) break;
  }
  assert.equal(n, 50);
  assert.ok(closed, "the generator was closed");
  assert.ok(pulled < 2000, `read only so far ahead (${pulled})`);
});

test("the iterator answers as an async generator does: in call order, return, throw, done for good", async () => {
  const files = Array.from({ length: 30 }, (_, i) => pdfs[i % pdfs.length]);
  const it = signprep.scanMany(files, { jobs: 2, window: 4 });
  assert.equal(it[Symbol.asyncIterator](), it);
  // Calls made without waiting are answered in the order made, records in input order.
  const first = await Promise.all(Array.from({ length: 6 }, () => it.next()));
  assert.deepEqual(first.map((r) => [r.done, r.value.path]), files.slice(0, 6).map((f) => [false, f]));
  // return() while a next() is pending: that record first, then done for good.
  const [seventh, returned, after] = await Promise.all([it.next(), it.return("bye"), it.next()]);
  assert.deepEqual([seventh.done, seventh.value.path], [false, files[6]]);
  assert.deepEqual(returned, { value: "bye", done: true });
  assert.deepEqual(after, { value: undefined, done: true });

  // throw() rejects with the error given, then the iterator is done.
  const thrown = signprep.scanMany(files.slice(0, 3), { raw: true });
  assert.equal(typeof (await thrown.next()).value, "string");
  await assert.rejects(thrown.throw(new Error("stop here")), /stop here/);
  assert.deepEqual(await thrown.next(), { value: undefined, done: true });

  // Past the end, next() stays done; a progress callback that throws ends the run with its error.
  const short = signprep.scanMany(files.slice(0, 2));
  assert.equal((await short.next()).value.path, files[0]);
  assert.equal((await short.next()).value.path, files[1]);
  assert.deepEqual(await short.next(), { value: undefined, done: true });
  assert.deepEqual(await short.next(), { value: undefined, done: true });
  const failing = signprep.scanMany(files.slice(0, 3), {
    onProgress: (p) => {
      if (p.done === 2) throw new Error("progress failed");
    },
  });
  assert.equal((await failing.next()).value.path, files[0]);
  await assert.rejects(failing.next(), /progress failed/);
  assert.deepEqual(await failing.next(), { value: undefined, done: true });
  assert.ok(
    typeof Symbol.asyncDispose !== "symbol" || typeof it[Symbol.asyncDispose] === "function",
    "`await using` closes it where Node has Symbol.asyncDispose",
  );
});

test("a slow consumer still gives the event loop its turns within a batch of records", async () => {
  // Records pile up while the loop body works 5 ms on each: a whole batch is then ready
  // at once, and without a turn every few ms its records would be taken one after the
  // other from microtasks, with no timer, I/O or setImmediate in between.
  const files = Array.from({ length: 60 }, (_, i) => pdfs[i % pdfs.length]);
  let ticks = 0;
  let running = true;
  const tick = () => {
    ticks += 1;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  let longest = 0;
  let since = 0;
  let seen = -1;
  try {
    for await (const _ of signprep.scanMany(files, { jobs: 1 })) {
      since = ticks === seen ? since + 1 : 0;
      seen = ticks;
      longest = Math.max(longest, since);
      const until = performance.now() + 5;
      while (performance.now() < until) {
        // the consumer's own work
      }
    }
  } finally {
    running = false;
  }
  assert.ok(longest <= 2, `${longest + 1} records in a row without an event-loop turn`);
});

/** Scans `files` while a 5 ms interval timer runs: its largest delay and how often it fired. */
async function timed(files, options) {
  let ticks = 0;
  let last = performance.now();
  const delays = [];
  const timer = setInterval(() => {
    const now = performance.now();
    delays.push(now - last - 5);
    last = now;
    ticks += 1;
  }, 5);
  let records = 0;
  let ticksAtFirst = -1;
  const started = performance.now();
  try {
    for await (const r of signprep.scanMany(files, options)) {
      if (records === 0) ticksAtFirst = ticks;
      records += 1;
      assert.ok(r);
    }
  } finally {
    clearInterval(timer);
  }
  const ms = performance.now() - started;
  delays.sort((a, b) => a - b);
  const worst = delays.at(-1) ?? 0;
  const p99 = delays[Math.floor(delays.length * 0.99)] ?? 0;
  return { records, ticks, ticksAtFirst, ms, worst, p99 };
}

test("the event loop stays responsive during a 3,000-file scanMany", async (t) => {
  const files = Array.from({ length: 3000 }, (_, i) => pdfs[i % pdfs.length]);
  for (const [what, options] of [
    ["records as objects, one thread per core", {}],
    ["raw lines, jobs 1", { raw: true, jobs: 1 }],
  ]) {
    const m = await timed(files, options);
    t.diagnostic(
      `${what}: 3000 files in ${m.ms.toFixed(0)} ms; the 5 ms timer fired ${m.ticks} times, ` +
        `largest delay ${m.worst.toFixed(1)} ms, p99 ${m.p99.toFixed(1)} ms`,
    );
    assert.equal(m.records, 3000);
    // The timer kept firing while records came (no timing asserted: only that it ran).
    assert.ok(m.ticks > m.ticksAtFirst + 1, `the timer fired during the batch (${m.ticksAtFirst} -> ${m.ticks})`);
  }
});
