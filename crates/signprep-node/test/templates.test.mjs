// Templates (.docx, .odt) through the package: scan and scanMany give the CLI's records, and
// scanMany of a list converts its templates ahead, several per LibreOffice process, as
// `signprep scan` does. LibreOffice is needed: without it these tests are skipped, unless
// SIGNPREP_REQUIRE_SOFFICE=1 (CI, which installs it), where they fail.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRequire } from "node:module";
import { test } from "node:test";
import { cliScan, pkgDir, root, signprep } from "./helpers.mjs";

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
