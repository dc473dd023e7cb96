// Cancellation with an AbortSignal: before the call, during a scan, during scanMany.
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { bigPdf, filesIn, fixtures, signprep } from "./helpers.mjs";

const pdfs = filesIn(fixtures);

test("an aborted signal rejects at once with its reason", async () => {
  const c = new AbortController();
  c.abort();
  for (const call of [
    () => signprep.scan(pdfs[0], { signal: c.signal }),
    () => signprep.check(pdfs[0], { signal: c.signal }),
    () => signprep.pack(join(fixtures, "..", "example", "pack.toml"), { signal: c.signal }),
    () => signprep.migrate(pdfs[0], { signal: c.signal }),
  ]) {
    await assert.rejects(call(), { name: "AbortError" });
  }
  const reason = new Error("changed my mind");
  const d = new AbortController();
  d.abort(reason);
  await assert.rejects(signprep.scan(pdfs[0], { signal: d.signal }), (e) => e === reason);
});

test("aborting a scan in flight rejects it and frees the engine", async (t) => {
  const big = bigPdf(1500);
  const c = new AbortController();
  const started = performance.now();
  const scanning = signprep.scan(big, { signal: c.signal, timeout: 0 });
  setTimeout(() => c.abort(), 20);
  await assert.rejects(scanning, { name: "AbortError" });
  const aborted = performance.now() - started;
  // The engine is free again: later calls run.
  const r = await signprep.scan(pdfs[0]);
  assert.equal(r.status, "ok");
  // The whole file, not aborted, for the diagnostic only.
  const t0 = performance.now();
  const whole = await signprep.scan(big, { timeout: 0 });
  assert.equal(whole.pages.length, 1500);
  t.diagnostic(`aborted after ${aborted.toFixed(0)} ms; the whole scan takes ${(performance.now() - t0).toFixed(0)} ms`);
});

test("aborting scanMany ends the iteration with the signal's reason", async () => {
  const files = Array.from({ length: 3000 }, (_, i) => pdfs[i % pdfs.length]);
  const c = new AbortController();
  let n = 0;
  await assert.rejects(
    (async () => {
      for await (const _ of signprep.scanMany(files, { signal: c.signal })) {
        if (++n === 100) c.abort();
      }
    })(),
    { name: "AbortError" },
  );
  assert.ok(n >= 100 && n < 3000, `stopped early (${n})`);
  const pre = new AbortController();
  pre.abort();
  await assert.rejects(
    (async () => {
      for await (const _ of signprep.scanMany(files, { signal: pre.signal })) n += 1;
    })(),
    { name: "AbortError" },
  );
});
