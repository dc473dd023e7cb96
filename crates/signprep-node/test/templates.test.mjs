// Templates (.docx, .odt) through the package: scan and scanMany give the CLI's records, and
// scanMany of a list converts its templates ahead, several per LibreOffice process, as
// `signprep scan` does. LibreOffice is needed: without it these tests are skipped, unless
// SIGNPREP_REQUIRE_SOFFICE=1 (CI, which installs it), where they fail.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRequire } from "node:module";
import { test } from "node:test";
import { cliPath, cliScan, pkgDir, root, signprep } from "./helpers.mjs";

const native = createRequire(import.meta.url)(join(pkgDir, "native.cjs"));

const FILES = ["docx_places.docx", "docx_format_change.docx", "odt_clean_one_page.odt"].map((f) =>
  join(root, "testdata", "templates", f),
);
const PDF = join(root, "testdata", "fixtures", "base14_courier.pdf");

function soffice() {
  const found = spawnSync("soffice", ["--version"], { encoding: "utf8" });
  if (found.status === 0) return "soffice";
  if (process.env.SIGNPREP_REQUIRE_SOFFICE === "1") {
    throw new Error("SIGNPREP_REQUIRE_SOFFICE=1 but LibreOffice's soffice is not on PATH");
  }
  return null;
}

const program = soffice();

/** The PDFs in a conversion cache (one folder per hash prefix). */
function cached(dir) {
  return readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith(".pdf")).length;
}

/** A record without its converted PDF's hash (a conversion's PDF carries its time). */
function same(r) {
  return r.converted ? { ...r, converted: { ...r.converted, pdf_sha256: undefined } } : r;
}

test("scanMany of a list converts its templates ahead; records are the CLI's", { skip: !program }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "signprep-node-templates-"));
  try {
    const options = { soffice: program, cacheDir: join(dir, "direct") };
    // Three templates and a PDF: the three converted in one go, then nothing left to do.
    assert.equal(await native.prepareTemplates([...FILES, PDF], options), FILES.length);
    assert.equal(cached(join(dir, "direct")), FILES.length);
    assert.equal(await native.prepareTemplates([...FILES, PDF], options), 0);
    // Without a cache nothing is converted ahead (each is converted in its turn).
    assert.equal(await native.prepareTemplates(FILES, { soffice: program, noCache: true }), 0);

    const cache = join(dir, "cache");
    const got = [];
    for await (const r of signprep.scanMany([...FILES, PDF], { soffice: program, cacheDir: cache, jobs: 2 })) {
      got.push(r);
    }
    assert.equal(cached(cache), FILES.length);
    const want = cliScan([...FILES, PDF], ["--soffice", program, "--cache-dir", join(dir, "cli")]).map((l) =>
      JSON.parse(l),
    );
    assert.deepEqual(got.map(same), want.map(same));
    assert.deepEqual(
      got.map((r) => r.status),
      ["ok", "ok", "ok", "ok"],
    );
    // One template alone, through scan, from the cache scanMany filled.
    assert.deepEqual(same(await signprep.scan(FILES[0], { soffice: program, cacheDir: cache })), same(want[0]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const VENDOR = join(root, "testdata", "templates", "docx_vendor_dropbox.docx");

test("migrate of a template equals the CLI's, the converted PDF handed back", { skip: !program }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "signprep-node-migrate-"));
  try {
    const cache = join(dir, "cache");
    const signers = { signer1: "client@example.com" };
    for (const strip of [false, true]) {
      const out = join(dir, `out-${strip}`);
      const run = spawnSync(
        cliPath(),
        [
          "migrate",
          VENDOR,
          "--out",
          out,
          "--soffice",
          program,
          "--cache-dir",
          cache,
          "--quiet",
          ...Object.entries(signers).map(([k, v]) => `--signer=${k}=${v}`),
          ...(strip ? ["--strip"] : []),
        ],
        { encoding: "utf8" },
      );
      assert.equal(run.status, 0, run.stderr);
      const want = JSON.parse(readFileSync(join(out, "docx_vendor_dropbox.json"), "utf8"));
      const uploaded = readFileSync(join(out, "docx_vendor_dropbox.pdf"));
      const got = await signprep.migrate(VENDOR, { signers, soffice: program, cacheDir: cache, strip });
      // The same request, but that it uploads the bytes handed back, not a file written.
      assert.equal("upload" in got.request.requests[0], false);
      assert.equal(want.requests[0].upload, "docx_vendor_dropbox.pdf");
      delete want.requests[0].upload;
      assert.deepEqual(got.request, want);
      assert.ok(got.pdf.equals(uploaded), `strip ${strip}: the PDF is the one the CLI wrote`);
      assert.equal(got.stripped, undefined);
      // Bytes are told by their content.
      const byBytes = await signprep.migrate(readFileSync(VENDOR), {
        name: VENDOR,
        signers,
        soffice: program,
        cacheDir: cache,
        strip,
      });
      assert.deepEqual(byBytes.request, got.request);
      assert.ok(byBytes.pdf.equals(got.pdf));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("migrate of a template without LibreOffice rejects with convert_failed", async () => {
  await assert.rejects(signprep.migrate(VENDOR, { soffice: "/nonexistent/soffice" }), {
    name: "SignprepError",
    code: "convert_failed",
  });
  // A PDF needs no LibreOffice, and uploads the file given.
  const pdf = await signprep.migrate(join(root, "testdata", "migrate", "dropbox_contract.pdf"), {
    soffice: "/nonexistent/soffice",
  });
  assert.equal(pdf.pdf, undefined);
  assert.match(pdf.request.requests[0].upload, /dropbox_contract\.pdf$/);
});
