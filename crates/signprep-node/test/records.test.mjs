// Records are the CLI's: byte for byte as JSON text (`raw: true`), equal as objects.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { cliScan, corpus, esm, filesIn, fixtures, lines, pkgDir, root, signprep } from "./helpers.mjs";

const pdfs = filesIn(fixtures);

test("the fixtures are there", () => {
  assert.ok(pdfs.length > 30, `only ${pdfs.length} fixtures under ${fixtures}`);
});

test("scan of each fixture, by path and by bytes, is the CLI's line byte for byte", async () => {
  const expected = cliScan(pdfs);
  assert.equal(expected.length, pdfs.length);
  for (const [i, file] of pdfs.entries()) {
    const want = expected[i];
    if (JSON.parse(want).status === "error") {
      await assert.rejects(signprep.scan(file), { name: "SignprepError", code: JSON.parse(want).error.code });
      continue;
    }
    assert.equal(await signprep.scan(file, { raw: true }), want, file);
    const bytes = readFileSync(file);
    assert.equal(await signprep.scan(bytes, { name: file, raw: true }), want, `${file} (bytes)`);
    assert.deepEqual(await signprep.scan(new Uint8Array(bytes), { name: file }), JSON.parse(want));
  }
});

test("scanMany gives the CLI's lines, in order, error records included", async () => {
  const hostile = filesIn(join(root, "testdata", "hostile"));
  const files = [...pdfs, ...hostile, join(root, "no-such-file.pdf")];
  const want = cliScan(files);
  assert.deepEqual(await lines(signprep.scanMany(files, { raw: true, jobs: 2 })), want);
  // The error records carry the CLI's codes.
  const codes = want.map((l) => JSON.parse(l).error?.code).filter(Boolean);
  assert.ok(codes.includes("io_error") && codes.includes("pdf_unreadable"), codes.join(","));
});

test("options are the CLI's: dialects, data fields with a type map, dpi, no fields", async () => {
  const vendor = filesIn(join(root, "testdata", "migrate"));
  const cases = [
    [{ dialects: "all" }, ["--dialect", "all"]],
    [{ dialects: ["adobe", "dropbox"] }, ["--dialect", "adobe,dropbox"]],
    [{ dataFields: true, typeMap: { "SIG_*": "signature", "DATE_*": null } }, ["--data-fields", "--type-map", "SIG_*=signature", "--type-map", "DATE_*=none"]],
    [{ dpi: 96, fields: false }, ["--dpi", "96", "--no-fields"]],
    [{ pageWidth: 1000, applyUserUnit: false }, ["--page-width", "1000", "--ignore-user-unit"]],
  ];
  for (const [options, args] of cases) {
    const files = [...pdfs.slice(0, 20), ...vendor];
    const want = cliScan(files, args);
    assert.deepEqual(await lines(signprep.scanMany(files, { ...options, raw: true })), want, args.join(" "));
  }
});

test("dataFields is the record's data_fields", async () => {
  const file = join(fixtures, "base14_courier.pdf");
  const want = JSON.parse(cliScan([file], ["--data-fields"])[0]).data_fields;
  assert.deepEqual(await signprep.dataFields(file), want);
  assert.ok(want.length > 0);
});

test("the corpus sets (tags, forms, real) are the CLI's, byte for byte", async (t) => {
  const files = ["tags", "forms", "real"].flatMap((d) => filesIn(join(corpus, d)));
  if (files.length === 0) {
    t.skip(`no corpus at ${corpus}`);
    return;
  }
  const want = cliScan(files);
  const got = await lines(signprep.scanMany(files, { raw: true }));
  assert.equal(got.length, want.length);
  for (let i = 0; i < want.length; i++) assert.equal(got[i], want[i], files[i]);
  t.diagnostic(`${files.length} corpus files`);
});

/** Each record as `JSON.stringify` writes it: the CLI's line parsed, keys in the same order. */
const texts = (records) => records.map((r) => JSON.stringify(r));
const parsed = (want) => want.map((l) => JSON.stringify(JSON.parse(l)));

test("scanMany's records as objects are the CLI's lines parsed, keys in order", async (t) => {
  const hostile = filesIn(join(root, "testdata", "hostile"));
  const vendor = filesIn(join(root, "testdata", "migrate"));
  const sets = ["tags", "forms", "real", "malformed", "external"].flatMap((d) => filesIn(join(corpus, d)));
  const files = [...pdfs, ...hostile, ...vendor, ...sets, join(root, "no-such-file.pdf")];
  assert.deepEqual(texts(await lines(signprep.scanMany(files, { jobs: 2 }))), parsed(cliScan(files)));
  const options = [
    [{ dialects: "all" }, ["--dialect", "all"]],
    [{ dataFields: true, typeMap: { "SIG_*": "signature" } }, ["--data-fields", "--type-map", "SIG_*=signature"]],
  ];
  for (const [o, args] of options) {
    const some = [...pdfs.slice(0, 20), ...vendor];
    assert.deepEqual(texts(await lines(signprep.scanMany(some, o))), parsed(cliScan(some, args)), args.join(" "));
  }
  t.diagnostic(`${files.length} files`);
});

test("records as objects are the same where Node refuses code from strings", () => {
  // The objects are built key by key then (tape.cjs), not from generated object literals;
  // enough records that most go over as tapes (the first MB of JSON is lines: src/tape.rs).
  const files = [...pdfs, ...Array(4).fill(["tags", "forms", "real"].flatMap((d) => filesIn(join(corpus, d)))).flat()];
  const script = `
    const signprep = require(${JSON.stringify(pkgDir)});
    (async () => {
      const out = [];
      for await (const r of signprep.scanMany(JSON.parse(process.argv[1]))) out.push(JSON.stringify(r));
      process.stdout.write(JSON.stringify(out));
    })();`;
  const run = spawnSync(
    process.execPath,
    ["--disallow-code-generation-from-strings", "-e", script, JSON.stringify(files)],
    { encoding: "utf8", maxBuffer: 1 << 30 },
  );
  assert.equal(run.status, 0, run.stderr);
  assert.deepEqual(JSON.parse(run.stdout), parsed(cliScan(files)));
});

test("the ES module entry point is the same package", async () => {
  const m = await esm();
  assert.equal(m.scan, signprep.scan);
  assert.equal(m.SignprepError, signprep.SignprepError);
  assert.equal(m.default, signprep);
  const file = join(fixtures, "base14_courier.pdf");
  assert.deepEqual(await m.scan(file), JSON.parse(cliScan([file])[0]));
});
