// Memory stays flat over 10,000 calls (bounded loosely: no timing is asserted).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { filesIn, fixtures, signprep } from "./helpers.mjs";

test("memory is flat over 10,000 scans of buffers", async (t) => {
  const buffers = filesIn(fixtures).slice(0, 10).map((f) => readFileSync(f));
  let i = 0;
  const round = async (n) => {
    const workers = Array.from({ length: 8 }, async () => {
      while (i < n) {
        const b = buffers[i++ % buffers.length];
        try {
          await signprep.scan(b);
        } catch (e) {
          if (!(e instanceof signprep.SignprepError)) throw e;
        }
      }
    });
    await Promise.all(workers);
  };
  const gc = globalThis.gc ?? (() => {});
  await round(1000);
  gc();
  const before = process.memoryUsage();
  await round(10000);
  gc();
  const after = process.memoryUsage();
  const mb = (x) => (x / 1e6).toFixed(1);
  t.diagnostic(
    `10,000 scans: rss ${mb(before.rss)} -> ${mb(after.rss)} MB, ` +
      `heap ${mb(before.heapUsed)} -> ${mb(after.heapUsed)} MB, external ${mb(before.external)} -> ${mb(after.external)} MB`,
  );
  assert.ok(i >= 10000, `${i} calls made`);
  assert.ok(after.rss - before.rss < 64e6, `rss grew by ${mb(after.rss - before.rss)} MB`);
});
