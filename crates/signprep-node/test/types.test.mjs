// The TypeScript types are generated, and current: records.d.ts is what the schemas of
// the CLI (and the addon's finding schema) give, native.d.ts declares what the addon has.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { cliPath, pkgDir } from "./helpers.mjs";

const source = resolve(fileURLToPath(import.meta.url), "..", "..");

test("records.d.ts is what the schemas give (run `npm run types` when this fails)", async () => {
  const { generate, readSchemas } = await import(join(source, "scripts", "gen-types.mjs"));
  const want = generate(readSchemas(cliPath()));
  assert.equal(readFileSync(join(source, "records.d.ts"), "utf8"), want);
  assert.equal(readFileSync(join(pkgDir, "records.d.ts"), "utf8"), want, "the package's copy");
});

test("native.d.ts declares every function and class of the addon, and no other", () => {
  const native = createRequire(import.meta.url)(join(pkgDir, "native.cjs"));
  const dts = readFileSync(join(pkgDir, "native.d.ts"), "utf8");
  const declared = [...dts.matchAll(/^export declare (?:function|class) (\w+)/gm)].map((m) => m[1]).sort();
  assert.deepEqual(declared, Object.keys(native).sort());
});

test("the public declarations name every export of the JavaScript layer", () => {
  const api = createRequire(import.meta.url)(pkgDir);
  const dts = readFileSync(join(pkgDir, "index.d.ts"), "utf8");
  const declared = new Set([...dts.matchAll(/^export declare (?:function|class|const) (\w+)/gm)].map((m) => m[1]));
  assert.deepEqual([...declared].sort(), Object.keys(api).sort());
});
