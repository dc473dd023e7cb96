// check, pack, migrate, explain, codes and the errors: each against the CLI.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { cli, cliPath, filesIn, fixtures, pkgDir, root, signprep } from "./helpers.mjs";

const { SignprepError } = signprep;

/** A finding as compared: the CLI's `value` left out (the package does not look it up),
 * and a hint that names a command-line flag left out (the package names its option). */
function comparable(f) {
  const { value, ...rest } = f;
  if (rest.hint && /`--/.test(rest.hint)) delete rest.hint;
  return rest;
}

test("check of every case is the CLI's findings", async () => {
  const cases = [
    ...filesIn(join(root, "testdata", "check", "cases"), ".json"),
    ...filesIn(join(root, "testdata", "check", "cases"), ".toml"),
    ...filesIn(join(root, "testdata", "check", "clean"), ".json"),
  ];
  assert.ok(cases.length > 50);
  let checked = 0;
  for (const file of cases) {
    const want = JSON.parse(cli(["check", "--format", "ndjson", file]).split("\n")[0]);
    let got;
    try {
      got = await signprep.check(file);
    } catch (e) {
      assert.ok(e instanceof SignprepError, `${file}: ${e}`);
      assert.equal(e.code, "kind_unknown", file);
      assert.equal(want.kind, null, file);
      continue;
    }
    assert.equal(got.path, want.path);
    // The CLI leaves `kind` out when it could not be told; the package writes null.
    assert.equal(got.kind, want.kind ?? null, file);
    assert.deepEqual(got.findings.map(comparable), want.findings.map(comparable), file);
    checked += 1;
  }
  assert.ok(checked > 50);
});

test("check takes a body object, bytes and a kind; hints name the package's options", async () => {
  const file = join(root, "testdata", "check", "clean", "pack.json");
  const body = JSON.parse(readFileSync(file, "utf8"));
  const fromObject = await signprep.check(body);
  assert.equal(fromObject.kind, "pack");
  assert.deepEqual(fromObject.findings, (await signprep.check(file)).findings);
  const fromBytes = await signprep.check(readFileSync(file), { name: "body.json", kind: "pack" });
  assert.equal(fromBytes.path, "body.json");
  await assert.rejects(signprep.check({ nothing: "here" }), (e) => {
    assert.ok(e instanceof SignprepError);
    assert.equal(e.code, "kind_unknown");
    assert.match(e.message, /`kind:`/);
    return true;
  });
  await assert.rejects(signprep.check(body, { kind: "nonsense" }), TypeError);
});

test("pack of the worked example is the CLI's body", async () => {
  const manifest = join(root, "testdata", "example", "pack.toml");
  const want = JSON.parse(cli(["pack", manifest]));
  assert.deepEqual(await signprep.pack(manifest), want);
});

test("pack refused: a SignprepError with every finding", async () => {
  const manifest = join(root, "testdata", "check", "cases", "channel_unknown.manifest.toml");
  await assert.rejects(signprep.pack(manifest), (e) => {
    assert.ok(e instanceof SignprepError);
    assert.equal(e.code, "channel_unknown");
    assert.ok(e.findings.length >= 1);
    assert.ok(e.findings.every((f) => typeof f.code === "string" && typeof f.severity === "string"));
    return true;
  });
  await assert.rejects(signprep.pack({ name: "x", signers: [], documents: [{ path: "nope.pdf" }] }), SignprepError);
  await assert.rejects(signprep.pack(join(root, "nope.toml")), { name: "SignprepError", code: "io_error" });
});

test("migrate is the CLI's request; strip gives the PDF without the tags", async () => {
  const pdf = join(root, "testdata", "migrate", "adobe_contract.pdf");
  const signers = { signer1: "a@example.com", signer2: "b@example.com" };
  const args = ["migrate", pdf, "--signer", "signer1=a@example.com", "--signer", "signer2=b@example.com"];
  const want = JSON.parse(cli(args));
  const got = await signprep.migrate(pdf, { signers });
  assert.deepEqual(got.request, want);
  assert.equal(got.summary.signers, 2);
  assert.ok(got.findings.some((f) => f.code === "migrate_type_unmapped"));
  assert.equal(got.stripped, undefined);

  const strip = join(root, "testdata", "migrate", "strip_contract.pdf");
  const stripped = await signprep.migrate(readFileSync(strip), {
    signers: { Client: "c@example.com", Seller: "s@example.com" },
    strip: true,
    name: "strip_contract.pdf",
  });
  assert.ok(Buffer.isBuffer(stripped.stripped));
  assert.equal(stripped.stripped.subarray(0, 5).toString(), "%PDF-");
  // The stripped copy has no vendor tag left.
  const rescanned = await signprep.scan(stripped.stripped, { dialects: "all" });
  assert.equal((rescanned.vendor_tags ?? []).length, 0);
  const original = await signprep.scan(strip, { dialects: "all" });
  assert.ok(original.vendor_tags.length > 0);
});

test("migrate refused: unknown signer, with the closest one as hint in the package's words", async () => {
  const pdf = join(root, "testdata", "migrate", "adobe_contract.pdf");
  await assert.rejects(signprep.migrate(pdf, { signers: { signer9: "x@example.com" } }), (e) => {
    assert.ok(e instanceof SignprepError);
    assert.equal(e.code, "migrate_signer_unknown");
    const f = e.findings.find((x) => x.code === "migrate_signer_unknown");
    assert.ok(f && !/--signer/.test(f.hint ?? ""), JSON.stringify(f));
    return true;
  });
  await assert.rejects(signprep.migrate(pdf, { dialects: "docusign" }), TypeError);
});

test("explain and codes are the CLI's", () => {
  const all = signprep.codes();
  assert.ok(all.includes("tag_hidden") && all.includes("pdf_encrypted") && all.includes("channel_unknown"));
  assert.equal(new Set(all).size, all.length);
  const e = signprep.explain("TAG-HIDDEN");
  assert.equal(e.code, "tag_hidden");
  assert.ok(["error", "warning", "info"].includes(e.severity));
  const text = spawnSync(cliPath(), ["explain", "tag_hidden"], { encoding: "utf8" }).stdout;
  for (const line of e.doc.split("\n").filter((l) => l.trim().length > 20).slice(0, 3)) {
    assert.ok(text.includes(line.trim()), line);
  }
  assert.equal(signprep.explain("no_such_code"), undefined);
  for (const code of all) assert.ok(signprep.explain(code), code);
});

test("errors: SignprepError with the record's code, TypeError for arguments", async () => {
  await assert.rejects(signprep.scan(join(root, "nope.pdf")), (e) => {
    assert.ok(e instanceof SignprepError && e instanceof Error);
    assert.equal(e.code, "io_error");
    assert.equal(e.path, join(root, "nope.pdf"));
    assert.equal(e.record.status, "error");
    assert.deepEqual(e.findings, []);
    return true;
  });
  await assert.rejects(signprep.scan(Buffer.from("not a pdf")), { code: "pdf_unreadable" });
  const encrypted = filesIn(join(root, "testdata", "hostile")).find((f) => f.includes("encrypted_user_password"));
  await assert.rejects(signprep.scan(encrypted), { code: "pdf_encrypted" });
  await assert.rejects(signprep.scan(join(fixtures, "base14_courier.pdf"), { dpi: 0 }), {
    name: "TypeError",
    code: "ERR_INVALID_ARG_VALUE",
  });
  await assert.rejects(signprep.scan(42), TypeError);
  await assert.rejects(signprep.scan("x.pdf", { dialects: "klingon" }), TypeError);
  await assert.rejects(signprep.scan("x.pdf", { typeMap: "SIG=text" }), TypeError);
  assert.throws(() => signprep.scanMany(["x.pdf"], { jobs: 0 }), RangeError);
  assert.throws(() => signprep.scanMany(42), TypeError);
});

test("scan takes a readable stream's bytes, web and Node", async () => {
  const file = join(fixtures, "base14_courier.pdf");
  const want = await signprep.scan(file, { name: "-" });
  const { createReadStream } = await import("node:fs");
  assert.deepEqual(await signprep.scan(createReadStream(file, { highWaterMark: 1024 })), want);
  const bytes = readFileSync(file);
  const web = new ReadableStream({
    start(c) {
      c.enqueue(bytes.subarray(0, 100));
      c.enqueue(bytes.subarray(100));
      c.close();
    },
  });
  assert.deepEqual(await signprep.scan(web), want);
  assert.deepEqual(await signprep.scan(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)), want);
});

test("loading the package writes no diagnostic report (10-40 ms of start-up) when it holds one addon", () => {
  // process.report.getReport made to throw: the loader must not need it to pick the addon.
  const out = spawnSync(
    process.execPath,
    [
      "-e",
      'process.report.getReport = () => { throw new Error("getReport called"); };' +
        "console.log(require(process.argv[1]).version);",
      pkgDir,
    ],
    { encoding: "utf8" },
  );
  assert.equal(out.status, 0, out.stderr);
  assert.equal(out.stdout.trim(), signprep.version);
});
