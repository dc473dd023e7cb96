// The addon in worker threads: the same records, several workers at once, and a worker
// terminated in the middle of a batch without harm to the others.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Worker } from "node:worker_threads";
import { filesIn, fixtures, pkgDir, signprep } from "./helpers.mjs";

const pdfs = filesIn(fixtures).slice(0, 20);

const SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const signprep = require(workerData.pkg);
(async () => {
  if (workerData.endless) {
    parentPort.postMessage("started");
    for (;;) for await (const _ of signprep.scanMany(workerData.files)) {}
  }
  const one = await signprep.scan(workerData.files[0], { raw: true });
  const many = [];
  for await (const r of signprep.scanMany(workerData.files, { raw: true })) many.push(r);
  parentPort.postMessage({ one, many });
})().catch((e) => parentPort.postMessage({ error: String(e) }));
`;

function run(data) {
  return new Worker(SOURCE, { eval: true, workerData: { pkg: pkgDir, files: pdfs, ...data } });
}

test("a worker thread scans as the main thread does", async () => {
  const want = [];
  for await (const r of signprep.scanMany(pdfs, { raw: true })) want.push(r);
  const results = await Promise.all(
    [0, 1, 2].map(
      () =>
        new Promise((resolve, reject) => {
          const w = run({});
          w.once("message", resolve);
          w.once("error", reject);
        }),
    ),
  );
  for (const r of results) {
    assert.equal(r.error, undefined);
    assert.equal(r.one, want[0]);
    assert.deepEqual(r.many, want);
  }
});

test("terminating a worker in the middle of a batch leaves the process working", async () => {
  const w = run({ endless: true });
  await new Promise((resolve) => w.once("message", resolve));
  await new Promise((r) => setTimeout(r, 100));
  await w.terminate();
  const r = await signprep.scan(pdfs[0]);
  assert.equal(r.status, "ok");
});
